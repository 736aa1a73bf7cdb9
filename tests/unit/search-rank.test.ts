import {test} from 'node:test';
import assert from 'node:assert/strict';
import lunr from 'lunr';
import {loadIndexes, rankSections, type SearchDocument} from '../../src/search/rank.ts';

// A site of three pages in the search plugin's five indexes (title, heading, description,
// keywords, content), each a lunr index over `t` with term positions, as its build writes them.
const pages: SearchDocument[][] = [
  [
    {i: 1, t: 'Troubleshooting', u: '/troubleshooting/'},
    {i: 10, t: 'Create connection', u: '/create-connection/'},
    {i: 20, t: 'DemoMode', u: '/demo-mode/'},
  ],
  [
    {i: 2, t: 'Unable to claim interface', u: '/troubleshooting/', h: '#busy', p: 1},
    {i: 4, t: 'Black screen', u: '/troubleshooting/', h: '#no-video', p: 1},
    {i: 21, t: 'How demo mode works', u: '/demo-mode/', h: '#protocol', p: 20},
  ],
  [
    {i: 1, t: 'Causes and fixes of errors', s: 'Troubleshooting', u: '/troubleshooting/', p: 1},
    {i: 10, t: 'Claim the ADB interface of a device', s: 'Create connection', u: '/create-connection/', p: 10},
  ],
  [{i: 20, t: 'status bar, screenshots', s: 'DemoMode', u: '/demo-mode/', p: 20}],
  [
    {i: 3, t: 'Another program holds the interface: stop the ADB server with adb kill-server.', u: '/troubleshooting/', h: '#busy', p: 1},
    {i: 5, t: 'The decoder failed, or the interface shows nothing: check the codec.', u: '/troubleshooting/', h: '#no-video', p: 1},
    {i: 11, t: 'connect() opens the device and claims its ADB interface.', u: '/create-connection/', h: '', p: 10},
    {i: 22, t: 'SystemUI reads demo mode commands from a broadcast.', u: '/demo-mode/', h: '#protocol', p: 20},
  ],
];
const loaded = loadIndexes(
  pages.map((documents) => ({
    documents,
    index: JSON.parse(
      JSON.stringify(
        lunr(function () {
          this.ref('i');
          this.field('t');
          this.metadataWhitelist = ['position'];
          for (const doc of documents) this.add({...doc, i: String(doc.i)});
        }),
      ),
    ) as object,
  })),
);
const where = (words: string[], typing?: string, skip?: Set<string>) =>
  rankSections(loaded, words, typing, words, 10, skip).map(({document, type}) => `${type}:${document.u}${document.h ?? ''}`);

test('a pasted error finds the section whose heading says it, then the next page, shown by what matched', () => {
  // Create connection's intro matched in its description.
  assert.deepEqual(where(['unable', 'claim', 'interface']).slice(0, 2), ['1:/troubleshooting/#busy', '2:/create-connection/']);
});

test("each page's best section comes before any page's second section", () => {
  const pagesInOrder = where(['interface', 'device']).map((result) => result.slice(2).split('#')[0]);
  assert.deepEqual(pagesInOrder, ['/create-connection/', '/troubleshooting/', '/troubleshooting/']);
});

test('a word few pages use outweighs one that many use', () => {
  // "interface" is on two pages, "kill-server"'s words on one.
  assert.equal(where(['interface', 'kill', 'server'])[0], '4:/troubleshooting/#busy');
});

test('the word being typed matches the terms it starts', () => {
  assert.deepEqual(where(['dem']), []);
  assert.equal(where(['dem'], 'dem')[0], '1:/demo-mode/#protocol');
});

test('a word one edit away from an indexed one still finds it', () => {
  assert.equal(where(['screnshots'])[0], '3:/demo-mode/');
});

test('documents already shown are left out, and results carry positions to highlight', () => {
  assert.ok(!where(['unable', 'claim', 'interface'], undefined, new Set(['2'])).includes('1:/troubleshooting/#busy'));
  const [first] = rankSections(loaded, ['kill'], undefined, ['kill'], 10);
  assert.deepEqual(first.metadata, {kill: {t: {position: [[66, 4]]}}});
});
