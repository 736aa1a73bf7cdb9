/**
 * The Java side of `monkey` (`com.android.commands.monkey.Monkey`, which `/system/bin/monkey`
 * starts with `app_process`): it reads its options, finds the launcher activities of the allowed
 * packages, starts one, and counts COUNT events. Only the activity start is simulated; the random
 * touches and keys of a longer run are counted, not injected.
 *
 * Facts: `development/cmds/monkey/src/com/android/commands/monkey/Monkey.java` and
 * `MonkeyNetworkMonitor.java` (android-14.0.0_r50): `main` prints `args: [A, B, …]` and `run`
 * ` arg: "A"` per argument (standard error, `Logger.err`); `nextOption` prints a debug line for a
 * `--` option, `nextOptionData` prints `data="D"`; `processOptions` (`** Error: Unknown option:
 * OPT`, `** Error: Count not specified`, `** Error: Count is not a number: "C"`, `** Error: ` +
 * a `RuntimeException`, each followed by `showUsage`, status -1); the default categories
 * `LAUNCHER` and `MONKEY`; `getMainApps` (`// Warning: no activities found for category C` on
 * standard error, `** No activities found to run, monkey aborted.` on standard output, status -4);
 * `runMonkeyCycles` (`Events injected: N`); `MonkeyNetworkMonitor.dump` (`## Network stats:
 * elapsed time=Nms (Nms mobile, Nms wifi, Nms not connected)`). The activity is started with
 * `MonkeyActivityEvent`'s intent: `ACTION_MAIN`, `CATEGORY_LAUNCHER`, the component.
 *
 * Paths: `development/cmds/monkey/src/com/android/commands/monkey/MonkeyNetworkMonitor.java`.
 */
import type {CommandContext, CommandHandler} from '../types.ts';
import {ACTION_MAIN, CATEGORY_LAUNCHER, startActivity, unflattenComponent} from './intent.ts';
import {eprint, eprintln, println} from './shell-command.ts';
import {androidState} from './state.ts';

/** `Monkey.showUsage()`'s text (printed with `println`, so one more newline follows). */
const USAGE_TEXT = [
  'usage: monkey [-p ALLOWED_PACKAGE [-p ALLOWED_PACKAGE] ...]',
  '              [-c MAIN_CATEGORY [-c MAIN_CATEGORY] ...]',
  '              [--ignore-crashes] [--ignore-timeouts]',
  '              [--ignore-security-exceptions]',
  '              [--monitor-native-crashes] [--ignore-native-crashes]',
  '              [--kill-process-after-error] [--hprof]',
  '              [--match-description TEXT]',
  '              [--pct-touch PERCENT] [--pct-motion PERCENT]',
  '              [--pct-trackball PERCENT] [--pct-syskeys PERCENT]',
  '              [--pct-nav PERCENT] [--pct-majornav PERCENT]',
  '              [--pct-appswitch PERCENT] [--pct-flip PERCENT]',
  '              [--pct-anyevent PERCENT] [--pct-pinchzoom PERCENT]',
  '              [--pct-permission PERCENT]',
  '              [--pkg-blacklist-file PACKAGE_BLACKLIST_FILE]',
  '              [--pkg-whitelist-file PACKAGE_WHITELIST_FILE]',
  '              [--wait-dbg] [--dbg-no-events]',
  '              [--setup scriptfile] [-f scriptfile [-f scriptfile] ...]',
  '              [--port port]',
  '              [-s SEED] [-v [-v] ...]',
  '              [--throttle MILLISEC] [--randomize-throttle]',
  '              [--profile-wait MILLISEC]',
  '              [--device-sleep-time MILLISEC]',
  '              [--randomize-script]',
  '              [--script-log]',
  '              [--bugreport]',
  '              [--periodic-bugreport]',
  '              [--permission-target-system]',
  '              COUNT',
  '',
].join('\n');

/** Options that take a value (`nextOptionData`). */
const DATA_OPTIONS = new Set([
  '-s',
  '-p',
  '-c',
  '--match-description',
  '--pct-touch',
  '--pct-motion',
  '--pct-trackball',
  '--pct-rotation',
  '--pct-syskeys',
  '--pct-nav',
  '--pct-majornav',
  '--pct-appswitch',
  '--pct-flip',
  '--pct-anyevent',
  '--pct-pinchzoom',
  '--pct-permission',
  '--pkg-blacklist-file',
  '--pkg-whitelist-file',
  '--throttle',
  '--port',
  '--setup',
  '-f',
  '--profile-wait',
  '--device-sleep-time',
  '--periodic-bugreport',
]);
/** Options without a value. */
const FLAG_OPTIONS = new Set([
  '-v',
  '--ignore-crashes',
  '--ignore-timeouts',
  '--ignore-security-exceptions',
  '--monitor-native-crashes',
  '--ignore-native-crashes',
  '--kill-process-after-error',
  '--hprof',
  '--randomize-throttle',
  '--wait-dbg',
  '--dbg-no-events',
  '--randomize-script',
  '--script-log',
  '--bugreport',
  '--permission-target-system',
  '--dump-dmabuf',
]);

/** The elapsed time the network monitor reports for a one-activity run (ms). */
const ELAPSED_MS = 23;

/** `Monkey.main(args)`: see the file's comment. `argv[0]` is the program's name. */
export const monkey: CommandHandler = async (context: CommandContext) => {
  const args = context.argv.slice(1);
  await eprintln(context, `args: [${args.join(', ')}]`);
  for (const arg of args) await eprintln(context, ` arg: "${arg}"`);
  const usage = async () => {
    await eprint(context, `${USAGE_TEXT}\n`);
    return 255;
  };
  if (args.length < 1) return usage();
  const packages = new Set<string>();
  const categories: string[] = [];
  let next = 0;
  for (;;) {
    const arg = args[next];
    if (arg === undefined || !arg.startsWith('-')) break;
    next += 1;
    if (arg === '--') break;
    let option = arg;
    let data: string | undefined;
    if (arg.length > 2 && arg[1] !== '-') {
      option = arg.slice(0, 2);
      data = arg.slice(2);
    } else if (arg.startsWith('--')) {
      if (next >= args.length) {
        await eprintln(context, `** Error: java.lang.ArrayIndexOutOfBoundsException: length=${args.length}; index=${next}`);
        return usage();
      }
      await eprintln(context, `arg="${arg}" mCurArgData="null" mNextArg=${next} argwas="${arg}" nextarg="${args[next]}"`);
    }
    if (option === '-h') return usage();
    if (DATA_OPTIONS.has(option)) {
      if (data === undefined) {
        data = args[next];
        if (data !== undefined) {
          await eprintln(context, `data="${data}"`);
          next += 1;
        }
      }
      if (option === '-p' && data !== undefined) packages.add(data);
      if (option === '-c' && data !== undefined) categories.push(data);
    } else if (!FLAG_OPTIONS.has(option)) {
      await eprintln(context, `** Error: Unknown option: ${option}`);
      return usage();
    }
  }
  const countText = args[next];
  if (countText === undefined) {
    await eprintln(context, '** Error: Count not specified');
    return usage();
  }
  if (!/^[+-]?\d+$/.test(countText)) {
    await eprintln(context, `** Error: Count is not a number: "${countText}"`);
    return usage();
  }
  const count = Number(countText);
  if (categories.length === 0) categories.push(CATEGORY_LAUNCHER, 'android.intent.category.MONKEY');
  // `getMainApps`: the activities of each category, of the allowed packages.
  const state = androidState(context.device);
  const mainApps: string[] = [];
  for (const category of categories) {
    const found =
      category === CATEGORY_LAUNCHER
        ? [...state.packages.values()]
            .filter((record) => record.installed && record.enabled && record.launcher)
            .map((record) => record.launcher!)
        : [];
    if (found.length === 0) {
      await eprintln(context, `// Warning: no activities found for category ${category}`);
      continue;
    }
    for (const activity of found) if (packages.size === 0 || packages.has(activity.split('/')[0]!)) mainApps.push(activity);
  }
  if (mainApps.length === 0) {
    await println(context, '** No activities found to run, monkey aborted.');
    return 252;
  }
  const component = mainApps[0]!;
  if (count > 0) {
    startActivity(
      context.device,
      {
        action: ACTION_MAIN,
        categories: [CATEGORY_LAUNCHER],
        component: unflattenComponent(component),
        flags: 0x10200000,
        extras: {},
        user: 0,
      },
      component,
    );
  }
  await println(context, `Events injected: ${Math.max(count, 0)}`);
  await println(context, `## Network stats: elapsed time=${ELAPSED_MS}ms (0ms mobile, 0ms wifi, ${ELAPSED_MS}ms not connected)`);
  return 0;
};
