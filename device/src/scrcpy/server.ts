/**
 * The simulated Scrcpy server: what `app_process … com.genymobile.scrcpy.Server VERSION OPTIONS…`
 * does on the simulated device, for every server version from 1.15 to 3.1 (`versions.ts`).
 *
 * It checks the version and parses the options, prints the lists (`list_encoders`,
 * `list_displays`, `list_cameras`) or opens the sockets, forward (it listens on
 * `localabstract:scrcpy[_SCID]`) or reverse (it connects to the host's tunnel), and then streams:
 * the device name, the codec metadata, the looped clips of `media.ts` paced in real time with
 * their configuration packets and PTS, and on the control socket it decodes every control message
 * (recorded on the session, see `registry.ts`) and sends clipboard, clipboard-ack and UHID device
 * messages. A stream the host stops reading stops that stream (the socket's writes wait for the
 * host's acknowledgements).
 *
 * Behaviour follows the server's source at each tag of Genymobile/scrcpy (`Server.java`,
 * `DesktopConnection.java`, `Streamer.java`/`ScreenEncoder.java`, `SurfaceEncoder.java`,
 * `AudioEncoder.java`, `Controller.java`, `CleanUp.java`). The video has the size the server
 * computes (`capture.ts`: the 1080×2400 display, or its `wm size`, with `max_size`, `crop`, the
 * rotation, `lock_video_orientation`/`capture_orientation`, `new_display` or the camera) and is
 * encoded at that size (`media.ts`); a rotation or `resetVideo` restarts the encoder at the new
 * size. Simplifications: every encoder of the list works, the picture is the home screen (or a
 * synthetic camera view), and option values the simulation doesn't use are only checked for syntax.
 */
import {displaySize} from '../framework/state.ts';
import {SHELL} from '../fs.ts';
import {SocketClosedError, type CommandContext, type DeviceSocket} from '../types.ts';
import {CaptureFailure, captureGeometry, displaySizeAt, type DisplayState, type VideoGeometry} from './capture.ts';
import {defaultEncoder, DEVICE_ENCODERS, cameraListMessage, displayListMessage, encoderListMessage} from './listing.ts';
import {JavaException, RUNTIME_INIT_FRAMES, ServerConsole} from './log.ts';
import {audioClip, videoClip, type MediaClip} from './media.ts';
import {parseServerArguments, type ServerOptions} from './options.ts';
import {
  AudioCodecMeta,
  CODEC_IDS,
  DeviceMeta,
  DeviceMetaWithSize,
  SocketReader,
  VideoCodecMeta,
  ackClipboardDeviceMessage,
  clipboardDeviceMessage,
  controlMessageLayouts,
  deviceNameField,
  mediaPacket,
  uhidOutputDeviceMessage,
} from './protocol.ts';
import {
  scrcpyOf,
  standInVersion,
  type ClipboardListener,
  type RecordedControlMessage,
  type ScrcpyRegistry,
  type ScrcpySessionInfo,
  type SentDeviceMessage,
} from './registry.ts';
import {ServerVersion, serverVersionFor} from './versions.ts';

/** Where servers before 2.4 think they live, whatever the class path (`CleanUp.SERVER_PATH`, `Server.SERVER_PATH`). */
export const DEFAULT_SERVER_PATH = '/data/local/tmp/scrcpy-server.jar';

/** Thrown inside a session to end it; `exitCode` is what the process returns. */
class SessionEnd extends Error {
  constructor(readonly exitCode = 0) {
    super('session ended');
  }
}

/** Resolves after `ms` milliseconds, or rejects with `SessionEnd` when `signal` aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new SessionEnd());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new SessionEnd());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, {once: true});
  });
}

/**
 * The integer value of codec option `key` in a `key[:type]=value,…` list (`CodecOption.parse`),
 * or `undefined` when it is absent or not an integer.
 */
function codecOptionInteger(list: string | undefined, key: string): number | undefined {
  if (!list) return undefined;
  for (const entry of list.split(/(?<!\\),/)) {
    const equal = entry.indexOf('=');
    if (entry.slice(0, equal).split(':')[0] === key && /^-?\d+$/.test(entry.slice(equal + 1))) return Number(entry.slice(equal + 1));
  }
  return undefined;
}

/** Microseconds on a monotonic clock, as the encoders' timestamps (2.0+ send them as the PTS). */
function monotonicMicros(): bigint {
  return process.hrtime.bigint() / 1000n;
}

/**
 * One server process. `run` resolves with the exit code when the process would exit: 0 after a
 * listing or a session, 1 for an error from 2.2 (`System.exit(1)`); before 2.2 an error escapes
 * `main` and `app_process` still returns 0 after the VM shuts down (read from `app_main.cpp`).
 */
export class ScrcpyServerProcess implements ScrcpySessionInfo, ClipboardListener {
  readonly args: readonly string[];
  readonly version: string;
  readonly #serverVersion: ServerVersion;
  readonly #context: CommandContext;
  readonly #registry: ScrcpyRegistry;
  readonly #classPath: string;
  readonly #console: ServerConsole;
  /** The display rotation when the process started (what `lock_video_orientation=-2` and `capture_orientation=@` lock to). */
  readonly #initialRotation: number;
  readonly exited: Promise<number>;
  #resolveExited!: (code: number) => void;

  // Session state (meaningful once `run` reaches the streaming part).
  id = 0;
  options!: ServerOptions;
  tunnel: 'forward' | 'reverse' = 'reverse';
  socketName = 'scrcpy';
  state: 'connecting' | 'streaming' | 'ended' = 'connecting';
  readonly controlMessages: RecordedControlMessage[] = [];
  readonly deviceMessages: SentDeviceMessage[] = [];
  videoPackets = 0;
  lastVideoPts: bigint | undefined;
  audioPackets = 0;
  readonly connected: Promise<void>;
  #resolveConnected!: () => void;
  #rejectConnected!: (error: Error) => void;
  readonly #abort = new AbortController();
  /** Resolves `undefined` once the session is aborted (one listener for the whole session). */
  readonly #aborted = new Promise<undefined>((resolve) =>
    this.#abort.signal.addEventListener('abort', () => resolve(undefined), {once: true}),
  );
  readonly #sockets: DeviceSocket[] = [];
  #controlSocket: DeviceSocket | undefined;
  #deviceMessageChain: Promise<void> = Promise.resolve();
  /** Set by `RotateDevice` and `ResetVideo`: the video encoder restarts before the next frame. */
  #restartVideo = false;
  readonly #messageWaiters = new Set<() => void>();

  /**
   * @param context the `app_process` command's context (arguments are taken from `args`)
   * @param classPath the class path entry holding the server (its file exists)
   * @param args the arguments after the class name, the client version first
   */
  constructor(context: CommandContext, classPath: string, args: readonly string[]) {
    this.#context = context;
    this.#registry = scrcpyOf(context.device);
    this.#initialRotation = this.#registry.landscape ? 1 : 0;
    this.#classPath = classPath;
    this.args = args;
    let pinned: string | undefined;
    try {
      pinned = standInVersion(context.device.fs.readFile(classPath, {cred: SHELL}));
    } catch {
      pinned = undefined;
    }
    this.version = pinned ?? this.#registry.serverVersion ?? serverVersionFor(args[0]);
    this.#serverVersion = new ServerVersion(this.version);
    this.#console = new ServerConsole(context, this.#serverVersion);
    this.exited = new Promise((resolve) => (this.#resolveExited = resolve));
    this.connected = new Promise((resolve, reject) => {
      this.#resolveConnected = resolve;
      this.#rejectConnected = reject;
    });
    this.connected.catch(() => undefined);
  }

  /** Every line printed so far. */
  get output(): readonly string[] {
    return this.#console.lines;
  }

  /** Runs the process to its end; resolves with the exit code. */
  async run(): Promise<number> {
    this.#registry.addRun(this);
    let code: number;
    try {
      code = await this.#main();
    } catch (error) {
      code = this.#reportFatal(error);
    }
    this.#finish();
    await this.#console.flush();
    this.#resolveExited(code);
    return code;
  }

  /** Logs an error that escapes the server's code, as `main` (2.2+) or the uncaught-exception handler (before) does. */
  #reportFatal(error: unknown): number {
    const exception =
      error instanceof JavaException
        ? error
        : new JavaException('java.lang.RuntimeException', error instanceof Error ? error.message : String(error), [
            'com.genymobile.scrcpy.Server.main(Server.java)',
            ...RUNTIME_INIT_FRAMES,
          ]);
    if (this.#serverVersion.catchesInMain) {
      this.#console.error(exception.message, exception);
      return 1;
    }
    this.#console.error('Exception on thread Thread[main,5,main]', exception);
    return 0;
  }

  async #main(): Promise<number> {
    const version = this.#serverVersion;
    const device = this.#context.device;
    const options = parseServerArguments(version, this.args, (key) => this.#console.log('WARN', `Unknown server option: ${key}`));
    this.options = options;
    this.#console.setThreshold(options.logLevel);

    const property = (name: string) => device.properties.get(name) ?? '';
    const deviceLine = version.deviceLineWithBrand
      ? `Device: [${property('ro.product.manufacturer')}] ${property('ro.product.brand')} ${property('ro.product.model')} (Android ${property('ro.build.version.release')})`
      : `Device: ${property('ro.product.manufacturer')} ${property('ro.product.model')} (Android ${property('ro.build.version.release')})`;
    const listing =
      version.hasAudio &&
      (options.listEncoders || options.listDisplays || options.listCameras || options.listCameraSizes || options.listApps);
    // From 2.2 the line comes first in `internalMain`; before, at the start of the mirroring only.
    if (version.atLeast('2.2') || !listing) this.#console.log('INFO', deviceLine);

    if (listing) {
      if (options.cleanup) this.#unlinkSelf();
      if (options.listEncoders) {
        this.#console.log('INFO', encoderListMessage(version, 'video'));
        this.#console.log('INFO', encoderListMessage(version, 'audio'));
      }
      if (options.listDisplays) this.#console.log('INFO', displayListMessage(version, displaySizeAt(this.#display(), this.#rotation())));
      if (version.atLeast('2.2') && (options.listCameras || options.listCameraSizes)) {
        this.#console.log('INFO', cameraListMessage(options.listCameraSizes));
      }
      if (version.atLeast('3.0') && options.listApps) {
        this.#console.log('INFO', 'Processing Android apps... (this may take some time)');
        this.#console.log('INFO', 'List of apps:');
      }
      return 0;
    }

    if (version.cleanupOption ? options.cleanup : true) this.#unlinkSelf();

    // Before 2.0 the display is checked before any socket (`new Device(options)`); listing displays
    // is asking for display -1 and reading the suggestions.
    if (!version.hasAudio && options.displayId !== 0) {
      const exception = new JavaException(
        'com.genymobile.scrcpy.InvalidDisplayIdException',
        `There is no display having id ${options.displayId}`,
        [
          'com.genymobile.scrcpy.Device.<init>(Device.java)',
          'com.genymobile.scrcpy.Server.scrcpy(Server.java)',
          'com.genymobile.scrcpy.Server.main(Server.java)',
          ...RUNTIME_INIT_FRAMES,
        ],
      );
      this.#reportFatal(exception);
      this.#console.log('ERROR', 'Try to use one of the available display ids:');
      this.#console.log('ERROR', '    scrcpy --display 0');
      return 0;
    }

    return await this.#session(options);
  }

  /** Removes the server file, as the clean-up process does at start (`CleanUp.unlinkSelf`); before 2.4 the path is fixed. */
  #unlinkSelf(): void {
    const path = this.#serverVersion.atLeast('2.4') ? this.#classPath : DEFAULT_SERVER_PATH;
    try {
      this.#context.device.fs.remove(path, {cred: SHELL});
    } catch {
      // File.delete() returns false; nothing is logged.
    }
  }

  // ---- the mirroring session ---------------------------------------------------------------

  async #session(options: ServerOptions): Promise<number> {
    const version = this.#serverVersion;
    this.id = this.#registry.nextSessionId();
    this.tunnel = options.tunnelForward ? 'forward' : 'reverse';
    this.socketName = version.hasAudio && options.scid !== -1 ? `scrcpy_${options.scid.toString(16).padStart(8, '0')}` : 'scrcpy';
    this.#registry.addSession(this);
    const onKill = () => this.#abort.abort();
    this.#context.signal.addEventListener('abort', onKill, {once: true});
    if (this.#context.signal.aborted) this.#abort.abort();

    const video = version.videoOptional ? options.video : true;
    const audio = version.hasAudio && options.audio;
    // Before 1.22 the control socket is always opened, and only read with control=true.
    const control = version.controlOptional ? options.control : true;
    const sendDummyByte = version.controlOptional ? options.sendDummyByte : true;
    const sendDeviceMeta = version.controlOptional ? options.sendDeviceMeta : true;

    try {
      const kinds = [...(video ? ['video'] : []), ...(audio ? ['audio'] : []), ...(control ? ['control'] : [])] as const;
      const sockets = await this.#connect(kinds.length, options.tunnelForward, sendDummyByte && kinds.length > 0);
      const byKind = new Map(kinds.map((kind, index) => [kind, sockets[index]!]));
      this.#controlSocket = byKind.get('control');
      this.state = 'streaming';
      this.#resolveConnected();

      if (sendDeviceMeta && sockets.length > 0) {
        const name = deviceNameField(this.#context.device.properties.get('ro.product.model') ?? '');
        if (version.deviceMetaHasSize) {
          // `device.getScreenInfo().getVideoSize()` when the connection opens (0×0 when the crop left nothing).
          let size = {width: 0, height: 0};
          try {
            size = captureGeometry(version, options, this.#display());
          } catch (error) {
            if (!(error instanceof CaptureFailure)) throw error;
          }
          await sockets[0]!.write(
            DeviceMetaWithSize.serialize({deviceName: name, width: size.width & 0xffff, height: size.height & 0xffff}),
          );
        } else {
          await sockets[0]!.write(DeviceMeta.serialize({deviceName: name}));
        }
      }

      // Which ends stop the server: from 2.1 any fatal processor (video, control; audio only on a
      // configuration error); before, the end of the video stream (the main thread streams it).
      const fatal: Array<Promise<void>> = [];
      const others: Array<Promise<void>> = [];
      const controlSocket = byKind.get('control');
      if (controlSocket && options.control) (version.videoOptional ? fatal : others).push(this.#control(controlSocket, options));
      const audioSocket = byKind.get('audio');
      if (audioSocket) others.push(this.#audio(audioSocket, options));
      const videoSocket = byKind.get('video');
      if (videoSocket) fatal.push(this.#video(videoSocket, options));
      const killed = this.#aborted;
      await Promise.race([killed, ...fatal.map((done) => done.catch(() => undefined))]);
      if (fatal.length === 0) await Promise.race([killed, Promise.all(others)]);
    } catch (error) {
      if (!(error instanceof SessionEnd)) throw error;
    } finally {
      this.#context.signal.removeEventListener('abort', onKill);
    }
    return 0;
  }

  /**
   * Connects `count` sockets in the order video, audio, control: accepts them on the abstract
   * socket (forward tunnel; the dummy byte goes to the first one), or connects each to the host's
   * reverse tunnel. Rejects with `SessionEnd` when the process is killed first, and with a
   * `JavaException` where the server's `LocalSocket` would throw (`Connection refused`, `Address
   * already in use`).
   */
  async #connect(count: number, forward: boolean, sendDummyByte: boolean): Promise<DeviceSocket[]> {
    const device = this.#context.device;
    const address = `localabstract:${this.socketName}`;
    const signal = this.#abort.signal;
    const sockets: DeviceSocket[] = [];
    if (count === 0) return sockets;
    if (!forward) {
      for (let i = 0; i < count; i++) {
        let socket: DeviceSocket;
        try {
          socket = await device.connectLocal(address);
        } catch {
          throw new JavaException('java.io.IOException', 'Connection refused', [
            'android.net.LocalSocketImpl.connectLocal(Native Method)',
            'android.net.LocalSocketImpl.connect(LocalSocketImpl.java)',
            'android.net.LocalSocket.connect(LocalSocket.java)',
            'com.genymobile.scrcpy.device.DesktopConnection.connect(DesktopConnection.java)',
            'com.genymobile.scrcpy.device.DesktopConnection.open(DesktopConnection.java)',
            'com.genymobile.scrcpy.Server.scrcpy(Server.java)',
            'com.genymobile.scrcpy.Server.main(Server.java)',
            ...RUNTIME_INIT_FRAMES,
          ]);
        }
        this.#adopt(socket);
        sockets.push(socket);
        if (signal.aborted) throw new SessionEnd();
      }
      return sockets;
    }

    const pending: DeviceSocket[] = [];
    let wake: (() => void) | undefined;
    let stop: () => void;
    try {
      stop = device.listenLocal(address, (socket) => {
        pending.push(socket);
        wake?.();
      });
    } catch {
      throw new JavaException('java.io.IOException', 'Address already in use', [
        'android.net.LocalSocketImpl.bindLocal(Native Method)',
        'android.net.LocalSocketImpl.bind(LocalSocketImpl.java)',
        'android.net.LocalServerSocket.<init>(LocalServerSocket.java)',
        'com.genymobile.scrcpy.device.DesktopConnection.open(DesktopConnection.java)',
        'com.genymobile.scrcpy.Server.scrcpy(Server.java)',
        'com.genymobile.scrcpy.Server.main(Server.java)',
        ...RUNTIME_INIT_FRAMES,
      ]);
    }
    try {
      while (sockets.length < count) {
        while (pending.length === 0) {
          if (signal.aborted) throw new SessionEnd();
          await Promise.race([new Promise<void>((resolve) => (wake = resolve)), this.#aborted]);
          wake = undefined;
        }
        const socket = pending.shift()!;
        this.#adopt(socket);
        sockets.push(socket);
        if (sockets.length === 1 && sendDummyByte) await socket.write(Uint8Array.of(0));
      }
    } finally {
      stop();
      // Connections beyond the ones the server accepts are refused when the server socket closes.
      for (const extra of pending) extra.close();
    }
    return sockets;
  }

  /** Tracks a socket: it is closed when the session ends. */
  #adopt(socket: DeviceSocket): void {
    this.#sockets.push(socket);
  }

  /** Ends the session: stops the streams, closes the sockets, resolves the waiters. */
  #finish(): void {
    this.#abort.abort();
    for (const socket of this.#sockets) socket.close();
    this.state = 'ended';
    this.#rejectConnected(new Error('the scrcpy session ended before its sockets were connected'));
    for (const waiter of this.#messageWaiters) waiter();
  }

  /** Ends the session as if the process were killed. */
  stop(): void {
    this.#abort.abort();
  }

  /**
   * Sends `clip` on `socket` in real time, looping it: the config packet first, then one frame
   * every frame duration. The PTS counts from 0 before 2.0 and from the monotonic clock after,
   * and jumps over the time a blocked write took (a real capture drops those frames), while the
   * frames themselves stay in order so the stream keeps decoding. Before each frame, `restart`
   * may return the clip of a restarted encoder (its config packet and key frame follow at once),
   * or `null` when the restarted capture failed, which ends the stream.
   */
  async #stream(
    socket: DeviceSocket,
    clip: MediaClip,
    options: ServerOptions,
    onPacket: (pts: bigint | undefined) => void,
    restart?: () => MediaClip | null | undefined,
  ): Promise<void> {
    const version = this.#serverVersion;
    const signal = this.#abort.signal;
    const frameMeta = options.sendFrameMeta;
    const write = async (data: Uint8Array, pts: bigint, config: boolean, keyFrame: boolean) => {
      await socket.write(frameMeta ? mediaPacket(version, data, pts, config, keyFrame) : data);
      onPacket(config ? undefined : pts);
    };
    if (clip.config) await write(clip.config, 0n, true, false);
    const origin = version.ptsFromZero ? 0n : monotonicMicros();
    const start = performance.now();
    let elapsedUs = 0;
    for (let index = 0; !signal.aborted; index = (index + 1) % clip.frames.length) {
      const restarted = restart?.();
      if (restarted === null) return;
      if (restarted) {
        // A new encoder: its config packet, then the clip from its key frame.
        clip = restarted;
        index = 0;
        if (clip.config) await write(clip.config, 0n, true, false);
      }
      const frame = clip.frames[index]!;
      const due = start + elapsedUs / 1000;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait, signal);
      else if (wait < -frame.durationUs / 1000) {
        // Behind (the host didn't read): skip the time, not the frames.
        const late = (performance.now() - start) * 1000 - elapsedUs;
        elapsedUs += Math.floor(late / frame.durationUs) * frame.durationUs;
      }
      await write(frame.data, origin + BigInt(Math.round(elapsedUs)), false, frame.keyFrame);
      elapsedUs += frame.durationUs;
    }
  }

  /** The display rotation now: 1 while `rotateDevice` left it landscape, else 0. */
  #rotation(): number {
    return this.#registry.landscape ? 1 : 0;
  }

  /** The display the capture sees: the panel's size (or `wm size`'s), its rotation now and when the server started. */
  #display(): DisplayState {
    return {natural: displaySize(this.#context.device), rotation: this.#rotation(), initialRotation: this.#initialRotation};
  }

  /**
   * The video stream: codec metadata (2.0+, the size of the first capture), then the clip encoded
   * at the capture's size; a restart (rotation, `resetVideo`) computes the size again and starts a
   * new clip with its config packet. Ends when the socket closes, the encoder can't be created or
   * the capture fails (logged as the server logs it).
   */
  async #video(socket: DeviceSocket, options: ServerOptions): Promise<void> {
    const version = this.#serverVersion;
    const codec = version.hasAudio ? options.videoCodec : 'h264';
    const encoder = this.#pickEncoder('video', codec, options.videoEncoder);
    if (!encoder) return;
    const codecOptions = version.hasAudio ? options.given['video_codec_options'] : options.given['codec_options'];
    this.#logCodecOptions(version.hasAudio ? 'Video codec' : 'Codec', codecOptions);
    const androidLevel = codecOptionInteger(codecOptions, 'level');
    const display = this.#display();
    let uncaught: CaptureFailure | undefined;
    /** The clip of a capture (re)started now, or `undefined` after logging why the capture failed. */
    const capture = (): MediaClip | undefined => {
      let geometry: VideoGeometry;
      try {
        geometry = captureGeometry(version, options, {...display, rotation: this.#rotation()});
      } catch (error) {
        if (!(error instanceof CaptureFailure)) throw error;
        if (error.uncaught) uncaught = error;
        else for (const log of error.logs) this.#logCapture(log);
        return undefined;
      }
      // Only options that leave no picture get here (a 3.x negative max_size, a crop of a pixel):
      // the encoder would refuse the size, with a MediaCodec error text the simulation doesn't know.
      if (geometry.width < 2 || geometry.height < 2) return undefined;
      return videoClip({codec: codec as 'h264' | 'h265', geometry, androidLevel});
    };
    const restart = () => {
      if (!this.#restartVideo) return undefined;
      this.#restartVideo = false;
      return capture() ?? null;
    };
    try {
      const clip = capture();
      if (!clip) return;
      // The encoder's lines (`Using video encoder`) are in the server's stdout before its first
      // bytes reach the socket: Java's System.out writes through to the pipe at once.
      await this.#console.flush();
      if (version.hasAudio && options.sendCodecMeta) {
        await socket.write(VideoCodecMeta.serialize({codecId: CODEC_IDS[codec]!, width: clip.width!, height: clip.height!}));
      }
      await this.#stream(
        socket,
        clip,
        options,
        (pts) => {
          this.videoPackets++;
          if (pts !== undefined) this.lastVideoPts = pts;
        },
        restart,
      );
    } catch (error) {
      if (!(error instanceof SessionEnd || error instanceof SocketClosedError)) throw error;
    } finally {
      this.#console.log('DEBUG', 'Screen streaming stopped');
      // An exception that escapes the video thread reaches the default handler after its `finally`.
      if (uncaught) for (const log of uncaught.logs) this.#logCapture(log);
    }
  }

  /** Logs one line of a capture failure (with its exception's trace when it has one). */
  #logCapture(log: {level: 'WARN' | 'ERROR'; message: string; exception?: JavaException}): void {
    if (log.exception) this.#console.error(log.message, log.exception);
    else this.#console.log(log.level, log.message);
  }

  /**
   * Picks the encoder for `codec` (`name` asked for, or the default), logging what the server logs
   * (`Creating encoder by name`, `Using encoder`/`Using video encoder` (2.1+)/`Using audio encoder`).
   * Returns `undefined` after logging the server's error when there is none (`SurfaceEncoder`/
   * `AudioEncoder.createMediaCodec`; before 2.0 the `InvalidEncoderException` that escapes `main`,
   * with the suggestions of `Server.suggestFix`).
   */
  #pickEncoder(type: 'video' | 'audio', codec: string, name: string | undefined): {name: string} | undefined {
    const version = this.#serverVersion;
    const Type = type === 'video' ? 'Video' : 'Audio';
    const list = encoderListMessage(version, type);
    if (type === 'audio' && codec === 'raw') return {name: 'raw'};
    if (name !== undefined) {
      this.#console.log('DEBUG', `Creating ${type === 'audio' ? 'audio ' : ''}encoder by name: '${name}'`);
      const encoder = DEVICE_ENCODERS.find((candidate) => candidate.name === name);
      if (!version.hasAudio) {
        if (encoder?.codec === codec) return encoder;
        const exception = new JavaException('com.genymobile.scrcpy.InvalidEncoderException', `There is no encoder having name '${name}"`, [
          'com.genymobile.scrcpy.ScreenEncoder.createCodec(ScreenEncoder.java)',
          'com.genymobile.scrcpy.ScreenEncoder.internalStreamScreen(ScreenEncoder.java)',
          'com.genymobile.scrcpy.ScreenEncoder.streamScreen(ScreenEncoder.java)',
          'com.genymobile.scrcpy.Server.scrcpy(Server.java)',
          'com.genymobile.scrcpy.Server.main(Server.java)',
          ...RUNTIME_INIT_FRAMES,
        ]);
        this.#reportFatal(exception);
        this.#console.log('ERROR', 'Try to use one of the available encoders:');
        const option = version.atLeast('1.18') ? '--encoder' : '--encoder-name';
        for (const candidate of DEVICE_ENCODERS.filter((e) => e.codec === 'h264')) {
          this.#console.log('ERROR', `    scrcpy ${option} '${candidate.name}'`);
        }
        return undefined;
      }
      if (!encoder) {
        this.#console.log('ERROR', `${Type} encoder '${name}' for ${codec} not found\n${list}`);
        return undefined;
      }
      if (encoder.codec !== codec) {
        const mime = (value: string) =>
          ({h264: 'video/avc', h265: 'video/hevc', av1: 'video/av01', opus: 'audio/opus', aac: 'audio/mp4a-latm', flac: 'audio/flac'})[
            value
          ];
        this.#console.log(
          'ERROR',
          `${Type} encoder type for "${name}" (${mime(encoder.codec)}) does not match codec type (${mime(codec)})`,
        );
        return undefined;
      }
      return encoder;
    }
    const encoder = defaultEncoder(codec);
    if (!encoder) {
      this.#console.log('ERROR', `Could not create default ${type} encoder for ${codec}\n${list}`);
      return undefined;
    }
    const what = type === 'audio' ? 'audio encoder' : version.atLeast('2.1') ? 'video encoder' : 'encoder';
    this.#console.log('DEBUG', `Using ${what}: '${encoder.name}'`);
    return encoder;
  }

  /**
   * Logs each codec option as the encoder sets it on its `MediaFormat` (`CodecOption.parse`, then
   * `Ln.d(WHAT + " option set: " + key + " (" + type + ") = " + value)`): `key[:type]=value`
   * entries split at unescaped commas, `int` when no type is given. `undefined`, `''` and `-`
   * (1.15–1.20's "none") log nothing.
   */
  #logCodecOptions(what: string, value: string | undefined): void {
    if (value === undefined || value === '' || value === '-') return;
    const javaTypes: Record<string, string> = {int: 'Integer', long: 'Long', float: 'Float', string: 'String'};
    for (const entry of value.split(/(?<!\\),/)) {
      const equal = entry.indexOf('=');
      const [key, type = 'int'] = entry.slice(0, equal).split(':');
      let text = entry.slice(equal + 1);
      if (type === 'float' && /^-?\d+$/.test(text)) text += '.0';
      this.#console.log('DEBUG', `${what} option set: ${key} (${javaTypes[type] ?? type}) = ${text}`);
    }
  }

  /**
   * The audio stream (2.0+): `0` (disabled) before Android 11, `1` (error) when the encoder can't
   * be created, else the codec id (with `send_codec_meta`) and the clip.
   */
  async #audio(socket: DeviceSocket, options: ServerOptions): Promise<void> {
    const sdk = Number(this.#context.device.properties.get('ro.build.version.sdk') ?? '34');
    try {
      if (sdk < 30) {
        this.#console.log('WARN', 'Audio disabled: it is not supported before Android 11');
        await socket.write(AudioCodecMeta.serialize({codecId: 0}));
        return;
      }
      const encoder = this.#pickEncoder('audio', options.audioCodec, options.audioEncoder);
      if (!encoder) {
        // After the log lines, as the video stream's header (#video): the video's goes out first.
        await this.#console.flush();
        await socket.write(AudioCodecMeta.serialize({codecId: 1}));
        // A configuration error is fatal: the server stops.
        this.#abort.abort();
        return;
      }
      this.#logCodecOptions('Audio codec', options.given['audio_codec_options']);
      const clip = audioClip(options.audioCodec);
      await this.#console.flush();
      if (options.sendCodecMeta) await socket.write(AudioCodecMeta.serialize({codecId: CODEC_IDS[options.audioCodec]!}));
      await this.#stream(socket, clip, options, () => this.audioPackets++);
    } catch (error) {
      if (!(error instanceof SessionEnd || error instanceof SocketClosedError)) throw error;
    } finally {
      this.#console.log('DEBUG', 'Audio encoder stopped');
    }
  }

  // ---- control -----------------------------------------------------------------------------

  /** Reads control messages until the host closes the control socket; registers for clipboard changes meanwhile. */
  async #control(socket: DeviceSocket, options: ServerOptions): Promise<void> {
    const version = this.#serverVersion;
    const layouts = controlMessageLayouts(version);
    const reader = new SocketReader(socket);
    const autosync = version.clipboardAutosyncOption ? options.clipboardAutosync : true;
    const unregister = autosync ? this.#registry.addClipboardListener(this) : undefined;
    try {
      for (;;) {
        const type = await Promise.race([reader.peek(), this.#whenAborted()]);
        if (type === undefined) break;
        const layout = layouts.get(type);
        if (!layout) {
          if (version.unknownControlMessageIsFatal) {
            this.#console.error(
              'Controller error',
              new JavaException('com.genymobile.scrcpy.control.ControlProtocolException', `Unknown event type: ${type}`, [
                'com.genymobile.scrcpy.control.ControlMessageReader.read(ControlMessageReader.java)',
                'com.genymobile.scrcpy.control.ControlChannel.recv(ControlChannel.java)',
                'com.genymobile.scrcpy.control.Controller.handleEvent(Controller.java)',
                'com.genymobile.scrcpy.control.Controller.control(Controller.java)',
                'com.genymobile.scrcpy.control.Controller.lambda$start$0(Controller.java)',
                'java.lang.Thread.run(Thread.java:1012)',
              ]),
            );
            break;
          }
          // Before 2.7 the reader logs the type and keeps the byte, so nothing after it is read.
          this.#console.log('WARN', `Unknown event type: ${type}`);
          await this.#whenAborted();
          break;
        }
        let message: Record<string, unknown>;
        try {
          message = (await layout.struct.deserialize(reader)) as Record<string, unknown>;
        } catch {
          break;
        }
        const recorded: RecordedControlMessage = {kind: layout.kind, ...message, type};
        this.controlMessages.push(recorded);
        this.#handle(recorded, autosync);
        for (const waiter of this.#messageWaiters) waiter();
      }
    } finally {
      unregister?.();
      this.#console.log('DEBUG', 'Controller stopped');
    }
  }

  /** Resolves `undefined` when the session is aborted. */
  #whenAborted(): Promise<undefined> {
    return this.#aborted;
  }

  /** What `Controller.handleEvent` does with the messages that have a visible effect. */
  #handle(message: RecordedControlMessage, autosync: boolean): void {
    const version = this.#serverVersion;
    switch (message.kind) {
      case 'SetClipboard': {
        this.#registry.setClipboard(String(message.content), this);
        this.#console.log('INFO', 'Device clipboard set');
        const sequence = message.sequence;
        if (version.atLeast('1.21') && typeof sequence === 'bigint' && sequence !== 0n) {
          this.#sendDeviceMessage({kind: 'ackClipboard', sequence}, ackClipboardDeviceMessage(sequence));
        }
        break;
      }
      case 'GetClipboard': {
        // From 1.21, with autosync on, the change listener sends the text instead.
        const text = this.#registry.clipboard;
        if ((!version.atLeast('1.21') || !autosync) && text !== undefined) {
          this.#sendDeviceMessage({kind: 'clipboard', text}, clipboardDeviceMessage(text));
        }
        break;
      }
      case 'RotateDevice':
        // `Device.rotateDevice`: a quarter turn between portrait and landscape; the capture
        // sees the new display size and restarts the encoder.
        this.#registry.landscape = !this.#registry.landscape;
        this.#console.log('INFO', `Device rotation requested: ${this.#registry.landscape ? 'landscape' : 'portrait'}`);
        this.#restartVideo = true;
        break;
      case 'ResetVideo':
        // 3.0+ `Controller.resetVideo`: the capture is invalidated, so the encoder restarts.
        this.#console.log('INFO', 'Video capture reset');
        this.#restartVideo = true;
        break;
      default:
        break;
    }
  }

  /** Queues a device message on the control socket (the server's `DeviceMessageSender` thread). */
  #sendDeviceMessage(record: SentDeviceMessage, bytes: Uint8Array): void {
    const socket = this.#controlSocket;
    if (!socket || this.state === 'ended') return;
    this.#deviceMessageChain = this.#deviceMessageChain
      .then(async () => {
        await socket.write(bytes);
        this.deviceMessages.push(record);
      })
      .catch(() => undefined);
  }

  /** `ClipboardListener`: the device clipboard changed; sends it to the client unless this session made the change (`source`). */
  clipboardChanged(text: string, source: unknown): void {
    if (source === this) return;
    this.#sendDeviceMessage({kind: 'clipboard', text}, clipboardDeviceMessage(text));
  }

  /** Queues a UHID output device message (`id` the UHID device, `data` the report). Throws before 2.4 or without a control socket. */
  sendUhidOutput(id: number, data: Uint8Array): void {
    if (!this.#serverVersion.atLeast('2.4')) throw new Error(`UHID output needs server 2.4 or later (this is ${this.version})`);
    if (!this.#controlSocket) throw new Error('the session has no control socket');
    this.#sendDeviceMessage({kind: 'uhidOutput', id, data}, uhidOutputDeviceMessage(id, data));
  }

  waitForControlMessage(
    predicate: (message: RecordedControlMessage) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<RecordedControlMessage> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.controlMessages.find(predicate);
        if (found) {
          done();
          resolve(found);
        } else if (this.state === 'ended') {
          done();
          reject(new Error('the scrcpy session ended without that control message'));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching control message within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.#messageWaiters.delete(check);
      };
      this.#messageWaiters.add(check);
      check();
    });
  }
}
