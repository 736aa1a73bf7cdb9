/**
 * The Node side of the WebUSB simulation: a WebSocket server on 127.0.0.1 that the simulated
 * `navigator.usb` in Chromium (`page/install.ts`) connects to, one socket per `USBDevice.open()`.
 * When the page claims the ADB interface, the socket is attached to the device as a
 * `ByteConnection`; releasing the interface or closing the device hangs up that connection.
 * The wire protocol is described in `protocol.ts`.
 */
import {WebSocketServer, type RawData, type WebSocket} from 'ws';

import type {ByteConnection} from '../types.ts';
import {usbDescriptorFor} from './descriptor.ts';
import {webUsbInitScript, type WebUsbInitScriptOptions} from './init-script.ts';
import {CLOSE_REENUMERATE, CLOSE_UNPLUGGED, USB_QUEUE_DEPTH, type ControlMessage, type UsbDeviceDescriptor} from './protocol.ts';

/** What the bridge needs of a device: `SimulatedDevice` has both. */
export interface BridgedDevice {
  /** Runs the daemon protocol on a host connection (`SimulatedDevice.attach`). */
  attach(connection: ByteConnection): unknown;
  /** System properties; the USB strings come from `ro.product.manufacturer`, `ro.product.model`, `ro.serialno`. */
  readonly properties: ReadonlyMap<string, string>;
}

/** Where the bridge listens, and the USB identity it announces. */
export interface WebUsbBridgeOptions {
  /** TCP port to listen on; default 0 (a free port, see `WebUsbBridge.port`). */
  port?: number;
  /** Address to listen on; default and recommended `127.0.0.1`. */
  host?: string;
  /** Fields of the USB descriptor to override (see `usbDescriptorFor`). */
  descriptor?: Partial<UsbDeviceDescriptor>;
}

/** A running bridge (see {@link startWebUsbBridge}). */
export interface WebUsbBridge {
  /** `ws://127.0.0.1:PORT/`, for `webUsbInitScript({bridgeUrl})`. */
  readonly url: string;
  readonly port: number;
  /** The device's USB identity, as the page shows it. */
  readonly descriptor: UsbDeviceDescriptor;
  /** Number of pages holding the ADB interface claimed (0 or 1). */
  readonly claims: number;
  /**
   * Another program holds the interface when `true` (as Google's ADB server does): a page's
   * `claimInterface` then rejects with NetworkError "Failed to execute 'claimInterface' on
   * 'USBDevice': Unable to claim interface." (Blink usb_device.cc, `kFailure`), which
   * `AdbDaemonWebUsbDevice.connect()` turns into `DeviceBusyError` (adb-daemon-webusb `device.ts`).
   * Default `false`.
   */
  heldElsewhere: boolean;
  /** The init script for pages (see `webUsbInitScript`), pointing at this bridge and this device. */
  initScript(options?: Omit<WebUsbInitScriptOptions, 'bridgeUrl' | 'descriptor'>): string;
  /** Stops listening; open pages see the device unplugged (their sockets close with `CLOSE_UNPLUGGED`). */
  close(): Promise<void>;
}

/**
 * Starts the bridge for one device.
 *
 * Input: the device (a `SimulatedDevice`) and options (port 0 and host 127.0.0.1 by default).
 * Output: the running bridge ({@link WebUsbBridge}). Errors: rejects when the port cannot be
 * bound (`EADDRINUSE`, `EACCES`).
 */
export async function startWebUsbBridge(device: BridgedDevice, options: WebUsbBridgeOptions = {}): Promise<WebUsbBridge> {
  const host = options.host ?? '127.0.0.1';
  const descriptor = usbDescriptorFor(device.properties, options.descriptor);
  const server = new WebSocketServer({host, port: options.port ?? 0});
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : Number(address);
  const url = `ws://${host}:${port}/`;
  let holder: WebSocket | undefined;

  const bridge: WebUsbBridge = {
    url,
    port,
    descriptor,
    get claims() {
      return holder ? 1 : 0;
    },
    heldElsewhere: false,
    initScript: (scriptOptions = {}) => webUsbInitScript({...scriptOptions, bridgeUrl: url, descriptor}),
    close: async () => {
      const sockets = [...server.clients];
      const closed = Promise.all(sockets.map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()))));
      for (const socket of sockets) socket.close(CLOSE_UNPLUGGED, 'unplugged');
      // A page that does not answer the closing handshake within a second is cut off.
      await Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, 1000).unref())]);
      for (const socket of server.clients) socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  server.on('connection', (socket) => {
    let connection: SocketConnection | undefined;
    const send = (message: ControlMessage) => socket.send(JSON.stringify(message));
    const release = () => {
      connection?.end();
      connection = undefined;
      if (holder === socket) holder = undefined;
    };
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        connection?.push(toBytes(data));
        return;
      }
      const message = JSON.parse(toBytes(data).toString()) as ControlMessage;
      switch (message.op) {
        case 'claim': {
          if (!connection) {
            if (bridge.heldElsewhere || holder !== undefined) {
              send({op: 'claim-result', ok: false});
              break;
            }
            holder = socket;
            const claimed = new SocketConnection(socket, () => {
              if (connection === claimed) release();
            });
            connection = claimed;
            device.attach(claimed);
          }
          send({op: 'claim-result', ok: true});
          break;
        }
        case 'release':
          release();
          send({op: 'release-result'});
          break;
        case 'consumed':
          connection?.consumed(message.count);
          break;
      }
    });
    socket.on('close', release);
    socket.on('error', release);
  });

  return bridge;
}

/** A WebSocket message's bytes as one `Buffer`. */
function toBytes(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/**
 * One claim of the ADB interface, as the device's `ByteConnection`: each binary message from the
 * page is one OUT transfer; each `write` is one binary message (one USB write of the device).
 *
 * Flow control, as USB gives it: the device holds up to `USB_QUEUE_DEPTH` OUT transfers it has
 * not read yet (their `transferOut` resolves when they enter that queue), and has up to
 * `USB_QUEUE_DEPTH` writes in flight that the page's `transferIn`s have not consumed (`write`
 * waits beyond that).
 */
class SocketConnection implements ByteConnection {
  readonly readable: AsyncIterable<Uint8Array>;
  readonly #socket: WebSocket;
  readonly #onClose: () => void;
  readonly #queue: Uint8Array[] = [];
  /** How many of the first entries of #queue were acknowledged to the page (they are in the device's read queue). */
  #acknowledged = 0;
  #wakeReader: (() => void) | undefined;
  #ended = false;
  #inFlight = 0;
  readonly #windowWaiters: Array<() => void> = [];
  #sendChain: Promise<void> = Promise.resolve();

  constructor(socket: WebSocket, onClose: () => void) {
    this.#socket = socket;
    this.#onClose = onClose;
    this.readable = {[Symbol.asyncIterator]: () => this.#read()};
  }

  async *#read(): AsyncGenerator<Uint8Array> {
    for (;;) {
      const chunk = this.#queue.shift();
      if (chunk) {
        this.#acknowledged--;
        this.#acknowledge();
        yield chunk;
        continue;
      }
      if (this.#ended) return;
      await new Promise<void>((resolve) => (this.#wakeReader = resolve));
    }
  }

  /** Tells the page that queued transfers reached the read queue, up to its depth. */
  #acknowledge(): void {
    let count = 0;
    while (this.#acknowledged < this.#queue.length && this.#acknowledged < USB_QUEUE_DEPTH) {
      this.#acknowledged++;
      count++;
    }
    if (count > 0 && !this.#ended) this.#socket.send(JSON.stringify({op: 'received', count} satisfies ControlMessage));
  }

  /** An OUT transfer from the page. */
  push(bytes: Uint8Array): void {
    if (this.#ended || bytes.length === 0) return;
    this.#queue.push(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    this.#acknowledge();
    this.#wake();
  }

  /** The page consumed `count` more writes. */
  consumed(count: number): void {
    this.#inFlight = Math.max(0, this.#inFlight - count);
    while (this.#inFlight < USB_QUEUE_DEPTH && this.#windowWaiters.length > 0) this.#windowWaiters.shift()!();
  }

  #wake(): void {
    const wake = this.#wakeReader;
    this.#wakeReader = undefined;
    wake?.();
  }

  /** The host hung up (released the interface or closed the device): the device's reads end, its writes fail. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#wake();
    for (const waiter of this.#windowWaiters.splice(0)) waiter();
  }

  /**
   * One write of the device (one binary message). Resolves once the message is on the socket and
   * within the flow-control window; writes leave in call order. Rejects with `Error('the host hung
   * up')` once the connection ended.
   */
  write(data: Uint8Array): Promise<void> {
    const bytes = data.slice();
    const result = this.#sendChain.then(async () => {
      while (!this.#ended && this.#inFlight >= USB_QUEUE_DEPTH) await new Promise<void>((resolve) => this.#windowWaiters.push(resolve));
      if (this.#ended || this.#socket.readyState !== this.#socket.OPEN) throw new Error('the host hung up');
      this.#inFlight++;
      await new Promise<void>((resolve, reject) =>
        this.#socket.send(bytes, {binary: true}, (error) => (error ? reject(error) : resolve())),
      );
    });
    this.#sendChain = result.catch(() => undefined);
    return result;
  }

  /**
   * The device hangs up: on USB that is the device dropping off the bus and coming back (adbd
   * restarting its USB function), so the page sees it disconnect and re-enumerate. Does nothing
   * once the page released the interface.
   */
  close(): void {
    if (this.#ended) return;
    this.end();
    this.#onClose();
    if (this.#socket.readyState === this.#socket.OPEN) this.#socket.close(CLOSE_REENUMERATE, 'device hung up');
  }
}
