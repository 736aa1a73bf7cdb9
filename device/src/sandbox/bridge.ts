/**
 * Joins the sandbox's sockets to the device's ADB streams: `pipe` relays a stream and a socket
 * (a forward tunnel to a device program, a device program's connection through a reverse tunnel).
 */
import type {Socket} from 'node:net';

import type {DeviceSocket} from '../types.ts';

/** Relays both ways until either side ends, then closes both (an ADB stream has no half-close). Reading waits for the other side's writes (flow control). */
export async function pipe(stream: DeviceSocket, socket: Socket): Promise<void> {
  const done = () => {
    socket.destroy();
    stream.close();
  };
  socket.on('error', done);
  socket.on('close', done);
  void stream.closed.then(done);
  const fromSocket = (async () => {
    try {
      for await (const chunk of socket) await stream.write(chunk as Buffer);
    } catch {
      // Either side went away.
    }
    done();
  })();
  try {
    for await (const chunk of stream) {
      if (socket.destroyed) break;
      if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
    }
  } catch {
    // Either side went away.
  }
  done();
  await fromSocket;
}
