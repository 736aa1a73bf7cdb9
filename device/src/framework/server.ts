/**
 * The device's system server, as far as its programs reach it: the socket
 * `/dev/socket/system_server` that the framework client (`device/native/framework.c`, linked as
 * `cmd`, `dumpsys`, `app_process64`, `getprop`, `logcat`, …) connects to. Each connection is one
 * run of a program: its argv, environment, working directory and ids arrive, the program of
 * `device.commands` named by `argv[0]` runs with them, and its output, its requests for standard
 * input, and its end (an exit status, or a signal) go back to the client.
 */
import {createServer, type Server, type Socket} from 'node:net';
import {chmodSync, rmSync} from 'node:fs';

import {PacketId, PacketReader, packet, parseRequest} from '../sandbox/packets.ts';
import type {CommandContext, CommandResult, Device} from '../types.ts';

/** The name a program is found under: `argv[0]`'s last component, `app_process64` as `app_process`. */
export function programName(argv0: string): string {
  const name = argv0.slice(argv0.lastIndexOf('/') + 1);
  return name === 'app_process64' || name === 'app_process32' ? 'app_process' : name;
}

/** Standard input read from the client on request, a chunk at a time (see `CommandContext.readStdin`). */
class ClientInput {
  readonly #socket: Socket;
  readonly #chunks: (Uint8Array | undefined)[] = [];
  readonly #waiting: ((chunk: Uint8Array | undefined) => void)[] = [];
  #asked = false;
  #ended = false;

  constructor(socket: Socket) {
    this.#socket = socket;
  }

  /** A packet from the client: stdin data, or its end. */
  deliver(id: number, data: Buffer): void {
    this.#asked = false;
    const chunk = id === PacketId.Stdin ? new Uint8Array(data) : undefined;
    if (chunk === undefined) this.#ended = true;
    const waiter = this.#waiting.shift();
    if (waiter) waiter(chunk);
    else this.#chunks.push(chunk);
    if (this.#waiting.length > 0) this.#ask();
  }

  /** The client went away. */
  end(): void {
    this.#ended = true;
    for (const waiter of this.#waiting.splice(0)) waiter(undefined);
  }

  #ask(): void {
    if (this.#asked || this.#ended || this.#socket.destroyed) return;
    this.#asked = true;
    this.#socket.write(packet(PacketId.Read, String(32 * 1024)));
  }

  read = (signal?: AbortSignal): Promise<Uint8Array | undefined> => {
    if (this.#chunks.length > 0) return Promise.resolve(this.#chunks.shift());
    if (this.#ended || signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter = (chunk: Uint8Array | undefined) => {
        signal?.removeEventListener('abort', giveUp);
        resolve(chunk);
      };
      const giveUp = () => {
        this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
        resolve(undefined);
      };
      this.#waiting.push(waiter);
      signal?.addEventListener('abort', giveUp, {once: true});
      this.#ask();
    });
  };
}

/** Writes a packet, waiting while the client doesn't read (flow control); rejects once it is gone. */
function send(socket: Socket, id: number, data: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed) {
      reject(new Error('the program ended'));
      return;
    }
    socket.write(packet(id, data), (error) => (error ? reject(error) : resolve()));
  });
}

/** Runs one program for one client connection. */
async function serve(device: Device, socket: Socket): Promise<void> {
  const packets = new PacketReader(socket);
  const first = await packets.read();
  if (!first || first.id !== PacketId.Request) {
    socket.destroy();
    return;
  }
  const {fields, args, env} = parseRequest(first.data);
  const abort = new AbortController();
  const input = new ClientInput(socket);
  void (async () => {
    for (;;) {
      const next = await packets.read();
      if (!next) break;
      if (next.id === PacketId.Stdin || next.id === PacketId.CloseStdin) input.deliver(next.id, next.data);
    }
    input.end();
    abort.abort();
  })();
  const name = programName(args[0] ?? '');
  const program = device.commands.get(name);
  const context: CommandContext = {
    device,
    argv: args,
    env,
    cwd: fields.get('cwd') ?? '/',
    uid: Number(fields.get('uid') ?? 2000),
    pid: Number(fields.get('pid') ?? 0),
    readStdin: input.read,
    stdout: (data) => send(socket, PacketId.Stdout, data),
    stderr: (data) => send(socket, PacketId.Stderr, data),
    pty: fields.get('stdout_tty') === '1',
    signal: abort.signal,
  };
  let result: CommandResult;
  try {
    if (!program) {
      await context.stderr(`${name}: not supported on this device\n`);
      result = 1;
    } else {
      result = await program(context);
    }
  } catch (error) {
    // The program's output went away (`… | head`, a killed client): it dies of that, quietly.
    if (abort.signal.aborted || socket.destroyed || ['EPIPE', 'ECONNRESET'].includes((error as NodeJS.ErrnoException).code ?? '')) return;
    console.error(`simulated device: ${name} failed:`, error);
    result = 1;
  }
  if (socket.destroyed) return;
  if (typeof result === 'number') socket.end(packet(PacketId.Exit, new Uint8Array([result & 0xff])));
  else socket.end(packet(PacketId.Signal, String(result.signal)));
}

/**
 * Listens on `path` (the host side of `/dev/socket/system_server`) for the device's programs.
 * Returns the server; closing it stops new runs.
 */
export function startSystemServer(device: Device, path: string): Server {
  rmSync(path, {force: true});
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    void serve(device, socket).catch((error: unknown) => {
      console.error('simulated device: system server:', error);
      socket.destroy();
    });
  });
  server.listen(path, () => chmodSync(path, 0o666));
  server.unref();
  return server;
}
