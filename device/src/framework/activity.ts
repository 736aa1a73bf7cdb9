/**
 * The activity manager's shell command: `cmd activity …`, which `am` runs (`/system/bin/am`
 * is `cmd activity "$@"`). Subcommands: `start`/`start-activity`, `broadcast`, `force-stop`,
 * `kill`, `stop-app`, `get-current-user`, `help`.
 *
 * Facts: `frameworks/base/services/core/java/com/android/server/am/ActivityManagerShellCommand.java`
 * (android-14.0.0_r50):
 * - `onCommand`: no command or `help` → `onHelp`; unknown → `handleDefaultCommands`
 *   (`Unknown command: CMD`), status -1.
 * - `runStartActivity`: `Starting: ` + the intent; `--user all` → `Error: Can't start service
 *   with user 'all'`; the result goes to `PrintWriter out = mWaitOption ? pw : getErrPrintWriter();`
 *   (standard output with `-W`, standard error without): `Warning: Activity not started, intent has
 *   been delivered to currently running top-most instance.`, `Error: Activity not started, unable
 *   to resolve ` + intent, `Error type 3` (`NO_CLASS_ERROR_CODE`) and `Error: Activity class {…}
 *   does not exist.` (status 1); with `-W` then `Status: ok`, `LaunchState: ` +
 *   `WaitResult.launchStateToString` (`COLD`, `UNKNOWN (0)`…), `Activity: `, `TotalTime: `,
 *   `WaitTime: `, `Complete`. The intent gets `FLAG_ACTIVITY_NEW_TASK` after `Starting:` is
 *   printed. An intent delivered to the top activity has `totalTime` 0 and no launch state
 *   (`ActivityStarter.waitResultIfNeeded`).
 * - `runSendBroadcast`: `Broadcasting: ` + the intent with `FLAG_RECEIVER_FROM_SHELL`, then
 *   `IntentReceiver.performReceive`'s `Broadcast completed: result=CODE`.
 * - `runForceStop`, `runKill`, `runStopApp` print nothing; `runGetCurrentUser` prints the user id.
 * - `onHelp`'s first lines (the help is printed only that far, see `HELP_LINES`).
 * - Also printed: `frameworks/base/core/java/android/app/WaitResult.java`
 *   (`launchStateToString`), and the stack frames of an exception below `onCommand`:
 *   `frameworks/base/core/java/android/content/Intent.java` (`parseCommandArgs`),
 *   `frameworks/base/services/core/java/com/android/server/am/ActivityManagerService.java`
 *   (`onShellCommand`, `onTransact`), `frameworks/base/core/java/android/app/IActivityManager.aidl`
 *   (its generated `IActivityManager$Stub`) and `frameworks/base/core/java/android/os/Binder.java`.
 */
import type {CommandContext, CommandHandler} from '../types.ts';
import {FLAG_ACTIVITY_NEW_TASK, FLAG_RECEIVER_FROM_SHELL, intentText, parseIntent, resolveActivity, startActivity} from './intent.ts';
import {
  eprintln,
  execShellCommand,
  handleDefaultCommands,
  parseUserArg,
  println,
  SHELL_COMMAND_FRAMES,
  ShellArgs,
  USER_ALL,
} from './shell-command.ts';
import {androidState} from './state.ts';

/**
 * The frames below `ActivityManagerShellCommand.onCommand` of an exception: the binder call of
 * `cmd activity` into system_server, line numbers as an Android 14/15-era device prints them (a
 * capture of `Exception occurred while executing 'broadcast'`).
 */
const BINDER_FRAMES: readonly string[] = [
  ...SHELL_COMMAND_FRAMES,
  'com.android.server.am.ActivityManagerService.onShellCommand(ActivityManagerService.java:10417)',
  'android.os.Binder.shellCommand(Binder.java:1146)',
  'android.os.Binder.onTransact(Binder.java:948)',
  'android.app.IActivityManager$Stub.onTransact(IActivityManager.java:5733)',
  'com.android.server.am.ActivityManagerService.onTransact(ActivityManagerService.java:2734)',
  'android.os.Binder.execTransactInternal(Binder.java:1414)',
  'android.os.Binder.execTransact(Binder.java:1353)',
];

/** Where an option of `am start` or `am broadcast` is read: `makeIntent` under the subcommand (line numbers plausible). */
function intentFrames(method: string, line: number, onCommandLine: number): string[] {
  return [
    'android.content.Intent.parseCommandArgs(Intent.java:12124)',
    'com.android.server.am.ActivityManagerShellCommand.makeIntent(ActivityManagerShellCommand.java:480)',
    `com.android.server.am.ActivityManagerShellCommand.${method}(ActivityManagerShellCommand.java:${line})`,
    `com.android.server.am.ActivityManagerShellCommand.onCommand(ActivityManagerShellCommand.java:${onCommandLine})`,
    ...BINDER_FRAMES,
  ];
}

/** The first lines of `ActivityManagerShellCommand.onHelp` (the rest, some 400 lines, is not simulated). */
const HELP_LINES = [
  'Activity manager (activity) commands:',
  '  help',
  '      Print this help text.',
  '  start-activity [-D] [-N] [-W] [-P <FILE>] [--start-profiler <FILE>]',
];

/** `WaitResult`'s values for a cold start and for an intent delivered to the top activity (ms). */
const COLD_START = {totalTime: 412, waitTime: 418};
const DELIVERED = {totalTime: 0, waitTime: 12};

/** `am start`/`start-activity`: see the file's comment. */
async function runStartActivity(context: CommandContext, args: ShellArgs): Promise<number> {
  let wait = false;
  const takesArgument = new Set(['-P', '--start-profiler', '--sampling', '--clock-type', '--attach-agent', '--attach-agent-bind']);
  const takesNumber = new Set(['-R', '--display', '--task-display-area-feature-id', '--windowingMode', '--activityType', '--task']);
  const flags = new Set([
    '-D',
    '--suspend',
    '-N',
    '--streaming',
    '-S',
    '--track-allocation',
    '--task-overlay',
    '--lock-task',
    '--allow-background-activity-starts',
    '--async',
    '--splashscreen-show-icon',
    '--dismiss-keyguard-if-insecure',
    '--dismiss-keyguard',
  ]);
  const intent = parseIntent(
    args,
    (option) => {
      if (option === '-W') wait = true;
      else if (takesArgument.has(option) || takesNumber.has(option) || option === '--receiver-permission') args.required();
      else if (!flags.has(option)) return false;
      return true;
    },
    intentFrames('runStartActivity', 612, 239),
  );
  if (intent.user === USER_ALL) {
    await eprintln(context, "Error: Can't start service with user 'all'");
    return 1;
  }
  await println(context, `Starting: ${intentText(intent)}`);
  const out = wait ? println : eprintln;
  const component = resolveActivity(androidState(context.device), intent);
  if (!component) {
    if (intent.component) {
      const {packageName, className} = intent.component;
      await out(context, 'Error type 3');
      await out(context, `Error: Activity class {${packageName}/${className}} does not exist.`);
    } else {
      await out(context, `Error: Activity not started, unable to resolve ${intentText(intent, FLAG_ACTIVITY_NEW_TASK)}`);
    }
    return 1;
  }
  const delivered = startActivity(context.device, intent, component);
  if (delivered) {
    await out(context, 'Warning: Activity not started, intent has been delivered to currently running top-most instance.');
  }
  if (wait) {
    const times = delivered ? DELIVERED : COLD_START;
    await println(context, 'Status: ok');
    await println(context, `LaunchState: ${delivered ? 'UNKNOWN (0)' : 'COLD'}`);
    await println(context, `Activity: ${component}`);
    await println(context, `TotalTime: ${times.totalTime}`);
    await println(context, `WaitTime: ${times.waitTime}`);
    await println(context, 'Complete');
  }
  return 0;
}

/** `am broadcast`: the intent is sent; nothing receives it here, so the result is 0. */
async function runSendBroadcast(context: CommandContext, args: ShellArgs): Promise<number> {
  const intent = parseIntent(
    args,
    (option) => {
      if (option === '--receiver-permission' || option === '--allow-background-activity-starts' || option === '--async') {
        if (option === '--receiver-permission') args.required();
        return true;
      }
      return false;
    },
    intentFrames('runSendBroadcast', 1075, 280),
  );
  await println(context, `Broadcasting: ${intentText(intent, FLAG_RECEIVER_FROM_SHELL)}`);
  await println(context, 'Broadcast completed: result=0');
  return 0;
}

/** `am force-stop|kill|stop-app [--user U] PACKAGE`: the package's activities leave the front. */
async function runStopPackage(context: CommandContext, args: ShellArgs, method: string): Promise<number> {
  const frames = [`com.android.server.am.ActivityManagerShellCommand.${method}(ActivityManagerShellCommand.java:1204)`, ...BINDER_FRAMES];
  for (let option; (option = args.nextOption()) !== undefined;) {
    if (option === '--user') parseUserArg(args.required(), frames);
    else {
      await eprintln(context, `Error: Unknown option: ${option}`);
      return -1;
    }
  }
  const name = args.required();
  const state = androidState(context.device);
  if (state.foreground?.startsWith(`${name}/`)) state.foreground = 'com.google.android.apps.nexuslauncher/.NexusLauncherActivity';
  return 0;
}

/** `cmd activity ARGS…`: see the file's comment. */
export const activityCommand: CommandHandler = (context) =>
  execShellCommand(context, context.argv.slice(1), async (command, rest) => {
    const onCommandFrame = 'com.android.server.am.ActivityManagerShellCommand.onCommand(ActivityManagerShellCommand.java:239)';
    const args = new ShellArgs(rest, [onCommandFrame, ...BINDER_FRAMES], command);
    const help = async () => {
      await println(context, HELP_LINES.join('\n'));
    };
    switch (command) {
      case 'start':
      case 'start-activity':
        return runStartActivity(context, args);
      case 'broadcast':
        return runSendBroadcast(context, args);
      case 'force-stop':
        return runStopPackage(context, args, 'runForceStop');
      case 'kill':
        return runStopPackage(context, args, 'runKill');
      case 'stop-app':
        return runStopPackage(context, args, 'runStopApp');
      case 'get-current-user':
        await println(context, '0');
        return 0;
      default:
        return handleDefaultCommands(context, command, help);
    }
  });
