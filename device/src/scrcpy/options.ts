/**
 * Parses the Scrcpy server's command-line arguments (after the class name) the way each server
 * version does: the version check, then positional arguments (1.15–1.20, `Server.createOptions`)
 * or `key=value` pairs (1.21+, `Server.createOptions`, from 2.1 `Options.parse`).
 *
 * Facts: `Server.java`/`Options.java` at each Genymobile/scrcpy tag: option names per version,
 * defaults, the error messages, `Boolean.parseBoolean` (anything but `true` is false),
 * `Integer.parseInt` (`NumberFormatException`), unknown keys only warned about.
 */
import {JavaException, LOG_LEVELS, RUNTIME_INIT_FRAMES, type LogLevel} from './log.ts';
import type {Rect} from './picture.ts';
import type {ServerVersion} from './versions.ts';

/** The server options the simulation uses; everything else is accepted and ignored. */
export interface ServerOptions {
  logLevel: LogLevel;
  /** Session id (31-bit, from the hexadecimal `scid`), or -1 for none (2.0+). */
  scid: number;
  video: boolean;
  audio: boolean;
  control: boolean;
  tunnelForward: boolean;
  /** `h264`, `h265` or `av1` (2.0+; always `h264` before). */
  videoCodec: string;
  /** `opus`, `aac`, `flac` (2.3+) or `raw`. */
  audioCodec: string;
  /** `output`, `mic`, `playback` (2.6+). */
  audioSource: string;
  /** `display` or `camera` (2.2+). */
  videoSource: string;
  /** Largest video dimension asked for, in pixels (0: none); a multiple of 8 as the server rounds it. */
  maxSize: number;
  /** `crop` (`W:H:X:Y`), as the rectangle the server builds from it, in the natural orientation; `undefined` for none. */
  crop: Rect | undefined;
  /**
   * `lock_video_orientation` (1.15–2.7): -1 unlocked, -2 (1.18+) the initial rotation, 0–3 the
   * rotation (0 natural, 1 90° counterclockwise, 2 180°, 3 90° clockwise); any other integer is
   * kept as the server keeps it.
   */
  lockVideoOrientation: number;
  /** Camera options (2.2+): `camera_id`, `camera_size`, `camera_facing`, `camera_ar` (a ratio, or `sensor`). */
  cameraId: string | undefined;
  cameraSize: {width: number; height: number} | undefined;
  cameraFacing: 'front' | 'back' | 'external' | undefined;
  cameraAspectRatio: number | 'sensor' | undefined;
  /** `new_display` (3.0+): `undefined` without the option; its size and dpi when given (`{}` for `new_display=`). */
  newDisplay: {width?: number; height?: number; dpi?: number} | undefined;
  displayId: number;
  /** The video encoder asked for by name (`encoder_name` 1.17–1.25, `video_encoder` 2.0+), or `undefined`. */
  videoEncoder: string | undefined;
  audioEncoder: string | undefined;
  sendDeviceMeta: boolean;
  sendFrameMeta: boolean;
  sendDummyByte: boolean;
  sendCodecMeta: boolean;
  clipboardAutosync: boolean;
  cleanup: boolean;
  listEncoders: boolean;
  listDisplays: boolean;
  listCameras: boolean;
  listCameraSizes: boolean;
  listApps: boolean;
  /** `capture_orientation` (3.0+), as `Options.parseCaptureOrientation` reads it. */
  captureOrientation: CaptureOrientation;
  /** Every `key=value` given (1.21+), or the positional values by option name (1.15–1.20). */
  given: Record<string, string>;
}

/**
 * A capture orientation (3.0+, `Orientation.Lock` and `Orientation`): `unlocked` turns the video
 * from the display's current rotation, `value` from the device's natural orientation, `initial`
 * (`@` alone) keeps the rotation the display has when the capture starts. `rotation` is clockwise,
 * in degrees; `flip` mirrors the picture horizontally first.
 */
export interface CaptureOrientation {
  lock: 'unlocked' | 'initial' | 'value';
  rotation: 0 | 90 | 180 | 270;
  flip: boolean;
}

/**
 * `Options.parseCaptureOrientation` (3.0+): `[@][flip](0|90|180|270)`, or `@` alone. Throws the
 * server's `Empty capture orientation string` and `Unknown orientation: NAME`.
 */
function parseCaptureOrientation(version: ServerVersion, value: string): CaptureOrientation {
  if (value === '') throw illegalArgument(version, 'Empty capture orientation string');
  if (value === '@') return {lock: 'initial', rotation: 0, flip: false};
  const lock = value.startsWith('@') ? 'value' : 'unlocked';
  const name = lock === 'value' ? value.slice(1) : value;
  const match = /^(flip)?(0|90|180|270)$/.exec(name);
  if (!match) throw illegalArgument(version, `Unknown orientation: ${name}`);
  return {lock, rotation: Number(match[2]) as CaptureOrientation['rotation'], flip: match[1] !== undefined};
}

/** The defaults of the newest server (`Options.java` 3.1); older versions share the ones they have. */
export function defaultOptions(): ServerOptions {
  return {
    logLevel: 'DEBUG',
    scid: -1,
    video: true,
    audio: true,
    control: true,
    tunnelForward: false,
    videoCodec: 'h264',
    audioCodec: 'opus',
    audioSource: 'output',
    videoSource: 'display',
    maxSize: 0,
    crop: undefined,
    lockVideoOrientation: -1,
    cameraId: undefined,
    cameraSize: undefined,
    cameraFacing: undefined,
    cameraAspectRatio: undefined,
    newDisplay: undefined,
    displayId: 0,
    videoEncoder: undefined,
    audioEncoder: undefined,
    sendDeviceMeta: true,
    sendFrameMeta: true,
    sendDummyByte: true,
    sendCodecMeta: true,
    clipboardAutosync: true,
    cleanup: true,
    listEncoders: false,
    listDisplays: false,
    listCameras: false,
    listCameraSizes: false,
    listApps: false,
    captureOrientation: {lock: 'unlocked', rotation: 0, flip: false},
    given: {},
  };
}

/** Positional option names of 1.15–1.20 (`Server.createOptions`), after the version. */
const POSITIONAL = [
  'log_level',
  'max_size',
  'bit_rate',
  'max_fps',
  'lock_video_orientation',
  'tunnel_forward',
  'crop',
  'send_frame_meta',
  'control',
  'display_id',
  'show_touches',
  'stay_awake',
  'codec_options',
  'encoder_name',
  'power_off_on_close',
];

/** The `key=value` names each version accepts, added per version (read from each tag's `case "…":` labels). */
const KEYS_ADDED: ReadonlyArray<[version: string, keys: readonly string[], removed?: readonly string[]]> = [
  [
    '1.21',
    // The positional options of 1.15–1.20 became `key=value` options, with one more.
    [...POSITIONAL, 'clipboard_autosync'],
  ],
  ['1.22', ['downsize_on_error', 'send_device_meta', 'send_dummy_byte', 'raw_video_stream']],
  ['1.23', ['cleanup']],
  ['1.24', ['power_on']],
  [
    '2.0',
    [
      'scid',
      'audio',
      'video_codec',
      'audio_codec',
      'video_bit_rate',
      'audio_bit_rate',
      'video_codec_options',
      'audio_codec_options',
      'video_encoder',
      'audio_encoder',
      'list_encoders',
      'list_displays',
      'send_codec_meta',
    ],
    ['bit_rate', 'codec_options', 'encoder_name'],
  ],
  ['2.1', ['video', 'audio_source', 'raw_stream'], ['raw_video_stream']],
  [
    '2.2',
    [
      'video_source',
      'camera_id',
      'camera_size',
      'camera_facing',
      'camera_ar',
      'camera_fps',
      'camera_high_speed',
      'list_cameras',
      'list_camera_sizes',
    ],
  ],
  ['2.6', ['audio_dup']],
  [
    '3.0',
    ['capture_orientation', 'angle', 'screen_off_timeout', 'list_apps', 'new_display', 'vd_system_decorations'],
    ['lock_video_orientation'],
  ],
  ['3.1', ['vd_destroy_content']],
];

/** The `key=value` option names `version` accepts (1.21+). */
export function optionKeys(version: ServerVersion): Set<string> {
  const keys = new Set<string>();
  for (const [since, added, removed = []] of KEYS_ADDED) {
    if (!version.atLeast(since)) break;
    for (const key of added) keys.add(key);
    for (const key of removed) keys.delete(key);
  }
  return keys;
}

/** The server frames of an argument error at `line` of the check (see `ArgumentCheckSite`), then the framework's. */
function argumentFrames(version: ServerVersion, line: number | undefined): string[] {
  const site = version.argumentCheckSite;
  const className = site.file === 'Options.java' ? 'Options' : 'Server';
  const at = (file: string, lineNumber: number | undefined) => (lineNumber === undefined ? file : `${file}:${lineNumber}`);
  const frames = [`com.genymobile.scrcpy.${className}.${site.method}(${at(site.file, line)})`];
  frames.push(`com.genymobile.scrcpy.Server.${site.caller}(Server.java:${site.callLine})`);
  if (site.mainLine !== undefined) frames.push(`com.genymobile.scrcpy.Server.main(Server.java:${site.mainLine})`);
  return [...frames, ...RUNTIME_INIT_FRAMES];
}

/** `IllegalArgumentException` thrown by the argument check (no line: one the simulation has no line number for). */
function illegalArgument(version: ServerVersion, message: string, line?: number): JavaException {
  return new JavaException('java.lang.IllegalArgumentException', message, argumentFrames(version, line));
}

function parseBoolean(value: string): boolean {
  return value.toLowerCase() === 'true';
}

/** `Integer.parseInt`: a decimal (or `radix`) 32-bit integer, else `NumberFormatException` (Android's libcore message). */
function parseInt(version: ServerVersion, value: string, radix = 10): number {
  const valid = radix === 16 ? /^[-+]?[0-9a-fA-F]+$/ : /^[-+]?[0-9]+$/;
  const result = Number.parseInt(value, radix);
  if (!valid.test(value) || result > 0x7fffffff || result < -0x80000000) {
    const message = `For input string: "${value}"${radix === 10 ? '' : ` under radix ${radix}`}`;
    const frames = ['java.lang.Integer.parseInt(Integer.java)', ...argumentFrames(version, undefined)];
    throw new JavaException('java.lang.NumberFormatException', message, frames);
  }
  return result;
}

function parseLogLevel(version: ServerVersion, value: string): LogLevel {
  const upper = value.toUpperCase();
  if ((LOG_LEVELS as readonly string[]).includes(upper) && (upper !== 'VERBOSE' || version.atLeast('1.18'))) return upper as LogLevel;
  const enumClass = version.atLeast('2.6') ? 'com.genymobile.scrcpy.util.Ln.Level' : 'com.genymobile.scrcpy.Ln.Level';
  throw new JavaException('java.lang.IllegalArgumentException', `No enum constant ${enumClass}.${upper}`, [
    'java.lang.Enum.valueOf(Enum.java)',
    ...argumentFrames(version, undefined),
  ]);
}

/** Java's `String.split(regex)` for a literal separator: trailing empty strings are dropped (`""` gives `[""]`). */
function javaSplit(value: string, separator: string): string[] {
  if (value === '') return [''];
  const tokens = value.split(separator);
  while (tokens.length > 0 && tokens.at(-1) === '') tokens.pop();
  return tokens;
}

/** `Float.parseFloat`: a decimal float (surrounding spaces allowed), else `NumberFormatException`. */
function parseJavaFloat(version: ServerVersion, value: string): number {
  const text = value.trim();
  if (!/^[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)$/.test(text)) {
    const message = text === '' ? 'empty String' : `For input string: "${value}"`;
    throw new JavaException('java.lang.NumberFormatException', message, [
      'java.lang.Float.parseFloat(Float.java)',
      ...argumentFrames(version, undefined),
    ]);
  }
  return Number.parseFloat(text.replace(/[fFdD]$/, '').replace(/^([+-]?)Infinity$/, '$1Infinity'));
}

/**
 * `parseCrop` (`Server.java` to 2.0, `Options.java` from 2.1): `width:height:x:y` into the rectangle
 * `(x, y, x + width, y + height)`, `undefined` for the version's "none" (`-` before 1.21, `""`
 * after). From 2.7 a non-positive size or a negative offset is refused.
 */
function parseCrop(version: ServerVersion, value: string): Rect | undefined {
  if (value === (version.keyValueOptions ? '' : '-')) return undefined;
  const tokens = javaSplit(value, ':');
  if (tokens.length !== 4) throw illegalArgument(version, `Crop must contains 4 values separated by colons: "${value}"`);
  const [width, height] = [parseInt(version, tokens[0]!), parseInt(version, tokens[1]!)];
  if (version.atLeast('2.7') && (width <= 0 || height <= 0)) throw illegalArgument(version, `Invalid crop size: ${width}x${height}`);
  const [x, y] = [parseInt(version, tokens[2]!), parseInt(version, tokens[3]!)];
  if (version.atLeast('2.7') && (x < 0 || y < 0)) throw illegalArgument(version, `Invalid crop offset: ${x}:${y}`);
  return {left: x, top: y, right: x + width, bottom: y + height};
}

/** `parseSize` (2.2+): `<width>x<height>`; from 3.0 both must be positive. */
function parseSize(version: ServerVersion, value: string): {width: number; height: number} {
  const tokens = javaSplit(value, 'x');
  if (tokens.length !== 2) throw illegalArgument(version, `Invalid size format (expected <width>x<height>): "${value}"`);
  const width = parseInt(version, tokens[0]!);
  const height = parseInt(version, tokens[1]!);
  if (version.atLeast('3.0') && (width <= 0 || height <= 0))
    throw illegalArgument(version, `Invalid non-positive size dimension: "${value}"`);
  return {width, height};
}

/** `parseCameraAspectRatio` (2.2+): `sensor`, `W:H` (both positive) or a non-negative float. */
function parseCameraAspectRatio(version: ServerVersion, value: string): number | 'sensor' {
  if (value === 'sensor') return 'sensor';
  const tokens = javaSplit(value, ':');
  if (tokens.length === 2) {
    const w = parseInt(version, tokens[0]!);
    const h = parseInt(version, tokens[1]!);
    if (w <= 0 || h <= 0) throw illegalArgument(version, `Invalid aspect ratio: ${w}:${h}`);
    return Math.fround(w / h);
  }
  const ratio = parseJavaFloat(version, tokens[0] ?? '');
  if (ratio < 0) throw illegalArgument(version, `Invalid aspect ratio: ${ratio}`);
  return ratio;
}

/** `parseNewDisplay` (3.0+): `""`, `<width>x<height>`, `/<dpi>` or `<width>x<height>/<dpi>`. */
function parseNewDisplay(version: ServerVersion, value: string): {width?: number; height?: number; dpi?: number} {
  if (value === '') return {};
  const tokens = javaSplit(value, '/');
  const display: {width?: number; height?: number; dpi?: number} = tokens[0] ? parseSize(version, tokens[0]) : {};
  if (tokens.length >= 2) {
    const dpi = parseInt(version, tokens[1]!);
    if (dpi <= 0) throw illegalArgument(version, `Invalid non-positive dpi: ${tokens[1]}`);
    display.dpi = dpi;
  }
  return display;
}

/**
 * Applies one option to `options` (shared by both argument styles). Returns `false` for a key
 * this version doesn't know. Throws `JavaException` for a value the server rejects.
 */
function applyOption(version: ServerVersion, options: ServerOptions, key: string, value: string): boolean {
  if (version.keyValueOptions && !optionKeys(version).has(key)) return false;
  options.given[key] = value;
  const codecError = (what: string) => illegalArgument(version, `${what} ${value} not supported`);
  switch (key) {
    case 'log_level':
      options.logLevel = parseLogLevel(version, value);
      break;
    case 'scid': {
      const scid = parseInt(version, value, 16);
      if (scid < -1) throw illegalArgument(version, `scid may not be negative (except -1 for 'none'): ${scid}`);
      options.scid = scid;
      break;
    }
    case 'video':
      options.video = parseBoolean(value);
      break;
    case 'audio':
      options.audio = parseBoolean(value);
      break;
    case 'video_codec':
      if (!['h264', 'h265', 'av1'].includes(value)) throw codecError('Video codec');
      options.videoCodec = value;
      break;
    case 'audio_codec':
      if (!version.audioCodecs.includes(value)) throw codecError('Audio codec');
      options.audioCodec = value;
      break;
    case 'video_source':
      if (!['display', 'camera'].includes(value)) throw codecError('Video source');
      options.videoSource = value;
      break;
    case 'audio_source':
      if (!version.audioSources.includes(value)) throw codecError('Audio source');
      options.audioSource = value;
      break;
    case 'max_size':
      options.maxSize = parseInt(version, value) & ~7;
      break;
    case 'crop':
      options.crop = parseCrop(version, value);
      break;
    case 'lock_video_orientation':
      options.lockVideoOrientation = parseInt(version, value);
      break;
    case 'camera_id':
      options.cameraId = value === '' ? undefined : value;
      break;
    case 'camera_size':
      options.cameraSize = value === '' ? undefined : parseSize(version, value);
      break;
    case 'camera_facing':
      if (value !== '') {
        if (value !== 'front' && value !== 'back' && value !== 'external')
          throw illegalArgument(version, `Camera facing ${value} not supported`);
        options.cameraFacing = value;
      }
      break;
    case 'camera_ar':
      options.cameraAspectRatio = value === '' ? undefined : parseCameraAspectRatio(version, value);
      break;
    case 'new_display':
      options.newDisplay = parseNewDisplay(version, value);
      break;
    case 'angle':
      if (version.atLeast('3.0')) {
        try {
          parseJavaFloat(version, value);
        } catch {
          throw illegalArgument(version, `Invalid float value for angle: "${value}"`);
        }
      }
      break;
    case 'bit_rate':
    case 'video_bit_rate':
    case 'audio_bit_rate':
    case 'max_fps':
    case 'camera_fps':
    case 'screen_off_timeout':
      if (key !== 'max_fps' || !version.atLeast('2.0')) parseInt(version, value);
      break;
    case 'tunnel_forward':
      options.tunnelForward = parseBoolean(value);
      break;
    case 'control':
      options.control = parseBoolean(value);
      break;
    case 'display_id':
      options.displayId = parseInt(version, value);
      break;
    case 'encoder_name':
    case 'video_encoder':
      options.videoEncoder = value === '' || (!version.keyValueOptions && value === '-') ? undefined : value;
      break;
    case 'audio_encoder':
      options.audioEncoder = value === '' ? undefined : value;
      break;
    case 'clipboard_autosync':
      options.clipboardAutosync = parseBoolean(value);
      break;
    case 'cleanup':
      options.cleanup = parseBoolean(value);
      break;
    case 'list_encoders':
      options.listEncoders = parseBoolean(value);
      break;
    case 'list_displays':
      options.listDisplays = parseBoolean(value);
      break;
    case 'list_cameras':
      options.listCameras = parseBoolean(value);
      break;
    case 'list_camera_sizes':
      options.listCameraSizes = parseBoolean(value);
      break;
    case 'list_apps':
      options.listApps = parseBoolean(value);
      break;
    case 'capture_orientation':
      options.captureOrientation = parseCaptureOrientation(version, value);
      break;
    case 'send_device_meta':
      options.sendDeviceMeta = parseBoolean(value);
      break;
    case 'send_frame_meta':
      options.sendFrameMeta = parseBoolean(value);
      break;
    case 'send_dummy_byte':
      options.sendDummyByte = parseBoolean(value);
      break;
    case 'send_codec_meta':
      options.sendCodecMeta = parseBoolean(value);
      break;
    case 'raw_stream':
    case 'raw_video_stream':
      if (parseBoolean(value)) {
        options.sendDeviceMeta = false;
        options.sendFrameMeta = false;
        options.sendDummyByte = false;
        options.sendCodecMeta = false;
      }
      break;
    default:
      // Accepted and without effect on the simulation (bit rates, crop, show_touches, camera_*…).
      break;
  }
  return true;
}

/**
 * Parses `args` (the client version first) as server `version` does. Throws `JavaException`:
 * `Missing client version`, `The server version (S) does not match the client (C)`,
 * `Expecting N parameters` (1.15–1.20), `Invalid key=value pair: "…"` (1.21+), and the value
 * errors of `applyOption`. `onUnknownKey` is called, in order, for each key the version doesn't
 * know (1.21+: the server warns `Unknown server option: KEY` and goes on).
 */
export function parseServerArguments(version: ServerVersion, args: readonly string[], onUnknownKey: (key: string) => void): ServerOptions {
  const site = version.argumentCheckSite;
  if (args.length < 1) throw illegalArgument(version, 'Missing client version');
  const clientVersion = args[0]!;
  if (clientVersion !== version.name) {
    throw illegalArgument(version, `The server version (${version.name}) does not match the client (${clientVersion})`, site.versionLine);
  }
  const options = defaultOptions();
  if (!version.keyValueOptions) {
    if (args.length !== version.positionalCount) {
      throw illegalArgument(version, `Expecting ${version.positionalCount} parameters`, site.argumentLine);
    }
    options.audio = false;
    args.slice(1).forEach((value, index) => {
      const key = POSITIONAL[index]!;
      if (key === 'codec_options') options.given[key] = value;
      else applyOption(version, options, key, value);
    });
    return options;
  }
  if (!version.hasAudio) options.audio = false;
  for (const arg of args.slice(1)) {
    const equal = arg.indexOf('=');
    if (equal === -1) throw illegalArgument(version, `Invalid key=value pair: "${arg}"`, site.argumentLine);
    const key = arg.slice(0, equal);
    if (!applyOption(version, options, key, arg.slice(equal + 1))) onUnknownKey(key);
  }
  return options;
}
