/**
 * What the Java side of Android does that shapes what its shell commands print: the order a
 * `java.util.HashMap` or an `android.util.ArrayMap` iterates its keys in, `String.hashCode`,
 * `Integer.parseInt` and its `NumberFormatException`, `Throwable.printStackTrace`.
 *
 * Facts: OpenJDK 17 as ART's libcore has it (`java/lang/String.java` `hashCode`,
 * `java/util/HashMap.java` `hash`/`resize`/`putVal`, `java/lang/NumberFormatException.java`
 * `forInputString`, `java/lang/Integer.java` `parseInt` with Android's `"s == null"` message);
 * `frameworks/base/core/java/android/util/ArrayMap.java` (keys kept sorted by hash code).
 *
 * Paths: `libcore/ojluni/src/main/java/java/lang/Integer.java`,
 * `libcore/ojluni/src/main/java/java/lang/NumberFormatException.java`,
 * `libcore/ojluni/src/main/java/java/lang/Throwable.java` (`printStackTrace`: a tab and `at ` per
 * frame).
 */

/** `String.hashCode()`: `s[0]*31^(n-1) + … + s[n-1]` over UTF-16 code units, as a 32-bit int. */
export function javaStringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i += 1) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * The order `new HashMap<String, …>()` iterates `keys` in after they were added in this order
 * (duplicates keep their first place): by bucket (`(h ^ (h >>> 16)) & (capacity - 1)`, the
 * capacity doubling from 16 while the size passes 0.75 of it), then, within a bucket, in the
 * order the keys were added when they were added with `put` (appended to the bucket's list), or
 * the reverse when added with `computeIfAbsent` (`headInsert`: a new node goes to the head of its
 * bucket); `resize` keeps that order. Buckets of 8 or more keys (tree bins) are not modelled.
 */
export function hashMapOrder(keys: readonly string[], headInsert = false): string[] {
  const unique = [...new Set(keys)];
  let capacity = 16;
  while (unique.length > capacity * 0.75) capacity *= 2;
  const bucket = (key: string) => {
    const h = javaStringHash(key);
    return (h ^ (h >>> 16)) & (capacity - 1);
  };
  return unique
    .map((key, index) => ({key, index, bucket: bucket(key)}))
    .sort((a, b) => a.bucket - b.bucket || (headInsert ? b.index - a.index : a.index - b.index))
    .map(({key}) => key);
}

/** The order an `android.util.ArrayMap<String, …>` iterates `keys` in: by `hashCode()` as a signed int. */
export function arrayMapOrder(keys: readonly string[]): string[] {
  return [...new Set(keys)]
    .map((key, index) => ({key, index, hash: javaStringHash(key)}))
    .sort((a, b) => a.hash - b.hash || a.index - b.index)
    .map(({key}) => key);
}

/**
 * A Java exception thrown inside a shell command: `className` (`java.lang.IllegalArgumentException`),
 * its message, and the frames `Throwable.printStackTrace` prints after it (`Class.method(File.java:N)`),
 * innermost first. `BasicShellCommandHandler.exec` catches it (see `shell-command.ts`).
 */
export class JavaException extends Error {
  /**
   * @param className the exception's class, fully qualified
   * @param detail its message, or `null` (then `toString()` is the class name alone)
   * @param frames where it was thrown, innermost first, without the `\tat ` prefix
   */
  constructor(
    readonly className: string,
    readonly detail: string | null,
    readonly frames: readonly string[] = [],
  ) {
    super(detail ?? className);
    this.name = 'JavaException';
  }

  /** `Throwable.toString()`: `class: message`, or the class alone without a message. */
  override toString(): string {
    return this.detail === null ? this.className : `${this.className}: ${this.detail}`;
  }

  /** `Throwable.printStackTrace()`'s text: `toString()`, then a `\tat FRAME` line per frame. */
  stackTraceText(): string {
    return `${this.toString()}\n${this.frames.map((frame) => `\tat ${frame}\n`).join('')}`;
  }
}

/** Where `Integer.parseInt(String)` throws from (libcore's `Integer.java`; line numbers plausible). */
export const PARSE_INT_FRAMES: readonly string[] = [
  'java.lang.Integer.parseInt(Integer.java:630)',
  'java.lang.Integer.parseInt(Integer.java:786)',
];

/** `NumberFormatException.forInputString(s, 10)`: `For input string: "s"`. */
function numberFormat(text: string | null, frames: readonly string[]): JavaException {
  return new JavaException('java.lang.NumberFormatException', text === null ? 's == null' : `For input string: "${text}"`, frames);
}

/**
 * `Integer.parseInt(text)`: an optional sign and decimal digits within the int range, else a
 * `NumberFormatException` (`s == null` for `null`, Android's message; `For input string: "…"`
 * otherwise) thrown from `frames`.
 */
export function parseJavaInt(text: string | null | undefined, frames: readonly string[] = []): number {
  if (text === null || text === undefined) throw numberFormat(null, frames);
  if (!/^[+-]?\d+$/.test(text)) throw numberFormat(text, frames);
  const value = Number(text);
  if (value > 2147483647 || value < -2147483648) throw numberFormat(text, frames);
  return value;
}

/** `Long.parseLong(text)`, as `parseJavaInt` within the 64-bit range (as a JS number). */
export function parseJavaLong(text: string | null | undefined, frames: readonly string[] = []): number {
  if (text === null || text === undefined) throw numberFormat(null, frames);
  if (!/^[+-]?\d+$/.test(text)) throw numberFormat(text, frames);
  const value = BigInt(text);
  if (value > 9223372036854775807n || value < -9223372036854775808n) throw numberFormat(text, frames);
  return Number(value);
}

/** `Float.parseFloat(text)` for the decimal forms a shell passes (`540`, `12.5`, `-3e2`); `NaN` when Java would throw. */
export function parseJavaFloat(text: string): number {
  return /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?\s*$/.test(text) ? Number.parseFloat(text) : Number.NaN;
}
