/**
 * The shapes that the simulated device's parts share: the device as its parts see it (`Device`,
 * which `device.ts` composes), a host's connection as a service sees it, the byte connection a host
 * reaches it through, the device-side end of an ADB stream, the services, and the framework
 * programs. The parts (services, framework programs, the Scrcpy server, the transport) depend on
 * these interfaces only, never on `device.ts`.
 *
 * Facts follow adbd (LineageOS/android_packages_modules_adb: `adb.cpp`, `transport.cpp`,
 * `sockets.cpp`, `daemon/services.cpp`) and the host side of `@yume-chan/adb` 2.0.1
 * (`daemon/dispatcher.ts`), which is what the docs' samples run against.
 */

import type {AuthPolicy} from './auth.ts';
import type {DeviceFileSystem} from './fs.ts';
import type {Sandbox} from './sandbox/sandbox.ts';

/** Serves one opened stream until it ends. */
export type ServiceRunner = (socket: DeviceSocket) => Promise<void>;

/**
 * One kind of service. `open` is called with the service string (no trailing NUL) before the
 * device answers the host's `OPEN`: it returns (or resolves with) the function that serves the
 * stream, or `undefined` when it does not serve that string (the next handler is tried; when none
 * serves it, the device answers `CLSE`, which the library reports as "Socket open failed").
 */
export interface ServiceHandler {
  open(service: string, transport: HostConnection): ServiceRunner | undefined | Promise<ServiceRunner | undefined>;
}

/** A host's connection to the device, as a service sees it (`transport.ts` `DeviceTransport`). */
export interface HostConnection {
  readonly device: Device;
  /** The host's name for the device in `reverse:list-forward` lines. */
  readonly serial: string;
  /** Reverse tunnels: device address → host address. */
  readonly reverseTunnels: Map<string, string>;
  /** Resolves when the host hangs up or `close()` is called. */
  readonly closed: Promise<void>;
  /** Opens a stream to the host (a reverse tunnel's connection); rejects with `ECONNREFUSED`. */
  openToHost(service: string): Promise<DeviceSocket>;
  /** Hangs up. */
  close(): void;
}

/** The device as its parts see it (`device.ts` `SimulatedDevice`; each member is described there). */
export interface Device {
  readonly properties: Map<string, string>;
  readonly features: readonly string[];
  readonly version: number;
  readonly maxPayloadSize: number;
  readonly delayedAckBytes: number;
  readonly auth: AuthPolicy;
  readonly fs: DeviceFileSystem;
  readonly commands: Map<string, CommandHandler>;
  readonly services: ServiceHandler[];
  readonly transports: ReadonlySet<HostConnection>;
  now(): number;
  banner(): string;
  sandbox(): Promise<Sandbox>;
  listenLocal(address: string, onConnect: (socket: DeviceSocket) => void): () => void;
  localListener(address: string): ((socket: DeviceSocket) => void) | undefined;
  connectLocal(address: string): Promise<DeviceSocket>;
}

/**
 * One host connection as a byte stream: a TCP socket, or the WebSocket behind the WebUSB bridge.
 * The device reads ADB packets from `readable` and writes them with `write`.
 */
export interface ByteConnection {
  /** Bytes from the host, in any chunking; the iteration ends when the host hangs up. */
  readonly readable: AsyncIterable<Uint8Array>;
  /** Sends bytes to the host; resolves when the connection accepted them (back-pressure). */
  write(data: Uint8Array): Promise<void>;
  /** Hangs up. */
  close(): void;
}

/**
 * The device end of one ADB stream (an `OPEN` from the host, or one the device opened for a
 * reverse tunnel). Reading a chunk acknowledges it (`OKAY`), so a service that stops reading stops
 * the host's writes, as a phone does; `write` waits for the host's acknowledgements, so a stream
 * the host does not read stops the device's writes on it.
 */
export interface DeviceSocket {
  /** The service string the stream was opened with (`shell,v2,raw:ls`, `localabstract:scrcpy_1a2b3c4d`). */
  readonly service: string;
  /** The next chunk the host wrote, or `undefined` once the host closed the stream. */
  read(): Promise<Uint8Array | undefined>;
  /** Iterates the chunks until the host closes the stream. */
  [Symbol.asyncIterator](): AsyncIterator<Uint8Array>;
  /**
   * Sends bytes (a string as UTF-8), split into `WRTE` packets of at most the negotiated max
   * payload. Resolves once the last packet is sent; waits while the host's window is used up.
   * Rejects with `SocketClosedError` when the stream is closed.
   */
  write(data: Uint8Array | string): Promise<void>;
  /** Closes the stream (`CLSE`); pending reads resolve `undefined`, pending writes reject. */
  close(): void;
  /** Resolves when the stream is closed, from either side. */
  readonly closed: Promise<void>;
  /** True once the stream is closed. */
  readonly isClosed: boolean;
}

/** Thrown by `DeviceSocket.write` on a closed stream. */
export class SocketClosedError extends Error {
  constructor(service: string) {
    super(`stream closed: ${service}`);
    this.name = 'SocketClosedError';
  }
}

/**
 * What a framework program gets (a program of `/system/bin` that the Node.js side plays, reached
 * through the framework client in the sandbox): its arguments, environment, working directory,
 * ids, its standard streams and the device.
 */
export interface CommandContext {
  /** The device the command runs on (its file system, properties, local sockets). */
  readonly device: Device;
  /** The arguments, `argv[0]` being the command's name as typed (`pm`, `/system/bin/pm`). */
  readonly argv: readonly string[];
  /** The environment the program was started with. */
  readonly env: Readonly<Record<string, string>>;
  /** The working directory (relative paths in arguments start there). */
  readonly cwd: string;
  /** The uid it runs as (2000, `shell`; 0 after `adb root` on a debuggable build). */
  readonly uid: number;
  /** Its pid in the sandbox. */
  readonly pid: number;
  /**
   * The next chunk of standard input, or `undefined` at its end. With `signal`, the wait also ends
   * (with `undefined`) when it aborts, and the chunk that arrives later stays for the next read: how
   * a program that polls its input with a timeout (`top`) reads.
   */
  readStdin(signal?: AbortSignal): Promise<Uint8Array | undefined>;
  /** Writes to standard output; waits while the host does not read (flow control). */
  stdout(data: Uint8Array | string): Promise<void>;
  /** Writes to standard error (merged into standard output where the service has no stderr). */
  stderr(data: Uint8Array | string): Promise<void>;
  /** Whether standard output is a terminal (`isatty(1)`: a PTY shell, or `adb exec-out`'s raw PTY). */
  readonly pty: boolean;
  /** Aborted when the program ends first (killed by a signal, its output closed). */
  readonly signal: AbortSignal;
}

/** How a program ends: an exit status (0-255), or the signal it dies of (`{signal: 6}`: the runtime aborted it). */
export type CommandResult = number | {signal: number};

/** A framework program. Throwing is a bug in it, answered like a crash (exit status 1). */
export type CommandHandler = (context: CommandContext) => Promise<CommandResult> | CommandResult;
