/**
 * The framework programs the Node.js side plays, by the name the framework client runs under
 * (`framework/server.ts` looks `argv[0]`'s last component up here): what `cmd`, `dumpsys`,
 * `getprop`, `logcat`, `app_process`… answer. Each lives in its module under `framework/`.
 */
import type {CommandHandler} from '../types.ts';
import {appProcess} from './app-process.ts';
import {bugreportz} from './bugreportz.ts';
import {cmd} from './cmd.ts';
import {dumpsys} from './dumpsys.ts';
import {logcat} from './logcat.ts';
import {log} from './log.ts';
import {getprop, setprop} from './properties.ts';
import {reboot} from './reboot.ts';
import {screencap} from './screencap.ts';

/** A fresh table of the device's framework programs, by name. */
export function defaultCommands(): Map<string, CommandHandler> {
  return new Map<string, CommandHandler>([
    ['app_process', appProcess],
    ['bugreportz', bugreportz],
    ['cmd', cmd],
    ['dumpsys', dumpsys],
    ['getprop', getprop],
    ['log', log],
    ['logcat', logcat],
    ['reboot', reboot],
    ['screencap', screencap],
    ['setprop', setprop],
  ]);
}
