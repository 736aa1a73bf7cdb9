/**
 * What the simulated Pixel 7 reports to `list_encoders`, `list_displays` and `list_cameras`, in
 * the text each server version prints (`LogUtils.java`): 2.0–2.7 quote the encoder name,
 * 3.0+ pad each line to column 70 and add `(hw)`/`(sw)`, `[vendor]` and `(alias for …)`;
 * displays are `--display=ID` in 2.0–2.1 and `--display-id=ID` from 2.2. The library parses these
 * lines with the regular expressions in `@yume-chan/scrcpy` (`2_0/impl/parse-encoder.ts`,
 * `3_0/impl/parse-encoder.ts`, `2_0`/`2_2` `impl/parse-display.ts`).
 *
 * The encoder list is a plausible one for a Pixel 7 on Android 14 (Exynos/Tensor hardware
 * encoders for H.264 and H.265, Android's software Codec2 encoders, the OMX aliases), not one read
 * from a device: it has no AV1 encoder, so `video_codec=av1` fails as on a phone without one.
 */
import {cameraListText, type Size} from './capture.ts';
import type {ServerVersion} from './versions.ts';

/** One `MediaCodecInfo` encoder. */
export interface DeviceEncoder {
  type: 'video' | 'audio';
  /** The scrcpy codec option value it encodes (`h264`, `h265`, `opus`, `aac`, `flac`). */
  codec: string;
  name: string;
  /** `hw`, `sw` or `hybrid` (`MediaCodecInfo.isHardwareAccelerated`/`isSoftwareOnly`). */
  kind: 'hw' | 'sw' | 'hybrid';
  vendor: boolean;
  /** The canonical name when this is an alias. */
  aliasFor?: string;
}

/** The simulated device's encoders, in `MediaCodecList` order per codec. */
export const DEVICE_ENCODERS: readonly DeviceEncoder[] = [
  {type: 'video', codec: 'h264', name: 'c2.exynos.h264.encoder', kind: 'hw', vendor: true},
  {type: 'video', codec: 'h264', name: 'c2.android.avc.encoder', kind: 'sw', vendor: false},
  {type: 'video', codec: 'h264', name: 'OMX.google.h264.encoder', kind: 'sw', vendor: false, aliasFor: 'c2.android.avc.encoder'},
  {type: 'video', codec: 'h265', name: 'c2.exynos.hevc.encoder', kind: 'hw', vendor: true},
  {type: 'video', codec: 'h265', name: 'c2.android.hevc.encoder', kind: 'sw', vendor: false},
  {type: 'audio', codec: 'opus', name: 'c2.android.opus.encoder', kind: 'sw', vendor: false},
  {type: 'audio', codec: 'aac', name: 'c2.android.aac.encoder', kind: 'sw', vendor: false},
  {type: 'audio', codec: 'aac', name: 'OMX.google.aac.encoder', kind: 'sw', vendor: false, aliasFor: 'c2.android.aac.encoder'},
  {type: 'audio', codec: 'flac', name: 'c2.android.flac.encoder', kind: 'sw', vendor: false},
];

/** Codec option values in the server's enum order (`VideoCodec.values()`, `AudioCodec.values()`). */
const CODEC_ORDER: Record<'video' | 'audio', readonly string[]> = {video: ['h264', 'h265', 'av1'], audio: ['opus', 'aac', 'flac', 'raw']};

/** The encoders of `type` as the server lists them, first line `List of TYPE encoders:` (no `[server] INFO: ` prefix). */
export function encoderListMessage(version: ServerVersion, type: 'video' | 'audio'): string {
  const encoders = CODEC_ORDER[type].flatMap((codec) =>
    DEVICE_ENCODERS.filter((encoder) => encoder.type === type && encoder.codec === codec),
  );
  let message = `List of ${type} encoders:`;
  if (!version.atLeast('3.0')) {
    if (encoders.length === 0) return `${message}\n    (none)`;
    for (const encoder of encoders) message += `\n    --${type}-codec=${encoder.codec} --${type}-encoder='${encoder.name}'`;
    return message;
  }
  for (const encoder of encoders) {
    let line = `\n    --${type}-codec=${encoder.codec} --${type}-encoder=${encoder.name}`;
    // Padded so that the hardware type starts at column 70, counting the line feed (LogUtils.buildEncoderListMessage).
    if (line.length < 70) line += ' '.repeat(70 - line.length);
    line += ` (${encoder.kind})`;
    if (encoder.vendor) line += ' [vendor]';
    if (encoder.aliasFor) line += ` (alias for ${encoder.aliasFor})`;
    message += line;
  }
  return message;
}

/**
 * The display list (2.0+, `LogUtils.buildDisplayListMessage`): display 0 at `size`, its current
 * size (`DisplayInfo.getSize`: the sides swap while the display is turned a quarter).
 */
export function displayListMessage(version: ServerVersion, size: Size): string {
  const option = version.atLeast('2.2') ? '--display-id' : '--display';
  return `List of displays:\n    ${option}=0    (${size.width}x${size.height})`;
}

/** The camera list (2.2+, `LogUtils.buildCameraListMessage`): a back and a front camera (`capture.ts`'s `CAMERAS`), with sizes when `withSizes`. */
export function cameraListMessage(withSizes: boolean): string {
  return cameraListText(withSizes);
}

/** The encoder a server uses for `codec` when none is named: the first one listed, or `undefined` (no encoder: `av1`, `raw`). */
export function defaultEncoder(codec: string): DeviceEncoder | undefined {
  return DEVICE_ENCODERS.find((encoder) => encoder.codec === codec);
}
