/**
 * Search: the size of each version's search index (raw and gzip), the time from the first
 * keystroke in the navbar search box to the first suggestions on a freshly opened page (the index
 * is fetched and loaded on that first keystroke), and the top-3 hit rate of the reader queries in
 * bench/search-queries.json, each run on the search page of its docs version.
 *
 * Budget (issue #8): 100% of the queries find their page in the first three results. Sizes and
 * times are reported.
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

/** Reads bench/search-queries.json, without its `$comment`. */
export function readQueries(): QueryList {
  const raw = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench', 'search-queries.json'), 'utf8')) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(raw).filter(([key]) => !key.startsWith('$'))) as QueryList;
}

/** The version's search-page parameter: none for the current version, `X/` for an older one. */
function versionParam(version: string): string {
  return version === LATEST.version ? '' : `&version=${encodeURIComponent(`${version}/`)}`;
}

/**
 * The first three result links of the search page for a query.
 *
 * @throws Error when no result appears within 30 s.
 */
async function topThree(browser: Browser, origin: string, version: string, query: string): Promise<string[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${origin}/search/?q=${encodeURIComponent(query)}${versionParam(version)}`);
    const results = page.locator('article h2 a');
    await results.first().waitFor({state: 'visible', timeout: 30_000});
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
