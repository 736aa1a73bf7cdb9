/**
 * Google's ADB server (Debian's `adb` package, server version 41) reaches the simulated device:
 * `adb connect` authenticates with the server's own key, and the device shows in
 * `adb devices -l` and in the library's `AdbServerClient.getDevices()`. (The docs' samples that
 * use the server, the Quick start's among them, run against it in the sample runner:
 * scripts/samples/run.ts.)
 *
 * The server listens on a port of its own, {@link SERVER_PORT} (`ANDROID_ADB_SERVER_PORT`), not on
 * the default 5037, which the sample runner uses at the same time in `npm test`. It is started
 * here and stopped at the end.
 */
import assert from 'node:assert/strict';
import {execFile, spawnSync} from 'node:child_process';
import {after, before, test} from 'node:test';
import {promisify} from 'node:util';

import {AdbServerClient} from '@tango-v2/adb';
import {AdbServerNodeTcpConnector} from '@tango-v2/adb-server-node-tcp';

import {SimulatedDevice} from '../src/device.ts';

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
