/**
 * `bugreportz [-hpsv]`: a zipped bug report from dumpstate. It is written to the Shell app's
 * bugreports folder and named on standard output (`OK:PATH`), with `BEGIN:` and `PROGRESS:` lines
 * before it under `-p`, or streamed to standard output with `-s`. The report holds dumpstate's
 * header and `version.txt`; the hundreds of sections of a real one are not simulated.
 *
 * Facts (android-14.0.0_r50):
 * - `frameworks/native/cmds/bugreportz/main.cpp`: `VERSION` 1.2 on standard error (`-v`), the
 *   usage on standard error for `-h` (status 0) and for a bad option or an argument (status 1).
 * - `frameworks/native/cmds/bugreportz/bugreportz.cpp`: dumpstate's lines are copied, `BEGIN:` and
 *   `PROGRESS:` ones only with `-p`.
 * - `frameworks/native/cmds/dumpstate/dumpstate.cpp`: the report is
 *   `bugreport-<ro.product.name>-<ro.build.id>-<YYYY-MM-DD-hh-mm-ss>.zip` in
 *   `bugreport_internal_dir_` (`/bugreports`, which `MaybeResolveSymlink` resolves to
 *   `/data/user_de/0/com.android.shell/files/bugreports`); `BEGIN:PATH` first, then
 *   `UpdateProgress` writes `PROGRESS:N/MAX` each time the percentage grows, in dumpstate's own
 *   units (`Progress::kDefaultMax` 5000 to start with; when the progress passes the maximum, the
 *   maximum becomes `floor(progress * 1.1)`, `Progress::Inc`), and `OK:PATH` at the end
 *   (`FinalizeFile`); `PrintHeader` (`== dumpstate: DATE`, `Build:` from `ro.build.display.id`,
 *   `Build fingerprint: '…'`, `Bootloader:`, `Radio:`, `Network:`, `(unknown)` when unset);
 *   `version.txt` holds `VERSION_CURRENT`, 2.0.
 */
import {zip} from '../apk.ts';
import {AID, dirname} from '../fs.ts';
import type {CommandContext, CommandHandler} from '../types.ts';
import {eprint, println} from './shell-command.ts';

/** `bugreportz`'s `VERSION`. */
const VERSION = '1.2';

/** `show_usage()` of `bugreportz/main.cpp`. */
const USAGE_TEXT =
  'usage: bugreportz [-hpsv]\n' +
  '  -h: to display this help message\n' +
  '  -p: display progress\n' +
  '  -s: stream content to standard output\n' +
  '  -v: to display the version\n' +
  '  or no arguments to generate a zipped bugreport\n';

/** Where dumpstate's `/bugreports` leads: the Shell app's device-encrypted storage. */
const BUGREPORTS_DIR = '/data/user_de/0/com.android.shell/files/bugreports';

/**
 * The progress dumpstate reports as its sections finish, in its units: each value a grown
 * percentage of the maximum (88 % before the last); the last one passes 5000, so the maximum
 * becomes 5500 × 1.1 and the percentage (90 %) still grows.
 */
const PROGRESS_STEPS = [120, 1050, 2230, 3390, 4400, 5500];

/** `Progress::kDefaultMax` and the growth factor of `Progress::Inc`. */
const DEFAULT_MAX = 5000;
const GROWTH_FACTOR = 1.1;

/** `YYYY-MM-DD-hh-mm-ss` and `YYYY-MM-DD hh:mm:ss` of the device clock (its time zone is UTC). */
function stamps(ms: number): {name: string; header: string} {
  const iso = new Date(ms).toISOString();
  return {name: iso.slice(0, 19).replace(/[T:]/g, '-'), header: iso.slice(0, 19).replace('T', ' ')};
}

/** The report's text entry: dumpstate's header (`PrintHeader`'s first lines). */
function reportText(context: CommandContext, date: string): string {
  const properties = context.device.properties;
  const unknown = '(unknown)';
  const build = properties.get('ro.build.display.id') ?? unknown;
  const fingerprint = properties.get('ro.build.fingerprint') ?? unknown;
  const bootloader = properties.get('ro.bootloader') ?? unknown;
  const radio = properties.get('gsm.version.baseband') ?? unknown;
  const network = properties.get('gsm.operator.alpha') ?? unknown;
  return [
    '========================================================',
    `== dumpstate: ${date}`,
    '========================================================',
    '',
    `Build: ${build}`,
    `Build fingerprint: '${fingerprint}'`,
    `Bootloader: ${bootloader}`,
    `Radio: ${radio}`,
    `Network: ${network}`,
    '',
  ].join('\n');
}

/** `bugreportz`: see the file's comment. */
export const bugreportz: CommandHandler = async (context) => {
  const device = context.device;
  let progress = false;
  let stream = false;
  for (const arg of context.argv.slice(1)) {
    if (!arg.startsWith('-') || arg === '-') {
      await eprint(context, USAGE_TEXT);
      return 1;
    }
    for (const flag of arg.slice(1)) {
      if (flag === 'h') {
        await eprint(context, USAGE_TEXT);
        return 0;
      }
      if (flag === 'v') {
        await eprint(context, `${VERSION}\n`);
        return 0;
      }
      if (flag === 'p') progress = true;
      else if (flag === 's') stream = true;
      else {
        await eprint(context, USAGE_TEXT);
        return 1;
      }
    }
  }
  const properties = device.properties;
  const time = stamps(device.now());
  const name = `bugreport-${properties.get('ro.product.name') ?? 'UNKNOWN_DEVICE'}-${properties.get('ro.build.id') ?? 'UNKNOWN_BUILD'}-${time.name}`;
  const archive = zip([
    [`${name}.txt`, new TextEncoder().encode(reportText(context, time.header))],
    ['version.txt', new TextEncoder().encode('2.0')],
  ]);
  if (stream) {
    await context.stdout(archive);
    return 0;
  }
  const path = `${BUGREPORTS_DIR}/${name}.zip`;
  // `/data/user_de/0` is system's (0771); the rest belongs to the Shell app, so `adb pull` can read it.
  device.fs.mkdir(dirname(path), {recursive: true, mode: 0o770});
  device.fs.chown('/data/user_de/0', AID.system, AID.system);
  device.fs.chmod('/data/user_de/0', 0o771);
  for (let dir = dirname(path); dir !== '/data/user_de/0'; dir = dirname(dir)) device.fs.chown(dir, AID.shell, AID.shell);
  device.fs.writeFile(path, archive, {mode: 0o644, uid: AID.shell, gid: AID.shell});
  if (progress) {
    await println(context, `BEGIN:${path}`);
    let max = DEFAULT_MAX;
    for (const step of PROGRESS_STEPS) {
      if (step > max) max = Math.floor(step * GROWTH_FACTOR);
      await println(context, `PROGRESS:${step}/${max}`);
    }
  }
  await println(context, `OK:${path}`);
  return 0;
};
