/**
 * The simulated Scrcpy server against the real library: `@yume-chan/adb-scrcpy` 2.0.1's
 * `AdbScrcpyClient` starts it on the simulated device over ADB, as the docs' samples do, and reads
 * its streams; the control messages the library sends must arrive decoded on the device.
 */
import assert from 'node:assert/strict';
import {afterEach, describe, test} from 'node:test';

import type {Adb} from '@tango-v2/adb';
import {AdbScrcpyClient, AdbScrcpyExitedError, AdbScrcpyOptions1_22, AdbScrcpyOptions2_1, AdbScrcpyOptions3_1} from '@tango-v2/adb-scrcpy';
import {
  AndroidKeyCode,
  AndroidKeyEventAction,
  AndroidMotionEventAction,
  AndroidScreenPowerMode,
  DefaultServerPath,
  ScrcpyCaptureOrientation,
  ScrcpyCodecOptions,
  ScrcpyLockOrientation,
  ScrcpyOrientation,
  ScrcpyPointerId,
  ScrcpyVideoCodecId,
  type ScrcpyMediaStreamPacket,
} from '@tango-v2/scrcpy';
import {ReadableStream, WritableStream, type MaybeConsumable, type ReadableStreamDefaultReader} from '@tango-v2/stream-extra';
import {decodeUtf8} from '@tango-v2/struct';

import {scrcpyOf, standInServer, type ScrcpySessionInfo} from '../src/scrcpy/registry.ts';
import {startDevice, type ConnectOptions} from './connect.ts';

const started: Array<{close(): Promise<void>}> = [];
afterEach(() => Promise.all(started.splice(0).map((device) => device.close())));

/** A started device, a connected `Adb`, and the stand-in server pushed to the default path. */
async function setup(connectOptions: ConnectOptions = {}) {
  const simulated = await startDevice();
  started.push(simulated);
  const adb = await simulated.connect(connectOptions);
  await push(adb);
  return {...simulated, adb, registry: scrcpyOf(simulated.device)};
}

/** Pushes the stand-in server file (the server removes it when it starts, as the real one does). */
async function push(adb: Adb, version?: string) {
  const file = standInServer(version);
  const stream = new ReadableStream<MaybeConsumable<Uint8Array>>({
    start(controller) {
      controller.enqueue(file);
      controller.close();
    },
  });
  await AdbScrcpyClient.pushServer(adb, stream);
}

/** Reads `count` packets, failing after `timeoutMs`. */
async function readPackets(reader: ReadableStreamDefaultReader<ScrcpyMediaStreamPacket>, count: number, timeoutMs = 3000) {
  const packets: ScrcpyMediaStreamPacket[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${packets.length} of ${count} packets`)), timeoutMs);
  });
  try {
    while (packets.length < count) {
      const result = await Promise.race([reader.read(), timeout]);
      assert.equal(result.done, false, 'the stream ended early');
      packets.push(result.value!);
    }
  } finally {
    clearTimeout(timer);
  }
  return packets;
}

/** Reads `count` packets from `stream`, then keeps reading in the background (the library stalls every stream while one is unread). */
async function take(stream: ReadableStream<ScrcpyMediaStreamPacket>, count: number): Promise<ScrcpyMediaStreamPacket[]> {
  const reader = stream.getReader();
  const packets = await readPackets(reader, count);
  void (async () => {
    while (!(await reader.read().catch(() => ({done: true}))).done);
  })();
  return packets;
}

/** The data packets' PTS, checked to be strictly increasing. */
function increasingPts(packets: ScrcpyMediaStreamPacket[]): bigint[] {
  const pts = packets.map((packet) => {
    assert.equal(packet.type, 'data');
    assert.equal(typeof packet.pts, 'bigint');
    return packet.pts!;
  });
  for (let i = 1; i < pts.length; i++) assert.ok(pts[i]! > pts[i - 1]!, `PTS ${pts[i]} after ${pts[i - 1]}`);
  return pts;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('simulated scrcpy server', () => {
  test('3.1 over a forward tunnel: metadata, video and audio packets, control messages, clipboard', async () => {
    const {adb, device, registry} = await setup();
    const options = new AdbScrcpyOptions3_1({tunnelForward: true, scid: '1a2b3c4d'});
    const client = await AdbScrcpyClient.start(adb, DefaultServerPath, options);
    // The server logs after rotateDevice and resetVideo: unread, its output would stall every stream.
    void client.output.pipeTo(new WritableStream());
    const session = registry.sessions.at(-1)!;
    assert.equal(session.version, '3.1');
    assert.equal(session.tunnel, 'forward');
    assert.equal(session.socketName, 'scrcpy_1a2b3c4d');
    // The server removes its own file as it starts (cleanup=true, CleanUp.unlinkSelf).
    assert.equal(device.fs.stat(DefaultServerPath), undefined);

    const audio = await client.audioStream!;
    assert.equal(audio.type, 'success');
    assert.equal(audio.type === 'success' && audio.codec.optionValue, 'opus');
    const audioPackets = audio.type === 'success' ? take(audio.stream, 4) : assert.fail();
    const video = await client.videoStream!;
    assert.deepEqual(video.metadata, {deviceName: 'Pixel 7', codec: ScrcpyVideoCodecId.H264, width: 240, height: 528});
    const [config, ...frames] = await take(video.stream, 6);
    assert.equal(config!.type, 'configuration');
    assert.deepEqual([...config!.data.subarray(0, 5)], [0, 0, 0, 1, 0x67]);
    // The library read the SPS in the configuration packet.
    assert.deepEqual([video.width, video.height], [240, 528]);
    const pts = increasingPts(frames);
    assert.equal(pts[1]! - pts[0]!, 33333n);
    assert.equal(frames[0]!.type === 'data' && frames[0]!.keyframe, true);
    assert.equal(frames[1]!.type === 'data' && frames[1]!.keyframe, false);

    const [opusHead, ...opus] = await audioPackets;
    assert.equal(opusHead!.type, 'configuration');
    assert.equal(decodeUtf8(opusHead!.data.subarray(0, 8)), 'OpusHead');
    const audioPts = increasingPts(opus);
    assert.equal(audioPts[1]! - audioPts[0]!, 20000n);

    const controller = client.controller!;
    await controller.injectTouch({
      action: AndroidMotionEventAction.Down,
      pointerId: ScrcpyPointerId.Finger,
      pointerX: 120,
      pointerY: 300,
      videoWidth: 240,
      videoHeight: 528,
      pressure: 1,
      actionButton: 0,
      buttons: 0,
    });
    const touch = await session.waitForControlMessage((message) => message.kind === 'InjectTouch');
    assert.equal(touch.type, 2);
    assert.equal(touch.action, AndroidMotionEventAction.Down);
    assert.equal(touch.pointerId, 0xffff_ffff_ffff_fffen); // -2 (finger) as the u64 on the wire
    assert.deepEqual([touch.pointerX, touch.pointerY, touch.videoWidth, touch.videoHeight, touch.pressure], [120, 300, 240, 528, 1]);

    await controller.injectKeyCode({action: AndroidKeyEventAction.Down, keyCode: AndroidKeyCode.Home, repeat: 0, metaState: 0});
    await controller.injectText('héllo');
    await controller.injectScroll({pointerX: 10, pointerY: 20, videoWidth: 240, videoHeight: 528, scrollX: 0, scrollY: -1, buttons: 0});
    await controller.backOrScreenOn(AndroidKeyEventAction.Down);
    await controller.setScreenPowerMode(AndroidScreenPowerMode.Off);
    await controller.rotateDevice();
    await controller.uHidCreate({id: 1, vendorId: 0x18d1, productId: 0x4ee7, name: 'keyboard', data: Uint8Array.of(5, 1, 9, 6)});
    await controller.uHidInput({id: 1, data: Uint8Array.of(0, 0, 4, 0, 0, 0, 0, 0)});
    await controller.uHidDestroy(1);
    await controller.startApp('com.android.settings', {forceStop: true});
    await controller.resetVideo();
    await session.waitForControlMessage((message) => message.kind === 'ResetVideo');
    assert.deepEqual(
      session.controlMessages.map((message) => message.kind),
      [
        'InjectTouch',
        'InjectKeyCode',
        'InjectText',
        'InjectScroll',
        'BackOrScreenOn',
        'SetDisplayPower',
        'RotateDevice',
        'UHidCreate',
        'UHidInput',
        'UHidDestroy',
        'StartApp',
        'ResetVideo',
      ],
    );
    const byKind = (kind: string) => session.controlMessages.find((message) => message.kind === kind)!;
    assert.equal(byKind('InjectKeyCode').keyCode, AndroidKeyCode.Home);
    assert.equal(byKind('InjectText').text, 'héllo');
    assert.equal(byKind('InjectScroll').scrollY, -1);
    assert.equal(byKind('SetDisplayPower').mode, AndroidScreenPowerMode.Off);
    assert.equal(byKind('UHidCreate').name, 'keyboard');
    assert.equal(byKind('UHidCreate').vendorId, 0x18d1);
    assert.equal(byKind('StartApp').name, '+com.android.settings');

    // setClipboard with a sequence resolves when the device acknowledges it.
    await controller.setClipboard({content: 'from host', paste: false, sequence: 7n});
    assert.equal(registry.clipboard, 'from host');
    assert.deepEqual(session.deviceMessages, [{kind: 'ackClipboard', sequence: 7n}]);
    // A copy on the device reaches client.clipboard.
    const clipboard = client.clipboard!.getReader();
    registry.setClipboard('from device');
    assert.equal((await clipboard.read()).value, 'from device');

    await client.close();
    assert.equal(await session.exited, 0);
    assert.equal(session.state, 'ended');
  });

  test('2.1 with the reverse tunnel and the usual docs options', async () => {
    const {adb, registry} = await setup();
    const options = new AdbScrcpyOptions2_1({audio: false, control: true});
    const client = await AdbScrcpyClient.start(adb, DefaultServerPath, options);
    const session = registry.sessions.at(-1)!;
    assert.equal(session.version, '2.1');
    assert.equal(session.tunnel, 'reverse');
    assert.equal(session.socketName, 'scrcpy');
    assert.equal(client.audioStream, undefined);
    const video = (await client.videoStream)!;
    assert.deepEqual([video.metadata.width, video.metadata.height], [240, 528]);
    const packets = await take(video.stream, 4);
    increasingPts(packets.slice(1));
    await client.controller!.injectTouch({
      action: AndroidMotionEventAction.Up,
      pointerId: ScrcpyPointerId.Mouse,
      pointerX: 5,
      pointerY: 6,
      videoWidth: 240,
      videoHeight: 528,
      pressure: 0,
      actionButton: 0,
      buttons: 0,
    });
    const touch = await session.waitForControlMessage((message) => message.kind === 'InjectTouch');
    assert.deepEqual([touch.action, touch.pointerX, touch.pointerY, touch.pressure], [AndroidMotionEventAction.Up, 5, 6, 0]);
    await client.close();
    assert.equal(await session.exited, 0);
  });

  test('1.22: device metadata with the size, no audio socket, the 1.x touch layout', async () => {
    const {adb, registry} = await setup();
    const client = await AdbScrcpyClient.start(adb, DefaultServerPath, new AdbScrcpyOptions1_22({tunnelForward: true}));
    const session = registry.sessions.at(-1)!;
    assert.equal(session.version, '1.22');
    const video = (await client.videoStream)!;
    assert.deepEqual(video.metadata, {deviceName: 'Pixel 7', codec: ScrcpyVideoCodecId.H264, width: 240, height: 528});
    const [first, second, third] = await take(video.stream, 3);
    // Before 1.23 the server marks the config packet with PTS -1, which this library version reads as a data packet.
    assert.equal(first!.type === 'data' && first!.pts, 0xffff_ffff_ffff_ffffn);
    assert.deepEqual(
      [second, third].map((packet) => packet!.type === 'data' && packet!.pts),
      [0n, 33333n],
    );
    await client.controller!.injectTouch({
      action: AndroidMotionEventAction.Move,
      pointerId: ScrcpyPointerId.Mouse,
      pointerX: 7,
      pointerY: 8,
      videoWidth: 240,
      videoHeight: 528,
      pressure: 0.5,
      buttons: 1,
    } as never);
    const touch = await session.waitForControlMessage((message) => message.kind === 'InjectTouch');
    assert.deepEqual([touch.pointerX, touch.pointerY, touch.pressure, touch.buttons, 'actionButton' in touch], [7, 8, 0.5, 1, false]);
    await client.close();
  });

  test('a stream the client does not read stops, and resumes with the PTS past the pause', async () => {
    const {adb, registry} = await setup({initialDelayedAckBytes: 0});
    const client = await AdbScrcpyClient.start(adb, DefaultServerPath, new AdbScrcpyOptions3_1({audio: false, control: false}));
    const session: ScrcpySessionInfo = registry.sessions.at(-1)!;
    const reader = (await client.videoStream)!.stream.getReader();
    const before = increasingPts((await readPackets(reader, 3)).slice(1));
    await delay(400);
    const stalled = session.videoPackets;
    await delay(600);
    assert.equal(session.videoPackets, stalled, 'the server kept sending while nobody read');
    assert.ok(stalled < 20, `${stalled} packets sent in 1 s without reads`);
    // Reading again drains what was in flight, then frames come with the PTS past the pause.
    const resumed = increasingPts(await readPackets(reader, 30));
    const pts = [before.at(-1)!, ...resumed];
    const gaps = pts.slice(1).map((value, index) => value - pts[index]!);
    // Frames the server would have captured while blocked are skipped: one gap covers the pause.
    assert.ok(
      gaps.some((gap) => gap > 400_000n),
      `largest PTS gap ${gaps.reduce((a, b) => (a > b ? a : b))} µs`,
    );
    assert.equal(gaps.filter((gap) => gap > 400_000n).length, 1);
    await client.close();
  });

  test('rotateDevice restarts the video at the landscape size, resetVideo at the same size', async () => {
    const {adb, registry} = await setup();
    const client = await AdbScrcpyClient.start(adb, DefaultServerPath, new AdbScrcpyOptions3_1({audio: false, clipboardAutosync: false}));
    void client.output.pipeTo(new WritableStream());
    const session = registry.sessions.at(-1)!;
    const video = (await client.videoStream)!;
    const reader = video.stream.getReader();
    assert.equal((await readPackets(reader, 2))[0]!.type, 'configuration');
    assert.deepEqual([video.width, video.height], [240, 528]);
    /** Skips the packets already on their way, then reads the new encoder's config packet and first frame. */
    const restarted = async () => {
      for (;;) {
        const [packet] = await readPackets(reader, 1);
        if (packet!.type === 'configuration') return readPackets(reader, 1);
      }
    };

    await client.controller!.rotateDevice();
    let [frame] = await restarted();
    assert.equal(frame!.type === 'data' && frame!.keyframe, true);
    assert.deepEqual([video.width, video.height], [528, 240]);
    assert.equal(registry.landscape, true);

    await client.controller!.resetVideo();
    [frame] = await restarted();
    assert.equal(frame!.type === 'data' && frame!.keyframe, true);
    assert.deepEqual([video.width, video.height], [528, 240]);
    assert.ok(session.output.includes('[server] INFO: Device rotation requested: landscape'));
    assert.ok(session.output.includes('[server] INFO: Video capture reset'));
    await client.close();
  });

  test('capture_orientation turns the video a quarter, locked or from the current rotation', async () => {
    const {adb, registry} = await setup();
    const start = async (captureOrientation: ScrcpyCaptureOrientation | string) => {
      const client = await AdbScrcpyClient.start(
        adb,
        DefaultServerPath,
        new AdbScrcpyOptions3_1({audio: false, clipboardAutosync: false, cleanup: false, captureOrientation}),
      );
      void client.output.pipeTo(new WritableStream());
      return {client, video: (await client.videoStream)!};
    };

    // A bad value fails as the server's parser does.
    const error = await start('@45').then(
      () => assert.fail('start succeeded'),
      (error: unknown) => error,
    );
    assert.ok(error instanceof AdbScrcpyExitedError);
    assert.equal(error.output[1], 'java.lang.IllegalArgumentException: Unknown orientation: 45');
    assert.equal(await registry.runs.at(-1)!.exited, 1);

    // Locked at 90°: landscape, and still landscape after the device turns.
    let {client, video} = await start(new ScrcpyCaptureOrientation(ScrcpyLockOrientation.LockedValue, ScrcpyOrientation.Orient90));
    let reader = video.stream.getReader();
    await readPackets(reader, 2);
    assert.deepEqual([video.width, video.height], [528, 240]);
    await client.controller!.rotateDevice();
    for (;;) {
      const [packet] = await readPackets(reader, 1);
      if (packet!.type === 'configuration') break;
    }
    await readPackets(reader, 1);
    assert.deepEqual([video.width, video.height], [528, 240]);
    await client.close();

    // Unlocked at 270° on the turned display: a quarter more, back to portrait.
    ({client, video} = await start('270'));
    reader = video.stream.getReader();
    await readPackets(reader, 2);
    assert.deepEqual([video.width, video.height], [240, 528]);
    await client.close();
  });

  test('codec options are logged as the encoders set them', async () => {
    const {adb, registry} = await setup();
    const options = new AdbScrcpyOptions3_1({
      clipboardAutosync: false,
      videoCodecOptions: new ScrcpyCodecOptions({profile: 1, level: 2048, repeatPreviousFrameAfter: 100000}),
      audioCodecOptions: 'bitrate-mode=2,complexity:float=5',
    });
    const client = await AdbScrcpyClient.start(adb, DefaultServerPath, options);
    void client.output.pipeTo(new WritableStream());
    await take((await client.videoStream)!.stream, 1);
    const audio = await client.audioStream;
    assert.equal(audio?.type, 'success');
    await take(audio.stream, 1);
    const {output} = registry.sessions.at(-1)!;
    for (const line of [
      '[server] DEBUG: Video codec option set: profile (Integer) = 1',
      '[server] DEBUG: Video codec option set: level (Integer) = 2048',
      '[server] DEBUG: Video codec option set: repeat-previous-frame-after (Long) = 100000',
      '[server] DEBUG: Audio codec option set: bitrate-mode (Integer) = 2',
      '[server] DEBUG: Audio codec option set: complexity (Float) = 5.0',
    ]) {
      assert.ok(output.includes(line), line);
    }
    await client.close();
  });

  test('a client version the server does not know fails as the real server does', async () => {
    const {adb, registry} = await setup();
    const error = await AdbScrcpyClient.start(adb, DefaultServerPath, new AdbScrcpyOptions3_1({}, {version: '9.9'})).then(
      () => assert.fail('start succeeded'),
      (error: unknown) => error,
    );
    assert.ok(error instanceof AdbScrcpyExitedError);
    assert.equal(error.output[0], '[server] ERROR: The server version (3.1) does not match the client (9.9)');
    assert.equal(error.output[1], 'java.lang.IllegalArgumentException: The server version (3.1) does not match the client (9.9)');
    assert.equal(error.output[2], '\tat com.genymobile.scrcpy.Options.parse(Options.java:293)');
    assert.equal(await registry.runs.at(-1)!.exited, 1);

    // Through the shell protocol the exit code is visible.
    await push(adb, '2.7');
    const shell = await adb.subprocess.shellProtocol!.spawnWaitText(
      `CLASSPATH=${DefaultServerPath} app_process / com.genymobile.scrcpy.Server 2.6 tunnel_forward=true`,
    );
    assert.equal(shell.exitCode, 1);
    assert.equal(shell.stdout, '');
    assert.match(shell.stderr, /^\[server\] ERROR: The server version \(2\.7\) does not match the client \(2\.6\)\n/);
  });

  test('a missing server file aborts app_process', async () => {
    const {adb} = await setup();
    const shell = await adb.subprocess.shellProtocol!.spawnWaitText(
      'app_process -cp /data/local/tmp/nothing.jar / com.genymobile.scrcpy.Server 3.1',
    );
    assert.equal(shell.exitCode, 134);
    assert.equal(shell.stderr, 'Aborted \n');
  });

  test('list_encoders and list_displays print the lists the library parses', async () => {
    const {adb, registry} = await setup();
    const encoders = await AdbScrcpyClient.getEncoders(adb, DefaultServerPath, new AdbScrcpyOptions3_1({}));
    assert.deepEqual(
      encoders.map(({type, codec, name, hardwareType}) => `${type} ${codec} ${name} ${hardwareType}`),
      [
        'video h264 c2.exynos.h264.encoder hardware',
        'video h264 c2.android.avc.encoder software',
        'video h264 OMX.google.h264.encoder software',
        'video h265 c2.exynos.hevc.encoder hardware',
        'video h265 c2.android.hevc.encoder software',
        'audio opus c2.android.opus.encoder software',
        'audio aac c2.android.aac.encoder software',
        'audio aac OMX.google.aac.encoder software',
        'audio flac c2.android.flac.encoder software',
      ],
    );
    // The server's own line (LogUtils.buildEncoderListMessage, 3.0+: padded to column 70). The library
    // reads `[vendor]` into nothing and the alias into `vendor` (its regular expression's groups are off by one).
    const printed = registry.runs.at(-1)!.output;
    const line = printed.find((text) => text.includes('--video-encoder=c2.exynos.h264.encoder'))!;
    assert.equal(line.indexOf(' (hw) [vendor]'), 69, line);
    // Listing removes the server file too (cleanup), so push it again.
    await push(adb);
    const displays = await AdbScrcpyClient.getDisplays(adb, DefaultServerPath, new AdbScrcpyOptions2_1({}));
    assert.deepEqual(displays, [{id: 0, resolution: '1080x2400'}]);
    // The client removes its reverse tunnel without waiting; a round trip lets that finish before the connection closes.
    assert.deepEqual(await adb.reverse.list(), []);
  });
});
