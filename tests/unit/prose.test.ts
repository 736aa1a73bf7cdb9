/**
 * Prose checks on every page of every docs version (issue #25 item 1; STYLE.md "Pages"), each
 * page parsed once with scripts/prose.ts's proseSentences: prose of paragraphs, lists, block
 * quotes, admonition bodies and JSX elements, compared after collapsing white space (tables, code
 * blocks, front matter, headings, `import`/`export` lines, JSX tags and admonition titles are left
 * out).
 *
 * 1. No sentence is repeated verbatim on more than {@link MAX_PAGES} pages of one docs version
 *    ("a rule stated on many pages lives on one page; the others link to it in a clause").
 *    Counted within each version, not across them: a frozen version is a copy of the pages as
 *    they were, and a reader only ever reads one version at a time. A failure lists each repeated
 *    sentence with its pages.
 * 2. No sentence about the page itself, and no heading that counts (start with the thing itself):
 *    a meta sentence talks about the page or a figure instead of the subject ("This page
 *    shows…", "After this page you can…", "In this section…", "The diagram shows…", "The
 *    following sections…", "You will learn…", {@link META_SENTENCE}); a counting heading names how
 *    many things follow ("## The five steps", {@link COUNTING_HEADING}). A failure lists
 *    `file: sentence`.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {listPages} from '../../scripts/pages.ts';
import {proseBlocks, proseSentences, splitSentences, wordsBeforeFirstSample} from '../../scripts/prose.ts';
import {docsVersions} from '../../src/versions/index.ts';

/** proseSentences of each page, parsed once for both checks of this file. */
const sentencesOf = new Map<string, string[]>();
function pageSentences(file: string): string[] {
  let sentences = sentencesOf.get(file);
  if (sentences === undefined) {
    sentences = proseSentences(readFileSync(file, 'utf8'));
    sentencesOf.set(file, sentences);
  }
  return sentences;
}

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

test('proseBlocks gives paragraphs and table cells with their lines, not headings, code or admonition titles', () => {
  const source = [
    '---',
    'title: Page',
    '---',
    '',
    '## A heading',
    '',
    'First `paragraph` with a [link](./x.mdx).',
    '',
    '| Name | Meaning |',
    '| --- | --- |',
    '| `a` | The first cell. |',
    '',
    ':::note[A title]',
    '',
    'Inside a note.',
    '',
    ':::',
    '',
    '```ts',
    'const x = 1;',
    '```',
    '',
    '- A list item.',
  ].join('\n');
  assert.deepEqual(proseBlocks(source), [
    {kind: 'paragraph', text: 'First `paragraph` with a link.', line: 7},
    {kind: 'cell', text: 'Name', line: 9},
    {kind: 'cell', text: 'Meaning', line: 9},
    {kind: 'cell', text: '`a`', line: 11},
    {kind: 'cell', text: 'The first cell.', line: 11},
    {kind: 'paragraph', text: 'Inside a note.', line: 15},
    {kind: 'paragraph', text: 'A list item.', line: 23},
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
      for (const sentence of pageSentences(file)) {
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

/** A sentence about the page, a section of it or a figure on it, rather than about the subject. */
const META_SENTENCE =
  /^(?:(?:this|the current|the next|the following) (?:page|section|guide|chapter|article|sections|pages)\b|(?:after|by the end of) (?:reading )?this (?:page|section|guide)|(?:on|in) this (?:page|section|guide)\b|(?:the|this) (?:diagram|figure|picture|illustration) (?:below |above )?(?:shows|explains|illustrates|draws)|below,? (?:you|we)\b|here,? (?:you|we) (?:will|'ll)\b|you will learn\b|we will\b|let's\b)/i;

/** A heading that counts what follows instead of naming it. */
const COUNTING_HEADING =
  /^#{2,6}\s+(?:the\s+)?(?:two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(?:\w+\s+)?(?:steps|ways|things|parts|options|kinds|cases|stages|phases|rules|layers|pieces|questions|reasons)\b/i;

test('META_SENTENCE and COUNTING_HEADING match the template phrases and leave ordinary prose alone', () => {
  for (const sentence of [
    'This page shows how to push a file.',
    'After this page you can run a command.',
    'After reading this page, you know the packet format.',
    'In this section, we connect.',
    'The diagram shows the two steps of a connection.',
    'The following sections explain each option.',
    'You will learn how to pair.',
  ]) {
    assert.match(sentence, META_SENTENCE, sentence);
  }
  for (const sentence of [
    'The page of the device manager is a WebUSB picker.',
    'This sample pushes a file.',
    'Pages of memory are 4 KiB.',
    'The diagram is drawn by Mermaid at build time.',
  ]) {
    assert.doesNotMatch(sentence, META_SENTENCE, sentence);
  }
  assert.match('## The five steps {/* #steps */}', COUNTING_HEADING);
  assert.match('## Three ways to reach a device', COUNTING_HEADING);
  assert.doesNotMatch('## Steps of a handshake', COUNTING_HEADING);
  assert.doesNotMatch('## Reach a device over USB', COUNTING_HEADING);
});

for (const {version, folder} of docsVersions()) {
  test(`${version}: no sentence about the page itself and no counting heading (${folder}/)`, () => {
    const dir = path.join(root, folder);
    const found: string[] = [];
    for (const file of listPages(dir)) {
      const page = path.relative(dir, file);
      const source = readFileSync(file, 'utf8');
      for (const sentence of pageSentences(file)) {
        if (META_SENTENCE.test(sentence)) found.push(`${page}: ${sentence}`);
      }
      let fenced = false;
      for (const line of source.split('\n')) {
        if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
        else if (!fenced && COUNTING_HEADING.test(line)) found.push(`${page}: ${line}`);
      }
    }
    assert.deepEqual(found, [], `meta sentences or counting headings in ${folder}/:\n  ${found.join('\n  ')}`);
  });
}
