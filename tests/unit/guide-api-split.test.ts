import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {docsVersions} from '../../src/versions/index.ts';

/**
 * Guide pages and API pages on the same method (STYLE.md "Pages": "a guide page and an API page on
 * the same method link to each other instead of repeating each other"; issue #15 item 4).
 */
const PAIRS: [guide: string, api: string][] = [
  ['tango/server/watch.mdx', 'api/server/track-devices.mdx'],
  ['tango/server/devices.mdx', 'api/server/get-devices.mdx'],
  ['tango/server/transport.mdx', 'api/server/create-transport.mdx'],
  ['tango/daemon/tcp/enable.mdx', 'api/adb/tcpip.mdx'],
];
/** The shortest run of words that counts as repeated prose. */
const RUN = 8;
const root = path.resolve(import.meta.dirname ?? __dirname, '../..');

/** The prose of an MDX page as lower-case words: front matter, code, link targets and headings left out. */
function proseWords(source: string): string[] {
  return source
    .replace(/^---[\s\S]*?---/, '')
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/^#+ .*$/gm, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/[`*_|]/g, ' ')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
}

function runs(words: string[]): Set<string> {
  const found = new Set<string>();
  for (let index = 0; index + RUN <= words.length; index++) {
    found.add(words.slice(index, index + RUN).join(' '));
  }
  return found;
}

for (const {version, folder} of docsVersions()) {
  test(`${version}: each guide page and its API page share no run of ${RUN} words and link to each other`, () => {
    for (const [guide, api] of PAIRS) {
      const guideSource = readFileSync(path.join(root, folder, guide), 'utf8');
      const apiSource = readFileSync(path.join(root, folder, api), 'utf8');
      const guideRuns = runs(proseWords(guideSource));
      const shared = [...runs(proseWords(apiSource))].filter((run) => guideRuns.has(run));
      assert.deepEqual(shared, [], `${folder}/${guide} and ${api} repeat each other`);
      assert.match(guideSource, new RegExp(`\\]\\([./]*${api.replace(/[.]/g, '\\.')}`), `${folder}/${guide} links to ${api}`);
      assert.match(apiSource, new RegExp(`\\]\\([./]*${guide.replace(/[.]/g, '\\.')}`), `${folder}/${api} links to ${guide}`);
    }
  });
}
