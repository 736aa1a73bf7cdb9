/**
 * The simulated device's speed, through the real library (`@yume-chan/adb` 2.0.1 over
 * `AdbDaemonTransport` and `node:net`), as the sample runner will use it: each figure is the
 * median of several runs, compared with its budget.
 *
 * - Handshake: `AdbDaemonTransport.authenticate()` with a trusted key, until the `Adb` exists (ms).
 * - Shell round trip: `shellProtocol.spawnWaitText('echo hi')` on a connected `Adb` (ms).
 * - Sync: pushing, then pulling back, an 8 MiB file through sync v2 (MiB/s each way).
 * - A new device to its first shell output: `new SimulatedDevice()`, `listen`, the handshake and
 *   `spawnWaitText('echo hi')`, which starts the device's sandbox (ms; what each sample pays).
 *
 * Usage: `npx tsx bench/device.ts` (also a step of `npm run bench`). Exit code 0 when every budget
 * is met. Run it on an otherwise idle machine: the figures are wall-clock times.
 */
import {adbGeneratePublicKey, type Adb} from '@tango-v2/adb';

import {connectTo, MemoryCredentialStore} from '../device/test/connect.ts';
import {SimulatedDevice} from '../device/src/device.ts';
import {report, type Figure} from './lib.ts';

const RUNS = 7;
const FILE_SIZE = 8 * 1024 * 1024;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** Reads a whole stream of chunks into one length. */
async function drain(stream: ReadableStream<Uint8Array>): Promise<number> {
  let length = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) length += chunk.length;
  return length;
}

/** Measures the device; see the file's docstring for the figures and their units. */
export async function deviceFigures(): Promise<Figure[]> {
  const store = new MemoryCredentialStore('bench@sim');
  const publicKey = `${Buffer.from(adbGeneratePublicKey(store.key.buffer)).toString('base64')} bench@sim`;
  const device = new SimulatedDevice({authorizedKeys: [publicKey]});
  const {port} = await device.listen(0);
  const adbs: Adb[] = [];
  try {
    const handshakes: number[] = [];
    for (let i = 0; i < RUNS; i++) handshakes.push(await timed(async () => adbs.push(await connectTo(port, {credentialStore: store}))));

    const adb = adbs[0]!;
    const shell: number[] = [];
    for (let i = 0; i < RUNS * 3; i++) shell.push(await timed(() => adb.subprocess.shellProtocol!.spawnWaitText('echo hi')));

    const data = new Uint8Array(FILE_SIZE).map((_, index) => index & 0xff);
    const push: number[] = [];
    const pull: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const sync = await adb.sync();
      push.push(
        await timed(() =>
          sync.write({
            filename: '/data/local/tmp/bench.bin',
            file: new ReadableStream({
              start(controller) {
                controller.enqueue(data);
                controller.close();
              },
            }) as never,
          }),
        ),
      );
      pull.push(
        await timed(async () => {
          const length = await drain(sync.read('/data/local/tmp/bench.bin') as unknown as ReadableStream<Uint8Array>);
          if (length !== FILE_SIZE) throw new Error(`pulled ${length} bytes, pushed ${FILE_SIZE}`);
        }),
      );
      await sync.dispose();
    }
    const fresh: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      fresh.push(
        await timed(async () => {
          const other = new SimulatedDevice({authorizedKeys: [publicKey]});
          try {
            const connected = await connectTo((await other.listen(0)).port, {credentialStore: store});
            await connected.subprocess.shellProtocol!.spawnWaitText('echo hi');
            await connected.close();
          } finally {
            await other.close();
          }
        }),
      );
    }
    const mib = FILE_SIZE / 1024 / 1024;
    return [
      {name: `handshake with a trusted key (median of ${RUNS})`, value: median(handshakes), unit: 'ms', budget: 100, kind: 'max'},
      {name: `shell v2 round trip, echo (median of ${RUNS * 3})`, value: median(shell), unit: 'ms', budget: 10, kind: 'max'},
      {name: `sync push of ${mib} MiB (median of ${RUNS})`, value: mib / (median(push) / 1000), unit: 'MiB/s', budget: 60, kind: 'min'},
      {name: `sync pull of ${mib} MiB (median of ${RUNS})`, value: mib / (median(pull) / 1000), unit: 'MiB/s', budget: 60, kind: 'min'},
      {
        name: `new device to its first shell output, closed (median of ${RUNS})`,
        value: median(fresh),
        unit: 'ms',
        budget: 150,
        kind: 'max',
      },
    ];
  } finally {
    await Promise.all(adbs.map((adb) => adb.close().catch(() => undefined)));
    await device.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const ok = report('Simulated device (through @yume-chan/adb 2.0.1)', await deviceFigures());
  process.exitCode = ok ? 0 : 1;
}
