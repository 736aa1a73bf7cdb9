/**
 * `app_process`, Android's launcher for Java programs, as far as the Scrcpy server needs it:
 * `app_process [-cp CLASSPATH] [java-options] PARENT-DIR [--nice-name=…] CLASS [args…]`, with the
 * class path from `-cp`/`-classpath` or the `CLASSPATH` environment variable. The class
 * `com.genymobile.scrcpy.Server` found on the class path runs the simulated server (`server.ts`).
 *
 * Facts: argument handling from AOSP `frameworks/base/cmds/app_process/app_main.cpp` (VM options
 * up to the first argument not starting with `-`, then the unused parent directory, then
 * `--zygote`/`--application`/`--nice-name=`/`--start-system-server`, then the class name; with no
 * class it prints `Error: no class name or --zygote supplied.` and the usage, then aborts). When
 * the class can't be loaded (the class-path file is missing), ART aborts the process
 * (`JNI FindClass` leaves a pending `ClassNotFoundException`, "No pending exception expected"),
 * which the device shell reports as `Aborted` with status 134 (128 + SIGABRT); that output is the
 * one quoted in Genymobile/scrcpy issues #268 and #953 for a missing server file.
 */
import {ROOT, SHELL} from '../fs.ts';
import type {CommandContext, CommandResult} from '../types.ts';
import {ScrcpyServerProcess} from './server.ts';

/** The server's main class (`com.genymobile.scrcpy.Server`). */
export const SCRCPY_SERVER_CLASS = 'com.genymobile.scrcpy.Server';

/** SIGABRT: ART aborts a process whose main class can't be loaded. */
export const SIGABRT = 6;

/** `app_process` arguments split as `app_main.cpp` does. */
export interface AppProcessArguments {
  /** The class path from `-cp`/`-classpath`, if given. */
  classPath: string | undefined;
  /** The class to run, or `undefined` when none was given. */
  className: string | undefined;
  /** The arguments for the class's `main`. */
  args: string[];
}

/** Splits `argv` (`argv[0]` being `app_process`) into VM options, the parent directory, runtime flags, the class and its arguments. */
export function parseAppProcessArguments(argv: readonly string[]): AppProcessArguments {
  let classPath: string | undefined;
  let i = 1;
  // VM options: everything up to '--' or the first argument not starting with '-'.
  while (i < argv.length && argv[i]!.startsWith('-')) {
    const option = argv[i++]!;
    if (option === '--') break;
    if ((option === '-cp' || option === '-classpath') && i < argv.length) classPath = argv[i++];
  }
  i++; // The unused parent directory.
  let className: string | undefined;
  while (i < argv.length) {
    const arg = argv[i++]!;
    if (arg === '--zygote' || arg === '--start-system-server' || arg === '--application' || arg.startsWith('--nice-name=')) continue;
    className = arg;
    break;
  }
  return {classPath, className, args: argv.slice(i)};
}

/** The first entry of `classPath` that is a file the program's user can read, or `undefined`. */
export function findClassPathFile(context: CommandContext, classPath: string): string | undefined {
  const cred = context.uid === 0 ? ROOT : SHELL;
  for (const entry of classPath.split(':')) {
    if (!entry) continue;
    const path = entry.startsWith('/') ? entry : `${context.cwd.replace(/\/$/, '')}/${entry}`;
    const stat = context.device.fs.stat(path, {cred});
    if (stat?.type !== 'file') continue;
    try {
      context.device.fs.readFile(path, {cred});
      return path;
    } catch {
      // Not readable by the program's user: the class loader can't open it.
    }
  }
  return undefined;
}

/** The Java programs `app_process` can run, by main class (the Scrcpy server's here; `framework/app-process.ts` adds Android's). */
export const scrcpyJavaPrograms: Record<string, (context: CommandContext, file: string, args: string[]) => Promise<CommandResult>> = {
  [SCRCPY_SERVER_CLASS]: (context, file, args) => new ScrcpyServerProcess(context, file, args).run(),
};
