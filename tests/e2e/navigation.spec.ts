import {test, expect, SITE_TITLE, gotoHydrated} from './fixtures.ts';
import {LATEST} from '../../src/versions/index.ts';

test('navbar has the four sections, version dropdown, source link, search and colour toggle', async ({page, watch}) => {
  await gotoHydrated(page, '/');
  const navbar = page.locator('nav.navbar');
  for (const [label, href] of [
    ['Guide', '/'],
    ['API', '/api/'],
    ['Scrcpy', '/scrcpy/'],
    ['Internal', '/internal/'],
  ]) {
    await expect(navbar.locator('.navbar__items:not(.navbar__items--right)').getByRole('link', {name: label, exact: true})).toHaveAttribute(
      'href',
      href,
    );
  }
  const right = navbar.locator('.navbar__items--right');
  await expect(right.locator('.dropdown > .navbar__link')).toHaveText(LATEST.label);
  const source = right.getByRole('link', {name: 'Source code'});
  await expect(source).toHaveAttribute('href', 'https://github.com/yume-chan/ya-webadb');
  await expect(source).toHaveAttribute('target', '_blank');
  await expect(source).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(right.locator('input.navbar__search-input')).toBeVisible();
  await expect(right.getByRole('button', {name: /dark mode|light mode|system mode/i})).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`\\| ${SITE_TITLE}$`));
  expect(watch.consoleErrors).toEqual([]);
});

test('footer has the dark style, both link columns and the copyright', async ({page}) => {
  await gotoHydrated(page, '/');
  const footer = page.locator('footer.footer');
  await expect(footer).toHaveClass(/footer--dark/);
  const columns = {
    Links: [
      ['Tango Web App', 'https://tangoapp.dev'],
      ['OpenCollective', 'https://opencollective.com/ya-webadb'],
    ],
    Community: [
      ['GitHub', 'https://github.com/yume-chan/ya-webadb'],
      ['Reddit', 'https://www.reddit.com/r/tango_adb'],
      ['Discord', 'https://discord.gg/26k3ttC2PN'],
    ],
  };
  for (const [title, links] of Object.entries(columns)) {
    const column = footer.locator('.footer__col', {has: page.locator('.footer__title', {hasText: title})});
    for (const [label, href] of links) {
      const link = column.getByRole('link', {name: label});
      await expect(link).toHaveAttribute('href', href);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  }
  await expect(footer.locator('.footer__copyright')).toHaveText(
    `Copyright © 2021-${new Date().getFullYear()} Tango ADB. Built with Docusaurus.`,
  );
});

test('external links in page content open in a new tab', async ({page}) => {
  await gotoHydrated(page, '/internal/');
  const external = page.locator('article a[href^="http"]');
  expect(await external.count()).toBeGreaterThan(0);
  for (const link of await external.all()) {
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
  }
});

test('older versions show the unmaintained banner linking to the same page in 2.0.0', async ({page}) => {
  await gotoHydrated(page, '/1.1.0/api/');
  const banner = page.locator('.theme-doc-version-banner');
  await expect(banner).toContainText('no longer actively maintained');
  await expect(banner.getByRole('link', {name: 'latest version'})).toHaveAttribute('href', '/api/');
  await gotoHydrated(page, '/api/');
  await expect(page.locator('.theme-doc-version-banner')).toHaveCount(0);
});

test('the version dropdown switches to the same page in another version', async ({page}) => {
  await gotoHydrated(page, '/scrcpy/');
  const dropdown = page.locator('.navbar__items--right .dropdown');
  await dropdown.hover();
  await dropdown.getByRole('link', {name: '1.0.0'}).click();
  await expect(page).toHaveURL(/\/1\.0\.0\/scrcpy\/$/);
  await expect(page.locator('.navbar__items--right .dropdown > .navbar__link')).toHaveText('1.0.0');
  await expect(page.locator('h1')).toContainText(/Quick start/i);
});

test('a stored unknown preferred version is cleared', async ({page}) => {
  await gotoHydrated(page, '/1.1.0/api/');
  const dropdown = page.locator('.navbar__items--right .dropdown');
  await dropdown.hover();
  await dropdown.getByRole('link', {name: '1.0.0'}).click();
  await expect(page).toHaveURL(/\/1\.0\.0\/api\/$/);
  const storedKey = () => page.evaluate(() => Object.keys(localStorage).find((key) => key.startsWith('docs-preferred-version-default')));
  await expect.poll(storedKey).toBeTruthy();
  const key = (await storedKey())!;
  expect(await page.evaluate((k) => localStorage.getItem(k), key)).toBe('1.0.0');
  await page.evaluate((k) => localStorage.setItem(k, '9.9.9'), key);
  await gotoHydrated(page, '/api/');
  await expect(page.locator('h1')).toBeVisible();
  await expect.poll(() => page.evaluate((k) => localStorage.getItem(k), key)).toBeNull();
});

test('the colour mode persists across reloads and syncs to a second tab', async ({page, context}) => {
  await gotoHydrated(page, '/');
  const theme = () => page.locator('html').getAttribute('data-theme');
  const start = await theme();
  const next = start === 'dark' ? 'light' : 'dark';
  const other = await context.newPage();
  // Hydrated before the toggle: the second tab follows through the `storage` event, which only the
  // hydrated page listens to (a page still loading keeps the mode its head script read).
  await gotoHydrated(other, '/api/');
  const toggle = page.getByRole('button', {name: /dark mode|light mode|system mode/i});
  for (let clicks = 0; clicks < 3 && (await theme()) !== next; clicks += 1) {
    await toggle.click();
  }
  expect(await theme()).toBe(next);
  await expect(other.locator('html')).toHaveAttribute('data-theme', next);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', next);
});

test('the mobile drawer opens and offers "Back to main menu"', async ({page}) => {
  await page.setViewportSize({width: 375, height: 740});
  await gotoHydrated(page, '/api/');
  await expect(page.locator('.navbar button[title$="mode"]').first()).toBeEnabled();
  // The drawer is built on first opening (src/theme/Navbar/MobileSidebar), not with the page.
  const sidebar = page.locator('.navbar-sidebar');
  await expect(sidebar).toHaveCount(0);
  await page.getByRole('button', {name: /toggle navigation bar/i}).click();
  await expect(sidebar).toBeVisible();
  await expect(sidebar.getByRole('button', {name: /back to main menu/i})).toBeVisible();
  await sidebar.getByRole('button', {name: /back to main menu/i}).click();
  await expect(sidebar.getByRole('link', {name: 'Scrcpy', exact: true})).toBeVisible();
  // Closed, it stays built (hidden), and opens again.
  await sidebar.getByRole('button', {name: /close navigation bar/i}).click();
  await expect(sidebar).toBeHidden();
  await expect(sidebar).toHaveCount(1);
  await page.getByRole('button', {name: /toggle navigation bar/i}).click();
  await expect(sidebar.getByRole('link', {name: 'Scrcpy', exact: true})).toBeVisible();
});

test('the skip-to-content link moves focus to the main content', async ({page}) => {
  await gotoHydrated(page, '/api/');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', {name: /skip to main content/i});
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
  expect(await page.evaluate(() => document.activeElement?.closest('nav.navbar'))).toBeNull();
});

test('heading anchors are titled "Direct link to {heading}" and a hash link scrolls to its heading', async ({page}) => {
  await gotoHydrated(page, '/');
  const anchor = page.locator('article h2 a.hash-link').first();
  const heading = page.locator('article h2').first();
  const id = await heading.getAttribute('id');
  const text = (await heading.innerText()).replace(/\u200b/g, '').trim();
  await expect(anchor).toHaveAttribute('title', `Direct link to ${text}`);
  await gotoHydrated(page, '/api/');
  await gotoHydrated(page, `/#${id}`);
  await expect(heading).toBeInViewport();
  const top = await heading.evaluate((el) => el.getBoundingClientRect().top);
  expect(top).toBeLessThan(300);
});

test('a dismissed announcement stays dismissed after reload', async ({page}) => {
  await gotoHydrated(page, '/');
  const bar = page.locator('.theme-announcement-bar');
  await expect(bar).toBeVisible();
  await bar.getByRole('button', {name: /close/i}).click();
  await expect(bar).toHaveCount(0);
  await page.reload();
  await expect(page.locator('.theme-announcement-bar')).toHaveCount(0);
});

test('the announcement bar follows the colour mode, with AA contrast in both', async ({page}) => {
  /** Relative luminance (WCAG 2.1) of a computed `rgb(r, g, b)` colour. */
  const luminance = (rgb: string) => {
    const [r, g, b] = rgb
      .match(/\d+(\.\d+)?/g)!
      .slice(0, 3)
      .map((part) => {
        const c = Number(part) / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({colorScheme: scheme});
    await gotoHydrated(page, '/api/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    const bar = page.locator('.theme-announcement-bar');
    const colours = await bar.evaluate((element) => {
      const style = getComputedStyle(element);
      // Infima leaves the light page transparent: the canvas behind it is white.
      const page = [document.body, document.documentElement]
        .map((node) => getComputedStyle(node).backgroundColor)
        .find((colour) => !/^rgba\(.*, 0\)$|^transparent$/.test(colour));
      return {background: style.backgroundColor, text: style.color, page: page ?? 'rgb(255, 255, 255)'};
    });
    const [bright, dim] = [luminance(colours.background), luminance(colours.text)].sort((a, b) => b - a);
    expect((bright! + 0.05) / (dim! + 0.05), `${scheme}: text on the bar`).toBeGreaterThanOrEqual(4.5);
    // The bar is dark on a dark page and light on a light one.
    expect(luminance(colours.background) < 0.2, `${scheme}: bar ${colours.background} on page ${colours.page}`).toBe(
      luminance(colours.page) < 0.2,
    );
  }
});

test('/x.html and /x/index.html reach /x/', async ({page}) => {
  for (const path of ['/api.html', '/api/index.html', '/1.1.0/internal.html', '/1.1.0/internal/index.html']) {
    await gotoHydrated(page, path);
    const expected = path.replace(/(\/index)?\.html$/, '');
    await expect(page.locator('h1'), path).toHaveText(path.includes('internal') ? 'Introduction' : 'Overview');
    expect(new URL(page.url()).pathname.replace(/\/$/, '').replace(/(\/index)?\.html$/, '')).toBe(expected);
  }
});

test('the announcement points 2.0.0 readers to the upgrade guide', async ({page}) => {
  await gotoHydrated(page, '/api/');
  await page.locator('.theme-announcement-bar').getByRole('link', {name: 'Upgrade from 1.1.0'}).click();
  await expect(page).toHaveURL(/\/tango\/upgrade\/$/);
  await expect(page.locator('h1')).toHaveText('Upgrade from 1.1.0');
});

test('links in view still prefetch their pages, queued for idle time (src/clientModules/idle-prefetch.ts)', async ({page, watch}) => {
  await gotoHydrated(page, '/api/adb/sync/stat/');
  await expect(page.locator('.navbar button[title$="mode"]').first()).toBeEnabled();
  // The sidebar's links are in view: their pages' chunks are prefetched once the page is idle.
  await expect.poll(() => page.locator('head link[rel="prefetch"]').count(), {timeout: 15_000}).toBeGreaterThan(0);
  expect(await page.evaluate(() => Object.isFrozen(window.docusaurus) && typeof window.docusaurus.preload === 'function')).toBe(true);
  // The queued prefetch answers every call with a promise (Docusaurus's own returns `false` at once
  // for the page already loaded), settled once the queued call has run.
  expect(await page.evaluate(() => window.docusaurus.prefetch(window.location.pathname) instanceof Promise)).toBe(true);
  expect(
    await page.evaluate(async () => {
      await window.docusaurus.prefetch('/api/adb/sync/read/');
      return document.querySelectorAll('head link[rel="prefetch"]').length;
    }),
  ).toBeGreaterThan(0);
  // Following a prefetched link navigates in the page, without a new document.
  await page.evaluate(() => ((window as unknown as {marker: boolean}).marker = true));
  await page.locator('.theme-doc-sidebar-container a[href="/api/adb/sync/read/"]').click();
  await expect(page).toHaveURL(/\/api\/adb\/sync\/read\/$/);
  expect(await page.evaluate(() => (window as unknown as {marker?: boolean}).marker)).toBe(true);
  expect(watch.consoleErrors).toEqual([]);
});
