import {test} from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {unified} from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import {VFile} from 'vfile';
import type {Code, Link, Paragraph, Root} from 'mdast';
import remarkSampleOutput, {DEVICE_NOTE_CLASS, pageInDocsFolder, printable, splitRecording} from '../../src/remark/sample-output.ts';

/** Runs the plugin on `mdx` as the page `page` (relative to a fresh site folder holding `recordings`). */
async function transform(mdx: string, page: string, recordings: Record<string, string>): Promise<Root> {
  const site = fs.mkdtempSync(path.join(os.tmpdir(), 'sample-output-'));
  try {
    for (const [file, text] of Object.entries(recordings)) {
      fs.mkdirSync(path.dirname(path.join(site, file)), {recursive: true});
      fs.writeFileSync(path.join(site, file), text);
    }
    const processor = unified().use(remarkParse).use(remarkMdx).use(remarkSampleOutput);
    const file = new VFile({path: path.join(site, page), cwd: site, value: mdx});
    return (await processor.run(processor.parse(file), file)) as Root;
  } finally {
    fs.rmSync(site, {recursive: true, force: true});
  }
}

const codes = (tree: Root) =>
  tree.children.filter((node): node is Code => node.type === 'code').map((node) => [node.lang, node.meta, node.value]);

test('pageInDocsFolder gives the path inside docs/ or versioned_docs/version-X/', () => {
  assert.equal(pageInDocsFolder('/site/docs/api/adb/rm.mdx'), 'api/adb/rm.mdx');
  assert.equal(pageInDocsFolder('/site/versioned_docs/version-1.1.0/api/adb/rm.mdx'), 'api/adb/rm.mdx');
  assert.equal(pageInDocsFolder('/site/src/pages/index.mdx'), undefined);
});

test('splitRecording separates stdout from stderr and drops the last newline', () => {
  assert.deepEqual(splitRecording('a\nb\n'), {stdout: 'a\nb', stderr: ''});
  assert.deepEqual(splitRecording('a\n--- stderr ---\nwarn\n'), {stdout: 'a', stderr: 'warn'});
  assert.deepEqual(splitRecording('--- stderr ---\nwarn\n'), {stdout: '', stderr: 'warn'});
});

test('a recorded sample gets an Output block after it, named by title or position, per version', async () => {
  const mdx = ['```ts title="one.ts"', 'console.log(1);', '```', '', '```ts', 'console.log(2);', '```', '', '```ts', 'x;', '```'].join(
    '\n',
  );
  const tree = await transform(mdx, 'versioned_docs/version-1.1.0/api/x.mdx', {
    'samples/recorded/1.1.0/api/x/one.ts.txt': '1\n',
    'samples/recorded/1.1.0/api/x/block-2.txt': '2\n--- stderr ---\noops\n',
    'samples/recorded/2.0.0/api/x/block-3.txt': 'other version\n',
  });
  assert.deepEqual(codes(tree), [
    ['ts', 'title="one.ts"', 'console.log(1);'],
    ['text', 'title="Output"', '1'],
    ['ts', null, 'console.log(2);'],
    ['text', 'title="Output"', '2'],
    ['text', 'title="Output (stderr)"', 'oops'],
    ['ts', null, 'x;'],
  ]);
});

test('a sample without a recording, or with an empty one, and other languages get nothing', async () => {
  const mdx = ['```ts title="a.ts"', 'a;', '```', '', '```ts title="b.ts"', 'b;', '```', '', '```sh', 'ls', '```'].join('\n');
  const tree = await transform(mdx, 'docs/p.mdx', {'samples/recorded/2.0.0/p/b.ts.txt': ''});
  assert.deepEqual(codes(tree), [
    ['ts', 'title="a.ts"', 'a;'],
    ['ts', 'title="b.ts"', 'b;'],
    ['sh', null, 'ls'],
  ]);
});

test('a sample inside a DiffTable gets its output after the table', async () => {
  const mdx = [
    '<DiffTable before="1.1.0" after="2.0.0">',
    '',
    '```ts version="1.1.0"',
    'old();',
    '```',
    '',
    '```ts',
    'console.log(2);',
    '```',
    '',
    '</DiffTable>',
  ].join('\n');
  const tree = await transform(mdx, 'docs/up.mdx', {'samples/recorded/2.0.0/up/block-2.txt': '2\n'});
  assert.deepEqual(
    tree.children.map((node) => node.type),
    ['mdxJsxFlowElement', 'code'],
  );
  assert.deepEqual(codes(tree), [['text', 'title="Output"', '2']]);
});

test('printable drops terminal control sequences and characters', () => {
  assert.equal(printable('\u001b[2J\u001b[HTasks: 3\u001b[K\r\nmsg\u0000\n\u001b]0;title\u0007ok'), 'Tasks: 3\nmsg\nok');
});

test('the first output of a sample that uses the device, once per page, says it was recorded from the simulated Pixel 7', async () => {
  const mdx = [
    '```ts title="stream.ts"',
    'console.log("no device");',
    '```',
    '',
    '```ts title="model.ts" prelude="adb"',
    '// adb: an Adb connected to your device',
    'console.log(await adb.getProp("ro.product.model"));',
    '```',
    '',
    '```ts title="server.ts"',
    'new AdbServerNodeTcpConnector({ host: "127.0.0.1", port: 5037 });',
    '```',
  ].join('\n');
  const tree = await transform(mdx, 'versioned_docs/version-1.1.0/tango/server/watch.mdx', {
    'samples/recorded/1.1.0/tango/server/watch/stream.ts.txt': 'no device\n',
    'samples/recorded/1.1.0/tango/server/watch/model.ts.txt': 'Pixel 7\n--- stderr ---\nwarn\n',
    'samples/recorded/1.1.0/tango/server/watch/server.ts.txt': 'emulator-5554\n',
  });
  assert.deepEqual(
    tree.children.map((node) => (node.type === 'code' ? (node.meta ?? node.value) : node.type)),
    [
      'title="stream.ts"',
      'title="Output"',
      'title="model.ts" prelude="adb"',
      'title="Output"',
      'title="Output (stderr)"',
      'paragraph',
      'title="server.ts"',
      'title="Output"',
    ],
  );
  const note = tree.children[5] as Paragraph;
  assert.deepEqual(note.data, {hProperties: {className: [DEVICE_NOTE_CLASS]}});
  const link = note.children[1] as Link;
  assert.equal(link.url, '../../internal/simulated-device.mdx');
  assert.equal(
    note.children
      .map((child) =>
        'value' in child ? child.value : (child as Link).children.map((text) => ('value' in text ? text.value : '')).join(''),
      )
      .join(''),
    'Recorded from the simulated Pixel 7.',
  );
});

test('a page whose samples use no device gets no note', async () => {
  const mdx = ['```ts title="a.ts"', 'console.log(1);', '```'].join('\n');
  const tree = await transform(mdx, 'docs/tango/consumable.mdx', {'samples/recorded/2.0.0/tango/consumable/a.ts.txt': '1\n'});
  assert.deepEqual(
    tree.children.map((node) => node.type),
    ['code', 'code'],
  );
});
