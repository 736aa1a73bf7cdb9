/**
 * Bits and NAL units for the video encoders (`h264.ts`, `h265.ts`): a most-significant-bit-first
 * bit writer with the Exp-Golomb codes both standards use, and the wrapping of a raw byte
 * sequence payload (RBSP) into an Annex B NAL unit.
 *
 * Facts: ITU-T H.264 §7.2 and H.265 §7.2 (`u(n)`, `ue(v)`, `se(v)`), H.264 §9.1 / H.265 §9.2
 * (Exp-Golomb: `ue` writes `k` zeros, then `value + 1` in `k + 1` bits; `se` maps
 * 1, −1, 2, −2… to 1, 2, 3, 4…), H.264 §7.3.2.11 / H.265 §7.3.2.11 (`rbsp_trailing_bits`: a one,
 * then zeros to the byte boundary), H.264 §7.4.1 / H.265 §7.4.2 (emulation prevention: within a
 * NAL unit, `00 00` followed by a byte up to `03` gets an `03` inserted), Annex B (the 4-byte
 * start code `00 00 00 01` that Android's `MediaCodec` puts before each unit).
 */

/** The start code before each NAL unit, as `MediaCodec` output has it (Annex B). */
export const START_CODE = Uint8Array.of(0, 0, 0, 1);

/** Writes bits most significant first into a growing byte buffer. */
export class BitWriter {
  #bytes = new Uint8Array(256);
  #length = 0;
  /** Bits of the byte being filled, and how many (0–7). */
  #current = 0;
  #bits = 0;

  /** Bits written so far. */
  get bitLength(): number {
    return this.#length * 8 + this.#bits;
  }

  /** Whether the writer sits on a byte boundary. */
  get aligned(): boolean {
    return this.#bits === 0;
  }

  #push(byte: number): void {
    if (this.#length === this.#bytes.length) {
      const grown = new Uint8Array(this.#bytes.length * 2);
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    this.#bytes[this.#length++] = byte;
  }

  /** One bit (`0` or `1`). */
  bit(value: number): void {
    this.#current = (this.#current << 1) | (value & 1);
    if (++this.#bits === 8) {
      this.#push(this.#current);
      this.#current = 0;
      this.#bits = 0;
    }
  }

  /** `u(count)`: the low `count` bits of `value` (0 ≤ count ≤ 32), most significant first. */
  bits(value: number, count: number): void {
    for (let i = count - 1; i >= 0; i--) this.bit(Math.floor(value / 2 ** i) & 1);
  }

  /** `ue(v)`: unsigned Exp-Golomb. Throws `RangeError` for a negative or non-integer value. */
  ue(value: number): void {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`ue(v) of ${value}`);
    const code = value + 1;
    const length = Math.floor(Math.log2(code));
    this.bits(0, length);
    this.bits(code, length + 1);
  }

  /** `se(v)`: signed Exp-Golomb (`k > 0` as `2k − 1`, `k ≤ 0` as `−2k`). */
  se(value: number): void {
    this.ue(value > 0 ? 2 * value - 1 : -2 * value);
  }

  /** `rbsp_trailing_bits()`: a one, then zeros up to the byte boundary. */
  trailingBits(): void {
    this.bit(1);
    while (this.#bits !== 0) this.bit(0);
  }

  /** Zeros up to the byte boundary (nothing when aligned). */
  alignWithZeros(): void {
    while (this.#bits !== 0) this.bit(0);
  }

  /** The bytes written; a last partial byte is padded with zeros. */
  bytes(): Uint8Array {
    const out = this.#bytes.slice(0, this.#length + (this.#bits ? 1 : 0));
    if (this.#bits) out[this.#length] = this.#current << (8 - this.#bits);
    return out;
  }
}

/**
 * One Annex B NAL unit: the start code, `header` (1 byte for H.264, 2 for H.265), then `rbsp`
 * with emulation prevention bytes inserted (`00 00 0x` with x ≤ 3 becomes `00 00 03 0x`, and a
 * payload ending in `00` gets a final `03`).
 */
export function nalUnit(header: Uint8Array, rbsp: Uint8Array): Uint8Array {
  const out = new Uint8Array(START_CODE.length + header.length + rbsp.length + Math.ceil(rbsp.length / 2) + 1);
  out.set(START_CODE);
  out.set(header, START_CODE.length);
  let length = START_CODE.length + header.length;
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out[length++] = 3;
      zeros = 0;
    }
    out[length++] = byte;
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  if (zeros > 0) out[length++] = 3;
  return out.slice(0, length);
}
