/**
 * Accessibility: axe-core's WCAG 2.1 A and AA rules on the hydrated production pages. Every other
 * route of the latest version in light mode (which is also where those routes get the render
 * checks of routes.spec.ts: title and heading of the pre-rendered HTML, no console error, no failed
 * or external request; routes.spec.ts renders the others), a sample of each older version (every
 * 24th route and its home), a sample in dark mode (every 32nd route of the latest version), the
 * search page and the not-found page.
 *
 * Each chunk of routes is one browser page: its first route is loaded whole and hydrated, axe-core
 * is put into it once, and the other routes are reached as a reader's click reaches them, through
 * the client-side router (tests/e2e/fixtures.ts `visitInApp`), so axe analyses the DOM React
 * renders for that route. Measured on the 2-core machine: a full load took 0.44 CPU-s a route
 * and a client-side visit 0.13; axe-core through `@axe-core/playwright`'s `AxeBuilder` evaluated
 * axe's 560 KB source twice per analysis and returned every rule's results (~0.6 s a page against
 * ~0.4 s for `axe.run` called in the page with violations only).
 *
 * The colour rules, axe's costliest (color-contrast ~0.7 CPU-s of ~1.15 on a page of content,
 * then link-in-text-block, half of what the other rules take together), run on every 8th route of
 * the latest version, the home of each older version, every dark-mode route and the special pages
 * in both colour modes: both depend on the theme's colours, the same on every page. Every other
 * rule runs on each page checked, navbar, sidebar,
 * table of contents, footer and code blocks included, and on the progress bar of a slow
 * client-side navigation. A
 * violation of impact `serious` or `critical` fails the test, listed as
 * `route: rule (impact) — help — selectors` so the message says what to fix. Code blocks are
 * analysed too: the syntax-highlighting colours must meet AA. Diagrams are images, which axe cannot
 * look into: mdx.spec.ts checks the contrast of their labels.
 */
import {createRequire} from 'node:module';
import {readFileSync} from 'node:fs';
import type {Page} from '@playwright/test';
import type {AxeResults} from 'axe-core';
import {test, expect, expectedRoutes, gotoHydrated, axeCheckedLatest, visitInApp, settleAnimations} from './fixtures.ts';
import {siteStorageKey} from './site-storage.ts';
import {LATEST} from '../../src/versions/index.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING_IMPACTS = ['serious', 'critical'];
const CHUNK = 20;
/** axe-core's browser build, the one `@axe-core/playwright` injects. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const expected = expectedRoutes();

/**
 * Loads a route whole, waits until it is hydrated and settled (heading, finite animations; for the
 * search page, its results) and puts axe-core into the page, where it stays for the client-side
 * visits that follow.
 */
async function openSettled(page: Page, route: string) {
  await gotoHydrated(page, route, {waitUntil: 'load'});
  await expect(page.locator('h1').first(), route).toBeVisible();
  // The colour-mode toggle is rendered disabled and enabled once React has hydrated the page.
  await expect(page.locator('.navbar button[title$="mode"]').first(), `${route} hydrated`).toBeEnabled();
  if (route.startsWith('/search/?q=')) {
    await expect(page.locator('article h2 a').first(), `${route} results`).toBeVisible({timeout: 20_000});
  }
  await settleAnimations(page);
  await page.evaluate(AXE_SOURCE);
}

/** Reaches a doc route from the current page through the client-side router, settled. */
async function visitSettled(page: Page, route: string) {
  await visitInApp(page, route);
  await settleAnimations(page);
}

/** The rules that check the theme's colours: the same result on every page of a colour mode. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * The serious and critical violations on the current page, one line each; with `contrast: false`,
 * without the {@link COLOUR_RULES}. axe-core must be in the page ({@link openSettled}).
 */
async function violations(page: Page, route: string, {contrast = true}: {contrast?: boolean} = {}): Promise<string[]> {
  const found = await page.evaluate(
    async ({tags, contrast, impacts, colourRules}) => {
      const axe = (window as unknown as {axe: {run: (context: Document, options: object) => Promise<AxeResults>}}).axe;
      const results = await axe.run(document, {
        runOnly: {type: 'tag', values: tags},
        rules: contrast ? {} : Object.fromEntries(colourRules.map((rule) => [rule, {enabled: false}])),
        resultTypes: ['violations'],
      });
      return results.violations
        .filter((v) => impacts.includes(v.impact ?? ''))
        .map((v) => ({id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((node) => node.target.join(' '))}));
    },
    {tags: TAGS, contrast, impacts: FAILING_IMPACTS, colourRules: COLOUR_RULES},
  );
  return found.map((v) => {
    const more = v.targets.length > 3 ? ` (+${v.targets.length - 3} more)` : '';
    return `${route}: ${v.id} (${v.impact}) — ${v.help} — ${v.targets.slice(0, 3).join(' | ')}${more}`;
  });
}

function everyNth(routes: string[], n: number): string[] {
  return routes.filter((_, index) => index % n === 0);
}

const latest = expected.get(LATEST.version)!;
const olderVersions = [...expected.keys()].filter((version) => version !== LATEST.version);
// Every other route of the latest version (routes.spec.ts renders the others), every 24th route
// of each older version (their pages share the latest's layout and components).
const checkedLatest = latest.filter((_, index) => axeCheckedLatest(index));
const older = olderVersions.flatMap((version) => everyNth(expected.get(version)!, 24));
const lightRoutes = [...checkedLatest, ...older];
/** Pages outside the docs, each loaded whole: the search page with results, the not-found page. */
const SPECIAL = ['/search/?q=adb', '/no/such/page/'];
const darkRoutes = [...everyNth(latest, 32), '/1.1.0/'];

/**
 * Colour contrast on every 8th route of the latest version (at least one page of each sidebar:
 * the internal one has 7), the home of each older version and every special page: contrast is a
 * property of the components and the theme, the same on every page and in every version.
 */
function checksContrast(route: string): boolean {
  const index = latest.indexOf(route);
  if (index >= 0) return index % 8 === 0;
  return olderVersions.some((version) => expected.get(version)![0] === route);
}

// In chunks, one browser page each, so that each test stays within its time limit and a failure
// names a short range of routes.
for (let start = 0; start < lightRoutes.length; start += CHUNK) {
  const chunk = lightRoutes.slice(start, start + CHUNK);
  test(`light mode: routes ${start + 1}-${start + chunk.length} of ${lightRoutes.length} render without failed requests and have no serious WCAG 2.1 AA violations`, async ({
    page,
    watch,
  }) => {
    test.setTimeout(240_000);
    const found: string[] = [];
    for (const [index, route] of chunk.entries()) {
      if (index === 0) await openSettled(page, route);
      else await visitSettled(page, route);
      await expect(page.locator('html'), route).toHaveAttribute('data-theme', 'light');
      found.push(...(await violations(page, route, {contrast: checksContrast(route)})));
    }
    expect(found, 'serious or critical axe violations').toEqual([]);
    // The render checks of routes.spec.ts, for the routes it leaves to this pass (console errors
    // fail the test through the watch fixture).
    expect(watch.externalRequests).toEqual([]);
    expect(watch.failedRequests, 'failed requests to the site').toEqual([]);
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`${theme} mode: the search page and the not-found page have no serious WCAG 2.1 AA violations`, async ({page}) => {
    if (theme === 'dark') {
      const key = siteStorageKey('theme');
      await page.addInitScript((storageKey) => window.localStorage.setItem(storageKey, 'dark'), key);
    }
    const found: string[] = [];
    for (const route of SPECIAL) {
      await openSettled(page, route);
      await expect(page.locator('html'), route).toHaveAttribute('data-theme', theme);
      found.push(...(await violations(page, route)));
    }
    expect(found, 'serious or critical axe violations').toEqual([]);
  });
}

test(`dark mode: ${darkRoutes.length} sample routes have no serious WCAG 2.1 AA violations`, async ({page}) => {
  test.setTimeout(240_000);
  const key = siteStorageKey('theme');
  await page.addInitScript((storageKey) => window.localStorage.setItem(storageKey, 'dark'), key);
  const found: string[] = [];
  for (const [index, route] of darkRoutes.entries()) {
    if (index === 0) await openSettled(page, route);
    else await visitSettled(page, route);
    await expect(page.locator('html[data-theme="dark"]'), route).toHaveCount(1);
    found.push(...(await violations(page, route)));
  }
  expect(found, 'serious or critical axe violations').toEqual([]);
});

test('the progress bar of a slow client-side navigation has no serious WCAG 2.1 AA violations', async ({page}) => {
  const route = '/0.0.24/api/adb/sync/';
  await openSettled(page, '/');
  // The next route's chunks (a page / does not link to, so none is prefetched) come 1.5 s late:
  // the theme shows its progress bar after 200 ms.
  await page.route('**/assets/js/*.js', async (request) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await request.continue();
  });
  const navigation = visitInApp(page, route);
  await expect(page.locator('#nprogress .bar')).toBeAttached();
  expect(await violations(page, `${route} while it loads`, {contrast: false})).toEqual([]);
  await navigation;
});
