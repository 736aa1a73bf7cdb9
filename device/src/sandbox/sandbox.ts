/**
 * The sandbox where the device's programs run: a bubblewrap (`bwrap`) container whose `/` is the
 * device's tree (`rootfs.ts` `deviceMounts`: bind mounts of the device's copy of userdata and the
 * shared system image, a new procfs with the phone's files laid over it, bubblewrap's `/dev` and
 * the device's socket folder at `/dev/socket`), with its own process, network, IPC and host-name
 * namespaces (host name `localhost`, as init sets it on a phone). Its pid 1 is `/system/bin/init`,
 * which starts adbd's device side (`device/native/`); this class asks that adbd, over
 * `/dev/socket/adbd`, to spawn processes and to connect or listen on sockets inside.
 *
 * Needs Linux, Debian's `bubblewrap`, and root (the device's files belong to Android's users, and
 * adbd drops each process to the shell user); `Sandbox.unavailable()` says what is missing.
 */
import {spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {readdirSync, statSync} from 'node:fs';
import {connect, type Socket} from 'node:net';
import {join} from 'node:path';

import type {Credentials, Mount} from '../fs.ts';
import type {DeviceTree} from '../rootfs.ts';
import {PacketId, PacketReader, requestPacket} from './packets.ts';

/** How to start a process (adbd's `Subprocess`). */
export interface SpawnRequest {
  /** The program's path (default `argv[0]`). */
  path?: string;
  argv: readonly string[];
  env: Readonly<Record<string, string>>;
  cwd?: string;
  /** A PTY (`raw`: in raw mode, as adbd makes one for a service without the shell protocol); else socketpairs. */
  pty: boolean;
  raw?: boolean;
  /** Whether the host speaks the shell protocol (SIGHUP to the process when it goes away). */
  protocol: boolean;
  /** Without a PTY: stderr on the stdout socket. */
  merge?: boolean;
  rows?: number;
  cols?: number;
  credentials: Credentials;
}

/** A started process: its pid in the sandbox, and its shell-protocol packets (stdin in; stdout, stderr, exit out). */
export interface SandboxProcess {
  pid: number;
  socket: Socket;
  packets: PacketReader;
}

/** Lists every file under `dir`, as paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const name of readdirSync(join(dir, prefix))) {
    const relative = prefix ? `${prefix}/${name}` : name;
    if (statSync(join(dir, relative)).isDirectory()) files.push(...filesUnder(dir, relative));
    else files.push(relative);
  }
  return files;
}

/** bubblewrap's arguments for a device's mounts, outermost first. */
export function bwrapArguments(mounts: readonly Mount[]): string[] {
  const args: string[] = [];
  for (const mount of [...mounts].sort((a, b) => a.path.length - b.path.length)) {
    if (mount.kind === 'proc') {
      args.push('--proc', mount.path);
      for (const file of filesUnder(mount.source)) args.push('--ro-bind', join(mount.source, file), `${mount.path}/${file}`);
    } else if (mount.kind === 'dev') {
      args.push('--dev', mount.path);
    } else {
      args.push(mount.readOnly ? '--ro-bind' : '--bind', mount.source, mount.path);
    }
  }
  return [
    ...args,
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--hostname',
    'localhost',
    '--die-with-parent',
    '--as-pid-1',
    '--clearenv',
    '--chdir',
    '/',
    // A phone's init, past its first stage, shows this command line.
    '/system/bin/init',
    'second_stage',
  ];
}

let missing: string | undefined | null = null;

export class Sandbox {
  readonly #tree: DeviceTree;
  readonly #process: ChildProcess;
  #log = '';
  #exited = false;

  /**
   * Why no sandbox can start on this machine (a sentence naming what to install or change), or
   * `undefined` when one can.
   */
  static unavailable(): string | undefined {
    if (missing === null) {
      if (process.platform !== 'linux')
        missing = `The simulated device's shell runs Android's mksh and toybox in a Linux sandbox (bubblewrap); ${process.platform} has none.`;
      else if (process.getuid?.() !== 0)
        missing = "The simulated device's shell needs root: its sandbox gives the device's files Android's owners.";
      else if (spawnSync('bwrap', ['--version']).error)
        missing = "The simulated device's shell needs bubblewrap: apt-get install -y bubblewrap";
      else missing = undefined;
    }
    return missing;
  }

  /** Starts the sandbox of a device tree. Throws with `unavailable()`'s reason. */
  constructor(tree: DeviceTree) {
    const reason = Sandbox.unavailable();
    if (reason) throw new Error(reason);
    this.#tree = tree;
    this.#process = spawn('bwrap', bwrapArguments(tree.mounts), {stdio: ['ignore', 'ignore', 'pipe']});
    this.#process.stderr!.setEncoding('utf8');
    this.#process.stderr!.on('data', (text: string) => (this.#log = (this.#log + text).slice(-4000)));
    this.#process.once('exit', () => (this.#exited = true));
    this.#process.unref();
    (this.#process.stderr as unknown as {unref?: () => void}).unref?.();
  }

  /** Opens a connection to the sandbox's adbd, waiting for it to listen (it starts with the sandbox). */
  async #open(): Promise<Socket> {
    const path = join(this.#tree.sockets, 'adbd');
    const started = Date.now();
    for (;;) {
      const socket = connect(path);
      const error = await new Promise<Error | undefined>((resolve) => {
        socket.once('connect', () => resolve(undefined));
        socket.once('error', resolve);
      });
      if (!error) return socket;
      socket.destroy();
      if (this.#exited) throw new Error(`the device's sandbox ended: ${this.#log.trim()}`);
      if (Date.now() - started > 10_000) throw new Error(`the device's adbd did not start: ${error.message} ${this.#log.trim()}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Sends a request and reads adbd's result; throws with its error text. Leaves the reader on the packets after it. */
  async #request(packet: Buffer): Promise<{socket: Socket; packets: PacketReader; detail: string}> {
    const socket = await this.#open();
    socket.setNoDelay?.(true);
    socket.write(packet);
    const packets = new PacketReader(socket);
    const reply = await packets.read();
    if (!reply || reply.id !== PacketId.Result) {
      socket.destroy();
      throw new Error(`the device's adbd closed the connection ${this.#log.trim()}`);
    }
    const text = reply.data.toString('utf8');
    if (!text.startsWith('ok')) {
      socket.destroy();
      throw new Error(text.replace(/^error /, ''));
    }
    return {socket, packets, detail: text.slice(3)};
  }

  /** Starts a process (see `SpawnRequest`). Rejects with adbd's error text ("Exec '…' failed: …"). */
  async spawn(request: SpawnRequest): Promise<SandboxProcess> {
    const {credentials} = request;
    const {socket, packets, detail} = await this.#request(
      requestPacket(
        'spawn',
        {
          path: request.path,
          pty: request.pty,
          raw: request.raw ?? false,
          protocol: request.protocol,
          merge: request.merge ?? false,
          rows: request.rows,
          cols: request.cols,
          uid: credentials.uid,
          gid: credentials.gid,
          groups: credentials.groups.join(','),
          cwd: request.cwd ?? '/',
        },
        request.argv,
        request.env,
      ),
    );
    return {pid: Number(detail), socket, packets};
  }

  /**
   * Connects to a socket inside the sandbox's network (`tcp:PORT`, `localabstract:NAME`, …), as
   * adbd does for a forward tunnel. Resolves with a socket carrying the bytes both ways; rejects
   * with the error text (`Connection refused`). The socket is paused until its reader comes.
   */
  async connect(address: string): Promise<Socket> {
    const {socket, packets} = await this.#request(requestPacket('connect', {address}));
    // Left paused: what the program sends at once (nc's banner) waits for the reader, who
    // comes after the stream's OKAY; a flowing socket would drop it.
    packets.release();
    return socket;
  }

  /**
   * Listens on a socket inside the sandbox (a reverse tunnel's device side). Each connection that
   * device programs make reaches `onConnection` as a socket carrying the bytes. Resolves with the
   * port (for `tcp:0`) and the function that stops listening; rejects with the error text
   * (`Address already in use`).
   */
  async listen(address: string, onConnection: (socket: Socket) => void): Promise<{port: number; close: () => void}> {
    const {socket, packets, detail} = await this.#request(requestPacket('listen', {address}));
    void (async () => {
      for (;;) {
        const accepted = await packets.read();
        if (!accepted) break;
        if (accepted.id !== PacketId.Accept) continue;
        const token = accepted.data.toString('utf8');
        this.#request(requestPacket('take', {token})).then(
          ({socket: taken, packets: takenPackets}) => {
            takenPackets.release();
            onConnection(taken);
          },
          () => undefined,
        );
      }
    })();
    return {port: Number(detail), close: () => socket.destroy()};
  }

  /** Whether the sandbox ended (its init or adbd died). */
  get exited(): boolean {
    return this.#exited;
  }

  /** Ends every process of the sandbox (its pid 1 dies with bubblewrap). */
  close(): void {
    if (!this.#exited) this.#process.kill('SIGKILL');
  }
}
