import fs from 'node:fs';
import {createRequire} from 'node:module';
import type {BrowserName, CompatData, CompatStatement, Identifier, SimpleSupportStatement} from '@mdn/browser-compat-data';
import type {Root} from 'mdast';
import type {MdxJsxAttribute, MdxJsxFlowElement, MdxJsxTextElement} from 'mdast-util-mdx-jsx';
import type {Plugin} from 'unified';
import {visit} from 'unist-util-visit';
import {setDataAttribute} from './mdx-data-attribute';
import type {VFile} from 'vfile';

/** Support for one feature in one browser, as shown in one table row. */
export interface BrowserSupportRow {
  /** BCD browser id, e.g. `"chrome_android"`. */
  id: string;
  /** Display name from BCD, e.g. `"Chrome Android"`. */
  name: string;
  /**
   * Version that added the feature, as BCD spells it (`"61"`, `"10.1"`,
   * `"≤79"`), or `false` when the current release does not support it.
   * With `flagsOnly`, the version since which a flag enables it.
   */
  version: string | false;
  /** The feature only works after setting a flag or preference. */
  flagsOnly?: boolean;
  /** BCD marks the implementation as partial. */
  partial?: boolean;
  /** Plain-text notes (BCD's HTML notes with tags removed). */
  notes?: string[];
}

/**
 * The serialisable object the remark plugin passes to `<BrowserSupport data={…}>`.
 * Small on purpose: only these rows reach the browser, never the BCD file.
 */
export interface BrowserSupportData {
  /** The feature key used in MDX, e.g. `"webusb"`. */
  feature: string;
  /** Human name for the caption, e.g. `"WebUSB"`. */
  title: string;
  /** The BCD entries the rows are computed from, e.g. `["api.USB"]`. */
  bcdPaths: string[];
  /** MDN reference page of the first BCD entry. */
  mdnUrl: string;
  /** First specification URL of the first BCD entry, when BCD has one. */
  specUrl?: string;
  /** Version of `@mdn/browser-compat-data` the rows were read from, e.g. `"8.1.9"`. */
  bcdVersion: string;
  /** One row per browser that BCD has data for, in table order. */
  browsers: BrowserSupportRow[];
}

interface FeatureDefinition {
  title: string;
  /**
   * Dotted BCD paths. The first gives the MDN and spec links; a browser
   * supports the feature when it supports every path (Tango needs them all).
   */
  paths: [string, ...string[]];
}

/** Feature keys accepted by `<BrowserSupport feature="…" />` and the BCD entries behind them. */
const FEATURES: Record<string, FeatureDefinition> = {
  streams: {title: 'Web Streams API', paths: ['api.ReadableStream', 'api.ReadableStream.pipeTo']},
  websocketstream: {title: 'WebSocketStream', paths: ['api.WebSocketStream']},
  webusb: {title: 'WebUSB', paths: ['api.USB']},
  webcrypto: {title: 'Web Crypto API', paths: ['api.SubtleCrypto']},
  webcodecs: {title: 'WebCodecs (VideoDecoder)', paths: ['api.VideoDecoder']},
};

/** The feature keys `browserSupportData` accepts, sorted. */
export const BROWSER_SUPPORT_FEATURES: readonly string[] = Object.keys(FEATURES).sort();

/** Table rows, in this order; a browser without BCD data for the feature is left out. */
const BROWSERS: readonly BrowserName[] = ['chrome', 'edge', 'firefox', 'safari', 'chrome_android', 'safari_ios', 'opera', 'nodejs', 'deno'];

/** A row without the browser's id and name. */
export type Support = Omit<BrowserSupportRow, 'id' | 'name'>;

function getCompat(bcd: CompatData, path: string): CompatStatement {
  let node: Identifier | undefined = bcd as unknown as Identifier;
  for (const key of path.split('.')) {
    node = node?.[key];
  }
  if (node?.__compat === undefined) {
    throw new Error(
      `@mdn/browser-compat-data ${bcd.__meta.version} has no entry "${path}"; update FEATURES in src/remark/browser-support.ts.`,
    );
  }
  return node.__compat;
}

function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function statementNotes(statement: SimpleSupportStatement): string[] {
  if (statement.notes === undefined) {
    return [];
  }
  return (Array.isArray(statement.notes) ? statement.notes : [statement.notes]).map(plainText);
}

function withNotes(support: Support, notes: string[]): Support {
  return notes.length > 0 ? {...support, notes: [...(support.notes ?? []), ...notes]} : support;
}

/**
 * Reads one BCD support statement for one browser.
 *
 * Input: a BCD `SupportStatement`: one entry or an array of entries, the
 * current one first. The first entry without `flags`, `prefix` or
 * `alternative_name` decides: `version_added` false/null → unsupported,
 * `"preview"` → unsupported (noted), removed (`version_removed`) →
 * unsupported (noted), otherwise its version string as given (`"61"`,
 * `"≤79"`), with `partial` and its notes. Without such an entry, the first
 * current flagged entry gives `flagsOnly` with the flag named in a note;
 * otherwise (prefixed or renamed only) it is unsupported.
 * Output: `{version: string | false, flagsOnly?, partial?, notes?}`; notes are
 * plain text (BCD's HTML tags removed, basic entities decoded).
 * Errors: none.
 * Facts: the statement passed in, i.e. `@mdn/browser-compat-data`.
 */
export function supportFromStatement(statement: SimpleSupportStatement | SimpleSupportStatement[]): Support {
  const entries = Array.isArray(statement) ? statement : [statement];
  const direct = entries.find((entry) => !entry.flags && !entry.prefix && !entry.alternative_name);
  if (direct !== undefined) {
    const added = direct.version_added;
    if (typeof added !== 'string') {
      return withNotes({version: false}, statementNotes(direct));
    }
    if (added === 'preview') {
      return {version: false, notes: ['Only in preview builds']};
    }
    if (direct.version_removed !== undefined) {
      return {version: false, notes: [`Removed in version ${direct.version_removed}`]};
    }
    const support: Support = {version: added};
    if (direct.partial_implementation) {
      support.partial = true;
    }
    return withNotes(support, statementNotes(direct));
  }
  const flagged = entries.find(
    (entry) =>
      entry.flags !== undefined &&
      typeof entry.version_added === 'string' &&
      entry.version_added !== 'preview' &&
      entry.version_removed === undefined,
  );
  if (flagged?.flags !== undefined && typeof flagged.version_added === 'string') {
    const flagNotes = flagged.flags.map((flag) => {
      const kind = flag.type === 'preference' ? 'preference' : 'runtime flag';
      const value = flag.value_to_set === undefined ? '' : ` set to ${flag.value_to_set}`;
      return `Needs the ${kind} ${flag.name}${value}`;
    });
    return withNotes({version: flagged.version_added, flagsOnly: true}, [...flagNotes, ...statementNotes(flagged)]);
  }
  return {version: false, notes: ['Only with a vendor prefix or under another name']};
}

function versionNumber(version: string): number[] {
  return version.replace(/^≤/, '').split('.').map(Number);
}

function laterVersion(a: string, b: string): string {
  const left = versionNumber(a);
  const right = versionNumber(b);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) {
      return difference > 0 ? a : b;
    }
  }
  return a;
}

function describeSupport(support: Support): string {
  if (support.version === false) {
    return 'not supported';
  }
  return support.flagsOnly ? `behind a flag since ${support.version}` : `since ${support.version}`;
}

/** A browser supports a multi-path feature from the latest version that has every path. */
function combine(parts: {label: string; support: Support}[]): Support {
  const versions = parts.map(({support}) => support.version);
  let version: string | false = false;
  if (versions.every((v): v is string => v !== false)) {
    version = versions.reduce(laterVersion);
  }
  const combined: Support = {version};
  if (version !== false && parts.some(({support}) => support.flagsOnly)) {
    combined.flagsOnly = true;
  }
  if (parts.some(({support}) => support.partial)) {
    combined.partial = true;
  }
  const notes = parts.flatMap(({label, support}, index) => (support.notes ?? []).map((note) => (index === 0 ? note : `${label}: ${note}`)));
  const descriptions = parts.map(({support}) => describeSupport(support));
  if (new Set(descriptions).size > 1) {
    notes.push(parts.map(({label}, index) => `${label} ${descriptions[index]}`).join('; '));
  }
  return withNotes(combined, notes);
}

function computeTable(bcd: CompatData, featureKey: string, definition: FeatureDefinition): BrowserSupportData {
  const compats = definition.paths.map((path) => ({label: path.replace(/^api\./, ''), compat: getCompat(bcd, path)}));
  const primary = compats[0].compat;
  if (primary.mdn_url === undefined) {
    throw new Error(`@mdn/browser-compat-data has no MDN URL for "${definition.paths[0]}".`);
  }

  const browsers: BrowserSupportRow[] = [];
  for (const id of BROWSERS) {
    if (primary.support[id] === undefined) {
      continue;
    }
    const support = combine(
      compats.map(({label, compat}) => {
        const statement = compat.support[id];
        return {
          label,
          support:
            statement === undefined
              ? {version: false as const, notes: ['No data in @mdn/browser-compat-data']}
              : supportFromStatement(statement),
        };
      }),
    );
    browsers.push({id, name: bcd.browsers[id].name, ...support});
  }

  const data: BrowserSupportData = {
    feature: featureKey,
    title: definition.title,
    bcdPaths: [...definition.paths],
    mdnUrl: primary.mdn_url,
    bcdVersion: bcd.__meta.version,
    browsers,
  };
  const specUrl = Array.isArray(primary.spec_url) ? primary.spec_url[0] : primary.spec_url;
  if (specUrl !== undefined) {
    data.specUrl = specUrl;
  }
  return data;
}

/** Every feature's table, computed on first use; the BCD file itself is not kept. */
let tables: Map<string, BrowserSupportData> | undefined;

/**
 * Reads the installed BCD file once, computes the table of every feature in FEATURES, and keeps
 * only those tables. The file is parsed with `JSON.parse` instead of imported: an imported JSON
 * module stays in the module cache, and BCD holds ~80 MB of heap for the whole build, where the
 * five tables need a few KB.
 *
 * @returns Table per feature key.
 * @throws Error when the installed BCD lacks an entry or an MDN URL (see {@link browserSupportData}).
 */
function allTables(): Map<string, BrowserSupportData> {
  if (tables === undefined) {
    const file = createRequire(import.meta.url).resolve('@mdn/browser-compat-data');
    const bcd = JSON.parse(fs.readFileSync(file, 'utf8')) as CompatData;
    tables = new Map(Object.entries(FEATURES).map(([key, definition]) => [key, computeTable(bcd, key, definition)]));
  }
  return tables;
}

/**
 * Computes the browser-support table for one feature from `@mdn/browser-compat-data`.
 *
 * Input: a feature key, one of {@link BROWSER_SUPPORT_FEATURES}
 * (`streams` → api.ReadableStream + api.ReadableStream.pipeTo, `websocketstream` →
 * api.WebSocketStream, `webusb` → api.USB, `webcrypto` → api.SubtleCrypto,
 * `webcodecs` → api.VideoDecoder).
 * Output: a {@link BrowserSupportData} object (plain JSON values only) with one
 * row for each of Chrome, Edge, Firefox, Safari, Chrome Android, Safari on iOS,
 * Opera, Node.js and Deno that BCD has data for. Versions are browser release
 * numbers as BCD writes them (`"61"`, `"≤79"`); `false` means not supported in
 * current releases (BCD `false`/`null`, `"preview"`, or removed).
 * Errors: throws an Error for an unknown key (listing the known ones), or when
 * the installed BCD lacks an entry or its MDN URL.
 * Facts: the installed `@mdn/browser-compat-data` (version in `bcdVersion`).
 */
export function browserSupportData(featureKey: string): BrowserSupportData {
  if (!Object.hasOwn(FEATURES, featureKey)) {
    throw new Error(`Unknown browser-support feature "${featureKey}". Known features: ${BROWSER_SUPPORT_FEATURES.join(', ')}.`);
  }
  return structuredClone(allTables().get(featureKey)!);
}

function describePlace(file: VFile, node: MdxJsxFlowElement | MdxJsxTextElement): string {
  const start = node.position?.start;
  const where = start === undefined ? '' : `:${start.line}:${start.column}`;
  return `${file.path ?? '<unknown file>'}${where}`;
}

/**
 * Remark plugin: fills in the `data` prop of every `<BrowserSupport feature="…" />`.
 *
 * Input: an mdast tree parsed with remark-mdx. For each MDX JSX element (flow
 * or text) named `BrowserSupport`, it reads the string attribute `feature`.
 * Output: the same tree, with a `data` attribute (an MDX expression whose
 * estree is built by `valueToEstree`) holding `browserSupportData(feature)`;
 * an existing `data` attribute is replaced. The data is computed here, in
 * Node at build time, so pages neither fetch nor bundle the BCD file.
 * Errors: throws an Error naming the file and line:column when `feature` is
 * missing, is not a plain string, or is not a known key (the message lists
 * the known keys), which fails the Docusaurus build.
 * Facts: `@mdn/browser-compat-data`, via {@link browserSupportData}.
 */
const remarkBrowserSupport: Plugin<[], Root> = function remarkBrowserSupport() {
  return (tree, file) => {
    visit(tree, (node) => {
      if ((node.type !== 'mdxJsxFlowElement' && node.type !== 'mdxJsxTextElement') || node.name !== 'BrowserSupport') {
        return;
      }
      const place = describePlace(file, node);
      const featureAttribute = node.attributes.find(
        (attribute): attribute is MdxJsxAttribute => attribute.type === 'mdxJsxAttribute' && attribute.name === 'feature',
      );
      if (typeof featureAttribute?.value !== 'string') {
        throw new Error(
          `${place}: <BrowserSupport> needs a string feature attribute, e.g. feature="webusb". Known features: ${BROWSER_SUPPORT_FEATURES.join(', ')}.`,
        );
      }
      let data: BrowserSupportData;
      try {
        data = browserSupportData(featureAttribute.value);
      } catch (error) {
        throw new Error(`${place}: ${(error as Error).message}`, {cause: error});
      }
      setDataAttribute(node, data);
    });
  };
};

export default remarkBrowserSupport;
