/**
 * The settings provider's shell command: `cmd settings …`, which `settings` runs
 * (`/system/bin/settings` is `cmd settings "$@"`): `get`, `put`, `delete`, `list`, `reset`, with
 * `--user`, over the `system`, `secure` and `global` tables.
 *
 * Facts: `frameworks/base/packages/SettingsProvider/src/com/android/providers/settings/SettingsService.java`
 * (android-14.0.0_r50), `MyShellCommand.onCommand`:
 * - no command, `help`, `-h` → `dumpHelp` (`HELP_LINES`), status -1;
 * - the verb and namespace compare case-insensitively; `Invalid command: X`, `Invalid namespace
 *   'X'`, `Too many arguments`, `Invalid user: all`, `Invalid user: --user specified more than
 *   once`, `Bad arguments` (arguments missing, such as a `put` without a value), `Invalid user: N`
 *   (no such user), each on standard error with status -1; `--user` is accepted for every verb
 *   (`delete` and `list` included: Android 10 dropped the `--user not supported for delete and
 *   list.` refusal of older releases);
 * - `get` prints the value or `null`; `put` prints nothing, except `Ignored makeDefault - doesn't
 *   apply to system settings` (no newline) for `default` on the system table; `delete` prints
 *   `Deleted N rows`; `list` prints sorted `KEY=VALUE` lines; `reset` of the system table prints
 *   `Invalid table; no reset performed` (standard error, status 0).
 * - The stack frames of an exception (a missing `--user` value) are the settings provider's
 *   binder path, line numbers as an Android 13/14-era device prints them (a capture of
 *   `Exception occurred while executing 'put'`).
 *   Frames below the service: `frameworks/base/core/java/android/os/Binder.java`.
 */
import type {CommandContext, CommandHandler} from '../types.ts';
import {
  eprintln,
  execShellCommand,
  parseUserArg,
  print,
  println,
  SHELL_COMMAND_FRAMES,
  ShellArgs,
  USER_ALL,
  USER_CURRENT,
  userExists,
} from './shell-command.ts';
import {androidState, defaultSettings, type Namespace} from './state.ts';

/** The frames of an exception thrown in `MyShellCommand.onCommand`. */
const FRAMES: readonly string[] = [
  'com.android.providers.settings.SettingsService$MyShellCommand.onCommand(SettingsService.java:146)',
  ...SHELL_COMMAND_FRAMES,
  'com.android.providers.settings.SettingsService.onShellCommand(SettingsService.java:50)',
  'android.os.Binder.shellCommand(Binder.java:1054)',
  'android.os.Binder.onTransact(Binder.java:882)',
  'android.os.Binder.execTransactInternal(Binder.java:1290)',
  'android.os.Binder.execTransact(Binder.java:1249)',
];

/** `MyShellCommand.dumpHelp(pw, false)`. */
const HELP_LINES = [
  'Settings provider (settings) commands:',
  '  help',
  '      Print this help text.',
  '  get [--user <USER_ID> | current] NAMESPACE KEY',
  '      Retrieve the current value of KEY.',
  '  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default] [overrideableByRestore]',
  '      Change the contents of KEY to VALUE.',
  '      TAG to associate with the setting (cannot be default or overrideableByRestore).',
  '      {default} to set as the default, case-insensitive only for global/secure namespace',
  '      {overrideableByRestore} to let the value be overridden by BackupManager on restore operations',
  '  delete [--user <USER_ID> | current] NAMESPACE KEY',
  '      Delete the entry for KEY.',
  '  reset [--user <USER_ID> | current] NAMESPACE {PACKAGE_NAME | RESET_MODE}',
  '      Reset the global/secure table for a package with mode.',
  '      RESET_MODE is one of {untrusted_defaults, untrusted_clear, trusted_defaults}, case-insensitive',
  '  list [--user <USER_ID> | current] NAMESPACE',
  '      Print all defined keys.',
  '      NAMESPACE is one of {system, secure, global}, case-insensitive',
];

type Verb = 'get' | 'put' | 'delete' | 'list' | 'reset';

/** `MyShellCommand.onCommand(cmd)`. */
async function onCommand(context: CommandContext, command: string | undefined, rest: readonly string[]): Promise<number> {
  if (command === undefined || command === 'help' || command === '-h') {
    await println(context, HELP_LINES.join('\n'));
    return -1;
  }
  const args = new ShellArgs(rest, FRAMES, command);
  let user: number | undefined;
  let verb: Verb | undefined;
  let table: Namespace | undefined;
  let key: string | undefined;
  let value: string | undefined;
  let tag: string | undefined;
  let makeDefault = false;
  let overrideableByRestore = false;
  let valid = false;
  const tooMany = async () => {
    await eprintln(context, 'Too many arguments');
    return -1;
  };
  let arg: string | undefined = command;
  do {
    if (arg === '--user') {
      if (user !== undefined) {
        await eprintln(context, 'Invalid user: --user specified more than once');
        break;
      }
      user = parseUserArg(args.required(), FRAMES);
      if (user === USER_ALL) {
        await eprintln(context, 'Invalid user: all');
        return -1;
      }
    } else if (verb === undefined) {
      const lower = arg.toLowerCase();
      if (lower !== 'get' && lower !== 'put' && lower !== 'delete' && lower !== 'list' && lower !== 'reset') {
        await eprintln(context, `Invalid command: ${arg}`);
        return -1;
      }
      verb = lower;
    } else if (table === undefined) {
      const lower = arg.toLowerCase();
      if (lower !== 'system' && lower !== 'secure' && lower !== 'global') {
        await eprintln(context, `Invalid namespace '${arg}'`);
        return -1;
      }
      table = lower;
      if (verb === 'list') {
        valid = true;
        break;
      }
    } else if (verb === 'reset') {
      // A reset mode, or a package name (and an optional tag) whose values go back to its defaults.
      const lower = arg.toLowerCase();
      if (lower !== 'untrusted_defaults' && lower !== 'untrusted_clear' && lower !== 'trusted_defaults') {
        if (args.peek() !== undefined) {
          args.next(); // The tag: the simulated reset does not keep the settings' tags.
          if (args.peek() !== undefined) return tooMany();
        }
        valid = true;
        break;
      }
      if (args.peek() !== undefined) return tooMany();
      valid = true;
    } else if (verb === 'get' || verb === 'delete') {
      key = arg;
      if (args.peek() !== undefined) return tooMany();
      valid = true;
      break;
    } else if (key === undefined) {
      key = arg;
    } else if (value === undefined) {
      value = arg;
      valid = true;
    } else {
      // `parseOptionalPutArgument`: TAG, then `default`, then `overrideableByRestore`.
      if (arg === 'overrideableByRestore') {
        valid = !overrideableByRestore;
        overrideableByRestore = true;
      } else if (arg === 'default') {
        valid = !makeDefault && !overrideableByRestore;
        makeDefault = true;
      } else {
        valid = !makeDefault && !overrideableByRestore && tag === undefined;
        tag = arg;
      }
    }
  } while ((arg = args.next()) !== undefined);

  if (!valid) {
    await eprintln(context, 'Bad arguments');
    return -1;
  }
  if (user === undefined || user === USER_CURRENT) user = 0;
  if (!userExists(user)) {
    await eprintln(context, `Invalid user: ${user}`);
    return -1;
  }
  const settings = androidState(context.device).settings[table!];
  switch (verb!) {
    case 'get':
      await println(context, settings.get(key!) ?? 'null');
      return 0;
    case 'put':
      if (table === 'system' && makeDefault) await print(context, "Ignored makeDefault - doesn't apply to system settings");
      settings.set(key!, value!);
      return 0;
    case 'delete':
      await println(context, `Deleted ${settings.delete(key!) ? 1 : 0} rows`);
      return 0;
    case 'list':
      for (const line of [...settings].map(([name, text]) => `${name}=${text}`).sort()) await println(context, line);
      return 0;
    case 'reset': {
      if (table === 'system') {
        await eprintln(context, 'Invalid table; no reset performed');
        return 0;
      }
      const defaults = defaultSettings(context.device)[table!];
      settings.clear();
      for (const [name, text] of defaults) settings.set(name, text);
      return 0;
    }
  }
}

/** `cmd settings ARGS…`: see the file's comment. */
export const settingsCommand: CommandHandler = (context) =>
  execShellCommand(context, context.argv.slice(1), (command, rest) => onCommand(context, command, rest));
