/**
 * `logcat`, over the log buffers of `androidState(device).log`: text formats, `-B` binary
 * records (the library's `LoggerEntry`), `-d`, `-t`/`-T`, `-m`, `-c`, `-g`, `-b`, `-s` and filter
 * expressions, `--pid`, `--uid`, `-e`, `-f`, `-D`. Without `-d` or `-t` it follows the log until
 * the host hangs up.
 *
 * Facts (android-14.0.0_r50, LineageOS lineage-21.0):
 * - `system/logging/logcat/logcat.cpp` `Logcat::Run`: `getopt_long` with
 *   `":cdDhLt:T:gG:sQf:r:n:v:b:BSpCP:m:e:"`; errors through bionic's `error()`, which prints
 *   `logcat: MESSAGE` on standard error and exits with status 1: `Unknown -b buffer 'B'.` (names
 *   compare case-sensitively: `android_name_to_log_id`), `Invalid -v 'F'.`, `Option '-X' needs an
 *   argument.`, `Unknown option '…'.` (naming the argument after the bad option, `(null)` at the
 *   end), `-m 'N' isn't an integer greater than zero.`, `-T 'T' not in time format.`, `Cannot use
 *   -m (--max-count) and -t together.`, `Invalid filter expression 'E'.`, `-f is incompatible with
 *   -g/-G, -S, and -p/-P.`, `pid 'P' out of range.`, `couldn't open output file 'F'` with the
 *   errno text; the default buffers are main, system, crash and kernel; `-g` prints `NAME: ring
 *   buffer is N UNIT (N UNIT consumed, N UNIT readable), max entry is 5120 B, max payload is 4068
 *   B` per buffer (`format_of_size`: B, KiB, MiB, GiB; `LOGGER_ENTRY_MAX_LEN`,
 *   `LOGGER_ENTRY_MAX_PAYLOAD`); `PrintDividers`: `--------- beginning of NAME` (and `switch to`
 *   with `-D`).
 * - `system/logging/liblog/logprint.cpp` `android_log_formatLogLine`: the formats brief, process,
 *   tag, thread, raw, time, threadtime, long; the `epoch` (`%19lld`), `usec`, `nsec`, `year`,
 *   `zone`, `uid` (`%5d:`, or the user name when it has at most 5 characters) modifiers.
 * - `bionic/libc/bionic/error.cpp` `error()`: the program name (`getprogname()`) and `: ` before
 *   the message.
 */
import {LoggerEntry} from '@tango-v2/android-bin';

import {adbdCredentials, FsError, idName} from '../fs.ts';
import type {CommandHandler} from '../types.ts';
import {eprintln, println} from './shell-command.ts';
import {androidState, type LogEntry} from './state.ts';

/** `android_name_to_log_id`'s names. */
const BUFFERS: Readonly<Record<string, number>> = {main: 0, radio: 1, events: 2, system: 3, crash: 4, stats: 5, security: 6, kernel: 7};
const BUFFER_NAMES: Readonly<Record<number, string>> = Object.fromEntries(Object.entries(BUFFERS).map(([name, id]) => [id, name]));
const PRIORITY_CHARS = ['?', '?', 'V', 'D', 'I', 'W', 'E', 'F', 'S'];
const FORMATS = new Set(['brief', 'process', 'tag', 'thread', 'raw', 'time', 'threadtime', 'long']);
const MODIFIERS = new Set([
  'color',
  'colour',
  'descriptive',
  'printable',
  'UTC',
  'monotonic',
  'uid',
  'year',
  'zone',
  'epoch',
  'usec',
  'nsec',
]);
/** `LOGGER_ENTRY_MAX_LEN`, `LOGGER_ENTRY_MAX_PAYLOAD`, and each buffer's size (logd's default, 256 KiB). */
const MAX_ENTRY = 5120;
const MAX_PAYLOAD = 4068;
const BUFFER_SIZE = 256 * 1024;

/** Ends logcat the way bionic's `error(EXIT_FAILURE, …)` does. */
class LogcatError extends Error {}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** `android_log_formatLogLine`, in the device's time zone (UTC). */
function formatEntry(entry: LogEntry, format: string, modifiers: ReadonlySet<string>): string {
  const p = PRIORITY_CHARS[entry.priority] ?? '?';
  const date = new Date(entry.seconds * 1000);
  let time: string;
  if (modifiers.has('epoch')) time = String(entry.seconds).padStart(19);
  else {
    time = `${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
    if (modifiers.has('year')) time = `${date.getUTCFullYear()}-${time}`;
  }
  if (modifiers.has('nsec')) time += `.${String(entry.nanoseconds).padStart(9, '0')}`;
  else if (modifiers.has('usec')) time += `.${String(Math.floor(entry.nanoseconds / 1000)).padStart(6, '0')}`;
  else time += `.${String(Math.floor(entry.nanoseconds / 1_000_000)).padStart(3, '0')}`;
  if (modifiers.has('zone') && !modifiers.has('epoch')) time += ' +0000';
  let uid = '';
  if (modifiers.has('uid')) {
    const name = idName(entry.uid);
    uid = name.length <= 5 && !/^\d+$/.test(name) ? `${name.padStart(5)}:` : `${String(entry.uid).padStart(5)}:`;
  }
  const pid = String(entry.pid).padStart(5);
  const tid = String(entry.tid).padStart(5);
  const tag = entry.tag.padEnd(8);
  let prefix: string;
  let suffix = '';
  switch (format) {
    case 'brief':
      prefix = `${p}/${tag}(${uid}${pid}): `;
      break;
    case 'process':
      prefix = `${p}(${uid}${pid}) `;
      suffix = `  (${entry.tag})`;
      break;
    case 'tag':
      prefix = `${p}/${tag}: `;
      break;
    case 'thread':
      prefix = `${p}(${uid}${pid}:${tid}) `;
      break;
    case 'raw':
      prefix = '';
      break;
    case 'time':
      prefix = `${time} ${p}/${tag}(${uid}${pid}): `;
      break;
    case 'long':
      return `[ ${time} ${uid}${pid}:${tid} ${p}/${tag} ]\n${entry.message}\n\n`;
    default:
      prefix = `${time} ${uid.replace(':', ' ')}${pid} ${tid} ${p} ${tag}: `;
  }
  return entry.message
    .split('\n')
    .map((line) => `${prefix}${line}${suffix}\n`)
    .join('');
}

/** One `logger_entry` (the library's `LoggerEntry`, header v4 of 28 bytes) and its payload: priority, tag, NUL, message, NUL. */
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
  const record = new Uint8Array(header.length + payload.length);
  record.set(header);
  record.set(payload, header.length);
  return record;
}

/** `format_of_size`: the value and its unit (``, `Ki`, `Mi`, `Gi`). */
function formatOfSize(value: number): [number, string] {
  const units = ['', 'Ki', 'Mi', 'Gi'];
  let unit = 0;
  while (unit < units.length && value >= 1024) {
    value = Math.floor(value / 1024);
    unit += 1;
  }
  return [value, units[Math.min(unit, units.length - 1)]!];
}

/** `parseTime`: `MM-DD hh:mm:ss.mmm`, `YYYY-MM-DD hh:mm:ss.mmm` or `SSSSS.mmm` (epoch seconds), in ms. */
function parseTailTime(text: string, year: number): number | undefined {
  let match = /^(\d+)\.(\d+)$/.exec(text);
  if (match) return Number(match[1]) * 1000 + Number(match[2]!.padEnd(3, '0').slice(0, 3));
  match = /^(?:(\d{4})-)?(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d+)$/.exec(text);
  if (!match) return undefined;
  return Date.UTC(
    Number(match[1] ?? year),
    Number(match[2]) - 1,
    Number(match[3]),
    Number(match[4]),
    Number(match[5]),
    Number(match[6]),
    Number(match[7]!.padEnd(3, '0').slice(0, 3)),
  );
}

/** What the options asked for. */
interface Options {
  dump: boolean;
  clear: boolean;
  sizes: boolean;
  setSize: boolean;
  binary: boolean;
  dividers: boolean;
  mask: number;
  format: string;
  modifiers: Set<string>;
  tailCount?: number;
  tailTime?: number;
  gotT: boolean;
  maxCount: number;
  pid?: number;
  uids?: Set<number>;
  file?: string;
  regex?: RegExp;
  filters: [string, number][];
}

/** Options with an argument (`t:` `T:` `G:` `f:` `r:` `n:` `v:` `b:` `P:` `m:` `e:` and the long ones). */
const SHORT_WITH_ARGUMENT = new Set(['t', 'T', 'G', 'f', 'r', 'n', 'v', 'b', 'P', 'm', 'e']);
const SHORT_FLAGS = new Set(['c', 'd', 'D', 'h', 'L', 'g', 's', 'Q', 'B', 'S', 'p', 'C']);
const LONG_OPTIONS: Readonly<Record<string, {short?: string; argument: 'none' | 'required' | 'optional'}>> = {
  binary: {short: 'B', argument: 'none'},
  buffer: {short: 'b', argument: 'required'},
  'buffer-size': {short: 'g', argument: 'optional'},
  clear: {short: 'c', argument: 'none'},
  debug: {argument: 'none'},
  dividers: {short: 'D', argument: 'none'},
  file: {short: 'f', argument: 'required'},
  format: {short: 'v', argument: 'required'},
  color: {short: 'C', argument: 'none'},
  grep: {short: 'e', argument: 'required'},
  head: {short: 'm', argument: 'required'},
  help: {short: 'h', argument: 'none'},
  id: {argument: 'required'},
  last: {short: 'L', argument: 'none'},
  'max-count': {short: 'm', argument: 'required'},
  pid: {argument: 'required'},
  print: {argument: 'none'},
  prune: {short: 'p', argument: 'optional'},
  proto: {argument: 'none'},
  regex: {short: 'e', argument: 'required'},
  'rotate-count': {short: 'n', argument: 'required'},
  'rotate-kbytes': {short: 'r', argument: 'required'},
  statistics: {short: 'S', argument: 'none'},
  tail: {short: 't', argument: 'required'},
  uid: {argument: 'required'},
  wrap: {argument: 'optional'},
};

/** Parses logcat's arguments as `getopt_long` and `Logcat::Run` do; throws `LogcatError` with `error()`'s message. */
function parseOptions(argv: readonly string[], year: number): Options {
  const o: Options = {
    dump: false,
    clear: false,
    sizes: false,
    setSize: false,
    binary: false,
    dividers: false,
    mask: 0,
    format: '',
    modifiers: new Set(),
    gotT: false,
    maxCount: 0,
    filters: [],
  };
  const positional: string[] = [];
  const setFormat = (value: string) => {
    for (const word of value.split(/[,:; \t\n\r\f]+/).filter(Boolean)) {
      if (FORMATS.has(word)) o.format = word;
      else if (MODIFIERS.has(word)) o.modifiers.add(word);
      else throw new LogcatError(`Invalid -v '${word}'.`);
    }
  };
  const apply = (option: string, value: string | undefined) => {
    switch (option) {
      case 's':
        o.filters.push(['*', 8]);
        break;
      case 'c':
        o.clear = true;
        break;
      case 'd':
      case 'L':
        o.dump = true;
        break;
      case 't':
        o.gotT = true;
        o.dump = true;
      // falls through
      case 'T':
        if (/^\d+$/.test(value!)) o.tailCount = Math.max(1, Number(value));
        else {
          o.tailTime = parseTailTime(value!, year);
          if (o.tailTime === undefined) throw new LogcatError(`-${option} '${value}' not in time format.`);
        }
        break;
      case 'D':
        o.dividers = true;
        break;
      case 'e':
        o.regex = new RegExp(value!);
        break;
      case 'm':
        if (!/^\d+$/.test(value!) || Number(value) < 1) throw new LogcatError(`-${option} '${value}' isn't an integer greater than zero.`);
        o.maxCount = Number(value);
        break;
      case 'g':
        if (value === undefined) o.sizes = true;
        else o.setSize = true;
        break;
      case 'G':
        if (!/^\d+[KMkm]?$/.test(value!)) throw new LogcatError('-G must be specified as <num><multiplier>.');
        o.setSize = true;
        break;
      case 'C':
        o.modifiers.add('color');
        break;
      case 'b':
        for (const name of value!.split(/[,:; \t\n\r\f]+/).filter(Boolean)) {
          if (name === 'default') o.mask |= (1 << 0) | (1 << 3) | (1 << 4);
          else if (name === 'all') o.mask = 0xff;
          else if (BUFFERS[name] === undefined) throw new LogcatError(`Unknown -b buffer '${name}'.`);
          else o.mask |= 1 << BUFFERS[name];
        }
        break;
      case 'B':
        o.binary = true;
        break;
      case 'f':
        o.file = value;
        break;
      case 'r':
        if (!/^\d+$/.test(value!) || Number(value) < 1) throw new LogcatError(`Invalid -r '${value}'.`);
        break;
      case 'n':
        if (!/^\d+$/.test(value!) || Number(value) < 1) throw new LogcatError(`Invalid -n '${value}'.`);
        break;
      case 'v':
        setFormat(value!);
        break;
      case 'pid':
        if (o.pid !== undefined) throw new LogcatError('Only one --pid argument can be provided.');
        if (!/^\d+$/.test(value!) || Number(value) < 1) throw new LogcatError(`pid '${value}' out of range.`);
        o.pid = Number(value);
        break;
      case 'uid':
        o.uids ??= new Set();
        for (const text of value!.split(/[,:; \t\n\r\f]+/).filter(Boolean)) {
          if (!/^\d+$/.test(text)) throw new LogcatError(`Unable to parse UID '${text}'`);
          o.uids.add(Number(text));
        }
        break;
      default:
        // -h, -S, -p, -P, -Q, --debug, --print, --proto, --wrap, --id: accepted, not simulated.
        break;
    }
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      const spec = LONG_OPTIONS[name];
      if (!spec) throw new LogcatError(`Unknown option '${argv[i + 1] ?? '(null)'}'.`);
      let value = inline;
      if (spec.argument === 'required' && value === undefined) {
        value = argv[++i];
        if (value === undefined) throw new LogcatError(`Option '${arg}' needs an argument.`);
      }
      apply(spec.short ?? name, value);
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    for (let j = 1; j < arg.length; j += 1) {
      const flag = arg[j]!;
      if (SHORT_WITH_ARGUMENT.has(flag)) {
        let value = arg.slice(j + 1);
        if (!value) {
          value = argv[++i] ?? '';
          if (i >= argv.length) throw new LogcatError(`Option '${arg}' needs an argument.`);
        }
        apply(flag, value);
        break;
      }
      if (!SHORT_FLAGS.has(flag)) throw new LogcatError(`Unknown option '${j === arg.length - 1 ? (argv[i + 1] ?? '(null)') : arg}'.`);
      apply(flag, undefined);
    }
  }
  if (o.maxCount && o.gotT) throw new LogcatError('Cannot use -m (--max-count) and -t together.');
  if (o.mask === 0) o.mask = (1 << 0) | (1 << 3) | (1 << 4) | (1 << 7);
  if (!o.format) o.format = 'threadtime';
  for (const expression of positional) {
    const match = /^([^:]+)(?::([VDIWEFSvdiwefs*]))?$/.exec(expression);
    if (!match) throw new LogcatError(`Invalid filter expression '${expression}'.`);
    const level = (match[2] ?? 'V').toUpperCase();
    o.filters.push([match[1]!, level === '*' ? 2 : PRIORITY_CHARS.indexOf(level)]);
  }
  if (o.file !== undefined && (o.sizes || o.setSize)) throw new LogcatError('-f is incompatible with -g/-G, -S, and -p/-P.');
  return o;
}

/** `logcat`: see the file's comment. */
export const logcat: CommandHandler = async (context) => {
  const device = context.device;
  const state = androidState(device);
  let o: Options;
  try {
    o = parseOptions(context.argv.slice(1), new Date(device.now()).getUTCFullYear());
  } catch (error) {
    if (!(error instanceof LogcatError)) throw error;
    await eprintln(context, `logcat: ${error.message}`);
    return 1;
  }
  const selected = (buffer: number) => (o.mask & (1 << buffer)) !== 0;

  if (o.sizes || o.clear || o.setSize) {
    for (let id = 0; id < 8; id += 1) {
      if (!selected(id)) continue;
      if (o.clear) state.log = state.log.filter((entry) => entry.buffer !== id);
      if (o.sizes) {
        const consumed = state.log
          .filter((entry) => entry.buffer === id)
          .reduce((sum, entry) => sum + 28 + entry.tag.length + entry.message.length + 3, 0);
        const [size, sizeUnit] = formatOfSize(BUFFER_SIZE);
        const [used, usedUnit] = formatOfSize(consumed);
        await println(
          context,
          `${BUFFER_NAMES[id]}: ring buffer is ${size} ${sizeUnit}B (${used} ${usedUnit}B consumed, ${used} ${usedUnit}B readable), max entry is ${MAX_ENTRY} B, max payload is ${MAX_PAYLOAD} B`,
        );
      }
    }
    return 0;
  }

  const accept = (entry: LogEntry) => {
    if (!selected(entry.buffer)) return false;
    if (o.pid !== undefined && entry.pid !== o.pid) return false;
    if (o.uids && !o.uids.has(entry.uid)) return false;
    if (o.regex && !o.regex.test(entry.message)) return false;
    let minimum = 2;
    for (const [tag, priority] of o.filters) if (tag === '*') minimum = priority;
    for (const [tag, priority] of o.filters) if (tag === entry.tag) minimum = priority;
    return entry.priority >= minimum;
  };

  const printedStart = new Set<number>();
  let lastPrinted: number | undefined;
  const fileChunks: Uint8Array[] = [];
  let count = 0;
  const write = async (data: Uint8Array | string) => {
    if (o.file !== undefined) fileChunks.push(typeof data === 'string' ? new TextEncoder().encode(data) : data);
    else await context.stdout(data);
  };
  const emit = async (entries: readonly LogEntry[]) => {
    for (const entry of entries) {
      if (o.maxCount && count >= o.maxCount) return;
      count += 1;
      if (o.binary) {
        await write(binaryEntry(entry));
        continue;
      }
      if (entry.buffer !== lastPrinted && (!printedStart.has(entry.buffer) || o.dividers)) {
        const name = BUFFER_NAMES[entry.buffer];
        await write(printedStart.has(entry.buffer) ? `--------- switch to ${name}\n` : `--------- beginning of ${name}\n`);
      }
      lastPrinted = entry.buffer;
      printedStart.add(entry.buffer);
      await write(formatEntry(entry, o.format, o.modifiers));
    }
  };

  let entries = state.log.filter(accept).sort((a, b) => a.seconds - b.seconds || a.nanoseconds - b.nanoseconds);
  if (o.tailTime !== undefined) entries = entries.filter((entry) => entry.seconds * 1000 + entry.nanoseconds / 1e6 >= o.tailTime!);
  if (o.tailCount !== undefined) entries = entries.slice(Math.max(0, entries.length - o.tailCount));
  await emit(entries);

  if (!o.dump && !(o.maxCount && count >= o.maxCount)) {
    // Follow: print what arrives until the host hangs up.
    let seen = state.log.length;
    await new Promise<void>((resolve) => {
      const wake = () => {
        const fresh = state.log.slice(seen).filter(accept);
        seen = state.log.length;
        void emit(fresh).then(() => {
          if (o.maxCount && count >= o.maxCount) finish();
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
  if (o.file !== undefined) {
    const data = new Uint8Array(Buffer.concat(fileChunks));
    const path = o.file.startsWith('/') ? o.file : `${context.cwd.replace(/\/$/, '')}/${o.file}`;
    try {
      device.fs.writeFile(path, data, {cred: adbdCredentials(device.properties), mode: 0o644});
    } catch (error) {
      if (!(error instanceof FsError)) throw error;
      await eprintln(context, `logcat: couldn't open output file '${o.file}': ${error.description}`);
      return 1;
    }
  }
  return 0;
};
