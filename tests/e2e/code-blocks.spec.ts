import {readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, gotoHydrated, test} from './fixtures';
import {CODE_BLOCK_PAGES, readCodeBlocks, type CodeBlockView} from './code-blocks';

/**
 * Code blocks say what they said before build-time highlighting (issue #18): the same text line by
 * line, titles, highlighted lines and copy button, on a sample of pages of all four versions.
 * The expected values were read from the site with Prism highlighting in the browser
 * (scripts/snapshot-code-blocks.ts wrote tests/e2e/data/code-blocks.json).
 */
const expected = JSON.parse(readFileSync(path.resolve(import.meta.dirname, 'data/code-blocks.json'), 'utf8')) as Record<
  string,
  CodeBlockView[]
>;

for (const route of CODE_BLOCK_PAGES) {
  test(`${route}: every code block keeps its text, title, highlighted lines and copy button`, async ({page}) => {
    await gotoHydrated(page, route);
    expect(await readCodeBlocks(page)).toEqual(expected[route]);
  });
}
