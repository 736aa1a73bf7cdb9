/**
 * The compressions of sync v2 (`SND2`/`RCV2` with `kSyncFlagBrotli`, `kSyncFlagLZ4` or
 * `kSyncFlagZstd`): what the host's upload is decoded from, and what a download is encoded as.
 *
 * Facts, from LineageOS/android_packages_modules_adb at `lineage-21.0`:
 * - `compression_utils.h`: adbd decodes one stream per transfer (Brotli with
 *   `BrotliDecoderDecompressStream`, LZ4 with `LZ4F_decompress`, Zstandard with
 *   `ZSTD_decompressStream`); a stream that ends before all the data is read, or data that does not
 *   decode, is an error. It encodes Brotli at quality 1, LZ4 as an LZ4 frame made with
 *   `LZ4F_compressBegin`/`LZ4F_compressUpdate`/`LZ4F_compressEnd` and no preferences (liblz4's
 *   defaults: 64 KiB blocks, linked blocks, no checksums, no content size), fed 64 KiB at a time,
 *   and Zstandard as one streaming frame (`ZSTD_compressStream2`, level 1).
 * - `daemon/file_sync_service.cpp`: both directions go in `DATA` packets of at most
 *   `SYNC_DATA_MAX` (64 KiB); a failed decode answers "decompress failed".
 *
 * Formats: the LZ4 frame format (lz4's `doc/lz4_Frame_format.md`: magic 0x184D2204, FLG/BD bytes,
 * header checksum = second byte of XXH32 of the descriptor, block sizes with bit 31 for stored
 * blocks, end mark 0, optional checksums) and Zstandard (RFC 8878: magic 0xFD2FB528, frame header
 * descriptor, window descriptor, 3-byte block headers, Raw blocks of at most 128 KiB).
 *
 * Codecs: Brotli is Node's (`node:zlib`). Node 20 has neither LZ4 nor Zstandard, so
 * - LZ4 blocks are decoded and encoded by `lz4js` (pure JavaScript); the frame around them is
 *   parsed and written here, because `lz4js` neither checks a frame nor writes liblz4's 64 KiB one;
 * - Zstandard is decoded by `fzstd` (pure JavaScript) and encoded as a valid frame of Raw
 *   (stored) blocks: no pure-JavaScript Zstandard encoder exists on npm.
 *
 * Where this differs from adbd, for streams no adb host writes: adbd decodes while `DATA` arrives
 * and answers `FAIL` at the first bad byte, the device after `DONE` (the file, the rest of the
 * upload and the end of the session are the same); a stream cut short before `DONE` makes adbd's
 * decoders loop for ever, the device fails it; `fzstd` doesn't verify a Zstandard content checksum,
 * has no 128 MiB window limit (libzstd's default `ZSTD_d_windowLogMax` 27), and takes several
 * frames in a row where adbd takes more only at a `DATA` boundary; `lz4js` doesn't bound-check
 * match offsets.
 */
import {createRequire} from 'node:module';
import {brotliCompressSync, brotliDecompressSync, constants as zlibConstants} from 'node:zlib';

import {decompress as zstdDecompress} from 'fzstd';
import {compressBlock, compressBound, decompressBlock} from 'lz4js';

/** How a sync v2 transfer is encoded: none, or one of the `kSyncFlag*` compressions. */
export type SyncCompression = 'none' | 'brotli' | 'lz4' | 'zstd';

/** A compressed upload that does not decode (adbd answers `FAIL` "decompress failed"). */
export class SyncDecompressError extends Error {
  constructor(compression: SyncCompression, reason: string) {
    super(`${compression}: ${reason}`);
    this.name = 'SyncDecompressError';
  }
}

/** XXH32 of lz4js (`xxh32.js` `hash(seed, bytes, offset, length)`, unsigned), which the LZ4 frame's checksums use. */
const xxh32 = (
  createRequire(import.meta.url)('lz4js/xxh32.js') as {hash(seed: number, src: Uint8Array, index: number, length: number): number}
).hash;

const LZ4_MAGIC = 0x184d2204;
/** Block maximum sizes by the BD byte's 3-bit index (4 = 64 KiB … 7 = 4 MiB). */
const LZ4_BLOCK_SIZES: Readonly<Record<number, number>> = {4: 0x10000, 5: 0x40000, 6: 0x100000, 7: 0x400000};
/** Bit 31 of a block size: the block is stored, not compressed. */
const LZ4_STORED = 0x80000000;
/** liblz4's default block size (`LZ4F_max64KB`), the input adbd's `LZ4Encoder` hands it at a time. */
const LZ4_BLOCK = 0x10000;

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd] as const;
/** The largest block of a Zstandard frame (`Block_Maximum_Size` = min(window, 128 KiB)). */
const ZSTD_BLOCK = 128 * 1024;

function u32le(bytes: Uint8Array, offset: number): number {
  return (bytes[offset]! | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16) | (bytes[offset + 3]! << 24)) >>> 0;
}

function putU32le(bytes: Uint8Array, offset: number, value: number): void {
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).setUint32(offset, value >>> 0, true);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Decodes one LZ4 frame that must fill `frame` exactly, checking what liblz4's `LZ4F_decompress`
 * checks: magic, version, reserved bits, block size index, header checksum, block sizes, block and
 * content checksums, content size, and no data after the frame. Throws a `SyncDecompressError`.
 * (The block decoder, `lz4js`, does not bound-check match offsets: a corrupt block that liblz4
 * rejects may decode here to wrong bytes.)
 */
function lz4Decompress(frame: Uint8Array): Uint8Array {
  const fail = (reason: string): never => {
    throw new SyncDecompressError('lz4', reason);
  };
  if (frame.length < 7) fail('truncated frame header');
  if (u32le(frame, 0) !== LZ4_MAGIC) fail('not an LZ4 frame');
  const flg = frame[4]!;
  const bd = frame[5]!;
  if (flg >> 6 !== 1) fail('unknown frame version');
  if (flg & 0x02 || bd & 0x8f) fail('reserved bits set');
  const maxBlock = LZ4_BLOCK_SIZES[(bd >> 4) & 7] ?? fail('invalid block size index');
  const blockChecksum = (flg & 0x10) !== 0;
  const hasContentSize = (flg & 0x08) !== 0;
  const contentChecksum = (flg & 0x04) !== 0;
  const headerEnd = 6 + (hasContentSize ? 8 : 0) + (flg & 0x01 ? 4 : 0);
  if (frame.length < headerEnd + 1) fail('truncated frame header');
  if (((xxh32(0, frame, 4, headerEnd - 4) >>> 8) & 0xff) !== frame[headerEnd]) fail('header checksum mismatch');
  const contentSize = hasContentSize
    ? Number(new DataView(frame.buffer, frame.byteOffset, frame.byteLength).getBigUint64(6, true))
    : undefined;

  // First pass: the block layout and an upper bound of the output.
  const blocks: {at: number; size: number; stored: boolean}[] = [];
  let at = headerEnd + 1;
  let bound = 0;
  while (true) {
    if (at + 4 > frame.length) fail('truncated block header');
    const word = u32le(frame, at);
    at += 4;
    if (word === 0) break;
    const stored = (word & LZ4_STORED) !== 0;
    const size = word & ~LZ4_STORED;
    if (size > maxBlock) fail('block larger than the maximum block size');
    if (at + size + (blockChecksum ? 4 : 0) > frame.length) fail('truncated block');
    if (blockChecksum && xxh32(0, frame, at, size) !== u32le(frame, at + size)) fail('block checksum mismatch');
    blocks.push({at, size, stored});
    bound += stored ? size : maxBlock;
    at += size + (blockChecksum ? 4 : 0);
  }
  if (contentChecksum) {
    if (at + 4 > frame.length) fail('truncated content checksum');
    at += 4;
  }
  // adbd's LZ4Decoder: "LZ4 stream hit end before reading all data".
  if (at !== frame.length) fail('data after the end of the frame');

  const out = new Uint8Array(bound);
  let length = 0;
  for (const block of blocks) {
    if (block.stored) {
      out.set(frame.subarray(block.at, block.at + block.size), length);
      length += block.size;
    } else {
      const end = decompressBlock(frame, out, block.at, block.size, length);
      if (end - length > maxBlock || end > out.length) fail('block decodes past the maximum block size');
      length = end;
    }
  }
  const data = out.subarray(0, length);
  if (contentChecksum && xxh32(0, data, 0, data.length) !== u32le(frame, at - 4)) fail('content checksum mismatch');
  if (contentSize !== undefined && contentSize !== data.length) fail('content size mismatch');
  return data;
}

/**
 * One LZ4 block of `data[offset, offset + size)`, compressed by `lz4js` with `hashTable` (kept for
 * the whole file, so a match may reach into the previous 64 KiB as linked blocks allow), or
 * `undefined` when that doesn't shrink it (liblz4 then stores the block).
 *
 * The LZ4 block format wants the last match to start at least 12 bytes before the end of the block
 * (liblz4's decoder rejects a block whose literals reach that zone and are followed by a match) and
 * `lz4js` lets one start 10 bytes before it. So `lz4js` compresses all but the last 3 bytes, and
 * those 3 bytes join the literals of the final sequence (whose token is rewritten).
 */
function lz4Block(data: Uint8Array, offset: number, size: number, hashTable: Uint32Array, scratch: Uint8Array): Uint8Array | undefined {
  if (size < 16) return undefined;
  const length = compressBlock(data, scratch, offset, size - 3, hashTable);
  if (length === 0) return undefined;
  // Find the final sequence: literals only, running to the end of the compressed block.
  let at = 0;
  let last: number;
  let literals: number;
  while (true) {
    last = at;
    const token = scratch[at++]!;
    literals = token >> 4;
    if (literals === 15) {
      let more: number;
      do literals += more = scratch[at++]!;
      while (more === 255);
    }
    at += literals;
    if (at >= length) break;
    at += 2;
    if ((token & 15) === 15) while (scratch[at++] === 255);
  }
  const count = literals + 3;
  const lengthBytes = count >= 15 ? Math.floor((count - 15) / 255) + 1 : 0;
  const block = new Uint8Array(last + 1 + lengthBytes + count);
  block.set(scratch.subarray(0, last));
  let out = last;
  block[out++] = Math.min(count, 15) << 4;
  for (let rest = count - 15; rest >= 0; rest -= 255) block[out++] = Math.min(rest, 255);
  block.set(data.subarray(offset + size - count, offset + size), out);
  return block.length < size ? block : undefined;
}

/**
 * The LZ4 frame liblz4 makes with default preferences: header `04 22 4D 18 40 40 C0` (version 1,
 * linked blocks, no checksums, 64 KiB blocks), one block per 64 KiB of input (`lz4Block`, or
 * stored with bit 31 of its size set), then the end mark.
 */
function lz4Compress(data: Uint8Array): Uint8Array {
  const header = Uint8Array.of(0x04, 0x22, 0x4d, 0x18, 0x40, 0x40, 0);
  header[6] = (xxh32(0, header, 4, 2) >>> 8) & 0xff;
  const parts: Uint8Array[] = [header];
  const hashTable = new Uint32Array(1 << 16);
  const scratch = new Uint8Array(compressBound(LZ4_BLOCK));
  for (let offset = 0; offset < data.length; offset += LZ4_BLOCK) {
    const size = Math.min(LZ4_BLOCK, data.length - offset);
    const compressed = lz4Block(data, offset, size, hashTable, scratch);
    const word = new Uint8Array(4);
    putU32le(word, 0, compressed ? compressed.length : (LZ4_STORED | size) >>> 0);
    parts.push(word, compressed ?? data.subarray(offset, offset + size));
  }
  parts.push(new Uint8Array(4));
  return concat(parts);
}

/**
 * A valid Zstandard frame holding `data` in Raw blocks, with the frame header libzstd's streaming
 * encoder writes as adbd drives it: for an empty file (the first call already ends the frame) a
 * single-segment header with a 1-byte content size of 0; otherwise no content size and the window
 * descriptor `0x48` (2^19 bytes, level 1's window when the size is unknown). No checksum, as
 * `ZSTD_c_checksumFlag` is off by default.
 */
function zstdCompressRaw(data: Uint8Array): Uint8Array {
  if (data.length === 0) return Uint8Array.of(...ZSTD_MAGIC, 0x20, 0x00, 0x01, 0x00, 0x00);
  const parts: Uint8Array[] = [Uint8Array.of(...ZSTD_MAGIC, 0x00, 0x48)];
  for (let offset = 0; offset < data.length; offset += ZSTD_BLOCK) {
    const size = Math.min(ZSTD_BLOCK, data.length - offset);
    const last = offset + size >= data.length ? 1 : 0;
    // Block_Header: Last_Block (bit 0), Block_Type 0 = Raw (bits 1-2), Block_Size (bits 3-23).
    const word = (size << 3) | last;
    parts.push(Uint8Array.of(word & 0xff, (word >> 8) & 0xff, (word >> 16) & 0xff), data.subarray(offset, offset + size));
  }
  return concat(parts);
}

/**
 * Decodes a sync upload: `data` is every `DATA` payload of the transfer, joined. Returns the file's
 * bytes. Throws a `SyncDecompressError` when the data isn't one complete stream of `compression`
 * (adbd then answers "decompress failed"); an empty upload with a compression is such an error,
 * as adbd's decoders never finish without a stream.
 */
export function decompressUpload(data: Uint8Array, compression: SyncCompression): Uint8Array {
  if (compression === 'none') return data;
  if (data.length === 0) throw new SyncDecompressError(compression, 'no stream');
  if (compression === 'lz4') return lz4Decompress(data);
  try {
    return compression === 'brotli' ? new Uint8Array(brotliDecompressSync(data)) : zstdDecompress(data);
  } catch (error) {
    throw new SyncDecompressError(compression, (error as Error).message);
  }
}

/**
 * Encodes a file for a sync download (`RCV2` with a compression flag): Brotli at quality 1, as
 * adbd's `BrotliEncoder`; LZ4 as liblz4's default frame (`lz4Compress`); Zstandard as a frame of
 * Raw blocks (`zstdCompressRaw`). Returns the whole stream, which adbd sends in `DATA` packets of at
 * most 64 KiB.
 */
export function compressDownload(data: Uint8Array, compression: SyncCompression): Uint8Array {
  switch (compression) {
    case 'none':
      return data;
    case 'brotli':
      return new Uint8Array(brotliCompressSync(data, {params: {[zlibConstants.BROTLI_PARAM_QUALITY]: 1}}));
    case 'lz4':
      return lz4Compress(data);
    case 'zstd':
      return zstdCompressRaw(data);
  }
}
