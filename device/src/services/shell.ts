/**
 * The shell services, as adbd serves them (LineageOS/android_packages_modules_adb lineage-21.0,
 * `daemon/services.cpp` `ShellService`, `daemon/shell_service.cpp` `StartSubprocess`,
 * `ForkAndExec`): the process runs in the device's sandbox, started by adbd's device side
 * (`device/native/adbd.c`), which relays its streams as shell-protocol packets.
 *
 * - `shell[,ARG…]:COMMAND`: ARGs `raw`, `pty`, `v2` (the shell protocol) and `TERM=…` (default
 *   `dumb`). Without `raw`/`pty`, an empty command gets a PTY (an interactive shell) and a command
 *   gets none. Without `v2` there is no exit code, stdout and stderr share the stream, and a
 *   command without a PTY gets one anyway, in raw mode (so that closing it hangs the process up).
 * - `exec:COMMAND`: as `shell:COMMAND`, without `TERM`.
 * - A command runs as `/system/bin/sh -c COMMAND`; no command runs a login shell
 *   (`-/system/bin/sh`, stock AOSP's), which reads `/system/etc/mkshrc`.
 * - The environment is adbd's (init's: `PATH` and the `ANDROID_*` variables of
 *   `system/core/rootdir/init.environ.rc.in`), plus `HOME`, `HOSTNAME` (`ro.product.device`, as
 *   the kernel's host name is `localhost`), `LOGNAME`, `SHELL`, `TMPDIR`, `USER` and `TERM`.
 * - A process that can't start answers `error: TEXT` and, with the shell protocol, exit code 126
 *   (`ReportError`).
 */
import type {Socket} from 'node:net';

import {adbdCredentials, type Credentials} from '../fs.ts';
import {PacketId, packet} from '../sandbox/packets.ts';
import type {SandboxProcess} from '../sandbox/sandbox.ts';
import type {DeviceSocket, Device, ServiceHandler} from '../types.ts';

/** How one shell stream runs: its protocol, whether it has a PTY (raw or not), its command and `$TERM`. */
export interface ShellRequest {
  protocol: 'none' | 'shell';
  pty: boolean;
  /** A PTY in raw mode (no echo, no line editing), for a command without the shell protocol. */
  raw: boolean;
  command: string;
  /** `undefined` for `exec:`, which sets no `TERM`. */
  term: string | undefined;
}

/** Parses `shell…:` and `exec:` service strings; `undefined` for any other service. */
export function parseShellService(service: string): ShellRequest | undefined {
  if (service.startsWith('exec:')) return {protocol: 'none', pty: true, raw: true, command: service.slice(5), term: undefined};
  if (!service.startsWith('shell')) return undefined;
  const rest = service.slice(5);
  const colon = rest.indexOf(':');
  if (colon === -1 || (colon > 0 && !rest.startsWith(','))) return undefined;
  const command = rest.slice(colon + 1);
  const request: ShellRequest = {protocol: 'none', pty: command === '', raw: false, command, term: 'dumb'};
  for (const arg of rest.slice(0, colon).split(',')) {
    if (arg === 'raw') request.pty = false;
    else if (arg === 'pty') request.pty = true;
    else if (arg === 'v2') request.protocol = 'shell';
    else if (arg.startsWith('TERM=')) request.term = arg.slice(5);
  }
  if (request.protocol === 'none' && !request.pty) {
    request.pty = true;
    request.raw = true;
  }
  return request;
}

/** bionic's `_PATH_DEFPATH`, which init exports as `PATH`. */
export const DEFAULT_PATH =
  '/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin';

/** The environment adbd gives a process (see the module comment). */
export function shellEnvironment(device: Device, credentials: Credentials, term: string | undefined): Record<string, string> {
  const user = credentials.uid === 0 ? 'root' : 'shell';
  return {
    PATH: DEFAULT_PATH,
    ANDROID_BOOTLOGO: '1',
    ANDROID_ROOT: '/system',
    ANDROID_ASSETS: '/system/app',
    ANDROID_DATA: '/data',
    ANDROID_STORAGE: '/storage',
    ANDROID_ART_ROOT: '/apex/com.android.art',
    ANDROID_I18N_ROOT: '/apex/com.android.i18n',
    ANDROID_TZDATA_ROOT: '/apex/com.android.tzdata',
    EXTERNAL_STORAGE: '/sdcard',
    ASEC_MOUNTPOINT: '/mnt/asec',
    DOWNLOAD_CACHE: '/data/cache',
    HOME: '/',
    HOSTNAME: device.properties.get('ro.product.device') ?? 'android',
    LOGNAME: user,
    SHELL: '/bin/sh',
    TMPDIR: '/data/local/tmp',
    USER: user,
    ...(term ? {TERM: term} : {}),
  };
}

/** Writes to a node socket, waiting for it to take the data. */
function writeTo(socket: Socket, data: Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) resolve();
    else socket.write(data, () => resolve());
  });
}

/**
 * Relays a sandbox process and an ADB stream until the process's side ends (after its exit
 * packet) or the host closes the stream (the process then gets SIGHUP, or its PTY hangs up).
 * With the shell protocol the packets pass as they are; without it, stdin is wrapped into
 * packets and only stdout (a PTY's output) goes to the host.
 */
export async function relayProcess(stream: DeviceSocket, child: SandboxProcess, protocol: 'none' | 'shell'): Promise<void> {
  const {socket, packets} = child;
  void stream.closed.then(() => socket.destroy());
  const toProcess = (async () => {
    for await (const chunk of stream) {
      await writeTo(socket, protocol === 'shell' ? chunk : packet(PacketId.Stdin, chunk));
    }
    socket.destroy();
  })();
  try {
    for (;;) {
      const next = await packets.read();
      if (!next) break;
      if (protocol === 'shell') await stream.write(packet(next.id, next.data));
      else if (next.id === PacketId.Stdout || next.id === PacketId.Stderr) await stream.write(next.data);
    }
  } catch {
    // The host closed the stream while output was on its way.
  } finally {
    socket.destroy();
    stream.close();
  }
  await toProcess.catch(() => undefined);
}

/** adbd's `ReportError`: `error: TEXT` and, with the shell protocol, exit code 126. */
async function reportError(stream: DeviceSocket, protocol: 'none' | 'shell', text: string): Promise<void> {
  const message = `error: ${text}\n`;
  if (protocol === 'shell') {
    await stream.write(Buffer.concat([packet(PacketId.Stderr, message), packet(PacketId.Exit, new Uint8Array([126]))]));
  } else {
    await stream.write(message);
  }
  stream.close();
}

/** Serves one shell stream until its process ends or the host closes it. */
export async function serveShell(device: Device, stream: DeviceSocket, request: ShellRequest): Promise<void> {
  const credentials = adbdCredentials(device.properties);
  let child: SandboxProcess;
  try {
    const sandbox = await device.sandbox();
    child = await sandbox.spawn({
      path: '/system/bin/sh',
      argv: request.command === '' ? ['-/system/bin/sh'] : ['/system/bin/sh', '-c', request.command],
      env: shellEnvironment(device, credentials, request.term),
      pty: request.pty,
      raw: request.raw,
      protocol: request.protocol === 'shell',
      credentials,
    });
  } catch (error) {
    await reportError(stream, request.protocol, (error as Error).message);
    return;
  }
  await relayProcess(stream, child, request.protocol);
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
