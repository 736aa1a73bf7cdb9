/**
 * The framework's programs in `/system/bin`. Those that are native programs talking to
 * system_server, logd or init on a phone are links to the framework client
 * (`device/native/framework.c`), which the Node.js side answers (`FRAMEWORK_PROGRAMS`); those that
 * are shell scripts on a phone are scripts here too, doing what Android 14's do
 * (`SYSTEM_BIN_SCRIPTS`).
 *
 * Facts: `frameworks/base/cmds/{am,pm,settings,wm,input,bu}` (each runs `cmd SERVICE "$@"`, or
 * `app_process` with the command's jar on `CLASSPATH`; `am instrument` is the one `am` that still
 * runs Java), `development/cmds/monkey/monkey.sh` at android-14.0.0_r50 (it echoes each argument as
 * `  bash arg: ARG` and ignores SIGHUP), `frameworks/native/cmds/{cmd,dumpsys}`,
 * `system/logging/logcat`, `system/core/toolbox` (`getprop`, `setprop`), `system/core/reboot`,
 * `frameworks/base/cmds/screencap`, `frameworks/native/cmds/bugreportz`.
 */

/** Names under which `/system/bin` holds the framework client. */
export const FRAMEWORK_PROGRAMS: readonly string[] = [
  'app_process64',
  'bugreportz',
  'cmd',
  'dumpsys',
  'getprop',
  'log',
  'logcat',
  'reboot',
  'screencap',
  'setprop',
];

const script = (body: string) => `#!/system/bin/sh\n${body}\n`;

/** `/system/bin` scripts by name. */
export const SYSTEM_BIN_SCRIPTS: Readonly<Record<string, string>> = {
  am: script(
    'if [ "$1" = instrument ]; then\n  export CLASSPATH=/system/framework/am.jar\n  exec app_process /system/bin com.android.commands.am.Am "$@"\nfi\ncmd activity "$@"',
  ),
  pm: script('cmd package "$@"'),
  settings: script('cmd settings "$@"'),
  wm: script('cmd window "$@"'),
  input: script('cmd input "$@"'),
  bu: script('export CLASSPATH=/system/framework/bu.jar\nexec app_process /system/bin com.android.commands.bu.Backup "$@"'),
  monkey: script(
    'export CLASSPATH=/system/framework/monkey.jar\ntrap "" HUP\nfor arg in "$@"; do\n  echo "  bash arg: $arg"\ndone\nexec app_process /system/bin com.android.commands.monkey.Monkey "$@"',
  ),
};
