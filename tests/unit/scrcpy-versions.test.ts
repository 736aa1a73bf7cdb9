import assert from 'node:assert/strict';
import {describe, test} from 'node:test';

import * as adbScrcpy from '@tango-v2/adb-scrcpy';
import * as scrcpy from '@tango-v2/scrcpy';
import type {Root, Table} from 'mdast';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import {unified} from 'unified';
import {VFile} from 'vfile';

import remarkScrcpyVersions, {scrcpyVersionRows, scrcpyVersionsTable} from '../../src/remark/scrcpy-versions.ts';

const rows = scrcpyVersionRows(scrcpy, adbScrcpy);

function row(version: string) {
  const found = rows.find((candidate) => candidate.version === version);
  assert.ok(found, `no row for ${version}`);
  return found;
}

describe('scrcpyVersionRows', () => {
  test('one row per ScrcpyOptionsX_Y class of @yume-chan/scrcpy 2.0.1, oldest first', () => {
    const classes = Object.keys(scrcpy).filter((name) => /^ScrcpyOptions\d+_\d+(_\d+)?$/.test(name));
    assert.equal(rows.length, classes.length);
    assert.equal(rows.length, 27);
    assert.equal(rows[0]?.version, '1.15');
    assert.equal(rows.at(-1)?.version, '3.1');
    assert.deepEqual(rows.map((candidate) => candidate.scrcpyClass).sort(), [...classes].sort());
  });

  test('2.0 adds audio and videoCodec and removes bitRate, codecOptions, encoderName', () => {
    const v2_0 = row('2.0');
    assert.ok(v2_0.added.includes('audio'));
    assert.ok(v2_0.added.includes('videoCodec'));
    assert.deepEqual([...v2_0.removed].sort(), ['bitRate', 'codecOptions', 'encoderName']);
    assert.equal(v2_0.adbScrcpyClass, 'AdbScrcpyOptions2_0');
  });

  test('2.1 adds video and audioSource; the 2.1.1 alias changes nothing and has no AdbScrcpyOptions class', () => {
    assert.deepEqual(row('2.1').added, ['video', 'audioSource']);
    assert.deepEqual(row('2.1.1'), {
      version: '2.1.1',
      scrcpyClass: 'ScrcpyOptions2_1_1',
      adbScrcpyClass: undefined,
      added: [],
      removed: [],
    });
  });

  test('3.0 removes lockVideoOrientation; 1.15 lists every first option', () => {
    assert.deepEqual(row('3.0').removed, ['lockVideoOrientation']);
    assert.ok(row('3.0').added.includes('newDisplay'));
    assert.ok(row('1.15').added.includes('tunnelForward'));
    assert.deepEqual(row('1.15').removed, []);
  });

  test('throws a clear error when the structure is not found', () => {
    assert.throws(() => scrcpyVersionRows({}, {}), /exports no ScrcpyOptionsX_Y class/);
    assert.throws(() => scrcpyVersionRows({ScrcpyOptions9_9: class {}}, {}), /ScrcpyOptions9_9 has no static Defaults/);
  });
});

describe('remarkScrcpyVersions', () => {
  test('replaces <ScrcpyVersionsTable /> with the GFM table of all rows', async () => {
    const processor = unified().use(remarkParse).use(remarkMdx).use(remarkScrcpyVersions);
    const tree = processor.parse('Intro\n\n<ScrcpyVersionsTable />\n') as Root;
    const result = (await processor.run(tree)) as Root;
    const table = result.children[1] as Table;
    assert.equal(table.type, 'table');
    assert.equal(table.children.length, rows.length + 1);
    assert.deepEqual(table, scrcpyVersionsTable(rows));
    const v2_0 = table.children.find(
      (tableRow) => JSON.stringify(tableRow.children[0]) === JSON.stringify({type: 'tableCell', children: [{type: 'text', value: '2.0'}]}),
    );
    assert.ok(v2_0);
    assert.deepEqual(v2_0.children[1]?.children, [{type: 'inlineCode', value: 'ScrcpyOptions2_0'}]);
  });

  test("reads the packages of the page's docs version", async () => {
    const processor = unified().use(remarkParse).use(remarkMdx).use(remarkScrcpyVersions);
    const tableOf = async (filePath: string) => {
      const tree = processor.parse('<ScrcpyVersionsTable />\n') as Root;
      return (await processor.run(tree, new VFile({path: filePath}))) as Root;
    };
    const header = (table: Table) => table.children[0]!.children.map((cell) => (cell.children[0] as {value: string}).value);
    const firstColumn = (table: Table) =>
      table.children.slice(1).map((tableRow) => (tableRow.children[0]!.children[0] as {value: string}).value);

    // 1.1.0: @yume-chan/scrcpy 1.1.0 (alias classes per patch version, up to 3.1), no adb-scrcpy 1.1.0.
    const v1 = (await tableOf('/site/versioned_docs/version-1.1.0/scrcpy/versions.mdx')).children[0] as Table;
    assert.deepEqual(header(v1), ['Server version', '@yume-chan/scrcpy class', 'Options added', 'Options removed']);
    assert.ok(firstColumn(v1).includes('2.1.1'));
    assert.equal(firstColumn(v1).at(-1), '3.1');

    // 0.0.24: its classes keep their options in DEFAULTS; no 3.x server yet.
    const v0 = (await tableOf('/site/versioned_docs/version-0.0.24/scrcpy/versions.mdx')).children[0] as Table;
    assert.equal(header(v0).length, 5);
    assert.ok(firstColumn(v0).includes('1.16'));
    assert.ok(!firstColumn(v0).some((version) => version.startsWith('3.')));

    // 1.0.0: nothing published to read; the build must fail rather than show another version's data.
    await assert.rejects(tableOf('/site/versioned_docs/version-1.0.0/scrcpy/versions.mdx'), /not published for docs version 1\.0\.0/);
  });

  test('leaves pages without the element alone', async () => {
    const processor = unified().use(remarkParse).use(remarkMdx).use(remarkScrcpyVersions);
    const tree = processor.parse('# Title\n\nText\n') as Root;
    const before = structuredClone(tree);
    assert.deepEqual(await processor.run(tree), before);
  });
});
