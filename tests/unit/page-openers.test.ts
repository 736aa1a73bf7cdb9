/**
 * No sentence about the page itself, and no heading that counts (issue #25 item 1; STYLE.md
 * "Pages": start with the thing itself).
 *
 * - A meta sentence is one of scripts/prose.ts's proseSentences (prose of paragraphs, lists,
 *   admonition bodies and JSX elements) that talks about the page or a figure instead of the
 *   subject: "This page shows…", "After this page you can…", "In this section…", "The diagram
 *   shows…", "The following sections…", "You will learn…". See {@link META_SENTENCE}.
 * - A counting heading names how many things follow ("## The five steps", "## Three ways to…"):
 *   a heading names the task or the thing. See {@link COUNTING_HEADING}.
 *
 * Checked on every page of every docs version (`docs/` and `versioned_docs/version-X/`). A failure
 * lists `file:sentence` so the fix is to start with the thing itself.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {listPages} from '../../scripts/pages.ts';
import {proseSentences} from '../../scripts/prose.ts';
import {docsVersions} from '../../src/versions/index.ts';

const root = path.resolve(import.meta.dirname ?? __dirname, '../..');

/** A sentence about the page, a section of it or a figure on it, rather than about the subject. */
export const META_SENTENCE =
  /^(?:(?:this|the current|the next|the following) (?:page|section|guide|chapter|article|sections|pages)\b|(?:after|by the end of) (?:reading )?this (?:page|section|guide)|(?:on|in) this (?:page|section|guide)\b|(?:the|this) (?:diagram|figure|picture|illustration) (?:below |above )?(?:shows|explains|illustrates|draws)|below,? (?:you|we)\b|here,? (?:you|we) (?:will|'ll)\b|you will learn\b|we will\b|let's\b)/i;

/** A heading that counts what follows instead of naming it. */
export const COUNTING_HEADING =
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
      for (const sentence of proseSentences(source)) {
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
