/**
 * The media the simulated server streams, split into the packets an Android `MediaCodec` encoder
 * hands to the real server: one configuration packet (`BUFFER_FLAG_CODEC_CONFIG`), then one
 * packet per frame.
 *
 * Video is encoded here, at the exact size the server computed (`capture.ts`), by the small
 * encoders of `h264.ts` and `h265.ts`: a key frame of the captured picture (`picture.ts`: the
 * device's home screen, as `screencap` shows it) and P frames that repeat it, 30 frames per
 * second, a key frame every 10 s (scrcpy's `i-frame-interval`, `DEFAULT_I_FRAME_INTERVAL = 10`
 * in `ScreenEncoder.java`/`SurfaceEncoder.java`). Audio comes from the clips in
 * `device/fixtures/` (made by `make-scrcpy-clips.sh`).
 *
 * Facts: Ogg pages (RFC 3533), Opus in Ogg (RFC 7845: `OpusHead`, `OpusTags`, TOC byte
 * in RFC 6716 §3.1), FLAC in Ogg (xiph.org "Ogg FLAC mapping", FLAC frame header), ADTS
 * (ISO/IEC 14496-3 §1.A.2). What scrcpy sends as the config packet: `Streamer.java`
 * (`fixOpusConfigPacket` keeps the OpusHead, `fixFlacConfigPacket` keeps the STREAMINFO block);
 * for AAC it is `MediaCodec`'s csd-0, the AudioSpecificConfig. Raw audio is 16-bit little-endian
 * stereo PCM at 48 kHz read 1024 frames at a time (`AudioConfig.java`, `MAX_READ_SIZE`).
 */
import {readFileSync} from 'node:fs';

import type {VideoGeometry} from './capture.ts';
import {encodeH264} from './h264.ts';
import {encodeH265} from './h265.ts';
import {targetPicture} from './picture.ts';

/** One encoded frame: its bytes (Annex B with 4-byte start codes for video) and whether it is a key frame. */
export interface MediaFrame {
  data: Uint8Array;
  keyFrame: boolean;
  /** Its duration, in microseconds (audio: samples / 48 kHz; video: 1 / frame rate). */
  durationUs: number;
}

/** A clip as an encoder would emit it, looped by the server (video from its key frame). */
export interface MediaClip {
  /** `h264`, `h265`, `opus`, `aac`, `flac` or `raw` (the scrcpy option values). */
  codec: string;
  /** The configuration packet, or `undefined` where the codec has none (raw audio). */
  config: Uint8Array | undefined;
  /** The frames in order; the first is a key frame, so the loop can restart on it. */
  frames: readonly MediaFrame[];
  /** Video size in pixels (video clips only). */
  width?: number;
  height?: number;
}

/** Frame rate of the video, in frames per second. */
export const VIDEO_FRAME_RATE = 30;
/**
 * The frame rate scrcpy's server configures its encoder with (`KEY_FRAME_RATE`, 60, in
 * `SurfaceEncoder.java`), which the encoder's level follows, whatever rate the screen changes at.
 */
export const ENCODER_FRAME_RATE = 60;
/** Frames from one key frame to the next: 10 s (scrcpy's default `i-frame-interval`). */
export const VIDEO_KEY_FRAME_INTERVAL = 10 * VIDEO_FRAME_RATE;
/** scrcpy's audio capture format (`AudioConfig.java`). */
export const AUDIO_SAMPLE_RATE = 48000;
export const AUDIO_CHANNELS = 2;

const FIXTURES = new URL('../../fixtures/', import.meta.url);

/** The packets of the first logical stream of an Ogg file (pages joined by their lacing values). */
export function splitOgg(data: Uint8Array): Uint8Array[] {
  const packets: Uint8Array[] = [];
  let partial: Uint8Array[] = [];
  let offset = 0;
  while (offset + 27 <= data.length) {
    if (data[offset] !== 0x4f || data[offset + 1] !== 0x67 || data[offset + 2] !== 0x67 || data[offset + 3] !== 0x53) {
      throw new Error(`no Ogg page at offset ${offset}`);
    }
    const segments = data[offset + 26]!;
    const table = data.subarray(offset + 27, offset + 27 + segments);
    let body = offset + 27 + segments;
    for (const lacing of table) {
      partial.push(data.subarray(body, body + lacing));
      body += lacing;
      if (lacing < 255) {
        packets.push(Buffer.concat(partial));
        partial = [];
      }
    }
    offset = body;
  }
  return packets;
}

/** Samples in one Opus packet, from its TOC byte (RFC 6716 §3.1), at 48 kHz. */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0]!;
  const config = toc >> 3;
  let frameSamples: number;
  if (config < 12) frameSamples = [480, 960, 1920, 2880][config % 4]!;
  else if (config < 16) frameSamples = [480, 960][config % 2]!;
  else frameSamples = [120, 240, 480, 960][config % 4]!;
  const code = toc & 3;
  const count = code === 0 ? 1 : code === 3 ? packet[1]! & 0x3f : 2;
  return frameSamples * count;
}

/** Samples in one FLAC frame, from its header's block size code (FLAC format, "FRAME_HEADER"). */
export function flacFrameSamples(frame: Uint8Array): number {
  const code = frame[2]! >> 4;
  if (code === 1) return 192;
  if (code >= 2 && code <= 5) return 576 << (code - 2);
  if (code >= 8) return 256 << (code - 8);
  // 6 and 7: the size minus one follows the UTF-8 coded frame number, in 8 or 16 bits.
  let offset = 4;
  const first = frame[offset]!;
  let extra = 0;
  for (let mask = 0x80; first & mask && mask > 1; mask >>= 1) extra++;
  offset += Math.max(1, extra);
  return code === 6 ? frame[offset]! + 1 : ((frame[offset]! << 8) | frame[offset + 1]!) + 1;
}

/** AAC frames of an ADTS stream (headers removed) and the AudioSpecificConfig their first header describes. */
export function splitAdts(data: Uint8Array): {config: Uint8Array; frames: Uint8Array[]} {
  const frames: Uint8Array[] = [];
  let config: Uint8Array | undefined;
  let offset = 0;
  while (offset + 7 <= data.length) {
    if (data[offset] !== 0xff || (data[offset + 1]! & 0xf0) !== 0xf0) throw new Error(`no ADTS header at offset ${offset}`);
    const protectionAbsent = data[offset + 1]! & 1;
    const profile = data[offset + 2]! >> 6;
    const frequencyIndex = (data[offset + 2]! >> 2) & 0xf;
    const channels = ((data[offset + 2]! & 1) << 2) | (data[offset + 3]! >> 6);
    const length = ((data[offset + 3]! & 3) << 11) | (data[offset + 4]! << 3) | (data[offset + 5]! >> 5);
    const header = protectionAbsent ? 7 : 9;
    config ??= Uint8Array.of(((profile + 1) << 3) | (frequencyIndex >> 1), ((frequencyIndex & 1) << 7) | (channels << 3));
    frames.push(data.subarray(offset + header, offset + length));
    offset += length;
  }
  if (!config) throw new Error('empty ADTS stream');
  return {config, frames};
}

/** How a video clip is made: the codec, the size and picture (`captureGeometry`), and a level asked through the codec options. */
export interface VideoClipRequest {
  codec: 'h264' | 'h265';
  geometry: VideoGeometry;
  /** An Android `AVCLevel*` value from the `level` codec option (H.264 only; the encoder raises it when the size needs more). */
  androidLevel?: number;
}

const videoCache = new Map<string, MediaClip>();
/** Clips kept (the least recently used one goes first): each size and picture the sessions asked for. */
const VIDEO_CACHE_SIZE = 12;

/**
 * The video clip of `request`: the configuration packet (SPS and PPS, and VPS for H.265), a key
 * frame, then `VIDEO_KEY_FRAME_INTERVAL - 1` P frames, each packet Annex B with 4-byte start
 * codes. Odd sides are encoded one pixel smaller (4:2:0 can't have them). Deterministic, and
 * cached by request. Throws `RangeError` for a size below 2×2.
 */
export function videoClip(request: VideoClipRequest): MediaClip {
  const {codec, geometry, androidLevel} = request;
  const width = geometry.width & ~1;
  const height = geometry.height & ~1;
  const key = JSON.stringify([codec, width, height, geometry.source, codec === 'h264' ? androidLevel : undefined]);
  let clip = videoCache.get(key);
  if (clip) {
    videoCache.delete(key);
  } else {
    const picture = targetPicture(geometry.source, width, height);
    const stream = codec === 'h264' ? encodeH264(picture, ENCODER_FRAME_RATE, androidLevel) : encodeH265(picture, ENCODER_FRAME_RATE);
    const durationUs = 1_000_000 / VIDEO_FRAME_RATE;
    const frames: MediaFrame[] = [{data: stream.keyFrame, keyFrame: true, durationUs}];
    for (let i = 1; i < VIDEO_KEY_FRAME_INTERVAL; i++) frames.push({data: stream.skipFrame(i), keyFrame: false, durationUs});
    clip = {codec, config: stream.config, frames, width, height};
    if (videoCache.size >= VIDEO_CACHE_SIZE) videoCache.delete(videoCache.keys().next().value!);
  }
  videoCache.set(key, clip);
  return clip;
}

function loadOpus(): MediaClip {
  const [head, , ...packets] = splitOgg(readFileSync(new URL('scrcpy-opus.ogg', FIXTURES)));
  const frames = packets.map((data) => ({data, keyFrame: true, durationUs: (opusPacketSamples(data) * 1e6) / AUDIO_SAMPLE_RATE}));
  return {codec: 'opus', config: head!, frames};
}

function loadFlac(): MediaClip {
  const [first, ...rest] = splitOgg(readFileSync(new URL('scrcpy-flac.ogg', FIXTURES)));
  // 0x7F "FLAC" major minor, u16 count of header packets, "fLaC", then the STREAMINFO block (4-byte header, 34 bytes).
  const headerPackets = (first![7]! << 8) | first![8]!;
  const streamInfo = first!.subarray(17, 17 + 34);
  const frames = rest.slice(headerPackets).map((data) => ({
    data,
    keyFrame: true,
    durationUs: (flacFrameSamples(data) * 1e6) / AUDIO_SAMPLE_RATE,
  }));
  return {codec: 'flac', config: streamInfo, frames};
}

function loadAac(): MediaClip {
  const {config, frames} = splitAdts(readFileSync(new URL('scrcpy-aac.aac', FIXTURES)));
  return {codec: 'aac', config, frames: frames.map((data) => ({data, keyFrame: true, durationUs: (1024 * 1e6) / AUDIO_SAMPLE_RATE}))};
}

/** One second of a 440 Hz sine as scrcpy's raw audio packets: 1024 stereo frames of s16le each (the last one shorter). */
function makeRaw(): MediaClip {
  const frames: MediaFrame[] = [];
  const perPacket = 1024;
  for (let start = 0; start < AUDIO_SAMPLE_RATE; start += perPacket) {
    const count = Math.min(perPacket, AUDIO_SAMPLE_RATE - start);
    const data = new Uint8Array(count * AUDIO_CHANNELS * 2);
    const view = new DataView(data.buffer);
    for (let i = 0; i < count; i++) {
      const sample = Math.round(Math.sin((2 * Math.PI * 440 * (start + i)) / AUDIO_SAMPLE_RATE) * 8000);
      for (let channel = 0; channel < AUDIO_CHANNELS; channel++) view.setInt16((i * AUDIO_CHANNELS + channel) * 2, sample, true);
    }
    frames.push({data, keyFrame: true, durationUs: (count * 1e6) / AUDIO_SAMPLE_RATE});
  }
  return {codec: 'raw', config: undefined, frames};
}

const cache = new Map<string, MediaClip>();

/**
 * The audio clip for a scrcpy codec option value (`opus`, `aac`, `flac`, `raw`), read from
 * `device/fixtures/` on first use and cached. Throws for any other codec.
 */
export function audioClip(codec: string): MediaClip {
  let clip = cache.get(codec);
  if (!clip) {
    switch (codec) {
      case 'opus':
        clip = loadOpus();
        break;
      case 'aac':
        clip = loadAac();
        break;
      case 'flac':
        clip = loadFlac();
        break;
      case 'raw':
        clip = makeRaw();
        break;
      default:
        throw new Error(`no clip for codec ${codec}`);
    }
    cache.set(codec, clip);
  }
  return clip;
}
