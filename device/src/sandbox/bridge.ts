/**
 * Joins the sandbox's sockets to the device's ADB streams: `pipe` relays a stream and a socket
 * (a forward tunnel to a device program, a device program's connection through a reverse tunnel),
 * and `streamOfSocket` lets a service the Node.js side plays (Termux's web server, the Scrcpy
 * server) answer a device program's connection as it answers a host's stream.
 */
import type {Socket} from 'node:net';

import {SocketClosedError, type DeviceSocket} from '../types.ts';

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

/** A node socket as a `DeviceSocket` named `service`. */
export function streamOfSocket(socket: Socket, service: string): DeviceSocket {
  const chunks: Uint8Array[] = [];
  const readers: ((chunk: Uint8Array | undefined) => void)[] = [];
  let ended = false;
  let closed = false;
  let resolveClosed: () => void;
  const closedPromise = new Promise<void>((resolve) => (resolveClosed = resolve));
  const end = () => {
    ended = true;
    for (const reader of readers.splice(0)) reader(undefined);
  };
  socket.on('data', (chunk: Buffer) => {
    const reader = readers.shift();
    if (reader) reader(new Uint8Array(chunk));
    else {
      chunks.push(new Uint8Array(chunk));
      socket.pause();
    }
  });
  socket.on('end', end);
  socket.on('error', () => undefined);
  socket.on('close', () => {
    end();
    closed = true;
    resolveClosed();
  });
  const read = (): Promise<Uint8Array | undefined> => {
    const chunk = chunks.shift();
    if (chunks.length === 0 && !ended) socket.resume();
    if (chunk || ended) return Promise.resolve(chunk);
    return new Promise((resolve) => readers.push(resolve));
  };
  return {
    service,
    read,
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const chunk = await read();
        if (!chunk) return;
        yield chunk;
      }
    },
    write: (data) =>
      new Promise<void>((resolve, reject) => {
        if (socket.destroyed) {
          reject(new SocketClosedError(service));
          return;
        }
        socket.write(typeof data === 'string' ? Buffer.from(data) : data, (error) =>
          error ? reject(new SocketClosedError(service)) : resolve(),
        );
      }),
    close: () => socket.destroy(),
    closed: closedPromise,
    get isClosed() {
      return closed;
    },
  };
}
