/**
 * Every text the simulated device's Android framework programs print must come from AOSP
 * (android-14.0.0_r50, LineageOS lineage-21.0). This test reads the modules of
 * `device/src/framework/` with the TypeScript compiler API, collects the string and template
 * literals that can reach the output, and compares them with {@link LITERALS}, which lists each
 * one under the AOSP file it was checked against. A new output text fails the test until it is
 * listed with its source; a listed text no module prints any more fails it too, so the list stays
 * exact.
 *
 * What counts as printed (the modules follow these conventions):
 * - the arguments of calls to `print`, `println`, `eprint`, `eprintln`, `stdout`, `stderr`,
 *   `out`, `write`, or a function whose name ends in `Text`;
 * - the arguments of `new JavaException(…)` and `new LogcatError(…)` (the exception and error
 *   messages the commands print);
 * - what functions and methods named `…Text`, `…Line` or `…Frames` return;
 * - the initialisers of constants named `…TEXT`, `…LINES`, `…USAGE`, `…HELP`, `…FRAMES`, `…MAGIC`.
 *
 * Only pieces holding an ASCII letter count: separators such as `': '` or `'\n'` are punctuation,
 * not facts. Stack-frame line numbers are taken from real Android 14 captures where one was found
 * and are otherwise plausible positions in the named method (the device's README says so).
 */
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import {test} from 'node:test';

import ts from 'typescript';

const FRAMEWORK_DIR = new URL('../src/framework/', import.meta.url);

/** Modules of `device/src/framework/` that hold no Android program (the native client's server, the table of programs). */
const NOT_PROGRAMS = new Set(['server.ts', 'programs.ts']);

const OUTPUT_CALLS = new Set(['print', 'println', 'eprint', 'eprintln', 'stdout', 'stderr', 'out', 'write']);
const THROWN = new Set(['JavaException', 'LogcatError']);
const TEXT_FUNCTION = /(Text|Line|Frames)$/;
const TEXT_CALL = /Text$/;
const TEXT_CONSTANT = /^[A-Z0-9_]*(TEXT|LINES|USAGE|HELP|FRAMES|MAGIC)$/;
const AOSP_PATH = /\b(?:art|bionic|development|external|frameworks|libcore|packages|system)\/[\w$./-]+\.(?:aidl|c|cc|cpp|h|java)\b/g;

const LITERALS: Readonly<Record<string, readonly string[]>> = {
  'art/runtime/common_throws.cc': [': Attempt to get length of null array'],
  'bionic/libc/bionic/error.cpp': ['logcat: '],
  'external/toybox/toys/android/log.c': ["log: bad -p '", 'log: log cut at 1024 bytes\n'],
  'development/cmds/monkey/src/com/android/commands/monkey/Monkey.java': [
    '              COUNT',
    '              [--bugreport]',
    '              [--device-sleep-time MILLISEC]',
    '              [--ignore-crashes] [--ignore-timeouts]',
    '              [--ignore-security-exceptions]',
    '              [--kill-process-after-error] [--hprof]',
    '              [--match-description TEXT]',
    '              [--monitor-native-crashes] [--ignore-native-crashes]',
    '              [--pct-anyevent PERCENT] [--pct-pinchzoom PERCENT]',
    '              [--pct-appswitch PERCENT] [--pct-flip PERCENT]',
    '              [--pct-nav PERCENT] [--pct-majornav PERCENT]',
    '              [--pct-permission PERCENT]',
    '              [--pct-touch PERCENT] [--pct-motion PERCENT]',
    '              [--pct-trackball PERCENT] [--pct-syskeys PERCENT]',
    '              [--periodic-bugreport]',
    '              [--permission-target-system]',
    '              [--pkg-blacklist-file PACKAGE_BLACKLIST_FILE]',
    '              [--pkg-whitelist-file PACKAGE_WHITELIST_FILE]',
    '              [--port port]',
    '              [--profile-wait MILLISEC]',
    '              [--randomize-script]',
    '              [--script-log]',
    '              [--setup scriptfile] [-f scriptfile [-f scriptfile] ...]',
    '              [--throttle MILLISEC] [--randomize-throttle]',
    '              [--wait-dbg] [--dbg-no-events]',
    '              [-c MAIN_CATEGORY [-c MAIN_CATEGORY] ...]',
    '              [-s SEED] [-v [-v] ...]',
    ' arg: "',
    ' argwas="',
    '" mCurArgData="null" mNextArg=',
    '" nextarg="',
    '** Error: Count is not a number: "',
    '** Error: Count not specified',
    '** Error: Unknown option: ',
    '** Error: java.lang.ArrayIndexOutOfBoundsException: length=',
    '** No activities found to run, monkey aborted.',
    '// Warning: no activities found for category ',
    '; index=',
    'Events injected: ',
    'arg="',
    'args: [',
    'data="',
    'usage: monkey [-p ALLOWED_PACKAGE [-p ALLOWED_PACKAGE] ...]',
  ],
  'development/cmds/monkey/src/com/android/commands/monkey/MonkeyNetworkMonitor.java': [
    '## Network stats: elapsed time=',
    'ms (0ms mobile, 0ms wifi, ',
    'ms not connected)',
  ],
  'frameworks/base/cmds/app_process/app_main.cpp': [
    'Error: no class name or --zygote supplied.\nUsage: app_process [java-options] cmd-dir start-class-name [options]\n',
  ],
  'frameworks/base/cmds/bu/src/com/android/commands/bu/Backup.java': [
    '         (default -nokeyvalue)',
    '        [-all] [-system|-nosystem] [-keyvalue|-nokeyvalue] [PACKAGE...]',
    '     -all: back up all installed applications',
    "     -apk/-noapk: do/don't back up .apk files (default -noapk)",
    '     -keyvalue|-nokeyvalue: include apps that perform key/value backups.',
    "     -obb/-noobb: do/don't back up .obb files (default -noobb)",
    "     -shared|-noshared: do/don't back up shared storage (default -noshared)",
    '     -system|-nosystem: include system apps in -all (default -system)',
    '     -user: user ID for which to perform the operation (default - system user)',
    '     package list optional if -all/-shared are supplied',
    "     write an archive of the device's data to FILE [default=backup.adb]",
    ' backup [-user USER_ID] [-f FILE] [-apk|-noapk] [-obb|-noobb] [-shared|-noshared]',
    ' restore [-user USER_ID] FILE       restore device contents from FILE',
  ],
  'frameworks/base/cmds/screencap/screencap.cpp': ['Error opening file: '],
  'frameworks/base/core/java/android/app/IActivityManager.aidl': [
    'android.app.IActivityManager$Stub.onTransact(IActivityManager.java:5733)',
  ],
  'frameworks/base/core/java/android/app/WaitResult.java': ['COLD', 'UNKNOWN (0)'],
  'frameworks/base/core/java/android/content/Intent.java': [
    'Bad component name: ',
    'Intent { ',
    'Unknown option: ',
    'android.content.Intent.parseCommandArgs(Intent.java:12124)',
    'java.lang.IllegalArgumentException',
  ],
  'frameworks/base/core/java/android/content/pm/IPackageManager.aidl': [
    'android.content.pm.IPackageManager$Stub.onTransact(IPackageManager.java:4352)',
  ],
  'frameworks/base/core/java/android/content/pm/PackageItemInfo.java': ['  name=', '  packageName='],
  'frameworks/base/core/java/android/content/pm/PackageManager.java': ['android.content.pm.PackageManager$NameNotFoundException: Package '],
  'frameworks/base/core/java/android/content/pm/ResolveInfo.java': [
    'ActivityInfo:',
    'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true',
  ],
  'frameworks/base/core/java/android/content/pm/parsing/ApkLiteParseUtils.java': [
    ': Failed to load asset path ',
    'Failed to parse ',
    'INSTALL_PARSE_FAILED_NOT_APK',
  ],
  'frameworks/base/core/java/android/hardware/input/IInputManager.aidl': [
    'android.hardware.input.IInputManager$Stub.onTransact(IInputManager.java:1208)',
  ],
  'frameworks/base/core/java/android/os/Binder.java': [
    'No shell command implementation.',
    'android.os.Binder.execTransact(Binder.java:1249)',
    'android.os.Binder.execTransact(Binder.java:1299)',
    'android.os.Binder.execTransact(Binder.java:1353)',
    'android.os.Binder.execTransactInternal(Binder.java:1290)',
    'android.os.Binder.execTransactInternal(Binder.java:1392)',
    'android.os.Binder.execTransactInternal(Binder.java:1414)',
    'android.os.Binder.onTransact(Binder.java:882)',
    'android.os.Binder.onTransact(Binder.java:912)',
    'android.os.Binder.onTransact(Binder.java:948)',
    'android.os.Binder.shellCommand(Binder.java:1054)',
    'android.os.Binder.shellCommand(Binder.java:1092)',
    'android.os.Binder.shellCommand(Binder.java:1146)',
  ],
  'frameworks/base/core/java/android/os/ShellCommand.java': [
    'Consider using a file under /data/local/tmp/',
    'Error: Unable to open file: ',
    'android.os.ShellCommand.exec(ShellCommand.java:38)',
  ],
  'frameworks/base/core/java/android/os/UserHandle.java': ['Bad user number: '],
  'frameworks/base/core/java/android/util/apk/ApkSignatureVerifier.java': [
    ' has no certificates at entry AndroidManifest.xml',
    'Failed to collect certificates from ',
    'INSTALL_PARSE_FAILED_NO_CERTIFICATES',
    'Package ',
  ],
  'frameworks/base/packages/SettingsProvider/src/com/android/providers/settings/SettingsService.java': [
    '      Change the contents of KEY to VALUE.',
    '      Delete the entry for KEY.',
    '      NAMESPACE is one of {system, secure, global}, case-insensitive',
    '      Print all defined keys.',
    '      Print this help text.',
    '      RESET_MODE is one of {untrusted_defaults, untrusted_clear, trusted_defaults}, case-insensitive',
    '      Reset the global/secure table for a package with mode.',
    '      Retrieve the current value of KEY.',
    '      TAG to associate with the setting (cannot be default or overrideableByRestore).',
    '      {default} to set as the default, case-insensitive only for global/secure namespace',
    '      {overrideableByRestore} to let the value be overridden by BackupManager on restore operations',
    '  delete [--user <USER_ID> | current] NAMESPACE KEY',
    '  get [--user <USER_ID> | current] NAMESPACE KEY',
    '  help',
    '  list [--user <USER_ID> | current] NAMESPACE',
    '  put [--user <USER_ID> | current] NAMESPACE KEY VALUE [TAG] [default] [overrideableByRestore]',
    '  reset [--user <USER_ID> | current] NAMESPACE {PACKAGE_NAME | RESET_MODE}',
    ' rows',
    'Bad arguments',
    'Deleted ',
    "Ignored makeDefault - doesn't apply to system settings",
    'Invalid command: ',
    "Invalid namespace '",
    'Invalid table; no reset performed',
    'Invalid user: ',
    'Invalid user: --user specified more than once',
    'Invalid user: all',
    'Settings provider (settings) commands:',
    'Too many arguments',
    'com.android.providers.settings.SettingsService$MyShellCommand.onCommand(SettingsService.java:146)',
    'com.android.providers.settings.SettingsService.onShellCommand(SettingsService.java:50)',
    'null',
  ],
  'frameworks/base/services/backup/java/com/android/server/backup/fullbackup/PerformAdbBackupTask.java': ['\nnone\n', 'ANDROID BACKUP\n'],
  'frameworks/base/services/core/java/com/android/server/BatteryService.java': [
    '    -f: force a battery change broadcast be sent, prints new sequence.',
    '    Force a battery property value, freezing battery state.',
    '    Force battery unplugged, freezing battery state.',
    '    Print this help text.',
    '    Unfreeze battery state, returning to current hardware values.',
    "  (UPDATES STOPPED -- use 'reset' to restart)",
    '  AC powered: ',
    '  Charge counter: ',
    '  Dock powered: ',
    '  Max charging current: ',
    '  Max charging voltage: ',
    '  USB powered: ',
    '  Wireless powered: ',
    '  get [-f] [ac|usb|wireless|dock|status|level|temp|present|counter|invalid]',
    '  health: ',
    '  help',
    '  level: ',
    '  present: ',
    '  reset [-f]',
    '  scale: ',
    '  set [-f] [ac|usb|wireless|dock|status|level|temp|present|counter|invalid] <value>',
    '  status: ',
    '  technology: ',
    '  temperature: ',
    '  unplug [-f]',
    '  voltage: ',
    'Bad value: ',
    'Battery service (battery) commands:',
    'Current Battery Service state:',
    'No property specified',
    'No value specified',
    'Unknown get option: ',
    'Unknown set option: ',
  ],
  'frameworks/base/services/core/java/com/android/server/DiskStatsService.java': [
    '% free',
    '-Free: ',
    'App Cache Size: ',
    'App Data Size: ',
    'App Data Sizes: ',
    'App Size: ',
    'App Sizes: ',
    'Audio Size: ',
    'Cache Sizes: ',
    'Downloads Size: ',
    'File-based Encryption: true',
    'K / ',
    'K total = ',
    'Latency: 2ms [512B Data Write]',
    'Other Size: ',
    'Package Names: ',
    'Photos Size: ',
    'Recent Disk Write Speed (kB/s) = 61120',
    'System Size: ',
    'Videos Size: ',
  ],
  'frameworks/base/services/core/java/com/android/server/am/ActivityManagerService.java': [
    'com.android.server.am.ActivityManagerService.onShellCommand(ActivityManagerService.java:10417)',
    'com.android.server.am.ActivityManagerService.onTransact(ActivityManagerService.java:2734)',
  ],
  'frameworks/base/services/core/java/com/android/server/am/ActivityManagerShellCommand.java': [
    '      Print this help text.',
    '  help',
    '  start-activity [-D] [-N] [-W] [-P <FILE>] [--start-profiler <FILE>]',
    '(ActivityManagerShellCommand.java:',
    'Activity manager (activity) commands:',
    'Activity: ',
    'Broadcast completed: result=0',
    'Broadcasting: ',
    'Complete',
    'Error type 3',
    'Error: Activity class {',
    'Error: Activity not started, unable to resolve ',
    "Error: Can't start service with user 'all'",
    'Error: Unknown option: ',
    'LaunchState: ',
    'Starting: ',
    'Status: ok',
    'TotalTime: ',
    'WaitTime: ',
    'Warning: Activity not started, intent has been delivered to currently running top-most instance.',
    'com.android.server.am.ActivityManagerShellCommand.',
    'com.android.server.am.ActivityManagerShellCommand.makeIntent(ActivityManagerShellCommand.java:480)',
    'com.android.server.am.ActivityManagerShellCommand.onCommand(ActivityManagerShellCommand.java:',
    '} does not exist.',
  ],
  'frameworks/base/services/core/java/com/android/server/input/InputManagerService.java': [
    'com.android.server.input.InputManagerService.onShellCommand(InputManagerService.java:2830)',
  ],
  'frameworks/base/services/core/java/com/android/server/input/InputShellCommand.java': [
    '            Axis options: SCROLL, HSCROLL, VSCROLL',
    '            Example: `scroll --axis VSCROLL,2 --axis SCROLL,-2.4`',
    '            MotionEvent without the AXIS_ prefix (e.g. SCROLL, X)',
    '            None or one or multiple axis value options can be specified.',
    '            To specify multiple axes, use one axis option for per axis.',
    '            scroll <x> <y> [axis_value] (for pointer-based sources)',
    '            scroll [axis_value] (for non-pointer-based sources)',
    '            where <axis_name> is the name of the axis as defined in ',
    '      Sample [axis_values] entry: `--axis Y,3`, `--axis SCROLL,-2`',
    '      The syntax is as follows: --axis <axis_name>,<axis_value>',
    '      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)',
    '      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard, the key order is important here.)',
    '      keyevent [--longpress|--doubletap|--async|--delay <duration between keycodes in ms>] <key code number or name> ... (Default: keyboard)',
    '      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)',
    '      press (Default: trackball)',
    '      roll <dx> <dy> (Default: trackball)',
    '      scroll (Default: rotaryencoder). Has the following syntax:',
    '      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)',
    '      tap <x> <y> (Default: touchscreen)',
    '      text <string> (Default: keyboard)',
    ' for key event, ',
    ' for motion event if not specified.)',
    '-d: specify the display ID.\n      (Default: ',
    'Error: Invalid arguments for command: ',
    'Error: Invalid arguments for display ID.',
    'The commands and default sources are:',
    'The sources are: ',
    'Unknown action: ',
    'Unknown keycode: ',
    'Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]',
    '[axis_value] represents an option specifying the value of a given axis ',
    'com.android.server.input.InputShellCommand.onCommand(InputShellCommand.java:282)',
    'java.lang.IllegalArgumentException',
    'keycombination requires at least 2 keycodes',
  ],
  'frameworks/base/services/core/java/com/android/server/pm/InstallPackageHelper.java': [
    ' without first uninstalling.',
    'Attempt to re-install ',
    'INSTALL_FAILED_ALREADY_EXISTS',
    'Scanning Failed.: ',
  ],
  'frameworks/base/services/core/java/com/android/server/pm/PackageInstallerService.java': [
    'Caller has no access to session ',
    'com.android.server.pm.PackageInstallerService.openSession(PackageInstallerService.java:1046)',
    'com.android.server.pm.PackageInstallerService.openSessionInternal(PackageInstallerService.java:1057)',
    'java.lang.SecurityException',
  ],
  'frameworks/base/services/core/java/com/android/server/pm/PackageInstallerSession.java': [
    '. No packages staged in ',
    'Full install must include a base package',
    'INSTALL_FAILED_INVALID_APK',
    'Session: ',
    'Split not found: ',
  ],
  'frameworks/base/services/core/java/com/android/server/pm/PackageManagerService.java': [
    '(PackageManagerService.java:5645)',
    'Unknown package: ',
    'com.android.server.pm.PackageManagerService$IPackageManagerImpl.',
    'com.android.server.pm.PackageManagerService$IPackageManagerImpl.onShellCommand(PackageManagerService.java:6823)',
    'com.android.server.pm.PackageManagerService$IPackageManagerImpl.onTransact(PackageManagerService.java:6807)',
    'com.android.server.pm.PackageManagerService.setEnabledSettings(PackageManagerService.java:3812)',
    'setApplicationEnabledSetting',
    'setComponentEnabledSetting',
  ],
  'frameworks/base/services/core/java/com/android/server/pm/PackageManagerServiceUtils.java': [
    ' is older than current ',
    'Downgrade detected: Update version code ',
    'INSTALL_FAILED_VERSION_DOWNGRADE',
  ],
  'frameworks/base/services/core/java/com/android/server/pm/PackageManagerShellCommand.java': [
    '    Print the path to the .apk of the given PACKAGE.',
    '    Print this help text.',
    '  help',
    '  path [--user USER_ID] PACKAGE',
    ' bytes',
    " doesn't exist",
    ' installed for user: ',
    ' new state: ',
    ' uid:',
    '(PackageManagerShellCommand.java:',
    '.apk',
    '/split_',
    '0[auto]',
    'Component {',
    'Error: ',
    "Error: Can't open file: ",
    'Error: Unknown option: ',
    "Error: can't specify SPLIT(s) along with STDIN",
    "Error: didn't specify type of data to list",
    'Error: expected FEATURE name',
    'Error: must either specify a package size or an APK file',
    'Error: must specify an APK size',
    'Error: no package or component specified',
    'Error: no package specified',
    'Error: no permission specified',
    'Error: package name not specified',
    'Error: split name not specified',
    "Error: unknown list type '",
    'Failed',
    'Failure [',
    'Failure [DELETE_FAILED_INTERNAL_ERROR]',
    'Failure [not installed for ',
    'Maximum supported users: ',
    'Missing inherit package name',
    'Missing installer package',
    'Missing package name',
    'No activity found',
    'Package ',
    'Package manager (package) commands:',
    'Size must be positive',
    'Success',
    'Success: created install session [',
    'Success: streamed ',
    'Unknown option ',
    'Unknown option: ',
    'com.android.server.pm.PackageManagerShellCommand.',
    'com.android.server.pm.PackageManagerShellCommand.doRunInstall(PackageManagerShellCommand.java:1578)',
    'com.android.server.pm.PackageManagerShellCommand.runInstall(PackageManagerShellCommand.java:1543)',
    'com.android.server.pm.PackageManagerShellCommand.runSetEnabledSetting(PackageManagerShellCommand.java:2356)',
    'com.android.server.pm.PackageManagerShellCommand.setParamsSize(PackageManagerShellCommand.java:640)',
    'feature:',
    'install',
    'install-write',
    'java.lang.IllegalArgumentException',
    'library:',
    'package:',
    'reqGlEsVersion=0x',
    'runInstallCommit',
    'runInstallWrite',
    '} new state: ',
  ],
  'frameworks/base/services/core/java/com/android/server/pm/ScanPackageUtils.java': [
    ' or newer for package ',
    'No signature found in package of version ',
  ],
  'frameworks/base/services/core/java/com/android/server/pm/UserManagerServiceShellCommand.java': [
    '\tUserInfo{0:Owner:c13} running',
    'Users:',
  ],
  'frameworks/base/services/core/java/com/android/server/wm/WindowManagerShellCommand.java': [
    '      Print this help text.',
    '    Return or override display size.',
    "    width and height in pixels unless suffixed with 'dp'.",
    '  help',
    '  size [reset|WxH|WdpxHdp] [-d DISPLAY_ID]',
    'Error: bad number ',
    'Error: bad size ',
    'Error: density must be >= 72',
    'Override density: ',
    'Override size: ',
    'Physical density: ',
    'Physical size: ',
    'Window manager (window) commands:',
    'x',
  ],
  'frameworks/libs/modules-utils/java/com/android/modules/utils/BasicShellCommandHandler.java': [
    "\nException occurred while executing '",
    'Argument expected after "',
    'No argument expected after "',
    'Unknown command: ',
    'com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)',
    'java.lang.IllegalArgumentException',
    'null',
  ],
  'frameworks/native/cmds/bugreportz/main.cpp': [
    '  -h: to display this help message\n',
    '  -p: display progress\n',
    '  -s: stream content to standard output\n',
    '  -v: to display the version\n',
    '  or no arguments to generate a zipped bugreport\n',
    'usage: bugreportz [-hpsv]\n',
  ],
  'frameworks/native/cmds/cmd/cmd.cpp': [
    'Currently running services:',
    "cmd: Can't find service: ",
    'cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.',
  ],
  'frameworks/native/cmds/dumpstate/dumpstate.cpp': [
    '== dumpstate: ',
    'BEGIN:',
    'Bootloader: ',
    "Build fingerprint: '",
    'Build: ',
    'Network: ',
    'OK:',
    'PROGRESS:',
    'Radio: ',
  ],
  'frameworks/native/cmds/dumpsys/dumpsys.cpp': [
    '               LEVEL must be one of CRITICAL | HIGH | NORMAL\n',
    '               will be in proto format.\n',
    '         --clients: dump client PIDs instead of usual dump\n',
    '         --dump: ask the service to dump itself (this is the default)\n',
    '         --help: shows this help\n',
    '         --pid: dump PID instead of usual dump\n',
    '         --priority LEVEL: filter services based on specified priority\n',
    '         --proto: filter services that support dumping data in proto format. Dumps\n',
    '         --skip SERVICES: dumps all services but SERVICES (comma-separated list)\n',
    '         --stability: dump binder stability information instead of usual dump\n',
    '         --thread: dump thread usage instead of usual dump\n',
    '         -T TIMEOUT_MS: TIMEOUT to use in milliseconds instead of default 10 seconds\n',
    '         -l: only list services, do not dump them\n',
    '         -t TIMEOUT_SEC: TIMEOUT to use in seconds instead of default 10 seconds\n',
    '         SERVICE [ARGS]: dumps only service SERVICE, optionally passing ARGS to it\n',
    '         To dump all services.\n',
    '       dumpsys [-t TIMEOUT] [--priority LEVEL] [--clients] [--dump] [--pid] [--thread] [--help | -l | --skip SERVICES | SERVICE [ARGS]]\n',
    ', ending at: ',
    '--------- 0.001s was the duration of dumpsys ',
    "Can't find service: ",
    'Currently running services:',
    'DUMP OF SERVICE ',
    "Error: invalid timeout(milliseconds) number: '",
    "Error: invalid timeout(seconds) number: '",
    'or:\n',
    'usage: dumpsys\n',
  ],
  'libcore/ojluni/src/main/java/java/lang/Integer.java': [
    'java.lang.Integer.parseInt(Integer.java:630)',
    'java.lang.Integer.parseInt(Integer.java:786)',
    's == null',
  ],
  'libcore/ojluni/src/main/java/java/lang/NumberFormatException.java': ['For input string: "', 'java.lang.NumberFormatException'],
  'libcore/ojluni/src/main/java/java/lang/Throwable.java': ['\tat '],
  'system/core/reboot/reboot.c': [' [-p] [rebootcommand]', ': too many arguments', 'Done', 'usage: '],
  'system/core/toolbox/getprop.cpp': [
    'getprop: Max 2 arguments (see "getprop --help")',
    'usage: getprop [-TZ] [NAME [DEFAULT]]\n\nGets an Android system property, or lists them all.\n\n-T\tShow property types instead of values\n-Z\tShow property contexts instead of values\n\n',
  ],
  'system/core/toolbox/setprop.cpp': [
    ' bytes vs a max of ',
    "' in name '",
    "' is too long, ",
    "' to '",
    "'.\nSee dmesg for error reason.",
    "'..' is not allowed in a property name",
    "Failed to set property '",
    "Invalid character '",
    "Property names must not start or end with a '.'",
    "Value '",
    'usage: setprop NAME VALUE\n\nSets an Android system property.',
  ],
  'system/logging/logcat/logcat.cpp': [
    ' B',
    ' B, max payload is ',
    "' isn't an integer greater than zero.",
    "' needs an argument.",
    "' not in time format.",
    "' out of range.",
    '(null)',
    '--------- beginning of ',
    '--------- switch to ',
    '-G must be specified as <num><multiplier>.',
    '-f is incompatible with -g/-G, -S, and -p/-P.',
    ': ring buffer is ',
    'B (',
    'B consumed, ',
    'B readable), max entry is ',
    'Cannot use -m (--max-count) and -t together.',
    "Invalid -n '",
    "Invalid -r '",
    "Invalid -v '",
    "Invalid filter expression '",
    'Only one --pid argument can be provided.',
    "Option '",
    "Unable to parse UID '",
    "Unknown -b buffer '",
    "Unknown option '",
    "logcat: couldn't open output file '",
    "pid '",
  ],
};

/**
 * The printed literals of one module's source text.
 * @param fileName the module's name, for the parser's diagnostics
 * @param sourceText the module's TypeScript source
 * @returns each literal piece (string, or the fixed parts of a template) holding an ASCII letter
 */
function printedLiterals(fileName: string, sourceText: string): Set<string> {
  const found = new Set<string>();
  const source = ts.createSourceFile(fileName, sourceText, ts.ScriptTarget.Latest, true);
  const collect = (node: ts.Node): void => {
    let pieces: string[] = [];
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) pieces = [node.text];
    else if (ts.isTemplateExpression(node)) pieces = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
    for (const piece of pieces) if (/[A-Za-z]/.test(piece)) found.add(piece);
    ts.forEachChild(node, collect);
  };
  const collectReturns = (node: ts.Node): void => {
    if (ts.isReturnStatement(node) && node.expression) collect(node.expression);
    else if (!ts.isFunctionLike(node)) ts.forEachChild(node, collectReturns);
  };
  const walk = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
      if (OUTPUT_CALLS.has(name) || TEXT_CALL.test(name)) node.arguments.forEach(collect);
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && THROWN.has(node.expression.text)) {
      node.arguments?.forEach(collect);
    }
    if (
      (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) &&
      node.name &&
      ts.isIdentifier(node.name) &&
      TEXT_FUNCTION.test(node.name.text) &&
      node.body
    ) {
      ts.forEachChild(node.body, collectReturns);
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && TEXT_CONSTANT.test(node.name.text) && node.initializer) {
      collect(node.initializer);
    }
    ts.forEachChild(node, walk);
  };
  walk(source);
  return found;
}

/** The modules to check, by file name, with their source text. */
function frameworkModules(): Map<string, string> {
  const modules = new Map<string, string>();
  for (const name of readdirSync(FRAMEWORK_DIR).sort()) {
    if (name.endsWith('.ts') && !NOT_PROGRAMS.has(name)) modules.set(name, readFileSync(new URL(name, FRAMEWORK_DIR), 'utf8'));
  }
  return modules;
}

/** The leading comment of a module, where its header names the AOSP files it follows. */
function headerComment(sourceText: string): string {
  return /^\/\*\*[\s\S]*?\*\//.exec(sourceText)?.[0] ?? '';
}

/** Each listed literal with its AOSP source. */
function listedSources(): Map<string, string[]> {
  const sources = new Map<string, string[]>();
  for (const [path, texts] of Object.entries(LITERALS)) {
    for (const text of texts) sources.set(text, [...(sources.get(text) ?? []), path]);
  }
  return sources;
}

test('the scanner finds an output text in each printing form', () => {
  const sample = [
    "println(context, 'Printed by a call');",
    'eprint(context, `Template head ${x} and tail`);',
    "throw new JavaException('java.lang.Thrown', 'Exception message');",
    "function usageText(): string { return 'Returned text'; }",
    "const MADE_UP_USAGE = ['Constant line'];",
    "const notPrinted = 'Not an output';",
  ].join('\n');
  assert.deepEqual(
    [...printedLiterals('sample.ts', sample)].sort(),
    ['Constant line', 'Exception message', 'Printed by a call', 'Returned text', 'Template head ', ' and tail', 'java.lang.Thrown'].sort(),
  );
});

test('every text the framework modules print is listed with its AOSP source', (t) => {
  const listed = listedSources();
  const unlisted: string[] = [];
  let count = 0;
  for (const [name, sourceText] of frameworkModules()) {
    for (const literal of printedLiterals(name, sourceText)) {
      count++;
      if (!listed.has(literal)) unlisted.push(`${name}: ${JSON.stringify(literal)}`);
    }
  }
  const entries = Object.values(LITERALS).reduce((sum, texts) => sum + texts.length, 0);
  t.diagnostic(
    `${count} literal uses in the modules; ${listed.size} texts listed, ${entries} entries under ${Object.keys(LITERALS).length} AOSP files`,
  );
  assert.deepEqual(unlisted, [], 'texts printed without a listed AOSP source');
});

test('every listed text is still printed by some module', () => {
  const printed = new Set<string>();
  for (const [name, sourceText] of frameworkModules()) for (const literal of printedLiterals(name, sourceText)) printed.add(literal);
  const stale = [...listedSources().keys()].filter((text) => !printed.has(text));
  assert.deepEqual(stale, [], 'listed texts that no module prints');
});

test('the sources are AOSP paths, each text listed once under each', () => {
  for (const [path, texts] of Object.entries(LITERALS)) {
    assert.match(path, new RegExp(`^${AOSP_PATH.source}$`), path);
    assert.equal(new Set(texts).size, texts.length, `${path} lists a text twice`);
  }
});

test("each module's header names an AOSP source of every text it prints", () => {
  const listed = listedSources();
  const missing: string[] = [];
  for (const [name, sourceText] of frameworkModules()) {
    const named: string[] = [...(headerComment(sourceText).match(AOSP_PATH) ?? [])];
    assert.ok(named.length > 0, `${name} has a header naming its AOSP source`);
    for (const literal of printedLiterals(name, sourceText)) {
      const paths = listed.get(literal) ?? [];
      if (paths.length > 0 && !paths.some((path) => named.includes(path)))
        missing.push(`${name}: ${JSON.stringify(literal)} (${paths.join(', ')})`);
    }
  }
  assert.deepEqual(missing, [], 'texts whose AOSP file the module header does not name');
});
