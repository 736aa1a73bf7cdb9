/**
 * Exact byte counts from a source of chunks in any sizes: a TCP socket, the WebUSB bridge's
 * WebSocket, or a `DeviceSocket`. It is the `AsyncExactReadable` that the library's structs
 * (`@yume-chan/struct` 2.x `deserialize`) read from.
 */
import {ExactReadableEndedError, type AsyncExactReadable} from '@tango-v2/struct';

export class ByteReader implements AsyncExactReadable {
  readonly #iterator: AsyncIterator<Uint8Array>;
  #chunks: Uint8Array[] = [];
  #buffered = 0;
  #position = 0;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.#iterator = source[Symbol.asyncIterator]();
  }

  /** Bytes consumed so far. */
  get position(): number {
    return this.#position;
  }

  /**
   * The next `length` bytes, waiting for the source as needed.
   * Throws `ExactReadableEndedError` when the source ends first.
   */
  async readExactly(length: number): Promise<Uint8Array> {
    while (this.#buffered < length) {
      const next = await this.#iterator.next();
      if (next.done) throw new ExactReadableEndedError();
      const chunk = next.value instanceof Uint8Array ? next.value : new Uint8Array(next.value as ArrayBuffer);
      if (chunk.length === 0) continue;
      this.#chunks.push(chunk);
      this.#buffered += chunk.length;
    }
    const out = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      const head = this.#chunks[0]!;
      const take = Math.min(head.length, length - filled);
      out.set(head.subarray(0, take), filled);
      filled += take;
      if (take === head.length) this.#chunks.shift();
      else this.#chunks[0] = head.subarray(take);
    }
    this.#buffered -= length;
    this.#position += length;
    return out;
  }
}
