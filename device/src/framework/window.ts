/**
 * The window manager's shell command: `cmd window …`, which `wm` runs (`/system/bin/wm` is
 * `cmd window "$@"`): `size [WxH|reset] [-d DISPLAY]` and `density [DPI|reset] [-d DISPLAY]`,
 * whose overrides the screenshots (`screencap`, `framebuffer:`) follow.
 *
 * Facts: `frameworks/base/services/core/java/com/android/server/wm/WindowManagerShellCommand.java`
 * (android-14.0.0_r50): `printInitialDisplaySize` (`Physical size: WxH`, and `Override size: WxH`
 * when the base size differs), `runDisplaySize` (`Error: bad size S` for a size without an inner
 * `x`; `parseDimension`: `Npx`, `Ndp` (times the density / 160) or `N`; `Error: bad number ` + a
 * `NumberFormatException`; status -1), `printInitialDisplayDensity` (`Physical density: N`,
 * `Override density: N` when it differs), `runDisplayDensity` (`Error: bad number …`, `Error:
 * density must be >= 72`), `getDisplayId` (`-d N`); the first lines of `onHelp`.
 */
import type {CommandContext, CommandHandler} from '../types.ts';
import {PHYSICAL_DENSITY, PHYSICAL_SIZE} from '../screen.ts';
import {JavaException, parseJavaInt} from './java.ts';
import {eprintln, execShellCommand, handleDefaultCommands, println, ShellArgs} from './shell-command.ts';
import {androidState} from './state.ts';

/** The first lines of `WindowManagerShellCommand.onHelp` (the rest is not simulated). */
const HELP_LINES = [
  'Window manager (window) commands:',
  '  help',
  '      Print this help text.',
  '  size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]',
  '    Return or override display size.',
  "    width and height in pixels unless suffixed with 'dp'.",
];

/** `DisplayMetrics.DENSITY_DEFAULT`. */
const DENSITY_DEFAULT = 160;

/** `getDisplayId(opt)`: `-d N` after the value (or as it), else the default display. */
function readDisplayId(context: CommandContext, args: ShellArgs, first: string | undefined): Promise<number> | number {
  const option = first === '-d' ? first : args.nextOption();
  if (option !== '-d') return 0;
  try {
    return parseJavaInt(args.required());
  } catch (error) {
    if (!(error instanceof JavaException)) throw error;
    const message =
      error.className === 'java.lang.NumberFormatException' ? `Error: bad number ${error.toString()}` : `Error: ${error.toString()}`;
    return eprintln(context, message).then(() => 0);
  }
}

/** `wm size`: see the file's comment. */
async function runDisplaySize(context: CommandContext, args: ShellArgs): Promise<number> {
  const display = androidState(context.device).display;
  const size = args.next();
  await readDisplayId(context, args, size);
  if (size === undefined || size === '-d') {
    await println(context, `Physical size: ${PHYSICAL_SIZE.width}x${PHYSICAL_SIZE.height}`);
    const width = display.overrideWidth ?? PHYSICAL_SIZE.width;
    const height = display.overrideHeight ?? PHYSICAL_SIZE.height;
    if (width !== PHYSICAL_SIZE.width || height !== PHYSICAL_SIZE.height) await println(context, `Override size: ${width}x${height}`);
    return 0;
  }
  if (size === 'reset') {
    delete display.overrideWidth;
    delete display.overrideHeight;
    return 0;
  }
  const div = size.indexOf('x');
  if (div <= 0 || div >= size.length - 1) {
    await eprintln(context, `Error: bad size ${size}`);
    return -1;
  }
  // `parseDimension`: pixels, `px`, or `dp` scaled by the current density.
  const dimension = (text: string) => {
    if (text.endsWith('px')) return parseJavaInt(text.slice(0, -2));
    if (text.endsWith('dp')) {
      return Math.trunc((parseJavaInt(text.slice(0, -2)) * (display.overrideDensity ?? PHYSICAL_DENSITY)) / DENSITY_DEFAULT);
    }
    return parseJavaInt(text);
  };
  let width: number;
  let height: number;
  try {
    width = dimension(size.slice(0, div));
    height = dimension(size.slice(div + 1));
  } catch (error) {
    if (!(error instanceof JavaException)) throw error;
    await eprintln(context, `Error: bad number ${error.toString()}`);
    return -1;
  }
  if (width >= 0 && height >= 0) {
    display.overrideWidth = width;
    display.overrideHeight = height;
  } else {
    delete display.overrideWidth;
    delete display.overrideHeight;
  }
  return 0;
}

/** `wm density`: see the file's comment. */
async function runDisplayDensity(context: CommandContext, args: ShellArgs): Promise<number> {
  const display = androidState(context.device).display;
  const value = args.next();
  await readDisplayId(context, args, value);
  if (value === undefined || value === '-d') {
    await println(context, `Physical density: ${PHYSICAL_DENSITY}`);
    const density = display.overrideDensity ?? PHYSICAL_DENSITY;
    if (density !== PHYSICAL_DENSITY) await println(context, `Override density: ${density}`);
    return 0;
  }
  if (value === 'reset') {
    delete display.overrideDensity;
    return 0;
  }
  let density: number;
  try {
    density = parseJavaInt(value);
  } catch (error) {
    if (!(error instanceof JavaException)) throw error;
    await eprintln(context, `Error: bad number ${error.toString()}`);
    return -1;
  }
  if (density < 72) {
    await eprintln(context, 'Error: density must be >= 72');
    return -1;
  }
  display.overrideDensity = density;
  return 0;
}

/** `cmd window ARGS…`: see the file's comment. */
export const windowCommand: CommandHandler = (context) =>
  execShellCommand(context, context.argv.slice(1), async (command, rest) => {
    const args = new ShellArgs(rest, [], command);
    switch (command) {
      case 'size':
        return runDisplaySize(context, args);
      case 'density':
        return runDisplayDensity(context, args);
      default:
        return handleDefaultCommands(context, command, () => println(context, HELP_LINES.join('\n')));
    }
  });
