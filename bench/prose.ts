/**
 * Prose: how much a reader has to read, per docs version (issue 34 item 1: pages a third shorter,
 * shorter sentences, no maintainer notes in reader prose). Reads the pages; needs no build.
 *
 * Figures per version (every page of its folder, `docs/` or `versioned_docs/version-X/`):
 * - mean sentence length in words (scripts/prose.ts proseSentences: paragraphs in lists, quotes,
 *   admonitions and JSX elements; version badges not counted). Budget: at most {@link BUDGETS}.meanSentence.
 * - sentences over 40 words. Budget: 0.
 * - paragraphs or table cells over 80 words (scripts/prose.ts proseBlocks). Budget: 0.
 * - citations of source files in reader prose: a file of Android's or Scrcpy's source
 *   (`Server.java`, `services.cpp`, `Android.bp`, …) or a path to a library file
 *   (`adb/src/server/commands/wireless.ts`); a sample's own file name (`connect.ts`) is not one.
 *   Budget: 0 (a page that needs its source gives one "Source" link at its end instead).
 * - prose words per page: the words of its paragraphs and table cells, the mean over the
 *   version's pages. Budget: 70 % of {@link BASELINE}, the figure measured on 2026-12-08.
 * Over-budget sentences, blocks and citations are listed (the first {@link LIST_LIMIT} of each kind
 * per version) with page and line.
 *
 * Usage: tsx bench/prose.ts [--version X]   (exits 1 when a budget is missed)
 */
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {ROOT, report, type Figure} from './lib.ts';
import {listPages} from '../scripts/pages.ts';
import {proseBlocks, proseSentences} from '../scripts/prose.ts';
import {docsVersions} from '../src/versions/index.ts';

/** The budgets that are the same for every version. */
export const BUDGETS = {meanSentence: 15, longSentence: 40, longBlock: 80} as const;

/** Prose words per page, mean over the version's pages, measured by this file on 2026-12-08 (before the cuts). */
export const BASELINE: Readonly<Record<string, number>> = {
  '2.0.0': 657,
  '1.1.0': 677,
  '1.0.0': 701,
  '0.0.24': 701,
};

/** How many over-budget items of each kind are listed per version. */
const LIST_LIMIT = 10;

/** A file of Android's, Scrcpy's or the library's source named in prose. */
const CITATION = /\b[\w.-]+\.(?:java|kt|cpp|cc|c|h|bp|py|mk)\b|\b[\w@.-]+\/[\w./-]*\.(?:ts|tsx|js|mjs)\b/g;

/** Words of a text: runs of characters between spaces, version badges (`<Version … />`) left out. */
function words(text: string): number {
  return text
    .replace(/<[^>]*>/g, ' ')
    .split(/\s+/)
    .filter(Boolean).length;
}

/** The figures of one page. */
interface PageProse {
  sentences: number[];
  long: string[];
  longBlocks: string[];
  citations: string[];
  words: number;
}

/**
 * Measures one page.
 *
 * @param file The page's absolute path.
 * @param label How listings name it (`docs/tango/index.mdx`).
 * @throws the MDX parser's error when the page is not valid MDX.
 */
function measurePage(file: string, label: string): PageProse {
  const source = fs.readFileSync(file, 'utf8');
  const sentences = proseSentences(source);
  const blocks = proseBlocks(source);
  const lengths = sentences.map(words);
  return {
    sentences: lengths,
    long: sentences
      .filter((_, index) => lengths[index]! > BUDGETS.longSentence)
      .map((sentence) => `${label}: (${words(sentence)} words) ${sentence.slice(0, 90)}…`),
    longBlocks: blocks
      .filter((block) => words(block.text) > BUDGETS.longBlock)
      .map((block) => `${label}:${block.line} ${block.kind}, ${words(block.text)} words`),
    citations: blocks.flatMap((block) => [...block.text.matchAll(CITATION)].map((match) => `${label}:${block.line} ${match[0]}`)),
    words: blocks.reduce((sum, block) => sum + words(block.text), 0),
  };
}

/**
 * Measures every page of one docs version.
 *
 * @param version The version's number, e.g. `2.0.0`.
 * @returns Its figures (see the module comment) and the over-budget items, listed.
 */
export function proseFigures(version: string): {figures: Figure[]; listed: string[]} {
  const entry = docsVersions().find((candidate) => candidate.version === version);
  if (!entry) throw new Error(`no docs version ${version}`);
  const dir = path.join(ROOT, entry.folder);
  const pages = listPages(dir).map((file) => measurePage(file, path.relative(ROOT, file).split(path.sep).join('/')));
  const lengths = pages.flatMap((page) => page.sentences);
  const long = pages.flatMap((page) => page.long);
  const longBlocks = pages.flatMap((page) => page.longBlocks);
  const citations = pages.flatMap((page) => page.citations);
  const perPage = pages.reduce((sum, page) => sum + page.words, 0) / Math.max(1, pages.length);
  const baseline = BASELINE[version];
  const figures: Figure[] = [
    {
      name: `mean sentence (${lengths.length} sentences)`,
      value: lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length),
      unit: 'words',
      budget: BUDGETS.meanSentence,
      kind: 'max',
    },
    {name: `sentences over ${BUDGETS.longSentence} words`, value: long.length, unit: '', budget: 0, kind: 'max'},
    {name: `paragraphs or table cells over ${BUDGETS.longBlock} words`, value: longBlocks.length, unit: '', budget: 0, kind: 'max'},
    {name: 'source-file citations in prose', value: citations.length, unit: '', budget: 0, kind: 'max'},
    {
      name: `prose words per page (${pages.length} pages)`,
      value: Math.round(perPage),
      unit: 'words',
      ...(baseline ? {budget: Math.round(baseline * 0.7), kind: 'max' as const} : {}),
    },
  ];
  const listed = [...long.slice(0, LIST_LIMIT), ...longBlocks.slice(0, LIST_LIMIT), ...citations.slice(0, LIST_LIMIT)];
  return {figures, listed};
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--version');
  const versions = at === -1 ? Object.keys(BASELINE) : [process.argv[at + 1]!];
  let ok = true;
  for (const version of versions) {
    const {figures, listed} = proseFigures(version);
    ok = report(`Prose (${version})`, figures) && ok;
    for (const line of listed) console.log(`    ${line}`);
  }
  process.exitCode = ok ? 0 : 1;
}
