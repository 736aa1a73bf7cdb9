/**
 * The daemon protocol of the simulated device against the real library (`@yume-chan/adb` 2.0.1):
 * authentication, the shell services and flow control.
 */
import assert from 'node:assert/strict';
import {once} from 'node:events';
import {connect as netConnect} from 'node:net';
import {after, describe, test} from 'node:test';

import {AdbCommand, AdbPacketHeader, adbGeneratePublicKey, encodeUtf8} from '@tango-v2/adb';
import {decodeUtf8} from '@tango-v2/struct';

import {SimulatedDevice} from '../src/device.ts';
import {MemoryCredentialStore, startDevice} from './connect.ts';

const started: Array<{close(): Promise<void>}> = [];
after(() => Promise.all(started.map((device) => device.close())));
async function start(options?: ConstructorParameters<typeof SimulatedDevice>[0]) {
  const device = await startDevice(options);
  started.push(device);
  return device;
}

/** The ADB-format public key (`base64 name`) of a credential store's key. */
function publicKeyOf(store: MemoryCredentialStore): string {
  return `${Buffer.from(adbGeneratePublicKey(store.key.buffer)).toString('base64')} ${store.key.name}`;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 20 ms; rejects after 10 s. */
async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
}

/** A raw TCP client that writes and reads ADB packets byte by byte (no library in between). */
async function rawClient(port: number) {
  const socket = netConnect({host: '127.0.0.1', port});
  await once(socket, 'connect');
  let buffered = Buffer.alloc(0);
  const waiters: Array<() => void> = [];
  socket.on('data', (data) => {
    buffered = Buffer.concat([buffered, data]);
    for (const wake of waiters.splice(0)) wake();
  });
  const take = async (length: number) => {
    while (buffered.length < length) await new Promise<void>((resolve) => waiters.push(resolve));
    const result = buffered.subarray(0, length);
    buffered = buffered.subarray(length);
    return new Uint8Array(result);
  };
  return {
    send(command: number, arg0: number, arg1: number, payload: Uint8Array) {
      const header = AdbPacketHeader.serialize({
        command,
        arg0,
        arg1,
        payloadLength: payload.length,
        checksum: 0,
        magic: command ^ 0xffffffff,
      });
      socket.write(header);
      socket.write(payload);
    },
    async receive() {
      const header = new DataView((await take(24)).buffer);
      const payload = await take(header.getUint32(12, true));
      return {command: header.getUint32(0, true), arg0: header.getUint32(4, true), arg1: header.getUint32(8, true), payload};
    },
    close: () => socket.destroy(),
  };
}

describe('authentication', () => {
  test('a trusted key connects without a dialog, and the banner carries the properties', async () => {
    const store = new MemoryCredentialStore();
    const {device, connect} = await start({authorizedKeys: [publicKeyOf(store)]});
    const adb = await connect({credentialStore: store});
    assert.equal(adb.banner.model, 'Pixel 7');
    assert.equal(adb.banner.product, 'panther');
    assert.ok(adb.banner.features.includes('shell_v2'));
    assert.equal(device.auth.prompts.length, 0);
  });

  test('a wrong signature is refused with a fresh token', async () => {
    const {port} = await start();
    const client = await rawClient(port);
    client.send(AdbCommand.Connect, 0x01000001, 256 * 1024, encodeUtf8('host::features=shell_v2'));
    const first = await client.receive();
    assert.equal(first.command, AdbCommand.Auth);
    assert.equal(first.arg0, 1, 'AUTH TOKEN');
    assert.equal(first.payload.length, 20);
    client.send(AdbCommand.Auth, 2, 0, new Uint8Array(256).fill(7));
    const second = await client.receive();
    assert.equal(second.command, AdbCommand.Auth, 'no CNXN for a wrong signature');
    assert.equal(second.arg0, 1);
    assert.notDeepEqual(second.payload, first.payload, 'a new token each time');
    client.close();
  });

  test('a signature by a key the device does not trust is refused, and the key goes to the dialog', async () => {
    const trusted = new MemoryCredentialStore('trusted@sim');
    const {device, connect} = await start({authorizedKeys: [publicKeyOf(trusted)], prompt: async () => 'deny'});
    const other = new MemoryCredentialStore('other@sim');
    const connecting = connect({credentialStore: other});
    await waitFor(() => device.auth.prompts.length === 1, 'the dialog');
    await delay(100);
    assert.equal(device.auth.prompts[0]!.name, 'other@sim');
    assert.match(device.auth.prompts[0]!.fingerprint, /^([0-9A-F]{2}:){15}[0-9A-F]{2}$/);
    assert.ok(![...device.transports].some((transport) => transport.online), 'denied: still offline');
    void connecting.catch(() => undefined);
  });

  test('an unknown key waits for the scripted answer', async () => {
    let answer!: (value: 'allow') => void;
    const {device, connect} = await start({prompt: () => new Promise((resolve) => (answer = resolve))});
    let connected = false;
    const connecting = connect().then((adb) => ((connected = true), adb));
    await waitFor(() => device.auth.prompts.length === 1, 'the dialog');
    await delay(200);
    assert.equal(connected, false, 'no connection before the dialog is answered');
    answer('allow');
    const adb = await connecting;
    assert.equal(adb.banner.model, 'Pixel 7');
    assert.equal(device.auth.authorizedKeys.length, 0, "'allow' does not remember the key");
  });

  test("'always' remembers the key for the next connection", async () => {
    const store = new MemoryCredentialStore();
    const {device, connect} = await start();
    await connect({credentialStore: store});
    await connect({credentialStore: store});
    assert.equal(device.auth.prompts.length, 1);
  });
});

describe('shell services', () => {
  test('shell v2 returns stdout, stderr and the exit code apart', async () => {
    const {connect} = await start();
    const adb = await connect();
    const result = await adb.subprocess.shellProtocol!.spawnWaitText('echo out; nosuch; exit 3');
    assert.deepEqual(result, {stdout: 'out\n', stderr: '/system/bin/sh: nosuch: inaccessible or not found\n', exitCode: 3});
  });

  test('shell v1 merges the streams; an unknown command exits with 127', async () => {
    const {connect} = await start();
    const adb = await connect();
    assert.equal(await adb.subprocess.noneProtocol.spawnWaitText('echo "a  b" && false || echo c'), 'a  b\nc\n');
    assert.equal(await adb.subprocess.noneProtocol.spawnWaitText('false; echo $?; nosuch 2>/dev/null; echo "$?"'), '1\n127\n');
    const result = await adb.subprocess.shellProtocol!.spawnWaitText('nosuch');
    assert.equal(result.exitCode, 127);
  });

  test("the shell and the toolbox are Android 14's on a Pixel 7", async () => {
    const {connect} = await start();
    const adb = await connect();
    const result = await adb.subprocess.shellProtocol!.spawnWaitText(
      'echo "$KSH_VERSION"; toybox --version; uname -a; getenforce; id -u; id -Z',
    );
    assert.deepEqual(result.stdout.split('\n'), [
      '@(#)MIRBSD KSH R59 2020/10/31 Android',
      'toybox 0.8.9-android',
      'Linux localhost 5.10.177-android13-4-00003-ga7208022a7ea-ab10815828 #1 SMP PREEMPT Fri Sep 15 16:40:54 UTC 2023 aarch64 Toybox',
      'Enforcing',
      '2000',
      'u:r:shell:s0',
      '',
    ]);
  });

  test("ls -l shows the image's links with fs_config's modes, each program as a file of its own", async () => {
    const {connect} = await start();
    const adb = await connect();
    const result = await adb.subprocess.shellProtocol!.spawnWaitText(
      'ls -l /sdcard /system/bin/ls; cd /system/bin && stat -c "%h %U:%G %A %n" cmd getprop; ln -s /x /data/local/tmp/l && stat -c %A /data/local/tmp/l',
    );
    assert.equal(
      result.stdout,
      [
        'lrw-r--r-- 1 root root  21 2009-01-01 00:00 /sdcard -> /storage/self/primary',
        'lrwxr-xr-x 1 root shell  6 2009-01-01 00:00 /system/bin/ls -> toybox',
        '1 root:shell -rwxr-xr-x cmd',
        '1 root:shell -rwxr-xr-x getprop',
        'lrwxrwxrwx',
        '',
      ].join('\n'),
    );
  });

  /** Reads a PTY's output into `screen`, which `until` waits on. */
  function terminal(output: {getReader(): {read(): Promise<{done: boolean; value?: Uint8Array}>}}) {
    const reader = output.getReader();
    const state = {screen: '', ended: false};
    const until = async (text: string) => {
      while (!state.screen.includes(text)) {
        const {done, value} = await reader.read();
        if (done) throw new Error(`the output ended before ${JSON.stringify(text)}: ${JSON.stringify(state.screen)}`);
        state.screen += decodeUtf8(value!);
      }
    };
    const rest = async () => {
      for (;;) {
        const {done, value} = await reader.read();
        if (done) return state.screen;
        state.screen += decodeUtf8(value!);
      }
    };
    return {state, until, rest};
  }

  test('a PTY shell prompts, echoes what is typed and ends with the code exit gives', async () => {
    const {connect} = await start();
    const adb = await connect();
    const process = await adb.subprocess.shellProtocol!.pty();
    const writer = process.input.getWriter();
    const {until, rest} = terminal(process.output);
    // mksh's line editor (emacs mode) echoes each line, then the terminal's newline (onlcr).
    await until('panther:/ $ ');
    await writer.write(encodeUtf8('echo hi\r'));
    await until('hi\r\npanther:/ $ ');
    await writer.write(encodeUtf8('exit 5\r'));
    assert.equal(await rest(), 'panther:/ $ echo hi\r\r\nhi\r\npanther:/ $ exit 5\r\r\n');
    assert.equal(await process.exited, 5);
  });

  test('sh without the shell protocol runs on a raw PTY: interactive, each line as it arrives', async () => {
    const {connect} = await start();
    const adb = await connect();
    // adbd gives a command without the shell protocol a PTY in raw mode: sh sees a terminal.
    const sh = await adb.subprocess.noneProtocol.spawn('sh');
    const writer = sh.stdin.getWriter();
    const {until, rest} = terminal(sh.output);
    await until('panther:/ $ ');
    await writer.write(encodeUtf8('getprop ro.product.model\n'));
    await until('Pixel 7\n');
    await writer.write(encodeUtf8('exit\n'));
    assert.match(await rest(), /Pixel 7\npanther:\/ \$ exit/);
  });

  test('Ctrl+C drops the line being typed, and interrupts the running command (SIGINT), with 130 in the next prompt', async () => {
    const {connect} = await start();
    const adb = await connect();
    const process = await adb.subprocess.shellProtocol!.pty();
    const writer = process.input.getWriter();
    const {state, until, rest} = terminal(process.output);
    await until('panther:/ $ ');
    await writer.write(encodeUtf8('echo lost'));
    await until('echo lost');
    await process.sigint();
    await until('130|panther:/ $ ');
    await writer.write(encodeUtf8('sleep 100\r'));
    await until('sleep 100\r\r\n');
    await process.sigint();
    await until('^C\r\n130|panther:/ $ ');
    assert.ok(!state.screen.includes('lost\r\n'), 'the dropped line did not run');
    await writer.write(encodeUtf8('exit 0\r'));
    await rest();
    assert.equal(await process.exited, 0);
  });

  test('closing the stream hangs the process up (SIGHUP), as adbd does', async () => {
    const {connect} = await start();
    const adb = await connect();
    const sleeper = await adb.subprocess.shellProtocol!.spawn('echo $$; sleep 100');
    const pid = decodeUtf8((await sleeper.stdout.getReader().read()).value!).trim();
    assert.match(await adb.subprocess.noneProtocol.spawnWaitText(`ps -o NAME ${pid}`), /\bsh\b/);
    const exited = sleeper.exited.catch(() => undefined);
    await sleeper.kill();
    await exited;
    // `ps PID` exits 1 once no such process is left.
    for (let tries = 0; ; tries++) {
      const {exitCode} = await adb.subprocess.shellProtocol!.spawnWaitText(`ps ${pid}`);
      if (exitCode === 1) break;
      assert.ok(tries < 50, `process ${pid} still runs after the host closed its stream`);
      await delay(20);
    }
  });

  test('a protocol without shell_v2 (Android 6 and older) has no shell protocol', async () => {
    const {connect} = await start({features: ['cmd']});
    const adb = await connect();
    assert.equal(adb.subprocess.shellProtocol, undefined);
    assert.equal(await adb.subprocess.noneProtocol.spawnWaitText('echo old'), 'old\n');
  });
});

describe('flow control', () => {
  for (const delayedAck of [false, true]) {
    test(`an unread stream stalls the device's writer (${delayedAck ? 'delayed ack, 256 KiB window' : 'one packet per OKAY'})`, async () => {
      const {device, connect} = await start(delayedAck ? {} : {features: ['shell_v2', 'cmd']});
      const adb = await connect({initialDelayedAckBytes: 256 * 1024});
      // A device program that writes 16 KiB blocks and counts them in a file the test reads.
      const count = '/data/local/tmp/blocks';
      const socket = await adb.createSocket(`exec:i=0; while :; do head -c 16384 /dev/zero || exit; i=$((i+1)); echo $i > ${count}; done`);
      // The shell truncates the file before it writes the next count: read again until there is one.
      const written = () => {
        for (;;) {
          const text = device.fs.stat(count) ? device.fs.readText(count).trim() : '0';
          if (text) return Number(text) * 16384;
        }
      };
      // The device writes until the window and the buffers on the way are full, then no more
      // while the host doesn't read.
      let stalled = -1;
      for (let tries = 0; written() !== stalled; tries++) {
        assert.ok(tries < 30, `still writing after ${written()} bytes`);
        stalled = written();
        await delay(300);
      }
      assert.ok(stalled > 0 && stalled < 4 * 1024 * 1024, `stalled after ${stalled} bytes`);
      const reader = socket.readable.getReader();
      let read = 0;
      while (read < stalled + 1024 * 1024) read += (await reader.read()).value!.length;
      assert.ok(written() > stalled, 'reading lets the device write again');
      await socket.close();
    });
  }
});

describe('forward tunnels', () => {
  test("a device program's first bytes, sent as it accepts, reach the host every time", async () => {
    const {connect} = await start();
    const adb = await connect();
    for (let round = 0; round < 20; round++) {
      // Ends when the connection does: nc half-closes after stdin's "foo", then waits for EOF.
      const server = adb.subprocess.shellProtocol!.spawnWaitText('echo foo | nc -l -p 12345');
      let socket;
      for (let tries = 0; !socket; tries++) {
        try {
          socket = await adb.createSocket('tcp:12345');
        } catch (error) {
          if (tries > 100) throw error;
          await delay(10);
        }
      }
      const reader = socket.readable.getReader();
      let text = '';
      for (let chunk; !(chunk = await reader.read()).done;) text += decodeUtf8(chunk.value);
      assert.equal(text, 'foo\n', `round ${round}`);
      await socket.close();
      assert.equal((await server).exitCode, 0);
    }
  });
});

describe('reverse tunnels', () => {
  test('reverse:forward, list and remove, and a device program reaching the host through it', async () => {
    const {device, connect} = await start();
    const adb = await connect();
    const received: string[] = [];
    // The library answers the device's OPEN once the handler returns: read in the background.
    const address = await adb.reverse.add('localabstract:demo', (socket) => {
      void (async () => {
        const reader = socket.readable.getReader();
        received.push(decodeUtf8((await reader.read()).value!));
        await socket.close();
      })();
    });
    assert.equal(address, 'localabstract:demo');
    const list = await adb.reverse.list();
    assert.equal(list.length, 1);
    assert.equal(list[0]!.localName, 'localabstract:demo');
    const socket = await device.connectLocal('localabstract:demo');
    await socket.write('hello host');
    await socket.closed;
    assert.deepEqual(received, ['hello host']);
    await adb.reverse.remove('localabstract:demo');
    assert.deepEqual(await adb.reverse.list(), []);
    await assert.rejects(device.connectLocal('localabstract:demo'), /ECONNREFUSED/);
  });

  test('a stream the host closes is closed by the device too, so that its readable ends', {timeout: 10_000}, async () => {
    const {connect} = await start();
    const adb = await connect();
    const controller = new AbortController();
    // logcat without -d follows the log until it is stopped.
    const logcat = await adb.subprocess.noneProtocol.spawn('logcat', controller.signal);
    const stopped = assert.rejects(logcat.exited, /stopped/);
    const reader = logcat.output.getReader();
    await reader.read();
    controller.abort(new Error('stopped'));
    await stopped;
    while (!(await reader.read()).done);
  });

  test('an unknown service fails to open', async () => {
    const {connect} = await start();
    const adb = await connect();
    await assert.rejects(adb.createSocket('nosuch:'), /Socket open failed/);
  });
});

describe('system services', () => {
  test('root on a production build, tcpip', async () => {
    const {device, connect} = await start();
    const adb = await connect();
    assert.equal(await adb.createSocketAndWait('root:'), 'adbd cannot run as root in production builds\n');
    assert.equal(await adb.tcpip.setPort(5555), 'restarting in TCP mode port: 5555\n');
    await adb.disconnected.catch(() => undefined);
    assert.equal(device.properties.get('service.adb.tcp.port'), '5555');
  });
});
