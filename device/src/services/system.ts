/**
 * adbd's other services (`daemon/services.cpp` `daemon_service_to_fd`, `daemon/restart_service.cpp`,
 * `adb.cpp` `handle_forward_request`): `reverse:`, `tcpip:`, `usb:`, `reboot:`, `root:`,
 * `unroot:`, `reconnect`, `abb_exec:`/`abb:`, and the forward tunnels to local sockets that device
 * programs listen on (`localabstract:`, `localreserved:`, `localfilesystem:`, `tcp:`).
 */
import type {SimulatedDevice} from '../device.ts';
import type {DeviceTransport} from '../transport.ts';
import type {DeviceSocket} from '../types.ts';
import type {ServiceHandler} from './index.ts';
import {serveShell} from './shell.ts';

/** `OKAY`, or `FAIL` and a protocol string (adbd `SendOkay`/`SendFail`). */
const okay = 'OKAY';
/** A protocol string: its length as 4 hex digits, then the text (adbd `SendProtocolString`). */
const protocolString = (text: string) => Buffer.byteLength(text).toString(16).padStart(4, '0') + text;
const fail = (message: string) => `FAIL${protocolString(message)}`;

/** First port adbd picks here for `reverse:forward:tcp:0;…` (the real one asks the kernel). */
const FIRST_PICKED_PORT = 38211;

/** After a service that restarts adbd wrote its line, every host connection drops, as adbd restarts. */
function restartDaemon(device: SimulatedDevice): void {
  setTimeout(() => {
    for (const transport of device.transports) transport.close();
  }, 20);
}

/** Answers one `reverse:` request on `transport`. */
function reverse(command: string, transport: DeviceTransport): string {
  const tunnels = transport.reverseTunnels;
  if (command === 'list-forward') {
    return protocolString([...tunnels].map(([local, remote]) => `${transport.serial} ${local} ${remote}\n`).join(''));
  }
  if (command === 'killforward-all') {
    tunnels.clear();
    return okay;
  }
  if (command.startsWith('killforward:')) {
    const local = command.slice('killforward:'.length);
    if (!local || local.includes(';')) return fail(`bad killforward: ${local}`);
    if (!tunnels.delete(local)) return fail(`listener '${local}' not found`);
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
    if (local === 'tcp:0') {
      let port = FIRST_PICKED_PORT;
      while (tunnels.has(`tcp:${port}`)) port++;
      local = `tcp:${port}`;
      picked = protocolString(String(port));
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

/** Quotes one word for the device's shell. */
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export const systemServices: ServiceHandler[] = [
  {
    open(service, transport) {
      if (!service.startsWith('reverse:')) return undefined;
      return reply(reverse(service.slice('reverse:'.length), transport));
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
    // adbd `daemon/abb_service.cpp`: `abb_exec:` is raw with no shell protocol, `abb:` uses it;
    // the arguments are separated by NUL and go to the binder service like `cmd` does.
    open(service, transport) {
      const exec = service.startsWith('abb_exec:');
      if (!exec && !service.startsWith('abb:')) return undefined;
      const feature = exec ? 'abb_exec' : 'abb';
      if (!transport.device.features.includes(feature)) return undefined;
      const args = service.slice(service.indexOf(':') + 1).split('\0');
      const command = ['cmd', ...args].map(quote).join(' ');
      return (socket) => serveShell(transport.device, socket, {protocol: exec ? 'none' : 'shell', pty: false, command, term: 'dumb'});
    },
  },
  {
    // A forward tunnel: the host connects to a socket a device program listens on.
    open(service, transport) {
      if (!/^(localabstract|localreserved|localfilesystem|tcp):/.test(service)) return undefined;
      const listener = transport.device.localListener(service);
      if (!listener) return undefined;
      return async (socket) => {
        listener(socket);
        await socket.closed;
      };
    },
  },
];
