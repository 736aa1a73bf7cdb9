/**
 * A small H.264 encoder for the simulated screen: Constrained Baseline profile, CAVLC, one slice
 * per picture, no deblocking. The key frame (IDR) is made of flat-colour `I_16x16` macroblocks
 * (DC prediction for luma, vertical/horizontal/DC for chroma, and at most one DC coefficient
 * per plane), the other frames are P frames whose macroblocks are all `P_Skip` (the screen does
 * not change). Any even size is encoded; sizes that are not multiples of 16 are cropped in the
 * SPS, as encoders do.
 *
 * Because every macroblock is flat and the prediction of a flat neighbour is flat, the encoder
 * knows the decoder's reconstruction exactly (`reconstruction`), which is what the tests
 * compare a real decoder's output with.
 *
 * Facts, ITU-T H.264 (08/2021): SPS/PPS/slice header/slice data syntax (§7.3.2.1.1, 7.3.2.2,
 * 7.3.3, 7.3.4), macroblock layer (§7.3.5, Table 7-11: `I_16x16_<pred>_<cbpChroma>_<cbpLuma>`
 * is mb_type 1 + pred + 4·cbpChroma + 12·(cbpLuma = 15)), Intra_16x16 DC and chroma prediction
 * (§8.3.3, 8.3.4), scaling of the Intra16x16 and chroma DC coefficients (§8.5.10, 8.5.11:
 * LevelScale4x4(m,0,0) = 16·{10,11,13,14,16,18}[m]; with QP 28 and a chroma offset of −6, one
 * level is one sample value in every plane), CAVLC (§9.2: coeff_token for 0 ≤ nC < 2 and nC = −1
 * from Table 9-5, level_prefix/level_suffix, total_zeros Tables 9-7 and 9-9a), levels
 * (Table A-1: MaxMBPS, MaxFS, MaxDpbMbs; width and height at most √(8·MaxFS) macroblocks).
 */
import {BitWriter, nalUnit} from './bitstream.ts';
import type {TargetPicture} from './picture.ts';

/** The luma QP of every slice (`pic_init_qp_minus26` = 2). */
export const H264_QP = 28;
/** `chroma_qp_index_offset`: QPc = 22, where one chroma DC level is one sample value. */
export const H264_CHROMA_QP_OFFSET = -6;
/** `log2_max_frame_num_minus4` + 4: frame_num counts modulo 2^16. */
const LOG2_MAX_FRAME_NUM = 16;

/** Level limits of Table A-1: level_idc, MaxMBPS (macroblocks/s), MaxFS (macroblocks), MaxDpbMbs. */
const LEVELS: ReadonlyArray<readonly [number, number, number, number]> = [
  [10, 1485, 99, 396],
  [11, 3000, 396, 900],
  [12, 6000, 396, 2376],
  [13, 11880, 396, 2376],
  [20, 11880, 396, 2376],
  [21, 19800, 792, 4752],
  [22, 20250, 1620, 8100],
  [30, 40500, 1620, 8100],
  [31, 108000, 3600, 18000],
  [32, 216000, 5120, 20480],
  [40, 245760, 8192, 32768],
  [41, 245760, 8192, 32768],
  [42, 522240, 8704, 34816],
  [50, 589824, 22080, 110400],
  [51, 983040, 36864, 184320],
  [52, 2073600, 36864, 184320],
  [60, 4177920, 139264, 696320],
  [61, 8355840, 139264, 696320],
  [62, 16711680, 139264, 696320],
];

/** `MediaCodecInfo.CodecProfileLevel.AVCLevel*` values (the library's `AndroidAvcLevel`) and their level_idc; 1b is 11 here (Baseline signals it with constraint_set3). */
const ANDROID_AVC_LEVELS: ReadonlyMap<number, number> = new Map(
  [10, 11, 11, 12, 13, 20, 21, 22, 30, 31, 32, 40, 41, 42, 50, 51, 52, 60, 61, 62].map((levelIdc, bit) => [1 << bit, levelIdc]),
);

/**
 * The smallest level_idc of Table A-1 whose limits hold a `widthMbs`×`heightMbs` picture at
 * `frameRate` frames per second with one reference frame; at least the level of `androidLevel`
 * (an `AVCLevel*` constant a client asked for through the `level` codec option), as Android's
 * encoders raise a level too low for the size. 62 when nothing fits.
 */
export function h264Level(widthMbs: number, heightMbs: number, frameRate: number, androidLevel?: number): number {
  const frameSize = widthMbs * heightMbs;
  const asked = (androidLevel !== undefined && ANDROID_AVC_LEVELS.get(androidLevel)) || 0;
  for (const [levelIdc, maxMbps, maxFs, maxDpbMbs] of LEVELS) {
    const side = Math.sqrt(8 * maxFs);
    if (levelIdc < asked) continue;
    if (frameSize <= maxFs && widthMbs <= side && heightMbs <= side && frameSize * frameRate <= maxMbps && frameSize <= maxDpbMbs) {
      return levelIdc;
    }
  }
  return 62;
}

/** What `encodeH264` makes. */
export interface H264Stream {
  /** SPS and PPS, each with a 4-byte start code: the configuration packet. */
  config: Uint8Array;
  /** The IDR picture (one slice NAL unit). */
  keyFrame: Uint8Array;
  /** The P picture with frame_num `frameNum` (mod 2^16): every macroblock `P_Skip`. */
  skipFrame(frameNum: number): Uint8Array;
  /** level_idc written in the SPS. */
  levelIdc: number;
  /**
   * What a decoder outputs for every picture, cropped to the video size: Y (`width`×`height`),
   * then Cb and Cr (`width/2`×`height/2` each), 8 bits per sample, planar (ffmpeg's `yuv420p`).
   */
  reconstruction(): Uint8Array;
}

/** `coeff_token` for TotalCoeff 0, (1, TrailingOnes 1), (1, 0): Table 9-5, 0 ≤ nC < 2 and nC = −1. */
const COEFF_TOKEN = {
  luma: {none: [1, 1], one: [1, 2], other: [0b000101, 6]},
  chromaDc: {none: [1, 2], one: [1, 1], other: [0b000111, 6]},
} as const;

/**
 * Writes one residual block holding at most a first coefficient `level` (the DC of a DC block),
 * the rest zero: coeff_token, the level, total_zeros = 0 (`1` in Tables 9-7 and 9-9a).
 */
function writeDcBlock(bits: BitWriter, level: number, table: (typeof COEFF_TOKEN)[keyof typeof COEFF_TOKEN]): void {
  if (level === 0) {
    bits.bits(table.none[0], table.none[1]);
    return;
  }
  if (level === 1 || level === -1) {
    bits.bits(table.one[0], table.one[1]);
    bits.bit(level < 0 ? 1 : 0); // trailing_ones_sign_flag
  } else {
    bits.bits(table.other[0], table.other[1]);
    // suffixLength 0; the first level after fewer than 3 trailing ones is coded minus 2.
    const code = (level > 0 ? 2 * level - 2 : -2 * level - 1) - 2;
    if (code < 14) {
      bits.bits(1, code + 1); // level_prefix
    } else if (code < 30) {
      bits.bits(1, 15); // level_prefix 14
      bits.bits(code - 14, 4);
    } else {
      bits.bits(1, 16); // level_prefix 15
      bits.bits(code - 30, 12);
    }
  }
  bits.bit(1); // total_zeros = 0
}

const clip = (value: number) => (value < 0 ? 0 : value > 255 ? 255 : value);

/**
 * Encodes `picture` (an even `width`×`height`, at least 2×2) as the stream described above.
 * `levelIdc` in the SPS is `h264Level` of the size at `frameRate`, at least `androidLevel`.
 * Deterministic: the same picture gives the same bytes. Throws `RangeError` for an odd or empty size.
 */
export function encodeH264(picture: TargetPicture, frameRate: number, androidLevel?: number): H264Stream {
  const {width, height} = picture;
  if (width < 2 || height < 2 || width % 2 || height % 2) throw new RangeError(`H.264 size ${width}x${height}`);
  const widthMbs = Math.ceil(width / 16);
  const heightMbs = Math.ceil(height / 16);
  const levelIdc = h264Level(widthMbs, heightMbs, frameRate, androidLevel);

  const sps = new BitWriter();
  sps.bits(66, 8); // profile_idc: Baseline
  sps.bits(0b11000000, 8); // constraint_set0 and set1: Constrained Baseline
  sps.bits(levelIdc, 8);
  sps.ue(0); // seq_parameter_set_id
  sps.ue(LOG2_MAX_FRAME_NUM - 4);
  sps.ue(2); // pic_order_cnt_type: output order is decoding order
  sps.ue(1); // max_num_ref_frames
  sps.bit(0); // gaps_in_frame_num_value_allowed_flag
  sps.ue(widthMbs - 1);
  sps.ue(heightMbs - 1);
  sps.bit(1); // frame_mbs_only_flag
  sps.bit(1); // direct_8x8_inference_flag
  const cropRight = (widthMbs * 16 - width) / 2;
  const cropBottom = (heightMbs * 16 - height) / 2;
  sps.bit(cropRight || cropBottom ? 1 : 0); // frame_cropping_flag
  if (cropRight || cropBottom) {
    sps.ue(0);
    sps.ue(cropRight);
    sps.ue(0);
    sps.ue(cropBottom);
  }
  sps.bit(0); // vui_parameters_present_flag
  sps.trailingBits();

  const pps = new BitWriter();
  pps.ue(0); // pic_parameter_set_id
  pps.ue(0); // seq_parameter_set_id
  pps.bit(0); // entropy_coding_mode_flag: CAVLC
  pps.bit(0); // bottom_field_pic_order_in_frame_present_flag
  pps.ue(0); // num_slice_groups_minus1
  pps.ue(0); // num_ref_idx_l0_default_active_minus1
  pps.ue(0); // num_ref_idx_l1_default_active_minus1
  pps.bit(0); // weighted_pred_flag
  pps.bits(0, 2); // weighted_bipred_idc
  pps.se(H264_QP - 26); // pic_init_qp_minus26
  pps.se(0); // pic_init_qs_minus26
  pps.se(H264_CHROMA_QP_OFFSET);
  pps.bit(1); // deblocking_filter_control_present_flag
  pps.bit(0); // constrained_intra_pred_flag
  pps.bit(0); // redundant_pic_cnt_present_flag
  pps.trailingBits();

  const config = Buffer.concat([nalUnit(Uint8Array.of(0x67), sps.bytes()), nalUnit(Uint8Array.of(0x68), pps.bytes())]);

  // The IDR slice: nal_ref_idc 3, type 5.
  const slice = new BitWriter();
  slice.ue(0); // first_mb_in_slice
  slice.ue(7); // slice_type: I, all slices of the picture
  slice.ue(0); // pic_parameter_set_id
  slice.bits(0, LOG2_MAX_FRAME_NUM); // frame_num
  slice.ue(0); // idr_pic_id
  slice.bit(0); // no_output_of_prior_pics_flag
  slice.bit(0); // long_term_reference_flag
  slice.se(0); // slice_qp_delta
  slice.ue(1); // disable_deblocking_filter_idc: off

  // Reconstructed colour of each macroblock (flat), per plane.
  const recon = [0, 1, 2].map(() => new Uint8Array(widthMbs * heightMbs));
  for (let mbY = 0; mbY < heightMbs; mbY++) {
    for (let mbX = 0; mbX < widthMbs; mbX++) {
      const index = mbY * widthMbs + mbX;
      const left = mbX > 0 ? index - 1 : -1;
      const top = mbY > 0 ? index - widthMbs : -1;
      const levels: number[] = [];
      for (const plane of [0, 1, 2] as const) {
        let predicted: number;
        if (plane === 0) {
          // Intra_16x16 DC (§8.3.3.3) over flat neighbours.
          const a = top >= 0 ? recon[0]![top]! : undefined;
          const b = left >= 0 ? recon[0]![left]! : undefined;
          if (a !== undefined && b !== undefined) predicted = (16 * a + 16 * b + 16) >> 5;
          else if (a !== undefined) predicted = a;
          else if (b !== undefined) predicted = b;
          else predicted = 128;
        } else {
          // Vertical from the macroblock above, else horizontal from the left one, else DC (128).
          predicted = top >= 0 ? recon[plane]![top]! : left >= 0 ? recon[plane]![left]! : 128;
        }
        const target = Math.round(picture.mean(plane, mbX * 16, mbY * 16, 16, 16));
        // One level is one sample value (see H264_QP), so the level is the residual itself.
        const level = clip(target) - predicted;
        levels.push(level);
        recon[plane]![index] = clip(predicted + level);
      }
      const chromaCoded = levels[1] !== 0 || levels[2] !== 0;
      slice.ue(3 + (chromaCoded ? 4 : 0)); // mb_type I_16x16_2_{0,1}_0: DC prediction
      slice.ue(top >= 0 ? 2 : left >= 0 ? 1 : 0); // intra_chroma_pred_mode: vertical, horizontal, DC
      slice.se(0); // mb_qp_delta
      writeDcBlock(slice, levels[0]!, COEFF_TOKEN.luma); // Intra16x16DCLevel, nC = 0
      if (chromaCoded) {
        writeDcBlock(slice, levels[1]!, COEFF_TOKEN.chromaDc);
        writeDcBlock(slice, levels[2]!, COEFF_TOKEN.chromaDc);
      }
    }
  }
  slice.trailingBits();
  const keyFrame = nalUnit(Uint8Array.of(0x65), slice.bytes());

  const skipFrame = (frameNum: number) => {
    const p = new BitWriter();
    p.ue(0); // first_mb_in_slice
    p.ue(5); // slice_type: P, all slices of the picture
    p.ue(0); // pic_parameter_set_id
    p.bits(frameNum % 2 ** LOG2_MAX_FRAME_NUM, LOG2_MAX_FRAME_NUM);
    p.bit(0); // num_ref_idx_active_override_flag
    p.bit(0); // ref_pic_list_modification_flag_l0
    p.bit(0); // adaptive_ref_pic_marking_mode_flag
    p.se(0); // slice_qp_delta
    p.ue(1); // disable_deblocking_filter_idc
    p.ue(widthMbs * heightMbs); // mb_skip_run: every macroblock
    p.trailingBits();
    // nal_ref_idc 2, type 1: a reference picture (pic_order_cnt_type 2 allows no two non-reference ones in a row).
    return nalUnit(Uint8Array.of(0x41), p.bytes());
  };

  const reconstruction = () => {
    const chromaWidth = width / 2;
    const chromaHeight = height / 2;
    const out = new Uint8Array(width * height + 2 * chromaWidth * chromaHeight);
    let offset = 0;
    for (const plane of [0, 1, 2]) {
      const [w, h, shift] = plane === 0 ? [width, height, 4] : [chromaWidth, chromaHeight, 3];
      for (let y = 0; y < h; y++) {
        const row = (y >> shift) * widthMbs;
        for (let x = 0; x < w; x++) out[offset++] = recon[plane]![row + (x >> shift)]!;
      }
    }
    return out;
  };

  return {config, keyFrame, skipFrame, levelIdc, reconstruction};
}
