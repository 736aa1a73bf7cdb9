/**
 * `abb:` and `abb_exec:`: `cmd` run inside adbd's abb helper rather than as a process
 * (LineageOS/android_packages_modules_adb lineage-21.0, `daemon/abb.cpp`,
 * `daemon/shell_service.cpp` `StartCommandInProcess`, `ExecInProcess`, `WaitForExit`):
 *
 * - the arguments are separated by NUL, and empty ones are dropped (`parseCmdArgs`);
 * - `abb:` speaks the shell protocol with stderr apart; `abb_exec:` has none, and stderr shares
 *   the stream;
 * - the stream's input is the command's standard input;
 * - `abb:`'s exit packet always says 1: the in-process command has no pid, so `WaitForExit`
 *   sends its initial code whatever `cmd` returned.
 */
import {PacketId, packet} from '../sandbox/packets.ts';
import {SocketClosedError, type CommandContext, type DeviceSocket, type Device} from '../types.ts';

/** `WaitForExit`'s code for a command run in the process (no pid to wait for). */
const IN_PROCESS_EXIT_CODE = 1;

/** Reads the stream's input: raw bytes, or the shell protocol's stdin packets (close-stdin ends it). */
function inputOf(stream: DeviceSocket, protocol: 'none' | 'shell'): () => Promise<Uint8Array | undefined> {
  if (protocol === 'none') return () => stream.read();
  let buffer = Buffer.alloc(0);
  let ended = false;
  return async () => {
    for (;;) {
      if (ended) return undefined;
      if (buffer.length >= 5 && buffer.length >= 5 + buffer.readUInt32LE(1)) {
        const id = buffer[0]!;
        const length = buffer.readUInt32LE(1);
        const data = buffer.subarray(5, 5 + length);
        buffer = buffer.subarray(5 + length);
        if (id === PacketId.Stdin) return new Uint8Array(data);
        if (id === PacketId.CloseStdin) {
          ended = true;
          return undefined;
        }
        continue;
      }
      const chunk = await stream.read();
      if (!chunk) {
        ended = true;
        return undefined;
      }
      buffer = Buffer.concat([buffer, chunk]);
    }
  };
}

/** Runs `cmd` with the NUL-separated arguments of an `abb` service on its stream. */
export async function serveAbb(device: Device, stream: DeviceSocket, args: string, protocol: 'none' | 'shell'): Promise<void> {
  const abort = new AbortController();
  void stream.closed.then(() => abort.abort());
  const read = inputOf(stream, protocol);
  const output = (id: number) => (data: Uint8Array | string) => stream.write(protocol === 'shell' ? packet(id, data) : data);
  const context: CommandContext = {
    device,
    argv: ['cmd', ...args.split('\0').filter((arg) => arg !== '')],
    env: {},
    cwd: '/',
    uid: device.properties.get('service.adb.root') === '1' ? 0 : 2000,
    pid: 0,
    readStdin: (signal) => (signal?.aborted ? Promise.resolve(undefined) : read()),
    stdout: output(PacketId.Stdout),
    stderr: output(PacketId.Stderr),
    pty: false,
    signal: abort.signal,
  };
  const program = device.commands.get('cmd');
  try {
    if (program) await program(context);
    if (protocol === 'shell') await stream.write(packet(PacketId.Exit, new Uint8Array([IN_PROCESS_EXIT_CODE])));
  } catch (error) {
    if (!(error instanceof SocketClosedError)) throw error;
  }
}
