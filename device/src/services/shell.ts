/**
 * The shell services, as adbd serves them (`daemon/services.cpp` `ShellService`,
 * `daemon/shell_service.cpp`, `shell_protocol.h`):
 * - `shell:COMMAND` / `shell[,ARG…]:COMMAND`: ARGs `raw`, `pty`, `v2` (the shell protocol) and
 *   `TERM=…`. Without `raw`/`pty`, an empty command gets a PTY (an interactive shell) and a
 *   command gets none. Without `v2`, stdout and stderr share the stream, there is no exit code,
 *   and the stream closes when the command ends.
 * - `exec:COMMAND`: raw, no shell protocol.
 * - The shell protocol frames each direction as `id u8, length u32 LE, data` (the library's
 *   `AdbShellProtocolPacket`): stdin 0, stdout 1, stderr 2, exit 3 (one byte), close-stdin 4,
 *   window-size-change 5 (`ROWSxCOLS,XPIXxYPIX`). Under a PTY stderr goes to stdout and `\n` is
 *   sent as `\r\n`, as a terminal's `onlcr` does.
 */
import {AdbShellProtocolId, AdbShellProtocolPacket} from '@tango-v2/adb';
import {ExactReadableEndedError, StructDeserializeError} from '@tango-v2/struct';

import {ByteReader} from '../byte-reader.ts';

import type {SimulatedDevice} from '../device.ts';
import {runLine, runScript, ShellExit, type ShellIo} from '../shell/run.ts';
import {SocketClosedError, WindowSize, type DeviceSocket} from '../types.ts';
import type {ServiceHandler} from './index.ts';

/** How one shell stream runs: its protocol, whether it has a PTY, its command and `$TERM`. */
export interface ShellRequest {
  protocol: 'none' | 'shell';
  pty: boolean;
  command: string;
  term: string;
}

/** Parses `shell…:` and `exec:` service strings; `undefined` for any other service. */
export function parseShellService(service: string): ShellRequest | undefined {
  if (service.startsWith('exec:')) return {protocol: 'none', pty: false, command: service.slice(5), term: 'dumb'};
  if (!service.startsWith('shell')) return undefined;
  const rest = service.slice(5);
  const colon = rest.indexOf(':');
  if (colon === -1 || (colon > 0 && !rest.startsWith(','))) return undefined;
  const command = rest.slice(colon + 1);
  const request: ShellRequest = {protocol: 'none', pty: command === '', command, term: 'dumb'};
  for (const arg of rest.slice(0, colon).split(',')) {
    if (arg === 'raw') request.pty = false;
    else if (arg === 'pty') request.pty = true;
    else if (arg === 'v2') request.protocol = 'shell';
    else if (arg.startsWith('TERM=')) request.term = arg.slice(5);
  }
  return request;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const toBytes = (data: Uint8Array | string) => (typeof data === 'string' ? encoder.encode(data) : data);
/** A terminal's `onlcr`: each `\n` not already after `\r` goes out as `\r\n`. */
const onlcr = (data: Uint8Array | string) =>
  encoder.encode((typeof data === 'string' ? data : decoder.decode(data)).replace(/\r?\n/g, '\r\n'));

/** The environment a shell starts with on the device (what `adb shell env` shows, trimmed). */
function shellEnvironment(term: string): Record<string, string> {
  return {
    PATH: '/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin',
    HOME: '/',
    TMPDIR: '/data/local/tmp',
    USER: 'shell',
    LOGNAME: 'shell',
    SHELL: '/bin/sh',
    HOSTNAME: 'localhost',
    ANDROID_ROOT: '/system',
    ANDROID_DATA: '/data',
    EXTERNAL_STORAGE: '/sdcard',
    TERM: term,
  };
}

/**
 * Standard input pulled from `source` one chunk at a time, only while someone waits for one (so
 * an unread stream still stops the host's writes). A reader that gives up (its signal aborts)
 * leaves the chunk that then arrives to the next reader.
 */
class PulledInput {
  readonly #source: () => Promise<Uint8Array | undefined>;
  readonly #chunks: Uint8Array[] = [];
  readonly #waiting: Array<(chunk: Uint8Array | undefined) => void> = [];
  #pulling = false;
  #ended = false;
  constructor(source: () => Promise<Uint8Array | undefined>) {
    this.#source = source;
  }
  read = (signal?: AbortSignal): Promise<Uint8Array | undefined> => {
    const chunk = this.#chunks.shift();
    if (chunk || this.#ended || signal?.aborted) return Promise.resolve(chunk);
    return new Promise((resolve) => {
      const waiter = (value: Uint8Array | undefined) => {
        signal?.removeEventListener('abort', giveUp);
        resolve(value);
      };
      const giveUp = () => {
        this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
        resolve(undefined);
      };
      this.#waiting.push(waiter);
      signal?.addEventListener('abort', giveUp, {once: true});
      this.#pull();
    });
  };
  #pull(): void {
    if (this.#pulling) return;
    this.#pulling = true;
    void this.#source().then((chunk) => {
      this.#pulling = false;
      if (!chunk) {
        this.#ended = true;
        for (const waiter of this.#waiting.splice(0)) waiter(undefined);
        return;
      }
      const waiter = this.#waiting.shift();
      if (waiter) waiter(chunk);
      else this.#chunks.push(chunk);
      if (this.#waiting.length > 0) this.#pull();
    });
  }
}

/** A queue of stdin chunks fed by the shell protocol's packet loop. */
class InputQueue {
  readonly #chunks: Uint8Array[] = [];
  readonly #readers: Array<(chunk: Uint8Array | undefined) => void> = [];
  #ended = false;
  push(chunk: Uint8Array): void {
    const reader = this.#readers.shift();
    if (reader) reader(chunk);
    else this.#chunks.push(chunk);
  }
  end(): void {
    this.#ended = true;
    for (const reader of this.#readers.splice(0)) reader(undefined);
  }
  read = (): Promise<Uint8Array | undefined> => {
    const chunk = this.#chunks.shift();
    if (chunk || this.#ended) return Promise.resolve(chunk);
    return new Promise((resolve) => this.#readers.push(resolve));
  };
}

/** Reads shell-protocol packets from the host until the stream ends; stdin goes to `input`. */
async function readShellPackets(
  socket: DeviceSocket,
  input: InputQueue,
  onWindowSize: (rows: number, cols: number) => void,
): Promise<void> {
  const reader = new ByteReader(socket);
  try {
    for (;;) {
      const packet = await AdbShellProtocolPacket.deserialize(reader);
      if (packet.id === AdbShellProtocolId.Stdin) input.push(packet.data);
      else if (packet.id === AdbShellProtocolId.CloseStdin) input.end();
      else if (packet.id === AdbShellProtocolId.WindowSizeChange) {
        // `ROWSxCOLS,XPIXxYPIX`, then a NUL.
        const [rows = 0, cols = 0] = decoder.decode(packet.data).split(/[x,]/).map(Number);
        onWindowSize(rows, cols);
      }
    }
  } catch (error) {
    // The stream ended (between or inside packets).
    if (!(error instanceof StructDeserializeError) && !(error instanceof ExactReadableEndedError)) throw error;
  } finally {
    input.end();
  }
}

/** Serves one shell stream until its command (or the interactive shell) ends. */
export async function serveShell(device: SimulatedDevice, socket: DeviceSocket, request: ShellRequest): Promise<void> {
  const abort = new AbortController();
  void socket.closed.then(() => abort.abort());
  const env = shellEnvironment(request.term);
  const window = request.pty ? new WindowSize() : undefined;
  let io: ShellIo;
  if (request.protocol === 'none') {
    const write = (data: Uint8Array | string) => socket.write(request.pty ? onlcr(data) : toBytes(data));
    io = {
      readStdin: new PulledInput(() => socket.read()).read,
      stdout: write,
      stderr: write,
      pty: request.pty,
      signal: abort.signal,
      window,
    };
  } else {
    const input = new InputQueue();
    const packet = (id: number) => (data: Uint8Array | string) =>
      socket.write(AdbShellProtocolPacket.serialize({id: id as AdbShellProtocolId, data: request.pty ? onlcr(data) : toBytes(data)}));
    io = {
      readStdin: new PulledInput(input.read).read,
      stdout: packet(AdbShellProtocolId.Stdout),
      stderr: packet(request.pty ? AdbShellProtocolId.Stdout : AdbShellProtocolId.Stderr),
      pty: request.pty,
      signal: abort.signal,
      window,
    };
    void readShellPackets(socket, input, (rows, cols) => {
      // mksh sets $COLUMNS and $LINES on SIGWINCH.
      env.LINES = String(rows);
      env.COLUMNS = String(cols);
      window?.resize(rows, cols);
    });
  }

  let status: number;
  try {
    if (request.command === '') status = await runScript(device, io, env, true);
    else status = await runLine(device, request.command, io, env, {status: 0});
  } catch (error) {
    if (error instanceof ShellExit) status = error.code;
    else if (error instanceof SocketClosedError) return;
    else throw error;
  }
  if (request.protocol === 'shell' && !socket.isClosed) {
    await socket
      .write(AdbShellProtocolPacket.serialize({id: AdbShellProtocolId.Exit, data: new Uint8Array([status & 0xff])}))
      .catch(() => undefined);
  }
}

/** `shell…:` and `exec:`. */
export const shellServices: ServiceHandler[] = [
  {
    open(service, transport) {
      const request = parseShellService(service);
      if (!request) return undefined;
      if (request.protocol === 'shell' && !transport.device.features.includes('shell_v2')) return undefined;
      return (socket) => serveShell(transport.device, socket, request);
    },
  },
];
