/**
 * `screencap [-p] [-d DISPLAY] [FILE]`: a screenshot of the simulated screen, at the size `wm size`
 * sets (`displaySize`).
 *
 * Facts: `frameworks/base/cmds/screencap/screencap.cpp` (android-14.0.0_r50): options `-p`, `-d ID`,
 * `-h` (getopt `"phd:"`); a PNG with `-p` or a FILE ending in `.png`, else the raw format: width,
 * height, pixel format (1 = `PIXEL_FORMAT_RGBA_8888`) and data space (1 = sRGB, `dataSpaceToInt`)
 * as 32-bit little-endian words, then the rows of pixels; the file opened with mode 0664 (less the
 * umask); `Error opening file: FILE (ERRNO TEXT)` and status 1 when it can't be. `-h`, an unknown
 * option or more than one file print a usage naming the default physical display's id, which this
 * device has no source for: they end with status 1 and print nothing.
 */
import {adbdCredentials, FsError} from '../fs.ts';
import {encodePng, PHYSICAL_SIZE, renderScreen, screenPng} from '../screen.ts';
import type {CommandHandler} from '../types.ts';
import {eprintln} from './shell-command.ts';
import {displaySize} from './state.ts';

/** `PIXEL_FORMAT_RGBA_8888` and the sRGB data space code of the raw format's header. */
const PIXEL_FORMAT_RGBA_8888 = 1;
const COLORSPACE_SRGB = 1;

/** `screencap`: see the file's comment. */
export const screencap: CommandHandler = async (context) => {
  const args = context.argv.slice(1);
  let png = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      files.push(arg);
      continue;
    }
    for (let j = 1; j < arg.length; j += 1) {
      const flag = arg[j];
      if (flag === 'p') png = true;
      else if (flag === 'd') {
        if (j === arg.length - 1) i += 1;
        break;
      } else return 1;
    }
  }
  if (files.length > 1) return 1;
  const file = files[0];
  if (file?.endsWith('.png')) png = true;
  const {width, height} = displaySize(context.device);
  let data: Uint8Array;
  if (png) data = width === PHYSICAL_SIZE.width && height === PHYSICAL_SIZE.height ? screenPng() : encodePng(renderScreen(width, height));
  else {
    const frame = renderScreen(width, height);
    data = new Uint8Array(16 + frame.pixels.length);
    const view = new DataView(data.buffer);
    [width, height, PIXEL_FORMAT_RGBA_8888, COLORSPACE_SRGB].forEach((value, index) => view.setUint32(index * 4, value, true));
    data.set(frame.pixels, 16);
  }
  if (file === undefined) {
    await context.stdout(data);
    return 0;
  }
  const path = file.startsWith('/') ? file : `${context.cwd.replace(/\/$/, '')}/${file}`;
  try {
    context.device.fs.writeFile(path, data, {cred: adbdCredentials(context.device.properties), mode: 0o664});
  } catch (error) {
    if (!(error instanceof FsError)) throw error;
    await eprintln(context, `Error opening file: ${file} (${error.description})`);
    return 1;
  }
  return 0;
};
