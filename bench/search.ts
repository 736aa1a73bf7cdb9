/**
 * Search: the size of each version's search index (raw and gzip), the time from the first
 * keystroke in the navbar search box to the first suggestions on a freshly opened page (the index
 * is fetched and loaded on that first keystroke), and the top-3 hit rate of the reader queries in
 * bench/search-queries.json, each run on the search page of its docs version. Apart from those, the
 * readers'-words queries of bench/search-queries-readers.json (issue #25: old API names, other
 * spellings, pasted sentences and error texts): their top-3 hit rate, reported, and the share that
 * gets no result at all. And, with the index loaded, the time from entering a short and a
 * 40-character query to its suggestions.
 *
 * Budgets: 100% of bench/search-queries.json find their page in the first three results (issue #8);
 * no readers' query gets nothing, and a 40-character query shows suggestions within 200 ms once the
 * index is loaded (issue #25). Sizes and the other times are reported.
 * Usage: tsx bench/search.ts   (needs build/; exits 1 when a budget is missed)
 */
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {gzipSync} from 'node:zlib';
import type {Browser} from '@playwright/test';
import {ROOT, launchChromium, report, requireBuild, type Figure} from './lib.ts';
import {startGzipServer} from './serve-gzip.ts';
import {LATEST} from '../src/versions/index.ts';

/** The queries file: version → [query, expected route][]. */
export type QueryList = Record<string, [string, string][]>;

/** Reads bench/search-queries.json (or another queries file of bench/), without its `$comment`. */
export function readQueries(file = 'search-queries.json'): QueryList {
  const raw = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench', file), 'utf8')) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(raw).filter(([key]) => !key.startsWith('$'))) as QueryList;
}

/** The readers'-words queries (issue #25), reported apart. */
export const READER_QUERIES_FILE = 'search-queries-readers.json';

/** A 40-character question in a reader's words, for the query-to-suggestions time of a long query. */
export const LONG_QUERY = 'how can I connect to my phone over wi-fi';

/** The version's search-page parameter: none for the current version, `X/` for an older one. */
function versionParam(version: string): string {
  return version === LATEST.version ? '' : `&version=${encodeURIComponent(`${version}/`)}`;
}

/**
 * The first three result links of the search page for a query; none when the page finds nothing.
 *
 * @throws Error when neither results nor "No documents were found" appear within 30 s.
 */
async function topThree(browser: Browser, origin: string, version: string, query: string): Promise<string[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/search/?q=${encodeURIComponent(query)}${versionParam(version)}`);
    const results = page.locator('article h2 a');
    await results.first().or(page.getByText('No documents were found')).first().waitFor({state: 'visible', timeout: 30_000});
    const hrefs = await results.evaluateAll((links) => links.slice(0, 3).map((a) => a.getAttribute('href') ?? ''));
    return hrefs.map((href) => href.replace(/[?#].*$/, ''));
  } finally {
    await context.close();
  }
}

/**
 * Milliseconds from the first keystroke of `query` in the navbar search box of `route` (page
 * loaded, index not yet fetched) to the first visible suggestion.
 */
async function keystrokeToSuggestions(browser: Browser, origin: string, route: string, query: string): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(origin + route, {waitUntil: 'networkidle'});
    const input = page.locator('.navbar__items--right input.navbar__search-input');
    await input.click();
    const started = await page.evaluate(() => performance.now());
    await page.keyboard.type(query);
    await page.locator('.navbar__search [role="listbox"] [role="option"]').first().waitFor({state: 'visible', timeout: 60_000});
    return (await page.evaluate(() => performance.now())) - started;
  } finally {
    await context.close();
  }
}

/**
 * Milliseconds from entering `query` in the navbar search box, once the index is loaded (a first
 * search has run), to its first visible suggestion: the wait on every further keystroke or paste.
 * The query is entered in one input event, so the suggestions shown are the ones for all of it.
 */
async function warmQueryToSuggestions(browser: Browser, origin: string, route: string, query: string): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(origin + route, {waitUntil: 'networkidle'});
    const input = page.locator('.navbar__items--right input.navbar__search-input');
    const options = page.locator('.navbar__search [role="listbox"] [role="option"]');
    await input.click();
    await page.keyboard.type('adb');
    await options.first().waitFor({state: 'visible', timeout: 60_000});
    await input.fill('');
    await options.first().waitFor({state: 'hidden', timeout: 10_000});
    const started = await page.evaluate(() => performance.now());
    await page.keyboard.insertText(query);
    await options.first().waitFor({state: 'visible', timeout: 60_000});
    return (await page.evaluate(() => performance.now())) - started;
  } finally {
    await context.close();
  }
}

/** The median of a few runs of `measure`. */
async function median(runs: number, measure: () => Promise<number>): Promise<number> {
  const values: number[] = [];
  for (let run = 0; run < runs; run += 1) values.push(await measure());
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)];
}

/**
 * Runs everything against build/ served with gzip.
 *
 * @returns Index sizes per version, keystroke-to-suggestion times (current version, and 1.1.0),
 *   the hit rate per version with the 100% budget; misses are printed.
 */
export async function searchFigures(): Promise<Figure[]> {
  const build = requireBuild();
  const queries = readQueries();
  const figures: Figure[] = [];
  for (const version of Object.keys(queries)) {
    const file = path.join(build, version === LATEST.version ? '' : version, 'search-index.json');
    const data = fs.readFileSync(file);
    figures.push({name: `index ${version}, raw`, value: Math.round(data.length / 1024), unit: 'KiB'});
    figures.push({name: `index ${version}, gzip`, value: Math.round(gzipSync(data, {level: 6}).length / 1024), unit: 'KiB'});
  }
  const server = await startGzipServer(build);
  const browser = await launchChromium();
  try {
    figures.push({
      name: `first keystroke to suggestions, ${LATEST.version} page`,
      value: Math.round(await keystrokeToSuggestions(browser, server.origin, '/api/', 'AdbSync')),
      unit: 'ms',
    });
    figures.push({
      name: 'first keystroke to suggestions, 1.1.0 page',
      value: Math.round(await keystrokeToSuggestions(browser, server.origin, '/1.1.0/api/', 'AdbSync')),
      unit: 'ms',
    });
    if (LONG_QUERY.length !== 40) throw new Error(`LONG_QUERY has ${LONG_QUERY.length} characters`);
    figures.push({
      name: `index loaded: query to suggestions, "AdbSync", ${LATEST.version} page (median of 5)`,
      value: Math.round(await median(5, () => warmQueryToSuggestions(browser, server.origin, '/api/', 'AdbSync'))),
      unit: 'ms',
    });
    figures.push({
      name: `index loaded: query to suggestions, 40 characters, ${LATEST.version} page (median of 5)`,
      value: Math.round(await median(5, () => warmQueryToSuggestions(browser, server.origin, '/api/', LONG_QUERY))),
      unit: 'ms',
      budget: 200,
      kind: 'max',
    });
    for (const [version, list] of Object.entries(queries)) {
      let hits = 0;
      for (const [query, expected] of list) {
        const top = await topThree(browser, server.origin, version, query);
        if (top.includes(expected)) hits += 1;
        else console.log(`  miss (${version}): "${query}" → ${top.join(', ') || 'no results'}; expected ${expected}`);
      }
      figures.push({
        name: `top-3 hit rate ${version} (${hits}/${list.length})`,
        value: Math.round((hits / list.length) * 1000) / 10,
        unit: '%',
        budget: 100,
        kind: 'min',
      });
    }
    for (const [version, list] of Object.entries(readQueries(READER_QUERIES_FILE))) {
      let hits = 0;
      let empty = 0;
      for (const [query, expected] of list) {
        const top = await topThree(browser, server.origin, version, query);
        if (top.length === 0) empty += 1;
        if (top.includes(expected)) hits += 1;
        else console.log(`  readers' miss (${version}): "${query}" → ${top.join(', ') || 'no results'}; expected ${expected}`);
      }
      figures.push({
        name: `readers' words: top-3 hit rate ${version} (${hits}/${list.length})`,
        value: Math.round((hits / list.length) * 1000) / 10,
        unit: '%',
      });
      figures.push({
        name: `readers' words: no result at all ${version} (${empty}/${list.length})`,
        value: Math.round((empty / list.length) * 1000) / 10,
        unit: '%',
        budget: 0,
        kind: 'max',
      });
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return figures;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ok = report('Search', await searchFigures());
  process.exitCode = ok ? 0 : 1;
}
