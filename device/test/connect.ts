/**
 * Test helper: starts a simulated device on a free 127.0.0.1 port and connects the real library
 * to it (`@yume-chan/adb` 2.0.1 `AdbDaemonTransport` over `node:net`), as a reader's Node.js
 * program does.
 */
import {once} from 'node:events';
import {connect as netConnect} from 'node:net';
import {Readable} from 'node:stream';

import {Adb, AdbDaemonTransport, AdbPacket, AdbPacketSerializeStream, type AdbCredentialStore, type AdbPrivateKey} from '@tango-v2/adb';
import {Consumable, pipeFrom, StructDeserializeStream, type ReadableStream} from '@tango-v2/stream-extra';
import {generateKeyPairSync} from 'node:crypto';

import {SimulatedDevice, type DeviceOptions} from '../src/device.ts';

/**
 * A credential store holding one RSA-2048 key made at construction (PKCS #8 DER), named
 * `tester@sim` — an in-memory stand-in for the docs' `AdbNodeJsCredentialStore`.
 *
 * The key's private exponent fills all 256 bytes: the library reads it at a fixed offset of the
 * DER (2.0.x daemon/crypto.ts `rsaParsePrivateKey`, offset 303). Of 800 Node keys, 49 had a
 * 255-byte exponent and 23 of those signed the token wrongly, so the device showed its dialog again
 * on every connection (seen as a flaky "'always' remembers the key" test in CI).
 * scripts/samples/run.ts makes the runs' key the same way.
 */
export class MemoryCredentialStore implements AdbCredentialStore {
  readonly key: AdbPrivateKey;
  constructor(name = 'tester@sim') {
    for (;;) {
      const {privateKey} = generateKeyPairSync('rsa', {modulusLength: 2048});
      if (Buffer.from(privateKey.export({format: 'jwk'}).d!, 'base64url').length !== 256) continue;
      this.key = {buffer: new Uint8Array(privateKey.export({type: 'pkcs8', format: 'der'})), name};
      return;
    }
  }
  generateKey(): AdbPrivateKey {
    return this.key;
  }
  *iterateKeys(): Generator<AdbPrivateKey> {
    yield this.key;
  }
}

/** Options of `connectTo`: the credential store, and `authenticate()`'s own options. */
export interface ConnectOptions extends Partial<Omit<Parameters<typeof AdbDaemonTransport.authenticate>[0], 'connection' | 'serial'>> {
  credentialStore?: AdbCredentialStore;
}

/** Opens a TCP connection to `port` and returns it as the library's packet streams. */
export async function packetConnection(port: number) {
  const socket = netConnect({host: '127.0.0.1', port, noDelay: true});
  await once(socket, 'connect');
  const readable = Readable.toWeb(socket) as unknown as ReadableStream<Uint8Array>;
  return {
    socket,
    readable: readable.pipeThrough(new StructDeserializeStream(AdbPacket)),
    writable: pipeFrom(
      new Consumable.WritableStream<Uint8Array>({
        write: (chunk) => new Promise<void>((resolve, reject) => socket.write(chunk, (error) => (error ? reject(error) : resolve()))),
        close: () => void socket.end(),
      }),
      new AdbPacketSerializeStream(),
    ),
  };
}

/** Connects the library to the device on `port` and resolves with an `Adb` once the handshake is done. */
export async function connectTo(port: number, options: ConnectOptions = {}): Promise<Adb> {
  const connection = await packetConnection(port);
  const transport = await AdbDaemonTransport.authenticate({
    serial: `127.0.0.1:${port}`,
    credentialStore: options.credentialStore ?? new MemoryCredentialStore(),
    ...options,
    connection,
  });
  return new Adb(transport);
}

/** A device listening on a free port, with `connect()` for new library connections and `close()` to stop. */
export async function startDevice(options: DeviceOptions = {}) {
  const device = new SimulatedDevice(options);
  const server = await device.listen(0);
  const adbs: Adb[] = [];
  return {
    device,
    port: server.port,
    async connect(connectOptions: ConnectOptions = {}): Promise<Adb> {
      const adb = await connectTo(server.port, connectOptions);
      adbs.push(adb);
      return adb;
    },
    async close(): Promise<void> {
      await Promise.all(adbs.map((adb) => adb.close().catch(() => undefined)));
      await device.close();
    },
  };
}
