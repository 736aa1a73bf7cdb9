import {test} from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {readApi} from '../../scripts/api-coverage/api.ts';
import {
  classify,
  diffGaps,
  figures,
  matchesPattern,
  parseExclusions,
  parseKnownGaps,
  type Exclusions,
} from '../../scripts/api-coverage/coverage.ts';
import {findEvidence, indexTargets, metaVersion, readPage, readsAsWord, type TargetName} from '../../scripts/api-coverage/evidence.ts';
import {computeCoverage, gapMessages} from '../../scripts/api-coverage/index.ts';

const fence = (meta: string, code: string, lang = 'ts') => `\`\`\`${lang}${meta ? ' ' + meta : ''}\n${code}\n\`\`\``;

/** Where `page` explains each of `targets` (as 2.0.0 docs), as `name` → `line rule` strings. */
function explained(page: string, targets: TargetName[], skipSections: string[] = []): Record<string, string[]> {
  const found = findEvidence(readPage(page, '2.0.0', skipSections), 'page.mdx', indexTargets(targets));
  return Object.fromEntries([...found].map(([name, list]) => [name, list.map((e) => `${e.line} ${e.rule}`)]));
}

const Foo: TargetName = {name: 'Foo', member: 'Foo'};
const FooBar: TargetName = {name: 'Foo.bar', owner: 'Foo', member: 'bar'};
const FooBaz: TargetName = {name: 'Foo.baz', owner: 'Foo', member: 'baz'};

test('running prose alone, however often, documents nothing', () => {
  const page = [
    '---',
    'title: Guide',
    '---',
    '',
    '`Foo` is great. Call `Foo.bar()` or `bar()`.',
    '',
    '## Use',
    '',
    'Again `Foo` and `bar`.',
  ].join('\n');
  assert.deepEqual(explained(page, [Foo, FooBar]), {});
});

test('heading: a title or heading naming the export or Owner.member, or the member of a page subject', () => {
  const page = ['---', 'title: bar', '---', '', 'It is a method of `Foo`.', '', '## `baz` {/* #baz */}', '', '## Foo.bar and more'].join(
    '\n',
  );
  // line 2: the title `bar` (the subject Foo comes from the lead); line 7: `baz` in code; line 9: `Foo.bar`,
  // which does not document Foo itself (the heading is about the member).
  assert.deepEqual(explained(page, [Foo, FooBar, FooBaz]), {'Foo.bar': ['2 heading', '9 heading'], 'Foo.baz': ['7 heading']});
  // Without a subject, a bare member name in a heading means nothing.
  assert.deepEqual(explained('## `baz`', [Foo, FooBaz]), {});
  assert.deepEqual(explained('## The `Foo` class', [Foo]), {Foo: ['1 heading']});
});

test('heading: a name that reads as a word counts only in backticks', () => {
  const Format: TargetName = {name: 'Format', member: 'Format'};
  assert.equal(readsAsWord('Format'), true);
  assert.equal(readsAsWord('AdbSync'), false);
  assert.equal(readsAsWord('ScrcpyOptions1_15'), false);
  assert.deepEqual(explained('## Format an entry', [Format]), {});
  assert.deepEqual(explained('## `Format`', [Format]), {Format: ['1 heading']});
  assert.deepEqual(explained('## AdbSync sessions', [{name: 'AdbSync', member: 'AdbSync'}]), {AdbSync: ['1 heading']});
});

test('declaration: a TypeScript block declares the export, its members and namespace members', () => {
  const code = [
    'declare class Foo {',
    '    bar(): void;',
    '}',
    'declare namespace Foo {',
    '    interface Options {}',
    '}',
    'interface Other { baz: 1 }',
  ].join('\n');
  const options: TargetName = {name: 'Foo.Options', owner: 'Foo', member: 'Options'};
  assert.deepEqual(explained(['## Signature', '', fence('title="foo.ts"', code)].join('\n'), [Foo, FooBar, FooBaz, options]), {
    Foo: ['4 declaration'],
    'Foo.bar': ['5 declaration'],
    'Foo.Options': ['8 declaration'],
  });
});

test('declaration: blocks of another version and other languages do not count; partial ones do', () => {
  const code = 'declare class Foo {}';
  assert.deepEqual(explained(fence('version="0.0.24"', code), [Foo]), {});
  assert.deepEqual(explained(fence('', code, 'js'), [Foo]), {});
  assert.deepEqual(explained(fence('version="2.0.0"', code), [Foo]), {Foo: ['2 declaration']});
  assert.deepEqual(explained(fence('partial="needs a device"', code), [Foo]), {Foo: ['2 declaration']});
  // Indented inside JSX, with tildes.
  assert.deepEqual(explained(['<TabItem>', '    ~~~tsx', '    declare class Foo {}', '    ~~~', '</TabItem>'].join('\n'), [Foo]), {
    Foo: ['3 declaration'],
  });
  assert.equal(metaVersion('title="a.ts" version="0.0.24"'), '0.0.24');
  assert.equal(metaVersion("version='1.1.0'"), '1.1.0');
  assert.equal(metaVersion('title="version=1"'), undefined);
});

test('table: the first cell of a body row, not the header row or other cells', () => {
  const page = [
    'Members of `Foo`:',
    '',
    '| `Foo` | Description |',
    '| --- | --- |',
    '| `bar()` | Does bar, unlike `baz` |',
    '| `Foo.baz` \\| x | Also |',
  ].join('\n');
  assert.deepEqual(explained(page, [Foo, FooBar, FooBaz]), {'Foo.bar': ['5 table'], 'Foo.baz': ['6 table']});
});

test('sample+prose: a sample that uses the name and a code span in the same section', () => {
  const sample = fence('', 'import {Foo} from "foo";\nconst foo = new Foo();\nfoo.bar();');
  const page = ['## Use it', '', sample, '', 'Call `bar()` on a `Foo`.', '', '## Elsewhere', '', 'Also `baz`.'].join('\n');
  assert.deepEqual(explained(page, [Foo, FooBar, FooBaz]), {Foo: ['3 sample+prose'], 'Foo.bar': ['3 sample+prose']});
  // The code span is in another section: nothing.
  assert.deepEqual(explained(['## A', '', sample, '', '## B', '', '`Foo` and `bar`'].join('\n'), [Foo, FooBar]), {});
  // `Foo.bar` in prose names the member, not the export.
  assert.deepEqual(explained(['## A', '', sample, '', 'See `Foo.bar`.'].join('\n'), [Foo, FooBar]), {'Foo.bar': ['3 sample+prose']});
  // A member used on an object whose owner the block and the page never name: nothing.
  assert.deepEqual(explained(['## A', '', fence('', 'declare const x: any;\nx.bar();'), '', 'Call `bar()`.'].join('\n'), [FooBar]), {});
});

test('inherited members: a page that explains Sub.member explains Base.member', () => {
  const baseMember: TargetName = {name: 'Base.run', owner: 'Base', member: 'run', alsoOwners: ['Sub']};
  assert.deepEqual(explained(fence('', 'declare class Sub {\n    run(): void;\n}'), [baseMember]), {'Base.run': ['3 declaration']});
  assert.deepEqual(explained('| `Sub.run` | runs |\n| --- | --- |\n| `Sub.run` | runs |', [baseMember]), {'Base.run': ['3 table']});
});

test('skipped sections (summaries) count for nothing, subsections included', () => {
  const page = [
    '## Overview {/* #overview */}',
    '',
    '| Class | What |',
    '| --- | --- |',
    '| `Foo` | x |',
    '',
    '### `Foo.bar`',
    '',
    '## Details {#details}',
    '',
    '### `Foo.baz`',
  ].join('\n');
  assert.deepEqual(explained(page, [Foo, FooBar, FooBaz], ['overview']), {'Foo.baz': ['11 heading']});
  assert.deepEqual(readPage(page, '2.0.0', ['overview']).headingIds, ['overview', 'details']);
});

test('matchesPattern: * for any characters, and an export pattern covers its members', () => {
  const name = (pkg: string, full: string) => ({pkg, name: full, owner: full.includes('.') ? full.split('.')[0] : undefined});
  assert.equal(matchesPattern('scrcpy:ScrcpyOptions1_*', name('scrcpy', 'ScrcpyOptions1_15')), true);
  assert.equal(matchesPattern('scrcpy:ScrcpyOptions1_*', name('scrcpy', 'ScrcpyOptions1_15.Init')), true);
  assert.equal(matchesPattern('scrcpy:ScrcpyOptions1_*', name('adb-scrcpy', 'ScrcpyOptions1_15')), false);
  assert.equal(matchesPattern('scrcpy:ScrcpyOptions1_*', name('scrcpy', 'ScrcpyOptionsLatest')), false);
  assert.equal(matchesPattern('adb:Ref', name('adb', 'Ref.unref')), true);
  assert.equal(matchesPattern('adb:Ref', name('adb', 'Reference')), false);
  assert.equal(matchesPattern('adb:Ref.ref', name('adb', 'Ref.unref')), false);
  assert.equal(matchesPattern('scrcpy:*.toOptionValue', name('scrcpy', 'ScrcpyCrop.toOptionValue')), true);
});

/** A valid exclusion list, changed by `patch`. */
const exclusionsWith = (patch: Record<string, unknown>): unknown => ({
  packages: {struct: 'helper'},
  summaries: [{page: 'docs/api/index.mdx', reason: 'overview'}],
  reasons: {internal: 'used inside'},
  names: {internal: ['adb:Ref']},
  ...patch,
});

test('parseExclusions: checks every key, reason and pattern', () => {
  assert.equal(parseExclusions(exclusionsWith({})).names.internal![0], 'adb:Ref');
  const problems: [Record<string, unknown>, RegExp][] = [
    [{names: {other: ['adb:Ref']}}, /reason "other" of "names" has no text/],
    [{reasons: {internal: 'x', other: 'y'}}, /reason "other" has no patterns/],
    [{names: {internal: ['Ref']}}, /not a pattern/],
    [{names: {internal: ['adb:Ref', 'adb:Ref']}}, /listed twice/],
    [{names: {internal: []}}, /non-empty array/],
    [{packages: {struct: ''}}, /"packages" must be an object of non-empty strings/],
    [{summaries: [{page: 'docs/x.mdx'}]}, /needs a "page" and a "reason"/],
    [{summaries: [{page: 'docs/x.mdx', reason: 'r', section: ''}]}, /heading ID/],
  ];
  for (const [patch, message] of problems) assert.throws(() => parseExclusions(exclusionsWith(patch)), message, JSON.stringify(patch));
});

test('classify, figures and diffGaps: documented wins, stale patterns and gap changes are reported', () => {
  const exclusions = parseExclusions(
    exclusionsWith({
      reasons: {internal: 'used inside', gone: 'removed API'},
      names: {internal: ['adb:Ref', 'adb:Adb'], gone: ['adb:Old*']},
    }),
  ) as Exclusions;
  const api = [
    {pkg: 'adb', name: 'Adb', member: 'Adb', kinds: ['class' as const]},
    {pkg: 'adb', name: 'Ref', member: 'Ref', kinds: ['class' as const]},
    {pkg: 'adb', name: 'Ref.ref', owner: 'Ref', member: 'ref', kinds: ['method' as const]},
    {pkg: 'adb', name: 'Sync', member: 'Sync', kinds: ['class' as const]},
  ];
  const evidence = new Map([['Adb', [{page: 'docs/a.mdx', line: 3, rule: 'heading' as const}]]]);
  const {entries, problems} = classify(api, evidence, exclusions);
  assert.deepEqual(
    entries.map((e) => `${e.id} ${e.status.kind}`),
    ['adb:Adb documented', 'adb:Ref excluded', 'adb:Ref.ref excluded', 'adb:Sync undocumented'],
  );
  assert.deepEqual(
    problems.map((p) => p.pattern),
    ['adb:Adb', 'adb:Old*'],
  );
  assert.deepEqual(figures(entries).total, {names: 4, documented: 1, excluded: 2, undocumented: 1, share: 50});
  assert.deepEqual(diffGaps(entries, ['adb:Sync']), {added: [], removed: []});
  const diff = diffGaps(entries, ['adb:Adb']);
  assert.deepEqual(diff, {added: ['adb:Sync'], removed: ['adb:Adb']});
  const message = gapMessages(diff).join('\n');
  assert.match(message, /adb:Sync/);
  assert.match(message, /npm run api-coverage -- --write-gaps/);
  assert.throws(() => parseKnownGaps({gaps: ['adb:Sync', 'adb:Sync']}), /twice/);
  assert.throws(() => parseKnownGaps(['adb:Sync']), /"gaps" must be an array/);
});

test('readApi: exports, public class members, namespace members, default exports and inheritance', () => {
  const scope = fs.mkdtempSync(path.join(os.tmpdir(), 'api-coverage-'));
  const files: Record<string, string> = {
    'lib/package.json': JSON.stringify({name: '@x/lib', types: 'esm/index.d.ts'}),
    'lib/esm/index.d.ts': 'export * from "./base.js";\nexport * from "./sub.js";\nexport { helper as renamed } from "./helper.js";',
    'lib/esm/base.d.ts': [
      'export interface Contract { close(): void; }',
      'export declare class Base implements Contract {',
      '    #secret;',
      '    private hidden;',
      '    protected guarded(): void;',
      '    static create(): Base;',
      '    constructor();',
      '    get size(): number;',
      '    close(): void;',
      '    run(): void;',
      '}',
      'export declare namespace Base { interface Options { a: 1 } namespace Inner { type T = 1; } }',
      'export type Kind = "a" | "b";',
      'export declare const Kind: { readonly A: "a" };',
    ].join('\n'),
    'lib/esm/sub.d.ts': 'import { Base } from "./base.js";\nexport declare class Sub extends Base { run(): void; }',
    'lib/esm/helper.d.ts': 'export declare function helper(): void;\nexport declare function unexported(): void;',
    'other/package.json': JSON.stringify({name: '@x/other', types: 'index.d.ts'}),
    'other/index.d.ts': 'export default class Store { load(): void; }',
  };
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(scope, name)), {recursive: true});
    fs.writeFileSync(path.join(scope, name), content);
  }
  const api = readApi(scope, ['other', 'lib']);
  assert.deepEqual(
    api.map((n) => `${n.pkg}:${n.name} ${n.kinds.join(',')}${n.alsoOwners ? ` also ${n.alsoOwners.join(',')}` : ''}`),
    [
      'lib:Base class,namespace',
      'lib:Base.close method also Contract,Sub',
      'lib:Base.create static method also Sub',
      'lib:Base.Inner namespace',
      'lib:Base.Inner.T type',
      'lib:Base.Options interface',
      'lib:Base.run method',
      'lib:Base.size accessor also Sub',
      'lib:Contract interface',
      'lib:Kind type,variable',
      'lib:renamed function',
      'lib:Sub class',
      'lib:Sub.run method',
      'other:Store class',
      'other:Store.load method',
    ],
  );
  assert.throws(() => readApi(scope, ['missing']), /has no typings entry/);
});

test('the docs: every name of the library is documented, excluded or a known gap', (t) => {
  const coverage = computeCoverage();
  const {total} = figures(coverage.entries);
  t.diagnostic(
    `${total.documented} documented, ${total.excluded} excluded, ${total.undocumented} undocumented (${total.share}%); ` +
      `typings ${(coverage.timings.typings / 1000).toFixed(1)} s, pages ${(coverage.timings.pages / 1000).toFixed(1)} s`,
  );
  assert.deepEqual(
    coverage.problems.map((p) => `${p.reason}: ${p.pattern} ${p.problem}`),
    [],
    'scripts/api-coverage/exclusions.json has stale entries: fix or remove each one listed',
  );
  assert.deepEqual(coverage.gaps, {added: [], removed: []}, gapMessages(coverage.gaps).join('\n'));
});
