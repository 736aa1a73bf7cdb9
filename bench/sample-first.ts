/**
 * Sample first: how many words of prose a reader passes on each page of the current docs version
 * (`docs/`) before the first sample that does the page's job (issue #25 item 2; STYLE.md "Pages":
 * guide pages show working code within the first ~150 words, API pages open with a short sample).
 *
 * - Words before the first sample: scripts/prose.ts's wordsBeforeFirstSample, the words of
 *   paragraphs, lists, tables, admonitions and headings below the title, up to the first sample.
 * - The first sample that does the page's job: the first TypeScript block that is not type-only
 *   (a `declare class` or interface signature, imports alone), that does something when it runs
 *   (not only helper functions or classes for a later sample) and that uses the library (an
 *   `@yume-chan/*` import or a prelude such as `prelude="adb"`); see scripts/prose.ts's isSample.
 * - Task pages: guide and API pages with such a sample. Not task pages: pages without one (the
 *   API index, overviews of a folder) and the concept pages of {@link CONCEPT_PAGES}, whose job is
 *   to explain, not to do.
 *
 * Budget: at most {@link BUDGET} words on every task page; other pages are reported only.
 * Usage: tsx bench/sample-first.ts   (reads the pages, needs no build; exits 1 when a task page is over)
 */
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {ROOT, report, type Figure} from './lib.ts';
import {listPages} from '../scripts/pages.ts';
import {wordsBeforeFirstSample} from '../scripts/prose.ts';
import {docsVersions} from '../src/versions/index.ts';

/** The current docs version (`docs/`). */
const CURRENT = docsVersions().find((version) => version.name === 'current')!;

/** The most words of prose before the first sample of a task page. */
export const BUDGET = 150;

/**
 * Pages (or folders, ending in `/`) of `docs/` that explain rather than do a task, each with why;
 * they are measured but have no budget.
 */
export const CONCEPT_PAGES: Readonly<Record<string, string>> = {
  'internal/': 'how ADB and Tango work inside',
  'scrcpy/versions.mdx': 'which server versions exist and what each changed',
  'scrcpy/upgrade.mdx': 'a list of changes, each with its before and after code',
  'tango/upgrade.mdx': 'a list of changes, each with its before and after code',
  'tango/troubleshooting.mdx': 'a list of symptoms, each with its causes and fixes',
};

function conceptReason(page: string): string | undefined {
  const key = Object.keys(CONCEPT_PAGES).find((prefix) => (prefix.endsWith('/') ? page.startsWith(prefix) : page === prefix));
  return key === undefined ? undefined : CONCEPT_PAGES[key];
}

/**
 * Measures every page of the current docs version.
 *
 * @returns One figure per page, in path order: a task page's with the budget, a concept page's or
 *   a page without a sample without one (its name says which).
 * @throws the MDX parser's error when a page is not valid MDX.
 */
export async function sampleFirstFigures(): Promise<Figure[]> {
  const dir = path.join(ROOT, CURRENT.folder);
  return listPages(dir).map((file) => {
    const page = path.relative(dir, file).split(path.sep).join('/');
    const {words, line} = wordsBeforeFirstSample(fs.readFileSync(file, 'utf8'));
    const name = page.replace(/\.mdx?$/, '');
    if (line === undefined) return {name: `${name} (no sample)`, value: words, unit: 'words'};
    if (conceptReason(page) !== undefined) return {name: `${name} (concept page)`, value: words, unit: 'words'};
    return {name, value: words, unit: 'words', budget: BUDGET, kind: 'max'};
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ok = report(`Sample first (${CURRENT.version}): words before the first sample`, await sampleFirstFigures());
  process.exitCode = ok ? 0 : 1;
}
