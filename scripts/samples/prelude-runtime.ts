/**
 * The adb and client preludes at run time: runs inside each sample's own Node.js process (run.ts
 * transpiles it beside the samples of each docs version, as `prelude-runtime.mjs`), connects the
 * version's `@yume-chan/adb` (the package the sample's own imports are mapped to) to the
 * simulated device with `AdbDaemonTransport` over a `node:net` socket, as a reader's Node.js
 * program does after `adb tcpip`. Where the device is comes from the environment (SAMPLE_ENV).
 */
import {once} from 'node:events';
import {readFileSync} from 'node:fs';
import {connect} from 'node:net';
import {Readable} from 'node:stream';

// `@yume-chan/*`, not an alias: run.ts builds this file once per docs version and maps these
// imports to that version's library, as it does the samples' own (AdbDaemonTransport.authenticate
// and the packet streams are the same in 0.0.24, 1.x and 2.0.x).
import {Adb, AdbDaemonTransport, AdbPacket, AdbPacketSerializeStream, type AdbCredentialStore, type AdbPrivateKey} from '@yume-chan/adb';
import {Consumable, pipeFrom, StructDeserializeStream, type ReadableStream} from '@yume-chan/stream-extra';

import {SAMPLE_ENV} from './prelude.ts';
// Imported when a client prelude needs it: the Scrcpy packages it loads (the 2.x library, not
// bundled) cost every sample's process ~0.18 CPU-s to load, and most samples start no session.
import type {SampleClient} from './prelude-scrcpy.ts';

/** Reads a required variable of SAMPLE_ENV; throws when the runner did not set it. */
function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the adb prelude runs under npm run check:samples -- --run`);
  return value;
}

/**
 * Connects to the simulated device and authenticates with the key the runner made it trust.
 *
 * @returns An `Adb` whose serial is SAMPLE_ENV.serial (the device's `ro.serialno`, as over USB).
 * @throws Error when a variable is missing, the TCP connection is refused, or the handshake fails.
 */
export async function connectSampleAdb(): Promise<Adb> {
  const address = env(SAMPLE_ENV.device);
  const separator = address.lastIndexOf(':');
  const socket = connect({host: address.slice(0, separator), port: Number(address.slice(separator + 1)), noDelay: true});
  await once(socket, 'connect');
  const key: AdbPrivateKey = {buffer: new Uint8Array(readFileSync(env(SAMPLE_ENV.key))), name: 'sample@tango'};
  const credentialStore: AdbCredentialStore = {
    generateKey: () => key,
    iterateKeys: () => [key],
  };
  const readable = Readable.toWeb(socket) as unknown as ReadableStream<Uint8Array>;
  const transport = await AdbDaemonTransport.authenticate({
    serial: env(SAMPLE_ENV.serial),
    credentialStore,
    connection: {
      readable: readable.pipeThrough(new StructDeserializeStream(AdbPacket)),
      writable: pipeFrom(
        new Consumable.WritableStream<Uint8Array>({
          // A write after the device hung up (adbd restarting for `tcpip`, `usb`, `reboot`) is
          // dropped: the readable's end tells the transport, and the library sends some packets
          // with nobody awaiting them (1.0.0's dispatcher: `void this.sendPacket(AdbCommand.Close, …)`
          // for a packet of an unknown socket), whose EPIPE would end the sample uncaught.
          write: (chunk) =>
            new Promise<void>((resolve, reject) =>
              socket.write(chunk, (error) =>
                !error || socket.destroyed || (error as NodeJS.ErrnoException).code === 'EPIPE' ? resolve() : reject(error),
              ),
            ),
          close: () => void socket.end(),
        }),
        new AdbPacketSerializeStream(),
      ),
    },
  });
  return new Adb(transport);
}

/**
 * Closes the prelude's connection once the sample's top-level code is done, so that its process
 * can exit; a connection the sample closed or lost already is no error.
 *
 * @param adb The `Adb` connectSampleAdb gave.
 */
export async function closeSampleAdb(adb: Adb): Promise<void> {
  await Promise.resolve(adb.close()).catch(() => undefined);
}

/**
 * The client prelude: a Scrcpy session (prelude-scrcpy.ts startClientOn) on its own connection to
 * the simulated device, as the control samples take for granted.
 *
 * @returns The started `AdbScrcpyClient`.
 * @throws What connectSampleAdb or `AdbScrcpyClient.start` throws (e.g. `AdbScrcpyExitedError`).
 */
export async function startSampleClient(): Promise<SampleClient> {
  const {startClientOn} = await import('./prelude-scrcpy.ts');
  return startClientOn(await connectSampleAdb());
}

/**
 * Stops the client prelude's session and closes its connection once the sample's top-level code is
 * done; a session the sample closed already is no error.
 *
 * @param client The client startSampleClient gave.
 */
export async function closeSampleClient(client: SampleClient): Promise<void> {
  const {closeClient} = await import('./prelude-scrcpy.ts');
  const adb = await closeClient(client);
  if (adb) await closeSampleAdb(adb);
}
