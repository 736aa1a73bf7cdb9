/**
 * Recordings of what samples print: where each sample's recording lives (recordNames,
 * RECORD_FOLDER), the text stored (formatRecord after normalizeOutput, which replaces what changes
 * from run to run), and how a run's output is compared with it (compareRecord).
 */
import path from 'node:path';
import type {SampleBlock} from './extract.ts';

/** The folder, under a site's root, that holds the recordings: `samples/recorded/<version>/<page>/<name>.txt`. */
export const RECORD_FOLDER = path.join('samples', 'recorded');

/** The line that separates stdout from stderr in a recording. */
export const STDERR_MARK = '--- stderr ---';

/**
 * The file names of the recordings of a page's blocks: the block's `title="…"` when it has one,
 * else `block-N` (N: its 1-based position among the page's TypeScript blocks); characters other
 * than letters, digits, `.`, `_` and `-` become `-`; a name used twice gets `-2`, `-3`… in page
 * order. Every block of the page gets a name, run or not, so that names do not move when a block
 * starts or stops running.
 *
 * @param blocks The page's blocks, in page order (extractBlocks).
 * @returns Each block's name, without the `.txt` extension.
 */
export function recordNames(blocks: readonly SampleBlock[]): Map<SampleBlock, string> {
  const names = new Map<SampleBlock, string>();
  const used = new Map<string, number>();
  blocks.forEach((block, index) => {
    const title = /(?:^|\s)title=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(block.meta);
    const raw = (title?.[1] ?? title?.[2] ?? title?.[3] ?? '').trim();
    const base = raw ? raw.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || `block-${index + 1}` : `block-${index + 1}`;
    const count = (used.get(base) ?? 0) + 1;
    used.set(base, count);
    names.set(block, count === 1 ? base : `${base}-${count}`);
  });
  return names;
}

/**
 * Where a block's recording is, relative to the site's root.
 *
 * @param version The docs version of the page.
 * @param pageInFolder The page's path inside its docs folder (`api/adb/rm.mdx`), `/`-separated.
 * @param name The block's name from recordNames.
 * @returns `samples/recorded/<version>/<page without .md/.mdx>/<name>.txt`, `/`-separated.
 */
export function recordPath(version: string, pageInFolder: string, name: string): string {
  return [RECORD_FOLDER.split(path.sep).join('/'), version, pageInFolder.replace(/\.mdx?$/, ''), `${name}.txt`].join('/');
}

/** What normalizeOutput replaces, besides its fixed rules. */
export interface NormalizeContext {
  /**
   * Exact texts and what they become, e.g. the run's temporary folder → `<run>`, a sample's
   * transpiled file → its page. Longer texts are replaced first; a path is also replaced in its
   * `file://` URL form.
   */
  replacements?: ReadonlyArray<readonly [string, string]>;
  /** TCP ports that change from run to run (the simulated device's); each becomes `<port>` after `host:`. */
  ports?: readonly number[];
  /** When the run started (ms since the epoch): timestamps within two days of it become `<now>`. */
  now?: number;
  /**
   * What becomes of a stack trace's frames (`    at …` lines): `collapse` (the default, for
   * recordings) replaces each run of them with one `    at …` line; `first` keeps the first frame
   * of each run (where the error happened, for the failure report) and collapses the rest.
   */
  frames?: 'collapse' | 'first';
}

/**
 * Makes a sample's output comparable from run to run. Besides `context`'s replacements, in order:
 * - `host:port` with a port of `context.ports`, or an ephemeral port (49152 and up, and Linux's
 *   32768 and up) after `127.0.0.1`, `localhost` or `[::1]`, becomes `host:<port>`;
 * - ISO 8601 timestamps within two days of `context.now` (the host's clock; the simulated device's
 *   clock is fixed and stays) become `<now>`;
 * - durations in milliseconds (`12ms`, `3.5 ms`, `duration_ms 12.3`) become `<n> ms`/`duration_ms <n>`;
 * - Scrcpy session ids (`scrcpy_1a2b3c4d`) become `scrcpy_<scid>`; ADB server transport ids
 *   (`transport 3`, `transportId: 3n`, `transport_id:3`) become `<id>`;
 * - `Node.js v20.1.0` becomes `Node.js <version>`;
 * - a run of stack-frame lines (`    at …`) becomes one line `    at …`, as frames inside the
 *   libraries and Node.js change with their versions (with `frames: 'first'`, after the first).
 * Line ends become `\n`: `\r\n`, a terminal's `\r\r\n` (its own carriage return before the
 * line discipline's), and a lone `\r`.
 *
 * @param text The output (stdout or stderr).
 * @param context What else to replace.
 * @returns The normalised text.
 */
export function normalizeOutput(text: string, context: NormalizeContext = {}): string {
  let result = text.replace(/\r+\n|\r/g, '\n');
  const replacements = [...(context.replacements ?? [])].filter(([from]) => from.length > 0).sort((a, b) => b[0].length - a[0].length);
  for (const [from, to] of replacements) {
    if (path.isAbsolute(from)) result = result.split(`file://${from}`).join(to);
    result = result.split(from).join(to);
  }
  const ports = new Set(context.ports ?? []);
  result = result.replace(/(\b127\.0\.0\.1|\blocalhost|\[::1\]|\b0\.0\.0\.0):(\d{1,5})\b/g, (match, host: string, port: string) =>
    ports.has(Number(port)) || Number(port) >= 32768 ? `${host}:<port>` : match,
  );
  for (const port of ports) result = result.replace(new RegExp(`(port[ :=]+)${port}\\b`, 'gi'), '$1<port>');
  if (context.now !== undefined) {
    const now = context.now;
    result = result.replace(/\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?/g, (match) => {
      const time = Date.parse(match);
      return Number.isFinite(time) && Math.abs(time - now) < 2 * 24 * 3600 * 1000 ? '<now>' : match;
    });
  }
  result = result
    .replace(/\bduration_ms([:=]?\s*)\d+(?:\.\d+)?/g, 'duration_ms$1<n>')
    .replace(/\b\d+(?:\.\d+)?\s?ms\b/g, '<n> ms')
    .replace(/\bscrcpy_[0-9a-f]{8}\b/g, 'scrcpy_<scid>')
    .replace(/\b(transport(?:[ _]?id)?["']?\s*[:=]?\s*)\d+(n?)\b/gi, '$1<id>$2')
    .replace(/\bNode\.js v\d+\.\d+\.\d+/g, 'Node.js <version>')
    .replace(/(?:^[ \t]+at .*(?:\n|$))+/gm, (frames) => {
      const end = frames.endsWith('\n') ? '\n' : '';
      const lines = frames.split('\n').filter(Boolean);
      if (context.frames !== 'first') return `    at …${end}`;
      return lines.length === 1 ? frames : `${lines[0]}\n    at …${end}`;
    });
  return result;
}

/**
 * The text of a recording: stdout, then, when stderr is not empty, a line `--- stderr ---` and
 * stderr. Each part ends with a newline when it is not empty. Keeping the two apart keeps the
 * recording stable where the two pipes' chunks arrive in either order.
 *
 * @param stdout The normalised stdout.
 * @param stderr The normalised stderr.
 * @returns The recording's text.
 */
export function formatRecord(stdout: string, stderr: string): string {
  const end = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
  return stderr === '' ? end(stdout) : `${end(stdout)}${STDERR_MARK}\n${end(stderr)}`;
}

/**
 * Compares a run's recording text with the stored one.
 *
 * @param expected The stored recording.
 * @param actual The text formatRecord made of this run.
 * @param options `maskNumbers` (a `varies="…"` sample): every number of both texts, with the
 *   spaces before it, counts as `#`.
 * @returns `undefined` when they are equal; else a description of the first difference: its line
 *   (1-based) and both lines, or which text has more lines.
 */
export function compareRecord(expected: string, actual: string, options: {maskNumbers?: boolean} = {}): string | undefined {
  if (options.maskNumbers) {
    // A number, and the spaces that pad it to its column (whose width follows the digits).
    const mask = (text: string) => text.replace(/[ \t]*\d+(?:\.\d+)?/g, '#');
    return compareRecord(mask(expected), mask(actual));
  }
  if (expected === actual) return undefined;
  const want = expected.split('\n');
  const got = actual.split('\n');
  for (let index = 0; index < Math.max(want.length, got.length); index++) {
    if (want[index] === got[index]) continue;
    if (index >= want.length) return `line ${index + 1}: not in the recording: ${JSON.stringify(got[index])}`;
    if (index >= got.length) return `line ${index + 1}: missing: ${JSON.stringify(want[index])}`;
    return `line ${index + 1}: recorded ${JSON.stringify(want[index])}, printed ${JSON.stringify(got[index])}`;
  }
  return 'the texts differ';
}
