import type {Page, Response} from '@playwright/test';
import {test, expect} from './fixtures.ts';

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
  await page.goto(path);
  if (ready) await expect(page.locator(ready).first()).toBeVisible({timeout: 15_000});
  await page.waitForLoadState('networkidle');
  page.off('response', collect);
  return Promise.all(bodies);
}

/** A string only Mermaid's own library contains (its flowchart renderer's id). */
const MERMAID_MARKER = 'flowchart-v2';

test('Mermaid loads only on pages with a diagram, and renders there', async ({page, watch}) => {
  const withDiagram = await scriptsOf(page, '/internal/', '.docusaurus-mermaid-container svg');
  expect(withDiagram.some((body) => body.includes(MERMAID_MARKER))).toBe(true);

  const other = await page.context().newPage();
  const withoutDiagram = await scriptsOf(other, '/search/?q=adb', 'article h2 a');
  expect(withoutDiagram.some((body) => body.includes(MERMAID_MARKER))).toBe(false);
  expect(watch.consoleErrors).toEqual([]);
});

test('TypeScript samples come with a generated JavaScript tab, and the choice holds site-wide', async ({page}) => {
  await page.goto('/');
  const sample = page.locator('.tabs-container', {has: page.getByRole('tab', {name: 'JavaScript'}), hasText: 'AdbDaemonWebUsbDeviceManager'}).first();
  await expect(sample.getByRole('tab', {name: 'TypeScript'})).toHaveAttribute('aria-selected', 'true');
  await expect(sample.locator('[role="tabpanel"]:not([hidden]) code')).toContainText('AdbDaemonWebUsbDeviceManager');
  await sample.getByRole('tab', {name: 'JavaScript'}).click();
  const js = sample.locator('[role="tabpanel"]:not([hidden]) code');
  await expect(js).toContainText('async function connect()');
  await expect(js).not.toContainText('Promise<Adb | undefined>');
  await expect(sample.locator('[role="tabpanel"]:not([hidden]) .theme-code-block-highlighted-line').first()).toBeVisible();

  await page.goto('/1.1.0/');
  const other = page.locator('.tabs-container', {has: page.getByRole('tab', {name: 'JavaScript'})}).first();
  await expect(other.getByRole('tab', {name: 'JavaScript'})).toHaveAttribute('aria-selected', 'true');
});

test('install commands come as npm, Yarn and pnpm tabs', async ({page}) => {
  await page.goto('/');
  const install = page.locator('.tabs-container', {has: page.getByRole('tab', {name: 'npm'})}).first();
  await expect(install.locator('[role="tabpanel"]:not([hidden]) code')).toHaveText('npm install @yume-chan/adb @yume-chan/stream-extra');
  await install.getByRole('tab', {name: 'Yarn'}).click();
  await expect(install.locator('[role="tabpanel"]:not([hidden]) code')).toHaveText('yarn add @yume-chan/adb @yume-chan/stream-extra');
  await install.getByRole('tab', {name: 'pnpm'}).click();
  await expect(install.locator('[role="tabpanel"]:not([hidden]) code')).toHaveText('pnpm add @yume-chan/adb @yume-chan/stream-extra');
});

test('the transport chooser answers by keyboard and mouse, and its diagram renders', async ({page}) => {
  await page.goto('/');
  const chooser = page.getByRole('group', {name: 'Where does your code run?'});
  await expect(chooser).toBeVisible();
  const web = chooser.getByRole('button', {name: 'In a web page'});
  await expect(web).toHaveAttribute('aria-pressed', 'false');
  await web.focus();
  await page.keyboard.press('Enter');
  await expect(web).toHaveAttribute('aria-pressed', 'true');
  const how = page.getByRole('group', {name: 'How is the device connected?'});
  await how.getByRole('button', {name: /USB cable/}).click();
  await expect(page.getByText('Use the Daemon transport over WebUSB.')).toBeVisible();
  await expect(how.locator('.docusaurus-mermaid-container svg')).toBeVisible();

  await chooser.getByRole('button', {name: 'In Node.js', exact: true}).click();
  await expect(web).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByText('Use the Daemon transport over WebUSB.')).toHaveCount(0);
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
