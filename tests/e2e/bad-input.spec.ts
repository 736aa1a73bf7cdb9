/**
 * Hostile values in everything the site reads from outside the page, so that a crafted link, a
 * corrupt browser profile or a careless paste can never break it or run markup. The inputs:
 * - query parameters: `q` and `version` of /search/ (`ctx` too, which the search plugin ignores
 *   without search contexts); on every page `docusaurus-theme` and `docusaurus-data-*` (read by
 *   the inline script in <head>). The docs' Tabs use no `queryString`, so `?code-language=`,
 *   `?runtime=` and `?tabs=` are read by nothing: sent anyway, they must change nothing;
 * - the URL hash, on load and changed on a loaded page;
 * - every localStorage key of the site (site-storage.ts; the first test proves the list);
 * - the search page's own search box, typed into.
 * For each: no uncaught error and no console error (but the 404 of a not-found page), injected
 * markup never runs nor lands in the DOM, and within 15 s the reader has the page or a clear
 * message, never an endless spinner.
 */
import type {Page} from '@playwright/test';
import {test, expect, gotoHydrated, expectHydrated as expectPageHydrated} from './fixtures.ts';
import {SITE_STORAGE_KEYS, siteStorageKey} from './site-storage.ts';

const HOSTILE = [
  '<img src=x onerror="window.__pwned=1">',
  '"><script>window.__pwned=1</script>',
  'javascript:window.__pwned=1',
  '../../etc/passwd',
  '%E0%A4%A',
  '\u0000',
  '\u202Egnp.exe',
  '{"a":',
  '',
  'null',
  'undefined',
  '__proto__',
];
/**
 * The values of {@link HOSTILE} that a URL parameter or hash can still break a page with: markup,
 * a `javascript:` URL, a malformed escape, NUL, the empty string, `null` and `__proto__`. The
 * other four (a path, a right-to-left override, broken JSON, `undefined`) reach the page as plain
 * text like `null` does, and cost a page load each in three tests. The `version` parameter, which
 * picks an index file to fetch, still gets them all.
 */
const URL_HOSTILE = HOSTILE.filter((value) => !['../../etc/passwd', '\u202Egnp.exe', '{"a":', 'undefined'].includes(value));
/** ~100 KB, for what never travels to the server: the hash, localStorage, typed text. */
const HUGE = 'x'.repeat(100_000);
/**
 * The longest value for a query string: `docusaurus serve` (Node) answers HTTP 431 to a request
 * head over 16 KB, as production servers refuse long URLs before the site could run.
 */
const LONG = 'x'.repeat(4_000);
const SPINNER = '.container [class*="loadingRing"]';

// Each test loads a dozen or more pages on a busy 2-core machine.
test.describe.configure({timeout: 120_000});

/** Console errors, but the 404 of the document of a not-found page. */
function unexpectedErrors(errors: string[]): string[] {
  return errors.filter((error) => !error.includes('the server responded with a status of 404'));
}

/** Nothing of a hostile value ran or became markup: no `window.__pwned`, no such element. */
async function expectNothingInjected(page: Page, label: string) {
  const found = await page.evaluate(() => ({
    pwned: (window as unknown as {__pwned?: unknown}).__pwned,
    images: document.querySelectorAll('img[src="x"]').length,
    scripts: [...document.scripts].filter((script) => script.textContent?.includes('__pwned')).length,
    handlers: document.querySelectorAll('[onerror]').length,
    javascriptLinks: document.querySelectorAll('a[href^="javascript:" i]').length,
  }));
  expect(found, label).toEqual({pwned: undefined, images: 0, scripts: 0, handlers: 0, javascriptLinks: 0});
}

/** The page is hydrated: the colour-mode toggle is rendered disabled until React takes over. */
async function expectHydrated(page: Page, label: string) {
  await expect(page.locator('h1').first(), label).toBeVisible({timeout: 15_000});
  await expectPageHydrated(page, label);
}

/**
 * The search page for query `q` ended in a state the reader can use within 15 s: its results or
 * "No documents were found", the empty search page, or the "query too long" message.
 */
async function expectSearchSettled(page: Page, q: string, label: string) {
  await expectHydrated(page, label);
  const h1 = page.locator('h1');
  if (q === '') {
    await expect(h1, label).toHaveText('Search the documentation');
  } else if (q.length > 200) {
    await expect(h1, label).toHaveText('Search query too long', {timeout: 15_000});
  } else {
    await expect(h1, label).toContainText('Search results for "');
    await expect(page.getByText(/^(\d+ documents? found|No documents were found)$/), label).toBeVisible({timeout: 15_000});
  }
  await expect(page.locator(SPINNER), `${label}: spinner`).toHaveCount(0);
}

test('the site stores exactly the listed localStorage keys', async ({page, watch}) => {
  await gotoHydrated(page, '/api/adb/framebuffer/');
  await expectHydrated(page, 'framebuffer');
  await page.getByRole('tab', {name: 'JavaScript'}).first().click();
  await page.getByRole('tab', {name: 'Node.js'}).first().click();
  await page.locator('.navbar button[title$="mode"]').first().click();
  await page.locator('.theme-announcement-bar button[aria-label="Close"]').click();
  await page.locator('.navbar__items--right input.navbar__search-input').fill('adb');
  await expect(page.locator('.navbar__search [role="listbox"] [role="option"]').first()).toBeVisible({timeout: 20_000});
  await gotoHydrated(page, '/scrcpy/prepare-server/');
  await expectHydrated(page, 'prepare-server');
  await page.getByRole('tab', {name: 'Vite'}).first().click();
  await page.locator('.navbar__items--right .dropdown').hover();
  await page.locator('.navbar__items--right .dropdown__menu').getByRole('link', {name: '1.1.0', exact: true}).click();
  await expect(page).toHaveURL(/\/1\.1\.0\//);
  await gotoHydrated(page, '/search/?q=adb');
  await expectSearchSettled(page, 'adb', 'search');
  const keys = await page.evaluate(() => Object.keys(window.localStorage).sort());
  expect(keys).toEqual(SITE_STORAGE_KEYS.map(siteStorageKey).sort());
  expect(unexpectedErrors(watch.consoleErrors)).toEqual([]);
});

test('/search/?q= with hostile values shows results, no results or a message, and runs nothing', async ({page, watch}) => {
  for (const value of [...URL_HOSTILE, LONG]) {
    const label = `q=${JSON.stringify(value.slice(0, 40))}`;
    await gotoHydrated(page, `/search/?q=${encodeURIComponent(value)}`);
    await expectSearchSettled(page, value, label);
    await expectNothingInjected(page, label);
  }
  // A malformed escape and a lone "%", as a hand-made link sends them.
  for (const raw of ['%E0%A4%A', '%', '%00%ZZ']) {
    await gotoHydrated(page, `/search/?q=${raw}`);
    await expectSearchSettled(page, raw, `raw q=${raw}`);
    await expectNothingInjected(page, `raw q=${raw}`);
  }
  await gotoHydrated(page, `/search/?q=${LONG}`);
  await expectSearchSettled(page, LONG, 'q of 4 000 characters');
  // The link of the "too long" message runs the search for the query's start.
  await page.getByRole('link', {name: 'Search for its first 200 characters'}).click();
  await expectSearchSettled(page, LONG.slice(0, 200), 'the shortened query');
  expect(unexpectedErrors(watch.consoleErrors)).toEqual([]);
  expect(watch.failedRequests).toEqual([]);
});

test('/search/?version= with hostile values says the version is unknown and runs nothing', async ({page, watch}) => {
  for (const value of [...HOSTILE, LONG]) {
    const label = `version=${JSON.stringify(value.slice(0, 40))}`;
    await gotoHydrated(page, `/search/?q=adb&version=${encodeURIComponent(value)}&ctx=${encodeURIComponent(value)}`);
    if (value === '') {
      // No version: the latest, as without the parameter.
      await expectSearchSettled(page, 'adb', label);
    } else {
      await expectHydrated(page, label);
      await expect(page.locator('h1'), label).toHaveText('Unknown docs version');
      // The value is shown as text, never parsed as markup.
      if (!value.includes('\u0000')) await expect(page.locator('main code'), label).toHaveText(value);
      await expect(page.getByRole('link', {name: '2.0.0', exact: true}), label).toBeVisible();
    }
    await expectNothingInjected(page, label);
  }
  expect(unexpectedErrors(watch.consoleErrors)).toEqual([]);
  expect(watch.failedRequests).toEqual([]);
});

test('hostile values in the query parameters a doc page reads, or might, change nothing', async ({page, watch}) => {
  for (const value of [...URL_HOSTILE, 'x'.repeat(1_500)]) {
    const label = `params=${JSON.stringify(value.slice(0, 40))}`;
    const v = encodeURIComponent(value);
    const params = [
      `docusaurus-theme=${v}`,
      `docusaurus-data-theme-choice=${v}`,
      `docusaurus-data-x=${v}`,
      `${encodeURIComponent(`docusaurus-data-${value}`)}=1`,
      `code-language=${v}`,
      `runtime=${v}`,
      `tabs=${v}`,
      `_highlight=${v}`,
    ];
    await gotoHydrated(page, `/api/adb/framebuffer/?${params.join('&')}`);
    await expectHydrated(page, label);
    await expect(page.locator('h1'), label).toHaveText('framebuffer');
    // docusaurus-theme (and docusaurus-data-theme) are copied into data-theme by the theme's
    // script; the guard plugin keeps only a colour mode the CSS knows.
    await expect(page.locator('html'), label).toHaveAttribute('data-theme', /^(light|dark)$/);
    // The tabs keep their default, and still switch (back to the default, which is stored).
    const typescript = page.getByRole('tab', {name: 'TypeScript'}).first();
    const javascript = page.getByRole('tab', {name: 'JavaScript'}).first();
    await expect(typescript, label).toHaveAttribute('aria-selected', 'true');
    await javascript.click();
    await expect(javascript, label).toHaveAttribute('aria-selected', 'true');
    await typescript.click();
    await expect(typescript, label).toHaveAttribute('aria-selected', 'true');
    await expectNothingInjected(page, label);
    // The choice is remembered site-wide: back to TypeScript for the next round.
    await page.getByRole('tab', {name: 'TypeScript'}).first().click();
  }
  expect(unexpectedErrors(watch.consoleErrors)).toEqual([]);
  expect(watch.failedRequests).toEqual([]);
});

test('hostile URL hashes, on load and on a loaded page, change nothing', async ({page, watch}) => {
  // Raw as well as encoded: malformed escapes and markup as a hand-made link has them.
  const hashes = [
    ...URL_HOSTILE.map((value) => encodeURIComponent(value)),
    '%E0%A4%A',
    '%',
    '%ZZ',
    '<img src=x onerror=window.__pwned=1>',
    HUGE,
  ];
  // A different route each time, so that each hash comes with a full page load.
  const routes = ['/api/', '/internal/packet/', '/search/?q=adb', '/no/such/page/'];
  for (const [index, hash] of hashes.entries()) {
    const route = routes[index % routes.length]!;
    const label = `${route}#${hash.slice(0, 40)}`;
    await gotoHydrated(page, `${route}#${hash}`);
    await expectHydrated(page, label);
    if (route.startsWith('/search/')) await expectSearchSettled(page, 'adb', label);
    await expectNothingInjected(page, label);
  }
  // The same hashes set on a loaded page (a reader editing the address, an in-page link): the
  // router sees a new location. Every hash is tried; the page is reloaded after one that broke it.
  const broken: string[] = [];
  await gotoHydrated(page, '/api/');
  await expectHydrated(page, '/api/');
  for (const hash of hashes) {
    await page.evaluate((h) => {
      window.location.hash = h;
    }, hash);
    // Let the router handle the change before reading the page.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
    const heading = await page.locator('h1').first().textContent();
    if (heading !== 'Overview') {
      broken.push(`#${hash.slice(0, 40)}: ${heading}`);
      await gotoHydrated(page, '/api/');
      await expectHydrated(page, '/api/');
    }
    await expectNothingInjected(page, `/api/ then #${hash.slice(0, 40)}`);
  }
  expect(broken, 'hashes that broke a loaded page').toEqual([]);
  expect(unexpectedErrors(watch.consoleErrors)).toEqual([]);
  expect(watch.failedRequests).toEqual([]);
});

// The values a stored entry can break a reader of localStorage with: markup, broken and special
// JSON, the empty string, an inherited property's name and 100 KB. (The URL-shaped values of
// HOSTILE reach localStorage as plain text, like these, and cost three page loads each.)
const STORAGE_VALUES = [HOSTILE[0]!, HOSTILE[1]!, '{"a":', '', 'null', '__proto__', HUGE];
for (const values of [STORAGE_VALUES]) {
  const names = values.map((value) => JSON.stringify(value.slice(0, 12))).join(', ');
  test(`hostile values in every localStorage key of the site change nothing: ${names}`, async ({context, watch}) => {
    const keys = SITE_STORAGE_KEYS.map(siteStorageKey);
    // Pages that read them: colour mode and announcement everywhere, the code-language and
    // runtime tabs, the bundler tabs, and the preferred docs version (outside the docs).
    const routes = ['/api/adb/framebuffer/', '/scrcpy/prepare-server/', '/no/such/page/'];
    for (const value of values) {
      // A page whose every load writes the keys before the site's scripts read them.
      const page = await context.newPage();
      await page.addInitScript(
        ([names, v]) => {
          for (const name of names) window.localStorage.setItem(name, v);
        },
        [keys, value] as const,
      );
      for (const route of routes) {
        const label = `localStorage=${JSON.stringify(value.slice(0, 40))} on ${route}`;
        await gotoHydrated(page, route);
        await expectHydrated(page, label);
        await expectNothingInjected(page, label);
        // The colour mode stays one the CSS knows, whatever the stored choice holds.
        await expect(page.locator('html'), label).toHaveAttribute('data-theme', /^(light|dark)$/);
        await expect(page.locator('html'), label).toHaveAttribute('data-theme-choice', /^(light|dark|system)$/);
        // None of the values is "true": the announcement is not dismissed.
        await expect(page.locator('.theme-announcement-bar'), label).toBeVisible();
        if (route === '/api/adb/framebuffer/') {
          // The controls that wrote the garbage still work, and overwrite it.
          await page.getByRole('tab', {name: 'JavaScript'}).first().click();
          await expect(page.getByRole('tab', {name: 'JavaScript'}).first(), label).toHaveAttribute('aria-selected', 'true');
          await page.locator('.navbar button[title$="mode"]').first().click();
          await expect(page.locator('html'), label).toHaveAttribute('data-theme', /^(light|dark)$/);
        }
      }
      await page.close();
    }
    expect(unexpectedErrors(watch.consoleErrors)).toEqual([]);
    expect(watch.failedRequests).toEqual([]);
  });
}

test('100 KB typed into the search page box: it takes 200 characters and answers', async ({page, watch}) => {
  await gotoHydrated(page, '/search/?q=adb');
  await expectSearchSettled(page, 'adb', 'search');
  const box = page.locator('input[type="search"][name="q"]');
  for (const value of [HUGE, ...HOSTILE]) {
    const label = `typed ${JSON.stringify(value.slice(0, 40))}`;
    await box.fill('');
    await box.click();
    if (value !== '') await page.keyboard.insertText(value);
    const typed = await box.inputValue();
    expect(typed.length, label).toBeLessThanOrEqual(200);
    await expectSearchSettled(page, typed, label);
    await expectNothingInjected(page, label);
  }
  expect(unexpectedErrors(watch.consoleErrors)).toEqual([]);
});

test('100 KB pasted into the navbar search box: it takes 200 characters, and suggestions still come', async ({page, watch}) => {
  await gotoHydrated(page, '/api/');
  const box = page.locator('.navbar__items--right input.navbar__search-input');
  await expect(page.locator('.navbar button[title$="mode"]').first()).toBeEnabled();
  await box.click();
  await page.keyboard.insertText(HUGE);
  expect((await box.inputValue()).length).toBeLessThanOrEqual(200);
  await box.fill('');
  await box.pressSequentially('adb');
  await expect(page.locator('.navbar__search [role="listbox"] [role="option"]').first()).toBeVisible({timeout: 20_000});
  await expectNothingInjected(page, 'navbar search');
  expect(unexpectedErrors(watch.consoleErrors)).toEqual([]);
});
