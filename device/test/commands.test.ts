/**
 * The Android commands behind the simulated shell, driven by the real library
 * (`@yume-chan/adb` 2.0.1 and `@yume-chan/android-bin` 2.1.0 wrappers: `PackageManager`,
 * `Settings`, `DumpSys`, `Logcat`, `ActivityManager`), checking the outputs parse as the library
 * expects and look as Android prints them.
 */
import assert from 'node:assert/strict';
import {after, describe, test} from 'node:test';
import {inflateSync} from 'node:zlib';

import type {Adb} from '@tango-v2/adb';
import {
  ActivityManager,
  AdbBackup,
  AndroidLogPriority,
  BugReport,
  DumpSys,
  IntentBuilder,
  Logcat,
  LogId,
  OverlayDisplay,
  PackageManager,
  PackageManagerInstallSession,
  Settings,
  SettingsResetMode,
} from '@tango-v2/android-bin';
import {ReadableStream} from '@tango-v2/stream-extra';

import {apkSignatures, buildApk, unzipEntry, zip} from '../src/apk.ts';
import {androidState} from '../src/framework/state.ts';
import type {DeviceOptions, SimulatedDevice} from '../src/device.ts';
import {PNG_SIGNATURE} from '../src/screen.ts';
import {startDevice} from './connect.ts';

const started: Array<{close(): Promise<void>}> = [];
after(() => Promise.all(started.map((device) => device.close())));

async function connect(options?: DeviceOptions): Promise<{device: SimulatedDevice; adb: Adb; bin: Adb}> {
  const device = await startDevice(options);
  started.push(device);
  const adb = await device.connect();
  return {device: device.device, adb, bin: adb};
}

const text = (adb: Adb, command: string | string[]) => adb.subprocess.noneProtocol.spawnWaitText(command);

/** Runs `command` with the shell protocol: its exit code, standard output and standard error apart. */
async function run(adb: Adb, command: string): Promise<[number, string, string]> {
  const result = await adb.subprocess.shellProtocol!.spawnWaitText(command);
  return [result.exitCode, result.stdout, result.stderr];
}

/** What an `abb_exec:` stream with these arguments answers (standard error shares the stream). */
async function abbExec(adb: Adb, args: string[]): Promise<string> {
  const socket = await adb.createSocket(`abb_exec:${args.map((arg) => `${arg}\0`).join('')}`);
  let output = '';
  for await (const chunk of socket.readable) output += new TextDecoder().decode(chunk);
  return output;
}

function streamOf(data: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(data);
      controller.close();
    },
  });
}

// `runListPackages` prints the keys of a `HashMap` filled (with `computeIfAbsent`) in the order of
// the package settings' `ArrayMap`: this is the order Java 17's `HashMap` gives these lines.
const THIRD_PARTY = ['com.spotify.music', 'com.whatsapp', 'org.fdroid.fdroid', 'org.mozilla.firefox', 'com.termux'];

describe('getprop', () => {
  test('one property, a missing one, and the whole list', async () => {
    const {adb} = await connect();
    assert.equal(await adb.getProp('ro.product.model'), 'Pixel 7');
    assert.equal(await text(adb, 'getprop ro.product.model'), 'Pixel 7\n');
    assert.equal(await text(adb, 'getprop no.such.property'), '\n');
    const all = await text(adb, 'getprop');
    assert.match(all, /^\[ro\.build\.version\.sdk\]: \[34\]$/m);
    const keys = all
      .trimEnd()
      .split('\n')
      .map((line) => /^\[(.*?)\]: \[/.exec(line)![1]!);
    assert.deepEqual(keys, [...keys].sort());
  });
});

describe('pm', () => {
  test('PackageManager.listPackages with -3 lists the user-installed apps, with -f their paths', async () => {
    const {bin} = await connect();
    const pm = new PackageManager(bin);
    const names: string[] = [];
    for await (const item of pm.listPackages({listThirdParty: true})) names.push(item.packageName);
    assert.deepEqual(names, THIRD_PARTY);
    const withPaths = [];
    for await (const item of pm.listPackages({listThirdParty: true, showSourceDir: true, filter: 'whats'})) withPaths.push(item);
    assert.equal(withPaths.length, 1);
    assert.equal(withPaths[0]!.packageName, 'com.whatsapp');
    assert.match(withPaths[0]!.sourceDir!, /^\/data\/app\/~~[\w-]{22}==\/com\.whatsapp-[\w-]{22}==\/base\.apk$/);
    const system = [];
    for await (const item of pm.listPackages({listSystem: true})) system.push(item.packageName);
    assert.ok(system.includes('com.android.settings'));
    assert.ok(!system.includes('com.whatsapp'));
  });

  test("pm list packages prints Android's lines for -i, -U and -d", async () => {
    const {adb} = await connect();
    assert.equal(await text(adb, 'pm list packages -i -U termux'), 'package:com.termux  installer=org.fdroid.fdroid uid:10215\n');
    assert.equal(await text(adb, 'pm list packages -d'), 'package:com.google.android.apps.tips\n');
    assert.equal(await text(adb, 'pm list packages -x'), 'Error: Unknown option: -x\n');
    assert.equal(await text(adb, 'pm path com.android.settings'), 'package:/system_ext/priv-app/SettingsGoogle/SettingsGoogle.apk\n');
    // Chrome is an updated system app: its code is the update's.
    assert.match(
      await text(adb, 'pm path com.android.chrome'),
      /^package:\/data\/app\/~~[\w-]{22}==\/com\.android\.chrome-[\w-]{22}==\/base\.apk\n$/,
    );
  });

  test('uninstall of a system app without --user: an updated one loses its update, another is refused', async () => {
    const {adb} = await connect();
    assert.match(await text(adb, 'pm path com.google.android.youtube'), /^package:\/data\/app\//);
    // DeletePackageHelper.mayDeletePackageLocked: only a system app with an update (disabledPs) may go.
    assert.deepEqual(await run(adb, 'pm uninstall com.google.android.youtube'), [0, 'Success\n', '']);
    assert.equal(await text(adb, 'pm path com.google.android.youtube'), 'package:/product/app/YouTube/YouTube.apk\n');
    assert.deepEqual(await run(adb, 'pm uninstall com.google.android.youtube'), [1, 'Failure [DELETE_FAILED_INTERNAL_ERROR]\n', '']);
    assert.deepEqual(await run(adb, 'pm uninstall com.android.settings'), [1, 'Failure [DELETE_FAILED_INTERNAL_ERROR]\n', '']);
    // With --user the app is removed for that user only (DELETE_SYSTEM_APP); -u still lists it.
    assert.deepEqual(await run(adb, 'pm uninstall --user 0 com.android.settings'), [0, 'Success\n', '']);
    assert.equal(await text(adb, 'pm list packages com.android.settings'), '');
    assert.equal(await text(adb, 'pm list packages -u com.android.settings'), 'package:com.android.settings\n');
  });

  test('install from a pushed file, streamed install, sessions and uninstall', async () => {
    const {adb, bin, device} = await connect();
    const pm = new PackageManager(bin);
    const sync = await adb.sync();
    try {
      await sync.write({
        filename: '/data/local/tmp/hello.apk',
        file: streamOf(buildApk({packageName: 'com.example.hello', versionCode: 3})),
      });
    } finally {
      await sync.dispose();
    }
    assert.equal(await pm.install(['/data/local/tmp/hello.apk']), 'Success');
    assert.equal(androidState(device).packages.get('com.example.hello')?.versionCode, 3);

    const streamed = buildApk({packageName: 'com.example.streamed'});
    await pm.installStream(streamed.length, streamOf(streamed));

    const session = await PackageManagerInstallSession.create(pm);
    assert.ok(session.id > 0);
    const split = buildApk({packageName: 'com.example.session', versionName: '2.0'});
    await session.addSplitStream('base', split.length, streamOf(split));
    await session.commit();

    const installed: string[] = [];
    for await (const item of pm.listPackages({listThirdParty: true})) installed.push(item.packageName);
    assert.deepEqual(installed, [
      'com.spotify.music',
      'com.whatsapp',
      'com.example.streamed',
      'org.fdroid.fdroid',
      'com.example.hello',
      'org.mozilla.firefox',
      'com.example.session',
      'com.termux',
    ]);
    const path = (await text(adb, 'pm path com.example.session')).trim();
    assert.match(path, /^package:\/data\/app\/~~.*\/com\.example\.session-.*==\/base\.apk$/);
    assert.ok(device.fs.stat(path.slice('package:'.length))?.type === 'file');

    await pm.uninstall('com.example.hello');
    await assert.rejects(pm.uninstall('com.example.hello'), {message: 'Failure [DELETE_FAILED_INTERNAL_ERROR]'});
    await assert.rejects(pm.install(['/data/local/tmp/notes.txt']), {message: /^Failure \[INSTALL_PARSE_FAILED_NOT_APK: /});
    assert.equal(await text(adb, 'cmd package install-create'), `Success: created install session [${session.id + 2}]\n`);
  });

  test('an unsigned APK fails every install path with Android 14 text; a signed one installs', async () => {
    const {adb, bin, device} = await connect();
    const pm = new PackageManager(bin);
    const state = androidState(device);
    const noCertificates = (path: string) =>
      `Failure [INSTALL_PARSE_FAILED_NO_CERTIFICATES: Failed to collect certificates from ${path}: Attempt to get length of null array]`;
    const unsigned = buildApk({packageName: 'com.example.unsigned', signed: false});
    // Streamed (`cmd package install -S`): one session, its file named base.apk.
    let id = state.nextSessionId;
    await assert.rejects(pm.installStream(unsigned.length, streamOf(unsigned)), {
      message: noCertificates(`/data/app/vmdl${id}.tmp/base.apk`),
    });
    // A session: the file is named as install-write named it.
    const session = await PackageManagerInstallSession.create(pm);
    await session.addSplitStream('base', unsigned.length, streamOf(unsigned));
    await assert.rejects(session.commit(), {message: noCertificates(`/data/app/vmdl${session.id}.tmp/base`)});
    // A pushed file, through the shell: the line on standard output, and status 1.
    const sync = await adb.sync();
    const manifest = unzipEntry(unsigned, 'AndroidManifest.xml')!;
    const files: Record<string, Uint8Array> = {
      'unsigned.apk': unsigned,
      // A JAR manifest without a signature file: no certificates for AndroidManifest.xml.
      'manifest-only.apk': zip([
        ['AndroidManifest.xml', manifest],
        ['META-INF/MANIFEST.MF', new TextEncoder().encode('Manifest-Version: 1.0\r\n\r\n')],
      ]),
    };
    // A JAR signature alone (found, not verified) is enough below target SDK 30, not from it.
    for (const target of [29, 34]) {
      const text = new TextDecoder().decode(manifest).replace('targetSdkVersion="34"', `targetSdkVersion="${target}"`);
      files[`v1-target-${target}.apk`] = zip([
        ['AndroidManifest.xml', new TextEncoder().encode(text.replaceAll('com.example.unsigned', `com.example.v1.target${target}`))],
        ['META-INF/MANIFEST.MF', new TextEncoder().encode('Manifest-Version: 1.0\r\n\r\n')],
        ['META-INF/CERT.SF', new TextEncoder().encode('Signature-Version: 1.0\r\n\r\n')],
        ['META-INF/CERT.RSA', new Uint8Array(16)],
      ]);
    }
    try {
      for (const [name, data] of Object.entries(files)) await sync.write({filename: `/data/local/tmp/${name}`, file: streamOf(data)});
    } finally {
      await sync.dispose();
    }
    id = state.nextSessionId;
    assert.deepEqual(await run(adb, 'pm install /data/local/tmp/unsigned.apk'), [
      1,
      `${noCertificates(`/data/app/vmdl${id}.tmp/base.apk`)}\n`,
      '',
    ]);
    id = state.nextSessionId;
    assert.deepEqual(await run(adb, 'pm install /data/local/tmp/manifest-only.apk'), [
      1,
      `Failure [INSTALL_PARSE_FAILED_NO_CERTIFICATES: Package /data/app/vmdl${id}.tmp/base.apk has no certificates at entry AndroidManifest.xml]\n`,
      '',
    ]);
    assert.deepEqual(await run(adb, 'pm install /data/local/tmp/v1-target-34.apk'), [
      1,
      'Failure [INSTALL_PARSE_FAILED_NO_CERTIFICATES: Scanning Failed.: No signature found in package of version 2 or newer for package com.example.v1.target34]\n',
      '',
    ]);
    assert.deepEqual(await run(adb, 'pm install /data/local/tmp/v1-target-29.apk'), [0, 'Success\n', '']);
    assert.equal(state.packages.get('com.example.unsigned'), undefined);

    // What the device and the docs' samples hold is signed (v2), as a release build is.
    const signed = buildApk({packageName: 'com.example.unsigned'});
    assert.deepEqual(apkSignatures(signed), {jarManifest: false, v1: false, v2: true, v3: false});
    await pm.installStream(signed.length, streamOf(signed));
    assert.equal(state.packages.get('com.example.unsigned')?.installed, true);
    const seeded = device.fs.readFile(state.packages.get('com.spotify.music')!.path);
    assert.equal(apkSignatures(seeded)?.v2, true);
  });

  test('an app installed as splits: pm path lists them; a session names each split after its manifest', async () => {
    const {adb, bin} = await connect();
    const pm = new PackageManager(bin);
    const sources = await pm.getPackageSources('com.spotify.music');
    assert.deepEqual(
      sources.map((path) => path.slice(path.lastIndexOf('/') + 1)),
      ['base.apk', 'split_config.arm64_v8a.apk', 'split_config.en.apk', 'split_config.xxhdpi.apk'],
    );

    const session = await PackageManagerInstallSession.create(pm);
    const base = buildApk({packageName: 'com.example.bundle'});
    const split = buildApk({packageName: 'com.example.bundle', split: 'config.fr'});
    // The names given to install-write only label the session's files.
    await session.addSplitStream('2', split.length, streamOf(split));
    await session.addSplitStream('1', base.length, streamOf(base));
    await session.commit();
    const paths = (await pm.getPackageSources('com.example.bundle')).map((path) => path.slice(path.lastIndexOf('/') + 1));
    assert.deepEqual(paths, ['base.apk', 'split_config.fr.apk']);

    await pm.uninstall('com.spotify.music', {splitNames: ['config.en']});
    assert.equal((await pm.getPackageSources('com.spotify.music')).length, 3);
    await assert.rejects(pm.uninstall('com.spotify.music', {splitNames: ['config.en']}), {
      message: 'Failure [INSTALL_FAILED_INVALID_APK: Split not found: config.en]',
    });

    const abandoned = await PackageManagerInstallSession.create(pm);
    await abandoned.abandon();
    // PackageInstallerService.openSessionInternal throws; BasicShellCommandHandler.exec prints it.
    await assert.rejects(abandoned.commit(), {
      message: new RegExp(
        `^Exception occurred while executing 'install-commit':\njava\\.lang\\.SecurityException: Caller has no access to session ${abandoned.id}\n` +
          '\tat com\\.android\\.server\\.pm\\.PackageInstallerService\\.openSessionInternal\\(PackageInstallerService\\.java:\\d+\\)\n',
      ),
    });
    const [status, stdout, stderr] = await run(adb, 'pm install-commit 12345');
    assert.deepEqual([status, stdout], [255, '']);
    const lines = stderr.split('\n');
    assert.deepEqual(lines.slice(0, 3), [
      '',
      "Exception occurred while executing 'install-commit':",
      'java.lang.SecurityException: Caller has no access to session 12345',
    ]);
    assert.ok(lines.slice(3, -1).every((line) => /^\tat [\w$.]+\([\w$]+\.java:\d+\)$/.test(line)));
    assert.ok(lines.includes('\tat com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)'));
    assert.ok(!stderr.includes('Unable to open session'));
  });
});

describe('bu', () => {
  async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  test("bu backup writes an adb backup file; AdbBackup's double-dash flags are logged and skipped", async () => {
    const {adb, bin} = await connect();
    const process = await adb.subprocess.noneProtocol.spawn(['bu', 'backup', '-apk', '-nocompress', 'com.termux']);
    const archive = await readAll(process.output);
    const header = 'ANDROID BACKUP\n5\n0\nnone\n';
    assert.equal(archive.subarray(0, header.length).toString('latin1'), header);
    const tar = archive.subarray(header.length);
    assert.equal(tar.subarray(0, 25).toString('latin1'), 'apps/com.termux/_manifest');
    assert.ok(tar.includes('apps/com.termux/a/base.apk'));
    assert.equal(tar.length % 512, 0);

    const backup = new AdbBackup(bin);
    const stream = await backup.backup({
      user: 0,
      packages: ['com.termux'],
      savePackageApk: true,
      savePackageObb: false,
      savePackageKeyValue: false,
      compress: false,
    });
    const compressed = await readAll(stream);
    // `--no-compress` and `--apk` are not bu's flags: compressed, without the APK.
    assert.equal(compressed.subarray(0, 24).toString('latin1'), 'ANDROID BACKUP\n5\n1\nnone\n');
    const inflated = inflateSync(compressed.subarray(24));
    assert.ok(inflated.includes('apps/com.termux/_manifest'));
    assert.ok(!inflated.includes('apps/com.termux/a/base.apk'));
    const log: string[] = [];
    for await (const entry of new Logcat(bin).binary({dump: true})) log.push(`${entry.tag}: ${entry.message.replace(/\0$/, '')}`);
    assert.ok(log.includes('bu: Unknown backup flag --apk'));
    assert.ok(log.includes('BackupManagerService: Unknown package 0, skipping'));

    assert.equal((await readAll((await adb.subprocess.noneProtocol.spawn(['bu', 'backup'])).output)).length, 0);
  });

  test('bu restore reads an archive from standard input and exits at the end of its tar archive', async () => {
    const {adb} = await connect();
    const backup = await adb.subprocess.noneProtocol.spawn(['bu', 'backup', 'com.termux']);
    const archive = await readAll(backup.output);
    // Standard input stays open (closing it closes a none-protocol socket): bu ends on its own.
    const restore = await adb.subprocess.noneProtocol.spawn(['bu', 'restore']);
    await streamOf(archive).pipeTo(restore.stdin, {preventClose: true});
    assert.equal((await readAll(restore.output)).length, 0);
    await restore.exited;

    const wrong = await adb.subprocess.noneProtocol.spawn(['bu', 'restore']);
    await streamOf(new TextEncoder().encode('NOT A BACKUP FILE\n')).pipeTo(wrong.stdin, {preventClose: true});
    await wrong.exited;
  });
});

describe('bugreportz', () => {
  test('BugReport: version 1.2, progress lines, and a zip the host can pull and delete', async () => {
    const {adb} = await connect();
    const bugReport = await BugReport.queryCapabilities(adb);
    assert.equal(bugReport.bugReportZVersion, '1.2');
    assert.equal(bugReport.supportsBugReport, false);
    const progress: string[] = [];
    const path = await bugReport.bugReportZ({onProgress: (completed, total) => progress.push(`${completed}/${total}`)});
    // dumpstate's units: the maximum starts at Progress::kDefaultMax (5000) and grows by 10% past it.
    assert.deepEqual(progress, ['120/5000', '1050/5000', '2230/5000', '3390/5000', '4400/5000', '5500/6050']);
    const sync = await adb.sync();
    try {
      const chunks: Uint8Array[] = [];
      for await (const chunk of sync.read(path)) chunks.push(chunk);
      assert.equal(Buffer.concat(chunks).readUInt32LE(0), 0x04034b50);
    } finally {
      await sync.dispose();
    }
    await adb.rm(path);
  });
});

describe('settings', () => {
  test('Settings get/put/delete, and null for a missing key', async () => {
    const {adb, bin} = await connect();
    const settings = new Settings(bin);
    assert.equal(await settings.get('global', 'adb_enabled'), '1');
    assert.equal(await settings.get('system', 'no_such_key'), 'null');
    await settings.put('system', 'user_rotation', '1');
    assert.equal(await settings.get('system', 'user_rotation'), '1');
    assert.equal(await text(adb, 'settings delete system user_rotation'), 'Deleted 1 rows\n');
    assert.equal(await text(adb, 'settings get system user_rotation'), 'null\n');
    assert.match(await text(adb, 'settings list secure'), /^android_id=5f3c9a7b21d04e68$/m);
  });

  test('reset: the global table goes back to its first-boot values; the system table is refused', async () => {
    const {adb, bin} = await connect();
    const settings = new Settings(bin);
    await settings.put('global', 'wifi_on', '0');
    await settings.reset('global', SettingsResetMode.TrustedDefaults);
    assert.equal(await settings.get('global', 'wifi_on'), '1');
    assert.equal(await text(adb, 'settings reset system trusted_defaults'), 'Invalid table; no reset performed\n');
    assert.equal(await text(adb, 'settings put system font_scale 1.1 default'), "Ignored makeDefault - doesn't apply to system settings");
  });

  test('errors: Bad arguments for a put without a value (OverlayDisplay.set([])); --user is accepted by list', async () => {
    const {adb, bin} = await connect();
    assert.deepEqual(await run(adb, 'settings put global overlay_display_devices'), [255, '', 'Bad arguments\n']);
    // abb drops empty arguments, so OverlayDisplay.set([]) puts no value: Android refuses it.
    assert.equal(await abbExec(adb, ['settings', 'put', 'global', 'overlay_display_devices', '']), 'Bad arguments\n');
    const settings = new Settings(bin);
    await settings.put('global', 'overlay_display_devices', '720x480/142');
    await new OverlayDisplay(bin).set([]);
    assert.equal(await settings.get('global', 'overlay_display_devices'), '720x480/142');
    assert.deepEqual(await run(adb, 'settings frob global x'), [255, '', 'Invalid command: frob\n']);
    assert.deepEqual(await run(adb, 'settings get nope x'), [255, '', "Invalid namespace 'nope'\n"]);
    assert.deepEqual(await run(adb, 'settings --user 0 list global | head -1'), [0, 'adb_enabled=1\n', '']);
    assert.deepEqual(await run(adb, 'settings --user 0 delete global no_such_key'), [0, 'Deleted 0 rows\n', '']);
  });
});

describe('dumpsys', () => {
  test('DumpSys.battery() parses the battery service dump; `dumpsys battery set` changes it', async () => {
    const {adb, bin} = await connect();
    const dumpsys = new DumpSys(bin);
    const battery = await dumpsys.battery();
    assert.equal(battery.level, 85);
    assert.equal(battery.scale, 100);
    assert.equal(battery.usbPowered, true);
    assert.equal(battery.acPowered, false);
    assert.equal(battery.status, DumpSys.Battery.Status.Charging);
    assert.equal(battery.health, DumpSys.Battery.Health.Good);
    assert.equal(battery.technology, 'Li-ion');
    await text(adb, 'dumpsys battery set level 42');
    assert.equal((await dumpsys.battery()).level, 42);
    assert.match(
      await text(adb, 'dumpsys battery'),
      /^Current Battery Service state:\n {2}\(UPDATES STOPPED -- use 'reset' to restart\)\n {2}AC powered: false\n/,
    );
    const disk = await dumpsys.diskStats();
    assert.equal(disk.dataTotal, 115276064 * 1024);
  });

  test('dumpsys battery: the Android 14 dump; unplug clears the chargers only, reset goes back', async () => {
    const {adb, bin} = await connect();
    const dumpsys = new DumpSys(bin);
    // BatteryService.dumpInternal of Android 14: a Dock powered line, no charging-state lines.
    assert.equal(
      await text(adb, 'dumpsys battery'),
      'Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  Wireless powered: false\n' +
        '  Dock powered: false\n  Max charging current: 500000\n  Max charging voltage: 5000000\n' +
        '  Charge counter: 3663000\n  status: 2\n  health: 2\n  present: true\n  level: 85\n  scale: 100\n' +
        '  voltage: 4231\n  temperature: 287\n  technology: Li-ion\n',
    );
    // BatteryService.unplugBattery: the four charger flags go false; the status stays.
    assert.equal(await text(adb, 'dumpsys battery set ac 1; dumpsys battery unplug'), '');
    const unplugged = await dumpsys.battery();
    assert.deepEqual(
      [unplugged.acPowered, unplugged.usbPowered, unplugged.wirelessPowered, unplugged.status],
      [false, false, false, DumpSys.Battery.Status.Charging],
    );
    assert.equal(await text(adb, 'dumpsys battery get status; dumpsys battery get usb'), '2\nfalse\n');
    assert.equal(await text(adb, 'dumpsys battery reset; dumpsys battery get usb'), 'true\n');
    assert.doesNotMatch(await text(adb, 'dumpsys battery'), /UPDATES STOPPED/);
    assert.deepEqual(await run(adb, 'dumpsys nosuch'), [0, '', "Can't find service: nosuch\n"]);
  });
});

describe('logcat', () => {
  test('logcat -B entries parse with Logcat.binary, timed by the device clock', async () => {
    const now = Date.UTC(2025, 5, 1, 8, 30, 0);
    const {bin} = await connect({now: () => now});
    const logcat = new Logcat(bin);
    const entries = [];
    for await (const entry of logcat.binary({dump: true})) entries.push(entry);
    assert.ok(entries.length >= 10);
    assert.ok(entries.every((entry) => entry.seconds <= now / 1000 && entry.seconds > now / 1000 - 3600));
    assert.ok(entries.every((entry) => [LogId.Main, LogId.System, LogId.Crash].includes(entry.logId as never)));
    const start = entries.find((entry) => entry.tag === 'SystemServer')!;
    assert.equal(start.priority, AndroidLogPriority.Info);
    assert.equal(start.pid, 1501);
    // The payload ends with the message's NUL, as logd stores it; the library keeps it.
    assert.equal(start.message, 'Entered the Android system server!\0');

    const last = [];
    for await (const entry of logcat.binary({dump: true, tail: 1})) last.push(entry);
    assert.deepEqual(
      last.map((entry) => [entry.logId, entry.tag, entry.priority]),
      [[LogId.Main, 'ActivityManager', AndroidLogPriority.Info]],
    );
    // `ids` become `-b Main,Crash`, which AOSP's logcat rejects (names are lower case), as the docs warn.
    const rejected = (async () => {
      for await (const entry of logcat.binary({dump: true, ids: [LogId.Crash]})) void entry;
    })();
    await assert.rejects(rejected);
  });

  test('text formats, -c and -g', async () => {
    const {adb, bin} = await connect();
    const threadtime = await text(adb, ['logcat', '-d', '-t', '2']);
    assert.match(threadtime, /^--------- beginning of (main|system)\n03-01 1\d:\d\d:\d\d\.\d{3} {2}1501 {2}1\d{3} [WI] \w+ *: .+\n/);
    const brief = await text(adb, ['logcat', '-d', '-v', 'brief', '-s', 'adbd']);
    assert.equal(brief, '--------- beginning of main\nI/adbd    ( 1122): adbd started\n');
    assert.match(
      await text(adb, 'logcat -g'),
      /^main: ring buffer is 256 KiB \(\d+ B consumed, \d+ B readable\), max entry is 5120 B, max payload is 4068 B\nsystem: .*\ncrash: ring buffer is 256 KiB \(210 B consumed, 210 B readable\), max entry is 5120 B, max payload is 4068 B\nkernel: .*\n$/,
    );
    const logcat = new Logcat(bin);
    // The library stops at the first line matching its Android 11 pattern.
    assert.deepEqual(
      (await logcat.getLogSize()).map((size) => [size.id, size.size, size.maxEntrySize]),
      [[LogId.Main, 256 * 1024, 5120]],
    );
    assert.deepEqual(await run(adb, 'logcat -c -b Main'), [1, '', "logcat: Unknown -b buffer 'Main'.\n"]);
    assert.equal(await text(adb, 'logcat -c -b main,crash'), '');
    const after = await text(adb, ['logcat', '-d', '-v', 'tag']);
    assert.ok(after.startsWith('--------- beginning of system\n'));
    assert.ok(!after.includes('AndroidRuntime'));
  });
});

describe('screencap', () => {
  test('screencap -p writes a PNG of the screen; raw mode a header and RGBA pixels', async () => {
    const {adb} = await connect();
    const png = await adb.subprocess.noneProtocol.spawnWait(['screencap', '-p']);
    assert.deepEqual(png.subarray(0, 8), PNG_SIGNATURE);
    const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
    assert.equal(String.fromCharCode(...png.subarray(12, 16)), 'IHDR');
    assert.deepEqual([view.getUint32(16), view.getUint32(20)], [1080, 2400]);
    await text(adb, 'wm size 540x1200');
    assert.equal(await text(adb, 'wm size'), 'Physical size: 1080x2400\nOverride size: 540x1200\n');
    const raw = await adb.subprocess.noneProtocol.spawnWait('screencap');
    const header = new DataView(raw.buffer, raw.byteOffset, 16);
    assert.deepEqual(
      [0, 4, 8, 12].map((offset) => header.getUint32(offset, true)),
      [540, 1200, 1, 1],
    );
    assert.equal(raw.length, 16 + 540 * 1200 * 4);
  });
});

describe('am and input', () => {
  test('ActivityManager.startActivity and am start record the started activity', async () => {
    const {adb, bin, device} = await connect();
    await new ActivityManager(bin).startActivity({intent: new IntentBuilder().setComponent('com.android.settings/.Settings')});
    const output = await text(adb, ['am', 'start', '-W', '-a', 'android.intent.action.VIEW', '-d', 'https://example.com/page']);
    assert.equal(
      output,
      'Starting: Intent { act=android.intent.action.VIEW dat=https://example.com/... }\nStatus: ok\nLaunchState: COLD\n' +
        'Activity: com.android.chrome/com.google.android.apps.chrome.IntentDispatcher\nTotalTime: 412\nWaitTime: 418\nComplete\n',
    );
    assert.deepEqual(
      androidState(device).activities.map((start) => start.component),
      ['com.android.settings/.Settings', 'com.android.chrome/com.google.android.apps.chrome.IntentDispatcher'],
    );
    // runStartActivity: `PrintWriter out = mWaitOption ? pw : getErrPrintWriter();`
    const missing = 'Error type 3\nError: Activity class {com.nope/com.nope.Main} does not exist.\n';
    assert.deepEqual(await run(adb, 'am start -n com.nope/.Main'), [1, 'Starting: Intent { cmp=com.nope/.Main }\n', missing]);
    assert.deepEqual(await run(adb, 'am start-activity -W -n com.nope/.Main'), [
      1,
      `Starting: Intent { cmp=com.nope/.Main }\n${missing}`,
      '',
    ]);
  });

  test('input tap, swipe, text and keyevent are recorded', async () => {
    const {adb, device} = await connect();
    await text(adb, 'input tap 540 1200; input swipe 100 2000 100 500 250; input text "hello%sworld"; input keyevent --longpress POWER');
    assert.deepEqual(androidState(device).input, [
      {type: 'tap', x: 540, y: 1200, source: 'touchscreen', displayId: 0},
      {type: 'swipe', x1: 100, y1: 2000, x2: 100, y2: 500, durationMs: 250, source: 'touchscreen', displayId: 0},
      // Key events go to INVALID_DISPLAY (-1) unless -d names one.
      {type: 'text', text: 'hello world', source: 'keyboard', displayId: -1},
      {type: 'keyevent', keyCode: 26, name: 'KEYCODE_POWER', longpress: true, source: 'keyboard', displayId: -1},
    ]);
  });
});

describe('cmd and abb', () => {
  test('no service, -l, an unknown service, as cmd.cpp answers; abb_exec: runs the same cmd', async () => {
    const {adb} = await connect();
    const noService = 'cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.\n';
    assert.deepEqual(await run(adb, 'cmd'), [20, '', noService]);
    assert.equal(await abbExec(adb, []), noService);
    const services = 'Currently running services:\n  activity\n  battery\n  diskstats\n  input\n  package\n  settings\n  window\n';
    assert.deepEqual(await run(adb, 'cmd -l'), [0, services, '']);
    assert.equal(await abbExec(adb, ['-l']), services);
    assert.deepEqual(await run(adb, 'cmd nosuch'), [20, '', "cmd: Can't find service: nosuch\n"]);
    // BasicShellCommandHandler.handleDefaultCommands prints it with getOutPrintWriter().
    assert.deepEqual(await run(adb, 'cmd package frob'), [255, 'Unknown command: frob\n', '']);
  });
});

// The shell is Android's toybox (0.8.9) in the sandbox: these are its own answers.
describe('file commands', () => {
  test('ls, ls -l, a denied directory, and rm with a wildcard', async () => {
    const {adb} = await connect();
    // Without the shell protocol adbd gives the command a raw PTY, so ls prints columns.
    assert.equal(await text(adb, 'ls /sdcard/Download'), 'cache-1.tmp  cache-2.tmp  report.pdf\n');
    assert.deepEqual(await run(adb, 'ls /sdcard/Download'), [0, 'cache-1.tmp\ncache-2.tmp\nreport.pdf\n', '']);
    // The root's links are 0644 as fs_config.cpp makes them (kernel.c reports it; Linux's are 0777).
    assert.equal(await text(adb, 'ls -l /sdcard'), 'lrw-r--r-- 1 root root 21 2009-01-01 00:00 /sdcard -> /storage/self/primary\n');
    assert.equal(
      await text(adb, 'ls -l /sdcard/DCIM/Camera/'),
      'total 228\n' +
        '-rw-rw---- 1 u0_a185 media_rw  48213 2024-02-17 14:03 PXL_20240217_140351123.jpg\n' +
        '-rw-rw---- 1 u0_a185 media_rw  51877 2024-02-17 14:04 PXL_20240217_140409876.jpg\n' +
        '-rw-rw---- 1 u0_a185 media_rw 131072 2024-02-24 18:30 PXL_20240224_183002451.mp4\n',
    );
    assert.deepEqual(await run(adb, 'ls /data'), [1, '', 'ls: /data: Permission denied\n']);
    assert.equal(await text(adb, 'rm -f /sdcard/Download/*.tmp </dev/null'), '');
    assert.equal(await text(adb, 'ls /sdcard/Download'), 'report.pdf\n');
    assert.equal(await adb.rm('/sdcard/Download/report.pdf'), '');
    assert.equal(await adb.rm('/sdcard/Download/report.pdf'), 'rm: /sdcard/Download/report.pdf: No such file or directory\n');
    // Without options mksh runs its built-in cat, whose errors name the shell.
    assert.deepEqual(await run(adb, 'cat /sdcard/nope.txt'), [1, '', '/system/bin/sh: cat: /sdcard/nope.txt: No such file or directory\n']);
    assert.deepEqual(await run(adb, 'cat -v /sdcard/nope.txt'), [1, '', 'cat: /sdcard/nope.txt: No such file or directory\n']);
  });

  test('mkdir -p, touch, stat -c and cat', async () => {
    const {adb} = await connect();
    assert.equal(await text(adb, 'mkdir -p /data/local/tmp/a/b && touch /data/local/tmp/a/b/c.txt'), '');
    // adbd's umask is 0: a new directory is 0777, a new file 0666; the disk's blocks are 4 KiB.
    assert.equal(
      await text(adb, 'stat -c "%A %U %G %s %n" /data/local/tmp/a/b /data/local/tmp/a/b/c.txt'),
      'drwxrwxrwx shell shell 3452 /data/local/tmp/a/b\n-rw-rw-rw- shell shell 0 /data/local/tmp/a/b/c.txt\n',
    );
    assert.deepEqual(await run(adb, 'mkdir /data/local/tmp/a'), [1, '', "mkdir: '/data/local/tmp/a': File exists\n"]);
    assert.equal(await text(adb, 'cat /sdcard/Documents/todo.txt'), 'Buy milk\nCall Alice\n');
    assert.match(await text(adb, 'uname -r'), /^5\.10\.\d+-android13-4-\d{5}-g[0-9a-f]{12}-ab\d+\n$/);
  });
});

describe('top', () => {
  const TITLES = '    PID USER         PR  NI VIRT  RES  SHR S[%CPU] %MEM     TIME+ ARGS';

  test("batch mode: the header, the column titles and the sandbox's processes", async () => {
    const {adb} = await connect();
    const lines = (await text(adb, 'top -b -n 1 -m 2')).split('\n');
    assert.match(lines[0]!, /^Tasks: +\d+ total, +\d+ running, +\d+ sleeping, +0 stopped, +0 zombie$/);
    assert.match(lines[1]!, /^ {2}Mem: +\d+M total, +\d+M used, +\d+M free, +\d+M buffers$/);
    assert.equal(lines[4], TITLES);
    assert.match(lines[5]!, /^ +\d+ shell +20 +0 .* R .* top -b -n 1 -m 2$/);
    assert.equal(lines.length, 8);
    assert.equal(lines[7], '');
    const all = await text(adb, 'top -b -n 1');
    assert.match(all, /^ {3}1501 system +20 +0 .* S .* system_server$/m);
    assert.match(all, /^ {3}1122 root +20 +0 .* adbd --root_seclabel=u:r:su:s0$/m);
    assert.match(all, /^ {6}1 root +20 +0 .* init second_stage\n$/m);
    assert.deepEqual(await run(adb, 'top -x'), [1, '', 'top: Unknown option \'x\' (see "top --help")\n']);
  });

  test('under a PTY: full screen at the window size, redrawn on resize, quit with Ctrl+C', async () => {
    const {adb} = await connect();
    const pty = await adb.subprocess.shellProtocol!.pty({command: 'top'});
    const reader = pty.output.getReader();
    let screen = '';
    const readUntil = async (text: string) => {
      while (!screen.includes(text)) screen += new TextDecoder().decode((await reader.read()).value);
    };
    const ESC = '\x1b';
    const titles = (width: number) => `${ESC}[7m${TITLES.padEnd(width)}${ESC}[0m`;
    // Without a size the PTY is 0x0: toybox asks the terminal (ESC[6n), then draws 80 columns.
    await readUntil('\r\n      1 root ');
    assert.ok(screen.startsWith(`${ESC}[s${ESC}[999C${ESC}[999B${ESC}[6n${ESC}[u`));
    assert.ok(screen.includes(`\r\n${titles(80)}\r\n`));
    // Its own line is bold.
    assert.match(screen, new RegExp(`\\r\\n${ESC}\\[1m +\\d+ shell +20 +0 .* R .* top\\r${ESC}\\[m\\n`));
    screen = '';
    await pty.resize(10, 100);
    // SIGWINCH: the screen is redrawn at 100 columns and 10 rows (five header lines, five processes).
    const CLEAR = `${ESC}[H${ESC}[J`;
    await readUntil(CLEAR);
    while (screen.indexOf(CLEAR, screen.indexOf(CLEAR) + 1) === -1) screen += new TextDecoder().decode((await reader.read()).value);
    const start = screen.indexOf(CLEAR) + CLEAR.length;
    const frame = screen.slice(start, screen.indexOf(CLEAR, start));
    assert.ok(frame.startsWith('Tasks:'));
    assert.ok(frame.includes(`\r\n${titles(100)}\r\n`));
    // Rows end with \r\n; top's own (bold) row with \r, ESC[m, \n; the last one with \r only.
    assert.equal(frame.split('\n').length, 10);
    assert.match(frame, /\n {3}2301 u0_a180 .* com\.google\.android\.apps\.nexuslaun\+\r\n/);
    await pty.sigint();
    while (!(await reader.read()).done);
    assert.equal(await pty.exited, 0);
  });
});

describe('the web server of Termux on tcp:8080', () => {
  async function request(adb: Adb, text: string): Promise<string> {
    const socket = await adb.createSocket('tcp:8080');
    const writer = socket.writable.getWriter();
    await writer.write(new TextEncoder().encode(text));
    writer.releaseLock();
    let response = '';
    // The server closes the connection after its answer.
    for await (const chunk of socket.readable) response += new TextDecoder().decode(chunk);
    return response;
  }

  test('GET of a folder serves its index.html; HEAD the headers only; 404 and 501 as Python does', async () => {
    const {adb} = await connect();
    const page = '<!DOCTYPE html>\n<title>Termux</title>\n<h1>Hello from the phone</h1>\n';
    const headers =
      'HTTP/1.0 200 OK\r\nServer: SimpleHTTP/0.6 Python/3.11.8\r\nDate: Fri, 01 Mar 2024 12:00:00 GMT\r\n' +
      `Content-type: text/html\r\nContent-Length: ${page.length}\r\nLast-Modified: Wed, 28 Feb 2024 10:45:33 GMT\r\n\r\n`;
    assert.equal(await request(adb, 'GET / HTTP/1.0\r\nHost: localhost\r\n\r\n'), headers + page);
    assert.equal(await request(adb, 'HEAD /index.html HTTP/1.0\r\n\r\n'), headers);
    assert.match(await request(adb, 'GET /missing.txt HTTP/1.0\r\n\r\n'), /^HTTP\/1\.0 404 File not found\r\n[^]*<p>Error code: 404<\/p>/);
    assert.match(await request(adb, 'POST / HTTP/1.0\r\n\r\n'), /^HTTP\/1\.0 501 Unsupported method \('POST'\)\r\n/);
  });
});
