/**
 * The video size the Scrcpy server computes, per server version, and what its picture shows.
 *
 * Facts, read at each tag of Genymobile/scrcpy (`server/src/main/java/com/genymobile/scrcpy/`):
 *
 * - 1.15–2.7, `ScreenInfo.computeScreenInfo` and `computeVideoSize` (`ScreenInfo.java`, from 2.6
 *   `video/ScreenInfo.java`; the same code in every one of these tags): the display's current
 *   size, intersected with `crop` (given in the natural orientation, transposed when the rotation
 *   is odd; a crop that does not intersect logs `Crop rectangle (…) does not intersect device
 *   screen (…)` and leaves nothing); both sides rounded down to multiples of 8 (`w &= ~7`); with
 *   `max_size` and a larger side above it, that side becomes `max_size` and the other
 *   `(minor * maxSize / major + 4) & ~7`. `getVideoSize` turns it a quarter when the video
 *   rotation `(deviceRotation + 4 - lockedVideoOrientation) % 4` is odd (no rotation while
 *   unlocked; from 1.18 `-2` locks the rotation the display had at start).
 * - 3.0–3.1, `ScreenCapture.prepare` with `VideoFilter` and `Size.limit`/`Size.round8`
 *   (`video/ScreenCapture.java`, `video/VideoFilter.java`, `device/Size.java`): the crop
 *   (transposed when the rotation is odd; one beyond the display throws `Crop Rect(…) exceeds the
 *   input area (WxH)`), then the locked orientation undoes the display rotation and the capture
 *   orientation turns it; `limit(maxSize)`: a larger side above `max_size` becomes `max_size`,
 *   the other `maxSize * minor / major`; `round8`: unless both are multiples of 8, the larger side
 *   rounds down and the other to the nearest multiple of 8 (`(minor + 4) & ~7`), at most the larger.
 *   A new virtual display (`new_display`, `NewDisplayCapture.prepare`) has the asked size (the main
 *   display's by default) and is only limited and rounded when it is not a multiple of 8 or
 *   exceeds `max_size`.
 * - Camera (2.2+, `CameraCapture.selectSize`): `camera_size` as given, else the largest output
 *   size (widest, then closest to `camera_ar` within 10 %, then tallest) with both sides at most
 *   `max_size`; 2.2–2.7 stream that size, 3.x filter it (crop, capture orientation) and apply
 *   `limit(maxSize).round8()`.
 * - `Device.rotateDevice`: a rotation request toggles between 0 (portrait) and 1 (landscape).
 *
 * The video is the display (or camera) content; the direction a locked orientation turns the
 * picture is chosen so that `@` (locked to the initial orientation) keeps it upright, which only
 * affects the picture, not the size.
 */
import {JavaException} from './log.ts';
import type {CaptureOrientation, ServerOptions} from './options.ts';
import type {PictureSource, Rect} from './picture.ts';
import type {ServerVersion} from './versions.ts';

/** A size in pixels. */
export interface Size {
  width: number;
  height: number;
}

/** The display the server captures: its size at rotation 0 (portrait on a phone) and its rotations (0–3). */
export interface DisplayState {
  natural: Size;
  /** The rotation now (`Display.getRotation`: 1 after `rotateDevice` from portrait). */
  rotation: number;
  /** The rotation when the server started (what `-2`/`@` lock to). */
  initialRotation: number;
}

/** The video size and the picture that fills it. */
export interface VideoGeometry extends Size {
  source: PictureSource;
}

/** One line the server logs when the capture fails. */
export interface CaptureLog {
  level: 'WARN' | 'ERROR';
  message: string;
  exception?: JavaException;
}

/**
 * Thrown when the capture can't start: the server logs `logs` and the video stream ends.
 * `uncaught` marks an exception that escapes the video thread (logged by the default handler as
 * `Exception on thread Thread[video,5,main]`, after `Screen streaming stopped`).
 */
export class CaptureFailure extends Error {
  constructor(
    readonly logs: readonly CaptureLog[],
    readonly uncaught = false,
  ) {
    super(logs.map((log) => log.message).join('\n'));
    this.name = 'CaptureFailure';
  }
}

/** The cameras of the simulated Pixel 7 (`listing.ts` prints them): id, facing, active array, output sizes. */
export const CAMERAS: ReadonlyArray<{id: string; facing: 'back' | 'front'; active: Size; sizes: readonly Size[]}> = [
  {
    id: '0',
    facing: 'back',
    active: {width: 4080, height: 3072},
    sizes: [
      {width: 4080, height: 3072},
      {width: 1920, height: 1080},
      {width: 1280, height: 720},
      {width: 640, height: 480},
    ],
  },
  {
    id: '1',
    facing: 'front',
    active: {width: 3280, height: 2464},
    sizes: [
      {width: 3280, height: 2464},
      {width: 1920, height: 1080},
      {width: 1280, height: 720},
      {width: 640, height: 480},
    ],
  },
];

/** Java's `%` on ints (the sign of the dividend), as JavaScript's. */
const javaRemainder = (a: number, b: number) => a % b;
/** Java's `int` division of non-huge values (truncation toward zero). */
const javaDivide = (a: number, b: number) => Math.trunc(a / b);

/**
 * `ScreenInfo.computeVideoSize` (1.15–2.7): `w`×`h` rounded down to multiples of 8, then the larger
 * side limited to `maxSize` (when positive) and the other scaled and rounded to the nearest
 * multiple of 8. Returns the size in pixels.
 */
export function legacyVideoSize(w: number, h: number, maxSize: number): Size {
  w &= ~7;
  h &= ~7;
  if (maxSize > 0) {
    const portrait = h > w;
    let major = portrait ? h : w;
    let minor = portrait ? w : h;
    if (major > maxSize) {
      const minorExact = javaDivide(minor * maxSize, major);
      minor = (minorExact + 4) & ~7;
      major = maxSize;
    }
    w = portrait ? minor : major;
    h = portrait ? major : minor;
  }
  return {width: w, height: h};
}

/** `Size.limit` (3.0+): the larger side above `maxSize` (when not 0) becomes `maxSize`, the other `maxSize * minor / major`. */
export function limitSize(size: Size, maxSize: number): Size {
  if (maxSize === 0) return size;
  const portrait = size.height > size.width;
  const major = portrait ? size.height : size.width;
  if (major <= maxSize) return size;
  const minor = portrait ? size.width : size.height;
  const newMinor = javaDivide(maxSize * minor, major);
  return portrait ? {width: newMinor, height: maxSize} : {width: maxSize, height: newMinor};
}

/** `Size.round8` (3.0+): unless both sides are multiples of 8, the larger rounds down and the other to the nearest (at most the larger). */
export function round8(size: Size): Size {
  if ((size.width & 7) === 0 && (size.height & 7) === 0) return size;
  const portrait = size.height > size.width;
  const major = (portrait ? size.height : size.width) & ~7;
  let minor = ((portrait ? size.width : size.height) + 4) & ~7;
  if (minor > major) minor = major;
  return portrait ? {width: minor, height: major} : {width: major, height: minor};
}

const rotate = (size: Size): Size => ({width: size.height, height: size.width});
const transpose = (rect: Rect): Rect => ({left: rect.top, top: rect.left, right: rect.bottom, bottom: rect.right});
/** Android's `Rect.toString`. */
const rectText = (rect: Rect) => `Rect(${rect.left}, ${rect.top} - ${rect.right}, ${rect.bottom})`;
const full = (size: Size): Rect => ({left: 0, top: 0, right: size.width, bottom: size.height});

/** The display's size at `rotation` (a quarter turn swaps the sides). */
export function displaySizeAt(display: DisplayState, rotation: number): Size {
  return rotation % 2 ? rotate(display.natural) : display.natural;
}

/** 1.15–2.7: `computeScreenInfo` and `getVideoSize`. */
function legacyScreen(version: ServerVersion, options: ServerOptions, display: DisplayState): VideoGeometry {
  const rotation = display.rotation;
  const deviceSize = displaySizeAt(display, rotation);
  let content = full(deviceSize);
  if (options.crop) {
    const crop = rotation % 2 ? transpose(options.crop) : options.crop;
    const intersects = crop.left < content.right && content.left < crop.right && crop.top < content.bottom && content.top < crop.bottom;
    if (!intersects) {
      const format = (rect: Rect) => `${rect.right - rect.left}:${rect.bottom - rect.top}:${rect.left}:${rect.top}`;
      throw new CaptureFailure([
        {level: 'WARN', message: `Crop rectangle (${format(crop)}) does not intersect device screen (${format(full(deviceSize))})`},
      ]);
    }
    content = {
      left: Math.max(content.left, crop.left),
      top: Math.max(content.top, crop.top),
      right: Math.min(content.right, crop.right),
      bottom: Math.min(content.bottom, crop.bottom),
    };
  }
  const unlocked = legacyVideoSize(content.right - content.left, content.bottom - content.top, options.maxSize);
  let locked = options.lockVideoOrientation;
  if (locked === -2 && version.atLeast('1.18')) locked = display.initialRotation;
  const videoRotation = locked === -1 ? 0 : javaRemainder(rotation + 4 - locked, 4);
  const size = videoRotation % 2 === 0 ? unlocked : rotate(unlocked);
  return {...size, source: {kind: 'display', ...deviceSize, crop: content, turns: ((videoRotation % 4) + 4) % 4, flip: false}};
}

/** `VideoFilter`'s size and picture after the crop and the orientation (3.0+). */
function filtered(
  kind: 'display' | 'camera',
  input: Size,
  crop: Rect | undefined,
  transposeCrop: boolean,
  undoRotation: number,
  orientation: CaptureOrientation,
): {size: Size; source: PictureSource} {
  let area = full(input);
  if (crop) {
    const rect = transposeCrop ? transpose(crop) : crop;
    if (rect.left < 0 || rect.top < 0 || rect.right > input.width || rect.bottom > input.height) {
      const frames = [
        'com.genymobile.scrcpy.video.VideoFilter.addCrop(VideoFilter.java)',
        `com.genymobile.scrcpy.video.${kind === 'camera' ? 'CameraCapture' : 'ScreenCapture'}.prepare(${kind === 'camera' ? 'CameraCapture' : 'ScreenCapture'}.java)`,
        'com.genymobile.scrcpy.video.SurfaceEncoder.streamCapture(SurfaceEncoder.java)',
        'com.genymobile.scrcpy.video.SurfaceEncoder.lambda$start$0(SurfaceEncoder.java)',
        'java.lang.Thread.run(Thread.java:1012)',
      ];
      const message = `Crop ${rectText(rect)} exceeds the input area (${input.width}x${input.height})`;
      throw new CaptureFailure(
        [
          {
            level: 'ERROR',
            message: 'Exception on thread Thread[video,5,main]',
            exception: new JavaException('java.lang.IllegalArgumentException', message, frames),
          },
        ],
        true,
      );
    }
    area = rect;
  }
  const cropped = {width: area.right - area.left, height: area.bottom - area.top};
  // Clockwise quarter turns of the picture (see the module comment for the direction).
  const turns = orientation.flip ? orientation.rotation / 90 + undoRotation : orientation.rotation / 90 - undoRotation;
  const size = (undoRotation + orientation.rotation / 90) % 2 ? rotate(cropped) : cropped;
  return {size, source: {kind, ...input, crop: area, turns: ((turns % 4) + 4) % 4, flip: orientation.flip}};
}

/** The camera `selectCamera` picks, or a failure as each version reports it. */
function selectCamera(version: ServerVersion, options: ServerOptions): (typeof CAMERAS)[number] {
  if (options.cameraId !== undefined) {
    const camera = CAMERAS.find((candidate) => candidate.id === options.cameraId);
    if (camera) return camera;
    if (version.atLeast('3.0')) {
      throw new CaptureFailure([{level: 'ERROR', message: `Camera with id ${options.cameraId} not found\n${cameraListText()}`}]);
    }
  } else {
    const camera = options.cameraFacing ? CAMERAS.find((candidate) => candidate.facing === options.cameraFacing) : CAMERAS[0];
    if (camera) return camera;
  }
  // 3.x: a ConfigurationException, logged by nobody; 2.x: an IOException the video thread logs.
  if (version.atLeast('3.0')) throw new CaptureFailure([]);
  throw new CaptureFailure([
    {
      level: 'ERROR',
      message: 'Video encoding error',
      exception: new JavaException('java.io.IOException', 'No matching camera found', cameraFrames(version, 'init')),
    },
  ]);
}

/** The server's frames for an exception thrown in `CameraCapture.METHOD` on the video thread. */
function cameraFrames(version: ServerVersion, method: string): string[] {
  const pkg = version.atLeast('2.6') ? 'com.genymobile.scrcpy.video' : 'com.genymobile.scrcpy';
  const stream = version.atLeast('2.5') ? 'streamCapture' : 'streamScreen';
  return [
    `${pkg}.CameraCapture.${method}(CameraCapture.java)`,
    `${pkg}.SurfaceEncoder.${stream}(SurfaceEncoder.java)`,
    `${pkg}.SurfaceEncoder.lambda$start$0(SurfaceEncoder.java)`,
    'java.lang.Thread.run(Thread.java:1012)',
  ];
}

/** The camera list as `LogUtils.buildCameraListMessage(false)` prints it (shared with `listing.ts`). */
export function cameraListText(withSizes = false): string {
  let message = 'List of cameras:';
  for (const camera of CAMERAS) {
    message += `\n    --camera-id=${camera.id}    (${camera.facing}, ${camera.active.width}x${camera.active.height}, fps=[15, 30])`;
    if (withSizes) for (const size of camera.sizes) message += `\n        - ${size.width}x${size.height}`;
  }
  return message;
}

/** `CameraCapture.selectSize`: the explicit size, or the best output size within `max_size` and the aspect ratio. */
function cameraSize(version: ServerVersion, options: ServerOptions, camera: (typeof CAMERAS)[number]): Size {
  if (options.cameraSize) return options.cameraSize;
  const maxSize = options.maxSize;
  let sizes = camera.sizes.filter((size) => maxSize <= 0 || (size.width <= maxSize && size.height <= maxSize));
  const ratio =
    options.cameraAspectRatio === 'sensor' ? Math.fround(camera.active.width / camera.active.height) : options.cameraAspectRatio;
  const distance = (size: Size) => Math.abs(1 - Math.fround(size.width / size.height) / ratio!);
  if (ratio !== undefined) sizes = sizes.filter((size) => distance(size) <= 0.1);
  let best: Size | undefined;
  for (const size of sizes) {
    if (
      !best ||
      size.width > best.width ||
      (size.width === best.width && ratio !== undefined && distance(size) < distance(best)) ||
      (size.width === best.width && (ratio === undefined || distance(size) === distance(best)) && size.height > best.height)
    ) {
      best = size;
    }
  }
  if (best) return best;
  const exception = new JavaException(
    'java.io.IOException',
    'Could not select camera size',
    cameraFrames(version, version.atLeast('3.0') ? 'prepare' : 'init'),
  );
  throw new CaptureFailure([{level: 'ERROR', message: 'Video encoding error', exception}]);
}

/**
 * The video size and picture of a capture started (or restarted) now by server `version` with
 * `options`, on `display`. Throws `CaptureFailure` where the server fails (see the module
 * comment); the size may be non-positive only where the server's arithmetic gives one (a negative
 * `max_size` in 3.x), which the caller treats as an encoder error.
 */
export function captureGeometry(version: ServerVersion, options: ServerOptions, display: DisplayState): VideoGeometry {
  const camera = version.atLeast('2.2') && options.videoSource === 'camera';
  if (camera) {
    const selected = selectCamera(version, options);
    const captured = cameraSize(version, options, selected);
    if (!version.atLeast('3.0')) {
      return {...captured, source: {kind: 'camera', ...captured, crop: full(captured), turns: 0, flip: false}};
    }
    const {size, source} = filtered('camera', captured, options.crop, false, 0, options.captureOrientation);
    return {...round8(limitSize(size, options.maxSize)), source};
  }
  if (!version.atLeast('3.0')) return legacyScreen(version, options, display);

  const orientation = options.captureOrientation;
  const locked = orientation.lock !== 'unlocked';
  const resolved: CaptureOrientation =
    orientation.lock === 'initial'
      ? {lock: 'value', rotation: ((display.initialRotation % 4) * 90) as CaptureOrientation['rotation'], flip: false}
      : orientation;
  if (options.newDisplay) {
    // A new virtual display starts at rotation 0 with the asked size (the main display's by default).
    const size =
      options.newDisplay.width !== undefined
        ? {width: options.newDisplay.width, height: options.newDisplay.height!}
        : displaySizeAt(display, display.rotation);
    const {size: out, source} = filtered('display', size, options.crop, false, 0, resolved);
    const needsResize =
      (out.width & 7) !== 0 || (out.height & 7) !== 0 || (options.maxSize !== 0 && Math.max(out.width, out.height) > options.maxSize);
    return {...(needsResize ? round8(limitSize(out, options.maxSize)) : out), source};
  }
  const input = displaySizeAt(display, display.rotation);
  const {size, source} = filtered('display', input, options.crop, display.rotation % 2 !== 0, locked ? display.rotation : 0, resolved);
  return {...round8(limitSize(size, options.maxSize)), source};
}
