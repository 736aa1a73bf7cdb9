/**
 * Writes tests/e2e/data/code-blocks.json: for each page of {@link CODE_BLOCK_PAGES}, every code
 * block's language, title, lines of text, highlighted line numbers and whether it has a copy button,
 * as a reader's browser shows them once the page has hydrated. tests/e2e/code-blocks.spec.ts
 * compares the served build with it, so that a change to how code is highlighted cannot change what
 * a code block says.
 *
 * Usage: serve a build on http://127.0.0.1:4173 (`npx docusaurus serve --port 4173 --host 127.0.0.1`),
 * then `npx tsx scripts/snapshot-code-blocks.ts`. Rerun it when a sampled page's code changes.
 * Errors: exits non-zero when a page does not load or hydrate within 20 s.
 */
import {writeFileSync} from 'node:fs';
import path from 'node:path';
import {chromium} from '@playwright/test';
import {CODE_BLOCK_PAGES, readCodeBlocks} from '../tests/e2e/code-blocks.ts';

const origin = process.env.SNAPSHOT_ORIGIN ?? 'http://127.0.0.1:4173';
const browser = await chromium.launch({executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox']});
const snapshot: Record<string, unknown> = {};
try {
  const page = await browser.newPage();
  for (const route of CODE_BLOCK_PAGES) {
    await page.goto(origin + route);
    await page.waitForSelector('html[data-has-hydrated="true"]', {timeout: 20_000});
    snapshot[route] = await readCodeBlocks(page);
  }
} finally {
  await browser.close();
}
const file = path.resolve(import.meta.dirname, '../tests/e2e/data/code-blocks.json');
writeFileSync(file, `${JSON.stringify(snapshot, null, 1)}\n`);
console.log(`${file}: ${Object.values(snapshot).flat().length} code blocks on ${CODE_BLOCK_PAGES.length} pages`);
