import {test} from 'node:test';
import assert from 'node:assert/strict';
import {unified} from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
import type {Root} from 'mdast';
import tsToJsTabs, {isOnlyComments, splitHighlightMeta, transpileForReaders, CODE_LANGUAGE_GROUP} from '../../src/remark/ts-to-js-tabs.ts';

async function transform(mdx: string): Promise<Root> {
  const processor = unified().use(remarkParse).use(remarkMdx).use(tsToJsTabs);
  const tree = processor.parse(mdx);
  return (await processor.run(tree, {path: 'fixture.mdx'} as never)) as unknown as Root;
}

/** An mdast or MDX JSX node, as these tests read it. */
interface TestNode {
  type: string;
  name?: string;
  lang?: string;
  meta?: string;
  value?: string;
  attributes: Array<{name: string; value: unknown}>;
  children: TestNode[];
}

const sample = [
  '```ts title="connect.ts" {2}',
  'import type {AdbTransport} from "@yume-chan/adb";',
  'import {Adb} from "@yume-chan/adb";',
  '',
  'export function open(transport: AdbTransport): Adb {',
  '  return new Adb(transport);',
  '}',
  '```',
].join('\n');

test('a ts block becomes TypeScript then JavaScript tabs in the site-wide group', async () => {
  const tree = await transform(`# Title\n\n${sample}\n`);
  const tabs = tree.children[1] as unknown as TestNode;
  assert.equal(tabs.type, 'mdxJsxFlowElement');
  assert.equal(tabs.name, 'Tabs');
  assert.deepEqual(
    tabs.attributes.map((a) => [a.name, a.value]),
    [
      ['groupId', CODE_LANGUAGE_GROUP],
      ['className', 'code-tabs'],
      ['lazy', null],
    ],
  );
  const [tsTab, jsTab] = tabs.children;
  assert.deepEqual(
    tsTab.attributes.map((a) => a.value),
    ['ts', 'TypeScript'],
  );
  assert.deepEqual(
    jsTab.attributes.map((a) => a.value),
    ['js', 'JavaScript'],
  );

  const tsCode = tsTab.children[0];
  assert.equal(tsCode.lang, 'ts');
  assert.equal(tsCode.meta, 'title="connect.ts" {2}');

  const jsCode = jsTab.children[0];
  assert.equal(jsCode.lang, 'js');
  assert.equal(jsCode.meta, 'title="connect.js"');
  assert.equal(
    jsCode.value,
    [
      '// highlight-next-line',
      'import { Adb } from "@yume-chan/adb";',
      '',
      'export function open(transport) {',
      '  return new Adb(transport);',
      '}',
    ].join('\n'),
  );
});

test('tsx blocks become jsx, other languages and opted-out blocks stay alone', async () => {
  const tree = await transform(
    [
      '```tsx',
      'export const A = (p: {n: number}) => <b>{p.n}</b>;',
      '```',
      '',
      '```js',
      'let a = 1;',
      '```',
      '',
      '```ts notabs',
      'let b: number = 1;',
      '```',
    ].join('\n'),
  );
  const [tabs, js, notabs] = tree.children as unknown as TestNode[];
  assert.equal(tabs.name, 'Tabs');
  assert.equal(tabs.children[1].children[0].lang, 'jsx');
  assert.equal(tabs.children[1].children[0].value, 'export const A = (p) => <b>{p.n}</b>;');
  assert.equal(js.type, 'code');
  assert.equal(notabs.type, 'code');
});

test('blocks inside DiffTable are left as TypeScript only', async () => {
  const tree = await transform(
    [
      '<DiffTable before="1.1.0" after="2.0.0">',
      '',
      '```ts',
      'let a: number = 1;',
      '```',
      '',
      '```ts',
      'let b: number = 2;',
      '```',
      '',
      '</DiffTable>',
    ].join('\n'),
  );
  const table = tree.children[0] as unknown as TestNode;
  assert.equal(table.name, 'DiffTable');
  assert.deepEqual(
    table.children.map((c) => c.type),
    ['code', 'code'],
  );
});

test('a block that does not parse fails with its file and line', async () => {
  await assert.rejects(transform('text\n\n```ts\nconst = ;\n```\n'), /fixture\.mdx:3: TypeScript sample does not parse/);
});

test('splitHighlightMeta reads ranges and leaves the rest of the meta', () => {
  assert.deepEqual(splitHighlightMeta('title="a.ts" {1,3-5}'), {lines: [1, 3, 4, 5], rest: 'title="a.ts"'});
  assert.deepEqual(splitHighlightMeta('{2}'), {lines: [2], rest: ''});
  assert.deepEqual(splitHighlightMeta(null), {lines: [], rest: ''});
  assert.deepEqual(splitHighlightMeta('showLineNumbers'), {lines: [], rest: 'showLineNumbers'});
});

test('transpileForReaders keeps blank lines between statements and top-level await', async () => {
  const js = await transpileForReaders('const a: number = 1;\n\nconst b = await Promise.resolve(a as number);\n');
  assert.equal(js, 'const a = 1;\n\nconst b = await Promise.resolve(a);');
});

test('a block that only declares types stays one TypeScript block, without an empty JavaScript tab', async () => {
  const declarations = [
    '```ts title="Signature"',
    '/** Reads a file. */',
    'declare class AdbSync {',
    '  // highlight-next-line',
    '  read(path: string): ReadableStream<Uint8Array>;',
    '}',
    'interface Options {',
    '  signal?: AbortSignal;',
    '}',
    'type Mode = "a" | "b";',
    '```',
  ].join('\n');
  const tree = await transform(`${declarations}\n\n${sample}\n`);
  const [alone, tabs] = tree.children as unknown as TestNode[];
  assert.equal(alone!.type, 'code');
  assert.equal(alone!.lang, 'ts');
  assert.equal(tabs!.name, 'Tabs');
});

test('isOnlyComments tells code from comments and white space', () => {
  assert.equal(isOnlyComments(''), true);
  assert.equal(isOnlyComments('// highlight-next-line\n\n/** doc */\n  // note'), true);
  assert.equal(isOnlyComments('/* a */ export {};'), false);
  assert.equal(isOnlyComments('// setup\nconst a = 1;'), false);
});
