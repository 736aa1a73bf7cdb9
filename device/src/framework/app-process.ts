/**
 * `app_process` (`/system/bin/app_process64`), Android's launcher for Java programs:
 * `app_process [-cp CLASSPATH] [java-options] PARENT-DIR [--nice-name=…] CLASS [args…]`, the class
 * path from `-cp`/`-classpath` or `$CLASSPATH`. It runs the programs the device knows by main
 * class: the Scrcpy server (`scrcpy/app-process.ts`), and `bu` and `monkey`, whose
 * `/system/bin` scripts start them with their jar on the class path.
 *
 * Facts: `frameworks/base/cmds/app_process/app_main.cpp` (with no class it prints
 * `Error: no class name or --zygote supplied.` and the usage, then aborts); a class that can't be
 * loaded (its class-path file missing or unreadable) makes ART abort the process (SIGABRT, which
 * the shell reports as `Aborted`, status 134), as Genymobile/scrcpy issues #268 and #953 show for
 * a missing server file.
 */
import {bu} from './backup.ts';
import {monkey} from './monkey.ts';
import {findClassPathFile, parseAppProcessArguments, scrcpyJavaPrograms, SIGABRT} from '../scrcpy/app-process.ts';
import type {CommandContext, CommandHandler, CommandResult} from '../types.ts';

/** Android's Java programs by main class: each gets `argv` as its script would give it to a `main` (its name, then the arguments). */
const ANDROID_PROGRAMS: Record<string, {name: string; run: CommandHandler}> = {
  'com.android.commands.bu.Backup': {name: 'bu', run: bu},
  'com.android.commands.monkey.Monkey': {name: 'monkey', run: monkey},
};

/**
 * `app_process [-cp CLASSPATH] … PARENT-DIR CLASS [args…]`: runs the Java program of `CLASS` (see
 * the file's comment), or aborts (SIGABRT) as ART does without a class or a loadable class path.
 */
export const appProcess: CommandHandler = async (context): Promise<CommandResult> => {
  const {classPath = context.env.CLASSPATH ?? '', className, args} = parseAppProcessArguments(context.argv);
  if (className === undefined) {
    await context.stderr(
      'Error: no class name or --zygote supplied.\nUsage: app_process [java-options] cmd-dir start-class-name [options]\n',
    );
    return {signal: SIGABRT};
  }
  const file = findClassPathFile(context, classPath);
  if (file === undefined) return {signal: SIGABRT};
  const scrcpy = scrcpyJavaPrograms[className];
  if (scrcpy) return scrcpy(context, file, args);
  const android = ANDROID_PROGRAMS[className];
  if (!android) return {signal: SIGABRT};
  const programContext: CommandContext = {...context, argv: [android.name, ...args]};
  return android.run(programContext);
};
