/**
 * Android's own programs behind the simulated shell: `getprop`/`setprop`, `pm` and `cmd package`,
 * `settings`, `am`/`cmd activity`, `monkey`, `cmd`, `dumpsys`, `input`, `screencap`, `logcat`,
 * `wm`, `bugreportz`, `reboot`, and toybox's `uname`/`uptime`. Their state (packages, settings,
 * install sessions, input events, started activities, log buffers, display overrides, battery)
 * lives per device in `androidState(device)`, seeded with fixed data so outputs are stable.
 *
 * Where each output format comes from is noted at each command (an AOSP file, or the
 * `@yume-chan/android-bin` 2.1.0 parser that reads it).
 */
import {LoggerEntry} from '@tango-v2/android-bin';

import type {SimulatedDevice} from '../device.ts';
import {parseApk, zip} from '../apk.ts';
import {adbdCredentials, dirname, FsError, AID} from '../fs.ts';
import {dataAppPath, SEEDED_PACKAGES, type PackageSeed} from '../packages.ts';
import {encodePng, PHYSICAL_DENSITY, PHYSICAL_SIZE, renderScreen, screenPng} from '../screen.ts';
import type {CommandContext, CommandHandler} from '../types.ts';

// ---- state ----------------------------------------------------------------------------------

/** A package the package manager knows (see `packages.ts` for the seeded ones). */
export interface PackageRecord extends PackageSeed {
  /** Split APKs besides `base.apk`, by split name. */
  splits: string[];
  /** Whether it is installed for user 0 (`pm uninstall --user 0` of a system app clears it). */
  installed: boolean;
  firstInstallTime: number;
}

/** An install session (`pm install-create`). */
export interface InstallSession {
  id: number;
  /** Split name → APK bytes written with `install-write`. */
  splits: Map<string, Uint8Array>;
  installer: string | null;
}

/** One event `input` injected, as the test helpers read it back. */
export type InputEvent =
  | {type: 'tap'; x: number; y: number; source: string; displayId: number}
  | {type: 'swipe'; x1: number; y1: number; x2: number; y2: number; durationMs: number; source: string; displayId: number}
  | {type: 'text'; text: string; source: string; displayId: number}
  | {type: 'keyevent'; keyCode: number; name: string; longpress: boolean; source: string; displayId: number}
  | {type: 'other'; argv: string[]};

/** An activity `am start` (or `monkey`) started. */
export interface ActivityStart {
  component: string;
  action?: string;
  data?: string;
  categories: string[];
  extras: Record<string, string | number | boolean>;
  user: number;
}

/** A log record in a logd buffer. */
export interface LogEntry {
  /** `LogId`: 0 main, 1 radio, 2 events, 3 system, 4 crash, 7 kernel. */
  buffer: number;
  /** `AndroidLogPriority`: 2 V, 3 D, 4 I, 5 W, 6 E, 7 F. */
  priority: number;
  tag: string;
  message: string;
  pid: number;
  tid: number;
  uid: number;
  seconds: number;
  nanoseconds: number;
}

type Namespace = 'system' | 'secure' | 'global';

/** Everything the Android commands remember about one device. */
export interface AndroidState {
  packages: Map<string, PackageRecord>;
  settings: Record<Namespace, Map<string, string>>;
  sessions: Map<number, InstallSession>;
  nextSessionId: number;
  nextUid: number;
  input: InputEvent[];
  activities: ActivityStart[];
  /** The component in front (`am start` of it again only delivers the intent). */
  foreground: string | undefined;
  log: LogEntry[];
  /** Called when an entry is added (for `logcat` without `-d`). */
  logListeners: Set<() => void>;
  display: {overrideWidth?: number; overrideHeight?: number; overrideDensity?: number};
  battery: BatteryState;
  screenOn: boolean;
}

/** The fields of `dumpsys battery` (BatteryService `mHealthInfo`). */
export interface BatteryState {
  acPowered: boolean;
  usbPowered: boolean;
  wirelessPowered: boolean;
  dockPowered: boolean;
  maxChargingCurrent: number;
  maxChargingVoltage: number;
  chargeCounter: number;
  status: number;
  health: number;
  present: boolean;
  level: number;
  voltage: number;
  temperature: number;
  technology: string;
  chargingState: number;
  chargingPolicy: number;
  updatesStopped: boolean;
}

const states = new WeakMap<SimulatedDevice, AndroidState>();

/** A fresh device's settings (`SettingsProvider` defaults of a Pixel 7, plus what setup wrote). */
function defaultSettings(device: SimulatedDevice): Record<Namespace, Map<string, string>> {
  const model = device.properties.get('ro.product.model') ?? 'Pixel 7';
  return {
    system: new Map([
      ['accelerometer_rotation', '1'],
      ['alarm_alert', 'content://media/internal/audio/media/21?title=Fresh%20start&canonical=1'],
      ['dim_screen', '1'],
      ['font_scale', '1.0'],
      ['haptic_feedback_enabled', '1'],
      ['notification_sound', 'content://media/internal/audio/media/33?title=Eureka&canonical=1'],
      ['ringtone', 'content://media/internal/audio/media/41?title=Your%20New%20Adventure&canonical=1'],
      ['screen_brightness', '102'],
      ['screen_brightness_mode', '1'],
      ['screen_off_timeout', '30000'],
      ['sound_effects_enabled', '1'],
      ['time_12_24', '24'],
      ['user_rotation', '0'],
      ['vibrate_when_ringing', '0'],
    ]),
    secure: new Map([
      ['android_id', '5f3c9a7b21d04e68'],
      ['backup_enabled', '1'],
      ['bluetooth_name', model],
      ['default_input_method', 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME'],
      ['enabled_input_methods', 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME'],
      ['location_mode', '3'],
      ['navigation_mode', '2'],
      ['screensaver_enabled', '0'],
      ['show_ime_with_hard_keyboard', '0'],
      ['skip_first_use_hints', '1'],
      ['user_setup_complete', '1'],
    ]),
    global: new Map([
      ['adb_enabled', '1'],
      ['adb_wifi_enabled', '0'],
      ['airplane_mode_on', '0'],
      ['animator_duration_scale', '1.0'],
      ['auto_time', '1'],
      ['auto_time_zone', '1'],
      ['bluetooth_on', '1'],
      ['boot_count', '12'],
      ['development_settings_enabled', '1'],
      ['device_name', model],
      ['device_provisioned', '1'],
      ['mobile_data', '1'],
      ['package_verifier_user_consent', '1'],
      ['stay_on_while_plugged_in', '0'],
      ['transition_animation_scale', '1.0'],
      ['usb_mass_storage_enabled', '1'],
      ['wifi_on', '1'],
      ['window_animation_scale', '1.0'],
    ]),
  };
}

/** The log of a device that booted some minutes before its clock's now: `(seconds before now, buffer, priority, tag, message, pid, tid, uid)`. */
const SEEDED_LOG: readonly (readonly [number, number, number, string, string, number, number, number])[] = [
  [600.0, 0, 4, 'auditd', 'type=2000 audit(0.0:1): state=initialized audit_enabled=0 res=1', 421, 421, 1036],
  [598.512, 3, 4, 'SystemServer', 'Entered the Android system server!', 1501, 1501, 1000],
  [
    596.204,
    3,
    4,
    'ActivityManager',
    'Start proc 2143:com.android.systemui/u0a171 for service {com.android.systemui/com.android.systemui.SystemUIService}',
    1501,
    1539,
    1000,
  ],
  [
    594.87,
    0,
    3,
    'BatteryService',
    'Processing new values: info={.chargerAcOnline = false, .chargerUsbOnline = true, .batteryLevel = 85}',
    1501,
    1501,
    1000,
  ],
  [
    590.003,
    3,
    4,
    'ActivityTaskManager',
    'START u0 {act=android.intent.action.MAIN cat=[android.intent.category.HOME] flg=0x10000100 cmp=com.google.android.apps.nexuslauncher/.NexusLauncherActivity} with LAUNCH_SINGLE_TASK from uid 0 (BAL_ALLOW_ALLOWLISTED_UID) result code=0',
    1501,
    1566,
    1000,
  ],
  [585.731, 0, 4, 'adbd', 'adbd started', 1122, 1122, 2000],
  [412.118, 0, 5, 'ConnectivityService', 'NetworkAgentInfo [WIFI () - 100] validation passed', 1501, 1783, 1000],
  [301.55, 0, 3, 'WifiNl80211Manager', 'Scan result ready event', 1501, 1840, 1010],
  [
    240.0,
    4,
    6,
    'AndroidRuntime',
    'FATAL EXCEPTION: main\nProcess: com.example.app, PID: 4242\njava.lang.IllegalStateException: demo crash\n\tat com.example.app.MainActivity.onCreate(MainActivity.java:21)',
    4242,
    4242,
    10216,
  ],
  [239.98, 3, 4, 'ActivityManager', 'Process com.example.app (pid 4242) has died: fg  TOP ', 1501, 1539, 1000],
  [120.25, 0, 4, 'chromium', '[INFO:CONSOLE(1)] "Page loaded", source: https://example.com/ (1)', 3310, 3310, 10160],
  [
    60.5,
    0,
    2,
    'NotificationService',
    'enqueueNotificationInternal: pkg=com.whatsapp id=1 notification=Notification(channel=individual_chat_defaults)',
    1501,
    2012,
    1000,
  ],
  [30.125, 0, 4, 'GCoreFlp', 'No location to return for getLastLocation()', 2470, 2511, 10151],
  [
    5.0,
    3,
    5,
    'PackageManager',
    'Not granting permission android.permission.SYSTEM_ALERT_WINDOW to package com.termux: not requested',
    1501,
    1539,
    1000,
  ],
  [1.75, 0, 4, 'ActivityManager', 'Displayed com.google.android.apps.nexuslauncher/.NexusLauncherActivity: +412ms', 1501, 1566, 1000],
];

/**
 * The Android state of `device`, created (and seeded) on first use: its packages
 * (`SEEDED_PACKAGES`), settings, log buffers (fixed entries timed before `device.now()`), an
 * empty input/activity record, the panel's display size and a battery at 85 % on USB power.
 */
export function androidState(device: SimulatedDevice): AndroidState {
  let state = states.get(device);
  if (state) return state;
  const now = device.now();
  const packages = new Map<string, PackageRecord>();
  for (const seed of SEEDED_PACKAGES) {
    packages.set(seed.name, {
      ...seed,
      splits: [...(seed.splits ?? [])],
      installed: true,
      firstInstallTime: Math.floor(now / 1000) - 25 * 86400,
    });
  }
  const log: LogEntry[] = SEEDED_LOG.map(([ago, buffer, priority, tag, message, pid, tid, uid]) => {
    const ms = now - Math.round(ago * 1000);
    return {buffer, priority, tag, message, pid, tid, uid, seconds: Math.floor(ms / 1000), nanoseconds: (ms % 1000) * 1_000_000 + 123_456};
  });
  state = {
    packages,
    settings: defaultSettings(device),
    sessions: new Map(),
    nextSessionId: 1342072181,
    nextUid: 10216,
    input: [],
    activities: [],
    foreground: 'com.google.android.apps.nexuslauncher/.NexusLauncherActivity',
    log,
    logListeners: new Set(),
    display: {},
    battery: {
      acPowered: false,
      usbPowered: true,
      wirelessPowered: false,
      dockPowered: false,
      maxChargingCurrent: 500000,
      maxChargingVoltage: 5000000,
      chargeCounter: 3663000,
      status: 2,
      health: 2,
      present: true,
      level: 85,
      voltage: 4231,
      temperature: 287,
      technology: 'Li-ion',
      chargingState: 2,
      chargingPolicy: 1,
      updatesStopped: false,
    },
    screenOn: true,
  };
  states.set(device, state);
  return state;
}

/** The display size screenshots and `framebuffer:` use: `wm size`'s override, else the panel's 1080 × 2400. */
export function displaySize(device: SimulatedDevice): {width: number; height: number} {
  const {display} = androidState(device);
  return {width: display.overrideWidth ?? PHYSICAL_SIZE.width, height: display.overrideHeight ?? PHYSICAL_SIZE.height};
}

/** Adds a log entry at the device's clock (it shows in `logcat`, and wakes `logcat` followers). */
export function addLog(device: SimulatedDevice, entry: Omit<LogEntry, 'seconds' | 'nanoseconds'>): void {
  const state = androidState(device);
  const ms = device.now();
  state.log.push({...entry, seconds: Math.floor(ms / 1000), nanoseconds: (ms % 1000) * 1_000_000});
  for (const listener of state.logListeners) listener();
}

// ---- helpers --------------------------------------------------------------------------------

const out = (context: CommandContext, text: string) => context.stdout(text);
const println = (context: CommandContext, text: string) => context.stdout(`${text}\n`);
const eprintln = (context: CommandContext, text: string) => context.stderr(`${text}\n`);

async function readAllStdin(context: CommandContext, limit = Infinity): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const chunk = await context.readStdin();
    if (!chunk) break;
    chunks.push(chunk);
    size += chunk.length;
  }
  const data = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    data.set(chunk, offset);
    offset += chunk.length;
  }
  return limit === Infinity ? data : data.subarray(0, limit);
}

/** Android's `ShellCommand` argument reader: `getNextOption` (words starting with `-`, until `--`), `getNextArg`, `getNextArgRequired`. */
class Args {
  #args: string[];
  #index = 0;
  constructor(args: readonly string[]) {
    this.#args = [...args];
  }
  nextOption(): string | undefined {
    const arg = this.#args[this.#index];
    if (arg === undefined || !arg.startsWith('-') || arg === '-') return undefined;
    this.#index += 1;
    if (arg === '--') return undefined;
    return arg;
  }
  next(): string | undefined {
    return this.#args[this.#index++];
  }
  peek(): string | undefined {
    return this.#args[this.#index];
  }
  required(option: string): string {
    const value = this.next();
    if (value === undefined) throw new ArgumentError(`Argument expected after "${option}"`);
    return value;
  }
  rest(): string[] {
    const rest = this.#args.slice(this.#index);
    this.#index = this.#args.length;
    return rest;
  }
}

class ArgumentError extends Error {}

/** `UserHandle.parseUserArg`: `all` → -1, `current`/`cur` → 0 here, else the number. */
function parseUser(value: string): number {
  if (value === 'all') return -1;
  if (value === 'current' || value === 'cur') return 0;
  const user = Number.parseInt(value, 10);
  if (Number.isNaN(user)) throw new ArgumentError(`Bad user number: ${value}`);
  return user;
}

// ---- getprop / setprop ----------------------------------------------------------------------

/**
 * `getprop [KEY [DEFAULT]]`: every property as `[key]: [value]` lines sorted by key, or one value
 * (empty line when unset). Format: `system/core/toolbox/getprop.cpp`.
 */
const getprop: CommandHandler = async (context) => {
  const properties = context.device.properties;
  const args = context.argv.slice(1).filter((arg) => !arg.startsWith('-'));
  if (args.length === 0) {
    const keys = [...properties.keys()].sort();
    await out(context, keys.map((key) => `[${key}]: [${properties.get(key)}]\n`).join(''));
    return 0;
  }
  await println(context, properties.get(args[0]!) ?? args[1] ?? '');
  return 0;
};

/** `setprop KEY VALUE`: `ro.*` properties are write-once (`system/core/toolbox/setprop.cpp`, `init`'s property service). */
const setprop: CommandHandler = async (context) => {
  const [key, value] = context.argv.slice(1);
  if (key === undefined || value === undefined) {
    await eprintln(context, 'usage: setprop NAME VALUE\n\nSets an Android system property.');
    return 1;
  }
  const properties = context.device.properties;
  if ((key.startsWith('ro.') && properties.has(key)) || value.length > 91) {
    await eprintln(context, `setprop: failed to set property '${key}' to '${value}'`);
    return 1;
  }
  properties.set(key, value);
  return 0;
};

// ---- pm / cmd package -----------------------------------------------------------------------

function systemApp(state: AndroidState, name: string): PackageRecord | undefined {
  const record = state.packages.get(name);
  return record?.installed ? record : undefined;
}

/**
 * Installs APK bytes as the package they name: an update keeps the uid, a new package gets the
 * next app uid and a `/data/app` path. Resolves with `Success` or a `Failure [CODE: message]` line
 * (codes of `PackageManager.installStatusToString`).
 */
function installApk(
  context: CommandContext,
  apks: {name: string; data: Uint8Array}[],
  options: {installer: string | null; skipExisting: boolean; downgrade: boolean},
  sessionId?: number,
): string {
  const device = context.device;
  const state = androidState(device);
  const session = sessionId ?? state.nextSessionId++;
  // The base APK is the one whose manifest names no split; the others install as `split_NAME.apk`
  // under the split name of their own manifest (the name given to `install-write` only labels the
  // session's file).
  const base = apks.find((apk) => parseApk(apk.data)?.split === undefined) ?? apks[0];
  const tmp = `/data/app/vmdl${session}.tmp/base.apk`;
  const info = base ? parseApk(base.data) : undefined;
  if (!base || !info) return `Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse ${tmp}: Failed to load asset path ${tmp}]`;
  const existing = state.packages.get(info.packageName);
  if (existing?.installed && options.skipExisting) {
    return `Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install ${info.packageName} without first uninstalling.]`;
  }
  if (existing?.installed && info.versionCode < existing.versionCode && !options.downgrade) {
    return `Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code ${info.versionCode} is older than current ${existing.versionCode}]`;
  }
  // A new code path for every install (Android picks random names; these are derived from the session id).
  const path = dataAppPath(info.packageName, session);
  const fs = device.fs;
  if (existing && !existing.system) {
    try {
      fs.remove(dirname(dirname(existing.path)), {recursive: true});
    } catch {
      // Already gone.
    }
  }
  fs.mkdir(dirname(path), {recursive: true, mode: 0o775});
  fs.chown(dirname(path), AID.system, AID.system);
  fs.chown(dirname(dirname(path)), AID.system, AID.system);
  fs.writeFile(path, base.data, {mode: 0o644, uid: AID.system, gid: AID.system});
  const splits: string[] = [];
  for (const apk of apks) {
    if (apk === base) continue;
    const name = parseApk(apk.data)?.split ?? apk.name;
    fs.writeFile(`${dirname(path)}/split_${name}.apk`, apk.data, {mode: 0o644, uid: AID.system, gid: AID.system});
    splits.push(name);
  }
  const uid = existing?.uid ?? state.nextUid++;
  state.packages.set(info.packageName, {
    name: info.packageName,
    path,
    splits,
    system: existing?.system ?? false,
    uid,
    versionCode: info.versionCode,
    versionName: info.versionName,
    installer: options.installer,
    enabled: true,
    installed: true,
    launcher: existing?.launcher ?? `${info.packageName}/.MainActivity`,
    firstInstallTime: existing?.firstInstallTime ?? fs.nowSeconds(),
  });
  if (!fs.stat(`/data/data/${info.packageName}`)) {
    fs.mkdir(`/data/data/${info.packageName}`, {mode: 0o700});
    fs.chown(`/data/data/${info.packageName}`, uid, uid);
  }
  addLog(device, {
    buffer: 3,
    priority: 4,
    tag: 'PackageManager',
    message: `Integrity check passed for file:///data/app/vmdl${session}.tmp`,
    pid: 1501,
    tid: 1539,
    uid: 1000,
  });
  return 'Success';
}

/** Parses `pm install`'s options (`PackageManagerShellCommand.makeInstallParams`); `undefined` after printing an error. */
function installOptions(args: Args): {installer: string | null; skipExisting: boolean; downgrade: boolean; size?: number; user: number} {
  const options = {installer: null as string | null, skipExisting: false, downgrade: false, size: undefined as number | undefined, user: 0};
  for (let option; (option = args.nextOption()) !== undefined;) {
    switch (option) {
      case '-i':
      case '--installer':
        options.installer = args.required(option);
        break;
      case '-R':
        options.skipExisting = true;
        break;
      case '-d':
        options.downgrade = true;
        break;
      case '-S':
        options.size = Number(args.required(option));
        break;
      case '--user':
        options.user = parseUser(args.required(option));
        break;
      case '-p':
      case '--pkg':
      case '--abi':
      case '--originating-uri':
      case '--referrer':
      case '--install-location':
      case '--install-reason':
      case '--force-uuid':
      case '--staged-ready-timeout':
      case '--update-ownership':
        args.required(option);
        break;
      case '-r':
      case '-t':
      case '-f':
      case '-g':
      case '-l':
      case '-s':
      case '--restrict-permissions':
      case '--dont-kill':
      case '--ephemeral':
      case '--instant':
      case '--instantapp':
      case '--full':
      case '--preload':
      case '--apex':
      case '--force-non-staged':
      case '--staged':
      case '--force-queryable':
      case '--enable-rollback':
      case '--skip-verification':
      case '--bypass-low-target-sdk-block':
      case '--wait':
      case '--no-wait':
      case '--multi-package':
      case '--streaming':
      case '--no-streaming':
      case '--incremental':
      case '--no-incremental':
        break;
      default:
        throw new ArgumentError(`Unknown option ${option}`);
    }
  }
  return options;
}

function listPackages(context: CommandContext, args: Args): Promise<number> {
  return (async () => {
    const state = androidState(context.device);
    const o = {
      d: false,
      e: false,
      f: false,
      i: false,
      s: false,
      U: false,
      u: false,
      three: false,
      versionCode: false,
      apexOnly: false,
      uid: -1,
    };
    for (let option; (option = args.nextOption()) !== undefined;) {
      switch (option) {
        case '-d':
          o.d = true;
          break;
        case '-e':
          o.e = true;
          break;
        case '-a':
        case '-l':
          break;
        case '-f':
          o.f = true;
          break;
        case '-i':
          o.i = true;
          break;
        case '-s':
          o.s = true;
          break;
        case '-U':
          o.U = true;
          break;
        case '-u':
          o.u = true;
          break;
        case '-3':
          o.three = true;
          break;
        case '--show-versioncode':
          o.versionCode = true;
          break;
        case '--apex-only':
          o.apexOnly = true;
          break;
        case '--user':
          parseUser(args.required(option));
          break;
        case '--uid':
          o.U = true;
          o.uid = Number.parseInt(args.required(option), 10);
          break;
        default:
          await println(context, `Error: Unknown option: ${option}`);
          return 255;
      }
    }
    const filter = args.next();
    const lines: string[] = [];
    for (const record of state.packages.values()) {
      if (!record.installed && !o.u) continue;
      if (filter !== undefined && !record.name.includes(filter)) continue;
      if (o.uid !== -1 && record.uid !== o.uid) continue;
      if (o.d && record.enabled) continue;
      if (o.e && !record.enabled) continue;
      if (o.s && !record.system) continue;
      if (o.three && record.system) continue;
      if (o.apexOnly) continue;
      let line = 'package:';
      if (o.f) line += `${record.path}=`;
      line += record.name;
      if (o.versionCode) line += ` versionCode:${record.versionCode}`;
      if (o.i) line += `  installer=${record.installer}`;
      if (o.U) line += ` uid:${record.uid}`;
      lines.push(line);
    }
    await out(context, lines.map((line) => `${line}\n`).join(''));
    return 0;
  })();
}

/** `pm path PACKAGE`: `package:PATH` for the base APK and each split; exit 1 when not installed. */
async function packagePath(context: CommandContext, name: string | undefined): Promise<number> {
  const record = name === undefined ? undefined : systemApp(androidState(context.device), name);
  if (!record) return 1;
  let text = `package:${record.path}\n`;
  for (const split of record.splits) text += `package:${dirname(record.path)}/split_${split}.apk\n`;
  await out(context, text);
  return 0;
}

/**
 * The package manager's shell command (`pm …`, `cmd package …`, `abb_exec:package…`).
 * Formats: `frameworks/base/services/core/java/com/android/server/pm/PackageManagerShellCommand.java`
 * (`runListPackages`, `runPath`, `runInstall*`, `runUninstall`, `runSetEnabledSetting`,
 * `runClear`, `runResolveActivity`), as `@yume-chan/android-bin`'s `PackageManager` parses them.
 */
async function packageCommand(context: CommandContext, argv: readonly string[]): Promise<number> {
  const state = androidState(context.device);
  const fs = context.device.fs;
  const cred = adbdCredentials(context.device.properties);
  const args = new Args(argv);
  const command = args.next();
  try {
    switch (command) {
      case 'list': {
        const what = args.next();
        if (what === 'packages') return await listPackages(context, args);
        if (what === 'users') {
          await out(context, 'Users:\n\tUserInfo{0:Owner:c13} running\n');
          return 0;
        }
        if (what === 'features') {
          await out(
            context,
            [
              'android.hardware.bluetooth',
              'android.hardware.camera',
              'android.hardware.nfc',
              'android.hardware.touchscreen',
              'android.hardware.wifi',
              'android.software.webview',
            ]
              .map((feature) => `feature:${feature}\n`)
              .join(''),
          );
          return 0;
        }
        if (what === 'libraries') {
          await out(
            context,
            'library:android.test.base\nlibrary:android.test.mock\nlibrary:android.test.runner\nlibrary:org.apache.http.legacy\n',
          );
          return 0;
        }
        await println(context, `Error: unknown list type '${what}'`);
        return 255;
      }
      case 'path': {
        for (let option; (option = args.nextOption()) !== undefined;) if (option === '--user') args.required(option);
        return await packagePath(context, args.next());
      }
      case '-p':
        return await packagePath(context, args.next());
      case 'install': {
        const options = installOptions(args);
        const paths = args.rest();
        if (options.size !== undefined || paths.length === 0 || paths[0] === '-') {
          // Streamed install: exactly SIZE bytes of standard input (`-S`).
          const data = await readAllStdin(context, options.size ?? Infinity);
          await println(context, installApk(context, [{name: 'base', data}], options));
          return 0;
        }
        const apks: {name: string; data: Uint8Array}[] = [];
        for (const [index, path] of paths.entries()) {
          try {
            apks.push({name: index === 0 ? 'base' : `split${index}`, data: fs.readFile(path, {cred})});
          } catch (error) {
            if (!(error instanceof FsError)) throw error;
            await println(context, `Error: Can't open file: ${path}`);
            await println(context, 'Consider using a file under /data/local/tmp/');
            await println(context, `Error: Can't open file: ${path}`);
            await println(context, "Exception occurred while executing 'install':");
            await println(context, `java.lang.IllegalArgumentException: Error: Can't open file: ${path}`);
            return 255;
          }
        }
        const result = installApk(context, apks, options);
        await println(context, result);
        return result === 'Success' ? 0 : 1;
      }
      case 'install-create': {
        const options = installOptions(args);
        const id = state.nextSessionId++;
        state.sessions.set(id, {id, splits: new Map(), installer: options.installer});
        await println(context, `Success: created install session [${id}]`);
        return 0;
      }
      case 'install-write': {
        let size: number | undefined;
        for (let option; (option = args.nextOption()) !== undefined;) if (option === '-S') size = Number(args.required(option));
        const id = Number(args.next());
        const split = args.next() ?? 'base';
        const path = args.next() ?? '-';
        const session = state.sessions.get(id);
        if (!session) {
          await println(context, `Error: Unable to open session ${id}: java.lang.SecurityException: Caller has no access to session ${id}`);
          return 255;
        }
        let data: Uint8Array;
        if (path === '-') data = await readAllStdin(context, size ?? Infinity);
        else {
          try {
            data = fs.readFile(path, {cred});
          } catch {
            await println(context, `Error: Can't open file: ${path}`);
            return 255;
          }
        }
        session.splits.set(split.replace(/\.apk$/, ''), data);
        await println(context, `Success: streamed ${data.length} bytes`);
        return 0;
      }
      case 'install-commit': {
        const id = Number(args.next());
        const session = state.sessions.get(id);
        if (!session) {
          await println(context, `Error: Unable to open session ${id}: java.lang.SecurityException: Caller has no access to session ${id}`);
          return 255;
        }
        state.sessions.delete(id);
        const names = [...session.splits.keys()];
        const baseName = names.includes('base') ? 'base' : names[0];
        const apks = [...session.splits].map(([name, data]) => ({name: name === baseName ? 'base' : name, data}));
        const result =
          apks.length === 0
            ? 'Failure [INSTALL_FAILED_INVALID_APK: No packages staged in /data/app/vmdl' + id + '.tmp]'
            : installApk(context, apks, {installer: session.installer, skipExisting: false, downgrade: false}, id);
        await println(context, result);
        return result === 'Success' ? 0 : 1;
      }
      case 'install-abandon':
      case 'install-destroy': {
        const id = Number(args.next());
        if (!state.sessions.delete(id)) {
          await println(context, `Error: Unable to open session ${id}: java.lang.SecurityException: Caller has no access to session ${id}`);
          return 255;
        }
        await println(context, 'Success');
        return 0;
      }
      case 'uninstall': {
        let keepData = false;
        let user: number | undefined;
        for (let option; (option = args.nextOption()) !== undefined;) {
          if (option === '-k') keepData = true;
          else if (option === '--user') user = parseUser(args.required(option));
          else if (option === '--versionCode') args.required(option);
          else {
            await println(context, `Error: Unknown option: ${option}`);
            return 1;
          }
        }
        const name = args.next();
        const record = name === undefined ? undefined : systemApp(state, name);
        if (!name) {
          await println(context, 'Error: package name not specified');
          return 1;
        }
        if (!record || (record.system && user === undefined)) {
          await println(context, 'Failure [DELETE_FAILED_INTERNAL_ERROR]');
          return 1;
        }
        // `uninstall PACKAGE SPLIT…` removes only those splits, through an install session that
        // inherits the rest (`runRemoveSplits`; `PackageInstallerSession` checks each name).
        const splitNames = args.rest();
        if (splitNames.length > 0) {
          const missing = splitNames.find((split) => !record.splits.includes(split));
          if (missing !== undefined) {
            await println(context, `Failure [INSTALL_FAILED_INVALID_APK: Split not found: ${missing}]`);
            return 1;
          }
          for (const split of splitNames) fs.remove(`${dirname(record.path)}/split_${split}.apk`);
          record.splits = record.splits.filter((split) => !splitNames.includes(split));
          await println(context, 'Success');
          return 0;
        }
        if (record.system) record.installed = false;
        else {
          state.packages.delete(name);
          try {
            fs.remove(dirname(dirname(record.path)), {recursive: true});
            if (!keepData) fs.remove(`/data/data/${name}`, {recursive: true});
          } catch {
            // Already gone.
          }
        }
        await println(context, 'Success');
        return 0;
      }
      case 'install-existing': {
        for (let option; (option = args.nextOption()) !== undefined;) if (option === '--user') args.required(option);
        const name = args.next();
        const record = name === undefined ? undefined : state.packages.get(name);
        if (!record) {
          await println(context, `android.content.pm.PackageManager$NameNotFoundException: Package ${name} doesn't exist`);
          return 1;
        }
        record.installed = true;
        await println(context, `Package ${name} installed for user: 0`);
        return 0;
      }
      case 'enable':
      case 'disable':
      case 'disable-user':
      case 'disable-until-used':
      case 'default-state': {
        for (let option; (option = args.nextOption()) !== undefined;) if (option === '--user') args.required(option);
        const name = args.next() ?? '';
        const record = systemApp(state, name.split('/')[0]!);
        if (!record) {
          await eprintln(context, `Exception occurred while executing '${command}':`);
          await eprintln(context, `java.lang.IllegalArgumentException: Unknown package: ${name}`);
          return 255;
        }
        record.enabled = command === 'enable' || command === 'default-state';
        const stateName = {
          enable: 'enabled',
          disable: 'disabled',
          'disable-user': 'disabled-user',
          'disable-until-used': 'disabled-until-used',
          'default-state': 'default',
        }[command];
        await println(context, `Package ${name} new state: ${stateName}`);
        return 0;
      }
      case 'clear': {
        for (let option; (option = args.nextOption()) !== undefined;) if (option === '--user') args.required(option);
        const name = args.next() ?? '';
        await println(context, systemApp(state, name) ? 'Success' : 'Failed');
        return 0;
      }
      case 'grant':
      case 'revoke': {
        for (let option; (option = args.nextOption()) !== undefined;) if (option === '--user') args.required(option);
        const name = args.next() ?? '';
        if (!systemApp(state, name)) {
          await eprintln(context, `Exception occurred while executing '${command}':`);
          await eprintln(context, `java.lang.IllegalArgumentException: Unknown package: ${name}`);
          return 255;
        }
        return 0;
      }
      case 'resolve-activity': {
        let components = false;
        const intent = parseIntent(new Args(args.rest()), (option) => {
          if (option === '--components') components = true;
          else if (option === '--brief') components = true;
          else return false;
          return true;
        });
        const component = resolveActivity(state, intent);
        if (!component) await println(context, 'No activity found');
        else if (components) await println(context, component);
        else
          await out(
            context,
            `priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\nActivityInfo:\n  name=${component}\n`,
          );
        return 0;
      }
      case 'get-install-location':
        await println(context, '0[auto]');
        return 0;
      case 'has-feature':
        await println(
          context,
          String(['android.hardware.touchscreen', 'android.hardware.wifi', 'android.hardware.camera'].includes(args.next() ?? '')),
        );
        return 0;
      case 'get-max-users':
        await println(context, 'Maximum supported users: 4');
        return 0;
      case undefined:
      case 'help':
      case '-h':
        await out(
          context,
          'Package manager (package) commands:\n  help\n    Print this help text.\n\n  path [--user USER_ID] PACKAGE\n    Print the path to the .apk of the given PACKAGE.\n',
        );
        return 0;
      default:
        await println(context, `Unknown command: ${command}`);
        return 255;
    }
  } catch (error) {
    if (!(error instanceof ArgumentError)) throw error;
    await println(context, `Error: ${error.message}`);
    return 255;
  }
}

// ---- settings -------------------------------------------------------------------------------

/**
 * `settings [--user U] get|put|delete|list|reset NAMESPACE …` (`frameworks/base/packages/
 * SettingsProvider/src/com/android/providers/settings/SettingsService.java`): `get` prints the
 * value or `null`; `put` prints nothing (but a note when `default` is asked of the system table);
 * `delete` prints `Deleted N rows`; `list` prints sorted `key=value` lines; `reset` refuses the
 * system table and otherwise puts the table back to the device's first-boot values. `@yume-chan/android-bin`'s `Settings.get` drops the last newline.
 */
async function settingsCommand(context: CommandContext, argv: readonly string[]): Promise<number> {
  const state = androidState(context.device);
  const args = [...argv];
  while (args[0] === '--user') args.splice(0, 2);
  const [verb, namespace, ...rest] = args;
  const usage = async (message: string) => {
    await eprintln(context, message);
    await eprintln(context, 'usage:  settings [--user <USER_ID> | current] get namespace key');
    await eprintln(context, '        settings [--user <USER_ID> | current] put namespace key value');
    return 255;
  };
  if (!verb) return usage('Invalid command: null');
  if (!['get', 'put', 'delete', 'list', 'reset'].includes(verb)) return usage(`Invalid command: ${verb}`);
  if (!namespace || !['system', 'secure', 'global'].includes(namespace)) return usage(`Invalid namespace: ${namespace ?? 'null'}`);
  const table = state.settings[namespace as Namespace];
  switch (verb) {
    case 'get': {
      const key = rest[0];
      if (key === undefined) return usage('Bad arguments');
      await println(context, table.get(key) ?? 'null');
      return 0;
    }
    case 'put': {
      const [key, value] = rest;
      if (key === undefined || value === undefined) return usage('Bad arguments');
      table.set(key, value);
      // `[TAG] [default]`: `default` makes the value the default, which the system table has none of.
      if (namespace === 'system' && rest.slice(2).some((word) => word.toLowerCase() === 'default')) {
        await out(context, "Ignored makeDefault - doesn't apply to system settings");
      }
      return 0;
    }
    case 'delete': {
      const key = rest[0];
      if (key === undefined) return usage('Bad arguments');
      await println(context, `Deleted ${table.delete(key) ? 1 : 0} rows`);
      return 0;
    }
    case 'list': {
      const keys = [...table.keys()].sort();
      await out(context, keys.map((key) => `${key}=${table.get(key)}\n`).join(''));
      return 0;
    }
    default: {
      // `resetForUser` knows the secure and global tables only.
      if (namespace === 'system') {
        await eprintln(context, 'Invalid table; no reset performed');
        return 0;
      }
      const defaults = defaultSettings(context.device)[namespace as Namespace];
      table.clear();
      for (const [key, value] of defaults) table.set(key, value);
      return 0;
    }
  }
}

// ---- am / intents ---------------------------------------------------------------------------

interface Intent {
  action?: string;
  data?: string;
  type?: string;
  categories: string[];
  component?: string;
  packageName?: string;
  flags: number;
  extras: Record<string, string | number | boolean>;
  user: number;
}

/** `Intent.parseCommandArgs` (`frameworks/base/core/java/android/content/Intent.java`), for the options `am`/`pm` accept; `handle` takes command-specific options. */
function parseIntent(args: Args, handle: (option: string, args: Args) => boolean): Intent {
  const intent: Intent = {categories: [], flags: 0, extras: {}, user: 0};
  for (let option; (option = args.nextOption()) !== undefined;) {
    if (handle(option, args)) continue;
    switch (option) {
      case '-a':
        intent.action = args.required(option);
        break;
      case '-d':
        intent.data = args.required(option);
        break;
      case '-t':
        intent.type = args.required(option);
        break;
      case '-c':
        intent.categories.push(args.required(option));
        break;
      case '-n':
        intent.component = normalizeComponent(args.required(option));
        break;
      case '-p':
        intent.packageName = args.required(option);
        break;
      case '-f':
        intent.flags |= Number(args.required(option));
        break;
      case '-e':
      case '--es':
        intent.extras[args.required(option)] = args.required(option);
        break;
      case '--ei':
      case '--el':
        intent.extras[args.required(option)] = Number(args.required(option));
        break;
      case '--ez':
        intent.extras[args.required(option)] = args.required(option) === 'true';
        break;
      case '--esn':
        intent.extras[args.required(option)] = '';
        break;
      case '--user':
        intent.user = parseUser(args.required(option));
        break;
      case '--activity-clear-task':
        intent.flags |= 0x8000;
        break;
      case '--activity-clear-top':
        intent.flags |= 0x4000000;
        break;
      case '--activity-new-task':
        intent.flags |= 0x10000000;
        break;
      case '--activity-single-top':
        intent.flags |= 0x20000000;
        break;
      case '--receiver-foreground':
        intent.flags |= 0x10000000;
        break;
      default:
        throw new ArgumentError(`Unknown option: ${option}`);
    }
  }
  // A lone argument is a URI (or a component with `/`).
  const rest = args.next();
  if (rest !== undefined) {
    if (rest.includes('/') && !rest.includes(':')) intent.component = normalizeComponent(rest);
    else intent.data = rest;
  }
  return intent;
}

/** `ComponentName.unflattenFromString` then `flattenToShortString`: `pkg/.Cls` for classes in the package. */
function normalizeComponent(text: string): string {
  const [pkg, cls] = text.split('/', 2) as [string, string | undefined];
  if (!cls) return text;
  const full = cls.startsWith('.') ? pkg + cls : cls;
  return full.startsWith(`${pkg}.`) ? `${pkg}/${full.slice(pkg.length)}` : `${pkg}/${full}`;
}

/** `Uri.toSafeString`: phone-like schemes masked, web URLs cut to the host. */
function safeUri(uri: string): string {
  const scheme = /^([a-zA-Z][\w+.-]*):(.*)$/.exec(uri);
  if (!scheme) return uri;
  const [, name, rest] = scheme as unknown as [string, string, string];
  const lower = name.toLowerCase();
  if (['tel', 'sip', 'sms', 'smsto', 'mailto', 'nfc'].includes(lower)) return `${name}:${rest.replace(/[^-@.]/g, 'x')}`;
  if (['http', 'https', 'ftp', 'rtsp'].includes(lower)) {
    const host = /^\/\/([^/?#]*)/.exec(rest)?.[1] ?? '';
    return `${name}://${host}/...`;
  }
  return uri;
}

/** `Intent.toString()`: `Intent { act=… cat=[…] dat=… typ=… flg=0x… pkg=… cmp=… (has extras) }`. */
function intentString(intent: Intent, extraFlags = 0): string {
  const parts: string[] = [];
  if (intent.action) parts.push(`act=${intent.action}`);
  if (intent.categories.length > 0) parts.push(`cat=[${intent.categories.join(',')}]`);
  if (intent.data) parts.push(`dat=${safeUri(intent.data)}`);
  if (intent.type) parts.push(`typ=${intent.type}`);
  const flags = intent.flags | extraFlags;
  if (flags) parts.push(`flg=0x${flags.toString(16)}`);
  if (intent.packageName) parts.push(`pkg=${intent.packageName}`);
  if (intent.component) parts.push(`cmp=${intent.component}`);
  if (Object.keys(intent.extras).length > 0) parts.push('(has extras)');
  return parts.length > 0 ? `Intent { ${parts.join(' ')} }` : 'Intent {  }';
}

/** The activity an intent resolves to, or `undefined`: explicit components of installed packages, launchers, web and phone URIs. */
function resolveActivity(state: AndroidState, intent: Intent): string | undefined {
  if (intent.component) {
    const record = systemApp(state, intent.component.split('/')[0]!);
    return record?.enabled ? intent.component : undefined;
  }
  const enabled = (name: string) => {
    const record = systemApp(state, name);
    return record?.enabled ? record : undefined;
  };
  if (intent.packageName) {
    const record = enabled(intent.packageName);
    if (record?.launcher && (!intent.action || intent.action === 'android.intent.action.MAIN')) return record.launcher;
  }
  const data = intent.data?.toLowerCase() ?? '';
  if (intent.action === 'android.intent.action.VIEW' || (!intent.action && data)) {
    if (/^https?:/.test(data))
      return enabled('com.android.chrome') ? 'com.android.chrome/com.google.android.apps.chrome.IntentDispatcher' : undefined;
    if (/^tel:/.test(data))
      return enabled('com.google.android.dialer') ? 'com.google.android.dialer/.extensions.GoogleDialtactsActivity' : undefined;
    if (/^(sms|smsto):/.test(data)) return 'com.google.android.apps.messaging/.ui.conversation.LaunchConversationShimActivity';
    if (/^market:/.test(data)) return 'com.android.vending/com.google.android.finsky.activities.MarketDeepLinkHandlerActivity';
  }
  if (intent.action === 'android.settings.SETTINGS') return 'com.android.settings/.Settings';
  if (intent.action === 'android.intent.action.MAIN' && intent.categories.includes('android.intent.category.HOME')) {
    return 'com.google.android.apps.nexuslauncher/.NexusLauncherActivity';
  }
  return undefined;
}

/** Records a started activity and logs `ActivityTaskManager: START u0 {…}` as Android 14 does. */
function startActivity(context: CommandContext, intent: Intent, component: string): boolean {
  const state = androidState(context.device);
  const delivered = state.foreground === component;
  state.foreground = component;
  state.activities.push({
    component,
    action: intent.action,
    data: intent.data,
    categories: [...intent.categories],
    extras: {...intent.extras},
    user: intent.user,
  });
  const text = intentString({...intent, component}, 0x10000000)
    .replace(/^Intent \{ /, '{')
    .replace(/ \}$/, '}');
  addLog(context.device, {
    buffer: 3,
    priority: 4,
    tag: 'ActivityTaskManager',
    message: `START u0 ${text} with LAUNCH_MULTIPLE from uid ${adbdCredentials(context.device.properties).uid} (BAL_ALLOW_PERMISSION) result code=${delivered ? 3 : 0}`,
    pid: 1501,
    tid: 1566,
    uid: 1000,
  });
  return delivered;
}

/**
 * The activity manager's shell command (`am …`, `cmd activity …`): `start`/`start-activity`
 * (`-W`, `-S`, `--user`, `--display`, intent options), `force-stop`, `kill`, `broadcast`,
 * `get-current-user`. Formats: `frameworks/base/services/core/java/com/android/server/am/
 * ActivityManagerShellCommand.java` (`runStartActivity`: `Starting: Intent { … }`, `-W`'s
 * `Status`/`LaunchState`/`Activity`/`TotalTime`/`WaitTime`/`Complete`, `Error type 3`).
 */
async function activityCommand(context: CommandContext, argv: readonly string[]): Promise<number> {
  const state = androidState(context.device);
  const args = new Args(argv);
  const command = args.next();
  try {
    switch (command) {
      case 'start':
      case 'start-activity': {
        let wait = false;
        const intent = parseIntent(args, (option, inner) => {
          if (option === '-W') wait = true;
          else if (['-D', '-N', '-S', '-R', '--streaming', '--track-allocation', '--activity-reorder-to-front'].includes(option))
            return true;
          else if (
            ['-P', '--start-profiler', '--sampling', '--display', '--windowingMode', '--activityType', '--task', '--attach-agent'].includes(
              option,
            )
          ) {
            inner.required(option);
          } else return false;
          return true;
        });
        await println(context, `Starting: ${intentString(intent)}`);
        const component = resolveActivity(state, intent);
        if (!component) {
          if (intent.component) {
            const [pkg, cls] = intent.component.split('/') as [string, string];
            await eprintln(context, 'Error type 3');
            await eprintln(context, `Error: Activity class {${pkg}/${cls.startsWith('.') ? pkg + cls : cls}} does not exist.`);
          } else {
            await eprintln(context, `Error: Activity not started, unable to resolve ${intentString(intent, 0x10000000)}`);
          }
          return 1;
        }
        const delivered = startActivity(context, intent, component);
        if (delivered && !wait) {
          await println(context, 'Warning: Activity not started, intent has been delivered to currently running top-most instance.');
        }
        if (wait) {
          if (delivered)
            await println(context, 'Warning: Activity not started, intent has been delivered to currently running top-most instance.');
          await println(context, `Status: ${delivered ? 'delivered_to_top' : 'ok'}`);
          await println(context, `LaunchState: ${delivered ? 'UNKNOWN (0)' : 'COLD'}`);
          await println(context, `Activity: ${component}`);
          if (!delivered) {
            await println(context, 'TotalTime: 412');
            await println(context, 'WaitTime: 418');
          } else {
            await println(context, 'WaitTime: 12');
          }
          await println(context, 'Complete');
        }
        return 0;
      }
      case 'force-stop':
      case 'kill':
      case 'stop-app': {
        for (let option; (option = args.nextOption()) !== undefined;) if (option === '--user') args.required(option);
        const name = args.next() ?? '';
        if (state.foreground?.startsWith(`${name}/`)) state.foreground = 'com.google.android.apps.nexuslauncher/.NexusLauncherActivity';
        return 0;
      }
      case 'broadcast': {
        const intent = parseIntent(args, (option, inner) => {
          if (option === '--receiver-permission' || option === '--allow-background-activity-starts') {
            if (option === '--receiver-permission') inner.required(option);
            return true;
          }
          return false;
        });
        await println(context, `Broadcasting: ${intentString(intent, 0x400000)}`);
        await println(context, 'Broadcast completed: result=0');
        return 0;
      }
      case 'get-current-user':
        await println(context, '0');
        return 0;
      case undefined:
      case 'help':
        await out(
          context,
          'Activity manager (activity) commands:\n  help\n      Print this help text.\n  start-activity [-D] [-N] [-W] [-P <FILE>] [--start-profiler <FILE>]\n',
        );
        return 0;
      default:
        await println(context, `Unknown command: ${command}`);
        return 255;
    }
  } catch (error) {
    if (!(error instanceof ArgumentError)) throw error;
    await eprintln(context, `Error: ${error.message}`);
    return 255;
  }
}

/** `monkey -p PACKAGE [-c CATEGORY] COUNT`: starts the package's launcher activity (`development/cmds/monkey`). */
const monkey: CommandHandler = async (context) => {
  const args = context.argv.slice(1);
  const index = args.indexOf('-p');
  const name = index === -1 ? undefined : args[index + 1];
  const record = name === undefined ? undefined : systemApp(androidState(context.device), name);
  if (!record?.launcher) {
    await println(context, '** No activities found to run, monkey aborted.');
    return 252;
  }
  startActivity(
    context,
    {action: 'android.intent.action.MAIN', categories: ['android.intent.category.LAUNCHER'], flags: 0, extras: {}, user: 0},
    record.launcher,
  );
  await println(context, 'Events injected: 1');
  await println(context, '## Network stats: elapsed time=23ms (0ms mobile, 0ms wifi, 23ms not connected)');
  return 0;
};

// ---- dumpsys --------------------------------------------------------------------------------

/** `dumpsys battery`'s lines (`BatteryService.dumpInternal`, Android 14), which `DumpSys.battery()` parses. */
function batteryDump(battery: BatteryState): string {
  const lines = ['Current Battery Service state:'];
  if (battery.updatesStopped) lines.push("  (UPDATES STOPPED -- use 'reset' to restart)");
  lines.push(
    `  AC powered: ${battery.acPowered}`,
    `  USB powered: ${battery.usbPowered}`,
    `  Wireless powered: ${battery.wirelessPowered}`,
    `  Dock powered: ${battery.dockPowered}`,
    `  Max charging current: ${battery.maxChargingCurrent}`,
    `  Max charging voltage: ${battery.maxChargingVoltage}`,
    `  Charge counter: ${battery.chargeCounter}`,
    `  status: ${battery.status}`,
    `  health: ${battery.health}`,
    `  present: ${battery.present}`,
    `  level: ${battery.level}`,
    '  scale: 100',
    `  voltage: ${battery.voltage}`,
    `  temperature: ${battery.temperature}`,
    `  technology: ${battery.technology}`,
    `  Charging state: ${battery.chargingState}`,
    `  Charging policy: ${battery.chargingPolicy}`,
  );
  return lines.map((line) => `${line}\n`).join('');
}

/** `dumpsys battery set|unplug|reset …` and `cmd battery …` (`BatteryService.Shell`). */
async function batteryCommand(context: CommandContext, args: readonly string[]): Promise<number> {
  const battery = androidState(context.device).battery;
  const [verb, key, value] = args;
  if (verb === 'unplug') {
    battery.acPowered = battery.usbPowered = battery.wirelessPowered = battery.dockPowered = false;
    battery.status = 3;
    battery.updatesStopped = true;
    return 0;
  }
  if (verb === 'reset') {
    Object.assign(battery, androidStateDefaults.battery);
    return 0;
  }
  if (verb === 'set' && key !== undefined && value !== undefined) {
    const number = Number.parseInt(value, 10);
    if (Number.isNaN(number)) {
      await println(context, `Bad value: ${value}`);
      return 255;
    }
    const fields: Record<string, () => void> = {
      ac: () => (battery.acPowered = number !== 0),
      usb: () => (battery.usbPowered = number !== 0),
      wireless: () => (battery.wirelessPowered = number !== 0),
      dock: () => (battery.dockPowered = number !== 0),
      status: () => (battery.status = number),
      level: () => (battery.level = number),
      counter: () => (battery.chargeCounter = number),
      temp: () => (battery.temperature = number),
      present: () => (battery.present = number !== 0),
      invalid: () => undefined,
    };
    const apply = fields[key];
    if (!apply) {
      await println(context, `Unknown set option: ${key}`);
      return 255;
    }
    apply();
    battery.updatesStopped = true;
    return 0;
  }
  await println(
    context,
    'Battery service (battery) commands:\n  set [-f] [ac|usb|wireless|status|level|temp|present|invalid] <value>\n  unplug [-f]\n  reset [-f]',
  );
  return verb === undefined || verb === 'help' ? 0 : 255;
}

const androidStateDefaults = {
  battery: {
    acPowered: false,
    usbPowered: true,
    wirelessPowered: false,
    dockPowered: false,
    status: 2,
    level: 85,
    chargeCounter: 3663000,
    temperature: 287,
    present: true,
    updatesStopped: false,
  },
};

/**
 * `dumpsys [SERVICE [ARGS…]]`: `battery` (see `batteryDump`), `diskstats` (`DiskStatsService`,
 * which `DumpSys.diskStats()` reads with `Data-Free: (\d+)K / (\d+)K`), `package PACKAGE` (the
 * first lines of `PackageManagerService`'s dump), `window displays`, `-l` (service list).
 * An unknown service: `Can't find service: NAME` (`frameworks/native/cmds/dumpsys/dumpsys.cpp`).
 */
const dumpsys: CommandHandler = async (context) => {
  const state = androidState(context.device);
  const [service, ...args] = context.argv.slice(1);
  switch (service) {
    case 'battery':
      if (args.length > 0 && args[0] !== '-a') return batteryCommand(context, args);
      await out(context, batteryDump(state.battery));
      return 0;
    case 'diskstats':
      await out(
        context,
        [
          'Latency: 2ms [512B Data Write]',
          'Recent Disk Write Speed (kB/s) = 61120',
          'Data-Free: 98364788K / 115276064K total = 85% free',
          'Cache-Free: 98364788K / 115276064K total = 85% free',
          'System-Free: 0K / 1748032K total = 0% free',
          'File-based Encryption: true',
          'App Size: 5321672704',
          'App Data Size: 2416353280',
          'App Cache Size: 301989888',
          'Photos Size: 10485760',
          'Videos Size: 131072',
          'Audio Size: 0',
          'Downloads Size: 3072',
          'System Size: 14737418240',
          'Other Size: 1288490188',
          '',
        ].join('\n'),
      );
      return 0;
    case 'package': {
      const record = args[0] ? systemApp(state, args[0]) : undefined;
      if (!record) {
        await out(context, 'Dexopt state:\n  Unable to find package: ' + (args[0] ?? '') + '\n');
        return 0;
      }
      const time = (seconds: number) => new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 19);
      const hash = (record.uid * 2654435761) >>> 0;
      await out(
        context,
        [
          'Packages:',
          `  Package [${record.name}] (${hash.toString(16)}):`,
          `    appId=${record.uid}`,
          `    pkg=Package{${(hash >>> 4).toString(16)} ${record.name}}`,
          `    codePath=${dirname(record.path)}`,
          `    resourcePath=${dirname(record.path)}`,
          `    versionCode=${record.versionCode} minSdk=26 targetSdk=34`,
          `    versionName=${record.versionName}`,
          `    installerPackageName=${record.installer}`,
          `    firstInstallTime=${time(record.firstInstallTime)}`,
          `    lastUpdateTime=${time(record.firstInstallTime)}`,
          `    User 0: ceDataInode=0 installed=${record.installed} hidden=false suspended=false distractionFlags=0 stopped=false notLaunched=false enabled=${record.enabled ? 0 : 3} instant=false virtual=false`,
          '',
        ].join('\n'),
      );
      return 0;
    }
    case 'window': {
      const {width, height} = displaySize(context.device);
      const density = state.display.overrideDensity ?? PHYSICAL_DENSITY;
      await out(
        context,
        `WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0 rootTasks=1\n    init=${PHYSICAL_SIZE.width}x${PHYSICAL_SIZE.height} ${PHYSICAL_DENSITY}dpi cur=${width}x${height} app=${width}x${height - 136} rng=${width}x${width - 63}-${height}x${height - 63}\n    mFocusedApp=ActivityRecord{${state.foreground}} density=${density}\n`,
      );
      return 0;
    }
    case '-l':
      await out(context, 'Currently running services:\n  activity\n  battery\n  diskstats\n  input\n  package\n  settings\n  window\n');
      return 0;
    case undefined:
      await out(
        context,
        `-------------------------------------------------------------------------------\nDUMP OF SERVICE battery:\n${batteryDump(state.battery)}`,
      );
      return 0;
    default:
      await eprintln(context, `Can't find service: ${service}`);
      return 0;
  }
};

// ---- cmd ------------------------------------------------------------------------------------

/** `cmd SERVICE ARGS…` (`frameworks/native/cmds/cmd/cmd.cpp`): the binder services' shell commands; `abb_exec:`/`abb:` run it too. */
const cmd: CommandHandler = async (context) => {
  const [service, ...args] = context.argv.slice(1);
  switch (service) {
    case 'package':
      return packageCommand(context, args);
    case 'settings':
      return settingsCommand(context, args);
    case 'activity':
      return activityCommand(context, args);
    case 'battery':
      return batteryCommand(context, args);
    case 'window':
      return windowCommand(context, args);
    case 'input':
      return inputCommand(context, args);
    case '-l':
      await out(context, 'activity\nbattery\ninput\npackage\nsettings\nwindow\n');
      return 0;
    case undefined:
      await eprintln(context, 'cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.');
      return 20;
    default:
      await eprintln(context, `cmd: Can't find service: ${service}`);
      return 20;
  }
};

// ---- input ----------------------------------------------------------------------------------

/** Key codes by name (`frameworks/base/core/java/android/view/KeyEvent.java`), for `input keyevent`. */
export const KEYCODES: Readonly<Record<string, number>> = (() => {
  const table: Record<string, number> = {
    UNKNOWN: 0,
    SOFT_LEFT: 1,
    SOFT_RIGHT: 2,
    HOME: 3,
    BACK: 4,
    CALL: 5,
    ENDCALL: 6,
    STAR: 17,
    POUND: 18,
    DPAD_UP: 19,
    DPAD_DOWN: 20,
    DPAD_LEFT: 21,
    DPAD_RIGHT: 22,
    DPAD_CENTER: 23,
    VOLUME_UP: 24,
    VOLUME_DOWN: 25,
    POWER: 26,
    CAMERA: 27,
    CLEAR: 28,
    COMMA: 55,
    PERIOD: 56,
    TAB: 61,
    SPACE: 62,
    ENTER: 66,
    DEL: 67,
    MENU: 82,
    SEARCH: 84,
    MEDIA_PLAY_PAUSE: 85,
    MEDIA_NEXT: 87,
    MEDIA_PREVIOUS: 88,
    PAGE_UP: 92,
    PAGE_DOWN: 93,
    ESCAPE: 111,
    FORWARD_DEL: 112,
    MOVE_HOME: 122,
    MOVE_END: 123,
    VOLUME_MUTE: 164,
    APP_SWITCH: 187,
    SLEEP: 223,
    WAKEUP: 224,
    ASSIST: 219,
    NOTIFICATION: 83,
    BRIGHTNESS_DOWN: 220,
    BRIGHTNESS_UP: 221,
  };
  for (let i = 0; i <= 9; i += 1) table[String(i)] = 7 + i;
  for (let i = 0; i < 26; i += 1) table[String.fromCharCode(65 + i)] = 29 + i;
  return table;
})();

const INPUT_SOURCES = [
  'keyboard',
  'dpad',
  'gamepad',
  'touchscreen',
  'touchpad',
  'mouse',
  'stylus',
  'trackball',
  'joystick',
  'touchnavigation',
  'rotaryencoder',
];

/**
 * `input [SOURCE] [-d DISPLAY] tap X Y | swipe X1 Y1 X2 Y2 [MS] | text TEXT | keyevent [--longpress] KEY…`
 * (`frameworks/base/services/core/java/com/android/server/input/InputShellCommand.java`). Events
 * are recorded in `androidState(device).input`; `POWER`/`SLEEP`/`WAKEUP` switch the screen.
 */
async function inputCommand(context: CommandContext, argv: readonly string[]): Promise<number> {
  const state = androidState(context.device);
  const args = [...argv];
  let source = '';
  let displayId = 0;
  if (INPUT_SOURCES.includes(args[0] ?? '')) source = args.shift()!;
  if (args[0] === '-d') {
    args.shift();
    displayId = Number(args.shift());
  }
  const [command, ...rest] = args;
  const numbers = (count: number) => rest.slice(0, count).map(Number);
  const bad = async () => {
    await eprintln(context, `Error: Invalid arguments for command: ${command}`);
    await eprintln(context, 'Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]');
    return 1;
  };
  switch (command) {
    case 'tap': {
      const [x, y] = numbers(2);
      if (rest.length !== 2 || Number.isNaN(x) || Number.isNaN(y)) return bad();
      state.input.push({type: 'tap', x: x!, y: y!, source: source || 'touchscreen', displayId});
      return 0;
    }
    case 'swipe':
    case 'draganddrop': {
      const [x1, y1, x2, y2, duration] = numbers(5);
      if (rest.length < 4 || [x1, y1, x2, y2].some((value) => Number.isNaN(value))) return bad();
      state.input.push({
        type: 'swipe',
        x1: x1!,
        y1: y1!,
        x2: x2!,
        y2: y2!,
        durationMs: duration ?? 300,
        source: source || 'touchscreen',
        displayId,
      });
      return 0;
    }
    case 'text': {
      if (rest.length === 0) return bad();
      // `%s` stands for a space (InputShellCommand.sendText).
      state.input.push({type: 'text', text: rest.join(' ').replace(/%s/g, ' '), source: source || 'keyboard', displayId});
      return 0;
    }
    case 'keyevent':
    case 'press': {
      let longpress = false;
      const keys = command === 'press' ? ['DPAD_CENTER'] : [...rest];
      while (keys[0] === '--longpress' || keys[0] === '--doubletap' || keys[0] === '--async') {
        if (keys.shift() === '--longpress') longpress = true;
      }
      if (keys.length === 0) return bad();
      for (const key of keys) {
        const name = key.replace(/^KEYCODE_/, '');
        const keyCode = /^\d+$/.test(key) ? Number(key) : (KEYCODES[name] ?? 0);
        state.input.push({
          type: 'keyevent',
          keyCode,
          name: `KEYCODE_${Object.keys(KEYCODES).find((k) => KEYCODES[k] === keyCode) ?? name}`,
          longpress,
          source: source || 'keyboard',
          displayId,
        });
        if (keyCode === 26) state.screenOn = !state.screenOn;
        if (keyCode === 223) state.screenOn = false;
        if (keyCode === 224) state.screenOn = true;
      }
      return 0;
    }
    case 'roll':
    case 'motionevent':
    case 'keycombination':
      state.input.push({type: 'other', argv: [...argv]});
      return 0;
    default:
      await eprintln(context, `Error: Unknown command: ${command ?? ''}`);
      await eprintln(context, 'Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]');
      return 1;
  }
}

// ---- wm -------------------------------------------------------------------------------------

/** `wm size [WxH|reset]`, `wm density [DPI|reset]` (`WindowManagerShellCommand`: `Physical size: 1080x2400`, `Override size: …`). */
async function windowCommand(context: CommandContext, argv: readonly string[]): Promise<number> {
  const display = androidState(context.device).display;
  const [command, value] = argv;
  if (command === 'size') {
    if (value === undefined) {
      let text = `Physical size: ${PHYSICAL_SIZE.width}x${PHYSICAL_SIZE.height}\n`;
      if (display.overrideWidth) text += `Override size: ${display.overrideWidth}x${display.overrideHeight}\n`;
      await out(context, text);
      return 0;
    }
    if (value === 'reset') {
      delete display.overrideWidth;
      delete display.overrideHeight;
      return 0;
    }
    const match = /^(\d+)x(\d+)$/.exec(value);
    if (!match) {
      await eprintln(context, `Error: bad size ${value}`);
      return 255;
    }
    display.overrideWidth = Number(match[1]);
    display.overrideHeight = Number(match[2]);
    return 0;
  }
  if (command === 'density') {
    if (value === undefined) {
      let text = `Physical density: ${PHYSICAL_DENSITY}\n`;
      if (display.overrideDensity) text += `Override density: ${display.overrideDensity}\n`;
      await out(context, text);
      return 0;
    }
    if (value === 'reset') delete display.overrideDensity;
    else if (/^\d+$/.test(value)) display.overrideDensity = Number(value);
    else {
      await eprintln(context, `Error: bad number For input string: "${value}"`);
      return 255;
    }
    return 0;
  }
  await out(
    context,
    'Window manager (window) commands:\n  help\n      Print this help text.\n  size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]\n  density [reset|DENSITY] [-d DISPLAY_ID]\n',
  );
  return command === undefined ? 0 : 255;
}

// ---- screencap ------------------------------------------------------------------------------

/**
 * `screencap [-p] [-d DISPLAY] [FILE]` (`frameworks/base/cmds/screencap/screencap.cpp`): a PNG
 * with `-p` (or a FILE ending in `.png`), else the raw format: width, height, pixel format (1 =
 * RGBA_8888) and data space (1 = sRGB) as little-endian u32, then the pixels.
 */
const screencap: CommandHandler = async (context) => {
  const args = context.argv.slice(1);
  let png = false;
  let file: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '-p') png = true;
    else if (arg === '-d') i += 1;
    else if (arg === '-h') {
      await eprintln(context, 'usage: screencap [-hp] [-d display-id] [FILENAME]\n   -h: this message\n   -p: save the file as a png.');
      return 0;
    } else if (!arg.startsWith('-')) file = arg;
  }
  if (file?.endsWith('.png')) png = true;
  const {width, height} = displaySize(context.device);
  let data: Uint8Array;
  if (png) data = width === PHYSICAL_SIZE.width && height === PHYSICAL_SIZE.height ? screenPng() : encodePng(renderScreen(width, height));
  else {
    const frame = renderScreen(width, height);
    data = new Uint8Array(16 + frame.pixels.length);
    const view = new DataView(data.buffer);
    [width, height, 1, 1].forEach((value, index) => view.setUint32(index * 4, value, true));
    data.set(frame.pixels, 16);
  }
  if (file === undefined) {
    await context.stdout(data);
    return 0;
  }
  try {
    context.device.fs.writeFile(file, data, {cred: adbdCredentials(context.device.properties), mode: 0o666});
  } catch (error) {
    if (!(error instanceof FsError)) throw error;
    await eprintln(context, `Error opening file: ${file} (${error.description})`);
    return 1;
  }
  return 0;
};

// ---- logcat ---------------------------------------------------------------------------------

const BUFFERS: Record<string, number> = {main: 0, radio: 1, events: 2, system: 3, crash: 4, stats: 5, security: 6, kernel: 7};
const BUFFER_NAMES = Object.fromEntries(Object.entries(BUFFERS).map(([name, id]) => [id, name]));
const PRIORITY_CHARS = ['?', '?', 'V', 'D', 'I', 'W', 'E', 'F', 'S'];

/** `logcat`'s text formats (`system/logging/liblog/logprint.cpp` `android_log_formatLogLine`), in the device's time zone (UTC). */
function formatEntry(entry: LogEntry, format: string, modifiers: Set<string>): string {
  const p = PRIORITY_CHARS[entry.priority] ?? '?';
  const date = new Date(entry.seconds * 1000);
  let time: string;
  if (modifiers.has('epoch')) time = `${String(entry.seconds).padStart(10)}`;
  else {
    time = `${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
    if (modifiers.has('year')) time = `${date.getUTCFullYear()}-${time}`;
  }
  if (modifiers.has('nsec')) time += `.${String(entry.nanoseconds).padStart(9, '0')}`;
  else if (modifiers.has('usec')) time += `.${String(Math.floor(entry.nanoseconds / 1000)).padStart(6, '0')}`;
  else time += `.${String(Math.floor(entry.nanoseconds / 1_000_000)).padStart(3, '0')}`;
  if (modifiers.has('zone')) time += ' +0000';
  const uid = modifiers.has('uid') ? `${String(entry.uid).padStart(5)}` : '';
  const pid = String(entry.pid).padStart(5);
  const tid = String(entry.tid).padStart(5);
  const tag = entry.tag.padEnd(8);
  let prefix: string;
  let suffix = '';
  switch (format) {
    case 'brief':
      prefix = `${p}/${tag}(${uid ? `${uid}:` : ''}${pid}): `;
      break;
    case 'process':
      prefix = `${p}(${uid ? `${uid}:` : ''}${pid}) `;
      suffix = `  (${entry.tag})`;
      break;
    case 'tag':
      prefix = `${p}/${tag}: `;
      break;
    case 'thread':
      prefix = `${p}(${uid ? `${uid}:` : ''}${pid}:${tid}) `;
      break;
    case 'raw':
      prefix = '';
      break;
    case 'time':
      prefix = `${time} ${p}/${tag}(${uid ? `${uid}:` : ''}${pid}): `;
      break;
    case 'long':
      return `[ ${time} ${uid ? `${uid}:` : ''}${pid}:${tid} ${p}/${tag} ]\n${entry.message}\n\n`;
    default:
      prefix = `${time} ${uid ? `${uid} ` : ''}${pid} ${tid} ${p} ${tag}: `;
  }
  return entry.message
    .split('\n')
    .map((line) => `${prefix}${line}${suffix}\n`)
    .join('');
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** One `logger_entry` (the library's `LoggerEntry` struct, header v4 of 28 bytes) and its payload: priority, tag, NUL, message, NUL. */
function binaryEntry(entry: LogEntry): Uint8Array {
  const encoder = new TextEncoder();
  const tag = encoder.encode(entry.tag);
  const message = encoder.encode(entry.message);
  const payload = new Uint8Array(1 + tag.length + 1 + message.length + 1);
  payload[0] = entry.priority;
  payload.set(tag, 1);
  payload.set(message, tag.length + 2);
  const header = LoggerEntry.serialize({
    payloadSize: payload.length,
    headerSize: LoggerEntry.size,
    pid: entry.pid,
    tid: entry.tid,
    seconds: entry.seconds,
    nanoseconds: entry.nanoseconds,
    logId: entry.buffer,
    uid: entry.uid,
  });
  const out = new Uint8Array(header.length + payload.length);
  out.set(header);
  out.set(payload, header.length);
  return out;
}

/** `N UNITB` as `logcat -g` prints sizes (`format_of_size`: B, KiB, MiB). */
function sizeText(value: number): string {
  const units = ['', 'Ki', 'Mi', 'Gi'];
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value = Math.floor(value / 1024);
    unit += 1;
  }
  return `${value} ${units[unit]}B`;
}

/** Parses `-t`/`-T` times: `MM-DD hh:mm:ss.mmm`, `YYYY-MM-DD hh:mm:ss.mmm` or `SSSSS.mmm` (epoch seconds). */
function parseTailTime(text: string, year: number): number | undefined {
  let match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (match && text.includes('.')) return Number(match[1]) * 1000 + Number((match[2] ?? '0').padEnd(3, '0').slice(0, 3));
  match = /^(?:(\d{4})-)?(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  return Date.UTC(
    Number(match[1] ?? year),
    Number(match[2]) - 1,
    Number(match[3]),
    Number(match[4]),
    Number(match[5]),
    Number(match[6]),
    Number((match[7] ?? '0').padEnd(3, '0').slice(0, 3)),
  );
}

/**
 * `logcat [-d] [-c] [-g] [-B] [-b BUFFER,…] [-v FORMAT] [-t N|TIME] [-T N|TIME] [-m N] [--pid PID]
 * [-s] [-f FILE] [TAG:PRIORITY…]` (`system/logging/logcat/logcat.cpp`). Default buffers main,
 * system, crash; `--------- beginning of BUFFER` before a buffer's first line in text output;
 * `-B` writes the library's `LoggerEntry` records; without `-d`/`-t` it follows the log until the
 * host hangs up.
 */
const logcat: CommandHandler = async (context) => {
  const device = context.device;
  const state = androidState(device);
  let dump = false;
  let clear = false;
  let sizes = false;
  let binary = false;
  let buffers: number[] | undefined;
  let format = 'threadtime';
  const modifiers = new Set<string>();
  let tailCount: number | undefined;
  let tailTime: number | undefined;
  let maxCount = Infinity;
  let pid: number | undefined;
  let file: string | undefined;
  let regex: RegExp | undefined;
  const filters: [string, number][] = [];
  let silent = false;
  const formats = new Set(['brief', 'process', 'tag', 'thread', 'raw', 'time', 'threadtime', 'long']);
  const setFormat = (value: string) => {
    for (const word of value.split(/[\s,]+/)) {
      if (formats.has(word)) format = word;
      else if (
        ['color', 'colour', 'descriptive', 'printable', 'UTC', 'monotonic', 'uid', 'year', 'zone', 'epoch', 'usec', 'nsec'].includes(word)
      )
        modifiers.add(word);
      else return false;
    }
    return true;
  };
  const setTail = (value: string) => {
    if (/^\d+$/.test(value)) tailCount = Number(value);
    else tailTime = parseTailTime(value, new Date(device.now()).getUTCFullYear());
  };
  const words = context.argv.slice(1);
  for (let i = 0; i < words.length; i += 1) {
    let word = words[i]!;
    const next = () => {
      const value = words[++i];
      if (value === undefined) throw new ArgumentError(`option requires an argument -- ${word}`);
      return value;
    };
    if (word.startsWith('--')) {
      const [name, inline] = word.split('=', 2) as [string, string | undefined];
      word = name;
      const value = () => inline ?? next();
      if (name === '--pid') pid = Number(value());
      else if (name === '--format') {
        if (!setFormat(value())) throw new ArgumentError(`Invalid parameter "${inline}" to -v`);
      } else if (name === '--buffer')
        buffers = [
          ...(buffers ?? []),
          ...value()
            .split(',')
            .map((b) => BUFFERS[b] ?? -1),
        ];
      else if (name === '--dump') dump = true;
      else if (name === '--clear') clear = true;
      else if (name === '--binary') binary = true;
      else if (name === '--max-count') maxCount = Number(value());
      else if (name === '--regex') regex = new RegExp(value());
      else if (name === '--file') file = value();
      else if (name === '--tail') setTail(value());
      else if (name === '--uid' || name === '--print' || name === '--dividers') {
        if (name === '--uid') value();
      } else throw new ArgumentError(`unrecognized option '${name}'`);
      continue;
    }
    if (!word.startsWith('-') || word === '-') {
      const [tag, level] = word.split(':') as [string, string | undefined];
      const priority = PRIORITY_CHARS.indexOf((level ?? 'V').toUpperCase());
      filters.push([tag, priority < 2 ? 2 : priority]);
      continue;
    }
    for (let j = 1; j < word.length; j += 1) {
      const flag = word[j]!;
      const attached = word.slice(j + 1);
      const value = () => (attached ? attached : next());
      const consume = () => {
        j = word.length;
      };
      switch (flag) {
        case 'd':
          dump = true;
          break;
        case 'c':
          clear = true;
          break;
        case 'g':
          sizes = true;
          break;
        case 'B':
          binary = true;
          break;
        case 's':
          silent = true;
          break;
        case 'D':
        case 'L':
        case 'S':
          break;
        case 'b': {
          const names = value().split(',');
          consume();
          for (const name of names) {
            if (name === 'all') buffers = [0, 1, 2, 3, 4, 7];
            else if (name === 'default') buffers = [...(buffers ?? []), 0, 3, 4];
            else if (BUFFERS[name] !== undefined) buffers = [...(buffers ?? []), BUFFERS[name]];
            else {
              // Names compare case-sensitively (liblog `android_name_to_log_id`): `Main` is unknown.
              await eprintln(context, `logcat: Unknown buffer '${name}' listed for -b.`);
              return 1;
            }
          }
          break;
        }
        case 'v': {
          const v = value();
          consume();
          if (!setFormat(v)) {
            await eprintln(context, `logcat: Invalid parameter "${v}" to -v.`);
            return 1;
          }
          break;
        }
        case 't':
          setTail(value());
          consume();
          dump = true;
          break;
        case 'T':
          setTail(value());
          consume();
          break;
        case 'm':
          maxCount = Number(value());
          consume();
          break;
        case 'f':
          file = value();
          consume();
          break;
        case 'e':
          regex = new RegExp(value());
          consume();
          break;
        case 'n':
        case 'r':
        case 'G':
        case 'p':
        case 'P':
          if (flag !== 'p') value();
          consume();
          break;
        default:
          await eprintln(context, `logcat: invalid option -- ${flag}`);
          return 1;
      }
    }
  }
  const selected = buffers ?? [0, 3, 4];

  if (clear) {
    state.log = state.log.filter((entry) => !selected.includes(entry.buffer) && !(buffers === undefined && entry.buffer === 7));
    return 0;
  }
  if (sizes) {
    for (const id of selected) {
      const consumed = state.log
        .filter((entry) => entry.buffer === id)
        .reduce((sum, entry) => sum + 28 + entry.tag.length + entry.message.length + 3, 0);
      await println(
        context,
        `${BUFFER_NAMES[id]}: ring buffer is ${sizeText(256 * 1024)} (${sizeText(consumed)} consumed, ${sizeText(consumed)} readable), max entry is 5120 B, max payload is 4068 B`,
      );
    }
    return 0;
  }

  const accept = (entry: LogEntry) => {
    if (!selected.includes(entry.buffer)) return false;
    if (pid !== undefined && entry.pid !== pid) return false;
    if (regex && !regex.test(entry.message)) return false;
    let minimum = silent ? 9 : 2;
    for (const [tag, priority] of filters) {
      if (tag === '*') minimum = priority;
    }
    for (const [tag, priority] of filters) if (tag === entry.tag) minimum = priority;
    return entry.priority >= minimum;
  };

  const printed = new Set<number>();
  const fileChunks: Uint8Array[] = [];
  let count = 0;
  const emit = async (entries: LogEntry[]) => {
    for (const entry of entries) {
      if (count >= maxCount) return;
      count += 1;
      let data: Uint8Array | string;
      if (binary) data = binaryEntry(entry);
      else {
        data = '';
        if (!printed.has(entry.buffer)) {
          printed.add(entry.buffer);
          data += `--------- beginning of ${BUFFER_NAMES[entry.buffer]}\n`;
        }
        data += formatEntry(entry, format, modifiers);
      }
      if (file !== undefined) fileChunks.push(typeof data === 'string' ? new TextEncoder().encode(data) : data);
      else await context.stdout(data);
    }
  };

  let entries = [...state.log].filter(accept).sort((a, b) => a.seconds - b.seconds || a.nanoseconds - b.nanoseconds);
  if (tailTime !== undefined) entries = entries.filter((entry) => entry.seconds * 1000 + entry.nanoseconds / 1e6 >= tailTime!);
  if (tailCount !== undefined) entries = entries.slice(Math.max(0, entries.length - tailCount));
  await emit(entries);

  if (!dump && count < maxCount) {
    // Follow: print what arrives until the host hangs up.
    let seen = state.log.length;
    await new Promise<void>((resolve) => {
      const wake = () => {
        const fresh = state.log.slice(seen).filter(accept);
        seen = state.log.length;
        void emit(fresh).then(() => {
          if (count >= maxCount) finish();
        });
      };
      const finish = () => {
        state.logListeners.delete(wake);
        resolve();
      };
      state.logListeners.add(wake);
      if (context.signal.aborted) finish();
      context.signal.addEventListener('abort', finish, {once: true});
    });
  }
  if (file !== undefined) {
    const total = fileChunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const data = new Uint8Array(total);
    let offset = 0;
    for (const chunk of fileChunks) {
      data.set(chunk, offset);
      offset += chunk.length;
    }
    try {
      device.fs.writeFile(file, data, {cred: adbdCredentials(device.properties), mode: 0o644});
    } catch (error) {
      if (!(error instanceof FsError)) throw error;
      await eprintln(context, `logcat: couldn't open output file: ${error.description}`);
      return 1;
    }
  }
  return 0;
};

// ---- bugreportz, reboot ------------------------------------------------------

/**
 * `bugreportz -v` (version 1.2 on stderr), `-p` (progress, then `OK:PATH`), `-s` (the zip on
 * stdout) (`frameworks/native/cmds/bugreportz/bugreportz.cpp`), which `BugReport` reads.
 */
const bugreportz: CommandHandler = async (context) => {
  const device = context.device;
  const args = context.argv.slice(1);
  if (args.includes('-v')) {
    await context.stderr('1.2\n');
    return 0;
  }
  const properties = device.properties;
  const stamp = new Date(device.now()).toISOString().replace(/[T:]/g, '-').slice(0, 19);
  const name = `bugreport-${properties.get('ro.product.device') ?? 'generic'}-${properties.get('ro.build.id') ?? 'UNKNOWN'}-${stamp}`;
  const text = [
    '========================================================',
    `== dumpstate: ${stamp.replace(/-(\d\d)-(\d\d)-(\d\d)$/, ' $1:$2:$3')}`,
    '========================================================',
    '',
    `Build: ${properties.get('ro.build.id') ?? ''}`,
    `Build fingerprint: '${properties.get('ro.build.fingerprint') ?? ''}'`,
    '',
    batteryDump(androidState(device).battery),
  ].join('\n');
  const archive = zip([
    [`${name}.txt`, new TextEncoder().encode(text)],
    ['version.txt', new TextEncoder().encode('2.0')],
  ]);
  if (args.includes('-s')) {
    await context.stdout(archive);
    return 0;
  }
  const path = `/data/user_de/0/com.android.shell/files/bugreports/${name}.zip`;
  // The Shell app's device-encrypted storage, where dumpstate leaves reports: `/data/user_de/0`
  // is system's (0771), the rest belongs to the Shell app (uid shell), so `adb pull` can read it.
  device.fs.mkdir(dirname(path), {recursive: true, mode: 0o770});
  device.fs.chown('/data/user_de/0', AID.system, AID.system);
  device.fs.chmod('/data/user_de/0', 0o771);
  for (let dir = dirname(path); dir !== '/data/user_de/0'; dir = dirname(dir)) device.fs.chown(dir, AID.shell, AID.shell);
  device.fs.writeFile(path, archive, {mode: 0o644, uid: AID.shell, gid: AID.shell});
  if (args.includes('-p')) {
    await println(context, `BEGIN:${path}`);
    for (const progress of [10, 45, 80, 100]) await println(context, `PROGRESS:${progress}/100`);
  }
  await println(context, `OK:${path}`);
  return 0;
};

/** `reboot [-p] [MODE]`: drops every host connection, as the device going down does (`system/core/reboot/reboot.c`). */
const reboot: CommandHandler = async (context) => {
  const device = context.device;
  setTimeout(() => {
    for (const transport of device.transports) transport.close();
  }, 20);
  return 0;
};

/** Android commands by name. */
export const androidCommands: Record<string, CommandHandler> = {
  getprop,
  setprop,
  cmd,
  dumpsys,
  screencap,
  logcat,
  bugreportz,
  reboot,
};

/** The Java programs `app_process` runs besides the Scrcpy server, by main class. */
export const androidJavaPrograms: Record<string, CommandHandler> = {
  'com.android.commands.monkey.Monkey': monkey,
};
