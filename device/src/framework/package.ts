/**
 * The package manager's shell command: `cmd package …`, which `pm` runs (`/system/bin/pm` is
 * `cmd package "$@"`), and `abb_exec:package…`. Subcommands: `list packages|features|libraries|
 * users`, `path`, `-p`, `install`, `install-create|write|commit|abandon|destroy|remove`,
 * `install-existing`, `uninstall`, `enable`/`disable`/`disable-user`/`disable-until-used`/
 * `default-state`, `clear`, `grant`/`revoke`, `resolve-activity`, `get-install-location`,
 * `has-feature`, `get-max-users`, `help`.
 *
 * Facts (android-14.0.0_r50):
 * - `frameworks/base/services/core/java/com/android/server/pm/PackageManagerShellCommand.java`:
 *   `runListPackages` (options; each line a key of a `HashMap`, so lines come in the map's
 *   order; `Error: Unknown option: OPT`, `Error: ` + a `RuntimeException` of the options),
 *   `runList` (`Error: didn't specify type of data to list`, `Error: unknown list type 'T'`),
 *   `runListFeatures` (`feature:NAME`, `reqGlEsVersion=0x…` for the unnamed one, sorted),
 *   `runListLibraries` (`library:NAME`, sorted), `runPath`/`displayPackageFilePath`
 *   (`package:` lines; status 1 and no output for an unknown package), `doRunInstall`
 *   (`Error: must either specify a package size or an APK file`, a session per install, the
 *   splits named after their files, `Success`), `setParamsSize` (`Error: Can't open file: P` on
 *   standard error, then the same `IllegalArgumentException`), `makeInstallParams`
 *   (`Unknown option OPT`), `runInstallCreate` (`Success: created install session [N]`),
 *   `doWriteSplit` (`Error: must specify an APK size`, `Success: streamed N bytes`),
 *   `doCommitSession` (`Failure [MESSAGE]`), `doAbandonSession`/`doRemoveSplits` (`Success`),
 *   `runInstallExisting` (`Package P installed for user: U`, a `NameNotFoundException`'s
 *   `toString()`), `runUninstall` (`Error: package name not specified`, `Failure [not installed
 *   for U]`, `Success`/`Failure [MESSAGE]`), `runRemoveSplits`, `runClear` (`Success`; `Failed`
 *   on standard error), `runSetEnabledSetting` (`Package P new state: S`, `Component {…} new
 *   state: S`), `runGrantRevokePermission`, `runResolveActivity`/`printResolveInfo` (`No activity
 *   found`, `--brief`, `--components`), `runGetInstallLocation` (`0[auto]`), `runHasFeature`,
 *   `runGetMaxUsers` (`Maximum supported users: N`); `list users` runs the user service's
 *   `list` (`UserManagerServiceShellCommand`: `Users:`, a tab, `UserInfo{ID:NAME:FLAGS}`,
 *   ` running`).
 * - `frameworks/base/core/java/android/os/ShellCommand.java` `openFileForSystem`:
 *   `Error: Unable to open file: P` and `Consider using a file under /data/local/tmp/`.
 * - `PackageInstallerService.openSessionInternal`: `Caller has no access to session N`
 *   (a `SecurityException`, printed by `BasicShellCommandHandler.exec`).
 * - `PackageInstallerSession` validation: `Session: N. No packages staged in DIR`,
 *   `Split not found: NAME` (`INSTALL_FAILED_INVALID_APK`), and the parse failure of a file that
 *   is not an APK (`INSTALL_PARSE_FAILED_NOT_APK: Failed to parse …: Failed to load asset path …`);
 *   `PackageManager.installStatusToString` names the codes.
 * - An unsigned APK (android-14.0.0_r50): `PackageInstallerSession.getAddedApkLitesLocked` parses
 *   each staged file with `PARSE_COLLECT_CERTIFICATES`, and `ApkLiteParseUtils.parseApkLiteInner`
 *   asks `FrameworkParsingPackageUtils.getSigningDetails` with a target SDK of 0, so the minimum
 *   scheme is JAR; `frameworks/base/core/java/android/util/apk/ApkSignatureVerifier.java`
 *   (`verifyV1Signature`) then fails with `INSTALL_PARSE_FAILED_NO_CERTIFICATES`: `Failed to
 *   collect certificates from PATH` when `StrictJarFile` throws, which it does through
 *   `frameworks/base/core/java/android/util/jar/StrictJarManifest.java` (`read` of a null
 *   `META-INF/MANIFEST.MF`: `art/runtime/common_throws.cc`'s `Attempt to get length of null
 *   array`), or `Package PATH has no certificates at entry AndroidManifest.xml`
 *   (`ApkLiteParseUtils.ANDROID_MANIFEST_FILENAME`). The session's `handleStreamValidateAndCommit`
 *   reports `ExceptionUtils.getCompleteMessage` of the exception, so the cause's message follows
 *   after `: `. An app targeting 30 or later with only a JAR signature passes that parse, then
 *   `frameworks/base/services/core/java/com/android/server/pm/ScanPackageUtils.java`
 *   (`assertMinSignatureSchemeIsValid`: `No signature found in package of version 2 or newer for
 *   package P`, `ApkSignatureVerifier.getMinimumSignatureSchemeVersionForTargetSdk`) fails its scan,
 *   which `InstallPackageHelper.installPackagesLI` reports as `Scanning Failed.` (`InstallRequest.setError`).
 *   Outputs of `adb install` pasted in public issues (2022 to 2024) show the same texts.
 * - `DeletePackageHelper.deletePackageX`/`mayDeletePackageLocked`: without `--user` a system
 *   app can be uninstalled only if it has an update (`disabledPs != null`); then the update goes
 *   and the factory APK comes back; otherwise `DELETE_FAILED_INTERNAL_ERROR`, as for an unknown
 *   package. With `--user`, a system app is uninstalled for that user (`DELETE_SYSTEM_APP`).
 * - `PackageManagerService.setEnabledSettings`: `Unknown package: P` (`IllegalArgumentException`).
 * - `PermissionManagerServiceImpl`: granting to an unknown package only logs.
 * - Other files of the texts above (android-14.0.0_r50):
 *   `frameworks/base/services/core/java/com/android/server/pm/PackageInstallerService.java`,
 *   `frameworks/base/services/core/java/com/android/server/pm/PackageInstallerSession.java`,
 *   `frameworks/base/core/java/android/content/pm/parsing/ApkLiteParseUtils.java`,
 *   `frameworks/base/services/core/java/com/android/server/pm/InstallPackageHelper.java`
 *   (`preparePackageLI`: `Attempt to re-install P without first uninstalling.`),
 *   `frameworks/base/services/core/java/com/android/server/pm/PackageManagerServiceUtils.java`
 *   (`checkDowngrade`: `Downgrade detected: Update version code N is older than current M`),
 *   `frameworks/base/services/core/java/com/android/server/pm/UserManagerServiceShellCommand.java`,
 *   `frameworks/base/core/java/android/content/pm/ResolveInfo.java` and
 *   `frameworks/base/core/java/android/content/pm/PackageItemInfo.java` (`dump`),
 *   `frameworks/base/core/java/android/content/pm/PackageManager.java` (`NameNotFoundException`),
 *   `frameworks/base/core/java/android/content/Intent.java` (`parseCommandArgs`),
 *   `frameworks/base/services/core/java/com/android/server/pm/PackageManagerService.java`
 *   (`setEnabledSettings`, and `IPackageManagerImpl` in the stack frames), with
 *   `frameworks/base/core/java/android/content/pm/IPackageManager.aidl` and
 *   `frameworks/base/core/java/android/os/Binder.java` below it.
 */
import {apkSignatures, parseApk, type ApkInfo, type ApkSignatures} from '../apk.ts';
import {adbdCredentials, AID, basename, dirname, FsError} from '../fs.ts';
import {dataAppPath} from '../packages.ts';
import type {CommandContext, CommandHandler} from '../types.ts';
import {parseIntent, resolveActivity, unflattenComponent} from './intent.ts';
import {arrayMapOrder, hashMapOrder, JavaException, parseJavaInt, parseJavaLong} from './java.ts';
import {
  eprintln,
  execShellCommand,
  handleDefaultCommands,
  parseUserArg,
  println,
  readAllStdin,
  SHELL_COMMAND_FRAMES,
  ShellArgs,
  USER_ALL,
  USER_CURRENT,
  userExists,
} from './shell-command.ts';
import {addLog, androidState, installedPackage, type AndroidState, type InstallSession, type PackageRecord} from './state.ts';

/**
 * The frames below `PackageManagerShellCommand.onCommand` of an exception: the binder call of
 * `cmd package` into system_server, line numbers as an Android 13/14-era device prints them (a
 * capture of `Exception occurred while executing 'clear'`).
 */
const BINDER_FRAMES: readonly string[] = [
  ...SHELL_COMMAND_FRAMES,
  'com.android.server.pm.PackageManagerService$IPackageManagerImpl.onShellCommand(PackageManagerService.java:6823)',
  'android.os.Binder.shellCommand(Binder.java:1092)',
  'android.os.Binder.onTransact(Binder.java:912)',
  'android.content.pm.IPackageManager$Stub.onTransact(IPackageManager.java:4352)',
  'com.android.server.pm.PackageManagerService$IPackageManagerImpl.onTransact(PackageManagerService.java:6807)',
  'android.os.Binder.execTransactInternal(Binder.java:1392)',
  'android.os.Binder.execTransact(Binder.java:1299)',
];

/** `onCommand`'s line for each subcommand (plausible: where its `case` is in Android 14's file). */
const ON_COMMAND_LINE_NUMBERS: Readonly<Record<string, number>> = {
  path: 218,
  list: 222,
  'resolve-activity': 226,
  install: 236,
  'install-abandon': 242,
  'install-destroy': 243,
  'install-commit': 246,
  'install-create': 248,
  'install-remove': 250,
  'install-write': 252,
  'install-existing': 254,
  uninstall: 275,
  clear: 277,
  enable: 279,
  disable: 281,
  'disable-user': 283,
  'disable-until-used': 286,
  'default-state': 289,
  grant: 303,
  revoke: 305,
};

/** The frames of an exception thrown in `method` (at `line`) of the shell command, running `command`. */
function commandFrames(command: string, method?: string, line?: number): string[] {
  const result = [
    `com.android.server.pm.PackageManagerShellCommand.onCommand(PackageManagerShellCommand.java:${ON_COMMAND_LINE_NUMBERS[command] ?? 300})`,
    ...BINDER_FRAMES,
  ];
  if (method) result.unshift(`com.android.server.pm.PackageManagerShellCommand.${method}(PackageManagerShellCommand.java:${line})`);
  return result;
}

/** The first lines of `PackageManagerShellCommand.onHelp` (the rest is not simulated). */
const HELP_LINES = [
  'Package manager (package) commands:',
  '  help',
  '    Print this help text.',
  '',
  '  path [--user USER_ID] PACKAGE',
  '    Print the path to the .apk of the given PACKAGE.',
];

/** The system features `pm list features` and `pm has-feature` know (a part of a Pixel 7's). */
const FEATURES = [
  'android.hardware.bluetooth',
  'android.hardware.camera',
  'android.hardware.nfc',
  'android.hardware.touchscreen',
  'android.hardware.wifi',
  'android.software.webview',
];

/** The system's shared libraries `pm list libraries` prints (a part of a Pixel 7's). */
const LIBRARIES = ['android.test.base', 'android.test.mock', 'android.test.runner', 'org.apache.http.legacy'];

/** `UserManager.getMaxSupportedUsers()` of a Pixel 7 (`fw.max_users`). */
const MAX_USERS = 4;

/** `SecurityException` of `PackageInstallerService.openSessionInternal` for a session the caller can't open. */
function noSessionAccess(command: string, id: number, method: string, line: number): JavaException {
  return new JavaException('java.lang.SecurityException', `Caller has no access to session ${id}`, [
    'com.android.server.pm.PackageInstallerService.openSessionInternal(PackageInstallerService.java:1057)',
    'com.android.server.pm.PackageInstallerService.openSession(PackageInstallerService.java:1046)',
    `com.android.server.pm.PackageManagerShellCommand.${method}(PackageManagerShellCommand.java:${line})`,
    ...commandFrames(command),
  ]);
}

/** `PackageInstallerService.openSession(id)`, throwing as Android does for an unknown session. */
function openSession(state: AndroidState, command: string, id: number, method: string, line: number): InstallSession {
  const session = state.sessions.get(id);
  if (!session) throw noSessionAccess(command, id, method, line);
  return session;
}

/** The session id argument: `Integer.parseInt(getNextArg())`. */
function sessionIdArg(args: ShellArgs, command: string, method: string, line: number): number {
  return parseJavaInt(args.next(), [
    'java.lang.Integer.parseInt(Integer.java:630)',
    'java.lang.Integer.parseInt(Integer.java:786)',
    `com.android.server.pm.PackageManagerShellCommand.${method}(PackageManagerShellCommand.java:${line})`,
    ...commandFrames(command),
  ]);
}

/**
 * `ShellCommand.openFileForSystem(path, "r")`: the file's bytes, read as the calling shell can
 * (through `cmd`'s shell callback), or `undefined` after printing Android's two error lines.
 */
async function openFileForSystem(context: CommandContext, path: string): Promise<Uint8Array | undefined> {
  try {
    const full = path.startsWith('/') ? path : `${context.cwd.replace(/\/$/, '')}/${path}`;
    return context.device.fs.readFile(full, {cred: adbdCredentials(context.device.properties)});
  } catch (error) {
    if (!(error instanceof FsError)) throw error;
    await eprintln(context, `Error: Unable to open file: ${path}`);
    if (!path.startsWith('/data/local/tmp/')) await eprintln(context, 'Consider using a file under /data/local/tmp/');
    return undefined;
  }
}

/** What `makeInstallParams` read. */
interface InstallParams {
  installer: string | null;
  replaceExisting: boolean;
  downgrade: boolean;
  size: number;
  user: number;
  inheritFrom?: string;
}

/** `makeInstallParams`: the install options (`Unknown option OPT` for others). */
function makeInstallParams(args: ShellArgs, command: string): InstallParams {
  const params: InstallParams = {installer: null, replaceExisting: true, downgrade: false, size: -1, user: USER_ALL};
  const where = commandFrames(command, 'makeInstallParams', 3331);
  for (let option; (option = args.nextOption()) !== undefined;) {
    switch (option) {
      case '-R':
        params.replaceExisting = false;
        break;
      case '-i': {
        const installer = args.next();
        if (installer === undefined) throw new JavaException('java.lang.IllegalArgumentException', 'Missing installer package', where);
        params.installer = installer;
        break;
      }
      case '-d':
        params.downgrade = true;
        break;
      case '-p': {
        const name = args.next();
        if (name === undefined) throw new JavaException('java.lang.IllegalArgumentException', 'Missing inherit package name', where);
        params.inheritFrom = name;
        break;
      }
      case '--pkg':
        if (args.next() === undefined) throw new JavaException('java.lang.IllegalArgumentException', 'Missing package name', where);
        break;
      case '-S': {
        const size = parseJavaLong(args.next(), where);
        if (size <= 0) throw new JavaException('java.lang.IllegalArgumentException', 'Size must be positive', where);
        params.size = size;
        break;
      }
      case '--user':
        params.user = parseUserArg(args.required(), where);
        break;
      case '--originating-uri':
      case '--referrer':
      case '--abi':
      case '--install-location':
      case '--install-reason':
      case '--force-uuid':
        args.next();
        break;
      case '--staged-ready-timeout':
        args.required();
        break;
      case '--update-ownership':
      case '--enable-rollback':
        params.installer ??= 'com.android.shell';
        break;
      case '-r':
      case '-t':
      case '-f':
      case '-g':
      case '--restrict-permissions':
      case '--dont-kill':
      case '--ephemeral':
      case '--instant':
      case '--instantapp':
      case '--full':
      case '--preload':
      case '--force-sdk':
      case '--apex':
      case '--force-non-staged':
      case '--multi-package':
      case '--staged':
      case '--force-queryable':
      case '--skip-verification':
      case '--skip-enable':
      case '--bypass-low-target-sdk-block':
        break;
      default:
        throw new JavaException('java.lang.IllegalArgumentException', `Unknown option ${option}`, where);
    }
  }
  return params;
}

/**
 * Why Android collects no certificates from an APK at `path` (the session's staged file) that
 * carries `signatures`, or `undefined` when it carries one. With no APK Signing Block, Android's
 * verifier falls back to the JAR signature (`ApkSignatureVerifier.verifyV1Signature`, the minimum
 * scheme of the session's first parse being JAR): `StrictJarFile` reads `META-INF/MANIFEST.MF`,
 * and without one `StrictJarManifest.read` dereferences a null array (ART's
 * `NullPointerException`, whose message the failure carries after its own, as
 * `ExceptionUtils.getCompleteMessage` joins them); with a manifest but no signature the
 * certificates of `AndroidManifest.xml` are empty. Signatures are found, never verified
 * (`apkSignatures`).
 */
function noCertificatesText(path: string, signatures: ApkSignatures): string | undefined {
  if (signatures.v1 || signatures.v2 || signatures.v3) return undefined;
  if (!signatures.jarManifest) return `Failed to collect certificates from ${path}: Attempt to get length of null array`;
  return `Package ${path} has no certificates at entry AndroidManifest.xml`;
}

/** `SigningDetails.SignatureSchemeVersion.SIGNING_BLOCK_V2`, the minimum scheme for a target SDK of 30 or later. */
const SIGNING_BLOCK_V2 = 2;

/** The message of `ScanPackageUtils.assertMinSignatureSchemeIsValid` for an app with only a JAR signature. */
function minSignatureSchemeText(packageName: string): string {
  return `No signature found in package of version ${SIGNING_BLOCK_V2} or newer for package ${packageName}`;
}

/** `PackageManager.installStatusToString(status, message)` of a failed install. */
function failureText(code: string, message: string): string {
  return `Failure [${code}: ${message}]`;
}

/**
 * Commits a session's files: parses them, installs the package they name (an update keeps the
 * uid; a system app becomes an updated system app), and answers `Success` or the `Failure […]`
 * line `doCommitSession` prints.
 */
function commitSession(context: CommandContext, session: InstallSession, options: {skipExisting: boolean; downgrade: boolean}): string {
  const device = context.device;
  const state = androidState(device);
  const stage = `/data/app/vmdl${session.id}.tmp`;
  const files = [...session.files];
  const inherited = session.inheritFrom === undefined ? undefined : state.packages.get(session.inheritFrom);
  if (files.length === 0 && session.removeSplits.length === 0) {
    return failureText('INSTALL_FAILED_INVALID_APK', `Session: ${session.id}. No packages staged in ${stage}`);
  }
  const parsed: ({name: string; data: Uint8Array; signatures: ApkSignatures} & ApkInfo)[] = [];
  for (const [name, data] of files) {
    // `validateApkInstallLocked` parses each file with its certificates (`ApkLiteParseUtils.parseApkLite`
    // with PARSE_COLLECT_CERTIFICATES): the file first, then its signatures, then its manifest.
    const path = `${stage}/${name}`;
    const notApk = failureText('INSTALL_PARSE_FAILED_NOT_APK', `Failed to parse ${path}: Failed to load asset path ${path}`);
    const signatures = apkSignatures(data);
    if (!signatures) return notApk;
    const noCertificates = noCertificatesText(path, signatures);
    if (noCertificates) return failureText('INSTALL_PARSE_FAILED_NO_CERTIFICATES', noCertificates);
    const info = parseApk(data);
    if (!info) return notApk;
    parsed.push({name, data, signatures, ...info});
  }
  const base = parsed.find((apk) => apk.split === undefined);
  const target = base ?? inherited;
  if (!target) return failureText('INSTALL_FAILED_INVALID_APK', 'Full install must include a base package');
  const packageName = base ? base.packageName : inherited!.name;
  const existing = state.packages.get(packageName);
  for (const split of session.removeSplits) {
    if (!existing?.splits.includes(split)) return failureText('INSTALL_FAILED_INVALID_APK', `Split not found: ${split}`);
  }
  if (existing?.installed && base && options.skipExisting) {
    return failureText('INSTALL_FAILED_ALREADY_EXISTS', `Attempt to re-install ${packageName} without first uninstalling.`);
  }
  if (existing?.installed && base && base.versionCode < existing.versionCode && !options.downgrade) {
    return failureText(
      'INSTALL_FAILED_VERSION_DOWNGRADE',
      `Downgrade detected: Update version code ${base.versionCode} is older than current ${existing.versionCode}`,
    );
  }
  // The scan (`InstallPackageHelper.installPackagesLI`) then wants a v2 or later signature of an
  // app that targets Android 11 or later: a JAR signature alone is not enough.
  if (base && base.targetSdkVersion >= 30 && !base.signatures.v2 && !base.signatures.v3) {
    return failureText('INSTALL_PARSE_FAILED_NO_CERTIFICATES', `Scanning Failed.: ${minSignatureSchemeText(packageName)}`);
  }
  // A new code path for every install (Android picks random names; these come from the session id).
  const fs = device.fs;
  const path = dataAppPath(packageName, session.id);
  const write = (file: string, data: Uint8Array) => fs.writeFile(file, data, {mode: 0o644, uid: AID.system, gid: AID.system});
  fs.mkdir(dirname(path), {recursive: true, mode: 0o775});
  fs.chown(dirname(path), AID.system, AID.system);
  fs.chown(dirname(dirname(path)), AID.system, AID.system);
  const splits = new Map<string, Uint8Array | undefined>();
  if (existing && !base) {
    write(path, fs.readFile(existing.path));
    for (const split of existing.splits) if (!session.removeSplits.includes(split)) splits.set(split, undefined);
  } else write(path, base!.data);
  for (const apk of parsed) if (apk !== base) splits.set(apk.split ?? apk.name, apk.data);
  for (const [split, data] of splits) {
    write(`${dirname(path)}/split_${split}.apk`, data ?? fs.readFile(`${dirname(existing!.path)}/split_${split}.apk`));
  }
  if (existing?.installed && (!existing.system || existing.updated)) {
    try {
      fs.remove(dirname(dirname(existing.path)), {recursive: true});
    } catch {
      // Already gone.
    }
  }
  const uid = existing?.uid ?? state.nextUid++;
  const system = existing?.system ?? false;
  state.packages.set(packageName, {
    ...(existing ?? {}),
    name: packageName,
    path,
    splits: [...splits.keys()],
    system,
    updated: system ? true : undefined,
    systemPath: system ? (existing?.systemPath ?? existing?.path) : undefined,
    uid,
    versionCode: base?.versionCode ?? existing!.versionCode,
    versionName: base?.versionName ?? existing!.versionName,
    installer: session.installer ?? (base ? null : (existing?.installer ?? null)),
    enabled: existing?.enabled ?? true,
    installed: true,
    launcher: existing?.launcher ?? `${packageName}/.MainActivity`,
    firstInstallTime: existing?.firstInstallTime ?? fs.nowSeconds(),
  });
  if (!fs.stat(`/data/data/${packageName}`)) {
    fs.mkdir(`/data/data/${packageName}`, {mode: 0o700});
    fs.chown(`/data/data/${packageName}`, uid, uid);
  }
  addLog(device, {
    buffer: 3,
    priority: 4,
    tag: 'PackageManager',
    message: `Integrity check passed for file:///data/app/vmdl${session.id}.tmp`,
    pid: 1501,
    tid: 1539,
    uid: 1000,
  });
  return 'Success';
}

/** A new install session (`PackageInstallerService.createSession`). */
function createSession(state: AndroidState, params: InstallParams): InstallSession {
  const id = state.nextSessionId++;
  const session: InstallSession = {id, files: new Map(), removeSplits: [], installer: params.installer, inheritFrom: params.inheritFrom};
  state.sessions.set(id, session);
  return session;
}

/** `pm list packages [OPTIONS] [FILTER]`. */
async function runListPackages(context: CommandContext, args: ShellArgs, showSourceDir: boolean): Promise<number> {
  const state = androidState(context.device);
  const o = {d: false, e: false, s: false, three: false, i: false, U: false, u: false, versionCode: false, apexOnly: false, uid: -1};
  try {
    for (let option; (option = args.nextOption()) !== undefined;) {
      switch (option) {
        case '-d':
          o.d = true;
          break;
        case '-e':
          o.e = true;
          break;
        case '-a':
        case '-l':
        case '--factory-only':
        case '--match-libraries':
        case '--show-stopped':
          break;
        case '-f':
          showSourceDir = true;
          break;
        case '-i':
          o.i = true;
          break;
        case '-s':
          o.s = true;
          break;
        case '-U':
          o.U = true;
          break;
        case '-u':
          o.u = true;
          break;
        case '-3':
          o.three = true;
          break;
        case '--show-versioncode':
          o.versionCode = true;
          break;
        case '--apex-only':
          o.apexOnly = true;
          break;
        case '--user':
          parseUserArg(args.required(), args.frames);
          break;
        case '--uid':
          o.U = true;
          o.uid = parseJavaInt(args.required(), args.frames);
          break;
        default:
          await println(context, `Error: Unknown option: ${option}`);
          return -1;
      }
    }
  } catch (error) {
    if (!(error instanceof JavaException)) throw error;
    await println(context, `Error: ${error.toString()}`);
    return -1;
  }
  const filter = args.next();
  const keys: string[] = [];
  const uids = new Map<string, number>();
  // `getInstalledPackages` walks the package settings, an `ArrayMap` by package name; each line is
  // then a key `computeIfAbsent` adds to a `HashMap`, which prints them in its own order.
  for (const name of arrayMapOrder([...state.packages.keys()])) {
    const record = state.packages.get(name)!;
    if (!record.installed && !o.u) continue;
    if (filter !== undefined && !record.name.includes(filter)) continue;
    if (o.uid !== -1 && record.uid !== o.uid) continue;
    if ((o.d && record.enabled) || (o.e && !record.enabled) || (o.s && !record.system) || (o.three && record.system) || o.apexOnly)
      continue;
    const key = packageLine(record, {showSourceDir, versionCode: o.versionCode, installer: o.i});
    keys.push(key);
    if (o.U) uids.set(key, record.uid);
  }
  for (const key of hashMapOrder(keys, true)) {
    const uid = uids.get(key);
    await println(context, uid === undefined ? key : `${key} uid:${uid}`);
  }
  return 0;
}

/** One key of `runListPackages`' map: `package:[PATH=]NAME[ versionCode:N][  installer=I]`. */
function packageLine(record: PackageRecord, show: {showSourceDir: boolean; versionCode: boolean; installer: boolean}): string {
  let line = 'package:';
  if (show.showSourceDir) line += `${record.path}=`;
  line += record.name;
  if (show.versionCode) line += ` versionCode:${record.versionCode}`;
  if (show.installer) line += `  installer=${record.installer}`;
  return line;
}

/** `displayPackageFilePath`: `package:` + the base APK and each split; status 1 when not installed. */
async function displayPackageFilePath(context: CommandContext, name: string): Promise<number> {
  const record = installedPackage(androidState(context.device), name);
  if (!record) return 1;
  await println(context, `package:${record.path}`);
  for (const split of record.splits) await println(context, `package:${dirname(record.path)}/split_${split}.apk`);
  return 0;
}

/** `pm list TYPE …`. */
async function runList(context: CommandContext, args: ShellArgs): Promise<number> {
  const type = args.next();
  switch (type) {
    case undefined:
      await println(context, "Error: didn't specify type of data to list");
      return -1;
    case 'package':
    case 'packages':
      return runListPackages(context, args, false);
    case 'features': {
      const gles = Number(context.device.properties.get('ro.opengles.version') ?? 0);
      await println(context, `reqGlEsVersion=0x${gles.toString(16)}`);
      for (const feature of [...FEATURES].sort()) await println(context, `feature:${feature}`);
      return 0;
    }
    case 'libraries':
      for (const library of [...LIBRARIES].sort()) await println(context, `library:${library}`);
      return 0;
    case 'users':
      await println(context, 'Users:');
      await println(context, '\tUserInfo{0:Owner:c13} running');
      return 0;
    default:
      await println(context, `Error: unknown list type '${type}'`);
      return -1;
  }
}

/** `pm install [OPTIONS] [PATH…|-]` (`doRunInstall`). */
async function runInstall(context: CommandContext, args: ShellArgs): Promise<number> {
  const state = androidState(context.device);
  const params = makeInstallParams(args, 'install');
  const paths = args.rest();
  const fromStdIn = paths.length === 0 || paths[0] === '-';
  if (fromStdIn && params.size === -1) {
    await println(context, 'Error: must either specify a package size or an APK file');
    return 1;
  }
  if (fromStdIn && paths.length > 1) {
    await println(context, "Error: can't specify SPLIT(s) along with STDIN");
    return 1;
  }
  const files: [string, Uint8Array][] = [];
  if (fromStdIn) files.push(['base.apk', await readAllStdin(context, params.size)]);
  else {
    // `setParamsSize` opens every file first; then `doWriteSplits` names each after its file.
    for (const path of paths) {
      const data = await openFileForSystem(context, path);
      if (!data) {
        await eprintln(context, `Error: Can't open file: ${path}`);
        throw new JavaException('java.lang.IllegalArgumentException', `Error: Can't open file: ${path}`, [
          'com.android.server.pm.PackageManagerShellCommand.setParamsSize(PackageManagerShellCommand.java:640)',
          'com.android.server.pm.PackageManagerShellCommand.doRunInstall(PackageManagerShellCommand.java:1578)',
          'com.android.server.pm.PackageManagerShellCommand.runInstall(PackageManagerShellCommand.java:1543)',
          ...commandFrames('install'),
        ]);
      }
      files.push([paths.length > 1 ? basename(path) : 'base.apk', data]);
    }
  }
  const session = createSession(state, params);
  for (const [name, data] of files) session.files.set(name, data);
  state.sessions.delete(session.id);
  const result = commitSession(context, session, {skipExisting: !params.replaceExisting, downgrade: params.downgrade});
  await println(context, result);
  return result === 'Success' ? 0 : 1;
}

/** `pm install-write [-S SIZE] ID NAME PATH|-` (`doWriteSplit`). */
async function runInstallWrite(context: CommandContext, args: ShellArgs): Promise<number> {
  const state = androidState(context.device);
  let size = -1;
  for (let option; (option = args.nextOption()) !== undefined;) {
    if (option === '-S') size = parseJavaLong(args.next(), commandFrames('install-write', 'runInstallWrite', 1450));
    else
      throw new JavaException(
        'java.lang.IllegalArgumentException',
        `Unknown option: ${option}`,
        commandFrames('install-write', 'runInstallWrite', 1452),
      );
  }
  const id = sessionIdArg(args, 'install-write', 'runInstallWrite', 1456);
  const name = args.next() ?? 'base.apk';
  const path = args.next();
  const session = openSession(state, 'install-write', id, 'doWriteSplit', 4022);
  let data: Uint8Array;
  if (path !== undefined && path !== '-') {
    const file = await openFileForSystem(context, path);
    if (!file) return -1;
    data = file;
    size = file.length;
  } else {
    if (size <= 0) {
      await eprintln(context, 'Error: must specify an APK size');
      return 1;
    }
    data = await readAllStdin(context, size);
  }
  session.files.set(name, data);
  await println(context, `Success: streamed ${size} bytes`);
  return 0;
}

/** `pm uninstall [-k] [--user U] [--versionCode V] PACKAGE [SPLIT…]` (`runUninstall`). */
async function runUninstall(context: CommandContext, args: ShellArgs): Promise<number> {
  const state = androidState(context.device);
  const fs = context.device.fs;
  let keepData = false;
  let user = USER_ALL;
  for (let option; (option = args.nextOption()) !== undefined;) {
    if (option === '-k') keepData = true;
    else if (option === '--user') user = parseUserArg(args.required(), args.frames);
    else if (option === '--versionCode') parseJavaLong(args.required(), args.frames);
    else {
      await println(context, `Error: Unknown option: ${option}`);
      return 1;
    }
  }
  const name = args.next();
  if (name === undefined) {
    await println(context, 'Error: package name not specified');
    return 1;
  }
  // `uninstall PACKAGE SPLIT…` removes only those splits, through a session that inherits the rest.
  const splitNames = args.rest();
  if (splitNames.length > 0) {
    const session = createSession(state, {
      installer: null,
      replaceExisting: true,
      downgrade: false,
      size: -1,
      user: USER_ALL,
      inheritFrom: name,
    });
    session.removeSplits.push(...splitNames);
    state.sessions.delete(session.id);
    const result = commitSession(context, session, {skipExisting: false, downgrade: false});
    await println(context, result);
    return result === 'Success' ? 0 : 1;
  }
  const record = state.packages.get(name);
  if (user !== USER_ALL) {
    // One user: `getPackageInfo` for that user first; a system app is then only uninstalled for it.
    const target = user === USER_CURRENT ? 0 : user;
    if (!record?.installed || !userExists(target)) {
      await println(context, `Failure [not installed for ${target}]`);
      return 1;
    }
    if (record.system) {
      record.installed = false;
      await println(context, 'Success');
      return 0;
    }
  }
  if (!record || (record.system && !record.updated)) {
    // `deletePackageX`: unknown package, or `mayDeletePackageLocked` refuses a system app without update.
    await println(context, 'Failure [DELETE_FAILED_INTERNAL_ERROR]');
    return 1;
  }
  try {
    fs.remove(dirname(dirname(record.path)), {recursive: true});
  } catch {
    // Already gone.
  }
  if (record.system) {
    // The update goes; the factory package comes back (decompressed again into `/data/app` for a stub).
    record.path = record.compressedPath ? dataAppPath(record.name, 1) : (record.systemPath ?? record.path);
    record.updated = false;
    record.installer = null;
    record.splits = [];
    record.installed = true;
  } else {
    state.packages.delete(name);
    if (!keepData) {
      try {
        fs.remove(`/data/data/${name}`, {recursive: true});
      } catch {
        // Already gone.
      }
    }
  }
  await println(context, 'Success');
  return 0;
}

/** `pm enable|disable|disable-user|disable-until-used|default-state [--user U] PACKAGE|COMPONENT`. */
async function runSetEnabledSetting(context: CommandContext, args: ShellArgs, command: string): Promise<number> {
  const state = androidState(context.device);
  const option = args.nextOption();
  if (option === '--user') parseUserArg(args.required(), args.frames);
  const target = args.next();
  if (target === undefined) {
    await eprintln(context, 'Error: no package or component specified');
    return 1;
  }
  const component = unflattenComponent(target);
  const name = component?.packageName ?? target;
  const record = installedPackage(state, name);
  const newState = {
    enable: 'enabled',
    disable: 'disabled',
    'disable-user': 'disabled-user',
    'disable-until-used': 'disabled-until-used',
    'default-state': 'default',
  }[command]!;
  if (!record) {
    throw new JavaException('java.lang.IllegalArgumentException', `Unknown package: ${name}`, [
      'com.android.server.pm.PackageManagerService.setEnabledSettings(PackageManagerService.java:3812)',
      `com.android.server.pm.PackageManagerService$IPackageManagerImpl.${component ? 'setComponentEnabledSetting' : 'setApplicationEnabledSetting'}(PackageManagerService.java:5645)`,
      'com.android.server.pm.PackageManagerShellCommand.runSetEnabledSetting(PackageManagerShellCommand.java:2356)',
      ...commandFrames(command),
    ]);
  }
  if (component) {
    await println(context, `Component {${component.packageName}/${component.className}} new state: ${newState}`);
    return 0;
  }
  record.enabled = command === 'enable' || command === 'default-state';
  await println(context, `Package ${target} new state: ${newState}`);
  return 0;
}

/** `pm resolve-activity [--brief|--components] [--user U] INTENT` (`runResolveActivity`). */
async function runResolveActivity(context: CommandContext, args: ShellArgs): Promise<number> {
  let brief = false;
  let components = false;
  const intent = parseIntent(
    args,
    (option) => {
      if (option === '--brief') brief = true;
      else if (option === '--components') components = true;
      else if (option === '--query-flags') args.required();
      else return false;
      return true;
    },
    commandFrames('resolve-activity', 'parseIntentAndUser', 1167),
  );
  const component = resolveActivity(androidState(context.device), intent);
  if (!component) {
    await println(context, 'No activity found');
    return 0;
  }
  if (brief && !components) await println(context, 'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true');
  if (brief || components) await println(context, component);
  else {
    // `ResolveInfo.dump`: its first lines (the rest of the activity's details is not simulated).
    const [packageName] = component.split('/');
    await println(context, 'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true');
    await println(context, 'ActivityInfo:');
    await println(context, `  name=${unflattenComponent(component)!.className}`);
    await println(context, `  packageName=${packageName}`);
  }
  return 0;
}

/** `pm install-existing [--user U] PACKAGE`. */
async function runInstallExisting(context: CommandContext, args: ShellArgs): Promise<number> {
  const state = androidState(context.device);
  let user = USER_CURRENT;
  for (let option; (option = args.nextOption()) !== undefined;) {
    if (option === '--user') user = parseUserArg(args.required(), args.frames);
    else if (['--ephemeral', '--instant', '--full', '--wait', '--restrict-permissions'].includes(option)) continue;
    else {
      await println(context, `Error: Unknown option: ${option}`);
      return 1;
    }
  }
  const name = args.next();
  if (name === undefined) {
    await println(context, 'Error: package name not specified');
    return 1;
  }
  const record = state.packages.get(name);
  if (!record) {
    await println(context, `android.content.pm.PackageManager$NameNotFoundException: Package ${name} doesn't exist`);
    return 1;
  }
  record.installed = true;
  await println(context, `Package ${name} installed for user: ${user < 0 ? 0 : user}`);
  return 0;
}

/** `cmd package ARGS…`: see the file's comment. */
export const packageCommand: CommandHandler = (context) =>
  execShellCommand(context, context.argv.slice(1), async (command, rest) => {
    const state = androidState(context.device);
    const args = new ShellArgs(rest, commandFrames(command ?? ''), command);
    const help = async () => {
      await println(context, HELP_LINES.join('\n'));
    };
    switch (command) {
      case 'path': {
        const option = args.nextOption();
        if (option === '--user') parseUserArg(args.required(), args.frames);
        return displayPackageFilePath(context, args.required());
      }
      case 'list':
        return runList(context, args);
      case 'resolve-activity':
        return runResolveActivity(context, args);
      case 'install':
        return runInstall(context, args);
      case 'install-create': {
        const session = createSession(state, makeInstallParams(args, 'install-create'));
        await println(context, `Success: created install session [${session.id}]`);
        return 0;
      }
      case 'install-write':
        return runInstallWrite(context, args);
      case 'install-commit': {
        for (let option; (option = args.nextOption()) !== undefined;) {
          if (option === '--staged-ready-timeout') args.required();
          else
            throw new JavaException(
              'java.lang.IllegalArgumentException',
              `Unknown option: ${option}`,
              commandFrames(command, 'runInstallCommit', 1720),
            );
        }
        const id = sessionIdArg(args, command, 'runInstallCommit', 1724);
        const session = openSession(state, command, id, 'doCommitSession', 4105);
        state.sessions.delete(id);
        const result = commitSession(context, session, {skipExisting: false, downgrade: false});
        await println(context, result);
        return result === 'Success' ? 0 : 1;
      }
      case 'install-abandon':
      case 'install-destroy': {
        const id = sessionIdArg(args, command, 'runInstallAbandon', 1712);
        openSession(state, command, id, 'doAbandonSession', 4143);
        state.sessions.delete(id);
        await println(context, 'Success');
        return 0;
      }
      case 'install-remove': {
        const id = sessionIdArg(args, command, 'runInstallRemove', 1476);
        const splits = args.rest();
        if (splits.length === 0) {
          await println(context, 'Error: split name not specified');
          return 1;
        }
        openSession(state, command, id, 'doRemoveSplits', 4080).removeSplits.push(...splits);
        await println(context, 'Success');
        return 0;
      }
      case 'install-existing':
        return runInstallExisting(context, args);
      case 'uninstall':
        return runUninstall(context, args);
      case 'enable':
      case 'disable':
      case 'disable-user':
      case 'disable-until-used':
      case 'default-state':
        return runSetEnabledSetting(context, args, command);
      case 'clear': {
        for (let option; (option = args.nextOption()) !== undefined;) {
          if (option === '--user') parseUserArg(args.required(), args.frames);
          else if (option !== '--cache-only') {
            await println(context, `Error: Unknown option: ${option}`);
            return 1;
          }
        }
        const name = args.next();
        if (name === undefined) {
          await eprintln(context, 'Error: no package specified');
          return 1;
        }
        if (!installedPackage(state, name)) {
          await eprintln(context, 'Failed');
          return 1;
        }
        await println(context, 'Success');
        return 0;
      }
      case 'grant':
      case 'revoke': {
        for (let option; (option = args.nextOption()) !== undefined;) {
          if (option === '--user') parseUserArg(args.required(), args.frames);
        }
        if (args.next() === undefined) {
          await eprintln(context, 'Error: no package specified');
          return 1;
        }
        if (args.next() === undefined) {
          await eprintln(context, 'Error: no permission specified');
          return 1;
        }
        return 0;
      }
      case 'get-install-location':
        await println(context, '0[auto]');
        return 0;
      case 'has-feature': {
        const feature = args.next();
        if (feature === undefined) {
          await eprintln(context, 'Error: expected FEATURE name');
          return 1;
        }
        const hasFeature = FEATURES.includes(feature);
        await println(context, String(hasFeature));
        return hasFeature ? 0 : 1;
      }
      case 'get-max-users':
        await println(context, `Maximum supported users: ${MAX_USERS}`);
        return 0;
      default: {
        // `-l`, `-lf` and `-p PACKAGE`, the old `pm` forms, before the unknown command.
        if (command === '-l' || command === '-lf' || command === '-p') {
          const next = args.next();
          if (next === undefined && command !== '-p') return runListPackages(context, new ShellArgs([], args.frames), command === '-lf');
          if (next !== undefined && args.next() === undefined && command === '-p') return displayPackageFilePath(context, next);
        }
        return handleDefaultCommands(context, command, help);
      }
    }
  });
