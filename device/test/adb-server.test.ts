/**
 * Google's ADB server (Debian's `adb` package, server version 41) reaches the simulated device:
 * `adb connect` authenticates with the server's own key, and the device shows in
 * `adb devices -l` and in the library's `AdbServerClient.getDevices()`; `adb logcat`, a script
 * piped into `adb shell`, `adb install` of an unsigned APK and Ctrl+C in an interactive
 * `adb shell` behave as on a phone. (The docs' samples that
 * use the server, the Quick start's among them, run against it in the sample runner:
 * scripts/samples/run.ts.)
 *
 * The server listens on a port of its own, {@link SERVER_PORT} (`ANDROID_ADB_SERVER_PORT`), not on
 * the default 5037, which the sample runner uses at the same time in `npm test`. It is started
 * here and stopped at the end.
 */
import assert from 'node:assert/strict';
import {execFile, spawn, spawnSync} from 'node:child_process';
import {once} from 'node:events';
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {promisify} from 'node:util';

import {AdbServerClient} from '@tango-v2/adb';
import {AdbServerNodeTcpConnector} from '@tango-v2/adb-server-node-tcp';

import {buildApk} from '../src/apk.ts';
import {SimulatedDevice} from '../src/device.ts';
import {androidState} from '../src/framework/state.ts';

/** The port of this test's own ADB server. */
const SERVER_PORT = 5039;
const adbEnv = {...process.env, ANDROID_ADB_SERVER_PORT: String(SERVER_PORT)};
const execFileAsync = promisify(execFile);
/** Runs Google's adb (or another program) against this test's server. */
const run = (file: string, args: string[], options: {timeout?: number} = {}) => execFileAsync(file, args, {...options, env: adbEnv});
const adbPath = spawnSync('sh', ['-c', 'command -v adb'], {encoding: 'utf8'}).stdout.trim();

let device: SimulatedDevice;
let serial: string;

before(async () => {
  assert.ok(adbPath, "Google's adb is not installed: run `sudo apt-get install -y adb` (npm test installs it when run as root)");
  device = new SimulatedDevice();
  const {port} = await device.listen(0);
  serial = `127.0.0.1:${port}`;
  await run(adbPath, ['start-server']);
});

after(async () => {
  await run(adbPath, ['disconnect', serial]).catch(() => undefined);
  await run(adbPath, ['kill-server']).catch(() => undefined);
  await device?.close();
});

/** Polls `adb devices -l` until the device's line shows `state`. */
async function waitForState(state: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const {stdout} = await run(adbPath, ['devices', '-l']);
    const line = stdout.split('\n').find((item) => item.startsWith(`${serial} `));
    if (line && new RegExp(`\\s${state}\\s`).test(line)) return line;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${serial} never reached '${state}' in adb devices -l`);
}

test('adb connect: the dialog, then the device in adb devices -l with its banner', async () => {
  // As with a phone that has never seen this computer's key: the server gives up waiting while
  // the dialog is up, then the device comes online once it is allowed.
  const first = await run(adbPath, ['connect', serial]);
  assert.equal(first.stdout.trim(), `failed to authenticate to ${serial}`);
  const line = await waitForState('device');
  assert.match(line, /product:panther model:Pixel_7 device:panther transport_id:\d+/);
  assert.equal(device.auth.prompts.length, 1, 'one "Allow USB debugging?" dialog for the server key');
  const {stdout} = await run(adbPath, ['-s', serial, 'shell', 'echo', 'hello']);
  assert.equal(stdout, 'hello\n');
  // The key is remembered: the next connection needs no dialog.
  await run(adbPath, ['disconnect', serial]);
  const again = await run(adbPath, ['connect', serial]);
  assert.equal(again.stdout.trim(), `connected to ${serial}`);
  await waitForState('device');
  assert.equal(device.auth.prompts.length, 1);
});

test('AdbServerClient.getDevices() sees it', async () => {
  const client = new AdbServerClient(new AdbServerNodeTcpConnector({host: '127.0.0.1', port: SERVER_PORT}));
  const devices = await client.getDevices();
  const found = devices.find((item) => item.serial === serial);
  assert.ok(found, `getDevices() lists ${serial}`);
  assert.equal(found.model, 'Pixel_7');
  assert.equal(found.authenticating, false);
});

test('adb logcat: the host sends its ANDROID_LOG_TAGS export and execs logcat through the shell', async () => {
  // Google's adb runs `export ANDROID_LOG_TAGS="''"; exec logcat -d`, which mksh must parse.
  const {stdout} = await run(adbPath, ['-s', serial, 'logcat', '-d', '-b', 'main', '-t', '2']);
  assert.match(stdout, /^--------- beginning of main\n/);
  assert.equal(stdout.trimEnd().split('\n').length, 3);
});

test('adb shell < script.sh: a script piped in runs without prompts, and its exit code comes back', async () => {
  const script = 'cd /sdcard\npwd\nfor name in a b; do echo "item $name"; done\nexit 7\n';
  const child = spawn(adbPath, ['-s', serial, 'shell'], {env: adbEnv});
  child.stdin.end(script);
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  const [code] = await once(child, 'exit');
  // No terminal on the host: adb asks for a raw shell, and sh reads its commands from stdin.
  assert.equal(stdout, '/sdcard\nitem a\nitem b\n');
  assert.equal(code, 7);
});

test('adb install of an unsigned APK: the failure as a phone prints it, exit code 1', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'adb-install-'));
  try {
    const file = join(folder, 'unsigned.apk');
    writeFileSync(file, buildApk({packageName: 'com.example.unsigned', signed: false}));
    // adb streams the file to `cmd package install -S SIZE`, one install session.
    const id = androidState(device).nextSessionId;
    const failed = await run(adbPath, ['-s', serial, 'install', file]).then(
      () => assert.fail('adb install of an unsigned APK succeeded'),
      (error: {code: number; stdout: string; stderr: string}) => error,
    );
    assert.equal(failed.code, 1);
    assert.equal(failed.stdout, 'Performing Streamed Install\n');
    assert.equal(
      failed.stderr,
      `adb: failed to install ${file}: Failure [INSTALL_PARSE_FAILED_NO_CERTIFICATES: ` +
        `Failed to collect certificates from /data/app/vmdl${id}.tmp/base.apk: Attempt to get length of null array]\n`,
    );
    // The same APK signed, as every APK the device and the docs' samples have.
    writeFileSync(file, buildApk({packageName: 'com.example.unsigned'}));
    const {stdout} = await run(adbPath, ['-s', serial, 'install', file]);
    assert.equal(stdout, 'Performing Streamed Install\nSuccess\n');
  } finally {
    rmSync(folder, {recursive: true, force: true});
  }
});

test('Ctrl+C in an interactive adb shell reaches the running command as SIGINT', {timeout: 30_000}, async () => {
  // `script` gives adb a terminal, as a user's is: adb then opens a PTY shell and passes the
  // terminal's Ctrl+C (0x03) through, and the device's terminal turns it into SIGINT.
  const child = spawn('script', ['-qfec', `${adbPath} -s ${serial} shell`, '/dev/null'], {env: adbEnv});
  let screen = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (screen += text));
  const until = async (text: string) => {
    for (let waited = 0; !screen.includes(text); waited += 20) {
      assert.ok(waited < 10_000, `no ${JSON.stringify(text)} in ${JSON.stringify(screen)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await until('panther:/ $ ');
  child.stdin.write('sleep 100\r');
  await until('sleep 100');
  await new Promise((resolve) => setTimeout(resolve, 200));
  child.stdin.write('\x03');
  await until('130|panther:/ $ ');
  child.stdin.write('exit\r');
  const [code] = await once(child, 'exit');
  assert.equal(code, 130);
});
