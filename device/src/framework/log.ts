/**
 * `log [-p PRI] [-t TAG] [MESSAGE...]` (`external/toybox/toys/android/log.c`, a link in Android 14's
 * `/system/bin`): writes one entry to the main log buffer, with the priority `-p` names
 * (`d e f i s v w`, default INFO) and the tag `-t` gives (default `log`); the message is the
 * arguments joined by spaces, cut at 1023 bytes (`log cut at 1024 bytes` on stderr), or standard
 * input when there are none. A bad priority: `log: bad -p 'X'`, exit 1.
 */
import type {CommandHandler} from '../types.ts';
import {addLog} from './state.ts';

/** `-p` letters and the `android_LogPriority` each gives (`log.c`: "defisvw"). */
const PRIORITIES: Readonly<Record<string, number>> = {d: 3, e: 6, f: 7, i: 4, s: 8, v: 2, w: 5};

/** toybox's `toybuf` holds the message: 1024 bytes, the last for the terminating NUL. */
const LIMIT = 1023;

export const log: CommandHandler = async (context) => {
  let priority = 4;
  let tag = 'log';
  const args = context.argv.slice(1);
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (words.length === 0 && (arg === '-p' || arg === '-t') && i + 1 < args.length) {
      const value = args[++i]!;
      if (arg === '-t') tag = value;
      else {
        const found = value.length === 1 ? PRIORITIES[value.toLowerCase()] : undefined;
        if (found === undefined) {
          await context.stderr(`log: bad -p '${value}'\n`);
          return 1;
        }
        priority = found;
      }
    } else words.push(arg);
  }
  let message: string;
  if (words.length > 0) {
    message = words.join(' ');
    if (Buffer.byteLength(message) > LIMIT) {
      message = Buffer.from(message).subarray(0, LIMIT).toString();
      await context.stderr('log: log cut at 1024 bytes\n');
    }
  } else {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (let chunk = await context.readStdin(); chunk && size < LIMIT; chunk = await context.readStdin()) {
      chunks.push(chunk);
      size += chunk.length;
    }
    message = Buffer.concat(chunks).subarray(0, LIMIT).toString();
  }
  addLog(context.device, {buffer: 0, priority, tag, message, pid: context.pid, tid: context.pid, uid: context.uid});
  return 0;
};
