import {readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {test, expect, expectedRoutes, builtRoutes, gotoHydrated, expectHydrated} from './fixtures.ts';

test('an unknown path gets the not-found page with HTTP 404, navbar, search and section links', async ({page, watch}) => {
  const response = await gotoHydrated(page, '/no/such/page/');
  expect(response?.status()).toBe(404);
  await expect(page.locator('h1')).toHaveText('Page not found');
  await expect(page.locator('nav.navbar')).toBeVisible();
  await expect(page.locator('.navbar__items--right input.navbar__search-input')).toBeVisible();
  const main = page.locator('main');
  for (const [label, href] of [
    ['Guide', '/'],
    ['API', '/api/'],
    ['Scrcpy', '/scrcpy/'],
    ['Internal', '/internal/'],
  ]) {
    await expect(main.getByRole('link', {name: label, exact: true})).toHaveAttribute('href', href);
  }
  await expect(main.getByRole('heading', {name: 'This page in other versions'})).toHaveCount(0);
  expect(watch.consoleErrors.filter((e) => !e.includes('404'))).toEqual([]);
});

test('a not-found page under an older version hydrates without errors and shows that version', async ({page, watch}) => {
  // 404.html is pre-rendered once for the latest version; under /1.1.0/ the navbar differs.
  for (const version of ['1.1.0', '0.0.24']) {
    const response = await gotoHydrated(page, `/${version}/zzz/`);
    expect(response?.status()).toBe(404);
    const right = page.locator('.navbar__items--right');
    await expect(right.locator('.dropdown > .navbar__link')).toHaveText(version);
    await expect(page.locator('.navbar__items:not(.navbar__items--right)').getByRole('link', {name: 'API', exact: true})).toHaveAttribute(
      'href',
      `/${version}/api/`,
    );
    await expect(page.locator('main code').first()).toHaveText(`/${version}/zzz/`);
  }
  // The fixture fails the test on any console error, React's hydration errors (#418, #423, #425) included.
  expect(watch.consoleErrors.filter((error) => !error.includes('404'))).toEqual([]);
});

test('the not-found page links to the page where it exists in another version', async ({page}) => {
  // A page that 2.0.0 has and 1.1.0 does not (the subprocess split), asked for under /1.1.0/.
  const only2 = expectedRoutes()
    .get('2.0.0')!
    .filter((route) => !expectedRoutes().get('1.1.0')!.includes(`/1.1.0${route}`) && route !== '/');
  expect(only2).toContain('/api/adb/subprocess/none-protocol/');
  const target = '/api/adb/subprocess/none-protocol/';
  const response = await gotoHydrated(page, `/1.1.0${target}`);
  expect(response?.status()).toBe(404);
  await expect(page.locator('h1')).toHaveText('Page not found');
  const section = page.locator('main section');
  expect(builtRoutes()).toContain(target);
  await section.getByRole('link', {name: target, exact: true}).click();
  await expect(page).toHaveURL(new RegExp(`${target}$`));
  await expect(page.locator('h1')).toHaveText('None protocol');
});

test('the not-found page of a page that moved links to where it went', async ({page}) => {
  // 0.0.24 and 1.0.0 have one logcat page; from 1.1.0 on it is split into binary/ and clear/.
  const response = await gotoHydrated(page, '/api/bin/logcat/');
  expect(response?.status()).toBe(404);
  await expect(page.locator('h1')).toHaveText('Page not found');
  const section = page.locator('main section');
  for (const moved of ['/api/bin/logcat/binary/', '/api/bin/logcat/clear/', '/1.0.0/api/bin/logcat/', '/0.0.24/api/bin/logcat/']) {
    await expect(section.getByRole('link', {name: moved, exact: true})).toBeVisible();
  }
  await section.getByRole('link', {name: '/api/bin/logcat/binary/', exact: true}).click();
  await expect(page.locator('h1')).toHaveText('binary');
});

test('the crash screen shows the error and "Try again" recovers', async ({page, watch}) => {
  // React logs the error that the crash screen catches; the page crashes while it hydrates, so
  // React also reports that it rendered the page again on the client (#423).
  watch.allowConsoleErrors(/Induced crash for the crash-screen test/);
  watch.allowConsoleErrors(/Minified React error #423;/);
  await gotoHydrated(page, '/__test__/crash/');
  await expect(page.locator('#crash-recovered')).toBeVisible();
  await page.evaluate(() => sessionStorage.setItem('tango-test-crash', '1'));
  await page.reload();
  await expectHydrated(page, 'the crashed page');
  await expect(page.getByRole('heading', {name: /This page crashed/})).toBeVisible();
  await expect(page.getByText('Induced crash for the crash-screen test')).toBeVisible();
  await expect(page.locator('nav.navbar')).toBeVisible();
  await page.evaluate(() => sessionStorage.removeItem('tango-test-crash'));
  await page.getByRole('button', {name: 'Try again'}).click();
  await expect(page.locator('#crash-recovered')).toBeVisible();
});

test('a failed chunk shows our load-error box, readable (axe) and Retry reloads the page', async ({page, watch}) => {
  // The blocked chunk is logged as a failed load.
  watch.allowConsoleErrors(/net::ERR_FAILED|ChunkLoadError|Loading chunk/);
  // The test page's lazily loaded chunk, found by its content in the build that is served (a
  // scouting page load did the same in the browser, and timed out when the machine was busy).
  const assets = path.resolve(import.meta.dirname, '../../build/assets/js');
  const chunkFiles = readdirSync(assets).filter((file) => {
    const body = readFileSync(path.join(assets, file), 'utf8');
    return body.includes('Lazy chunk loaded.') && !body.includes('Induced crash');
  });
  expect(chunkFiles).toHaveLength(1);

  let blocked = true;
  await page.route(`**/assets/js/${chunkFiles[0]}`, (route) => (blocked ? route.abort('failed') : route.continue()));
  await gotoHydrated(page, '/__test__/crash/');
  const box = page.getByRole('alert').filter({hasText: 'could not be loaded'});
  await expect(box).toBeVisible({timeout: 15_000});
  await expect(box).toContainText(/Loading chunk|ChunkLoadError|failed/i);
  const {violations} = await new AxeBuilder({page})
    .include('[data-load-error]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  blocked = false;
  const reloaded = page.waitForEvent('load');
  await box.getByRole('button', {name: 'Retry'}).click();
  await reloaded;
  await expectHydrated(page, 'after Retry');
  await expect(page.locator('#lazy-chunk')).toBeVisible();
});

test('a route whose chunks fail to preload is reached by a full page load', async ({page, watch}) => {
  watch.allowConsoleErrors(/net::ERR_FAILED|ChunkLoadError|Loading chunk/);
  await gotoHydrated(page, '/');
  await page.route('**/*.js', (route) => route.abort('failed'));
  const navigation = page.waitForEvent('load');
  await page.locator('.navbar__items').getByRole('link', {name: 'Internal', exact: true}).click();
  await navigation;
  await page.unroute('**/*.js');
  await expect(page).toHaveURL(/\/internal\/$/);
  await expect(page.locator('h1')).toHaveText('Introduction');
});
