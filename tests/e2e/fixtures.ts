import {test as base, expect, type BrowserContext, type Page} from '@playwright/test';
import {existsSync, readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';

/** Titles end with this suffix: `{page title} | {site title}`. */
export const SITE_TITLE = 'Tango ADB Development Guide';
/** Where `npm test` serves the build made with GTAG_TRACKING_ID=G-TANGOTEST (see playwright.config.ts). */
export const ANALYTICS_BUILD_URL = 'http://127.0.0.1:4174';
/** The analytics hosts a page may contact when the build has a GTAG_TRACKING_ID. */
export const ANALYTICS_HOSTS = ['www.googletagmanager.com', 'www.google-analytics.com'];

/**
 * Whether a11y.spec.ts visits the latest version's route at `index` (of expectedRoutes) and checks
 * it with axe, which also gives it the render checks; routes.spec.ts renders the others. Every
 * other route: the CPU of the 2-core CI machine limits the whole test run to 10 minutes, and axe
 * takes ~0.2 CPU-s a page (1.1 with the colour rules) on top of a client-side visit's 0.13.
 */
export function axeCheckedLatest(index: number): boolean {
  return index % 2 === 0;
}

/** The project's own list of the pages it adds, per version: `added-routes/{version}.txt`, one route a line. */
export const ADDED_ROUTES_DIR = path.resolve(import.meta.dirname, 'data/added-routes');

/**
 * The expected routes, per docs version: ../shared/spec/routes/{version}.txt, plus the pages this
 * site adds beyond the original set: the spec's {version}-additions.txt (see that folder's README)
 * and this project's own {@link ADDED_ROUTES_DIR}/{version}.txt (pages added since, e.g. for API the
 * original set did not cover). Input: none (reads those files). Output: version → routes, in file
 * order. Errors: throws when the spec folder is missing (../shared must sit beside the repository).
 */
export function expectedRoutes(): Map<string, string[]> {
  const dir = path.resolve(import.meta.dirname, '../../../shared/spec/routes');
  const read = (file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
  const files = readdirSync(dir);
  const routes = new Map<string, string[]>();
  for (const file of files.filter((f) => /^\d+\.\d+\.\d+\.txt$/.test(f))) {
    const version = file.replace(/\.txt$/, '');
    const additions = files.includes(`${version}-additions.txt`) ? read(path.join(dir, `${version}-additions.txt`)) : [];
    const ownFile = path.join(ADDED_ROUTES_DIR, file);
    const own = existsSync(ownFile) ? read(ownFile) : [];
    routes.set(version, [...new Set([...read(path.join(dir, file)), ...additions, ...own])]);
  }
  return routes;
}

/**
 * The page titles of ../shared/spec/pages.md section 1, per docs version: one entry per page that
 * exists in that version, backticks removed (the spec writes some titles as code).
 */
export function expectedTitles(): Map<string, string[]> {
  const spec = readFileSync(path.resolve(import.meta.dirname, '../../../shared/spec/pages.md'), 'utf8');
  const lines = spec.split('\n');
  const header = lines.find((line) => line.startsWith('| doc id |'));
  if (header === undefined) throw new Error('pages.md: no page table (a row starting "| doc id |")');
  const versions = header
    .split('|')
    .slice(2, -1)
    .map((cell) => cell.trim().split(' ')[0]!);
  const titles = new Map<string, string[]>(versions.map((version) => [version, []]));
  for (const line of lines.filter((l) => l.startsWith('| `'))) {
    line
      .split('|')
      .slice(2, -1)
      .forEach((cell, index) => {
        const text = cell.trim();
        if (text === '—') return;
        const title = /^(.*)\[[^\]]*\]$/.exec(text)?.[1];
        if (title === undefined) throw new Error(`pages.md: cannot read the title in "${text}"`);
        titles.get(versions[index]!)!.push(title.replaceAll('`', ''));
      });
  }
  return titles;
}

/** `text` with the HTML entities the build writes (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#x27;`) decoded. */
export function decodeEntities(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'");
}

/** The pre-rendered HTML of a built route (`build/{route}/index.html`); throws when the build has no such file. */
export function builtHtml(route: string): string {
  return readFileSync(path.resolve(import.meta.dirname, '../../build', `.${route}`, 'index.html'), 'utf8');
}

/** The `<title>` of a built route, decoded. */
export function builtTitle(route: string): string {
  return decodeEntities(/<title[^>]*>([^<]*)<\/title>/.exec(builtHtml(route))?.[1] ?? '');
}

/** The text of a built route's first `<h1>`, decoded. */
export function builtHeading(route: string): string {
  return decodeEntities((/<h1[^>]*>(.*?)<\/h1>/s.exec(builtHtml(route))?.[1] ?? '').replace(/<[^>]+>/g, '').trim());
}

/**
 * Moves a hydrated page to the doc `route` with the site's client-side router, as a link click
 * does (a history entry in the router's own shape, a `key` and a `state`, then the `popstate`
 * event the router listens to), and waits until the route is rendered: the title and first
 * heading of its pre-rendered HTML ({@link builtTitle}, {@link builtHeading}). About three times cheaper in CPU than a full load (0.13 against 0.44
 * CPU-s a route on this machine): the page's own chunks load and React renders it, but the
 * document, the runtime and the layout stay.
 *
 * Input: a page showing a hydrated page of this site; a route of the build. Errors: fails the
 * test when the title or heading do not match within the expect timeout.
 */
export async function visitInApp(page: Page, route: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState({key: Math.random().toString(36).slice(2, 8), state: undefined}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate', {state: window.history.state}));
  }, route);
  await expect(page, route).toHaveTitle(builtTitle(route));
  await expect(page.locator('h1').first(), route).toHaveText(builtHeading(route));
}

/**
 * Visits `routes` one after the other from the current page, as {@link visitInApp} does, but all
 * inside the page in one call: each route is pushed to the client-side router, then awaited (one
 * check an animation frame, 10 s at most) until the document title and first heading are those of
 * its pre-rendered HTML. Without two Playwright assertions a route, a visit costs ~0.15 CPU-s
 * against ~0.3 (30 routes of 1.0.0 on the 2-core CI machine, Chromium and the test together).
 *
 * Input: a page showing a hydrated page of this site; routes of the build. Output: one line for
 * each route that did not render so within 10 s, `route: title "…", heading "…"` (what it showed);
 * empty when all did. Errors: none of its own (a page error ends the evaluation and fails the test).
 */
export async function visitAllInApp(page: Page, routes: readonly string[]): Promise<string[]> {
  const expected = routes.map((route) => ({route, title: builtTitle(route), heading: builtHeading(route).replace(/\s+/g, ' ')}));
  return page.evaluate(async (items) => {
    const failures: string[] = [];
    for (const {route, title, heading} of items) {
      window.history.pushState({key: Math.random().toString(36).slice(2, 8), state: undefined}, '', route);
      window.dispatchEvent(new PopStateEvent('popstate', {state: window.history.state}));
      const start = performance.now();
      for (;;) {
        const shown = (document.querySelector('h1')?.textContent ?? '').replace(/\s+/g, ' ').trim();
        if (document.title === title && shown === heading) break;
        if (performance.now() - start > 10_000) {
          failures.push(`${route}: title ${JSON.stringify(document.title)}, heading ${JSON.stringify(shown)}`);
          break;
        }
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      }
    }
    return failures;
  }, expected);
}

/** Waits until every finite animation of the page has finished (or been cancelled). */
export async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}

/** The doc routes the production build lists in its sitemap, as paths. */
export function builtRoutes(): string[] {
  const xml = readFileSync(path.resolve(import.meta.dirname, '../../build/sitemap.xml'), 'utf8');
  return [...xml.matchAll(/<loc>https?:\/\/[^/]+(\/[^<]*)<\/loc>/g)].map((m) => m[1]!);
}

interface Watch {
  /**
   * Console errors and uncaught page errors seen so far, React's hydration errors (#418, #423,
   * #425) included. When the test ends, any that no `allowConsoleErrors` pattern matches fails it.
   */
  consoleErrors: string[];
  /** Console errors this test expects (e.g. the crash screen's); the 404 of a not-found document always is. */
  allowConsoleErrors(pattern: RegExp): void;
  /** Requests to any host but 127.0.0.1 (aborted, or answered with an empty stub for analytics). */
  externalRequests: string[];
  /**
   * Requests to the site that failed (network error, or an HTTP status of 400 or more), except
   * the document of a page the test opened on purpose as a 404 and requests this fixture aborted.
   */
  failedRequests: string[];
}

/** The console error Chromium logs for a document answered with 404: expected on a not-found page. */
const NOT_FOUND_DOCUMENT = /Failed to load resource: the server responded with a status of 404/;

/**
 * The Playwright `test` with an automatic `watch` fixture: every page of every test has its console
 * errors and its requests beyond 127.0.0.1 recorded, and a test fails when it ends with a console
 * error it did not allow. When the test ends, the fixture also clears the permissions it granted:
 * the browser context is reused by the worker's next test. Requests to other hosts never leave the
 * machine: Chromium resolves no other host name (see playwright.config.ts), and the analytics tests
 * answer the analytics hosts with an empty stub ({@link stubAnalytics}).
 */
export const test = base.extend<{watch: Watch}>({
  watch: [
    async ({context}, use) => {
      const allowed: RegExp[] = [NOT_FOUND_DOCUMENT];
      const watch: Watch = {
        consoleErrors: [],
        allowConsoleErrors: (pattern) => void allowed.push(pattern),
        externalRequests: [],
        failedRequests: [],
      };
      // Recorded, not intercepted: routing every request through Playwright made each page load
      // ~40 % slower. Chromium resolves no host but 127.0.0.1 (playwright.config.ts), so a request
      // to another host fails at once without leaving the machine.
      context.on('request', (request) => {
        const url = new URL(request.url());
        if (url.protocol === 'data:' || url.protocol === 'blob:' || url.hostname === '127.0.0.1') return;
        watch.externalRequests.push(url.href);
      });
      for (const page of context.pages()) listen(page, watch);
      context.on('page', (page) => listen(page, watch));
      await use(watch);
      // The context serves the next test of this worker (reuseContext in playwright.config.ts),
      // and Playwright's reset between tests leaves granted permissions in place.
      await context.clearPermissions();
      const unexpected = watch.consoleErrors.filter((error) => !allowed.some((pattern) => pattern.test(error)));
      expect(unexpected, 'console errors during the test').toEqual([]);
    },
    {auto: true},
  ],
});

/**
 * Answers requests to the analytics hosts with an empty script, so that `window.dataLayer` still
 * records gtag calls and no console error is logged for a script that could not load.
 *
 * Input: the browser context of the test. Output: none (a route on the context). Errors: none.
 */
export async function stubAnalytics(context: BrowserContext): Promise<void> {
  await context.route(
    (url) => ANALYTICS_HOSTS.includes(url.hostname),
    (route) => route.fulfill({status: 200, contentType: 'text/javascript', body: ''}),
  );
}

/**
 * Opens a page and waits until React has hydrated it (`html[data-has-hydrated="true"]`, which
 * Docusaurus sets after hydration), so that clicks and typing reach a live page.
 *
 * Input: the page, the URL (relative to baseURL) and `page.goto` options. Output: the navigation's
 * response (`null` for a same-document navigation). Errors: fails the test when the page has not
 * hydrated within 20 s.
 */
export async function gotoHydrated(page: Page, url: string, options?: Parameters<Page['goto']>[1]) {
  const response = await page.goto(url, options);
  await expectHydrated(page, url);
  return response;
}

/** Waits until the current document has hydrated (see {@link gotoHydrated}); `label` names it in a failure. */
export async function expectHydrated(page: Page, label: string) {
  await expect(page.locator('html'), `${label}: hydrated`).toHaveAttribute('data-has-hydrated', 'true', {timeout: 20_000});
}

function listen(page: Page, watch: Watch) {
  page.on('console', (message) => {
    if (message.type() === 'error') watch.consoleErrors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => watch.consoleErrors.push(`${page.url()}: ${error.message}`));
  page.on('requestfailed', (request) => {
    if (!request.url().startsWith('http://127.0.0.1')) return;
    const reason = request.failure()?.errorText ?? 'failed';
    // A navigation that replaces a page still loading cancels its requests: not a site failure.
    if (reason === 'net::ERR_ABORTED') return;
    watch.failedRequests.push(`${request.url()}: ${reason}`);
  });
  page.on('response', (response) => {
    const request = response.request();
    if (response.status() < 400 || !response.url().startsWith('http://127.0.0.1')) return;
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) return;
    watch.failedRequests.push(`${response.url()}: HTTP ${response.status()}`);
  });
}

export {expect};
