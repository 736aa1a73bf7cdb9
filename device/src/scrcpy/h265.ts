/**
 * A small H.265 (HEVC) encoder for the simulated screen: Main profile, one slice per picture,
 * CABAC, no deblocking and no SAO. The key frame (IDR) is made of intra coding units in DC mode
 * (32×32 where the picture is even, else 16×16, 8×8 at the picture edges), each transform block
 * carrying at most its DC coefficient; the other frames are P frames whose coding units are all
 * skipped (the screen does not change).
 *
 * The encoder computes the decoder's reconstruction sample by sample (intra DC prediction with
 * the reference sample substitution and the luma edge filter, the DC-only inverse transform), so
 * it can choose the level that brings each block closest to its colour, and the tests can compare
 * a real decoder's output with `reconstruction`.
 *
 * Facts, ITU-T H.265 (v4, 12/2016): VPS/SPS/PPS/slice segment header syntax (§7.3.2.1–7.3.2.3,
 * 7.3.6.1, 7.3.7 byte_alignment), profile_tier_level (§7.3.3), coding quadtree, coding unit,
 * transform tree and residual coding syntax (§7.3.8.4–7.3.8.11), intra mode candidates (§8.4.2:
 * with DC neighbours the list is planar, DC, vertical, so DC is `mpm_idx` 1), reference sample
 * substitution and DC prediction (§8.4.4.2.2, 8.4.4.2.5), chroma QP mapping (Table 8-10),
 * scaling and transformation (§8.6.2–8.6.4: levelScale {40,45,51,57,64,72}, m = 16, the DC
 * basis 64), CABAC initialisation (§9.3.2.2, the initValue Tables 9-5 to 9-37 for the elements
 * coded here), binarisations (§9.3.3: TR, EGk, coeff_abs_level_remaining), context selection
 * (§9.3.4.2: split_cu_flag, cu_skip_flag, last_sig_coeff prefix, greater1/greater2 for the first
 * coefficient of the only sub-block), the arithmetic encoder (§9.3.4.3 and H.264 §9.3.4.x:
 * rangeTabLps Table 9-52, transIdxLps Table 9-53, EncodeDecision/Bypass/Terminate/Flush), the
 * general tier level limits (Table A.6/A.8: MaxLumaPs, MaxLumaSr; width and height at most
 * √(8·MaxLumaPs)).
 */
import {BitWriter, nalUnit} from './bitstream.ts';
import type {TargetPicture} from './picture.ts';

/** SliceQpY of every slice (`init_qp_minus26` = 8): a 32×32 luma level is one sample value. */
export const H265_QP = 34;
/** `log2_max_pic_order_cnt_lsb_minus4` + 4. */
const LOG2_MAX_POC_LSB = 8;
const CTB_LOG2 = 5;
const MIN_CB_LOG2 = 3;

/** rangeTabLps[pStateIdx][qRangeIdx] (Table 9-52). */
// prettier-ignore
const RANGE_TAB_LPS: readonly (readonly number[])[] = [
  [128, 176, 208, 240], [128, 167, 197, 227], [128, 158, 187, 216], [123, 150, 178, 205], [116, 142, 169, 195],
  [111, 135, 160, 185], [105, 128, 152, 175], [100, 122, 144, 166], [95, 116, 137, 158], [90, 110, 130, 150],
  [85, 104, 123, 142], [81, 99, 117, 135], [77, 94, 111, 128], [73, 89, 105, 122], [69, 85, 100, 116],
  [66, 80, 95, 110], [62, 76, 90, 104], [59, 72, 86, 99], [56, 69, 81, 94], [53, 65, 77, 89], [51, 62, 73, 85],
  [48, 59, 69, 80], [46, 56, 66, 76], [43, 53, 63, 72], [41, 50, 59, 69], [39, 48, 56, 65], [37, 45, 54, 62],
  [35, 43, 51, 59], [33, 41, 48, 56], [32, 39, 46, 53], [30, 37, 43, 50], [29, 35, 41, 48], [27, 33, 39, 45],
  [26, 31, 37, 43], [24, 30, 35, 41], [23, 28, 33, 39], [22, 27, 32, 37], [21, 26, 30, 35], [20, 24, 29, 33],
  [19, 23, 27, 31], [18, 22, 26, 30], [17, 21, 25, 28], [16, 20, 23, 27], [15, 19, 22, 25], [14, 18, 21, 24],
  [14, 17, 20, 23], [13, 16, 19, 22], [12, 15, 18, 21], [12, 14, 17, 20], [11, 14, 16, 19], [11, 13, 15, 18],
  [10, 12, 15, 17], [10, 12, 14, 16], [9, 11, 13, 15], [9, 11, 12, 14], [8, 10, 12, 14], [8, 9, 11, 13],
  [7, 9, 11, 12], [7, 9, 10, 12], [7, 8, 10, 11], [6, 8, 9, 11], [6, 7, 9, 10], [6, 7, 8, 9], [2, 2, 2, 2],
];
/** transIdxLps[pStateIdx] (Table 9-53); transIdxMps is min(pStateIdx + 1, 62). */
// prettier-ignore
const TRANS_IDX_LPS: readonly number[] = [
  0, 0, 1, 2, 2, 4, 4, 5, 6, 7, 8, 9, 9, 11, 11, 12, 13, 13, 15, 15, 16, 16, 18, 18, 19, 19, 21, 21, 22, 22, 23, 24,
  24, 25, 26, 26, 27, 27, 28, 29, 29, 30, 30, 30, 31, 32, 32, 33, 33, 33, 34, 34, 35, 35, 35, 36, 36, 36, 37, 37, 37,
  38, 38, 63,
];

/** The contexts this encoder codes with, as offsets into one table. */
const CTX = {
  split: 0,
  skip: 3,
  partMode: 6,
  prevIntraLuma: 7,
  chromaMode: 8,
  cbfLuma: 9,
  cbfChroma: 11,
  lastX: 15,
  lastY: 33,
  greater1: 51,
  greater2: 75,
} as const;
const CTX_COUNT = 81;

/** initValue of each context for I slices (initType 0), Tables 9-11, 9-15 to 9-17, 9-21, 9-22, 9-26, 9-27, 9-30, 9-31. */
// prettier-ignore
const INIT_I: readonly number[] = [
  139, 141, 157, // split_cu_flag
  154, 154, 154, // cu_skip_flag (not in I slices)
  184, // part_mode
  184, // prev_intra_luma_pred_flag
  63, // intra_chroma_pred_mode
  111, 141, // cbf_luma
  94, 138, 182, 154, // cbf_cb, cbf_cr
  110, 110, 124, 125, 140, 153, 125, 127, 140, 109, 111, 143, 127, 111, 79, 108, 123, 63, // last_sig_coeff_x_prefix
  110, 110, 124, 125, 140, 153, 125, 127, 140, 109, 111, 143, 127, 111, 79, 108, 123, 63, // last_sig_coeff_y_prefix
  140, 92, 137, 138, 140, 152, 138, 139, 153, 74, 149, 92, 139, 107, 122, 152, 140, 179, 166, 182, 140, 227, 122, 197, // greater1
  138, 153, 136, 167, 152, 152, // greater2
];
/** initValue for P slices without cabac_init_flag (initType 1), for the two elements P frames code: split_cu_flag and cu_skip_flag. */
const INIT_P: readonly number[] = [107, 139, 126, 197, 185, 201, ...Array<number>(CTX_COUNT - 6).fill(154)];

/** The CABAC arithmetic encoder writing into a `BitWriter` (H.264 §9.3.4.2–9.3.4.5, H.265 §9.3.4.3). */
class CabacEncoder {
  #low = 0;
  #range = 510;
  #outstanding = 0;
  #first = true;
  readonly #out: BitWriter;
  readonly #state = new Uint8Array(CTX_COUNT);
  readonly #mps = new Uint8Array(CTX_COUNT);

  /** Initialises every context from `initValues` at `sliceQp` (§9.3.2.2). */
  constructor(out: BitWriter, initValues: readonly number[], sliceQp: number) {
    this.#out = out;
    const qp = Math.min(51, Math.max(0, sliceQp));
    initValues.forEach((initValue, index) => {
      const m = (initValue >> 4) * 5 - 45;
      const n = ((initValue & 15) << 3) - 16;
      const pre = Math.min(126, Math.max(1, ((m * qp) >> 4) + n));
      const mps = pre <= 63 ? 0 : 1;
      this.#mps[index] = mps;
      this.#state[index] = mps ? pre - 64 : 63 - pre;
    });
  }

  #put(bit: number): void {
    if (this.#first) this.#first = false;
    else this.#out.bit(bit);
    for (; this.#outstanding > 0; this.#outstanding--) this.#out.bit(1 - bit);
  }

  #renormalize(): void {
    while (this.#range < 256) {
      if (this.#low < 256) {
        this.#put(0);
      } else if (this.#low >= 512) {
        this.#low -= 512;
        this.#put(1);
      } else {
        this.#low -= 256;
        this.#outstanding++;
      }
      this.#range <<= 1;
      this.#low <<= 1;
    }
  }

  /** EncodeDecision: `bin` with context `ctx`. */
  decision(ctx: number, bin: number): void {
    const state = this.#state[ctx]!;
    const lps = RANGE_TAB_LPS[state]![(this.#range >> 6) & 3]!;
    this.#range -= lps;
    if (bin !== this.#mps[ctx]) {
      this.#low += this.#range;
      this.#range = lps;
      if (state === 0) this.#mps[ctx] = 1 - this.#mps[ctx]!;
      this.#state[ctx] = TRANS_IDX_LPS[state]!;
    } else {
      this.#state[ctx] = Math.min(state + 1, 62);
    }
    this.#renormalize();
  }

  /** EncodeBypass: one equiprobable bin. */
  bypass(bin: number): void {
    this.#low <<= 1;
    if (bin) this.#low += this.#range;
    if (this.#low >= 1024) {
      this.#put(1);
      this.#low -= 1024;
    } else if (this.#low < 512) {
      this.#put(0);
    } else {
      this.#low -= 512;
      this.#outstanding++;
    }
  }

  /** EncodeTerminate; a `1` flushes, and the last bit written is the rbsp_stop_one_bit. */
  terminate(bin: number): void {
    this.#range -= 2;
    if (bin) {
      this.#low += this.#range;
      this.#range = 2;
      this.#renormalize();
      this.#put((this.#low >> 9) & 1);
      this.#out.bits(((this.#low >> 7) & 3) | 1, 2);
    } else {
      this.#renormalize();
    }
  }
}

/** The general tier levels (Table A.6, A.8): general_level_idc, MaxLumaPs (samples), MaxLumaSr (samples/s). */
const LEVELS: ReadonlyArray<readonly [number, number, number]> = [
  [30, 36864, 552960],
  [60, 122880, 3686400],
  [63, 245760, 7372800],
  [90, 552960, 16588800],
  [93, 983040, 33177600],
  [120, 2228224, 66846720],
  [123, 2228224, 133693440],
  [150, 8912896, 267386880],
  [153, 8912896, 534773760],
  [156, 8912896, 1069547520],
  [180, 35651584, 1069547520],
  [183, 35651584, 2139095040],
  [186, 35651584, 4278190080],
];

/** The smallest general_level_idc (30 × level) that holds `width`×`height` luma samples at `frameRate`; 186 when nothing fits. */
export function h265Level(width: number, height: number, frameRate: number): number {
  const samples = width * height;
  for (const [levelIdc, maxLumaPs, maxLumaSr] of LEVELS) {
    const side = Math.sqrt(8 * maxLumaPs);
    if (samples <= maxLumaPs && width <= side && height <= side && samples * frameRate <= maxLumaSr) return levelIdc;
  }
  return 186;
}

/** profile_tier_level(1, 0): Main profile (compatible with Main and Main 10), main tier, progressive frames. */
function writeProfileTierLevel(bits: BitWriter, levelIdc: number): void {
  bits.bits(0, 2); // general_profile_space
  bits.bit(0); // general_tier_flag
  bits.bits(1, 5); // general_profile_idc: Main
  bits.bits(0x60000000, 32); // general_profile_compatibility_flag[1], [2]
  bits.bit(1); // general_progressive_source_flag
  bits.bit(0); // general_interlaced_source_flag
  bits.bit(0); // general_non_packed_constraint_flag
  bits.bit(1); // general_frame_only_constraint_flag
  bits.bits(0, 32); // general_reserved_zero_43bits and general_inbld_flag: 44 bits
  bits.bits(0, 12);
  bits.bits(levelIdc, 8);
}

/** Chroma QP for ChromaArrayType 1 (Table 8-10). */
function chromaQp(qpi: number): number {
  if (qpi < 30) return qpi;
  if (qpi > 43) return qpi - 6;
  return [29, 30, 31, 32, 33, 33, 34, 34, 35, 35, 36, 36, 37, 37][qpi - 30]!;
}

const LEVEL_SCALE = [40, 45, 51, 57, 64, 72];

/** The residual sample value of every sample of an `n`×`n` (n = 2^log2) transform block whose only level is `level` at its DC (§8.6.2–8.6.4, 8-bit video). */
function dcResidual(level: number, qp: number, log2: number): number {
  const bdShift = 8 + log2 - 5;
  const scaled = Math.min(
    32767,
    Math.max(-32768, (level * 16 * LEVEL_SCALE[qp % 6]! * 2 ** Math.floor(qp / 6) + (1 << (bdShift - 1))) >> bdShift),
  );
  const intermediate = Math.min(32767, Math.max(-32768, (64 * scaled + 64) >> 7));
  return (64 * intermediate + 2048) >> 12;
}

/** The level whose DC residual is nearest to `wanted` (the smaller one on a tie). */
function levelFor(wanted: number, qp: number, log2: number): number {
  // One level's residual, before the rounding and clipping of the three steps.
  const step = (16 * LEVEL_SCALE[qp % 6]! * 2 ** Math.floor(qp / 6)) / 2 ** (8 + log2 - 5) / 128;
  const guess = Math.round(wanted / step);
  let best = 0;
  let bestError = Math.abs(wanted);
  for (let level = guess - 2; level <= guess + 2; level++) {
    const error = Math.abs(dcResidual(level, qp, log2) - wanted);
    if (error < bestError || (error === bestError && Math.abs(level) < Math.abs(best))) {
      best = level;
      bestError = error;
    }
  }
  return best;
}

/** What `encodeH265` makes. */
export interface H265Stream {
  /** VPS, SPS and PPS, each with a 4-byte start code: the configuration packet. */
  config: Uint8Array;
  /** The IDR picture (IDR_W_RADL, one slice segment). */
  keyFrame: Uint8Array;
  /** The P picture `count` pictures after the IDR (pic_order_cnt_lsb = count mod 256): every coding unit skipped. */
  skipFrame(count: number): Uint8Array;
  /** general_level_idc written in the VPS and SPS. */
  levelIdc: number;
  /** What a decoder outputs for every picture, cropped to the video size: planar Y, Cb, Cr (ffmpeg's `yuv420p`). */
  reconstruction(): Uint8Array;
}

/**
 * Encodes `picture` (an even `width`×`height`) as the stream described above; the coded size is
 * rounded up to a multiple of 8 (the minimum coding block) and the conformance window crops it
 * back. Deterministic. Throws `RangeError` for an odd or empty size.
 */
export function encodeH265(picture: TargetPicture, frameRate: number): H265Stream {
  const {width, height} = picture;
  if (width < 2 || height < 2 || width % 2 || height % 2) throw new RangeError(`H.265 size ${width}x${height}`);
  const codedWidth = Math.ceil(width / 8) * 8;
  const codedHeight = Math.ceil(height / 8) * 8;
  const levelIdc = h265Level(codedWidth, codedHeight, frameRate);

  const vps = new BitWriter();
  vps.bits(0, 4); // vps_video_parameter_set_id
  vps.bit(1); // vps_base_layer_internal_flag
  vps.bit(1); // vps_base_layer_available_flag
  vps.bits(0, 6); // vps_max_layers_minus1
  vps.bits(0, 3); // vps_max_sub_layers_minus1
  vps.bit(1); // vps_temporal_id_nesting_flag
  vps.bits(0xffff, 16); // vps_reserved_0xffff_16bits
  writeProfileTierLevel(vps, levelIdc);
  vps.bit(1); // vps_sub_layer_ordering_info_present_flag
  vps.ue(1); // vps_max_dec_pic_buffering_minus1: the picture and its reference
  vps.ue(0); // vps_max_num_reorder_pics
  vps.ue(0); // vps_max_latency_increase_plus1
  vps.bits(0, 6); // vps_max_layer_id
  vps.ue(0); // vps_num_layer_sets_minus1
  vps.bit(0); // vps_timing_info_present_flag
  vps.bit(0); // vps_extension_flag
  vps.trailingBits();

  const sps = new BitWriter();
  sps.bits(0, 4); // sps_video_parameter_set_id
  sps.bits(0, 3); // sps_max_sub_layers_minus1
  sps.bit(1); // sps_temporal_id_nesting_flag
  writeProfileTierLevel(sps, levelIdc);
  sps.ue(0); // sps_seq_parameter_set_id
  sps.ue(1); // chroma_format_idc: 4:2:0
  sps.ue(codedWidth);
  sps.ue(codedHeight);
  const cropRight = (codedWidth - width) / 2;
  const cropBottom = (codedHeight - height) / 2;
  sps.bit(cropRight || cropBottom ? 1 : 0); // conformance_window_flag
  if (cropRight || cropBottom) {
    sps.ue(0);
    sps.ue(cropRight);
    sps.ue(0);
    sps.ue(cropBottom);
  }
  sps.ue(0); // bit_depth_luma_minus8
  sps.ue(0); // bit_depth_chroma_minus8
  sps.ue(LOG2_MAX_POC_LSB - 4);
  sps.bit(1); // sps_sub_layer_ordering_info_present_flag
  sps.ue(1); // sps_max_dec_pic_buffering_minus1
  sps.ue(0); // sps_max_num_reorder_pics
  sps.ue(0); // sps_max_latency_increase_plus1
  sps.ue(MIN_CB_LOG2 - 3); // log2_min_luma_coding_block_size_minus3
  sps.ue(CTB_LOG2 - MIN_CB_LOG2); // log2_diff_max_min_luma_coding_block_size: 32×32 CTBs
  sps.ue(0); // log2_min_luma_transform_block_size_minus2: 4×4
  sps.ue(3); // log2_diff_max_min_luma_transform_block_size: 32×32
  sps.ue(0); // max_transform_hierarchy_depth_inter
  sps.ue(0); // max_transform_hierarchy_depth_intra: one transform block per coding unit
  sps.bit(0); // scaling_list_enabled_flag
  sps.bit(0); // amp_enabled_flag
  sps.bit(0); // sample_adaptive_offset_enabled_flag
  sps.bit(0); // pcm_enabled_flag
  sps.ue(1); // num_short_term_ref_pic_sets
  sps.ue(1); // st_ref_pic_set(0): num_negative_pics
  sps.ue(0); // num_positive_pics
  sps.ue(0); // delta_poc_s0_minus1: the previous picture
  sps.bit(1); // used_by_curr_pic_s0_flag
  sps.bit(0); // long_term_ref_pics_present_flag
  sps.bit(0); // sps_temporal_mvp_enabled_flag
  sps.bit(0); // strong_intra_smoothing_enabled_flag
  sps.bit(0); // vui_parameters_present_flag
  sps.bit(0); // sps_extension_present_flag
  sps.trailingBits();

  const pps = new BitWriter();
  pps.ue(0); // pps_pic_parameter_set_id
  pps.ue(0); // pps_seq_parameter_set_id
  pps.bit(0); // dependent_slice_segments_enabled_flag
  pps.bit(0); // output_flag_present_flag
  pps.bits(0, 3); // num_extra_slice_header_bits
  pps.bit(0); // sign_data_hiding_enabled_flag
  pps.bit(0); // cabac_init_present_flag
  pps.ue(0); // num_ref_idx_l0_default_active_minus1
  pps.ue(0); // num_ref_idx_l1_default_active_minus1
  pps.se(H265_QP - 26); // init_qp_minus26
  pps.bit(0); // constrained_intra_pred_flag
  pps.bit(0); // transform_skip_enabled_flag
  pps.bit(0); // cu_qp_delta_enabled_flag
  pps.se(0); // pps_cb_qp_offset
  pps.se(0); // pps_cr_qp_offset
  pps.bit(0); // pps_slice_chroma_qp_offsets_present_flag
  pps.bit(0); // weighted_pred_flag
  pps.bit(0); // weighted_bipred_flag
  pps.bit(0); // transquant_bypass_enabled_flag
  pps.bit(0); // tiles_enabled_flag
  pps.bit(0); // entropy_coding_sync_enabled_flag
  pps.bit(0); // pps_loop_filter_across_slices_enabled_flag
  pps.bit(1); // deblocking_filter_control_present_flag
  pps.bit(0); // deblocking_filter_override_enabled_flag
  pps.bit(1); // pps_deblocking_filter_disabled_flag
  pps.bit(0); // pps_scaling_list_data_present_flag
  pps.bit(0); // lists_modification_present_flag
  pps.ue(0); // log2_parallel_merge_level_minus2
  pps.bit(0); // slice_segment_header_extension_present_flag
  pps.bit(0); // pps_extension_present_flag
  pps.trailingBits();

  const config = Buffer.concat([
    nalUnit(Uint8Array.of(32 << 1, 1), vps.bytes()),
    nalUnit(Uint8Array.of(33 << 1, 1), sps.bytes()),
    nalUnit(Uint8Array.of(34 << 1, 1), pps.bytes()),
  ]);

  // ---- the IDR picture ----
  const chromaWidth = codedWidth / 2;
  const chromaHeight = codedHeight / 2;
  const planes = [
    new Uint8Array(codedWidth * codedHeight),
    new Uint8Array(chromaWidth * chromaHeight),
    new Uint8Array(chromaWidth * chromaHeight),
  ];
  const blocksX = codedWidth / 8;
  /** Coding-tree depth of each 8×8 block once coded, −1 before (also the "decoded" map of §6.4.1). */
  const depths = new Int8Array(blocksX * (codedHeight / 8)).fill(-1);
  const decoded = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < codedWidth && y < codedHeight && depths[(y >> 3) * blocksX + (x >> 3)]! >= 0;
  const qps = [H265_QP, chromaQp(H265_QP), chromaQp(H265_QP)];

  // Reference samples of the block being predicted (§8.4.4.2.2): the left column from the corner
  // down, p[−1][−1..2n−1], and the top row p[0..2n−1][−1]; −1 marks a sample not available.
  const left = new Int16Array(2 * 32 + 1);
  const top = new Int16Array(2 * 32);

  /** Predicts (DC), chooses the level and reconstructs one transform block; returns its level. */
  const codeBlock = (plane: 0 | 1 | 2, x0: number, y0: number, log2: number): number => {
    const n = 1 << log2;
    const scale = plane === 0 ? 1 : 2;
    const stride = plane === 0 ? codedWidth : chromaWidth;
    const samples = planes[plane]!;
    let available = 0;
    for (let i = -1; i < 2 * n; i++) {
      const value = decoded((x0 - 1) * scale, (y0 + i) * scale) ? samples[(y0 + i) * stride + x0 - 1]! : -1;
      left[i + 1] = value;
      if (value >= 0) available++;
    }
    for (let i = 0; i < 2 * n; i++) {
      const value = decoded((x0 + i) * scale, (y0 - 1) * scale) ? samples[(y0 - 1) * stride + x0 + i]! : -1;
      top[i] = value;
      if (value >= 0) available++;
    }
    if (available === 0) {
      left.fill(128, 0, 2 * n + 1);
      top.fill(128, 0, 2 * n);
    } else {
      // Substitution: the first available sample from the bottom of the left column up, then
      // along the top row, fills the bottom; each missing sample takes its predecessor's value.
      if (left[2 * n]! < 0) {
        let found = -1;
        for (let i = 2 * n; i >= 0 && found < 0; i--) found = left[i]!;
        for (let i = 0; i < 2 * n && found < 0; i++) found = top[i]!;
        left[2 * n] = found;
      }
      for (let i = 2 * n - 1; i >= 0; i--) if (left[i]! < 0) left[i] = left[i + 1]!;
      for (let i = 0; i < 2 * n; i++) if (top[i]! < 0) top[i] = i === 0 ? left[0]! : top[i - 1]!;
    }
    let sum = n;
    for (let i = 0; i < n; i++) sum += top[i]! + left[i + 1]!;
    const dc = sum >> (log2 + 1);
    // The luma edge filter of DC prediction below 32×32 changes the first row and column.
    const edge = plane === 0 && n < 32;
    const predicted = (x: number, y: number) => {
      if (!edge || (x > 0 && y > 0)) return dc;
      if (x === 0 && y === 0) return (left[1]! + 2 * dc + top[0]! + 2) >> 2;
      return x === 0 ? (left[y + 1]! + 3 * dc + 2) >> 2 : (top[x]! + 3 * dc + 2) >> 2;
    };
    let predictedSum = dc * n * n;
    if (edge) {
      predictedSum += predicted(0, 0) - dc;
      for (let i = 1; i < n; i++) predictedSum += predicted(i, 0) + predicted(0, i) - 2 * dc;
    }
    const target = picture.mean(plane, x0 * scale, y0 * scale, n * scale, n * scale);
    const level = levelFor(target - predictedSum / (n * n), qps[plane]!, log2);
    const residual = dcResidual(level, qps[plane]!, log2);
    for (let y = 0; y < n; y++) {
      const row = (y0 + y) * stride + x0;
      if (!edge || y === 0) {
        for (let x = 0; x < n; x++) samples[row + x] = clip(predicted(x, y) + residual);
      } else {
        samples[row] = clip(predicted(0, y) + residual);
        samples.fill(clip(dc + residual), row + 1, row + n);
      }
    }
    return level;
  };

  const idrData = new BitWriter();
  const idrHeader = new BitWriter();
  idrHeader.bit(1); // first_slice_segment_in_pic_flag
  idrHeader.bit(0); // no_output_of_prior_pics_flag
  idrHeader.ue(0); // slice_pic_parameter_set_id
  idrHeader.ue(2); // slice_type: I
  idrHeader.se(0); // slice_qp_delta
  idrHeader.bit(1); // byte_alignment(): alignment_bit_equal_to_one
  idrHeader.alignWithZeros();
  const cabac = new CabacEncoder(idrData, INIT_I, H265_QP);

  /** residual_coding of a block whose only non-zero level is `level` at its DC (§7.3.8.11). */
  const residualCoding = (log2: number, chroma: boolean, level: number) => {
    const lastContext = chroma ? 15 : 3 * (log2 - 2) + ((log2 - 1) >> 2);
    cabac.decision(CTX.lastX + lastContext, 0); // last_sig_coeff_x_prefix = 0
    cabac.decision(CTX.lastY + lastContext, 0); // last_sig_coeff_y_prefix = 0
    const magnitude = Math.abs(level);
    cabac.decision(CTX.greater1 + (chroma ? 17 : 1), magnitude > 1 ? 1 : 0);
    if (magnitude > 1) cabac.decision(CTX.greater2 + (chroma ? 4 : 0), magnitude > 2 ? 1 : 0);
    cabac.bypass(level < 0 ? 1 : 0); // coeff_sign_flag
    if (magnitude > 2) {
      // coeff_abs_level_remaining with cRiceParam 0: TR prefix (cMax 4), then EG1 of the rest.
      const remaining = magnitude - 3;
      for (let i = 0; i < Math.min(4, remaining); i++) cabac.bypass(1);
      if (remaining < 4) {
        cabac.bypass(0);
      } else {
        let value = remaining - 4;
        let k = 1;
        while (value >= 1 << k) {
          cabac.bypass(1);
          value -= 1 << k;
          k++;
        }
        cabac.bypass(0);
        while (k--) cabac.bypass((value >> k) & 1);
      }
    }
  };

  const codingUnit = (x0: number, y0: number, log2: number, depth: number) => {
    if (log2 === MIN_CB_LOG2) cabac.decision(CTX.partMode, 1); // part_mode PART_2Nx2N
    cabac.decision(CTX.prevIntraLuma, 1); // prev_intra_luma_pred_flag
    cabac.bypass(1); // mpm_idx = 1 (DC), TR with cMax 2: "10"
    cabac.bypass(0);
    cabac.decision(CTX.chromaMode, 0); // intra_chroma_pred_mode = 4: as luma
    const luma = codeBlock(0, x0, y0, log2);
    const cb = codeBlock(1, x0 / 2, y0 / 2, log2 - 1);
    const cr = codeBlock(2, x0 / 2, y0 / 2, log2 - 1);
    const size = 1 << log2;
    for (let y = y0; y < y0 + size; y += 8) for (let x = x0; x < x0 + size; x += 8) depths[(y >> 3) * blocksX + (x >> 3)] = depth;
    cabac.decision(CTX.cbfChroma, cb !== 0 ? 1 : 0); // cbf_cb
    cabac.decision(CTX.cbfChroma, cr !== 0 ? 1 : 0); // cbf_cr
    cabac.decision(CTX.cbfLuma + 1, luma !== 0 ? 1 : 0); // cbf_luma
    if (luma) residualCoding(log2, false, luma);
    if (cb) residualCoding(log2 - 1, true, cb);
    if (cr) residualCoding(log2 - 1, true, cr);
  };

  /** Whether the four quarters of a block differ enough to code them as separate coding units. */
  const uneven = (x0: number, y0: number, size: number) => {
    const half = size / 2;
    for (const plane of [0, 1, 2] as const) {
      const means = [0, 1, 2, 3].map((i) => picture.mean(plane, x0 + (i & 1) * half, y0 + (i >> 1) * half, half, half));
      if (Math.max(...means) - Math.min(...means) > 2) return true;
    }
    return false;
  };

  /** split_cu_flag's context: neighbours coded deeper than `depth` (§9.3.4.2.2). */
  const splitContext = (depthMap: Int8Array, x0: number, y0: number, depth: number) =>
    (x0 > 0 && depthMap[(y0 >> 3) * blocksX + ((x0 - 1) >> 3)]! > depth ? 1 : 0) +
    (y0 > 0 && depthMap[((y0 - 1) >> 3) * blocksX + (x0 >> 3)]! > depth ? 1 : 0);

  const codingQuadtree = (x0: number, y0: number, log2: number, depth: number) => {
    if (x0 >= codedWidth || y0 >= codedHeight) return;
    const size = 1 << log2;
    let split: boolean;
    if (log2 > MIN_CB_LOG2 && x0 + size <= codedWidth && y0 + size <= codedHeight) {
      split = log2 === CTB_LOG2 && uneven(x0, y0, size);
      cabac.decision(CTX.split + splitContext(depths, x0, y0, depth), split ? 1 : 0);
    } else {
      split = log2 > MIN_CB_LOG2;
    }
    if (!split) {
      codingUnit(x0, y0, log2, depth);
      return;
    }
    const half = size / 2;
    codingQuadtree(x0, y0, log2 - 1, depth + 1);
    codingQuadtree(x0 + half, y0, log2 - 1, depth + 1);
    codingQuadtree(x0, y0 + half, log2 - 1, depth + 1);
    codingQuadtree(x0 + half, y0 + half, log2 - 1, depth + 1);
  };

  const ctbsX = Math.ceil(codedWidth / 32);
  const ctbsY = Math.ceil(codedHeight / 32);
  for (let ctb = 0; ctb < ctbsX * ctbsY; ctb++) {
    codingQuadtree((ctb % ctbsX) * 32, Math.floor(ctb / ctbsX) * 32, CTB_LOG2, 0);
    cabac.terminate(ctb === ctbsX * ctbsY - 1 ? 1 : 0); // end_of_slice_segment_flag
  }
  idrData.alignWithZeros();
  const keyFrame = nalUnit(Uint8Array.of(19 << 1, 1), Buffer.concat([idrHeader.bytes(), idrData.bytes()]));

  // ---- P pictures: the slice data is the same for all, only the POC in the header differs ----
  const skipData = new BitWriter();
  const skipCabac = new CabacEncoder(skipData, INIT_P, H265_QP);
  const skipDepths = new Int8Array(depths.length).fill(-1);
  const skipTree = (x0: number, y0: number, log2: number, depth: number) => {
    if (x0 >= codedWidth || y0 >= codedHeight) return;
    const size = 1 << log2;
    if (log2 > MIN_CB_LOG2 && x0 + size <= codedWidth && y0 + size <= codedHeight) {
      skipCabac.decision(CTX.split + splitContext(skipDepths, x0, y0, depth), 0);
    } else if (log2 > MIN_CB_LOG2) {
      const half = size / 2;
      skipTree(x0, y0, log2 - 1, depth + 1);
      skipTree(x0 + half, y0, log2 - 1, depth + 1);
      skipTree(x0, y0 + half, log2 - 1, depth + 1);
      skipTree(x0 + half, y0 + half, log2 - 1, depth + 1);
      return;
    }
    // cu_skip_flag = 1; its context counts the skipped neighbours (all of them are).
    skipCabac.decision(CTX.skip + (x0 > 0 ? 1 : 0) + (y0 > 0 ? 1 : 0), 1);
    for (let y = y0; y < y0 + size; y += 8) for (let x = x0; x < x0 + size; x += 8) skipDepths[(y >> 3) * blocksX + (x >> 3)] = depth;
  };
  for (let ctb = 0; ctb < ctbsX * ctbsY; ctb++) {
    skipTree((ctb % ctbsX) * 32, Math.floor(ctb / ctbsX) * 32, CTB_LOG2, 0);
    skipCabac.terminate(ctb === ctbsX * ctbsY - 1 ? 1 : 0);
  }
  skipData.alignWithZeros();
  const skipBytes = skipData.bytes();

  const skipFrame = (count: number) => {
    const header = new BitWriter();
    header.bit(1); // first_slice_segment_in_pic_flag
    header.ue(0); // slice_pic_parameter_set_id
    header.ue(1); // slice_type: P
    header.bits(count % 2 ** LOG2_MAX_POC_LSB, LOG2_MAX_POC_LSB); // slice_pic_order_cnt_lsb
    header.bit(1); // short_term_ref_pic_set_sps_flag (the only set: the previous picture)
    header.bit(0); // num_ref_idx_active_override_flag
    header.ue(4); // five_minus_max_num_merge_cand: one candidate, no merge_idx
    header.se(0); // slice_qp_delta
    header.bit(1); // byte_alignment()
    header.alignWithZeros();
    return nalUnit(Uint8Array.of(1 << 1, 1), Buffer.concat([header.bytes(), skipBytes])); // TRAIL_R
  };

  const reconstruction = () => {
    const out = new Uint8Array(width * height + 2 * (width / 2) * (height / 2));
    let offset = 0;
    for (const [plane, w, h, stride] of [
      [0, width, height, codedWidth],
      [1, width / 2, height / 2, chromaWidth],
      [2, width / 2, height / 2, chromaWidth],
    ] as const) {
      for (let y = 0; y < h; y++) {
        out.set(planes[plane]!.subarray(y * stride, y * stride + w), offset);
        offset += w;
      }
    }
    return out;
  };

  return {config, keyFrame, skipFrame, levelIdc, reconstruction};
}

const clip = (value: number) => (value < 0 ? 0 : value > 255 ? 255 : value);
