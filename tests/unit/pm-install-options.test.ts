import assert from 'node:assert/strict';
import fs from 'node:fs';
import {describe, test} from 'node:test';

import type {InlineCode, Root, Table, TableCell} from 'mdast';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import {unified} from 'unified';

import remarkPmInstallOptions, {
  defaultPmSourcePath,
  pmInstallOptionRows,
  pmInstallOptionsTable,
} from '../../src/remark/pm-install-options.ts';

const sourcePath = defaultPmSourcePath();
const rows = pmInstallOptionRows(fs.readFileSync(sourcePath, 'utf8'), sourcePath);

async function transform(mdx: string, sourceFile?: string): Promise<Root> {
  const processor = unified()
    .use(remarkParse)
    .use(remarkMdx)
    .use(remarkPmInstallOptions, sourceFile === undefined ? {} : {sourceFile});
  return (await processor.run(processor.parse(mdx), {path: 'install.mdx'} as never)) as unknown as Root;
}

function cellText(cell: TableCell): string {
  return cell.children.map((child) => (child as InlineCode).value).join('');
}

describe('pmInstallOptionRows', () => {
  test('reads the flags of android-bin 2.1.0 (checked against pm.ts by hand)', () => {
    const flags = new Map(rows.map((row) => [row.option, row.flag]));
    assert.equal(flags.get('skipExisting'), '-R');
    assert.equal(flags.get('allowTest'), '-t');
    assert.equal(flags.get('requestDowngrade'), '-d');
    assert.equal(flags.get('grantRuntimePermissions'), '-g');
    assert.equal(flags.get('instantApp'), '--instant');
    assert.equal(flags.get('bypassLowTargetSdkBlock'), '--bypass-low-target-sdk-block');
  });

  test('reads each type from PackageManagerInstallOptions', () => {
    const byOption = new Map(rows.map((row) => [row.option, row]));
    assert.deepEqual(byOption.get('skipExisting'), {
      option: 'skipExisting',
      type: 'boolean',
      flag: '-R',
      takesValue: false,
    });
    assert.deepEqual(byOption.get('user'), {
      option: 'user',
      type: 'SingleUserOrAll',
      flag: '--user',
      takesValue: true,
    });
    assert.equal(byOption.get('stagedReadyTimeout')?.type, 'number');
    assert.equal(byOption.get('installerPackageName')?.type, 'string');
  });

  test('has one row per key of the mapping the package exports, in its order', async () => {
    const {PACKAGE_MANAGER_INSTALL_OPTIONS_MAP} = await import('@tango-v2/android-bin');
    assert.equal(rows.length, Object.keys(PACKAGE_MANAGER_INSTALL_OPTIONS_MAP).length);
    assert.deepEqual(
      rows.map((row) => [row.option, row.flag]),
      Object.entries(PACKAGE_MANAGER_INSTALL_OPTIONS_MAP),
    );
  });

  test('accepts an "as const" or "satisfies" initialiser', () => {
    const source = [
      'interface PackageManagerInstallOptions { skipExisting: boolean; abi: string }',
      'export const PACKAGE_MANAGER_INSTALL_OPTIONS_MAP = ({ skipExisting: "-R", "abi": `--abi` } as const) satisfies object;',
    ].join('\n');
    assert.deepEqual(pmInstallOptionRows(source), [
      {option: 'skipExisting', type: 'boolean', flag: '-R', takesValue: false},
      {option: 'abi', type: 'string', flag: '--abi', takesValue: true},
    ]);
  });

  test('throws a clear error when the mapping is missing', () => {
    assert.throws(
      () => pmInstallOptionRows('export const OTHER = {};', 'old-pm.ts'),
      /old-pm\.ts: no top-level "const PACKAGE_MANAGER_INSTALL_OPTIONS_MAP = \{…\}" found/,
    );
  });

  test('throws when the mapping is not a plain object of string literals', () => {
    const withInterface = (map: string) =>
      `interface PackageManagerInstallOptions { a: boolean }\nconst PACKAGE_MANAGER_INSTALL_OPTIONS_MAP = ${map};`;
    assert.throws(() => pmInstallOptionRows(withInterface('build()')), /is not initialised with an object literal/);
    assert.throws(() => pmInstallOptionRows(withInterface('{}')), /PACKAGE_MANAGER_INSTALL_OPTIONS_MAP is empty/);
    assert.throws(() => pmInstallOptionRows(withInterface('{ a: FLAG }')), /\.a is not a string literal/);
    assert.throws(() => pmInstallOptionRows(withInterface('{ ...base }')), /member that is not "key: value"/);
    assert.throws(() => pmInstallOptionRows(withInterface('{ [k]: "-a" }')), /computed key/);
  });

  test('throws when the interface is missing or lacks an option', () => {
    assert.throws(
      () => pmInstallOptionRows('const PACKAGE_MANAGER_INSTALL_OPTIONS_MAP = { a: "-a" };'),
      /no interface PackageManagerInstallOptions found/,
    );
    assert.throws(
      () =>
        pmInstallOptionRows(
          'interface PackageManagerInstallOptions { a: boolean }\nconst PACKAGE_MANAGER_INSTALL_OPTIONS_MAP = { a: "-a", b: "-b" };',
        ),
      /PackageManagerInstallOptions has no property "b"/,
    );
  });
});

describe('pmInstallOptionsTable', () => {
  test('a header row, then option, type and argument (value placeholder for non-booleans)', () => {
    const table = pmInstallOptionsTable([
      {option: 'allowTest', type: 'boolean', flag: '-t', takesValue: false},
      {option: 'abi', type: 'string', flag: '--abi', takesValue: true},
    ]);
    assert.equal(table.type, 'table');
    assert.deepEqual(table.align, [null, null, null]);
    assert.deepEqual(
      table.children[0]!.children.map((cell) => cell.children.map((child) => ('value' in child ? child.value : '')).join('')),
      ['Option', 'Type', 'pm install argument'],
    );
    assert.deepEqual(
      table.children.slice(1).map((row) => row.children.map(cellText)),
      [
        ['allowTest', 'boolean', '-t'],
        ['abi', 'string', '--abi <value>'],
      ],
    );
  });
});

describe('remarkPmInstallOptions', () => {
  test('turns <PmInstallOptionsTable /> into a table of every option', async () => {
    const tree = await transform('Intro.\n\n<PmInstallOptionsTable />\n\nAfter.\n');
    assert.deepEqual(
      tree.children.map((node) => node.type),
      ['paragraph', 'table', 'paragraph'],
    );
    const table = tree.children[1] as Table;
    assert.equal(table.children.length, rows.length + 1);
    assert.deepEqual(table.children[1]!.children.map(cellText), ['skipExisting', 'boolean', '-R']);
    const user = table.children.find((row) => cellText(row.children[0]!) === 'user');
    assert.deepEqual(user?.children.map(cellText), ['user', 'SingleUserOrAll', '--user <value>']);
  });

  test('leaves pages without the element alone and does not read the source', async () => {
    const tree = await transform('<Other />\n\nText.\n', '/nonexistent/pm.ts');
    assert.deepEqual(
      tree.children.map((node) => node.type),
      ['mdxJsxFlowElement', 'paragraph'],
    );
  });

  test('names the page and position when the source is missing or unusable', async () => {
    await assert.rejects(
      transform('# Install\n\n<PmInstallOptionsTable />\n', '/nonexistent/pm.ts'),
      /^Error: install\.mdx:3:1: ENOENT.*\/nonexistent\/pm\.ts/,
    );
  });

  test('rejects inline use, attributes and children', async () => {
    await assert.rejects(transform('See <PmInstallOptionsTable /> here.\n'), /install\.mdx:1:5: .* on a line of its own/);
    await assert.rejects(transform('<PmInstallOptionsTable compact />\n'), /takes no attributes and no children/);
    await assert.rejects(transform('<PmInstallOptionsTable>\n\nText\n\n</PmInstallOptionsTable>\n'), /takes no attributes and no children/);
  });
});
