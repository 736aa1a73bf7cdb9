/**
 * Toybox's file commands over the device's in-memory file system, with toybox's output and error
 * texts: `ls`, `cat`, `mkdir`, `rm`, `rmdir`, `touch`, `stat`, `mv`, `cp`, `chmod`, `ln`,
 * `readlink`, `realpath`, `md5sum`/`sha1sum`/`sha256sum`, `wc`, `head`, `tail`.
 *
 * Facts: toybox (Android's `/system/bin/toybox`): `toys/posix/ls.c` (one name per line when
 * standard output isn't a terminal, columns when it is; `-l` columns: mode, links, owner, group,
 * size, `%Y-%m-%d %H:%M`, name, ` -> target`; `total` in KiB; command-line symbolic links followed
 * unless `-l`/`-d`/`-F`; a lone directory argument listed without a header), `toys/posix/rm.c`
 * (`-f` ignores missing files; a directory needs `-r`), `toys/other/stat.c` (default format and
 * `-c` escapes), `toys/posix/mkdir.c`, `toys/posix/touch.c`; errors print as `NAME: PATH: strerror`
 * (`perror_msg`), or `NAME: 'PATH': strerror` where toybox quotes the path. The commands run with
 * adbd's credentials (`shell`, or `root` after `adb root`).
 */
import {createHash} from 'node:crypto';

import {adbdCredentials, basename, FsError, idName, type Credentials, type FileStat, type MemoryFileSystem} from '../fs.ts';
import type {CommandContext, CommandHandler} from '../types.ts';

/** Splits toybox-style arguments: `-abc` sets flags a, b, c; flags in `withValue` take the next word; `--` ends options. */
export function parseFlags(
  args: readonly string[],
  withValue = '',
): {flags: Set<string>; values: Map<string, string>; operands: string[]; bad?: string} {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const operands: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--') && arg.length > 2) {
      const [name, value] = arg.slice(2).split('=', 2) as [string, string | undefined];
      flags.add(`--${name}`);
      if (value !== undefined) values.set(`--${name}`, value);
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j += 1) {
        const flag = arg[j]!;
        flags.add(flag);
        if (withValue.includes(flag)) {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
          if (value === undefined) return {flags, values, operands, bad: flag};
          values.set(flag, value);
          break;
        }
      }
      continue;
    }
    operands.push(arg);
  }
  return {flags, values, operands};
}

/** The credentials commands run with, and the device's file system bound to its properties. */
function setup(context: CommandContext): {fs: MemoryFileSystem; cred: Credentials} {
  const fs = context.device.fs;
  fs.bindProperties(context.device.properties);
  return {fs, cred: adbdCredentials(context.device.properties)};
}

function describe(error: unknown): string {
  if (error instanceof FsError) return error.description;
  throw error;
}

/** Expands `*`, `?` and `[…]` in the last components of a path against the file system (the shell's globbing), sorted; the word itself when nothing matches. */
export function expandGlob(fs: MemoryFileSystem, word: string, cred?: Credentials): string[] {
  if (!/[*?[]/.test(word)) return [word];
  const absolute = word.startsWith('/');
  const parts = word.split('/').filter((part) => part !== '');
  let paths = [absolute ? '' : '.'];
  for (const part of parts) {
    const next: string[] = [];
    if (!/[*?[]/.test(part)) {
      for (const path of paths) next.push(`${path}/${part}`);
    } else {
      const pattern = new RegExp(
        '^' +
          part
            .replace(/[.+^${}()|\\]/g, '\\$&')
            .replace(/\*/g, '.*')
            .replace(/\?/g, '.') +
          '$',
      );
      for (const path of paths) {
        let names: string[];
        try {
          names = fs.readdir(path || '/', {cred});
        } catch {
          continue;
        }
        for (const name of names.sort()) {
          if (name.startsWith('.') && !part.startsWith('.')) continue;
          if (pattern.test(name)) next.push(`${path}/${name}`);
        }
      }
    }
    paths = next;
  }
  const matches = paths.filter((path) => fs.lstat(path || '/') !== undefined).map((path) => (absolute ? path : path.replace(/^\.\//, '')));
  return matches.length > 0 ? matches : [word];
}

function globAll(fs: MemoryFileSystem, words: readonly string[], cred: Credentials): string[] {
  return words.flatMap((word) => expandGlob(fs, word, cred));
}

/** `ls -l`'s mode string: type letter and `rwx` triplets with `s`/`S`/`t`/`T` (toybox `mode_to_string`). */
export function modeString(mode: number): string {
  const type = (mode & 0o170000) === 0o040000 ? 'd' : (mode & 0o170000) === 0o120000 ? 'l' : '-';
  let out = type;
  const special = [
    [0o4000, 's', 'S'],
    [0o2000, 's', 'S'],
    [0o1000, 't', 'T'],
  ] as const;
  for (let i = 0; i < 3; i += 1) {
    const bits = (mode >> (6 - i * 3)) & 7;
    out += bits & 4 ? 'r' : '-';
    out += bits & 2 ? 'w' : '-';
    const [flag, lower, upper] = special[i]!;
    if (mode & flag) out += bits & 1 ? lower : upper;
    else out += bits & 1 ? 'x' : '-';
  }
  return out;
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}

/** `%Y-%m-%d %H:%M` in the device's time zone (UTC). */
function formatListTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return `${date.getUTCFullYear()}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())} ${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}`;
}

/** `%Y-%m-%d %H:%M:%S.000000000 +0000`, as toybox `stat` prints times. */
function formatStatTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return `${formatListTime(seconds)}:${pad2(date.getUTCSeconds())}.000000000 +0000`;
}

/** 512-byte blocks a file occupies (4 KiB allocation units; symbolic links and empty files none). */
function blocks(stat: FileStat): number {
  if (stat.type === 'symlink') return 0;
  if (stat.type === 'directory') return 8;
  return Math.ceil(stat.size / 4096) * 8;
}

function humanSize(value: number): string {
  if (value < 1024) return String(value);
  const units = ['K', 'M', 'G', 'T'];
  let scaled = value;
  let unit = -1;
  while (scaled >= 1024 && unit < units.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  return scaled < 10 ? `${scaled.toFixed(1).replace(/\.0$/, '')}${units[unit]}` : `${Math.round(scaled)}${units[unit]}`;
}

interface Entry {
  name: string;
  path: string;
  stat: FileStat;
  target?: string;
}

/** `ls [-aAdlnhtSrR1iF] [PATH…]`. */
const ls: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  const {flags, operands} = parseFlags(context.argv.slice(1));
  const long = flags.has('l') || flags.has('n') || flags.has('o') || flags.has('g');
  const onePerLine = flags.has('1') || long || !context.pty;
  let status = 0;
  const out: string[] = [];

  const sortEntries = (entries: Entry[]) => {
    if (flags.has('f')) return entries;
    const reverse = flags.has('r') ? -1 : 1;
    return entries.sort((a, b) => {
      let result = 0;
      if (flags.has('S')) result = b.stat.size - a.stat.size;
      if (flags.has('t')) result = b.stat.mtime - a.stat.mtime;
      if (!result) result = a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
      return result * reverse;
    });
  };

  const suffix = (stat: FileStat) => {
    if ((flags.has('F') || flags.has('p')) && stat.type === 'directory') return '/';
    if (flags.has('F') && stat.type === 'symlink') return '@';
    if (flags.has('F') && stat.type === 'file' && stat.permission & 0o111) return '*';
    return '';
  };

  const render = (entries: Entry[], total: boolean) => {
    if (long || flags.has('s')) {
      if (total) out.push(`total ${entries.reduce((sum, entry) => sum + blocks(entry.stat) / 2, 0)}`);
    }
    if (!long) {
      const names = entries.map(
        (entry) =>
          (flags.has('i') ? `${entry.stat.ino} ` : '') +
          (flags.has('s') ? `${blocks(entry.stat) / 2} ` : '') +
          entry.name +
          suffix(entry.stat),
      );
      if (onePerLine) out.push(...names);
      else if (names.length > 0) out.push(...columns(names, 80));
      return;
    }
    const user = (e: Entry) => (flags.has('n') ? String(e.stat.uid) : idName(e.stat.uid));
    const group = (e: Entry) => (flags.has('n') ? String(e.stat.gid) : idName(e.stat.gid));
    const size = (e: Entry) => (flags.has('h') ? humanSize(e.stat.size) : String(e.stat.size));
    const width = (get: (e: Entry) => string) => Math.max(0, ...entries.map((e) => get(e).length));
    const wLinks = width((e) => String(e.stat.nlink));
    const wUser = width(user);
    const wGroup = width(group);
    const wSize = width(size);
    const wIno = width((e) => String(e.stat.ino));
    for (const entry of entries) {
      let line = flags.has('i') ? `${String(entry.stat.ino).padStart(wIno)} ` : '';
      line += `${modeString(entry.stat.mode)} ${String(entry.stat.nlink).padStart(wLinks)}`;
      if (!flags.has('g')) line += ` ${user(entry).padEnd(wUser)}`;
      if (!flags.has('o')) line += ` ${group(entry).padEnd(wGroup)}`;
      line += ` ${size(entry).padStart(wSize)} ${formatListTime(entry.stat.mtime)} ${entry.name}`;
      if (entry.stat.type === 'symlink') line += ` -> ${entry.target}`;
      line += suffix(entry.stat);
      out.push(line);
    }
  };

  const readDirectory = (path: string): Entry[] | undefined => {
    let names: string[];
    try {
      names = fs.readdir(path, {cred});
    } catch (error) {
      out.push(`\u0000ls: ${path}: ${describe(error)}`);
      status = 1;
      return undefined;
    }
    if (flags.has('a') || flags.has('f')) names = ['.', '..', ...names];
    else if (!flags.has('A')) names = names.filter((name) => !name.startsWith('.'));
    const entries: Entry[] = [];
    for (const name of names) {
      const child = `${path.replace(/\/+$/, '')}/${name}`;
      const stat = flags.has('L') ? fs.stat(child, {cred}) : fs.lstat(child, {cred});
      if (!stat) continue;
      entries.push({name, path: child, stat, target: stat.type === 'symlink' ? fs.readlink(child) : undefined});
    }
    return sortEntries(entries);
  };

  let titled = false;
  const listDirectory = (path: string, label: boolean) => {
    const entries = readDirectory(path);
    if (label) {
      if (titled) out.push('');
      out.push(`${path}:`);
    }
    titled = true;
    if (!entries) return;
    render(entries, true);
    if (flags.has('R')) {
      for (const entry of entries) {
        if (entry.stat.type === 'directory' && entry.name !== '.' && entry.name !== '..') listDirectory(entry.path, true);
      }
    }
  };

  const targets = globAll(fs, operands.length > 0 ? operands : ['.'], cred).map((word) => (word === '.' ? '/' : word));
  const follow = !(long || flags.has('d') || flags.has('F')) || flags.has('L') || flags.has('H');
  const files: Entry[] = [];
  const directories: Entry[] = [];
  for (const path of targets) {
    let stat: FileStat;
    try {
      stat = fs.statOrThrow(path, {follow, cred});
    } catch (error) {
      // A dangling link still lists as itself.
      const link = follow ? fs.lstat(path, {cred}) : undefined;
      if (!link) {
        out.push(`\u0000ls: ${path}: ${describe(error)}`);
        status = 1;
        continue;
      }
      stat = link;
    }
    const entry: Entry = {name: path, path, stat, target: stat.type === 'symlink' ? fs.readlink(path) : undefined};
    if (stat.type === 'directory' && !flags.has('d')) directories.push(entry);
    else files.push(entry);
  }
  if (files.length > 0) render(sortEntries(files), false);
  titled = files.length > 0;
  const label = directories.length + files.length > 1 || flags.has('R');
  for (const directory of sortEntries(directories)) listDirectory(directory.path, label);

  for (const line of out) {
    if (line.startsWith('\u0000')) await context.stderr(`${line.slice(1)}\n`);
    else await context.stdout(`${line}\n`);
  }
  return status;
};

/** Lays names out in columns sorted vertically, as toybox does on a terminal of `width` characters. */
function columns(names: string[], width: number): string[] {
  for (let count = Math.min(names.length, Math.floor(width / 2)); count > 1; count -= 1) {
    const height = Math.ceil(names.length / count);
    const widths: number[] = [];
    for (let c = 0; c < count; c += 1) {
      widths.push(Math.max(0, ...names.slice(c * height, (c + 1) * height).map((name) => name.length)));
    }
    const total = widths.reduce((sum, w) => sum + w + 2, 0) - 2;
    if (total > width || widths.some((w, i) => w === 0 && i < count)) continue;
    const rows: string[] = [];
    for (let r = 0; r < height; r += 1) {
      let row = '';
      for (let c = 0; c < count; c += 1) {
        const name = names[c * height + r];
        if (name === undefined) continue;
        row += c === count - 1 || names[(c + 1) * height + r] === undefined ? name : name.padEnd(widths[c]! + 2);
      }
      rows.push(row.trimEnd());
    }
    return rows;
  }
  return names;
}

/** `cat [FILE…]` (`-` or nothing: standard input). */
const cat: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  const {operands} = parseFlags(context.argv.slice(1).filter((arg) => arg !== '-u' && arg !== '-v'));
  const paths = operands.length > 0 ? globAll(fs, operands, cred) : ['-'];
  let status = 0;
  for (const path of paths) {
    if (path === '-') {
      for (let chunk; (chunk = await context.readStdin());) await context.stdout(chunk);
      continue;
    }
    try {
      await context.stdout(fs.readFile(path, {cred}));
    } catch (error) {
      await context.stderr(`cat: ${path}: ${describe(error)}\n`);
      status = 1;
    }
  }
  return status;
};

/** `mkdir [-p] [-m MODE] DIR…`. */
const mkdir: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  const {flags, values, operands} = parseFlags(context.argv.slice(1), 'm');
  if (operands.length === 0) {
    await context.stderr('mkdir: Needs 1 argument\n');
    return 1;
  }
  const mode = values.has('m') ? parseInt(values.get('m')!, 8) : undefined;
  let status = 0;
  for (const path of operands) {
    try {
      if (flags.has('p') && fs.stat(path, {cred})?.type === 'directory') continue;
      fs.mkdir(path, {recursive: flags.has('p'), mode, cred});
      if (flags.has('v')) await context.stdout(`mkdir: created directory '${path}'\n`);
    } catch (error) {
      await context.stderr(`mkdir: '${path}': ${describe(error)}\n`);
      status = 1;
    }
  }
  return status;
};

/** `rm [-fiRrv] FILE…`. */
const rm: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  const {flags, operands} = parseFlags(context.argv.slice(1));
  const force = flags.has('f') || flags.has('--force');
  const recursive = flags.has('r') || flags.has('R') || flags.has('--recursive');
  if (operands.length === 0 && !force) {
    await context.stderr('rm: Needs 1 argument\n');
    return 1;
  }
  let status = 0;
  for (const path of globAll(fs, operands, cred)) {
    if (path === '/') {
      await context.stderr('rm: rm /. if you mean it\n');
      status = 1;
      continue;
    }
    if (['.', '..'].includes(basename(path))) continue;
    const stat = fs.lstat(path, {cred});
    if (!stat) {
      if (force) continue;
      let message = 'No such file or directory';
      try {
        fs.statOrThrow(path, {follow: false, cred});
      } catch (error) {
        message = describe(error);
      }
      await context.stderr(`rm: ${path}: ${message}\n`);
      status = 1;
      continue;
    }
    if (stat.type === 'directory' && !recursive) {
      await context.stderr(`rm: ${path}: Is a directory\n`);
      status = 1;
      continue;
    }
    try {
      fs.remove(path, {recursive, cred});
      if (flags.has('v')) await context.stdout(`rm '${path}'\n`);
    } catch (error) {
      await context.stderr(`rm: ${error instanceof FsError ? error.path : path}: ${describe(error)}\n`);
      status = 1;
    }
  }
  return status;
};

/** `rmdir [-p] DIR…`. */
const rmdir: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  const {operands} = parseFlags(context.argv.slice(1));
  let status = 0;
  for (const path of operands) {
    try {
      const stat = fs.statOrThrow(path, {follow: false, cred});
      if (stat.type !== 'directory') throw new FsError('ENOTDIR', 'rmdir', path);
      fs.remove(path, {cred});
    } catch (error) {
      await context.stderr(`rmdir: '${path}': ${describe(error)}\n`);
      status = 1;
    }
  }
  return status;
};

/** `touch [-c] [-t STAMP|-d DATE] FILE…`: creates empty files, or sets times to now. */
const touch: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  const {flags, values, operands} = parseFlags(context.argv.slice(1), 'tdr');
  let time = fs.nowSeconds();
  if (values.has('d')) {
    const parsed = Date.parse(values.get('d')!.replace(' ', 'T') + (/[zZ]|[+-]\d\d:?\d\d$/.test(values.get('d')!) ? '' : 'Z'));
    if (Number.isNaN(parsed)) {
      await context.stderr(`touch: bad '${values.get('d')}'\n`);
      return 1;
    }
    time = Math.floor(parsed / 1000);
  }
  if (values.has('r')) {
    const reference = fs.stat(values.get('r')!, {cred});
    if (!reference) {
      await context.stderr(`touch: '${values.get('r')}': No such file or directory\n`);
      return 1;
    }
    time = reference.mtime;
  }
  let status = 0;
  for (const path of operands) {
    try {
      if (!fs.stat(path, {cred})) {
        if (flags.has('c')) continue;
        fs.writeFile(path, new Uint8Array(0), {cred, mode: 0o666, mtime: time});
      } else {
        fs.utimes(path, time, time, {cred});
      }
    } catch (error) {
      await context.stderr(`touch: '${path}': ${describe(error)}\n`);
      status = 1;
    }
  }
  return status;
};

function statField(fs: MemoryFileSystem, path: string, stat: FileStat, field: string): string {
  switch (field) {
    case 'a':
      return stat.permission.toString(8);
    case 'A':
      return modeString(stat.mode);
    case 'b':
      return String(blocks(stat));
    case 'B':
      return '512';
    case 'o':
      return '4096';
    case 'd':
      return String(stat.dev);
    case 'D':
      return stat.dev.toString(16);
    case 'f':
      return stat.mode.toString(16);
    case 'F':
      return stat.type === 'directory'
        ? 'directory'
        : stat.type === 'symlink'
          ? 'symbolic link'
          : stat.size === 0
            ? 'regular empty file'
            : 'regular file';
    case 'g':
      return String(stat.gid);
    case 'G':
      return idName(stat.gid);
    case 'h':
      return String(stat.nlink);
    case 'i':
      return String(stat.ino);
    case 'n':
      return path;
    case 'N':
      return stat.type === 'symlink' ? `${path} -> '${fs.readlink(path)}'` : path;
    case 's':
      return String(stat.size);
    case 't':
    case 'T':
      return '0';
    case 'u':
      return String(stat.uid);
    case 'U':
      return idName(stat.uid);
    case 'x':
      return formatStatTime(stat.atime);
    case 'X':
      return String(stat.atime);
    case 'y':
      return formatStatTime(stat.mtime);
    case 'Y':
      return String(stat.mtime);
    case 'z':
      return formatStatTime(stat.ctime);
    case 'Z':
      return String(stat.ctime);
    case '%':
      return '%';
    default:
      return '?';
  }
}

/** toybox `stat`'s default format (toybox 0.8, Android 14). */
const STAT_FORMAT =
  '  File: %N\n  Size: %s\t Blocks: %b\t IO Blocks: %B\t %F\nDevice: %Dh/%dd\t Inode: %i\t Links: %h\t Device type: %t,%T\n' +
  'Access: (%04a/%A)\tUid: (%5u/%8U)\tGid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z';

/** Expands a `stat -c` format: `%%`, and `%[-][0][WIDTH]X` with printf's padding. */
function formatStat(format: string, field: (name: string) => string): string {
  return format.replace(/%(%|(-?)(0?)(\d*)([a-zA-Z]))/g, (_, all: string, left: string, zero: string, width: string, name: string) => {
    if (all === '%') return '%';
    const value = field(name);
    const size = Number(width || 0);
    if (left) return value.padEnd(size);
    return value.padStart(size, zero ? '0' : ' ');
  });
}

/** `stat [-L] [-c FORMAT] [-t] FILE…`. */
const stat: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  const {flags, values, operands} = parseFlags(context.argv.slice(1), 'c');
  if (operands.length === 0) {
    await context.stderr('stat: Needs 1 argument\n');
    return 1;
  }
  const format = values.get('c') ?? (flags.has('t') ? '%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %o' : STAT_FORMAT);
  let status = 0;
  for (const path of operands) {
    let info: FileStat;
    try {
      info = fs.statOrThrow(path, {follow: flags.has('L'), cred});
    } catch (error) {
      await context.stderr(`stat: '${path}': ${describe(error)}\n`);
      status = 1;
      continue;
    }
    await context.stdout(formatStat(format, (field) => statField(fs, path, info, field)) + '\n');
  }
  return status;
};

/** Copies or moves: `dest` is a directory → into it under the source's name. */
function destinationOf(fs: MemoryFileSystem, source: string, destination: string, cred: Credentials): string {
  return fs.stat(destination, {cred})?.type === 'directory' ? `${destination.replace(/\/+$/, '')}/${basename(source)}` : destination;
}

/** `mv SOURCE… DEST`. */
const mv: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  const {operands} = parseFlags(context.argv.slice(1));
  const paths = globAll(fs, operands, cred);
  if (paths.length < 2) {
    await context.stderr('mv: Needs 2 arguments\n');
    return 1;
  }
  const destination = paths.pop()!;
  let status = 0;
  for (const source of paths) {
    const target = destinationOf(fs, source, destination, cred);
    try {
      try {
        fs.rename(source, target, {cred});
      } catch (error) {
        if (!(error instanceof FsError) || error.code !== 'EXDEV') throw error;
        copyTree(fs, source, target, cred);
        fs.remove(source, {recursive: true, cred});
      }
    } catch (error) {
      await context.stderr(
        `mv: ${error instanceof FsError && error.code === 'ENOENT' ? `${source}` : `'${target}'`}: ${describe(error)}\n`,
      );
      status = 1;
    }
  }
  return status;
};

function copyTree(fs: MemoryFileSystem, source: string, target: string, cred: Credentials, recursive = true): void {
  const info = fs.statOrThrow(source, {cred});
  if (info.type === 'directory') {
    if (!recursive) throw new FsError('EISDIR', 'open', source);
    if (!fs.stat(target, {cred})) fs.mkdir(target, {cred, mode: info.permission});
    for (const name of fs.readdir(source, {cred})) copyTree(fs, `${source}/${name}`, `${target}/${name}`, cred);
    return;
  }
  fs.writeFile(target, fs.readFile(source, {cred}), {cred, mode: info.permission});
}

/** `cp [-rRp] SOURCE… DEST`. */
const cp: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  const {flags, operands} = parseFlags(context.argv.slice(1));
  const paths = globAll(fs, operands, cred);
  if (paths.length < 2) {
    await context.stderr('cp: Needs 2 arguments\n');
    return 1;
  }
  const destination = paths.pop()!;
  const recursive = flags.has('r') || flags.has('R') || flags.has('a');
  let status = 0;
  for (const source of paths) {
    const target = destinationOf(fs, source, destination, cred);
    try {
      if (fs.stat(source, {cred})?.type === 'directory' && !recursive) {
        await context.stderr(`cp: Skipped dir '${source}'\n`);
        status = 1;
        continue;
      }
      copyTree(fs, source, target, cred, recursive);
      if (flags.has('p') || flags.has('a')) {
        const info = fs.stat(source)!;
        fs.utimes(target, info.atime, info.mtime);
      }
    } catch (error) {
      await context.stderr(`cp: ${error instanceof FsError ? error.path : source}: ${describe(error)}\n`);
      status = 1;
    }
  }
  return status;
};

/** `chmod [-R] MODE FILE…` (octal modes, and `[ugoa][+-=][rwx]` symbolic modes). */
const chmod: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  const args = context.argv.slice(1);
  const recursive = args[0] === '-R';
  if (recursive) args.shift();
  const [mode, ...paths] = args;
  if (!mode || paths.length === 0) {
    await context.stderr('chmod: Needs 2 arguments\n');
    return 1;
  }
  let status = 0;
  const apply = (path: string) => {
    const info = fs.statOrThrow(path, {cred});
    let next = info.permission;
    if (/^[0-7]+$/.test(mode)) next = parseInt(mode, 8);
    else {
      for (const clause of mode.split(',')) {
        const match = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
        if (!match) throw new Error(`bad mode '${mode}'`);
        const who = match[1] || 'a';
        let bits = 0;
        for (const c of match[3]!) bits |= c === 'r' ? 4 : c === 'w' ? 2 : c === 'x' || c === 'X' ? 1 : 0;
        let mask = 0;
        if (who.includes('u') || who.includes('a')) mask |= bits << 6;
        if (who.includes('g') || who.includes('a')) mask |= bits << 3;
        if (who.includes('o') || who.includes('a')) mask |= bits;
        if (match[2] === '+') next |= mask;
        else if (match[2] === '-') next &= ~mask;
        else next = mask;
      }
    }
    fs.chmod(path, next, {cred});
    if (recursive && info.type === 'directory') for (const name of fs.readdir(path, {cred})) apply(`${path}/${name}`);
  };
  for (const path of globAll(fs, paths, cred)) {
    try {
      apply(path);
    } catch (error) {
      if (!(error instanceof FsError)) {
        await context.stderr(`chmod: ${(error as Error).message}\n`);
        return 1;
      }
      await context.stderr(`chmod: ${path}: ${error.description}\n`);
      status = 1;
    }
  }
  return status;
};

/** `ln -s TARGET LINK` (hard links aren't supported: `Operation not permitted`). */
const ln: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  const {flags, operands} = parseFlags(context.argv.slice(1));
  if (operands.length !== 2) {
    await context.stderr('ln: Needs 2 arguments\n');
    return 1;
  }
  const [target, link] = operands as [string, string];
  const path = destinationOf(fs, target, link, cred);
  try {
    if (!flags.has('s')) throw new FsError('EPERM', 'link', path);
    if (flags.has('f') && fs.lstat(path, {cred})) fs.remove(path, {cred});
    fs.symlink(target, path, {cred});
  } catch (error) {
    await context.stderr(`ln: cannot create symbolic link from '${target}' to '${path}': ${describe(error)}\n`);
    return 1;
  }
  return 0;
};

/** `readlink [-f] PATH`. */
const readlink: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  const {flags, operands} = parseFlags(context.argv.slice(1));
  let status = 0;
  for (const path of operands) {
    try {
      await context.stdout(`${flags.has('f') || flags.has('e') ? fs.realpath(path, {cred}) : fs.readlink(path, {cred})}\n`);
    } catch {
      status = 1;
    }
  }
  return status;
};

/** `realpath PATH…`. */
const realpath: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  let status = 0;
  for (const path of context.argv.slice(1)) {
    try {
      await context.stdout(`${fs.realpath(path, {cred})}\n`);
    } catch (error) {
      await context.stderr(`realpath: ${path}: ${describe(error)}\n`);
      status = 1;
    }
  }
  return status;
};

/** Reads all of standard input. */
async function readAll(context: CommandContext): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for (let chunk; (chunk = await context.readStdin());) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** `md5sum`/`sha1sum`/`sha256sum [FILE…]`: `HASH  NAME` lines (`-` for standard input). */
function hashCommand(name: string, algorithm: string): CommandHandler {
  return async (context) => {
    const {fs, cred} = setup(context);
    const {operands} = parseFlags(context.argv.slice(1));
    let status = 0;
    for (const path of operands.length > 0 ? globAll(fs, operands, cred) : ['-']) {
      try {
        const data = path === '-' ? await readAll(context) : fs.readFile(path, {cred});
        await context.stdout(`${createHash(algorithm).update(data).digest('hex')}  ${path}\n`);
      } catch (error) {
        await context.stderr(`${name}: ${path}: ${describe(error)}\n`);
        status = 1;
      }
    }
    return status;
  };
}

/** `wc [-lwc] [FILE…]`. */
const wc: CommandHandler = async (context) => {
  const {fs, cred} = setup(context);
  const {flags, operands} = parseFlags(context.argv.slice(1));
  const all = !flags.has('l') && !flags.has('w') && !flags.has('c');
  let status = 0;
  for (const path of operands.length > 0 ? operands : ['-']) {
    let data: Uint8Array;
    try {
      data = path === '-' ? await readAll(context) : fs.readFile(path, {cred});
    } catch (error) {
      await context.stderr(`wc: ${path}: ${describe(error)}\n`);
      status = 1;
      continue;
    }
    const text = new TextDecoder().decode(data);
    const counts: number[] = [];
    if (all || flags.has('l')) counts.push(data.filter((byte) => byte === 10).length);
    if (all || flags.has('w')) counts.push(text.split(/\s+/).filter(Boolean).length);
    if (all || flags.has('c')) counts.push(data.length);
    const numbers = counts.map((count) => (counts.length > 1 ? String(count).padStart(7) : String(count))).join(' ');
    await context.stdout(path === '-' ? `${numbers}\n` : `${numbers} ${path}\n`);
  }
  return status;
};

/** `head`/`tail [-n N] [FILE]`: the first or last N lines (default 10). */
function linesCommand(name: 'head' | 'tail'): CommandHandler {
  return async (context) => {
    const {fs, cred} = setup(context);
    const args = context.argv.slice(1).map((arg) => (/^-\d+$/.test(arg) ? `-n${arg.slice(1)}` : arg));
    const {values, operands} = parseFlags(args, 'nc');
    const count = Number(values.get('n') ?? 10);
    let data: Uint8Array;
    const path = operands[0] ?? '-';
    try {
      data = path === '-' ? await readAll(context) : fs.readFile(path, {cred});
    } catch (error) {
      await context.stderr(`${name}: ${path}: ${describe(error)}\n`);
      return 1;
    }
    const text = new TextDecoder().decode(data);
    const lines = text.split(/(?<=\n)/);
    await context.stdout((name === 'head' ? lines.slice(0, count) : lines.slice(Math.max(0, lines.length - count))).join(''));
    return 0;
  };
}

/** File commands by name. */
export const fileCommands: Record<string, CommandHandler> = {
  ls,
  cat,
  mkdir,
  rm,
  rmdir,
  touch,
  stat,
  mv,
  cp,
  chmod,
  ln,
  readlink,
  realpath,
  md5sum: hashCommand('md5sum', 'md5'),
  sha1sum: hashCommand('sha1sum', 'sha1'),
  sha256sum: hashCommand('sha256sum', 'sha256'),
  wc,
  head: linesCommand('head'),
  tail: linesCommand('tail'),
};
