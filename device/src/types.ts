/**
 * The shapes that the simulated device's parts share: the byte connection a host reaches it
 * through, the device-side end of an ADB stream, and the command table behind the shell services.
 *
 * Facts follow adbd (LineageOS/android_packages_modules_adb: `adb.cpp`, `transport.cpp`,
 * `sockets.cpp`, `daemon/services.cpp`) and the host side of `@yume-chan/adb` 2.0.1
 * (`daemon/dispatcher.ts`), which is what the docs' samples run against.
 */

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
 * A PTY's size in character cells, as `TIOCGWINSZ` reports it: 0×0 until the host sets one (adbd
 * opens the PTY without a size). `resize` is the shell protocol's window-size message; the
 * `change` event it fires is the `SIGWINCH` a full-screen program redraws on.
 */
export class WindowSize extends EventTarget {
  rows = 0;
  cols = 0;
  resize(rows: number, cols: number): void {
    this.rows = rows;
    this.cols = cols;
    this.dispatchEvent(new Event('change'));
  }
}

/** What a command of the command table gets: its arguments, its standard streams and the device. */
export interface CommandContext {
  /** The device the command runs on (its file system, properties, local sockets). */
  readonly device: import('./device.ts').SimulatedDevice;
  /** The arguments, `argv[0]` being the command's name as typed (`pm`, `/system/bin/pm`). */
  readonly argv: readonly string[];
  /** Environment: the device's, plus `NAME=value` words typed before the command. */
  readonly env: Readonly<Record<string, string>>;
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
  /** True under a PTY (`shell,v2,pty:`, or `shell:` from an interactive host). */
  readonly pty: boolean;
  /** The PTY's size, under a PTY only. */
  readonly window?: WindowSize;
  /** Aborted when the host closes the stream (the process is killed, as a hang-up does). */
  readonly signal: AbortSignal;
}

/**
 * A command: resolves with its exit code (0 success, 127 not found, 255 for a shell service that
 * lost its stream). Throwing is a bug in the command, answered like a crash (exit code 1).
 */
export type CommandHandler = (context: CommandContext) => Promise<number> | number;
