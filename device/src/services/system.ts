/**
 * adbd's other services (`daemon/services.cpp` `daemon_service_to_fd`, `daemon/restart_service.cpp`,
 * `adb.cpp` `handle_forward_request`): `reverse:`, `tcpip:`, `usb:`, `reboot:`, `root:`,
 * `unroot:`, `reconnect`, `abb_exec:`/`abb:`, and the forward tunnels to local sockets that device
 * programs listen on (`localabstract:`, `localreserved:`, `localfilesystem:`, `tcp:`).
 */
import type {Socket} from 'node:net';

import {pipe} from '../sandbox/bridge.ts';
import {Sandbox} from '../sandbox/sandbox.ts';
import type {DeviceSocket, Device, HostConnection, ServiceHandler} from '../types.ts';
import {serveAbb} from './abb.ts';

/** `OKAY`, or `FAIL` and a protocol string (adbd `SendOkay`/`SendFail`). */
const okay = 'OKAY';
/** A protocol string: its length as 4 hex digits, then the text (adbd `SendProtocolString`). */
const protocolString = (text: string) => Buffer.byteLength(text).toString(16).padStart(4, '0') + text;
const fail = (message: string) => `FAIL${protocolString(message)}`;

/** First port picked for `reverse:forward:tcp:0;…` where no sandbox listens (the kernel picks it in the sandbox). */
const FIRST_PICKED_PORT = 38211;

/** The sandbox listeners of each connection's reverse tunnels, by device address: their `close`. */
const reverseListeners = new WeakMap<HostConnection, Map<string, () => void>>();

/** After a service that restarts adbd wrote its line, every host connection drops, as adbd restarts. */
function restartDaemon(device: Device): void {
  setTimeout(() => {
    for (const transport of device.transports) transport.close();
  }, 20);
}

/**
 * Listens in the sandbox on a reverse tunnel's device address, so that device programs reach the
 * host through it (adb `listeners.cpp` `install_listener`): each connection opens a stream to the
 * host's address. Resolves with the port (for `tcp:0`); rejects with the error text.
 */
async function listenForHost(transport: HostConnection, local: string, remote: string): Promise<number> {
  const sandbox = await transport.device.sandbox();
  const listeners = reverseListeners.get(transport) ?? new Map<string, () => void>();
  if (!reverseListeners.has(transport)) {
    reverseListeners.set(transport, listeners);
    void transport.closed.then(() => {
      for (const close of listeners.values()) close();
      listeners.clear();
    });
  }
  listeners.get(local)?.();
  listeners.delete(local);
  const onConnection = (socket: Socket) => {
    const target = transport.reverseTunnels.get(local.replace(/^tcp:0$/, `tcp:${port}`)) ?? remote;
    transport.openToHost(target).then(
      (stream) => void pipe(stream, socket),
      () => socket.destroy(),
    );
  };
  // adbd closes a removed listener at once; here the sandbox closes it when it sees its request's
  // connection end, a moment later. A listener on the same address made right after (`reverse
  // --remove-all`, then `reverse tcp:5566 …` again) waits for that, up to a second, instead of
  // failing with `Address already in use`.
  let listening: {port: number; close: () => void} | undefined;
  for (let attempt = 0; !listening; attempt++) {
    try {
      listening = await sandbox.listen(local, onConnection);
    } catch (error) {
      if (attempt >= 20 || !/Address already in use/.test(String((error as Error).message ?? error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const {port, close} = listening;
  listeners.set(local === 'tcp:0' ? `tcp:${port}` : local, close);
  return port;
}

/** Answers one `reverse:` request on `transport` (adb `adb.cpp` `handle_forward_request`). */
async function reverse(command: string, transport: HostConnection): Promise<string> {
  const tunnels = transport.reverseTunnels;
  const listeners = reverseListeners.get(transport);
  if (command === 'list-forward') {
    return protocolString([...tunnels].map(([local, remote]) => `${transport.serial} ${local} ${remote}\n`).join(''));
  }
  if (command === 'killforward-all') {
    tunnels.clear();
    for (const close of listeners?.values() ?? []) close();
    listeners?.clear();
    return okay;
  }
  if (command.startsWith('killforward:')) {
    const local = command.slice('killforward:'.length);
    if (!local || local.includes(';')) return fail(`bad killforward: ${local}`);
    if (!tunnels.delete(local)) return fail(`listener '${local}' not found`);
    listeners?.get(local)?.();
    listeners?.delete(local);
    return okay;
  }
  if (command.startsWith('forward:')) {
    let spec = command.slice('forward:'.length);
    const noRebind = spec.startsWith('norebind:');
    if (noRebind) spec = spec.slice('norebind:'.length);
    const pieces = spec.split(';');
    if (pieces.length !== 2 || !pieces[0] || !pieces[1] || pieces[1].startsWith('*')) return fail(`bad forward: ${spec}`);
    const remote = pieces[1];
    let local = pieces[0];
    if (noRebind && tunnels.has(local)) return fail('cannot rebind existing socket');
    let picked = '';
    if (Sandbox.unavailable()) {
      if (local === 'tcp:0') {
        let port = FIRST_PICKED_PORT;
        while (tunnels.has(`tcp:${port}`)) port++;
        local = `tcp:${port}`;
        picked = protocolString(String(port));
      }
    } else {
      try {
        const port = await listenForHost(transport, local, remote);
        if (local === 'tcp:0') {
          local = `tcp:${port}`;
          picked = protocolString(String(port));
        }
      } catch (error) {
        return fail(`cannot bind listener: ${(error as Error).message}`);
      }
    }
    tunnels.set(local, remote);
    return okay + picked;
  }
  return fail('not a reverse forwarding command');
}

/** A service that writes one text and ends. */
const reply =
  (text: string, after?: () => void) =>
  async (socket: DeviceSocket): Promise<void> => {
    if (text) await socket.write(text);
    after?.();
  };

export const systemServices: ServiceHandler[] = [
  {
    open(service, transport) {
      if (!service.startsWith('reverse:')) return undefined;
      return reverse(service.slice('reverse:'.length), transport).then((text) => reply(text));
    },
  },
  {
    open(service, transport) {
      const device = transport.device;
      if (service.startsWith('tcpip:')) {
        const port = Number.parseInt(service.slice('tcpip:'.length), 10);
        if (Number.isNaN(port)) return undefined;
        if (port <= 0) return reply(`invalid port ${port}\n`);
        return reply(`restarting in TCP mode port: ${port}\n`, () => {
          device.properties.set('service.adb.tcp.port', String(port));
          restartDaemon(device);
        });
      }
      if (service.startsWith('usb:')) {
        return reply('restarting in USB mode\n', () => {
          device.properties.set('service.adb.tcp.port', '0');
          restartDaemon(device);
        });
      }
      if (service.startsWith('reboot:')) return reply('', () => restartDaemon(device));
      if (service === 'reconnect') return reply('done', () => restartDaemon(device));
      if (service.startsWith('root:')) {
        if (device.properties.get('service.adb.root') === '1') return reply('adbd is already running as root\n');
        if (device.properties.get('ro.debuggable') !== '1') return reply('adbd cannot run as root in production builds\n');
        return reply('restarting adbd as root\n', () => {
          device.properties.set('service.adb.root', '1');
          restartDaemon(device);
        });
      }
      if (service.startsWith('unroot:')) {
        if (device.properties.get('service.adb.root') !== '1') return reply('adbd not running as root\n');
        return reply('restarting adbd as non root\n', () => {
          device.properties.set('service.adb.root', '0');
          restartDaemon(device);
        });
      }
      return undefined;
    },
  },
  {
    // adbd `daemon/abb_service.cpp`, `daemon/abb.cpp`: `cmd` run inside adbd's abb helper.
    open(service, transport) {
      const exec = service.startsWith('abb_exec:');
      if (!exec && !service.startsWith('abb:')) return undefined;
      if (!transport.device.features.includes(exec ? 'abb_exec' : 'abb')) return undefined;
      const args = service.slice(service.indexOf(':') + 1);
      return (socket) => serveAbb(transport.device, socket, args, exec ? 'none' : 'shell');
    },
  },
  {
    // A forward tunnel: the host connects to a socket a device program listens on, one the
    // Node.js side plays (the Scrcpy server, Termux's web server) or one in the sandbox. Nothing
    // listening answers CLSE, as adbd's failed `socket_spec_connect` does.
    async open(service, transport) {
      if (!/^(localabstract|localreserved|localfilesystem|tcp):/.test(service)) return undefined;
      const listener = transport.device.localListener(service);
      if (listener) {
        return async (socket) => {
          listener(socket);
          await socket.closed;
        };
      }
      if (Sandbox.unavailable()) return undefined;
      try {
        const inner = await (await transport.device.sandbox()).connect(service);
        return (socket) => pipe(socket, inner);
      } catch {
        return undefined;
      }
    },
  },
];
