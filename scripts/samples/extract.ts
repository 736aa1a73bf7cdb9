/**
 * The pages of a site and their code samples: which docs folder documents which version
 * (siteFolders), the TypeScript code blocks of a page (extractBlocks), and the words of a block's
 * fence meta that say how to treat it (parseMeta).
 */
import fs from 'node:fs';
import path from 'node:path';
import {unified} from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
// The syntax extensions and preprocessing @docusaurus/mdx-loader 3.10.2 applies before MDX sees a
// page (its own dependencies, hoisted to node_modules; see lib/processor.js and lib/preprocessor.js).
import remarkFrontmatter from 'remark-frontmatter';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkComment from '@slorber/remark-comment';
import {escapeMarkdownHeadingIds} from '@docusaurus/utils';
import {visit} from 'unist-util-visit';
import type {Root} from 'mdast';
import {docsVersions, parseVersionsJson} from '../../src/versions/index.ts';

/** Code-block languages that are checked, and the file extension a block gets. */
export const SAMPLE_LANGS: Readonly<Record<string, 'ts' | 'tsx'>> = {ts: 'ts', typescript: 'ts', tsx: 'tsx'};

/**
 * Parses a page as Docusaurus's MDX loader sees it (its syntax extensions and heading-id escaping).
 *
 * @param mdxText The page's source.
 * @returns Its mdast.
 * @throws The parser's error (with `line`, `column`, `reason`) when it is not valid MDX.
 */
export function parseMdx(mdxText: string): Root {
  return unified()
    .use(remarkParse)
    .use(remarkMdx)
    .use(remarkFrontmatter)
    .use(remarkDirective)
    .use(remarkGfm)
    .use(remarkComment)
    .parse(escapeMarkdownHeadingIds(mdxText));
}

/** A fenced TypeScript code block found in a Markdown/MDX page. */
export interface SampleBlock {
  /** The page, as given to `extractBlocks`. */
  file: string;
  /** 1-based line of the opening fence in the page. The code starts on the next line. */
  line: number;
  /** 1-based column of the opening fence (greater than 1 inside lists and block quotes). */
  column: number;
  lang: 'ts' | 'tsx' | 'typescript';
  /** Everything after the language on the fence line; empty when there is nothing. */
  meta: string;
  /** The code, without the fences and without the indentation of the fence. */
  code: string;
}

/** What a code block's meta asks of the checker. */
export interface SampleMeta {
  /** The reason given by `partial="…"`; the block is then not checked. */
  partial?: string;
  /** The docs version given by `version="…"`; the block is checked as code of that version. */
  version?: string;
  /** The reason given by `norun="…"`; the block is type-checked but never run (see run.ts). */
  norun?: string;
  /**
   * The reason given by `newer="…"`: the block does not compile against the newest release of
   * its version's major line (NEWEST_LIBRARIES in src/versions/index.ts), and the page says why.
   */
  newer?: string;
  /**
   * The names given by `prelude="…"` (space- or comma-separated, e.g. `adb`): hidden setup the
   * type-check declares and the runner supplies (see prelude.ts). Not checked here against the
   * known preludes; check.ts does that.
   */
  prelude?: string[];
  /**
   * The input events given by `event="…"` (see parseEvents): what the runner does in a browser
   * sample's page after its top-level code is done.
   */
  events?: SampleEvent[];
  /**
   * `interrupt="TEXT"` (Node.js samples): once the sample has printed TEXT, the runner sends it
   * SIGINT, as a reader presses Ctrl+C.
   */
  interrupt?: string;
  /**
   * `unplug="TEXT"` (Node.js samples that use Google's ADB server): once the sample has printed
   * TEXT, the runner disconnects the device from the server, as a reader pulls the cable.
   */
  unplug?: string;
  /**
   * The reason given by `varies="…"`: what the sample prints holds figures that change from run
   * to run on a phone as on the simulated device (`top`'s memory and CPU load). Its output is
   * compared with its recording with every number masked; the recording keeps one run's figures.
   */
  varies?: string;
  /** Meta words that are present but malformed, as messages; a block with any of them fails. */
  problems: string[];
}

/**
 * One input the runner gives a browser sample's page (fence meta `event="…"`), as a user would,
 * with Playwright's trusted input (the page sees a user gesture):
 * - `click` / `right-click`: the left / right button pressed and released at the centre of the
 *   first element `target` (a CSS selector) matches: pointer and mouse events, then `click` /
 *   `contextmenu`;
 * - `wheel`: the mouse moved to the target's centre, then one wheel notch down (deltaY 100);
 * - `press`: the key `key` (Playwright's names: `KeyA`, `Enter`, `Shift+KeyA`) pressed and released
 *   in the page: `keydown`, `keypress` for a character, `keyup`;
 * - `file`: the file input `target` gets one picked file named `name`, then `input` and `change`.
 */
export type SampleEvent =
  | {action: 'click' | 'right-click' | 'wheel'; target: string}
  | {action: 'press'; key: string}
  | {action: 'file'; target: string; name: string};

/**
 * Reads the value of `event="…"`: events separated by `;`, each an action and its arguments
 * (`click SELECTOR`, `right-click SELECTOR`, `wheel SELECTOR`, `press KEY`, `file SELECTOR NAME`).
 *
 * @param value The meta value, e.g. `click button` or `file input[type=file] app.apk; click #send`.
 * @returns The events, in order, or `problem` (a message) when one is malformed: an unknown
 *   action, a missing selector or key, a file without a name.
 */
export function parseEvents(value: string): {events: SampleEvent[]} | {problem: string} {
  const events: SampleEvent[] = [];
  for (const part of value.split(';')) {
    const text = part.trim();
    if (!text) continue;
    const [action = '', ...rest] = text.split(/\s+/);
    const argument = rest.join(' ');
    if (action === 'click' || action === 'right-click' || action === 'wheel') {
      if (!argument) return {problem: `event="${value}": ${action} needs a CSS selector, e.g. "${action} button"`};
      events.push({action, target: argument});
    } else if (action === 'press') {
      if (rest.length !== 1) return {problem: `event="${value}": press needs one key, e.g. "press KeyA"`};
      events.push({action, key: argument});
    } else if (action === 'file') {
      if (rest.length < 2) return {problem: `event="${value}": file needs a selector and a file name, e.g. "file input app.apk"`};
      events.push({action, target: rest.slice(0, -1).join(' '), name: rest.at(-1)!});
    } else {
      return {problem: `event="${value}": unknown action "${action}" (click, right-click, wheel, press, file)`};
    }
  }
  return events.length > 0 ? {events} : {problem: 'event needs at least one event, e.g. event="click button"'};
}

/** A page that is not valid MDX; position is 1-based, in the page. */
export class MdxParseError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}:${column} cannot parse as MDX: ${reason}`);
    this.name = 'MdxParseError';
  }
}

/**
 * Finds the TypeScript code blocks of a page, parsing it as Docusaurus 3.10 does with its default
 * `markdown` options: heading IDs (`## Title {#id}`) escaped, then remark-parse + remark-mdx with
 * the front matter, directive (`:::note`), GFM and HTML-comment syntaxes. Escaping heading IDs
 * only adds a character to heading lines, so positions are those of the page itself.
 * Not mirrored: `mdx-code-block` fences are not unwrapped (a TypeScript block inside one is not
 * found), and a page's `format: md` front matter is ignored (every page is parsed as MDX).
 *
 * @param mdxText The page source (`.md` or `.mdx`; Docusaurus parses both as MDX by default).
 * @param file The page's path, copied into each block and into errors.
 * @returns The blocks whose language is `ts`, `tsx` or `typescript`, in page order.
 * @throws MdxParseError when the page is not valid MDX (e.g. an unclosed JSX tag or a stray `{`).
 */
export function extractBlocks(mdxText: string, file: string): SampleBlock[] {
  let tree: Root;
  try {
    tree = parseMdx(mdxText);
  } catch (error) {
    const {line, column, reason, message} = error as {line?: number; column?: number; reason?: string; message?: string};
    const text = reason ?? message ?? String(error);
    // Some mdast-util-mdx-jsx errors (e.g. an unclosed tag) carry their place only in the text: "(3:1-3:7)".
    const place = /\((\d+):(\d+)-\d+:\d+\)/.exec(text);
    throw new MdxParseError(file, line ?? Number(place?.[1] ?? 1), column ?? Number(place?.[2] ?? 1), text);
  }
  const blocks: SampleBlock[] = [];
  visit(tree, 'code', (node) => {
    const lang = node.lang ?? '';
    if (!Object.hasOwn(SAMPLE_LANGS, lang) || !node.position) return;
    blocks.push({
      file,
      line: node.position.start.line,
      column: node.position.start.column,
      lang: lang as SampleBlock['lang'],
      meta: node.meta ?? '',
      code: node.value,
    });
  });
  return blocks;
}

/**
 * Reads the checker's words out of a code-block meta string. Values may be double-quoted,
 * single-quoted or a bare word; other words (`title="…"`, `{1,3-4}`, `showLineNumbers`) are ignored.
 *
 * @param meta The meta string, e.g. `title="connect.ts" partial="needs an adb from the previous step"`.
 * @returns `partial` and `norun` (the trimmed reasons), `version`, `prelude` (the names, in
 *   order, without duplicates) and `events` (parseEvents of `event="…"`) when present and
 *   well-formed; `problems` has a message for a `partial` or `norun` without a non-empty reason, a
 *   `version` without a value, a `prelude` without a name, and a malformed `event`.
 */
export function parseMeta(meta: string | null | undefined): SampleMeta {
  const result: SampleMeta = {problems: []};
  const words = /([A-Za-z_][\w-]*)(?:=(?:"([^"]*)"|'([^']*)'|([^\s"']\S*)))?|\S+/g;
  for (const match of (meta ?? '').matchAll(words)) {
    const [, name, double, single, bare] = match;
    const value = (double ?? single ?? bare)?.trim();
    if (name === 'partial') {
      if (value) result.partial = value;
      else result.problems.push('partial needs a reason: write partial="why this sample is not complete"');
    } else if (name === 'version') {
      if (value) result.version = value;
      else result.problems.push('version needs a docs version, e.g. version="0.0.24"');
    } else if (name === 'norun') {
      if (value) result.norun = value;
      else result.problems.push('norun needs a reason: write norun="why this sample cannot run against the simulated device"');
    } else if (name === 'interrupt' || name === 'unplug') {
      if (value) result[name] = value;
      else result.problems.push(`${name} needs the text after which the runner acts, e.g. ${name}="Watching"`);
    } else if (name === 'varies') {
      if (value) result.varies = value;
      else result.problems.push('varies needs a reason: write varies="which figures change from run to run"');
    } else if (name === 'newer') {
      if (value) result.newer = value;
      else result.problems.push('newer needs a reason: write newer="what the newest release changed"');
    } else if (name === 'prelude') {
      const names = [...new Set((value ?? '').split(/[\s,]+/).filter(Boolean))];
      if (names.length > 0) result.prelude = names;
      else result.problems.push('prelude needs a name, e.g. prelude="adb"');
    } else if (name === 'event') {
      const parsed = parseEvents(value ?? '');
      if ('events' in parsed) result.events = parsed.events;
      else result.problems.push(parsed.problem);
    }
  }
  return result;
}

/** One docs folder of a site: the library version its pages document, and where it is. */
export interface SiteFolder {
  /** The library version (for `docs/`, CURRENT_VERSION of src/versions/index.ts). */
  version: string;
  /** Absolute path of the folder. */
  dir: string;
}

/**
 * Lists the docs folders of a site, as src/versions/index.ts lays them out.
 *
 * @param root The site folder.
 * @returns `docs/` (the version CURRENT_VERSION documents), then `versioned_docs/version-<v>/` for
 *   each entry of the site's `versions.json`, in that file's order. A missing versions.json means
 *   the site has only `docs/`. Two folders may document the same version (`docs/` as "Next" after
 *   its version was frozen).
 * @throws Error when versions.json is not a JSON array of distinct version strings.
 */
export function siteFolders(root: string): SiteFolder[] {
  const file = path.join(root, 'versions.json');
  const released = fs.existsSync(file) ? parseVersionsJson(JSON.parse(fs.readFileSync(file, 'utf8')), file) : [];
  return docsVersions(released).map(({version, folder}) => ({version, dir: path.join(root, folder)}));
}
