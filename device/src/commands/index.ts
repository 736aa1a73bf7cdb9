/**
 * The framework programs the Node.js side plays, by the name the framework client runs under
 * (`framework/server.ts` looks `argv[0]`'s last component up here): what `cmd`, `dumpsys`,
 * `getprop`, `logcat`, `app_process`… answer.
 */
import type {CommandHandler} from '../types.ts';
import {androidCommands} from './android.ts';
import {appProcess} from '../framework/app-process.ts';

/** A fresh table of the device's framework programs, by name. */
export function defaultCommands(): Map<string, CommandHandler> {
  return new Map<string, CommandHandler>([...Object.entries(androidCommands), ['app_process', appProcess]]);
}
