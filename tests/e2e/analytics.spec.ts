import {test, expect, ANALYTICS_HOSTS, ANALYTICS_BUILD_URL, gotoHydrated, stubAnalytics} from './fixtures.ts';

test.use({baseURL: ANALYTICS_BUILD_URL});

type GtagCall = unknown[];

async function pageViews(page: import('@playwright/test').Page): Promise<GtagCall[]> {
  return page.evaluate(() =>
    ((window as unknown as {dataLayer?: IArguments[]}).dataLayer ?? [])
      .map((entry) => Array.from(entry))
      .filter((call) => call[0] === 'event' && call[1] === 'page_view'),
  );
}

test('gtag sends page_view only when pathname, search or hash changed', async ({page, watch}) => {
  await stubAnalytics(page.context());
  await gotoHydrated(page, '/');
  await expect.poll(() => page.evaluate(() => typeof (window as unknown as {gtag?: unknown}).gtag)).toBe('function');
  expect(await pageViews(page)).toHaveLength(0);

  const nav = page.locator('.navbar__items');
  await nav.getByRole('link', {name: 'API', exact: true}).click();
  await expect(page.locator('h1')).toHaveText('Overview');
  await expect.poll(() => pageViews(page)).toHaveLength(1);

  // The same link again: no page view. The next navigation's view is the second one, not the third.
  await nav.getByRole('link', {name: 'API', exact: true}).click();
  await nav.getByRole('link', {name: 'Internal', exact: true}).click();
  await expect(page.locator('h1')).toHaveText('Introduction');
  await expect.poll(() => pageViews(page)).toHaveLength(2);

  const paths = await page.evaluate(() =>
    (window as unknown as {dataLayer: IArguments[]}).dataLayer
      .map((entry) => Array.from(entry))
      .filter((call) => call[0] === 'set' && call[1] === 'page_path')
      .map((call) => call[2]),
  );
  expect(paths).toEqual(['/api/', '/internal/']);
  expect(watch.externalRequests.every((url) => ANALYTICS_HOSTS.includes(new URL(url).hostname))).toBe(true);
  expect(watch.externalRequests.some((url) => url.includes('googletagmanager.com/gtag/js?id=G-TANGOTEST'))).toBe(true);
});

test('without GTAG_TRACKING_ID the build has no analytics code and no request leaves the page', async ({page, watch, baseURL}) => {
  const plain = baseURL!.replace(ANALYTICS_BUILD_URL, 'http://127.0.0.1:4173');
  const response = await gotoHydrated(page, `${plain}/`);
  const html = await response!.text();
  expect(html).not.toContain('googletagmanager');
  expect(html).not.toContain('gtag(');
  await page.locator('.navbar__items').getByRole('link', {name: 'API', exact: true}).click();
  await expect(page.locator('h1')).toHaveText('Overview');
  expect(await page.evaluate(() => typeof (window as unknown as {gtag?: unknown}).gtag)).toBe('undefined');
  expect(watch.externalRequests).toEqual([]);
});

test('the test-only crash route exists only in a build made with TANGO_TEST_ROUTES=1', async ({request}) => {
  // build/ (served on 4173) is made with it, build-analytics/ without.
  expect((await request.get('http://127.0.0.1:4173/__test__/crash/')).status()).toBe(200);
  expect((await request.get(`${ANALYTICS_BUILD_URL}/__test__/crash/`)).status()).toBe(404);
});

test('a build made with TANGO_LATEST_ONLY=1 and TANGO_ONLY_DOCS has the listed docs of the latest version alone', async ({request}) => {
  expect((await request.get(`${ANALYTICS_BUILD_URL}/api/`)).status()).toBe(200);
  expect((await request.get(`${ANALYTICS_BUILD_URL}/api/adb/sync/`)).status()).toBe(404);
  expect((await request.get(`${ANALYTICS_BUILD_URL}/1.1.0/api/`)).status()).toBe(404);
});
