/**
 * One host connection of the simulated device: the daemon side of the ADB protocol.
 *
 * - Packets: the library's own `AdbPacketHeader` struct (`@yume-chan/adb` 2.0.1
 *   `daemon/packet.ts`); the header and the payload are written as two writes, as USB keeps them.
 * - Handshake (adbd `adb.cpp` `handle_packet`): the host's `CNXN` sets the protocol version and
 *   max payload to the smaller of both sides'; the device answers `AUTH` TOKEN, or `CNXN` with its
 *   banner once the host is trusted. Checksums are sent and checked only below version 0x01000001.
 * - Streams (adbd `sockets.cpp`): `OPEN`/`OKAY`/`WRTE`/`CLSE`. Without delayed ack the device sends
 *   one `WRTE` and waits for its `OKAY`; with delayed ack (both sides announce `delayed_ack`) it
 *   sends while the window the host granted (`OPEN` arg1, then each `OKAY`'s u32 payload) is
 *   positive. The device acknowledges a host `WRTE` once the service read it.
 */
import {AdbCommand, AdbPacketHeader, calculateChecksum} from '@tango-v2/adb';
import {ExactReadableEndedError, StructDeserializeError} from '@tango-v2/struct';

import {ByteReader} from './byte-reader.ts';

import {AuthType} from './auth.ts';
import {SocketClosedError, type ByteConnection, type DeviceSocket, type Device} from './types.ts';

/** Protocol version from which checksums are skipped (adbd `A_VERSION_SKIP_CHECKSUM`). */
export const VERSION_SKIP_CHECKSUM = 0x01000001;

const EMPTY = new Uint8Array(0);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function u32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value, true);
  return bytes;
}

function readU32(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true);
}

let transportCount = 0;

/**
 * The daemon protocol on one `ByteConnection`. Created by `Device.attach`; ends when the
 * host hangs up or `close()` is called (`closed` resolves then).
 */
export class DeviceTransport {
  readonly device: Device;
  readonly connection: ByteConnection;
  /** adbd's name for the host end (`host-N`), shown by `reverse:list-forward`. */
  readonly serial = `host-${++transportCount}`;
  /** Negotiated protocol version (the smaller of both sides'). */
  protocolVersion: number;
  /** Negotiated max payload, in bytes (the smaller of both sides'). */
  maxPayloadSize: number;
  /** The host's CNXN banner (`host::features=…`) and its features. */
  hostBanner = '';
  hostFeatures: string[] = [];
  /** True once both sides announced `delayed_ack`. */
  delayedAck = false;
  /** True once the device sent its `CNXN` (the host is trusted). */
  online = false;
  /** Reverse tunnels set by this host: device address (`localabstract:scrcpy_1a2b3c4d`) → host address (`tcp:27183`). */
  readonly reverseTunnels = new Map<string, string>();
  /** Resolves when the connection ended. */
  readonly closed: Promise<void>;

  readonly #streams = new Map<number, Stream>();
  readonly #pendingOpens = new Map<number, {resolve: (stream: Stream) => void; reject: (error: Error) => void}>();
  #nextLocalId = 1;
  #token: Uint8Array | undefined;
  #sendChain: Promise<void> = Promise.resolve();
  #ended = false;

  constructor(device: Device, connection: ByteConnection) {
    this.device = device;
    this.connection = connection;
    this.protocolVersion = device.version;
    this.maxPayloadSize = device.maxPayloadSize;
    this.closed = this.#run();
  }

  /** Hangs up: every stream ends, as when the cable is pulled. */
  close(): void {
    this.connection.close();
    this.#end();
  }

  async #run(): Promise<void> {
    const reader = new ByteReader(this.connection.readable);
    try {
      for (;;) {
        const header = await AdbPacketHeader.deserialize(reader);
        if (header.magic !== (header.command ^ 0xffffffff))
          throw new Error(`bad packet magic for command 0x${header.command.toString(16)}`);
        if (header.payloadLength > this.device.maxPayloadSize) throw new Error(`payload of ${header.payloadLength} bytes is over the max`);
        const payload = header.payloadLength ? await reader.readExactly(header.payloadLength) : EMPTY;
        if (this.protocolVersion < VERSION_SKIP_CHECKSUM && header.checksum !== calculateChecksum(payload)) {
          throw new Error('bad packet checksum');
        }
        await this.#handle(header.command, header.arg0, header.arg1, payload);
      }
    } catch (error) {
      // The host hanging up (between or inside packets) ends the connection quietly.
      if (!this.#ended && !(error instanceof ExactReadableEndedError) && !(error instanceof StructDeserializeError))
        console.error(`[device] ${this.serial}:`, error instanceof Error ? error.message : error);
    } finally {
      this.connection.close();
      this.#end();
    }
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const stream of this.#streams.values()) stream.closedByHost();
    this.#streams.clear();
    for (const pending of this.#pendingOpens.values()) pending.reject(new Error('ECONNREFUSED: the host hung up'));
    this.#pendingOpens.clear();
    this.reverseTunnels.clear();
  }

  async #handle(command: number, arg0: number, arg1: number, payload: Uint8Array): Promise<void> {
    switch (command) {
      case AdbCommand.Connect:
        return this.#handleConnect(arg0, arg1, payload);
      case AdbCommand.Auth:
        return this.#handleAuth(arg0, payload);
    }
    if (!this.online) return; // adbd drops stream packets before the handshake.
    switch (command) {
      case AdbCommand.Open:
        return this.#handleOpen(arg0, arg1, payload);
      case AdbCommand.Okay:
        return this.#handleOkay(arg0, arg1, payload);
      case AdbCommand.Write:
        this.#streams.get(arg1)?.receive(payload);
        return;
      case AdbCommand.Close:
        return this.#handleClose(arg1);
      default:
        throw new Error(`unknown command 0x${command.toString(16)}`);
    }
  }

  async #handleConnect(version: number, maxPayload: number, payload: Uint8Array): Promise<void> {
    this.protocolVersion = Math.min(version, this.device.version);
    this.maxPayloadSize = Math.min(maxPayload, this.device.maxPayloadSize);
    this.hostBanner = decoder.decode(payload).replace(/\0+$/, '');
    const features = /features=([^;]*)/.exec(this.hostBanner)?.[1];
    this.hostFeatures = features ? features.split(',') : [];
    this.delayedAck = this.hostFeatures.includes('delayed_ack') && this.device.features.includes('delayed_ack');
    if (this.online || !this.device.auth.required) return this.#goOnline();
    return this.#sendToken();
  }

  async #sendToken(): Promise<void> {
    this.#token = this.device.auth.newToken();
    await this.send(AdbCommand.Auth, AuthType.Token, 0, this.#token);
  }

  async #handleAuth(type: number, payload: Uint8Array): Promise<void> {
    if (this.online || !this.#token) return;
    if (type === AuthType.Signature) {
      if (this.device.auth.verify(this.#token, payload)) return this.#goOnline();
      return this.#sendToken();
    }
    if (type === AuthType.PublicKey) {
      // The dialog may stay unanswered: don't hold the packet loop for it.
      void this.device.auth.ask(payload).then((allowed) => {
        if (allowed && !this.#ended && !this.online) return this.#goOnline();
      });
    }
  }

  async #goOnline(): Promise<void> {
    this.online = true;
    await this.send(AdbCommand.Connect, this.protocolVersion, this.maxPayloadSize, encoder.encode(this.device.banner()));
  }

  async #handleOpen(hostId: number, window: number, payload: Uint8Array): Promise<void> {
    const service = decoder.decode(payload).replace(/\0+$/, '');
    if (hostId === 0 || (this.delayedAck && window === 0)) {
      await this.send(AdbCommand.Close, 0, hostId, EMPTY);
      return;
    }
    let runner: ((socket: DeviceSocket) => Promise<void>) | undefined;
    for (const handler of this.device.services) {
      runner = await handler.open(service, this);
      if (runner) break;
    }
    if (!runner) {
      await this.send(AdbCommand.Close, 0, hostId, EMPTY);
      return;
    }
    const stream = new Stream(this, this.#nextLocalId++, service);
    stream.remoteId = hostId;
    stream.window = this.delayedAck ? window : 1;
    this.#streams.set(stream.localId, stream);
    await this.send(AdbCommand.Okay, stream.localId, hostId, this.delayedAck ? u32(this.device.delayedAckBytes) : EMPTY);
    void runner(stream)
      .catch((error: unknown) => console.error(`[device] service ${service} failed:`, error))
      .finally(() => stream.close());
  }

  #handleOkay(hostId: number, localId: number, payload: Uint8Array): void {
    const stream = this.#streams.get(localId);
    if (!stream) return;
    const pending = this.#pendingOpens.get(localId);
    if (pending) {
      this.#pendingOpens.delete(localId);
      stream.remoteId = hostId;
      stream.window = this.delayedAck ? readU32(payload) : 1;
      pending.resolve(stream);
      return;
    }
    stream.acknowledge(this.delayedAck ? readU32(payload) : 1);
  }

  #handleClose(localId: number): void {
    const pending = this.#pendingOpens.get(localId);
    if (pending) {
      this.#pendingOpens.delete(localId);
      this.#streams.delete(localId);
      pending.reject(new Error('ECONNREFUSED: the host refused the stream'));
      return;
    }
    // adbd closes its end and answers with its own CLSE (`local_socket_close` shuts the peer
    // down), which is what the host waits for before it ends the socket's readable.
    this.#streams.get(localId)?.close();
  }

  /**
   * Opens a stream from the device to the host (a reverse tunnel's connection), with `service`
   * the host address (`tcp:27183`, `localabstract:reverse_123`). Resolves when the host answers
   * `OKAY`; rejects with `ECONNREFUSED` on `CLSE` or a hang-up.
   */
  openToHost(service: string): Promise<DeviceSocket> {
    if (this.#ended) return Promise.reject(new Error('ECONNREFUSED: the host hung up'));
    const stream = new Stream(this, this.#nextLocalId++, service);
    this.#streams.set(stream.localId, stream);
    const opened = new Promise<Stream>((resolve, reject) => this.#pendingOpens.set(stream.localId, {resolve, reject}));
    void this.send(
      AdbCommand.Open,
      stream.localId,
      this.delayedAck ? this.device.delayedAckBytes : 0,
      encoder.encode(`${service}\0`),
    ).catch(() => undefined);
    return opened;
  }

  /** Forgets a stream the device closed. */
  forget(stream: Stream): void {
    this.#streams.delete(stream.localId);
  }

  /**
   * Sends one packet, after every packet sent before it (header and payload as two writes).
   * Rejects when the connection is gone.
   */
  send(command: number, arg0: number, arg1: number, payload: Uint8Array): Promise<void> {
    const result = this.#sendChain.then(async () => {
      if (this.#ended) throw new SocketClosedError('transport');
      const header = AdbPacketHeader.serialize({
        command,
        arg0,
        arg1,
        payloadLength: payload.length,
        checksum: this.protocolVersion < VERSION_SKIP_CHECKSUM ? calculateChecksum(payload) : 0,
        magic: command ^ 0xffffffff,
      });
      await this.connection.write(header);
      if (payload.length) await this.connection.write(payload);
    });
    this.#sendChain = result.catch(() => undefined);
    return result;
  }
}

/** The device end of one stream (see `DeviceSocket`). */
class Stream implements DeviceSocket {
  readonly transport: DeviceTransport;
  readonly localId: number;
  readonly service: string;
  remoteId = 0;
  /** Without delayed ack: packets the device may still send (0 or 1). With it: bytes. */
  window = 0;
  readonly closed: Promise<void>;
  #isClosed = false;
  #resolveClosed!: () => void;
  readonly #incoming: Uint8Array[] = [];
  readonly #readers: Array<(chunk: Uint8Array | undefined) => void> = [];
  #windowWaiters: Array<() => void> = [];

  constructor(transport: DeviceTransport, localId: number, service: string) {
    this.transport = transport;
    this.localId = localId;
    this.service = service;
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
  }

  get isClosed(): boolean {
    return this.#isClosed;
  }

  receive(payload: Uint8Array): void {
    if (this.#isClosed) return;
    const reader = this.#readers.shift();
    if (reader) {
      this.#ack(payload.length);
      reader(payload);
    } else {
      this.#incoming.push(payload);
    }
  }

  #ack(length: number): void {
    if (this.#isClosed) return;
    void this.transport
      .send(AdbCommand.Okay, this.localId, this.remoteId, this.transport.delayedAck ? u32(length) : EMPTY)
      .catch(() => undefined);
  }

  read(): Promise<Uint8Array | undefined> {
    const chunk = this.#incoming.shift();
    if (chunk) {
      this.#ack(chunk.length);
      return Promise.resolve(chunk);
    }
    if (this.#isClosed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.#readers.push(resolve));
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      const chunk = await this.read();
      if (!chunk) return;
      yield chunk;
    }
  }

  acknowledge(amount: number): void {
    this.window = this.transport.delayedAck ? this.window + amount : 1;
    const waiters = this.#windowWaiters;
    this.#windowWaiters = [];
    for (const wake of waiters) wake();
  }

  async write(data: Uint8Array | string): Promise<void> {
    const bytes = typeof data === 'string' ? encoder.encode(data) : data;
    let offset = 0;
    do {
      while (this.window <= 0 && !this.#isClosed) await new Promise<void>((resolve) => this.#windowWaiters.push(resolve));
      if (this.#isClosed) throw new SocketClosedError(this.service);
      const chunk = bytes.subarray(offset, offset + this.transport.maxPayloadSize);
      offset += chunk.length;
      this.window -= this.transport.delayedAck ? chunk.length : 1;
      await this.transport.send(AdbCommand.Write, this.localId, this.remoteId, chunk);
    } while (offset < bytes.length);
  }

  close(): void {
    if (this.#isClosed) return;
    if (this.remoteId !== 0) void this.transport.send(AdbCommand.Close, this.localId, this.remoteId, EMPTY).catch(() => undefined);
    this.transport.forget(this);
    this.closedByHost();
  }

  closedByHost(): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    for (const reader of this.#readers.splice(0)) reader(undefined);
    for (const wake of this.#windowWaiters.splice(0)) wake();
    this.#resolveClosed();
  }
}
