/**
 * No sentence is repeated verbatim on more than {@link MAX_PAGES} pages of one docs version
 * (issue #25 item 1; STYLE.md "Pages": "a rule stated on many pages lives on one page; the others
 * link to it in a clause").
 *
 * Counted within each docs version (`docs/`, then each `versioned_docs/version-X/`), not across
 * them: a frozen version is a copy of the pages as they were, so its sentences legitimately repeat
 * those of the newer versions, and a reader only ever reads one version at a time.
 *
 * A sentence is one of scripts/prose.ts's proseSentences: prose of paragraphs, lists, block quotes,
 * admonition bodies and JSX elements, compared after collapsing white space. Tables, code blocks,
 * front matter, headings, `import`/`export` lines, JSX tags and admonition titles are left out.
 * A failure lists each repeated sentence with its pages: keep it on the page it belongs to and
 * link to that page from the others in a clause.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {listPages} from '../../scripts/pages.ts';
import {proseSentences, splitSentences, wordsBeforeFirstSample} from '../../scripts/prose.ts';
import {docsVersions} from '../../src/versions/index.ts';

/** The most pages of one version that may hold the same sentence. */
const MAX_PAGES = 3;
const root = path.resolve(import.meta.dirname ?? __dirname, '../..');

test('splitSentences splits after a full stop and keeps "e.g." and version numbers', () => {
  assert.deepEqual(splitSentences('Use `spawn`, e.g. for `ls`. It needs Android 7.0 or later!  `adb` works.'), [
    'Use `spawn`, e.g. for `ls`.',
    'It needs Android 7.0 or later!',
    '`adb` works.',
  ]);
});

test('proseSentences keeps prose and leaves out tables, code, headings, front matter, JSX lines and admonition titles', () => {
  const page = [
    '---',
    'title: Front matter',
    '---',
    '',
    "import Tabs from '@theme/Tabs';",
    '',
    '## A heading {/* #heading */}',
    '',
    'A paragraph with `code` and a [link](./x.mdx). Available since <Version since="1.15" />.',
    '',
    '- A list item.',
    '',
    '| Name | Description |',
    '| --- | --- |',
    '| `a` | A table cell. |',
    '',
    '```ts',
    'console.log("A code block.");',
    '```',
    '',
    ':::note[An admonition title]',
    '',
    'An admonition body.',
    '',
    ':::',
    '',
    '<Tabs>',
    '',
    'Prose in a JSX element.',
    '',
    '</Tabs>',
  ].join('\n');
  assert.deepEqual(proseSentences(page), [
    'A paragraph with `code` and a link.',
    'Available since <Version since="1.15" />.',
    'A list item.',
    'An admonition body.',
    'Prose in a JSX element.',
  ]);
});

test('wordsBeforeFirstSample counts prose up to the first sample that runs library code, not signatures or helpers', () => {
  const page = [
    'One two three.',
    '',
    '```ts',
    'declare class Adb {',
    '    getProp(key: string): Promise<string>;',
    '}',
    '```',
    '',
    '| Name | Type |',
    '| --- | --- |',
    '',
    '```ts',
    'import { escapeArg } from "@yume-chan/adb";',
    'export function quote(value: string) {',
    '    return escapeArg(value);',
    '}',
    '```',
    '',
    '## Four five',
    '',
    '```ts prelude="adb"',
    'console.log(await adb.getProp("ro.product.model"));',
    '```',
    '',
    'Not counted.',
  ].join('\n');
  assert.deepEqual(wordsBeforeFirstSample(page), {words: 7, line: 21});
  assert.deepEqual(wordsBeforeFirstSample('No sample here.'), {words: 3, line: undefined});
});

for (const {version, folder} of docsVersions()) {
  test(`${version}: no sentence is repeated verbatim on more than ${MAX_PAGES} pages (${folder}/)`, () => {
    const dir = path.join(root, folder);
    const pagesOf = new Map<string, Set<string>>();
    for (const file of listPages(dir)) {
      const page = path.relative(dir, file);
      for (const sentence of proseSentences(readFileSync(file, 'utf8'))) {
        const pages = pagesOf.get(sentence) ?? new Set<string>();
        pages.add(page);
        pagesOf.set(sentence, pages);
      }
    }
    const repeated = [...pagesOf]
      .filter(([, pages]) => pages.size > MAX_PAGES)
      .map(([sentence, pages]) => `"${sentence}" on ${pages.size} pages:\n    ${[...pages].join('\n    ')}`);
    assert.deepEqual(repeated, [], `sentences repeated on more than ${MAX_PAGES} pages of ${folder}/:\n  ${repeated.join('\n  ')}`);
  });
}
