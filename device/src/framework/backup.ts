/**
 * `bu`, the program behind `adb backup` and `adb restore` (adbd runs `bu backup …` for the
 * `backup:` service and `bu restore` for `restore:`), as Android 14 has it:
 * `frameworks/base/cmds/bu/src/com/android/commands/bu/Backup.java` (android-14.0.0_r50) parses
 * the arguments (`main` logs `Finished.`, `run` logs `Beginning: ` + the first argument, `doBackup`
 * logs `Unknown backup flag F`, `-all passed for backup along with specific package names` and
 * `no backup packages supplied and neither -shared nor -all given`, `showUsage` prints its usage
 * on standard error), and the backup manager writes the archive to standard output or reads it
 * from standard input.
 *
 * What the simulated one does:
 * - flags are single-dash words (`-apk`, `-shared`, `-all`, `-user N`…); any other word that
 *   starts with `-` is logged as `Unknown backup flag …` and skipped, any other word is a package;
 * - nothing is printed on either stream: errors go to the log (tag `bu`, and
 *   `BackupManagerService` for the archive), as `Backup.java` logs them;
 * - the "Full backup" / "Full restore" screen on the phone is confirmed at once, with no password;
 * - the archive is the `adb backup` file: the header lines `ANDROID BACKUP`, `5` (the format
 *   version), `1` or `0` (compressed) and `none` (not encrypted), then a tar archive, compressed
 *   with zlib's deflate unless `-nocompress`. It holds `apps/PACKAGE/_manifest` for each app, and
 *   `apps/PACKAGE/a/base.apk` with `-apk`; the apps' data is not simulated.
 *
 * The archive header comes from
 * `frameworks/base/services/backup/java/com/android/server/backup/fullbackup/PerformAdbBackupTask.java`
 * (`ANDROID BACKUP`, `BACKUP_FILE_VERSION`, the compression flag, `none`).
 */
import {constants, deflateSync, inflateSync} from 'node:zlib';

import {addLog, androidState, type PackageRecord} from './state.ts';
import type {CommandContext, CommandHandler} from '../types.ts';

/** The first line of an `adb backup` file (`UserBackupManagerService.BACKUP_FILE_HEADER_MAGIC`). */
export const BACKUP_MAGIC = 'ANDROID BACKUP\n';

/** The archive format version Android 8 and later write (`BACKUP_FILE_VERSION`). */
export const BACKUP_VERSION = 5;

/** The process id `bu` gets in the log (an `app_process` started for the command). */
const BU_PID = 6120;

function log(context: CommandContext, priority: number, tag: string, message: string): void {
  addLog(context.device, {buffer: tag === 'bu' ? 0 : 3, priority, tag, message, pid: tag === 'bu' ? BU_PID : 1501, tid: BU_PID, uid: 2000});
}

/** One ustar header block (512 bytes) for a regular file or a directory. */
function tarHeader(name: string, size: number, mtime: number, directory: boolean): Uint8Array {
  const block = new Uint8Array(512);
  const put = (offset: number, text: string) => block.set(new TextEncoder().encode(text), offset);
  const octal = (value: number, width: number) => value.toString(8).padStart(width - 1, '0');
  put(0, name);
  put(100, octal(directory ? 0o755 : 0o600, 8));
  put(108, octal(0, 8));
  put(116, octal(0, 8));
  put(124, octal(size, 12));
  put(136, octal(mtime, 12));
  put(148, '        ');
  put(156, directory ? '5' : '0');
  put(257, 'ustar\0');
  put(263, '00');
  const checksum = block.reduce((sum, byte) => sum + byte, 0);
  put(148, `${octal(checksum, 7)}\0 `);
  return block;
}

/** A tar archive of `files` (path, content), ended by two zero blocks. */
function tar(files: readonly (readonly [string, Uint8Array])[], mtime: number): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [name, data] of files) {
    parts.push(tarHeader(name, data.length, mtime, false), data, new Uint8Array((512 - (data.length % 512)) % 512));
  }
  parts.push(new Uint8Array(1024));
  return new Uint8Array(Buffer.concat(parts));
}

/** An app's `_manifest` entry: manifest version 1, package, version code, SDK level, installer, whether the APK follows. */
function manifest(record: PackageRecord, withApk: boolean): Uint8Array {
  const lines = ['1', record.name, String(record.versionCode), '34', record.installer ?? '', withApk ? '1' : '0', '0'];
  return new TextEncoder().encode(lines.map((line) => `${line}\n`).join(''));
}

/** The header of an `adb backup` file: the magic, the format version, `1`/`0` (compressed), `none` (not encrypted). */
function archiveHeaderText(compress: boolean): string {
  return `${BACKUP_MAGIC}${BACKUP_VERSION}\n${compress ? 1 : 0}\nnone\n`;
}

async function backup(context: CommandContext, args: readonly string[]): Promise<number> {
  const state = androidState(context.device);
  const options = {apk: false, shared: false, all: false, system: true, compress: true};
  const packages: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (!arg.startsWith('-')) {
      packages.push(arg);
      continue;
    }
    const flags: Record<string, () => void> = {
      '-apk': () => (options.apk = true),
      '-noapk': () => (options.apk = false),
      '-obb': () => undefined,
      '-noobb': () => undefined,
      '-shared': () => (options.shared = true),
      '-noshared': () => (options.shared = false),
      '-system': () => (options.system = true),
      '-nosystem': () => (options.system = false),
      '-widgets': () => undefined,
      '-nowidgets': () => undefined,
      '-all': () => (options.all = true),
      '-compress': () => (options.compress = true),
      '-nocompress': () => (options.compress = false),
      '-keyvalue': () => undefined,
      '-nokeyvalue': () => undefined,
      '-user': () => (i += 1),
    };
    const flag = flags[arg];
    if (flag) flag();
    else log(context, 5, 'bu', `Unknown backup flag ${arg}`);
  }
  if (options.all && packages.length > 0) log(context, 5, 'bu', '-all passed for backup along with specific package names');
  if (!options.all && !options.shared && packages.length === 0) {
    log(context, 6, 'bu', 'no backup packages supplied and neither -shared nor -all given');
    return 0;
  }

  const records: PackageRecord[] = [];
  if (options.all) {
    for (const record of state.packages.values()) {
      if (record.installed && (options.system || !record.system)) records.push(record);
    }
  }
  for (const name of packages) {
    const record = state.packages.get(name);
    if (record?.installed) {
      if (!records.includes(record)) records.push(record);
    } else {
      log(context, 5, 'BackupManagerService', `Unknown package ${name}, skipping`);
    }
  }

  const fs = context.device.fs;
  const mtime = fs.nowSeconds();
  const files: [string, Uint8Array][] = [];
  for (const record of records) {
    files.push([`apps/${record.name}/_manifest`, manifest(record, options.apk)]);
    if (options.apk) files.push([`apps/${record.name}/a/base.apk`, fs.readFile(record.path)]);
  }
  const body = tar(files, mtime);
  await context.stdout(archiveHeaderText(options.compress));
  await context.stdout(options.compress ? new Uint8Array(deflateSync(body)) : body);
  return 0;
}

/**
 * Whether `data` holds a tar archive up to its end: a header block whose type is NUL (the first
 * of the two zero blocks), where Android's `TarBackupReader` presumes the end of the archive.
 */
function tarComplete(data: Uint8Array): boolean {
  let offset = 0;
  while (offset + 512 <= data.length) {
    if (data[offset + 156] === 0) return true;
    const size = Number.parseInt(new TextDecoder().decode(data.subarray(offset + 124, offset + 135)), 8) || 0;
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return false;
}

/**
 * `bu restore`: reads the archive from standard input until its tar archive ends (or the input
 * does), without waiting for the host to close standard input; the zlib stream of a compressed
 * archive is inflated as it arrives. A wrong first line is logged and ends the restore at once.
 */
async function restore(context: CommandContext): Promise<number> {
  let input = new Uint8Array();
  const decoder = new TextDecoder();
  for (let chunk; (chunk = await context.readStdin()) !== undefined;) {
    const joined = new Uint8Array(input.length + chunk.length);
    joined.set(input);
    joined.set(chunk, input.length);
    input = joined;
    if (input.length >= BACKUP_MAGIC.length && decoder.decode(input.subarray(0, BACKUP_MAGIC.length)) !== BACKUP_MAGIC) {
      log(context, 5, 'BackupManagerService', "Didn't read the right header magic");
      return 0;
    }
    // The header: the magic, then three lines (version, compressed, encryption).
    let end = BACKUP_MAGIC.length;
    const lines: string[] = [];
    while (lines.length < 3) {
      const newline = input.indexOf(0x0a, end);
      if (newline < 0) break;
      lines.push(decoder.decode(input.subarray(end, newline)));
      end = newline + 1;
    }
    if (lines.length < 3) continue;
    let body = input.subarray(end);
    if (lines[1] !== '0') {
      try {
        body = new Uint8Array(inflateSync(body, {finishFlush: constants.Z_SYNC_FLUSH}));
      } catch {
        continue;
      }
    }
    if (tarComplete(body)) break;
  }
  return 0;
}

/** `Backup.showUsage()`. */
const USAGE_TEXT = [
  ' backup [-user USER_ID] [-f FILE] [-apk|-noapk] [-obb|-noobb] [-shared|-noshared]',
  '        [-all] [-system|-nosystem] [-keyvalue|-nokeyvalue] [PACKAGE...]',
  "     write an archive of the device's data to FILE [default=backup.adb]",
  '     package list optional if -all/-shared are supplied',
  '     -user: user ID for which to perform the operation (default - system user)',
  "     -apk/-noapk: do/don't back up .apk files (default -noapk)",
  "     -obb/-noobb: do/don't back up .obb files (default -noobb)",
  "     -shared|-noshared: do/don't back up shared storage (default -noshared)",
  '     -all: back up all installed applications',
  '     -system|-nosystem: include system apps in -all (default -system)',
  '     -keyvalue|-nokeyvalue: include apps that perform key/value backups.',
  '         (default -nokeyvalue)',
  ' restore [-user USER_ID] FILE       restore device contents from FILE',
  '     -user: user ID for which to perform the operation (default - system user)',
  '',
].join('\n');

/**
 * `bu backup|restore …`: see the file's comment. `Beginning: …` and `Finished.` go to the log as
 * `Backup.java` writes them; a first word other than `backup` or `restore` prints the usage on
 * standard error; no word at all fails in `run` (`Error running backup/restore`).
 */
export const bu: CommandHandler = async (context) => {
  const args = context.argv.slice(1);
  if (args[0] === undefined) {
    log(context, 6, 'bu', 'Error running backup/restore');
  } else {
    log(context, 3, 'bu', `Beginning: ${args[0]}`);
    const rest = args.slice(1);
    if (args[0] === 'backup') await backup(context, rest);
    else if (args[0] === 'restore') await restore(context);
    else await context.stderr(USAGE_TEXT);
  }
  log(context, 3, 'bu', 'Finished.');
  return 0;
};
