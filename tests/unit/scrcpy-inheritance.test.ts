import {compareVersions} from '../../src/utils/versions.ts';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {describe, test} from 'node:test';

import type {Root} from 'mdast';
import type {MdxJsxAttribute, MdxJsxFlowElement} from 'mdast-util-mdx-jsx';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import {unified} from 'unified';
import {visit} from 'unist-util-visit';
import {VFile} from 'vfile';

import remarkScrcpyInheritance, {
  scrcpyInheritanceData,
  versionOfClassName,
  type OptionsInheritanceData,
} from '../../src/remark/scrcpy-inheritance.ts';

function cell(data: OptionsInheritanceData, version: string, member: string) {
  const row = data.versions.find((candidate) => candidate.version === version);
  assert.ok(row, `no version ${version}`);
  const col = data.methods.indexOf(member);
  assert.ok(col >= 0, `no member ${member}`);
  return row.cells[col];
}

/** Writes a tiny package with the layout of @yume-chan/scrcpy into a temporary folder. */
function fakePackage(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrcpy-inheritance-'));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({name: '@fake/scrcpy', version: '9.9.9'}));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, 'src', name)), {recursive: true});
    fs.writeFileSync(path.join(dir, 'src', name), text);
  }
  return dir;
}

const BASE_CLASS = (version: string, impl: string) => `
import {serialize, parse} from "${impl}";
export class ScrcpyOptions${version} {
    serialize(): string[] { return serialize(); }
    parseVideoStreamMetadata(): number { return parse(); }
    createMediaStreamTransformer(): number { return parse(); }
}
`;

describe('versionOfClassName / compareVersions', () => {
  test('reads two- and three-part versions and ignores other names', () => {
    assert.equal(versionOfClassName('ScrcpyOptions1_15'), '1.15');
    assert.equal(versionOfClassName('ScrcpyOptions2_1_1'), '2.1.1');
    assert.equal(versionOfClassName('ScrcpyOptionsLatest'), undefined);
    assert.equal(versionOfClassName('AdbScrcpyOptions2_1'), undefined);
  });

  test('orders versions numerically', () => {
    assert.deepEqual(['2.1', '1.15.1', '1.9', '1.15', '10.0'].sort(compareVersions), ['1.9', '1.15', '1.15.1', '2.1', '10.0']);
  });
});

describe('scrcpyInheritanceData on the installed @yume-chan/scrcpy 2.0.1', () => {
  const data = scrcpyInheritanceData();

  test('names the package and lists every version class, oldest first', () => {
    assert.equal(data.packageName, '@yume-chan/scrcpy');
    assert.equal(data.packageVersion, '2.0.1');
    assert.equal(data.versions[0].className, 'ScrcpyOptions1_15');
    assert.equal(data.versions.at(-1)?.className, 'ScrcpyOptions3_1');
    assert.equal(data.versions.length, 27);
    assert.ok(data.versions.every((row) => row.cells.length === data.methods.length));
  });

  test('lists the virtual methods of ScrcpyOptions and the getters', () => {
    for (const name of [
      'serialize',
      'setListEncoders',
      'setListDisplays',
      'parseEncoder',
      'parseDisplay',
      'parseVideoStreamMetadata',
      'parseAudioStreamMetadata',
      'parseDeviceMessage',
      'endDeviceMessageStream',
      'createMediaStreamTransformer',
      'serializeInjectTouchControlMessage',
      'serializeBackOrScreenOnControlMessage',
      'serializeSetClipboardControlMessage',
      'createScrollController',
      'serializeUHidCreateControlMessage',
    ]) {
      assert.ok(data.methods.includes(name), name);
    }
    assert.deepEqual([...data.getters].sort(), ['clipboard', 'controlMessageTypes', 'uHidOutput']);
  });

  test('patch-version classes inherit everything through extends', () => {
    const row = data.versions.find((candidate) => candidate.version === '1.15.1');
    assert.equal(row?.extends, 'ScrcpyOptions1_15');
    assert.ok(row?.cells.every((entry) => entry === null || (entry.inherited && entry.from === '1.15')));
  });

  test('finds where implementations change, from the impl folders', () => {
    assert.deepEqual(cell(data, '1.22', 'parseVideoStreamMetadata'), {from: '1.22', inherited: false});
    assert.deepEqual(cell(data, '2.0', 'parseVideoStreamMetadata'), {from: '2.0', inherited: false});
    assert.deepEqual(cell(data, '2.1', 'parseDisplay'), {from: '2.0', inherited: false});
    assert.deepEqual(cell(data, '2.2', 'parseDisplay'), {from: '2.2', inherited: false});
    assert.deepEqual(cell(data, '1.25', 'createScrollController'), {from: '1.25', inherited: false});
    assert.deepEqual(cell(data, '3.1', 'serializeUHidCreateControlMessage'), {from: '3.1', inherited: false});
  });

  test('members a version lacks are null', () => {
    assert.equal(cell(data, '1.24', 'parseAudioStreamMetadata'), null);
    assert.equal(cell(data, '1.15', 'setListEncoders'), null);
    assert.equal(cell(data, '2.3', 'serializeUHidCreateControlMessage'), null);
    assert.deepEqual(cell(data, '1.17', 'setListEncoders'), {from: '1.17', inherited: false});
  });

  test('is cached per folder', () => {
    assert.equal(scrcpyInheritanceData(), data);
  });
});

describe('scrcpyInheritanceData on the installed @yume-chan/scrcpy 0.0.24 and 1.1.0', () => {
  test('0.0.24: follows the super(Base, value, defaults) delegation chain', () => {
    const data = scrcpyInheritanceData(path.dirname(require.resolve('@tango-v0/scrcpy/package.json')));
    assert.equal(data.packageVersion, '0.0.24');
    assert.equal(data.versions[0]?.className, 'ScrcpyOptions1_16');
    assert.equal(data.versions[0]?.delegatesTo, undefined);
    assert.equal(data.versions.find((row) => row.version === '1.17')?.delegatesTo, 'ScrcpyOptions1_16');
    // No 0.0.24 class extends another version class: forwarded members are not marked as extends.
    assert.ok(data.versions.every((row) => row.extends === undefined));
    // 1.25 overrides serialize and the scroll controller; the rest is forwarded to 1.24.
    assert.deepEqual(cell(data, '1.25', 'createScrollController'), {from: '1.25', inherited: false});
    assert.equal(cell(data, '1.25', 'parseDisplay')?.inherited, true);
    // 1.16 declares `defaults` as an initialized read-only property, the others as a getter.
    assert.deepEqual(cell(data, '1.16', 'defaults'), {from: '1.16', inherited: false});
    assert.deepEqual(cell(data, '1.17', 'defaults'), {from: '1.17', inherited: false});
    assert.ok(data.getters.includes('defaults'));
    assert.ok(!data.versions.some((row) => row.version.startsWith('3.')));
  });

  test('1.1.0: alias classes per patch version, up to 3.1', () => {
    const data = scrcpyInheritanceData(path.dirname(require.resolve('@tango-v1/scrcpy/package.json')));
    assert.equal(data.packageVersion, '1.1.0');
    assert.ok(data.versions.some((row) => row.version === '2.1.1'));
    assert.equal(data.versions.at(-1)?.version, '3.1');
  });

  test("the plugin reads the page's docs version and refuses 1.0.0", () => {
    const processor = unified().use(remarkParse).use(remarkMdx).use(remarkScrcpyInheritance);
    const run = (filePath: string) => processor.runSync(processor.parse('<OptionsInheritance />\n'), new VFile({path: filePath}));
    const versionsOf = (tree: Root) => {
      let text = '';
      visit(tree, 'mdxJsxFlowElement', (node: MdxJsxFlowElement) => {
        text = JSON.stringify(node.attributes);
      });
      return text;
    };
    assert.match(versionsOf(run('/s/versioned_docs/version-0.0.24/scrcpy/options/inheritance.mdx') as Root), /"0\.0\.24"/);
    assert.match(versionsOf(run('/s/versioned_docs/version-1.1.0/scrcpy/options/inheritance.mdx') as Root), /"1\.1\.0"/);
    assert.throws(() => run('/s/versioned_docs/version-1.0.0/scrcpy/options/inheritance.mdx'), /not published for docs version 1\.0\.0/);
  });
});

describe('scrcpyInheritanceData on small packages', () => {
  test('shares an implementation until a version imports a new one, and follows extends', () => {
    const dir = fakePackage({
      'index.ts': 'export * from "./1_0.js";\nexport * from "./1_1.js";\nexport * from "./1_1_1.js";\nexport * from "./2_0.js";\n',
      'impl-a.ts': 'export function serialize(): string[] { return []; }\nexport function parse(): number { return 1; }\n',
      'impl-b.ts': 'export { parse } from "./impl-a.js";\nexport function serialize(): string[] { return ["b"]; }\n',
      '1_0.ts': BASE_CLASS('1_0', './impl-a.js'),
      '1_1.ts': BASE_CLASS('1_1', './impl-a.js'),
      '1_1_1.ts': 'import { ScrcpyOptions1_1 } from "./1_1.js";\nexport class ScrcpyOptions1_1_1 extends ScrcpyOptions1_1 {}\n',
      '2_0.ts': BASE_CLASS('2_0', './impl-b.js'),
    });
    const data = scrcpyInheritanceData(dir);
    assert.equal(data.packageName, '@fake/scrcpy');
    assert.deepEqual(data.methods, ['serialize', 'parseVideoStreamMetadata', 'createMediaStreamTransformer']);
    assert.deepEqual(
      data.versions.map((row) => [row.version, row.cells.map((entry) => `${entry?.from}${entry?.inherited ? '^' : ''}`)]),
      [
        ['1.0', ['1.0', '1.0', '1.0']],
        ['1.1', ['1.0', '1.0', '1.0']],
        ['1.1.1', ['1.0^', '1.0^', '1.0^']],
        ['2.0', ['2.0', '1.0', '1.0']],
      ],
    );
  });

  test('counts an initialized public property as a member, and skips one without an initializer', () => {
    const dir = fakePackage({
      'index.ts': 'export * from "./1_0.js";\nexport * from "./1_1.js";\n',
      'impl.ts': 'export function serialize(): string[] { return []; }\nexport function parse(): number { return 1; }\n',
      '1_0.ts': BASE_CLASS('1_0', './impl.js').replace(
        '{\n',
        '{\n    readonly defaults = 1;\n    readonly value: number;\n    constructor() { this.value = 0; }\n',
      ),
      '1_1.ts': BASE_CLASS('1_1', './impl.js').replace('{\n', '{\n    get defaults() { return 2; }\n'),
    });
    const data = scrcpyInheritanceData(dir);
    assert.deepEqual(data.methods, ['defaults', 'serialize', 'parseVideoStreamMetadata', 'createMediaStreamTransformer']);
    assert.deepEqual(data.getters, ['defaults']);
    assert.deepEqual(cell(data, '1.0', 'defaults'), {from: '1.0', inherited: false});
    assert.deepEqual(cell(data, '1.1', 'defaults'), {from: '1.1', inherited: false});
  });

  test('throws when there is no version class', () => {
    const dir = fakePackage({'index.ts': 'export class Something {}\n'});
    assert.throws(() => scrcpyInheritanceData(dir), /No ScrcpyOptionsX_YY class found/);
  });

  test('throws when the oldest class lacks a required member', () => {
    const dir = fakePackage({'index.ts': 'export class ScrcpyOptions1_0 { serialize(): string[] { return []; } }\n'});
    assert.throws(() => scrcpyInheritanceData(dir), /ScrcpyOptions1_0 .* has no parseVideoStreamMetadata, createMediaStreamTransformer/);
  });

  test('throws when a class extends something unknown', () => {
    const dir = fakePackage({
      'index.ts': `${BASE_CLASS('1_0', './impl.js')}\nclass Other {}\nexport class ScrcpyOptions1_1 extends Other {}\n`,
      'impl.ts': 'export function serialize(): string[] { return []; }\nexport function parse(): number { return 1; }\n',
    });
    assert.throws(() => scrcpyInheritanceData(dir), /ScrcpyOptions1_1 extends Other, which is not a ScrcpyOptionsX_YY class/);
  });

  test('throws when the folder has no source', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrcpy-inheritance-'));
    assert.throws(() => scrcpyInheritanceData(dir), /has no package.json or src\/index.ts/);
  });
});

describe('remarkScrcpyInheritance', () => {
  async function run(markdown: string, packageDir?: string): Promise<Root> {
    const processor = unified()
      .use(remarkParse)
      .use(remarkMdx)
      .use(remarkScrcpyInheritance, packageDir === undefined ? {} : {packageDir});
    return (await processor.run(processor.parse(markdown), new VFile({path: 'docs/x.mdx', value: markdown}))) as Root;
  }

  test('adds a data expression with the grid, replacing a hand-written one', async () => {
    const tree = await run('# Grid\n\n<OptionsInheritance data={1} />\n');
    let element: MdxJsxFlowElement | undefined;
    visit(tree, 'mdxJsxFlowElement', (node: MdxJsxFlowElement) => {
      element = node;
    });
    const attributes = (element?.attributes ?? []) as MdxJsxAttribute[];
    assert.equal(attributes.filter((attribute) => attribute.name === 'data').length, 1);
    const value = attributes[0].value;
    assert.ok(value !== null && typeof value === 'object');
    assert.deepEqual(JSON.parse(value.value), scrcpyInheritanceData());
    assert.equal(value.data?.estree?.body[0]?.type, 'ExpressionStatement');
  });

  test('fails with the file and position when the package cannot be read', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scrcpy-inheritance-'));
    await assert.rejects(run('<OptionsInheritance />\n', dir), /docs\/x\.mdx:1:1: <OptionsInheritance>: .*has no package.json/);
  });

  test('leaves pages without the element alone', async () => {
    const tree = await run('Text only.\n', '/nonexistent');
    assert.equal(tree.children.length, 1);
  });
});
