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
import {SHELL} from '../fs.ts';
import type {CommandContext, CommandHandler} from '../types.ts';
import {ScrcpyServerProcess} from './server.ts';

/** The server's main class (`com.genymobile.scrcpy.Server`). */
export const SCRCPY_SERVER_CLASS = 'com.genymobile.scrcpy.Server';

/** Exit status of a process killed by SIGABRT, as the shell reports it (128 + 6). */
export const ABORTED_STATUS = 134;

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

/** The first entry of `classPath` that is a file the shell user can read, or `undefined`. */
function findClassPathFile(context: CommandContext, classPath: string): string | undefined {
  for (const entry of classPath.split(':')) {
    if (!entry) continue;
    const stat = context.device.fs.stat(entry, {cred: SHELL});
    if (stat?.type !== 'file') continue;
    try {
      context.device.fs.readFile(entry, {cred: SHELL});
      return entry;
    } catch {
      // Not readable by the shell user: the class loader can't open it.
    }
  }
  return undefined;
}

/**
 * The `app_process` command. Resolves with the process's exit status: the server's (0, or 1 for
 * an error from server 2.2), `ABORTED_STATUS` when the class can't be found or no class is given.
 */
export const appProcess: CommandHandler = async (context) => {
  const {classPath = context.env.CLASSPATH ?? '', className, args} = parseAppProcessArguments(context.argv);
  if (className === undefined) {
    await context.stderr(
      'Error: no class name or --zygote supplied.\nUsage: app_process [java-options] cmd-dir start-class-name [options]\n',
    );
    await context.stderr('Aborted \n');
    return ABORTED_STATUS;
  }
  const file = findClassPathFile(context, classPath);
  if (className !== SCRCPY_SERVER_CLASS || file === undefined) {
    await context.stderr('Aborted \n');
    return ABORTED_STATUS;
  }
  return await new ScrcpyServerProcess(context, file, args).run();
};

/** The commands this module adds to the device's command table. */
export const scrcpyCommands: Record<string, CommandHandler> = {app_process: appProcess};
