/**
 * The simulated Scrcpy server against the real library: `@yume-chan/adb-scrcpy` 2.0.1's
 * `AdbScrcpyClient` starts it on the simulated device over ADB, as the docs' samples do, and reads
 * its streams; the control messages the library sends must arrive decoded on the device. The
 * video has the size each server version computes for the Pixel 7's 1080×2400 display, and its
 * bitstream decodes: in TinyH264 (the docs' Baseline decoder, run here in Node.js), in Debian's
 * ffmpeg when it is installed, and through the library's own SPS parsers.
 */
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {afterEach, describe, test} from 'node:test';

import type {Adb} from '@tango-v2/adb';
import {
  AdbScrcpyClient,
  AdbScrcpyExitedError,
  AdbScrcpyOptions1_15,
  AdbScrcpyOptions1_22,
  AdbScrcpyOptions2_1,
  AdbScrcpyOptions2_7,
  AdbScrcpyOptions3_1,
} from '@tango-v2/adb-scrcpy';
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
  h264ParseConfiguration,
  h265ParseConfiguration,
  type ScrcpyMediaStreamPacket,
} from '@tango-v2/scrcpy';
import {ReadableStream, WritableStream, type MaybeConsumable, type ReadableStreamDefaultReader} from '@tango-v2/stream-extra';
import {decodeUtf8} from '@tango-v2/struct';

import {captureGeometry, type DisplayState} from '../src/scrcpy/capture.ts';
import {encodeH264} from '../src/scrcpy/h264.ts';
import {encodeH265} from '../src/scrcpy/h265.ts';
import {videoClip} from '../src/scrcpy/media.ts';
import {parseServerArguments} from '../src/scrcpy/options.ts';
import {targetPicture} from '../src/scrcpy/picture.ts';
import {scrcpyOf, standInServer, type ScrcpySessionInfo} from '../src/scrcpy/registry.ts';
import {SERVER_VERSIONS, ServerVersion} from '../src/scrcpy/versions.ts';
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
    // The Pixel 7's display, 1080×2400, at full size (no max_size).
    assert.deepEqual(video.metadata, {deviceName: 'Pixel 7', codec: ScrcpyVideoCodecId.H264, width: 1080, height: 2400});
    const [config, ...frames] = await take(video.stream, 6);
    assert.equal(config!.type, 'configuration');
    assert.deepEqual([...config!.data.subarray(0, 5)], [0, 0, 0, 1, 0x67]);
    // The library read the SPS in the configuration packet.
    assert.deepEqual([video.width, video.height], [1080, 2400]);
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
      pointerX: 540,
      pointerY: 1200,
      videoWidth: 1080,
      videoHeight: 2400,
      pressure: 1,
      actionButton: 0,
      buttons: 0,
    });
    const touch = await session.waitForControlMessage((message) => message.kind === 'InjectTouch');
    assert.equal(touch.type, 2);
    assert.equal(touch.action, AndroidMotionEventAction.Down);
    assert.equal(touch.pointerId, 0xffff_ffff_ffff_fffen); // -2 (finger) as the u64 on the wire
    assert.deepEqual([touch.pointerX, touch.pointerY, touch.videoWidth, touch.videoHeight, touch.pressure], [540, 1200, 1080, 2400, 1]);

    await controller.injectKeyCode({action: AndroidKeyEventAction.Down, keyCode: AndroidKeyCode.Home, repeat: 0, metaState: 0});
    await controller.injectText('héllo');
    await controller.injectScroll({pointerX: 10, pointerY: 20, videoWidth: 1080, videoHeight: 2400, scrollX: 0, scrollY: -1, buttons: 0});
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
    assert.deepEqual([video.metadata.width, video.metadata.height], [1080, 2400]);
    const packets = await take(video.stream, 4);
    increasingPts(packets.slice(1));
    await client.controller!.injectTouch({
      action: AndroidMotionEventAction.Up,
      pointerId: ScrcpyPointerId.Mouse,
      pointerX: 5,
      pointerY: 6,
      videoWidth: 1080,
      videoHeight: 2400,
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
    assert.deepEqual(video.metadata, {deviceName: 'Pixel 7', codec: ScrcpyVideoCodecId.H264, width: 1080, height: 2400});
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
      videoWidth: 1080,
      videoHeight: 2400,
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
    assert.deepEqual([video.width, video.height], [1080, 2400]);
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
    assert.deepEqual([video.width, video.height], [2400, 1080]);
    assert.equal(registry.landscape, true);

    await client.controller!.resetVideo();
    [frame] = await restarted();
    assert.equal(frame!.type === 'data' && frame!.keyframe, true);
    assert.deepEqual([video.width, video.height], [2400, 1080]);
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
    assert.deepEqual([video.width, video.height], [2400, 1080]);
    await client.controller!.rotateDevice();
    for (;;) {
      const [packet] = await readPackets(reader, 1);
      if (packet!.type === 'configuration') break;
    }
    await readPackets(reader, 1);
    assert.deepEqual([video.width, video.height], [2400, 1080]);
    await client.close();

    // Unlocked at 270° on the turned display: a quarter more, back to portrait.
    ({client, video} = await start('270'));
    reader = video.stream.getReader();
    await readPackets(reader, 2);
    assert.deepEqual([video.width, video.height], [1080, 2400]);
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

  test('a missing server file aborts app_process: SIGABRT, which the shell reports as Aborted', async () => {
    const {adb} = await setup();
    const command = 'app_process -cp /data/local/tmp/nothing.jar / com.genymobile.scrcpy.Server 3.1';
    // The command alone: mksh runs it in its own place (exec), so the exit code says the signal.
    const alone = await adb.subprocess.shellProtocol!.spawnWaitText(command);
    assert.deepEqual([alone.exitCode, alone.stderr], [0x80 | 6, '']);
    // Followed by another command, the shell waits for it and prints the signal's name.
    const followed = await adb.subprocess.shellProtocol!.spawnWaitText(`${command}; echo $?`);
    assert.deepEqual([followed.stdout, followed.stderr], ['134\n', 'Aborted \n']);
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

/** The arguments of server `name` with `options` (`key=value` from 1.21, else the positional list with its defaults). */
function serverArgs(name: string, options: Record<string, string>): string[] {
  const version = new ServerVersion(name);
  if (version.keyValueOptions) return [name, ...Object.entries(options).map(([key, value]) => `${key}=${value}`)];
  const positional: Array<[string, string]> = [
    ['log_level', 'info'],
    ['max_size', '0'],
    ['bit_rate', '8000000'],
    ['max_fps', '0'],
    ['lock_video_orientation', '-1'],
    ['tunnel_forward', 'false'],
    ['crop', '-'],
    ['send_frame_meta', 'true'],
    ['control', 'true'],
    ['display_id', '0'],
    ['show_touches', 'false'],
    ['stay_awake', 'false'],
    ['codec_options', '-'],
    ['encoder_name', '-'],
    ['power_off_on_close', 'false'],
  ];
  return [name, ...positional.slice(0, version.positionalCount - 1).map(([key, value]) => options[key] ?? value)];
}

/** The video size server `name` computes with `options` on the Pixel 7's display, turned `rotation` quarters (since the start). */
function videoSize(name: string, options: Record<string, string>, rotation = 0, initialRotation = rotation) {
  const version = new ServerVersion(name);
  const parsed = parseServerArguments(version, serverArgs(name, options), () => undefined);
  const display: DisplayState = {natural: {width: 1080, height: 2400}, rotation, initialRotation};
  const {width, height} = captureGeometry(version, parsed, display);
  return `${width}x${height}`;
}

/** Decodes Annex B H.264 `packets` (each a whole packet, as the library feeds them) with TinyH264 in Node.js; returns each picture's cropped I420 bytes. */
async function tinyH264Decode(packets: readonly Uint8Array[], width: number, height: number): Promise<Uint8Array[]> {
  // The Emscripten module reads `self.location` once, when it starts (it is built for a worker).
  const global = globalThis as {self?: unknown};
  const hadSelf = 'self' in global;
  global.self ??= {location: {href: import.meta.url}};
  const modulePath = 'tinyh264/es/TinyH264.js';
  const decoderPath = 'tinyh264/es/TinyH264Decoder.js';
  type Decoder = {decode(data: Uint8Array): void; release(): void};
  let tinyH264: unknown;
  try {
    const factory = ((await import(modulePath)) as {default: () => Promise<unknown>}).default;
    tinyH264 = await factory();
  } finally {
    if (!hadSelf) delete global.self;
  }
  const Decoder = (
    (await import(decoderPath)) as {
      default: new (module: unknown, onPicture: (picture: Uint8Array, w: number, h: number) => void) => Decoder;
    }
  ).default;
  const pictures: Uint8Array[] = [];
  const decoder = new Decoder(tinyH264, (picture, codedWidth, codedHeight) => {
    // Crop the coded picture (whole macroblocks) to the video size, plane by plane.
    const out = new Uint8Array((width * height * 3) / 2);
    let offset = 0;
    for (const [planeOffset, stride, w, h] of [
      [0, codedWidth, width, height],
      [codedWidth * codedHeight, codedWidth / 2, width / 2, height / 2],
      [(codedWidth * codedHeight * 5) / 4, codedWidth / 2, width / 2, height / 2],
    ] as const) {
      for (let y = 0; y < h; y++) out.set(picture.subarray(planeOffset + y * stride, planeOffset + y * stride + w), (offset += w) - w);
    }
    pictures.push(out);
  });
  try {
    for (const packet of packets) decoder.decode(packet);
  } finally {
    decoder.release();
  }
  return pictures;
}

/** Debian's ffmpeg decoding an Annex B stream to I420 pictures, or `undefined` when ffmpeg isn't installed. */
function ffmpegDecode(codec: 'h264' | 'hevc', stream: Uint8Array): Buffer | undefined {
  const result = spawnSync('ffmpeg', ['-v', 'error', '-f', codec, '-i', '-', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-'], {
    input: stream,
    maxBuffer: 1 << 28,
  });
  if (result.error) return undefined;
  assert.equal(result.status, 0, result.stderr.toString());
  assert.equal(result.stderr.toString(), '');
  return result.stdout;
}

/** The first `count` video packets of a started client (the config packet first), reading on in the background afterwards. */
async function firstVideoPackets(client: AdbScrcpyClient<never>, count: number) {
  const video = (await client.videoStream)!;
  const packets = await take(video.stream, count);
  return {video, packets};
}

describe('simulated scrcpy server: video size and bitstream', () => {
  test('max_size scales the 1080x2400 display as every server version does', () => {
    for (const name of SERVER_VERSIONS) {
      const sizes = ['0', '1920', '1600', '1280', '1024', '1000', '800'].map((maxSize) => videoSize(name, {max_size: maxSize}));
      assert.deepEqual(sizes, ['1080x2400', '864x1920', '720x1600', '576x1280', '464x1024', '448x1000', '360x800'], name);
      // max_size is rounded down to a multiple of 8 (`& ~7`).
      assert.equal(videoSize(name, {max_size: '1027'}), '464x1024', name);
    }
  });

  test('crop rounds as each generation does: down to multiples of 8 (1.15-2.7), the smaller side to the nearest (3.x)', () => {
    assert.equal(videoSize('1.15', {crop: '1077:2397:0:0'}), '1072x2392');
    assert.equal(videoSize('2.7', {crop: '1077:2397:0:0'}), '1072x2392');
    assert.equal(videoSize('3.1', {crop: '1077:2397:0:0'}), '1080x2392');
    // The crop is given in the natural orientation and transposed on a turned display.
    assert.equal(videoSize('2.1', {crop: '1080:1200:0:0'}, 1), '1200x1080');
    assert.equal(videoSize('3.1', {crop: '1080:1200:0:0', max_size: '600'}, 1), '600x544');
  });

  test('a turned display, lock_video_orientation (1.15-2.7) and capture_orientation (3.x)', () => {
    for (const name of ['1.15', '1.22', '2.7', '3.1']) assert.equal(videoSize(name, {max_size: '1024'}, 1), '1024x464', name);
    // Locked to the natural orientation (0) while the display is landscape: the picture is turned back.
    assert.equal(videoSize('2.7', {max_size: '1024', lock_video_orientation: '0'}, 1), '464x1024');
    assert.equal(videoSize('1.15', {lock_video_orientation: '1'}), '2400x1080');
    // -2 locks the rotation the display had when the server started (1.18+).
    assert.equal(videoSize('2.7', {lock_video_orientation: '-2'}, 0, 1), '2400x1080');
    assert.equal(videoSize('3.1', {capture_orientation: '@'}, 0, 1), '2400x1080');
    assert.equal(videoSize('3.1', {capture_orientation: '@0'}, 1), '1080x2400');
    assert.equal(videoSize('3.1', {capture_orientation: 'flip90', max_size: '800'}), '800x360');
  });

  test('new_display (3.x) and the camera (2.2+)', () => {
    assert.equal(videoSize('3.1', {new_display: ''}), '1080x2400');
    assert.equal(videoSize('3.1', {new_display: '1921x1081/240'}), '1920x1080');
    assert.equal(videoSize('3.1', {new_display: '1920x1080', max_size: '1000'}), '1000x560');
    assert.equal(videoSize('v2.2', {video_source: 'camera'}), '4080x3072');
    assert.equal(videoSize('2.7', {video_source: 'camera', max_size: '2000'}), '1920x1080');
    assert.equal(videoSize('3.1', {video_source: 'camera', camera_facing: 'front', camera_ar: '4:3', max_size: '1000'}), '640x480');
    assert.equal(videoSize('3.1', {video_source: 'camera', camera_size: '1920x1080', max_size: '1000'}), '1000x560');
  });

  test('3.1 by default: 1080x2400 in the codec metadata and the SPS, both codecs', async () => {
    const {adb} = await setup();
    for (const [videoCodec, codecId, parse] of [
      ['h264', ScrcpyVideoCodecId.H264, h264ParseConfiguration],
      ['h265', ScrcpyVideoCodecId.H265, h265ParseConfiguration],
    ] as const) {
      const options = new AdbScrcpyOptions3_1({audio: false, control: false, cleanup: false, videoCodec});
      const client = await AdbScrcpyClient.start(adb, DefaultServerPath, options);
      const {video, packets} = await firstVideoPackets(client as never, 3);
      assert.deepEqual(video.metadata, {deviceName: 'Pixel 7', codec: codecId, width: 1080, height: 2400});
      const config = parse(packets[0]!.data);
      assert.deepEqual([config.croppedWidth, config.croppedHeight], [1080, 2400]);
      assert.deepEqual([video.width, video.height], [1080, 2400]);
      await client.close();
    }
  });

  test('maxSize 1024 gives 464x1024 in 3.1, 2.7 and 1.15 (device metadata), and 1024x464 on a turned display', async () => {
    const {adb, registry} = await setup();
    for (const options of [
      new AdbScrcpyOptions3_1({audio: false, control: false, cleanup: false, maxSize: 1024}),
      new AdbScrcpyOptions2_7({audio: false, control: false, cleanup: false, maxSize: 1024}),
      new AdbScrcpyOptions1_15({maxSize: 1024}),
    ]) {
      if (options instanceof AdbScrcpyOptions1_15) await push(adb);
      const client = await AdbScrcpyClient.start(adb, DefaultServerPath, options);
      const {video, packets} = await firstVideoPackets(client as never, 2);
      assert.deepEqual([video.metadata.width, video.metadata.height], [464, 1024], registry.sessions.at(-1)!.version);
      const sps = h264ParseConfiguration(packets[0]!.data);
      assert.deepEqual([sps.croppedWidth, sps.croppedHeight, sps.encodedWidth, sps.encodedHeight], [464, 1024, 464, 1024]);
      await client.close();
    }
    // 1.15 removed the server file (no cleanup option before 1.23).
    await push(adb);
    registry.landscape = true;
    const client = await AdbScrcpyClient.start(
      adb,
      DefaultServerPath,
      new AdbScrcpyOptions3_1({audio: false, control: false, cleanup: false, maxSize: 1024}),
    );
    const {video} = await firstVideoPackets(client as never, 2);
    assert.deepEqual([video.metadata.width, video.metadata.height, video.width, video.height], [1024, 464, 1024, 464]);
    await client.close();
  });

  test("a crop beyond the display stops the 3.x video thread with the server's exception", async () => {
    const {adb} = await setup();
    const client = await AdbScrcpyClient.start(
      adb,
      DefaultServerPath,
      new AdbScrcpyOptions3_1({audio: false, control: false, crop: '2000:2000:0:0'}),
    );
    // No codec metadata: the video socket closes first.
    const videoRejected = assert.rejects(client.videoStream!);
    const lines: string[] = [];
    await client.output.pipeTo(new WritableStream({write: (line) => void lines.push(line)}));
    await videoRejected;
    assert.ok(lines.includes('[server] DEBUG: Screen streaming stopped'), lines.join('\n'));
    assert.ok(lines.includes('[server] ERROR: Exception on thread Thread[video,5,main]'), lines.join('\n'));
    assert.ok(
      lines.includes('java.lang.IllegalArgumentException: Crop Rect(0, 0 - 2000, 2000) exceeds the input area (1080x2400)'),
      lines.join('\n'),
    );
    await client.close().catch(() => undefined);
  });

  test("the stream at a size that is not a multiple of 16 decodes: TinyH264, ffmpeg, the library's SPS parsers", async () => {
    const {adb, registry} = await setup();
    // max_size 1000: 448x1000, so H.264 codes 63 rows of macroblocks (1008) and crops 8.
    const streams: Record<string, Uint8Array[]> = {};
    for (const videoCodec of ['h264', 'h265'] as const) {
      const options = new AdbScrcpyOptions3_1({audio: false, control: false, cleanup: false, maxSize: 1000, videoCodec});
      const client = await AdbScrcpyClient.start(adb, DefaultServerPath, options);
      const {video, packets} = await firstVideoPackets(client as never, 4);
      assert.deepEqual([video.metadata.width, video.metadata.height, video.width, video.height], [448, 1000, 448, 1000]);
      assert.deepEqual(
        packets.map((packet) => packet.type === 'data' && packet.keyframe),
        [false, true, false, false],
      );
      streams[videoCodec] = packets.map((packet) => packet.data);
      await client.close();
    }
    // Levels for scrcpy's 60 frames per second: H.264 3.1 (1764 macroblocks), H.265 3.1.
    const h264 = h264ParseConfiguration(streams.h264![0]!);
    assert.deepEqual([h264.encodedWidth, h264.encodedHeight, h264.cropBottom, h264.profileIndex, h264.levelIndex], [448, 1008, 8, 66, 31]);
    const h265 = h265ParseConfiguration(streams.h265![0]!);
    assert.deepEqual([h265.croppedWidth, h265.croppedHeight, h265.generalProfileIndex, h265.generalLevelIndex], [448, 1000, 1, 93]);

    // What a decoder must output: the encoders' own reconstruction of the same capture.
    const version = new ServerVersion('3.1');
    const geometry = captureGeometry(
      version,
      parseServerArguments(version, ['3.1', 'max_size=1000'], () => undefined),
      {
        natural: {width: 1080, height: 2400},
        rotation: registry.landscape ? 1 : 0,
        initialRotation: 0,
      },
    );
    const picture = targetPicture(geometry.source, geometry.width, geometry.height);
    const expected = {h264: encodeH264(picture, 30).reconstruction(), h265: encodeH265(picture, 30).reconstruction()};
    const decoded = await tinyH264Decode(streams.h264!, 448, 1000);
    assert.equal(decoded.length, 3);
    for (const frame of decoded) assert.ok(Buffer.from(frame).equals(Buffer.from(expected.h264)), 'TinyH264 decoded another picture');
    for (const codec of ['h264', 'h265'] as const) {
      const out = ffmpegDecode(codec === 'h264' ? 'h264' : 'hevc', Buffer.concat(streams[codec]!));
      if (!out) continue; // Debian's ffmpeg isn't installed here
      assert.equal(out.length, 3 * expected[codec].length);
      for (let i = 0; i < 3; i++)
        assert.ok(
          out.subarray(i * expected[codec].length, (i + 1) * expected[codec].length).equals(Buffer.from(expected[codec])),
          `${codec} frame ${i}`,
        );
    }
  });

  test('the clips are the same bytes on every run, and small', () => {
    const version = new ServerVersion('3.1');
    const geometry = captureGeometry(
      version,
      parseServerArguments(version, ['3.1', 'max_size=1024'], () => undefined),
      {
        natural: {width: 1080, height: 2400},
        rotation: 0,
        initialRotation: 0,
      },
    );
    const digest = (codec: 'h264' | 'h265') => {
      const clip = videoClip({codec, geometry});
      const bytes = Buffer.concat([clip.config!, ...clip.frames.map((frame) => frame.data)]);
      return {sha256: createHash('sha256').update(bytes).digest('hex').slice(0, 16), bytes: bytes.length, frames: clip.frames.length};
    };
    const h264 = digest('h264');
    const h265 = digest('h265');
    assert.deepEqual([h264.frames, h265.frames], [300, 300]);
    // 10 s of video (one key frame, 299 skipped frames): a few kilobytes.
    assert.ok(h264.bytes < 16_000 && h265.bytes < 16_000, JSON.stringify({h264, h265}));
    assert.deepEqual({h264: h264.sha256, h265: h265.sha256}, {h264: '71b159bc58af1be5', h265: 'e41fb712a6363149'});
  });
});
