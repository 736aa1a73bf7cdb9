import {test as requestTest, expect as requestExpect} from '@playwright/test';
import type {Code, Root} from 'mdast';
import {fromHtml} from 'hast-util-from-html';
import {selectAll} from 'hast-util-select';
import {toText} from 'hast-util-to-text';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import {unified} from 'unified';
import {visit} from 'unist-util-visit';
import {expect, expectedRoutes, gotoHydrated, test} from './fixtures';

/**
 * The Markdown copies of the docs (issue #16), checked on the production build that `npm test`
 * serves: a twin beside every doc route of ../shared/spec/routes/, llms.txt and llms-full.txt per
 * version, and the "Copy page" button. Generated category indexes are not docs and have no twin.
 */
const SITE_URL = 'https://docs.tangoapp.dev';

function twinPath(route: string): string {
  const trimmed = route.replace(/\/+$/, '');
  return trimmed === '' ? '/index.md' : `${trimmed}.md`;
}

function docRoutes(version: string): string[] {
  return (expectedRoutes().get(version) ?? []).filter((route) => !route.includes('/category/'));
}

function versionBase(version: string): string {
  return version === '2.0.0' ? '/' : `/${version}/`;
}

const parseMarkdown = (text: string): Root => unified().use(remarkParse).use(remarkGfm).parse(text);

/**
 * The text of every TypeScript code block in a built page's content, one string per block. Only
 * the page's `<article>` is parsed: the navbar, sidebar and footer around it hold no doc content
 * and were half the parsing time.
 */
function pageTypeScript(html: string): string[] {
  const start = html.indexOf('<article');
  const end = html.indexOf('</article>', start);
  const tree = fromHtml(start >= 0 && end > start ? html.slice(start, end + '</article>'.length) : html, {fragment: true});
  const blocks = selectAll('.theme-doc-markdown .theme-code-block.language-ts, .theme-doc-markdown .theme-code-block.language-tsx', tree);
  return blocks.map((block) =>
    selectAll('.token-line', block)
      .map((line) => toText(line, {whitespace: 'pre'}).replace(/\n$/, ''))
      .join('\n')
      .replace(/\n+$/, ''),
  );
}

for (const version of expectedRoutes().keys()) {
  requestTest(
    `${version}: every doc route has a Markdown twin with its TypeScript samples and no HTML, JSX or imports`,
    async ({request}) => {
      const problems: string[] = [];
      for (const route of docRoutes(version)) {
        const twin = await request.get(twinPath(route));
        if (twin.status() !== 200 || !/^text\/markdown/.test(twin.headers()['content-type'] ?? '')) {
          problems.push(`${twinPath(route)}: HTTP ${twin.status()}, ${twin.headers()['content-type']}`);
          continue;
        }
        const text = await twin.text();
        const tree = parseMarkdown(text);
        const codes: string[] = [];
        visit(tree, (node) => {
          if (node.type === 'html')
            problems.push(`${twinPath(route)}: HTML in the Markdown: ${(node as {value: string}).value.slice(0, 60)}`);
          if (node.type === 'code') codes.push((node as Code).value.replace(/\n+$/, ''));
          if (node.type === 'paragraph' && /^import\s/.test(toMarkdownText(node)))
            problems.push(`${twinPath(route)}: an import line outside code`);
        });
        if (!text.startsWith('# ')) problems.push(`${twinPath(route)}: does not start with the page title`);
        const page = await request.get(route);
        for (const sample of pageTypeScript(await page.text())) {
          if (!codes.includes(sample))
            problems.push(`${twinPath(route)}: misses the sample starting ${JSON.stringify(sample.slice(0, 60))}`);
        }
      }
      requestExpect(problems).toEqual([]);
    },
  );

  requestTest(
    `${version}: llms.txt lists every page once with a link that resolves, and llms-full.txt holds every page`,
    async ({request}) => {
      const base = versionBase(version);
      const index = await request.get(`${base}llms.txt`);
      requestExpect(index.status()).toBe(200);
      const text = await index.text();
      requestExpect(text).toMatch(/^# Tango ADB\n\n> \S.*\n/);
      requestExpect(text).toContain(`version ${version}`);
      const links = [...text.matchAll(/^- \[[^\]]+\]\(([^)]+)\)/gm)].map((match) => match[1]!);
      const expected = docRoutes(version).map((route) => `${SITE_URL}${twinPath(route)}`);
      requestExpect([...links].sort()).toEqual([...expected].sort());
      requestExpect(new Set(links).size).toBe(links.length);
      requestExpect([...text.matchAll(/^## (.+)$/gm)].map((match) => match[1])).toEqual(['Guide', 'API', 'Scrcpy', 'Internal']);

      const full = await (await request.get(`${base}llms-full.txt`)).text();
      const missing: string[] = [];
      for (const link of links) {
        const twin = await request.get(link.slice(SITE_URL.length));
        if (twin.status() !== 200) {
          missing.push(`${link}: HTTP ${twin.status()}`);
        } else if (!full.includes(`Source: ${link}\n\n${await twin.text()}`)) {
          missing.push(`${link}: not in llms-full.txt`);
        }
      }
      requestExpect(missing).toEqual([]);
    },
  );
}

/** The plain text of an mdast node's first text children (enough to see how a paragraph starts). */
function toMarkdownText(node: unknown): string {
  const children = (node as {children?: {value?: string}[]}).children ?? [];
  return children.map((child) => child.value ?? '').join('');
}

test('"Copy page" is reachable by keyboard and puts the Markdown twin on the clipboard', async ({page, context, baseURL}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {origin: baseURL});
  const route = '/api/adb/sync/stat/';
  await gotoHydrated(page, route);
  await expect(page.locator('link[rel="alternate"][type="text/markdown"]')).toHaveAttribute('href', twinPath(route));
  const view = page.getByRole('link', {name: 'View as Markdown'});
  await expect(view).toHaveAttribute('href', twinPath(route));

  const button = page.getByRole('button', {name: 'Copy page'});
  // From the top of the page, Tab reaches the button (no tabindex tricks: it is a real <button>).
  let reached = false;
  for (let presses = 0; presses < 150 && !reached; presses++) {
    await page.keyboard.press('Tab');
    reached = await button.evaluate((element) => element === document.activeElement);
  }
  expect(reached, 'Tab reaches "Copy page"').toBe(true);
  await page.keyboard.press('Enter');
  // The live region says what happened ("Could not copy the page: …" names the reason).
  await expect(page.getByRole('status').filter({hasText: /the page/})).toHaveText('Copied the page as Markdown.');
  await expect(page.getByRole('button', {name: 'Copied'})).toBeVisible();

  const twin = await (await page.request.get(twinPath(route))).text();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(twin);
  expect(copied).toMatch(/^# lstat\/stat\n/);
});
