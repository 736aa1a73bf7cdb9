/**
 * Accessibility: axe-core's WCAG 2.1 A and AA rules on the hydrated production pages. Every other
 * route of the latest version in light mode (which is also where those routes get the render
 * checks of routes.spec.ts: no console error, no failed or external request; routes.spec.ts
 * renders the others), a sample of each older version (every 24th route and its home), a sample
 * in dark mode (every 32nd route of the latest version), the search page and the not-found page.
 * Colour contrast, axe's costliest rule (~1.7 s of ~2.2 s on a page of content on the 2-core
 * machine), runs on every 8th route of the latest version and on every route of the other samples;
 * every other rule runs on each page checked, navbar, sidebar, table of contents, footer and code
 * blocks included. A violation of impact `serious` or
 * `critical` fails the test, listed as `route: rule (impact) — help — selectors` so the message
 * says what to fix. Code blocks are analysed too: the syntax-highlighting colours must meet AA.
 * Diagrams are images, which axe cannot look into: mdx.spec.ts checks the contrast of their labels.
 */
import AxeBuilder from '@axe-core/playwright';
import type {Page} from '@playwright/test';
import {test, expect, expectedRoutes, gotoHydrated, axeCheckedLatest} from './fixtures.ts';
import {siteStorageKey} from './site-storage.ts';
import {LATEST} from '../../src/versions/index.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING_IMPACTS = ['serious', 'critical'];
const CHUNK = 18;

const expected = expectedRoutes();

/** Opens a route and waits until it is hydrated and settled: heading, finite animations. */
async function openSettled(page: Page, route: string) {
  await gotoHydrated(page, route, {waitUntil: 'load'});
  await expect(page.locator('h1').first(), route).toBeVisible();
  // The colour-mode toggle is rendered disabled and enabled once React has hydrated the page.
  await expect(page.locator('.navbar button[title$="mode"]').first(), `${route} hydrated`).toBeEnabled();
  if (route.startsWith('/search/?q=')) {
    await expect(page.locator('article h2 a').first(), `${route} results`).toBeVisible({timeout: 20_000});
  }
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/**
 * The serious and critical violations on the current page, one line each; with `contrast: false`,
 * without the colour-contrast rule. (The whole page without contrast takes axe ~0.45 s; leaving the
 * navbar, sidebar, table of contents, footer and code blocks out with `exclude()`, as this pass
 * once did, took ~0.75 s: axe's include/exclude matching costs more than those parts.)
 */
async function violations(page: Page, route: string, {contrast = true}: {contrast?: boolean} = {}): Promise<string[]> {
  // Legacy mode runs axe in the page itself; the default opens a blank page per run to merge
  // the results of each frame, which doubles the time and the pages have no frames.
  let builder = new AxeBuilder({page})
    .withTags(TAGS)
    .options({resultTypes: ['violations']})
    .setLegacyMode(true);
  if (!contrast) builder = builder.disableRules(['color-contrast']);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => FAILING_IMPACTS.includes(v.impact ?? ''))
    .map((v) => {
      const targets = v.nodes
        .slice(0, 3)
        .map((node) => node.target.join(' '))
        .join(' | ');
      const more = v.nodes.length > 3 ? ` (+${v.nodes.length - 3} more)` : '';
      return `${route}: ${v.id} (${v.impact}) — ${v.help} — ${targets}${more}`;
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
const lightRoutes = [...checkedLatest, ...older, '/search/?q=adb', '/no/such/page/'];
const darkRoutes = [...everyNth(latest, 32), '/1.1.0/', '/search/?q=adb', '/no/such/page/'];

// In chunks, one browser page each, so that each test stays within its time limit and a failure
// names a short range of routes (axe takes ~2 s a page).
for (let start = 0; start < lightRoutes.length; start += CHUNK) {
  const chunk = lightRoutes.slice(start, start + CHUNK);
  test(`light mode: routes ${start + 1}-${start + chunk.length} of ${lightRoutes.length} render without failed requests and have no serious WCAG 2.1 AA violations`, async ({
    page,
    watch,
  }) => {
    test.setTimeout(240_000);
    const found: string[] = [];
    for (const route of chunk) {
      await openSettled(page, route);
      await expect(page.locator('html'), route).toHaveAttribute('data-theme', 'light');
      // Colour contrast on every 8th route of the latest version (at least one page of each
      // sidebar: the internal one has 7), every older-version route and every special page:
      // contrast is a property of the components and the theme, the same on every page.
      const index = latest.indexOf(route);
      found.push(...(await violations(page, route, {contrast: index < 0 || index % 8 === 0})));
    }
    expect(found, 'serious or critical axe violations').toEqual([]);
    // The render checks of routes.spec.ts, for the routes it leaves to this pass (console errors
    // fail the test through the watch fixture).
    expect(watch.externalRequests).toEqual([]);
    expect(watch.failedRequests, 'failed requests to the site').toEqual([]);
  });
}

test(`dark mode: ${darkRoutes.length} sample routes have no serious WCAG 2.1 AA violations`, async ({page}) => {
  test.setTimeout(240_000);
  const key = siteStorageKey('theme');
  await page.addInitScript((storageKey) => window.localStorage.setItem(storageKey, 'dark'), key);
  const found: string[] = [];
  for (const route of darkRoutes) {
    await openSettled(page, route);
    await expect(page.locator('html[data-theme="dark"]'), route).toHaveCount(1);
    found.push(...(await violations(page, route)));
  }
  expect(found, 'serious or critical axe violations').toEqual([]);
});
