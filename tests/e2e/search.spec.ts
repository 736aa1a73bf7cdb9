import {test, expect, gotoHydrated} from './fixtures.ts';

// Each test waits for a search index to load; allow for a busy machine.
test.describe.configure({timeout: 60_000});

const searchInput = (page: import('@playwright/test').Page) => page.locator('.navbar__items--right input.navbar__search-input');

test('Ctrl+K focuses search; a query shows at most 8 suggestions and "See all results"', async ({page, watch}) => {
  await gotoHydrated(page, '/api/');
  await expect(page.locator('.navbar__search kbd').first()).toBeVisible();
  await page.locator('main').click();
  await page.keyboard.press('Control+k');
  await expect(searchInput(page)).toBeFocused();
  await page.keyboard.type('Adb');
  const suggestions = page.locator('.navbar__search [role="listbox"] [role="option"]');
  await expect(suggestions.first()).toBeVisible({timeout: 15_000});
  expect(await suggestions.count()).toBeLessThanOrEqual(8);
  await expect(page.getByRole('link', {name: /See all results/})).toBeVisible();
  expect(watch.consoleErrors).toEqual([]);
});

test('nonsense shows "No results"', async ({page}) => {
  await gotoHydrated(page, '/');
  await searchInput(page).fill('qqzzxxvvkkjj');
  // The first query waits for the version's search index (hundreds of KiB) to load.
  await expect(page.getByText('No results')).toBeVisible({timeout: 15_000});
});

test('a reader on a 1.1.0 page gets 1.1.0 results', async ({page}) => {
  await gotoHydrated(page, '/1.1.0/scrcpy/');
  await searchInput(page).fill('AdbServerClient');
  const option = page.locator('.navbar__search [role="listbox"] [role="option"]').first();
  // The version's index loads in a worker on the first query: slow on a busy 2-core machine.
  await expect(option).toBeVisible({timeout: 20_000});
  await option.click();
  await expect(page).toHaveURL(/\/1\.1\.0\/.+/);
  await expect(page.locator('.navbar__items--right .dropdown > .navbar__link')).toHaveText('1.1.0');
});

test('/search/?q= lists results, also for an older version', async ({page}) => {
  await gotoHydrated(page, '/search/?q=transport');
  await expect(page.locator('h1')).toHaveText('Search results for "transport"');
  const results = page.locator('article h2 a');
  await expect(results.first()).toBeVisible({timeout: 15_000});
  expect(await results.first().getAttribute('href')).not.toMatch(/^\/\d+\.\d+\.\d+\//);

  await gotoHydrated(page, '/search/?q=transport&version=1.1.0/');
  await expect(results.first()).toBeVisible({timeout: 15_000});
  expect(await results.first().getAttribute('href')).toMatch(/^\/1\.1\.0\//);
});

test('a malformed version parameter says the version is unknown, without errors', async ({page, watch}) => {
  for (const bad of ['../x', '9.9.9', '1.1.0']) {
    await gotoHydrated(page, `/search/?q=adb&version=${encodeURIComponent(bad)}`);
    await expect(page.locator('h1')).toHaveText('Unknown docs version');
    await page.getByRole('link', {name: '2.0.0', exact: true}).click();
    await expect(page.locator('h1')).toHaveText('Search results for "adb"');
  }
  expect(watch.consoleErrors).toEqual([]);
});
