/**
 * Google's ADB server (Debian's `adb` package, server version 41) reaches the simulated device:
 * `adb connect` authenticates with the server's own key, the device shows in `adb devices -l`
 * and in the library's `AdbServerClient.getDevices()`, and the Quick start's Node.js sample,
 * taken from the page, prints the device's model.
 *
 * The server listens on its default port 5037, as the sample expects. A server already running
 * there is used and left running; one this test started is stopped at the end.
 */
import assert from 'node:assert/strict';
import {execFile, spawnSync} from 'node:child_process';
import {mkdtemp, readFile, rm, writeFile} from 'node:fs/promises';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {promisify} from 'node:util';

import {AdbServerClient} from '@tango-v2/adb';
import {AdbServerNodeTcpConnector} from '@tango-v2/adb-server-node-tcp';

import {SimulatedDevice} from '../src/device.ts';

const run = promisify(execFile);
const adbPath = spawnSync('sh', ['-c', 'command -v adb'], {encoding: 'utf8'}).stdout.trim();

let device: SimulatedDevice;
let serial: string;
let startedServer = false;
let workDir: string;

before(async () => {
  assert.ok(adbPath, "Google's adb is not installed: run `sudo apt-get install -y adb` (npm test installs it when run as root)");
  device = new SimulatedDevice();
  const {port} = await device.listen(0);
  serial = `127.0.0.1:${port}`;
  startedServer = spawnSync(adbPath, ['get-state'], {encoding: 'utf8'}).stderr.includes('daemon not running');
  await run(adbPath, ['start-server']);
  workDir = await mkdtemp(join(process.cwd(), 'node_modules', '.device-test-'));
});

after(async () => {
  await run(adbPath, ['disconnect', serial]).catch(() => undefined);
  if (startedServer) await run(adbPath, ['kill-server']).catch(() => undefined);
  await device?.close();
  if (workDir) await rm(workDir, {recursive: true, force: true});
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
  const client = new AdbServerClient(new AdbServerNodeTcpConnector({host: '127.0.0.1', port: 5037}));
  const devices = await client.getDevices();
  const found = devices.find((item) => item.serial === serial);
  assert.ok(found, `getDevices() lists ${serial}`);
  assert.equal(found.model, 'Pixel_7');
  assert.equal(found.authenticating, false);
});

test("the Quick start's Node.js sample prints the model", async () => {
  const page = await readFile(join(import.meta.dirname, '../../docs/tango/index.mdx'), 'utf8');
  const sample = /```ts title="connect-server.ts"[^\n]*\n([\s\S]*?)```/.exec(page)?.[1];
  assert.ok(sample, 'docs/tango/index.mdx has the connect-server.ts sample');
  const file = join(workDir, 'connect-server.mts');
  await writeFile(file, sample.replaceAll('"@yume-chan/', '"@tango-v2/'));
  const {stdout} = await run(process.execPath, ['--import', 'tsx', file], {timeout: 30_000});
  assert.equal(stdout, 'Model: Pixel 7\n');
});
