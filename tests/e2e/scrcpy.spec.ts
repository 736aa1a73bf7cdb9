import {test, expect, gotoHydrated} from './fixtures.ts';

test('the versions table is generated from the package, one row per server version', async ({page}) => {
  await gotoHydrated(page, '/scrcpy/versions/');
  const table = page.locator('article table', {hasText: 'ScrcpyOptions3_1'}).first();
  await expect(table).toBeVisible();
  await expect(table.locator('tbody tr')).toHaveCount(27);
  const row2_0 = table.locator('tbody tr', {hasText: 'ScrcpyOptions2_0'}).first();
  await expect(row2_0).toContainText('audio');
  await expect(row2_0).toContainText('videoCodec');
});

test('the inheritance grid answers focus and hover, and moves by keyboard', async ({page, watch}) => {
  await gotoHydrated(page, '/scrcpy/options/inheritance/');
  const grid = page.getByRole('grid');
  await expect(grid).toBeVisible();
  const summary = page.locator('figure p[aria-live="polite"]');
  const before = await summary.innerText();

  const firstStop = grid.locator('[tabindex="0"]');
  await expect(firstStop).toHaveCount(1);
  await firstStop.focus();
  await expect.poll(() => summary.innerText()).not.toBe(before);
  const focusedText = await summary.innerText();

  await page.keyboard.press('ArrowRight');
  await expect(grid.locator('[tabindex="0"]')).toHaveCount(1);
  await expect.poll(() => summary.innerText()).not.toBe(focusedText);
  const moved = await page.evaluate(() => document.activeElement?.getAttribute('data-col'));
  expect(moved).toBe('1');

  await grid.locator('[data-row="3"][data-col="2"]').hover();
  await expect.poll(() => summary.innerText()).toMatch(/ScrcpyOptions|v\d/);
  expect(watch.consoleErrors).toEqual([]);
});

test('the packet inspector decodes a pasted header and flags bad input', async ({page}) => {
  await gotoHydrated(page, '/internal/packet/');
  const input = page.locator('article textarea');
  await expect(input).toBeVisible();
  const output = page.locator('article [aria-live]').first();
  await expect(output).toContainText('CNXN');
  await input.fill('zz');
  await expect(output).toContainText(/hex/i);
});
