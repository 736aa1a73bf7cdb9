/**
 * The battery service: its dump (`dumpsys battery`) and its shell command (`cmd battery …`, and
 * `dumpsys battery ARGS…`, which runs the same shell command): `get`, `set`, `unplug`, `reset`,
 * `help`.
 *
 * Facts: `frameworks/base/services/core/java/com/android/server/BatteryService.java`
 * (android-14.0.0_r50):
 * - `dumpInternal`: with no arguments or `-a`, `Current Battery Service state:`, `  (UPDATES
 *   STOPPED -- use 'reset' to restart)` while values are forced, then `AC powered`, `USB
 *   powered`, `Wireless powered`, `Dock powered`, `Max charging current`, `Max charging voltage`,
 *   `Charge counter`, `status`, `health`, `present`, `level`, `scale` (100), `voltage`,
 *   `temperature`, `technology` (Android 14 has no `current` and no `Charging state`/`Charging
 *   policy` lines); other arguments run the shell command with the dump's output for both streams.
 * - `onShellCommand`: `unplug` clears the four charger-online flags and nothing else
 *   (`unplugBattery`), stopping updates; `set KEY VALUE` (`No property specified`, `No value
 *   specified`, `Unknown set option: KEY`, `Bad value: VALUE`, status -1); `get KEY` prints the
 *   value (`Unknown get option: KEY`); `reset` goes back to the hardware's values (`resetBattery`);
 *   `-f` prints the broadcast's sequence number; no command → `handleDefaultCommands`.
 * - `dumpHelp` (`HELP_LINES`); `suspend_input` is listed on debuggable builds only.
 */
import type {CommandContext, CommandHandler} from '../types.ts';
import {execShellCommand, handleDefaultCommands, println, ShellArgs} from './shell-command.ts';
import {androidState, type BatteryState} from './state.ts';

/** `BatteryService.dumpHelp`, on a user build. */
const HELP_LINES = [
  'Battery service (battery) commands:',
  '  help',
  '    Print this help text.',
  '  get [-f] [ac|usb|wireless|dock|status|level|temp|present|counter|invalid]',
  '  set [-f] [ac|usb|wireless|dock|status|level|temp|present|counter|invalid] <value>',
  '    Force a battery property value, freezing battery state.',
  '    -f: force a battery change broadcast be sent, prints new sequence.',
  '  unplug [-f]',
  '    Force battery unplugged, freezing battery state.',
  '    -f: force a battery change broadcast be sent, prints new sequence.',
  '  reset [-f]',
  '    Unfreeze battery state, returning to current hardware values.',
  '    -f: force a battery change broadcast be sent, prints new sequence.',
];

/** `BATTERY_SCALE`. */
const BATTERY_SCALE = 100;

/** `mSequence` after the boot's broadcasts: the first forced update prints the next one. */
const FIRST_SEQUENCE = 142;

/** `BatteryService.dumpInternal` with no arguments: the state lines. */
export async function dumpBattery(context: CommandContext): Promise<void> {
  const b = androidState(context.device).battery;
  await println(context, 'Current Battery Service state:');
  if (b.updatesStopped) await println(context, "  (UPDATES STOPPED -- use 'reset' to restart)");
  await println(context, `  AC powered: ${b.acPowered}`);
  await println(context, `  USB powered: ${b.usbPowered}`);
  await println(context, `  Wireless powered: ${b.wirelessPowered}`);
  await println(context, `  Dock powered: ${b.dockPowered}`);
  await println(context, `  Max charging current: ${b.maxChargingCurrent}`);
  await println(context, `  Max charging voltage: ${b.maxChargingVoltage}`);
  await println(context, `  Charge counter: ${b.chargeCounter}`);
  await println(context, `  status: ${b.status}`);
  await println(context, `  health: ${b.health}`);
  await println(context, `  present: ${b.present}`);
  await println(context, `  level: ${b.level}`);
  await println(context, `  scale: ${BATTERY_SCALE}`);
  await println(context, `  voltage: ${b.voltage}`);
  await println(context, `  temperature: ${b.temperature}`);
  await println(context, `  technology: ${b.technology}`);
}

/** The broadcast sequence numbers of each device (`mSequence`), counted per forced update. */
const sequences = new WeakMap<object, number>();

/** `BatteryService.onShellCommand(shell, cmd)`. */
async function onShellCommand(context: CommandContext, command: string | undefined, rest: readonly string[]): Promise<number> {
  const state = androidState(context.device);
  const battery = state.battery;
  const args = new ShellArgs(rest, [], command);
  const parseOptions = () => {
    let force = false;
    for (let option; (option = args.nextOption()) !== undefined;) if (option === '-f') force = true;
    return force;
  };
  /** `processValuesLocked(forceUpdate, pw)`: with `-f`, the new broadcast's sequence number. */
  const processValues = async (force: boolean) => {
    if (!force) return;
    const sequence = (sequences.get(context.device) ?? FIRST_SEQUENCE) + 1;
    sequences.set(context.device, sequence);
    await println(context, String(sequence));
  };
  const help = async () => {
    await println(context, HELP_LINES.join('\n'));
  };
  switch (command) {
    case 'unplug': {
      const force = parseOptions();
      battery.acPowered = battery.usbPowered = battery.wirelessPowered = battery.dockPowered = false;
      battery.updatesStopped = true;
      await processValues(force);
      return 0;
    }
    case 'get': {
      const key = args.next();
      if (key === undefined) {
        await println(context, 'No property specified');
        return -1;
      }
      const values: Record<string, string> = {
        present: String(battery.present),
        ac: String(battery.acPowered),
        usb: String(battery.usbPowered),
        wireless: String(battery.wirelessPowered),
        dock: String(battery.dockPowered),
        status: String(battery.status),
        level: String(battery.level),
        counter: String(battery.chargeCounter),
        temp: String(battery.temperature),
        invalid: String(battery.invalidCharger),
      };
      await println(context, key in values ? values[key]! : `Unknown get option: ${key}`);
      return 0;
    }
    case 'set': {
      const force = parseOptions();
      const key = args.next();
      if (key === undefined) {
        await println(context, 'No property specified');
        return -1;
      }
      const value = args.next();
      if (value === undefined) {
        await println(context, 'No value specified');
        return -1;
      }
      // `Integer.parseInt(value)`, called only for a known key.
      const setters: Record<string, (n: number) => void> = {
        present: (n) => (battery.present = n !== 0),
        ac: (n) => (battery.acPowered = n !== 0),
        usb: (n) => (battery.usbPowered = n !== 0),
        wireless: (n) => (battery.wirelessPowered = n !== 0),
        dock: (n) => (battery.dockPowered = n !== 0),
        status: (n) => (battery.status = n),
        level: (n) => (battery.level = n),
        counter: (n) => (battery.chargeCounter = n),
        temp: (n) => (battery.temperature = n),
        invalid: (n) => (battery.invalidCharger = n),
      };
      const setter = setters[key];
      if (!setter) {
        await println(context, `Unknown set option: ${key}`);
        return 0;
      }
      if (!/^[+-]?\d+$/.test(value) || Math.abs(Number(value)) > 2147483647) {
        await println(context, `Bad value: ${value}`);
        return -1;
      }
      setter(Number(value));
      battery.updatesStopped = true;
      await processValues(force);
      return 0;
    }
    case 'reset': {
      const force = parseOptions();
      if (battery.updatesStopped) {
        Object.assign(battery, state.batteryHardware, {updatesStopped: false} satisfies Partial<BatteryState>);
        await processValues(force);
      }
      return 0;
    }
    default:
      return handleDefaultCommands(context, command, help);
  }
}

/** `cmd battery ARGS…` (`BatteryService.Shell`): see the file's comment. */
export const batteryCommand: CommandHandler = (context) =>
  execShellCommand(context, context.argv.slice(1), (command, rest) => onShellCommand(context, command, rest));

/**
 * `dumpsys battery [ARGS…]` (`BinderService.dump` → `dumpInternal`): the state with no arguments
 * or `-a`; the shell command otherwise. Returns nothing: `dumpsys` ends with status 0 either way.
 */
export async function batteryDump(context: CommandContext, args: readonly string[]): Promise<void> {
  if (args.length === 0 || args[0] === '-a') await dumpBattery(context);
  else await execShellCommand(context, args, (command, rest) => onShellCommand(context, command, rest));
}
