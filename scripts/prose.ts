/**
 * The prose of a page, as a reader meets it: its sentences (for tests/unit/prose.test.ts)
 * and the words a reader passes before its first code sample (for bench/sample-first.ts).
 *
 * Pages are parsed as Docusaurus 3.10 parses them (scripts/samples/extract.ts parseMdx:
 * MDX, front matter, `:::` directives, GFM, HTML comments, escaped heading IDs).
 */
import ts from 'typescript';
import {isTypeOnly} from './samples/classify.ts';
import {parseMdx as parse} from './samples/extract.ts';
import type {Code, Nodes} from 'mdast';

/**
 * The text of inline content: text, inline code (kept in backticks), the text of links, emphasis
 * and inline JSX elements. MDX expressions (`{/* #id *\/}`), images and HTML are left out. An
 * inline JSX element without children (a `<Version since="1.15" />` badge) becomes its tag when
 * `tags` is true, else nothing.
 */
function inlineText(node: Nodes, tags: boolean): string {
  switch (node.type) {
    case 'text':
      return node.value;
    case 'inlineCode':
      return `\`${node.value}\``;
    case 'break':
      return ' ';
    case 'mdxTextExpression':
    case 'image':
    case 'imageReference':
    case 'html':
      return '';
    case 'mdxJsxTextElement':
      if (node.children.length === 0) {
        if (!tags) return '';
        const attributes = node.attributes.map((a) =>
          a.type === 'mdxJsxAttribute' && typeof a.value === 'string' ? ` ${a.name}="${a.value}"` : '',
        );
        return `<${node.name ?? ''}${attributes.join('')} />`;
      }
      return node.children.map((child) => inlineText(child, tags)).join('');
    default:
      return 'children' in node ? (node.children as Nodes[]).map((child) => inlineText(child, tags)).join('') : '';
  }
}

/** Whether a paragraph is the `[title]` of an admonition (`:::info[Title]`). */
function isDirectiveLabel(node: Nodes): boolean {
  return node.type === 'paragraph' && (node.data as {directiveLabel?: boolean} | undefined)?.directiveLabel === true;
}

/**
 * Splits prose into sentences: after `.`, `?` or `!` (and any closing quote or bracket) followed by
 * white space and a capital letter, a digit, a quote, a bracket or a backtick. "e.g. a" and
 * "7.0" do not split. White space is collapsed first, and a space left before punctuation (by an
 * element that shows no text) removed.
 */
export function splitSentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .replace(/ (?=[.,;:?!])/g, '')
    .trim()
    .split(/(?<=[.?!]["')\]]?) (?=[A-Z0-9"'`([])/)
    .filter((sentence) => sentence !== '');
}

/**
 * The sentences of a page's prose: every paragraph, including those in lists, block quotes,
 * admonitions and JSX elements (`<TabItem>`).
 *
 * Input: the page source (`.md` or `.mdx`). Output: its sentences in page order, with white space
 * collapsed, inline code kept in backticks and
 * version badges kept as their tags. Left out: front matter, headings, tables, code
 * blocks, `import`/`export` lines, JSX tags and their attributes, MDX expressions and admonition
 * titles. Errors: throws the MDX parser's error when the page is not valid MDX.
 */
export function proseSentences(source: string): string[] {
  const sentences: string[] = [];
  const walk = (node: Nodes): void => {
    if (node.type === 'paragraph') {
      if (!isDirectiveLabel(node)) sentences.push(...splitSentences(inlineText(node, true)));
      return;
    }
    if (node.type === 'table' || node.type === 'heading' || !('children' in node)) return;
    for (const child of node.children as Nodes[]) walk(child);
  };
  walk(parse(source));
  return sentences;
}

/** A block of a page's prose: a paragraph (in a list, quote, admonition or JSX element too) or a table cell. */
export interface ProseBlock {
  kind: 'paragraph' | 'cell';
  /** Its text as proseSentences sees it (inline code in backticks, version badges left out). */
  text: string;
  /** 1-based line where it starts. */
  line: number;
}

/**
 * The paragraphs and table cells of a page, for word counts (bench/prose.ts).
 *
 * Input: the page source. Output: every paragraph (admonition titles left out) and every body or
 * header cell of a table, in page order, with white space collapsed. Left out as in
 * proseSentences: front matter, headings, code blocks, `import`/`export` lines, JSX tags, MDX
 * expressions. Errors: throws the MDX parser's error when the page is not valid MDX.
 */
export function proseBlocks(source: string): ProseBlock[] {
  const blocks: ProseBlock[] = [];
  const walk = (node: Nodes): void => {
    if ((node.type === 'paragraph' && !isDirectiveLabel(node)) || node.type === 'tableCell') {
      const text = inlineText(node, false).replace(/\s+/g, ' ').trim();
      if (text) blocks.push({kind: node.type === 'tableCell' ? 'cell' : 'paragraph', text, line: node.position?.start.line ?? 0});
      return;
    }
    if (node.type === 'heading' || !('children' in node)) return;
    for (const child of node.children as Nodes[]) walk(child);
  };
  walk(parse(source));
  return blocks;
}

/**
 * Whether a code block is a sample that does a page's job: a TypeScript block (`ts`, `tsx`,
 * `typescript`) that
 * - is not type-only (scripts/samples/classify.ts's isTypeOnly: a `declare class` signature, an
 *   interface, imports alone),
 * - does something when it runs: a top-level statement besides imports and the declarations of
 *   functions, classes, interfaces, types and enums (a block that only exports helpers is not one),
 * - and uses the library: it imports an `@yume-chan/*` package or gets one from a prelude
 *   (`prelude="adb"`); a probe of a browser API alone (`VideoDecoder.isConfigSupported`) is not one.
 */
export function isSample(node: Code): boolean {
  if (!['ts', 'tsx', 'typescript'].includes(node.lang ?? '')) return false;
  const source = ts.createSourceFile('block.tsx', node.value, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  if (isTypeOnly(source)) return false;
  const acts = source.statements.some(
    (statement) =>
      !ts.isImportDeclaration(statement) &&
      !ts.isExportDeclaration(statement) &&
      !ts.isFunctionDeclaration(statement) &&
      !ts.isClassDeclaration(statement) &&
      !ts.isInterfaceDeclaration(statement) &&
      !ts.isTypeAliasDeclaration(statement) &&
      !ts.isEnumDeclaration(statement) &&
      !ts.isEmptyStatement(statement),
  );
  const usesLibrary = /\bprelude=/.test(node.meta ?? '') || /from\s+["']@yume-chan\//.test(node.value);
  return acts && usesLibrary;
}

/** How far a reader reads before a page's first sample. */
export interface FirstSample {
  /** Words of visible text before the first sample (or in the whole page when it has none). */
  words: number;
  /** 1-based line of the first sample's opening fence; `undefined` when the page has none. */
  line?: number;
}

/**
 * Counts the words a reader passes before a page's first sample.
 *
 * Input: the page source. Output: the words of visible text before the first sample (see
 * {@link isSample}): paragraphs, lists, tables, admonitions (with
 * their titles) and headings below the title. Left out: front matter (and so the title), code
 * blocks of any language (signatures, shell commands, diagrams), `import`/`export` lines, JSX
 * tags and MDX expressions. A word is a run of characters between spaces. Errors: throws the MDX
 * parser's error when the page is not valid MDX.
 */
export function wordsBeforeFirstSample(source: string): FirstSample {
  let words = 0;
  let line: number | undefined;
  const walk = (node: Nodes): boolean => {
    if (node.type === 'code') {
      if (!isSample(node)) return false;
      line = node.position?.start.line;
      return true;
    }
    if (node.type === 'paragraph' || node.type === 'heading' || node.type === 'tableCell') {
      words += inlineText(node, false).split(/\s+/).filter(Boolean).length;
      return false;
    }
    if (!('children' in node)) return false;
    return (node.children as Nodes[]).some(walk);
  };
  walk(parse(source));
  return {words, line};
}
