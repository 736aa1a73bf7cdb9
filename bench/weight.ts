/**
 * Page weight: the JavaScript and CSS a reader's browser fetches (gzip-compressed bytes on the
 * wire, as a compressing host sends them) to show a doc page without a diagram, a doc page with a
 * diagram (scrolled into view, so that its drawing loads), and the search page with results. Requests the page only prefetches for later
 * navigation (`Sec-Purpose: prefetch`) are reported apart: they are not needed to show the page.
 *
 * Budgets (issue #8): at most 200 KiB of JS for a doc page without a diagram; Mermaid's code only
 * on pages with a diagram. Diagrams are now drawn ahead of time (src/remark/diagrams.ts), so no page
 * loads Mermaid's code: the figures check that, and report the bytes of the drawing itself.
 * Usage: tsx bench/weight.ts   (needs build/; prints figures, exits 1 when a budget is missed)
 */
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import type {Browser} from '@playwright/test';
import {launchChromium, report, requireBuild, type Figure} from './lib.ts';
import {startGzipServer} from './serve-gzip.ts';

/** The pages measured; each must exist in the build. */
export const WEIGHT_PAGES = {
  doc: '/api/adb/sync/stat/',
  diagram: '/internal/connection/',
  search: '/search/?q=transport',
} as const;

/** What one page load fetched, in bytes as transferred (compressed), by kind. */
export interface PageWeight {
  js: number;
  css: number;
  /** JS and CSS fetched only as prefetch for other pages. */
  prefetch: number;
  /** Whether any fetched script holds Mermaid's library code. */
  mermaid: boolean;
  /** Diagram drawings (`/diagrams/*.svg`) fetched. */
  diagrams: number;
  scripts: {url: string; bytes: number}[];
}

/**
 * Loads a page in a fresh browser context (empty cache) and sums what it fetched.
 *
 * @param browser A Chromium instance.
 * @param url Absolute URL of the page.
 * @param ready A selector that is visible once the page shows what it is for; it is scrolled into
 *   view, so that a lazy image (a diagram) loads.
 * @returns The sums; bytes are the encoded body sizes Chromium reports.
 * @throws Error when the page does not answer 200 or `ready` does not appear within 60 s.
 */
export async function measurePage(browser: Browser, url: string, ready: string): Promise<PageWeight> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const weight: PageWeight = {js: 0, css: 0, prefetch: 0, mermaid: false, diagrams: 0, scripts: []};
  const pending: Promise<void>[] = [];
  page.on('requestfinished', (request) => {
    const type = request.resourceType();
    if (/^\/diagrams\/.*\.svg$/.test(new URL(request.url()).pathname)) {
      pending.push(request.sizes().then((sizes) => void (weight.diagrams += Math.max(0, sizes.responseBodySize))));
      return;
    }
    if (type !== 'script' && type !== 'stylesheet' && !/\.(js|css)$/.test(new URL(request.url()).pathname)) return;
    pending.push(
      (async () => {
        const [sizes, headers, response] = await Promise.all([request.sizes(), request.allHeaders(), request.response()]);
        // Chromium reports a negative size for a response served from its cache (a prefetched chunk).
        const bytes = Math.max(0, sizes.responseBodySize);
        const prefetch = /prefetch/.test(headers['sec-purpose'] ?? headers['purpose'] ?? '');
        if (prefetch) weight.prefetch += bytes;
        else if (/\.css$/.test(new URL(request.url()).pathname)) weight.css += bytes;
        else {
          weight.js += bytes;
          weight.scripts.push({url: new URL(request.url()).pathname, bytes});
          const body = (await response?.body().catch(() => undefined))?.toString('utf8') ?? '';
          // A string only Mermaid's own bundle carries (its diagram registry), not our lazy wrapper.
          if (!prefetch && /flowchart-v2|sequenceDiagram/.test(body) && body.length > 100_000) weight.mermaid = true;
        }
      })(),
    );
  });
  const response = await page.goto(url, {waitUntil: 'load'});
  if (response?.status() !== 200) throw new Error(`${url} answered ${response?.status()}`);
  await page.locator(ready).first().waitFor({state: 'visible', timeout: 60_000});
  await page.locator(ready).first().scrollIntoViewIfNeeded();
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  await context.close();
  return weight;
}

const KiB = 1024;

/**
 * Runs the measurement against build/ served with gzip.
 *
 * @returns The figures (JS and CSS per page, prefetch, Mermaid presence, diagram bytes) with their budgets.
 */
export async function weightFigures(): Promise<Figure[]> {
  const server = await startGzipServer(requireBuild());
  const browser = await launchChromium();
  try {
    const doc = await measurePage(browser, server.origin + WEIGHT_PAGES.doc, 'article h1');
    const diagram = await measurePage(browser, server.origin + WEIGHT_PAGES.diagram, 'img.diagram');
    const search = await measurePage(browser, server.origin + WEIGHT_PAGES.search, 'article h2 a');
    const kib = (bytes: number) => Math.round((bytes / KiB) * 10) / 10;
    if (process.env.BENCH_VERBOSE) {
      for (const [name, w] of Object.entries({doc, diagram, search})) {
        console.log(name, w.scripts.map((s) => `${s.url} ${kib(s.bytes)}`).join('\n  '));
      }
    }
    return [
      {name: `JS, doc page without a diagram (${WEIGHT_PAGES.doc})`, value: kib(doc.js), unit: 'KiB', budget: 200, kind: 'max'},
      {name: 'CSS, doc page without a diagram', value: kib(doc.css), unit: 'KiB'},
      {name: 'Mermaid library on the page without a diagram (0 = no)', value: doc.mermaid ? 1 : 0, unit: '', budget: 0, kind: 'max'},
      {name: `JS, doc page with a diagram (${WEIGHT_PAGES.diagram})`, value: kib(diagram.js), unit: 'KiB'},
      {
        name: 'Mermaid library on the page with a diagram (0 = no: drawn ahead of time)',
        value: diagram.mermaid ? 1 : 0,
        unit: '',
        budget: 0,
        kind: 'max',
      },
      {name: 'diagram drawing, page with a diagram', value: kib(diagram.diagrams), unit: 'KiB'},
      {name: `JS, search page with results (${WEIGHT_PAGES.search})`, value: kib(search.js), unit: 'KiB'},
      {name: 'CSS, search page', value: kib(search.css), unit: 'KiB'},
      {name: 'prefetched for other pages, doc page (not needed to show it)', value: kib(doc.prefetch), unit: 'KiB'},
    ];
  } finally {
    await browser.close();
    await server.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ok = report('Page weight (gzip, as transferred)', await weightFigures());
  process.exitCode = ok ? 0 : 1;
}
