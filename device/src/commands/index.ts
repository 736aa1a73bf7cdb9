/**
 * The command table behind the shell services: what `getprop`, `pm`, `app_process`… answer.
 * A name not in the table answers `/system/bin/sh: NAME: inaccessible or not found` with exit
 * code 127, as Android's mksh does.
 */
import type {CommandHandler} from '../types.ts';
import {shellBuiltins} from './builtins.ts';
import {fileCommands} from './files.ts';
import {androidCommands} from './android.ts';
import {bu} from './backup.ts';
import {scrcpyCommands} from '../scrcpy/app-process.ts';
import {top} from './top.ts';

/** A fresh table of every command the device knows, by name. */
export function defaultCommands(): Map<string, CommandHandler> {
  return new Map<string, CommandHandler>([
    ...Object.entries(shellBuiltins),
    ...Object.entries(fileCommands),
    ...Object.entries(androidCommands),
    ...Object.entries(scrcpyCommands),
    ['top', top],
    ['bu', bu],
  ]);
}
