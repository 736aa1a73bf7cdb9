/**
 * Intents as the shell commands read and print them, and the activity side of the simulated
 * activity manager: which activity an intent resolves to, and what starting one records.
 *
 * Facts (android-14.0.0_r50):
 * - `frameworks/base/core/java/android/content/Intent.java`: `parseCommandArgs` (the options
 *   `am`/`pm` accept; an unknown one throws `Unknown option: OPT`; a last argument with `:` is a
 *   URI, parsed as `new Intent(ACTION_VIEW, uri)`, one with `/` a component and one without a
 *   package, both with `ACTION_MAIN` and `CATEGORY_LAUNCHER`), `toString`/`toShortString`
 *   (`Intent { act=… cat=[…] dat=… typ=… flg=0x… pkg=… cmp=… (has extras) }`).
 * - `frameworks/base/core/java/android/net/Uri.java` `toSafeString`: phone-like schemes masked,
 *   `http`/`https`/`ftp`/`rtsp` cut to `//host[:port]/...`, others without query or fragment.
 * - `frameworks/base/core/java/android/content/ComponentName.java` `unflattenFromString`,
 *   `flattenToShortString`, `toShortString` (`{pkg/class}`).
 * - The `ActivityTaskManager` `START u0 {…}` log line of an activity start
 *   (`services/core/java/com/android/server/wm/ActivityStarter.java`).
 */
import {adbdCredentials} from '../fs.ts';
import {JavaException} from './java.ts';
import type {ShellArgs} from './shell-command.ts';
import {parseUserArg, USER_CURRENT} from './shell-command.ts';
import {addLog, androidState, installedPackage, type AndroidState, type Device} from './state.ts';

/** An intent as the shell commands build it. */
export interface Intent {
  action?: string;
  data?: string;
  type?: string;
  categories: string[];
  component?: {packageName: string; className: string};
  packageName?: string;
  flags: number;
  extras: Record<string, string | number | boolean>;
  /** `--user`: -2 (current) unless given. */
  user: number;
}

/** `Intent.FLAG_ACTIVITY_NEW_TASK`, which `am start` adds. */
export const FLAG_ACTIVITY_NEW_TASK = 0x10000000;
/** `Intent.FLAG_RECEIVER_FROM_SHELL`, which `am broadcast` adds. */
export const FLAG_RECEIVER_FROM_SHELL = 0x400000;
/** `Intent.ACTION_MAIN`. */
export const ACTION_MAIN = 'android.intent.action.MAIN';
/** `Intent.ACTION_VIEW`. */
export const ACTION_VIEW = 'android.intent.action.VIEW';
/** `Intent.CATEGORY_LAUNCHER`. */
export const CATEGORY_LAUNCHER = 'android.intent.category.LAUNCHER';

/** `ComponentName.unflattenFromString`: `pkg/cls` (`.cls` relative to the package), or `undefined` without `/`. */
export function unflattenComponent(text: string): {packageName: string; className: string} | undefined {
  const sep = text.indexOf('/');
  if (sep < 0 || sep + 1 >= text.length) return undefined;
  const packageName = text.slice(0, sep);
  let className = text.slice(sep + 1);
  if (className.startsWith('.')) className = packageName + className;
  return {packageName, className};
}

/** `ComponentName.flattenToShortString`: `pkg/.Cls` when the class is in the package, else `pkg/cls`. */
export function flattenComponent(component: {packageName: string; className: string}): string {
  const {packageName, className} = component;
  if (className.startsWith(packageName) && className[packageName.length] === '.') {
    return `${packageName}/${className.slice(packageName.length)}`;
  }
  return `${packageName}/${className}`;
}

/** Intent-flag options of `Intent.parseCommandArgs` and the flag each adds. */
const FLAG_OPTIONS: Readonly<Record<string, number>> = {
  '--grant-read-uri-permission': 0x1,
  '--grant-write-uri-permission': 0x2,
  '--grant-persistable-uri-permission': 0x40,
  '--grant-prefix-uri-permission': 0x80,
  '--exclude-stopped-packages': 0x10,
  '--include-stopped-packages': 0x20,
  '--debug-log-resolution': 0x8,
  '--activity-brought-to-front': 0x400000,
  '--activity-clear-top': 0x4000000,
  '--activity-clear-when-task-reset': 0x80000,
  '--activity-exclude-from-recents': 0x800000,
  '--activity-launched-from-history': 0x100000,
  '--activity-multiple-task': 0x8000000,
  '--activity-no-animation': 0x10000,
  '--activity-no-history': 0x40000000,
  '--activity-no-user-action': 0x40000,
  '--activity-previous-is-top': 0x1000000,
  '--activity-reorder-to-front': 0x20000,
  '--activity-reset-task-if-needed': 0x200000,
  '--activity-single-top': 0x20000000,
  '--activity-clear-task': 0x8000,
  '--activity-task-on-home': 0x4000,
  '--activity-match-external': 0x800,
  '--receiver-registered-only': 0x40000000,
  '--receiver-replace-pending': 0x20000000,
  '--receiver-foreground': 0x10000000,
  '--receiver-no-abort': 0x8000000,
  '--receiver-include-background': 0x1000000,
};

/**
 * `Intent.parseCommandArgs(cmd, optionHandler)`: the intent options of `args`, the command's
 * own options going to `handle` (which returns whether it took the option), then an optional
 * URI, component or package argument. Throws the `IllegalArgumentException` Android throws for an
 * unknown option (`Unknown option: OPT`), from `frames`.
 */
export function parseIntent(args: ShellArgs, handle: (option: string) => boolean, frames: readonly string[]): Intent {
  const intent: Intent = {categories: [], flags: 0, extras: {}, user: USER_CURRENT};
  for (let option; (option = args.nextOption()) !== undefined;) {
    if (option in FLAG_OPTIONS) {
      intent.flags |= FLAG_OPTIONS[option]!;
      continue;
    }
    switch (option) {
      case '-a':
        intent.action = args.required();
        break;
      case '-d':
        intent.data = args.required();
        break;
      case '-t':
        intent.type = args.required();
        break;
      case '-c':
        intent.categories.push(args.required());
        break;
      case '-n': {
        const text = args.required();
        const component = unflattenComponent(text);
        if (!component) throw new JavaException('java.lang.IllegalArgumentException', `Bad component name: ${text}`, frames);
        intent.component = component;
        break;
      }
      case '-p':
        intent.packageName = args.required();
        break;
      case '-f':
        intent.flags |= Number(args.required());
        break;
      case '-e':
      case '--es':
        intent.extras[args.required()] = args.required();
        break;
      case '--esn':
        intent.extras[args.required()] = '';
        break;
      case '--ei':
      case '--el':
      case '--ef':
      case '--ed':
        intent.extras[args.required()] = Number(args.required());
        break;
      case '--ez': {
        const key = args.required();
        intent.extras[key] = args.required().toLowerCase() === 'true';
        break;
      }
      case '--eu':
      case '--ecn':
      case '--eia':
      case '--eial':
      case '--ela':
      case '--elal':
      case '--efa':
      case '--efal':
      case '--esa':
      case '--esal':
        intent.extras[args.required()] = args.required();
        break;
      case '--user':
        intent.user = parseUserArg(args.required(), frames);
        break;
      default:
        if (!handle(option)) throw new JavaException('java.lang.IllegalArgumentException', `Unknown option: ${option}`, frames);
    }
  }
  const arg = args.next();
  if (arg === undefined) return intent;
  // The last argument makes a base intent the options fill in (`Intent.fillIn` keeps the base's action).
  let base: Partial<Intent>;
  if (arg.includes(':')) base = {action: ACTION_VIEW, data: arg};
  else if (arg.includes('/')) base = {action: ACTION_MAIN, categories: [CATEGORY_LAUNCHER], component: unflattenComponent(arg)};
  else base = {action: ACTION_MAIN, categories: [CATEGORY_LAUNCHER], packageName: arg};
  return {
    ...intent,
    action: base.action ?? intent.action,
    data: base.data ?? intent.data,
    // With `-a`, the base's categories go and the options' fill in; otherwise the base keeps its own.
    categories: intent.action !== undefined ? intent.categories : (base.categories ?? intent.categories),
    component: intent.component ?? base.component,
    packageName: base.packageName ?? intent.packageName,
  };
}

/** `Uri.toSafeString()`. */
export function safeUri(uri: string): string {
  const match = /^([a-zA-Z][\w+.-]*):(.*)$/s.exec(uri);
  if (!match) return uri;
  const scheme = match[1]!;
  let ssp = match[2]!.replace(/#.*$/s, '');
  const lower = scheme.toLowerCase();
  if (['tel', 'sip', 'sms', 'smsto', 'mailto', 'nfc'].includes(lower)) {
    return `${scheme}:${ssp.replace(/[^-@.]/g, 'x')}`;
  }
  if (['http', 'https', 'ftp', 'rtsp'].includes(lower)) {
    const authority = /^\/\/([^/?#]*)/.exec(ssp)?.[1] ?? '';
    const hostPort = authority.replace(/^.*@/, '');
    ssp = `//${hostPort}/...`;
  } else if (ssp.startsWith('//')) {
    ssp = ssp.replace(/\?.*$/s, '');
  }
  return `${scheme}:${ssp}`;
}

/** `Intent.toString()`: `Intent { act=… cat=[…] dat=… typ=… flg=0x… pkg=… cmp=… (has extras) }`. */
export function intentText(intent: Intent, addFlags = 0): string {
  const parts: string[] = [];
  if (intent.action) parts.push(`act=${intent.action}`);
  if (intent.categories.length > 0) parts.push(`cat=[${intent.categories.join(',')}]`);
  if (intent.data) parts.push(`dat=${safeUri(intent.data)}`);
  if (intent.type) parts.push(`typ=${intent.type}`);
  const flags = (intent.flags | addFlags) >>> 0;
  if (flags) parts.push(`flg=0x${flags.toString(16)}`);
  if (intent.packageName) parts.push(`pkg=${intent.packageName}`);
  if (intent.component) parts.push(`cmp=${flattenComponent(intent.component)}`);
  if (Object.keys(intent.extras).length > 0) parts.push('(has extras)');
  return `Intent { ${parts.join(' ')} }`;
}

/**
 * The activity an intent resolves to (`package/class`, short form), or `undefined`: an explicit
 * component of an installed, enabled package; a package's launcher activity; web, phone and
 * messaging URIs; Settings; the home screen.
 */
export function resolveActivity(state: AndroidState, intent: Intent): string | undefined {
  const enabled = (name: string) => {
    const record = installedPackage(state, name);
    return record?.enabled ? record : undefined;
  };
  if (intent.component) return enabled(intent.component.packageName) ? flattenComponent(intent.component) : undefined;
  if (intent.packageName) {
    const record = enabled(intent.packageName);
    if (record?.launcher && (!intent.action || intent.action === ACTION_MAIN)) return record.launcher;
    return undefined;
  }
  const data = intent.data?.toLowerCase() ?? '';
  if (intent.action === ACTION_VIEW || (!intent.action && data)) {
    if (/^https?:/.test(data))
      return enabled('com.android.chrome') ? 'com.android.chrome/com.google.android.apps.chrome.IntentDispatcher' : undefined;
    if (/^tel:/.test(data))
      return enabled('com.google.android.dialer') ? 'com.google.android.dialer/.extensions.GoogleDialtactsActivity' : undefined;
    if (/^(sms|smsto):/.test(data)) return 'com.google.android.apps.messaging/.ui.conversation.LaunchConversationShimActivity';
    if (/^market:/.test(data)) return 'com.android.vending/com.google.android.finsky.activities.MarketDeepLinkHandlerActivity';
  }
  if (intent.action === 'android.settings.SETTINGS') return 'com.android.settings/.Settings';
  if (intent.action === ACTION_MAIN && intent.categories.includes('android.intent.category.HOME')) {
    return 'com.google.android.apps.nexuslauncher/.NexusLauncherActivity';
  }
  return undefined;
}

/**
 * Records a started activity (`androidState(device).activities`) and logs the
 * `ActivityTaskManager: START u0 {…}` line. Returns whether the activity was already in front
 * (the intent is then delivered to it, `START_DELIVERED_TO_TOP`).
 */
export function startActivity(device: Device, intent: Intent, component: string): boolean {
  const state = androidState(device);
  const delivered = state.foreground === component;
  state.foreground = component;
  state.activities.push({
    component,
    action: intent.action,
    data: intent.data,
    categories: [...intent.categories],
    extras: {...intent.extras},
    user: intent.user < 0 ? 0 : intent.user,
  });
  const shown = intentText({...intent, component: unflattenComponent(component)}, FLAG_ACTIVITY_NEW_TASK);
  addLog(device, {
    buffer: 3,
    priority: 4,
    tag: 'ActivityTaskManager',
    message: `START u0 {${shown.slice('Intent { '.length, -' }'.length)}} with LAUNCH_MULTIPLE from uid ${adbdCredentials(device.properties).uid} (BAL_ALLOW_PERMISSION) result code=${delivered ? 3 : 0}`,
    pid: 1501,
    tid: 1566,
    uid: 1000,
  });
  return delivered;
}
