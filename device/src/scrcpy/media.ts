/**
 * The media the simulated server streams: the clips in `device/fixtures/` (made by
 * `make-scrcpy-clips.sh`), split into the packets an Android `MediaCodec` encoder hands to the
 * real server: one configuration packet (`BUFFER_FLAG_CODEC_CONFIG`), then one packet per frame.
 *
 * Facts: H.264 Annex B NAL unit types (ITU-T H.264 table 7-1: 5 IDR slice, 1 non-IDR slice,
 * 7 SPS, 8 PPS); H.265 NAL unit types (ITU-T H.265 table 7-1: 0–31 VCL, 16–23 IRAP, 32 VPS,
 * 33 SPS, 34 PPS); Ogg pages (RFC 3533), Opus in Ogg (RFC 7845: `OpusHead`, `OpusTags`, TOC byte
 * in RFC 6716 §3.1), FLAC in Ogg (xiph.org "Ogg FLAC mapping", FLAC frame header), ADTS
 * (ISO/IEC 14496-3 §1.A.2). What scrcpy sends as the config packet: `Streamer.java`
 * (`fixOpusConfigPacket` keeps the OpusHead, `fixFlacConfigPacket` keeps the STREAMINFO block);
 * for AAC it is `MediaCodec`'s csd-0, the AudioSpecificConfig. Raw audio is 16-bit little-endian
 * stereo PCM at 48 kHz read 1024 frames at a time (`AudioConfig.java`, `MAX_READ_SIZE`).
 */
import {readFileSync} from 'node:fs';

/** One encoded frame: its bytes (Annex B with 4-byte start codes for video) and whether it is a key frame. */
export interface MediaFrame {
  data: Uint8Array;
  keyFrame: boolean;
  /** Its duration, in microseconds (audio: samples / 48 kHz; video: 1 / frame rate). */
  durationUs: number;
}

/** A clip as an encoder would emit it, looped by the server. */
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

/** Frame rate of the video clips, in frames per second (`make-scrcpy-clips.sh`). */
export const VIDEO_FRAME_RATE = 30;
/** Size of the portrait video clips, in pixels (`make-scrcpy-clips.sh`); the landscape clips swap them. */
export const VIDEO_WIDTH = 240;
export const VIDEO_HEIGHT = 528;
/** scrcpy's audio capture format (`AudioConfig.java`). */
export const AUDIO_SAMPLE_RATE = 48000;
export const AUDIO_CHANNELS = 2;

const FIXTURES = new URL('../../fixtures/', import.meta.url);
const START_CODE = Uint8Array.of(0, 0, 0, 1);

/** The NAL units of an Annex B stream, without their start codes. */
export function splitAnnexB(data: Uint8Array): Uint8Array[] {
  const units: Uint8Array[] = [];
  let start = -1;
  let i = 0;
  while (i + 2 < data.length) {
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1) {
      if (start >= 0) {
        let end = i;
        while (end > start && data[end - 1] === 0) end--;
        units.push(data.subarray(start, end));
      }
      i += 3;
      start = i;
    } else {
      i++;
    }
  }
  if (start >= 0 && start < data.length) units.push(data.subarray(start));
  return units;
}

/**
 * Splits an Annex B H.264 (`h264`) or H.265 (`h265`) stream into its configuration packet
 * (SPS and PPS, plus VPS for H.265) and one packet per picture (a slice that starts a picture,
 * with any non-parameter-set units before it). Each unit keeps a 4-byte start code, as
 * `MediaCodec` output has. Throws when the stream has no parameter sets or no pictures.
 */
export function splitVideo(codec: 'h264' | 'h265', data: Uint8Array, frameRate: number): {config: Uint8Array; frames: MediaFrame[]} {
  const config: Uint8Array[] = [];
  const frames: MediaFrame[] = [];
  let pending: Uint8Array[] = [];
  let current: {units: Uint8Array[]; keyFrame: boolean} | undefined;
  const durationUs = 1_000_000 / frameRate;
  const finish = () => {
    if (current) frames.push({data: Buffer.concat(current.units), keyFrame: current.keyFrame, durationUs});
    current = undefined;
  };
  for (const unit of splitAnnexB(data)) {
    const withStartCode = Buffer.concat([START_CODE, unit]);
    let parameterSet: boolean;
    let slice: boolean;
    let firstSlice: boolean;
    let keyFrame: boolean;
    if (codec === 'h264') {
      const type = unit[0]! & 0x1f;
      parameterSet = type === 7 || type === 8;
      slice = type === 1 || type === 5;
      // first_mb_in_slice is ue(v): 0 is the single bit 1.
      firstSlice = slice && (unit[1]! & 0x80) !== 0;
      keyFrame = type === 5;
    } else {
      const type = (unit[0]! >> 1) & 0x3f;
      parameterSet = type >= 32 && type <= 34;
      slice = type <= 31;
      // first_slice_segment_in_pic_flag is the first bit after the 2-byte header.
      firstSlice = slice && (unit[2]! & 0x80) !== 0;
      keyFrame = type >= 16 && type <= 23;
    }
    if (parameterSet) {
      config.push(withStartCode);
    } else if (slice) {
      if (firstSlice || !current) {
        finish();
        current = {units: [...pending, withStartCode], keyFrame};
        pending = [];
      } else {
        current.units.push(withStartCode);
      }
    } else {
      finish();
      pending.push(withStartCode);
    }
  }
  finish();
  if (config.length === 0 || frames.length === 0) throw new Error(`no ${codec} parameter sets or pictures in the clip`);
  return {config: Buffer.concat(config), frames};
}

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

function loadVideo(codec: 'h264' | 'h265', landscape: boolean): MediaClip {
  const data = readFileSync(new URL(`scrcpy-${codec}${landscape ? '-landscape' : ''}.${codec}`, FIXTURES));
  const {config, frames} = splitVideo(codec, data, VIDEO_FRAME_RATE);
  return landscape
    ? {codec, config, frames, width: VIDEO_HEIGHT, height: VIDEO_WIDTH}
    : {codec, config, frames, width: VIDEO_WIDTH, height: VIDEO_HEIGHT};
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
 * The clip for a scrcpy codec option value (`h264`, `h265`, `opus`, `aac`, `flac`, `raw`),
 * read from `device/fixtures/` on first use and cached. `landscape` picks the video clip of the
 * display turned a quarter (528x240, after `rotateDevice`); audio ignores it. Throws for a codec
 * without a clip (`av1`).
 */
export function mediaClip(codec: string, landscape = false): MediaClip {
  const key = landscape && (codec === 'h264' || codec === 'h265') ? `${codec}-landscape` : codec;
  let clip = cache.get(key);
  if (!clip) {
    switch (codec) {
      case 'h264':
      case 'h265':
        clip = loadVideo(codec, landscape);
        break;
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
    cache.set(key, clip);
  }
  return clip;
}
