/**
 * The packets between the Node.js side and the sandbox's programs (`device/native/packet.h`): the
 * shell protocol's `id u8, length u32 LE, data`, with adbd's ids 0-5 and the device's own from 16
 * (a request, a read request, an accepted connection, a result).
 */
import type {Socket} from 'node:net';

export const PacketId = {
  Stdin: 0,
  Stdout: 1,
  Stderr: 2,
  Exit: 3,
  CloseStdin: 4,
  WindowSize: 5,
  Request: 16,
  Read: 17,
  Accept: 18,
  Result: 19,
  Signal: 20,
} as const;

/** One packet. */
export interface Packet {
  id: number;
  data: Buffer;
}

/** Encodes a packet. */
export function packet(id: number, data: Uint8Array | string = new Uint8Array(0)): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const header = Buffer.alloc(5);
  header[0] = id;
  header.writeUInt32LE(body.length, 1);
  return Buffer.concat([header, body]);
}

/**
 * A request: the operation, then `key=value` fields, each NUL-terminated; `arg` and `env` repeat
 * (argv and the environment in order).
 */
export function requestPacket(
  op: string,
  fields: Record<string, string | number | boolean | undefined>,
  args: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
): Buffer {
  const parts = [op];
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) parts.push(`${key}=${typeof value === 'boolean' ? (value ? 1 : 0) : value}`);
  }
  for (const arg of args) parts.push(`arg=${arg}`);
  for (const [key, value] of Object.entries(env)) parts.push(`env=${key}=${value}`);
  return packet(PacketId.Request, parts.map((part) => `${part}\0`).join(''));
}

/** Parses a request's data (see `requestPacket`): the operation, single fields, args and the environment. */
export function parseRequest(data: Buffer): {op: string; fields: Map<string, string>; args: string[]; env: Record<string, string>} {
  const parts = data.toString('utf8').split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  const [op = '', ...rest] = parts;
  const fields = new Map<string, string>();
  const args: string[] = [];
  const env: Record<string, string> = {};
  for (const part of rest) {
    const equals = part.indexOf('=');
    const key = part.slice(0, equals);
    const value = part.slice(equals + 1);
    if (key === 'arg') args.push(value);
    else if (key === 'env') {
      const inner = value.indexOf('=');
      if (inner > 0) env[value.slice(0, inner)] = value.slice(inner + 1);
    } else fields.set(key, value);
  }
  return {op, fields, args, env};
}

/**
 * Reads packets from a socket one at a time; the bytes after the last packet read stay in the
 * socket (`release` gives them back), so a connection can switch to raw bytes after a reply.
 */
export class PacketReader {
  readonly #socket: Socket;
  #buffer: Buffer = Buffer.alloc(0);
  #ended = false;
  #wake: (() => void) | undefined;

  constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', this.#onData);
    socket.on('end', this.#onEnd);
    socket.on('close', this.#onEnd);
    socket.on('error', this.#onEnd);
  }

  #onData = (chunk: Buffer): void => {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    // Flow control: stop reading while a whole packet waits to be taken.
    if (this.#complete()) this.#socket.pause();
    this.#wake?.();
  };

  #onEnd = (): void => {
    this.#ended = true;
    this.#wake?.();
  };

  #complete(): boolean {
    return this.#buffer.length >= 5 && this.#buffer.length >= 5 + this.#buffer.readUInt32LE(1);
  }

  /** The next packet, or `undefined` when the connection ended. */
  async read(): Promise<Packet | undefined> {
    for (;;) {
      if (this.#complete()) {
        const length = this.#buffer.readUInt32LE(1);
        const result = {id: this.#buffer[0]!, data: this.#buffer.subarray(5, 5 + length)};
        this.#buffer = this.#buffer.subarray(5 + length);
        // The socket stays paused until the next read needs more: a caller that switches to raw
        // bytes after this packet (`release`) then finds them, and the end after them, still in
        // the socket. Resuming here let a fast peer's bytes and end arrive first: the end was
        // taken here and the bytes could not go back (a reverse tunnel's `hello` was lost).
        return result;
      }
      if (this.#ended) return undefined;
      this.#socket.resume();
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = undefined;
    }
  }

  /** Stops reading packets: the bytes not yet taken go back to the socket, which is left paused. */
  release(): void {
    this.#socket.off('data', this.#onData);
    this.#socket.off('end', this.#onEnd);
    this.#socket.off('close', this.#onEnd);
    this.#socket.off('error', this.#onEnd);
    this.#socket.pause();
    if (this.#buffer.length > 0) this.#socket.unshift(this.#buffer);
    this.#buffer = Buffer.alloc(0);
  }
}
