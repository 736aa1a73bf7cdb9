import type {Page, Response} from '@playwright/test';
import {readdirSync} from 'node:fs';
import path from 'node:path';
import {test, expect, gotoHydrated} from './fixtures.ts';
import {siteStorageKey} from './site-storage.ts';
import {DIAGRAM_BACKGROUNDS, lowContrastLabels} from '../../scripts/diagram-contrast.ts';

/**
 * Loads `path`, waits until `ready` is visible (when given) and the network is idle, and returns
 * the JavaScript bodies the page fetched.
 */
async function scriptsOf(page: Page, path: string, ready?: string): Promise<string[]> {
  const bodies: Promise<string>[] = [];
  // A body read still pending when the test ends would reject: settle every read.
  const collect = (response: Response) => {
    if (response.url().endsWith('.js') && response.ok()) bodies.push(response.text().catch(() => ''));
  };
  page.on('response', collect);
  await gotoHydrated(page, path);
  if (ready) await expect(page.locator(ready).first()).toBeVisible({timeout: 15_000});
  await page.waitForLoadState('networkidle');
  page.off('response', collect);
  return Promise.all(bodies);
}

/** A string only Mermaid's library contains (its flowchart renderer's id). */
const MERMAID_MARKER = 'flowchart-v2';

test('diagrams are drawn images: no Mermaid code loads, the colour mode picks the drawing', async ({page, watch}) => {
  const scripts = await scriptsOf(page, '/internal/connection/', 'img.diagram');
  expect(scripts.some((body) => body.includes(MERMAID_MARKER))).toBe(false);
  const diagram = page.locator('img.diagram');
  await expect(diagram).toHaveCount(1);
  await expect(diagram).toHaveAttribute('alt', 'Sequence diagram: Host (Tango), adbd');
  await expect(diagram).toHaveAttribute('src', /^\/diagrams\/[0-9a-f]{16}\.light\.svg$/);
  await diagram.scrollIntoViewIfNeeded();
  await expect.poll(() => diagram.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // The width and height attributes hold the drawing's own size, so the space is kept before it loads.
  const size = await diagram.evaluate((img: HTMLImageElement) => [
    img.naturalWidth,
    img.naturalHeight,
    Number(img.getAttribute('width')),
    Number(img.getAttribute('height')),
  ]);
  expect(Math.abs(size[0]! - size[2]!)).toBeLessThanOrEqual(1);
  expect(Math.abs(size[1]! - size[3]!)).toBeLessThanOrEqual(1);

  // The toggle cycles system → light → dark.
  const toggle = page.locator('.navbar button[title$="mode"]').first();
  for (let clicks = 0; clicks < 3 && (await page.locator('html').getAttribute('data-theme')) !== 'dark'; clicks++) await toggle.click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('img.diagram')).toHaveAttribute('src', /\.dark\.svg$/);
  await expect.poll(() => page.locator('img.diagram').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  expect(watch.consoleErrors).toEqual([]);
});

test('every drawing keeps its labels at 4.5:1 contrast or more on its colour mode', async ({page, request}) => {
  const dir = path.resolve(import.meta.dirname, '../../build/diagrams');
  const files = readdirSync(dir).filter((name) => name.endsWith('.svg'));
  expect(files.length).toBeGreaterThan(0);
  await page.goto('about:blank');
  const failures: string[] = [];
  for (const name of files) {
    const response = await request.get(`/diagrams/${name}`);
    expect(response.ok(), name).toBe(true);
    const background = name.endsWith('.dark.svg') ? DIAGRAM_BACKGROUNDS.dark : DIAGRAM_BACKGROUNDS.light;
    const low = await page.evaluate(lowContrastLabels, {svg: await response.text(), background, minimum: 4.5});
    for (const label of low) failures.push(`${name}: "${label.text}" ${label.fill} on ${label.background} = ${label.ratio}:1`);
  }
  expect(failures).toEqual([]);
});

test('TypeScript samples come with a generated JavaScript tab, and the choice holds site-wide', async ({page, watch}) => {
  await gotoHydrated(page, '/');
  const sample = page
    .locator('.tabs-container', {has: page.getByRole('tab', {name: 'JavaScript'}), hasText: 'AdbDaemonWebUsbDeviceManager'})
    .first();
  await expect(sample.getByRole('tab', {name: 'TypeScript'})).toHaveAttribute('aria-selected', 'true');
  await expect(sample.locator('[role="tabpanel"]:not([hidden]) code')).toContainText('AdbDaemonWebUsbDeviceManager');
  await sample.getByRole('tab', {name: 'JavaScript'}).click();
  const js = sample.locator('[role="tabpanel"]:not([hidden]) code');
  await expect(js).toContainText('async function connect()');
  await expect(js).not.toContainText('Promise<Adb | undefined>');
  await expect(sample.locator('[role="tabpanel"]:not([hidden]) .theme-code-block-highlighted-line').first()).toBeVisible();

  await gotoHydrated(page, '/1.1.0/');
  const other = page.locator('.tabs-container', {has: page.getByRole('tab', {name: 'JavaScript'})}).first();
  await expect(other.getByRole('tab', {name: 'JavaScript'})).toHaveAttribute('aria-selected', 'true');

  // A new page load shows the stored choice once hydrated (the page is built with TypeScript first).
  await gotoHydrated(page, '/');
  await expect(page.locator('.navbar button[title$="mode"]').first()).toBeEnabled();
  await expect(sample.getByRole('tab', {name: 'JavaScript'})).toHaveAttribute('aria-selected', 'true');
  await expect(js).toContainText('async function connect()');
  await expect(js).not.toContainText('Promise<Adb | undefined>');
  await sample.getByRole('tab', {name: 'TypeScript'}).click();
  await expect(sample.locator('[role="tabpanel"]:not([hidden]) code')).toContainText('Promise<Adb | undefined>');
  expect(watch.consoleErrors).toEqual([]);
});

test('code-language tabs stay in step: a synced group switches every set, and a query string picks none', async ({page}) => {
  // Upstream's Tabs remount after hydration (facebook/docusaurus#5653) for tab sets whose first
  // browser render could differ from the server's. Ours render the same on both and apply the
  // stored or synced choice as an update: every set shows the tab it marks as selected.
  const expectEverySet = async (label: 'TypeScript' | 'JavaScript', lang: 'ts' | 'js', why: string) => {
    const sets = page.locator('.tabs-container', {has: page.getByRole('tab', {name: 'JavaScript'})});
    expect(await sets.count(), why).toBeGreaterThan(1);
    for (const set of await sets.all()) {
      await expect(set.getByRole('tab', {selected: true}), why).toHaveText(label);
      await expect(set.locator('[role="tabpanel"]:not([hidden])'), why).toHaveCount(1);
      await expect(set.locator(`[role="tabpanel"]:not([hidden]) > div.language-${lang}`), why).toHaveCount(1);
    }
  };
  // No tab set of the site reads ?code-language= (none sets `queryString`): the default stays.
  await gotoHydrated(page, '/api/adb/get-prop/?code-language=js');
  await expectEverySet('TypeScript', 'ts', 'with ?code-language=js');
  await page.locator('.tabs-container').first().getByRole('tab', {name: 'JavaScript'}).click();
  await expectEverySet('JavaScript', 'js', 'after one click');
  // The stored choice on the next load, applied after hydration.
  await gotoHydrated(page, '/api/adb/get-prop/');
  await expectEverySet('JavaScript', 'js', 'stored choice');
});

test('install commands come as npm, Yarn and pnpm tabs', async ({page}) => {
  await gotoHydrated(page, '/');
  const install = page.locator('.tabs-container', {has: page.getByRole('tab', {name: 'npm'})}).first();
  const shown = install.locator('[role="tabpanel"]:not([hidden]) code');
  await expect(shown).toContainText('npm install @yume-chan/adb@2 @yume-chan/stream-extra@2');
  await install.getByRole('tab', {name: 'Yarn'}).click();
  await expect(shown).toContainText('yarn add @yume-chan/adb@2 @yume-chan/stream-extra@2');
  await expect(shown).not.toContainText('npm install');
  await install.getByRole('tab', {name: 'pnpm'}).click();
  await expect(shown).toContainText('pnpm add @yume-chan/adb@2 @yume-chan/stream-extra@2');
});

test('the transport chooser answers by keyboard and mouse, and its diagram renders', async ({page}) => {
  await gotoHydrated(page, '/');
  const chooser = page.getByRole('group', {name: 'Where does your code run?'});
  await expect(chooser).toBeVisible();
  const web = chooser.getByRole('button', {name: 'In a web page'});
  await expect(web).toHaveAttribute('aria-pressed', 'false');
  await web.focus();
  await page.keyboard.press('Enter');
  await expect(web).toHaveAttribute('aria-pressed', 'true');
  const how = page.getByRole('group', {name: 'How is the device connected?'});
  await how.getByRole('button', {name: /USB cable/}).click();
  await expect(page.getByText('Use the Daemon transport over WebUSB', {exact: true})).toBeVisible();
  await expect(how.locator('img.diagram')).toBeVisible();

  await chooser.getByRole('button', {name: 'In Node.js', exact: true}).click();
  await expect(web).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByText('Use the Daemon transport over WebUSB', {exact: true})).toHaveCount(0);
  await expect(page.getByRole('group', {name: /platform-tools/})).toBeVisible();
});

test('the browser-support table is rendered at build time from MDN data', async ({request}) => {
  const html = (await (await request.get('/')).text()).replace(/<!-- -->/g, '');
  expect(html).toContain('Browser support for WebUSB');
  expect(html).toMatch(/@mdn\/browser-compat-data \d+\.\d+\.\d+/);
  expect(html).toMatch(/<th scope="?row"?>Chrome<td><span[^>]*>61</);
  expect(html).toMatch(/<th scope="?row"?>Firefox<td><span[^>]*>No</);
  expect(html).toMatch(/href="?https:\/\/developer\.mozilla\.org\/[^ >]*USB"? target="?_blank"? rel="noopener noreferrer"/);
});

test('a dark-mode reader gets the dark code colours (build-time tokens, colours by colour mode)', async ({page, watch}) => {
  const colours = async (reader: Page) => {
    await reader.goto('/api/adb/sync/stat/');
    await expect(reader.locator('.navbar button[title$="mode"]').first()).toBeEnabled();
    const block = reader.locator('.theme-code-block pre').first();
    // Tokens are highlighted at build time (src/rehype/highlight.ts): a span with a class per mode.
    const keyword = block.locator('span[class]', {hasText: /^import$/}).first();
    await expect(keyword).toBeVisible();
    return {block, keyword};
  };
  const light = await colours(await page.context().newPage());
  const lightKeyword = await light.keyword.evaluate((token) => getComputedStyle(token).color);

  await page.addInitScript((key) => window.localStorage.setItem(key, 'dark'), siteStorageKey('theme'));
  const dark = await colours(page);
  // The page is built with the light (GitHub) colours; Dracula's background is #282a36.
  await expect.poll(() => dark.block.evaluate((pre) => getComputedStyle(pre).backgroundColor)).toBe('rgb(40, 42, 54)');
  expect(lightKeyword).toBe('rgb(0, 0, 159)');
  // Dracula's keyword colour, #bd93f9.
  await expect.poll(() => dark.keyword.evaluate((token) => getComputedStyle(token).color)).toBe('rgb(189, 147, 249)');
  expect(watch.consoleErrors).toEqual([]);
});
