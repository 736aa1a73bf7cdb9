/**
 * The input manager's shell command: `cmd input …`, which `input` runs (`/system/bin/input` is
 * `cmd input "$@"`): `[SOURCE] [-d DISPLAY] text|keyevent|tap|swipe|draganddrop|press|roll|scroll|
 * motionevent|keycombination …`. The events are not delivered to apps; they are recorded in
 * `androidState(device).input` for the tests, and `POWER`/`SLEEP`/`WAKEUP` switch the screen.
 *
 * Facts: `frameworks/base/services/core/java/com/android/server/input/InputShellCommand.java`
 * (android-14.0.0_r50): `onCommand` (an optional source, `-d DISPLAY`, then the command; a
 * `NumberFormatException` becomes `IllegalArgumentException("Error: Invalid arguments for
 * command: CMD")`; `Error: Invalid arguments for display ID.`; an unknown command →
 * `handleDefaultCommands`, and the status is 0 whatever it printed), `onHelp` (`Usage: input …`,
 * the sources in their `ArrayMap`'s order), `sendText` (`%s` is a space; one argument only),
 * `runKeyEvent` (`--longpress`, `--doubletap`, `--async`, `--delay MS` before the key codes),
 * `runKeyCombination` (`Unknown keycode: K`, `keycombination requires at least 2 keycodes`),
 * `getAction` (`Unknown action: A`), default sources (keyboard, touchscreen, trackball,
 * rotaryencoder) and display ids (`INVALID_DISPLAY`, -1, for key events; motion events of a
 * pointer source go to display 0). Key codes: `frameworks/base/core/java/android/view/KeyEvent.java`
 * (`KEYCODE_*`, `keyCodeFromString`: a number, or a name with or without `KEYCODE_`, else
 * `KEYCODE_UNKNOWN`).
 *
 * The stack frames of an exception: `frameworks/base/services/core/java/com/android/server/input/InputManagerService.java`
 * (`onShellCommand`), `frameworks/base/core/java/android/hardware/input/IInputManager.aidl` (its
 * generated `IInputManager$Stub`) and `frameworks/base/core/java/android/os/Binder.java`.
 */
import type {CommandContext, CommandHandler} from '../types.ts';
import {arrayMapOrder, JavaException, parseJavaFloat, parseJavaInt, parseJavaLong} from './java.ts';
import {execShellCommand, handleDefaultCommands, println, SHELL_COMMAND_FRAMES, ShellArgs} from './shell-command.ts';
import {androidState} from './state.ts';

/** Key codes by name, without `KEYCODE_` (`KeyEvent.java`): the ones this device knows. */
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
    ALT_LEFT: 57,
    ALT_RIGHT: 58,
    SHIFT_LEFT: 59,
    SHIFT_RIGHT: 60,
    TAB: 61,
    SPACE: 62,
    ENTER: 66,
    DEL: 67,
    MENU: 82,
    NOTIFICATION: 83,
    SEARCH: 84,
    MEDIA_PLAY_PAUSE: 85,
    MEDIA_NEXT: 87,
    MEDIA_PREVIOUS: 88,
    PAGE_UP: 92,
    PAGE_DOWN: 93,
    ESCAPE: 111,
    FORWARD_DEL: 112,
    CTRL_LEFT: 113,
    CTRL_RIGHT: 114,
    META_LEFT: 117,
    META_RIGHT: 118,
    MOVE_HOME: 122,
    MOVE_END: 123,
    VOLUME_MUTE: 164,
    APP_SWITCH: 187,
    ASSIST: 219,
    BRIGHTNESS_DOWN: 220,
    BRIGHTNESS_UP: 221,
    SLEEP: 223,
    WAKEUP: 224,
  };
  for (let i = 0; i <= 9; i += 1) table[String(i)] = 7 + i;
  for (let i = 0; i < 26; i += 1) table[String.fromCharCode(65 + i)] = 29 + i;
  return table;
})();

/** `KeyEvent.LAST_KEYCODE` of Android 14. */
const LAST_KEYCODE = 316;

/** `InputShellCommand.SOURCES`, in the order its `ArrayMap` keeps them. */
const SOURCES = arrayMapOrder([
  'keyboard',
  'dpad',
  'gamepad',
  'touchscreen',
  'mouse',
  'stylus',
  'trackball',
  'touchpad',
  'touchnavigation',
  'joystick',
  'rotaryencoder',
]);

/** The sources of `InputDevice.SOURCE_CLASS_POINTER`, whose motion events go to display 0 by default. */
const POINTER_SOURCES = new Set(['touchscreen', 'mouse', 'stylus', 'touchpad']);

/** `INVALID_DISPLAY`, `DEFAULT_DISPLAY`. */
const INVALID_DISPLAY = -1;
const DEFAULT_DISPLAY = 0;

/** The frames of an exception thrown in `onCommand` (line numbers plausible). */
const FRAMES: readonly string[] = [
  'com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:282)',
  ...SHELL_COMMAND_FRAMES,
  'com.android.server.input.InputManagerService.onShellCommand(InputManagerService.java:2830)',
  'android.os.Binder.shellCommand(Binder.java:1092)',
  'android.os.Binder.onTransact(Binder.java:912)',
  'android.hardware.input.IInputManager$Stub.onTransact(IInputManager.java:1208)',
  'android.os.Binder.execTransactInternal(Binder.java:1392)',
  'android.os.Binder.execTransact(Binder.java:1299)',
];

/** `KeyEvent.keyCodeFromString(name)`. */
function keyCodeFromString(name: string): number {
  if (/^-?\d+$/.test(name)) {
    const code = Number(name);
    if (code >= 0 && code <= LAST_KEYCODE) return code;
  }
  return KEYCODES[name.replace(/^KEYCODE_/, '')] ?? 0;
}

/** `KeyEvent.keyCodeToString(code)`: `KEYCODE_NAME`, or the number for a code this table lacks. */
function keyCodeName(code: number): string {
  const name = Object.keys(KEYCODES).find((key) => KEYCODES[key] === code);
  return name === undefined ? String(code) : `KEYCODE_${name}`;
}

/** `InputShellCommand.onHelp`. */
async function onHelp(context: CommandContext): Promise<void> {
  await println(context, 'Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]');
  await println(context, '');
  await println(context, 'The sources are: ');
  for (const source of SOURCES) await println(context, `      ${source}`);
  await println(context, '[axis_value] represents an option specifying the value of a given axis ');
  await println(context, '      The syntax is as follows: --axis <axis_name>,<axis_value>');
  await println(context, '            where <axis_name> is the name of the axis as defined in ');
  await println(context, '            MotionEvent without the AXIS_ prefix (e.g. SCROLL, X)');
  await println(context, '      Sample [axis_values] entry: `--axis Y,3`, `--axis SCROLL,-2`');
  await println(context, '');
  await println(
    context,
    `-d: specify the display ID.\n      (Default: ${INVALID_DISPLAY} for key event, ${DEFAULT_DISPLAY} for motion event if not specified.)`,
  );
  await println(context, 'The commands and default sources are:');
  await println(context, '      text <string> (Default: keyboard)');
  await println(
    context,
    '      keyevent [--longpress|--doubletap|--async|--delay <duration between keycodes in ms>] <key code number or name> ... (Default: keyboard)',
  );
  await println(context, '      tap <x> <y> (Default: touchscreen)');
  await println(context, '      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)');
  await println(context, '      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)');
  await println(context, '      press (Default: trackball)');
  await println(context, '      roll <dx> <dy> (Default: trackball)');
  await println(context, '      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)');
  await println(context, '      scroll (Default: rotaryencoder). Has the following syntax:');
  await println(context, '            scroll <x> <y> [axis_value] (for pointer-based sources)');
  await println(context, '            scroll [axis_value] (for non-pointer-based sources)');
  await println(context, '            Axis options: SCROLL, HSCROLL, VSCROLL');
  await println(context, '            None or one or multiple axis value options can be specified.');
  await println(context, '            To specify multiple axes, use one axis option for per axis.');
  await println(context, '            Example: `scroll --axis VSCROLL,2 --axis SCROLL,-2.4`');
  await println(
    context,
    '      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard, the key order is important here.)',
  );
}

/** Thrown where Java's number parsing fails; `onCommand` turns it into the invalid-arguments error. */
class NumberFormat extends Error {}

/** `Float.parseFloat`, throwing `NumberFormat` as Java throws `NumberFormatException`. */
function parseFloatArg(text: string): number {
  const value = parseJavaFloat(text);
  if (Number.isNaN(value)) throw new NumberFormat();
  return value;
}

/** `InputShellCommand.onCommand(cmd)`. */
async function onCommand(context: CommandContext, command: string | undefined, rest: readonly string[]): Promise<number> {
  const state = androidState(context.device);
  const args = new ShellArgs(rest, FRAMES, command);
  let arg = command;
  let source: string | undefined;
  if (arg !== undefined && SOURCES.includes(arg)) {
    source = arg;
    arg = args.required();
  }
  let displayId = INVALID_DISPLAY;
  if (arg === '-d') {
    const display = args.required();
    if (display.toUpperCase() === 'INVALID_DISPLAY') displayId = INVALID_DISPLAY;
    else if (display.toUpperCase() === 'DEFAULT_DISPLAY') displayId = DEFAULT_DISPLAY;
    else {
      try {
        displayId = parseJavaInt(display);
      } catch {
        throw new JavaException('java.lang.IllegalArgumentException', 'Error: Invalid arguments for display ID.', FRAMES);
      }
      if (displayId !== INVALID_DISPLAY) displayId = Math.max(displayId, 0);
    }
    arg = args.required();
  }
  const motionDisplay = (src: string) => (displayId === INVALID_DISPLAY && POINTER_SOURCES.has(src) ? DEFAULT_DISPLAY : displayId);
  const parseInt = (text: string) => {
    try {
      return parseJavaInt(text);
    } catch {
      throw new NumberFormat();
    }
  };
  try {
    switch (arg) {
      case 'text': {
        const text = args.required().replace(/%s/g, ' ');
        state.input.push({type: 'text', text, source: source ?? 'keyboard', displayId});
        break;
      }
      case 'keyevent': {
        let longpress = false;
        let key: string | undefined = args.required();
        while (key !== undefined && key.startsWith('--')) {
          if (key === '--longpress') longpress = true;
          if (key === '--delay') {
            try {
              parseJavaLong(args.required());
            } catch (error) {
              if (error instanceof JavaException && error.className === 'java.lang.IllegalArgumentException') throw error;
              throw new NumberFormat();
            }
          }
          key = args.next();
        }
        for (; key !== undefined; key = args.next()) {
          const keyCode = keyCodeFromString(key);
          state.input.push({type: 'keyevent', keyCode, name: keyCodeName(keyCode), longpress, source: source ?? 'keyboard', displayId});
          if (keyCode === KEYCODES.POWER) state.screenOn = !state.screenOn;
          if (keyCode === KEYCODES.SLEEP) state.screenOn = false;
          if (keyCode === KEYCODES.WAKEUP) state.screenOn = true;
        }
        break;
      }
      case 'tap': {
        const src = source ?? 'touchscreen';
        const x = parseFloatArg(args.required());
        const y = parseFloatArg(args.required());
        state.input.push({type: 'tap', x, y, source: src, displayId: motionDisplay(src)});
        break;
      }
      case 'swipe':
      case 'draganddrop': {
        const src = source ?? 'touchscreen';
        const [x1, y1, x2, y2] = [args.required(), args.required(), args.required(), args.required()].map(parseFloatArg) as [
          number,
          number,
          number,
          number,
        ];
        const durationArg = args.next();
        const duration = durationArg === undefined ? -1 : parseInt(durationArg);
        state.input.push({
          type: 'swipe',
          x1,
          y1,
          x2,
          y2,
          durationMs: duration < 0 ? 300 : duration,
          source: src,
          displayId: motionDisplay(src),
        });
        break;
      }
      case 'press':
        state.input.push({type: 'other', argv: [...rest]});
        break;
      case 'roll':
        parseFloatArg(args.required());
        parseFloatArg(args.required());
        state.input.push({type: 'other', argv: [...rest]});
        break;
      case 'motionevent': {
        const action = args.required();
        if (!['DOWN', 'UP', 'MOVE', 'CANCEL'].includes(action.toUpperCase())) {
          throw new JavaException('java.lang.IllegalArgumentException', `Unknown action: ${action}`, FRAMES);
        }
        if (action.toUpperCase() !== 'CANCEL') {
          parseFloatArg(args.required());
          parseFloatArg(args.required());
        }
        state.input.push({type: 'other', argv: [...rest]});
        break;
      }
      case 'scroll':
        state.input.push({type: 'other', argv: [...rest]});
        break;
      case 'keycombination': {
        let key = args.required();
        if (key === '-t') {
          parseInt(args.required());
          key = args.required();
        }
        const codes: number[] = [];
        for (let next: string | undefined = key; next !== undefined; next = args.next()) {
          const code = keyCodeFromString(next);
          if (code === 0) throw new JavaException('java.lang.IllegalArgumentException', `Unknown keycode: ${next}`, FRAMES);
          codes.push(code);
        }
        if (codes.length < 2) {
          throw new JavaException('java.lang.IllegalArgumentException', 'keycombination requires at least 2 keycodes', FRAMES);
        }
        state.input.push({type: 'other', argv: [...rest]});
        break;
      }
      default:
        await handleDefaultCommands(context, arg, () => onHelp(context));
    }
  } catch (error) {
    if (!(error instanceof NumberFormat)) throw error;
    throw new JavaException('java.lang.IllegalArgumentException', `Error: Invalid arguments for command: ${arg}`, FRAMES);
  }
  return 0;
}

/** `cmd input ARGS…`: see the file's comment. */
export const inputCommand: CommandHandler = (context) =>
  execShellCommand(context, context.argv.slice(1), (command, rest) => onCommand(context, command, rest));
