/**
 * The Node side of the WebUSB simulation (device/src/webusb/bridge.ts) without a browser: a `ws`
 * client plays the page. Claims, hang-ups and USB-like flow control (tests/e2e/webusb-device.spec.ts
 * runs the page side in Chromium).
 */
import assert from 'node:assert/strict';
import {once} from 'node:events';
import {after, test} from 'node:test';

import {WebSocket} from 'ws';

import type {ByteConnection} from '../src/types.ts';
import {CLOSE_REENUMERATE, CLOSE_UNPLUGGED, USB_QUEUE_DEPTH, startWebUsbBridge, type WebUsbBridge} from '../src/webusb/index.ts';
import type {ControlMessage} from '../src/webusb/protocol.ts';

const bridges: WebUsbBridge[] = [];
after(() => Promise.all(bridges.map((bridge) => bridge.close())));

/** A device that only records the connections the bridge attaches. */
function fakeDevice() {
  const connections: ByteConnection[] = [];
  return {
    connections,
    properties: new Map([
      ['ro.product.model', 'Pixel 7'],
      ['ro.product.manufacturer', 'Google'],
      ['ro.serialno', 'SERIAL123'],
    ]),
    attach: (connection: ByteConnection) => void connections.push(connection),
  };
}

async function start() {
  const device = fakeDevice();
  const bridge = await startWebUsbBridge(device);
  bridges.push(bridge);
  return {device, bridge};
}

/** A page's socket: control messages and binary frames, recorded in order. */
async function page(url: string) {
  const socket = new WebSocket(url);
  const controls: ControlMessage[] = [];
  const frames: Buffer[] = [];
  socket.on('message', (data, isBinary) => {
    if (isBinary) frames.push(data as Buffer);
    else controls.push(JSON.parse(String(data)) as ControlMessage);
  });
  await once(socket, 'open');
  const reply = async (op: ControlMessage['op']) => {
    await until(() => controls.some((message) => message.op === op));
    const index = controls.findIndex((message) => message.op === op);
    return controls.splice(index, 1)[0]!;
  };
  return {
    socket,
    controls,
    frames,
    send: (message: ControlMessage) => socket.send(JSON.stringify(message)),
    claim: async () => {
      socket.send(JSON.stringify({op: 'claim'} satisfies ControlMessage));
      return reply('claim-result');
    },
    received: () => controls.reduce((sum, message) => sum + (message.op === 'received' ? message.count : 0), 0),
  };
}

async function until(predicate: () => boolean, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

test('the descriptor and init script come from the device properties', async () => {
  const {bridge} = await start();
  assert.match(bridge.url, /^ws:\/\/127\.0\.0\.1:\d+\/$/);
  assert.deepEqual(
    [bridge.descriptor.serialNumber, bridge.descriptor.productName, bridge.descriptor.manufacturerName],
    ['SERIAL123', 'Pixel 7', 'Google'],
  );
  const script = bridge.initScript({chooser: 'select'});
  assert.ok(
    script.includes(JSON.stringify(bridge.url)) && script.includes('"chooser":"select"') && script.includes('"serialNumber":"SERIAL123"'),
  );
});

test('one page at a time holds the interface; none while another program does', async () => {
  const {device, bridge} = await start();
  const first = await page(bridge.url);
  const second = await page(bridge.url);
  assert.deepEqual(await first.claim(), {op: 'claim-result', ok: true});
  assert.equal(device.connections.length, 1);
  assert.deepEqual(await second.claim(), {op: 'claim-result', ok: false});
  assert.equal(bridge.claims, 1);

  // Releasing hangs up the device's connection: its reads end.
  const reading = (async () => {
    for await (const chunk of device.connections[0]!.readable) void chunk;
    return 'ended';
  })();
  first.send({op: 'release'});
  assert.equal(await reading, 'ended');
  assert.equal(bridge.claims, 0);

  bridge.heldElsewhere = true;
  assert.deepEqual(await second.claim(), {op: 'claim-result', ok: false});
  bridge.heldElsewhere = false;
  assert.deepEqual(await second.claim(), {op: 'claim-result', ok: true});
  assert.equal(device.connections.length, 2);
  first.socket.close();
  second.socket.close();
});

test(`OUT transfers: the device queues ${USB_QUEUE_DEPTH} unread transfers, then the page waits`, async () => {
  const {device, bridge} = await start();
  const client = await page(bridge.url);
  await client.claim();
  for (let i = 0; i < USB_QUEUE_DEPTH + 2; i++) client.socket.send(Buffer.from([i]), {binary: true});
  await until(() => client.received() === USB_QUEUE_DEPTH);
  await settle();
  assert.equal(client.received(), USB_QUEUE_DEPTH);

  const iterator = device.connections[0]!.readable[Symbol.asyncIterator]();
  const read: number[] = [];
  for (let i = 0; i < 3; i++) read.push((await iterator.next()).value![0]!);
  assert.deepEqual(read, [0, 1, 2]);
  await until(() => client.received() === USB_QUEUE_DEPTH + 2);
  client.socket.close();
});

test(`IN: the device has at most ${USB_QUEUE_DEPTH} writes the page has not consumed, sent in order`, async () => {
  const {device, bridge} = await start();
  const client = await page(bridge.url);
  await client.claim();
  const connection = device.connections[0]!;
  const done: number[] = [];
  const writes = Array.from({length: USB_QUEUE_DEPTH + 2}, (_, i) => connection.write(Uint8Array.of(i)).then(() => done.push(i)));
  await until(() => client.frames.length === USB_QUEUE_DEPTH);
  await settle();
  assert.equal(client.frames.length, USB_QUEUE_DEPTH);
  assert.equal(done.length, USB_QUEUE_DEPTH);

  client.send({op: 'consumed', count: 2});
  await Promise.all(writes);
  await until(() => client.frames.length === USB_QUEUE_DEPTH + 2);
  assert.deepEqual(
    client.frames.map((frame) => frame[0]),
    Array.from({length: USB_QUEUE_DEPTH + 2}, (_, i) => i),
  );
  client.socket.close();
});

test('the device hanging up closes the socket for a re-enumeration; the bridge closing unplugs', async () => {
  const {device, bridge} = await start();
  const client = await page(bridge.url);
  await client.claim();
  const closed = once(client.socket, 'close');
  device.connections[0]!.close();
  assert.equal((await closed)[0], CLOSE_REENUMERATE);
  await assert.rejects(device.connections[0]!.write(Uint8Array.of(1)), /the host hung up/);

  // After a release, the device's own close() (its transport ending) leaves the page's socket open.
  const other = await page(bridge.url);
  await other.claim();
  other.send({op: 'release'});
  await until(() => other.controls.some((message) => message.op === 'release-result'));
  device.connections[1]!.close();
  await settle();
  assert.equal(other.socket.readyState, WebSocket.OPEN);

  const unplugged = once(other.socket, 'close');
  await bridge.close();
  assert.equal((await unplugged)[0], CLOSE_UNPLUGGED);
});
