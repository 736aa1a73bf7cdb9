/**
 * The sample runner's own logic (scripts/samples/: prelude.ts, classify.ts, record.ts, run.ts,
 * browser.ts and the --run path of check.ts): meta words, prelude insertion, which samples run,
 * where, and why not, recording names, normalisation, comparison, the browser side's pure parts,
 * and one small site run end to end against the simulated device, in Node.js and in Chromium.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import ts from 'typescript';
import {LIBRARIES} from '../../src/versions/index.ts';
import {main} from '../../scripts/samples/check.ts';
import {describeEvent, formatConsoleLine, mapStackFrames, pageMarkup, sampleFile} from '../../scripts/samples/browser.ts';
import {browserApis, decideRun, isTypeOnly, type RunFacts} from '../../scripts/samples/classify.ts';
import {parseEvents, parseMeta, type SampleBlock} from '../../scripts/samples/extract.ts';
import {parseApk} from '../../device/src/apk.ts';
import {needsAdbServer, preludeProblems, standInPreludes, withRunPreludes, withTypePreludes} from '../../scripts/samples/prelude.ts';
import {compareRecord, formatRecord, normalizeOutput, recordNames, recordPath} from '../../scripts/samples/record.ts';
import {caughtReferenceError, waitsOnTimer} from '../../scripts/samples/run.ts';
import {checkTypes} from '../../scripts/samples/typecheck.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const block = (code: string, meta = '', lang: SampleBlock['lang'] = 'ts', line = 10): SampleBlock => ({
  file: 'docs/page.mdx',
  line,
  column: 1,
  lang,
  meta,
  code,
});

test('parseMeta reads norun and prelude, and reports them without a value', () => {
  assert.deepEqual(parseMeta('title="a.ts" norun="runs until stopped"'), {norun: 'runs until stopped', problems: []});
  assert.deepEqual(parseMeta('prelude="adb"'), {prelude: ['adb'], problems: []});
  assert.deepEqual(parseMeta("prelude='adb, client adb'"), {prelude: ['adb', 'client'], problems: []});
  assert.match(parseMeta('norun=""').problems[0]!, /^norun needs a reason/);
  assert.match(parseMeta('norun').problems[0]!, /^norun needs a reason/);
  assert.match(parseMeta('prelude=" "').problems[0]!, /^prelude needs a name/);
  assert.deepEqual(parseMeta('title="x.ts" event="click button"'), {events: [{action: 'click', target: 'button'}], problems: []});
  assert.match(parseMeta('event="tap button"').problems[0]!, /^event="tap button": unknown action "tap"/);
});

test('parseEvents: actions and their arguments, several separated by ";", and what is malformed', () => {
  assert.deepEqual(
    parseEvents('click #devices button ; press Shift+KeyA;wheel canvas; right-click canvas; file input[type=file] app.apk'),
    {
      events: [
        {action: 'click', target: '#devices button'},
        {action: 'press', key: 'Shift+KeyA'},
        {action: 'wheel', target: 'canvas'},
        {action: 'right-click', target: 'canvas'},
        {action: 'file', target: 'input[type=file]', name: 'app.apk'},
      ],
    },
  );
  const problem = (value: string) => {
    const parsed = parseEvents(value);
    return 'problem' in parsed ? parsed.problem : 'ok';
  };
  assert.match(problem('click'), /click needs a CSS selector/);
  assert.match(problem('press'), /press needs one key/);
  assert.match(problem('press a b'), /press needs one key/);
  assert.match(problem('file app.apk'), /file needs a selector and a file name/);
  assert.match(problem(' ; '), /^event needs at least one event/);
  assert.equal(describeEvent({action: 'file', target: 'input', name: 'a.apk'}), '"file input a.apk"');
  assert.equal(describeEvent({action: 'press', key: 'KeyA'}), '"press KeyA"');
  assert.equal(describeEvent({action: 'wheel', target: 'canvas'}), '"wheel canvas"');
});

test('browser side: page markup from "// HTML:" lines, picked files, console lines, stack frames', () => {
  assert.equal(
    pageMarkup('// HTML: <canvas></canvas>\nconst c = 1; // HTML: not at the start\n  //HTML:<div id="a"></div>  \n'),
    '<canvas></canvas>\n<div id="a"></div>',
  );
  assert.equal(pageMarkup('// The canvas your player draws into\nconst canvas = document.querySelector("canvas");'), '');

  const apk = sampleFile('app-release.apk');
  assert.equal(apk.mimeType, 'application/vnd.android.package-archive');
  assert.equal(parseApk(new Uint8Array(apk.buffer))?.packageName, 'com.example.app');
  assert.deepEqual(sampleFile('notes.txt'), {name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Hello from Tango\n')});

  // Node's console formatting: strings bare at the top level, quoted inside arrays; format specifiers.
  assert.equal(formatConsoleLine(['decodable codecs:', ['av1', 'h264']], 'x'), "decodable codecs: [ 'av1', 'h264' ]");
  assert.equal(formatConsoleLine(['%s has %d', 'Pixel 7', 8, {a: 1n}], 'x'), 'Pixel 7 has 8 { a: 1n }');
  assert.equal(formatConsoleLine([], ''), '');
  assert.equal(formatConsoleLine(undefined, 'JSHandle@node'), 'JSHandle@node');

  const origin = 'http://127.0.0.1:4000';
  const text = `Error: boom\n    at connect (${origin}/out/b3.js:120:7)\n    at ${origin}/out/chunk-AB12.js:5:1\n    at http://127.0.0.1:5000/out/b3.js:1:1`;
  const mapped = mapStackFrames(text, origin, (file, line, column) =>
    file === '/out/b3.js' ? {file: '/run/web/b3.ts', line: line - 100, column} : undefined,
  );
  assert.equal(
    mapped,
    `Error: boom\n    at connect (/run/web/b3.ts:20:7)\n    at ${origin}/out/chunk-AB12.js:5:1\n    at http://127.0.0.1:5000/out/b3.js:1:1`,
  );
});

test('a "declare const adb: Adb;" line stands for the adb prelude; other stand-ins do not', () => {
  assert.deepEqual(standInPreludes('import type {Adb} from "@yume-chan/adb";\n\ndeclare const adb: Adb;\nawait adb.getProp("x");'), [
    'adb',
  ]);
  assert.deepEqual(standInPreludes('  declare  const adb : Adb\n'), ['adb']);
  assert.deepEqual(standInPreludes('declare const adb: Adb | undefined;'), []);
  assert.deepEqual(standInPreludes('declare const client: AdbServerClient;'), []);
  assert.deepEqual(standInPreludes('export function f(adb: Adb) {}'), []);
});

test('preludeProblems wants a known name, no declaration of its own and a visible comment line', () => {
  const good = '// adb: an Adb connected to your device (see "Connect to a device")\nconsole.log(await adb.getProp("ro.product.model"));';
  assert.deepEqual(preludeProblems(['adb'], good), []);
  assert.match(preludeProblems(['nope'], good)[0]!, /^prelude="nope" is not a known prelude \(adb, client\)/);
  const declared = preludeProblems(['adb'], `declare const adb: Adb;\n${good}`);
  assert.equal(declared.length, 1);
  assert.match(declared[0]!, /supplies adb: remove the block's own declaration/);
  assert.match(preludeProblems(['adb'], 'console.log(await adb.getProp("x"));')[0]!, /hides where adb comes from/);
  // The comment must name adb as a word, on a line of its own.
  assert.equal(preludeProblems(['adb'], '// adbd is the daemon\nawait adb.getProp("x");').length, 1);
  assert.equal(preludeProblems(['adb'], 'await adb.getProp("x"); // adb from above').length, 1);
});

test('withTypePreludes appends hidden declarations after the code; withRunPreludes keeps page lines', () => {
  const code = 'console.log(await adb.getProp("a"));\nconsole.log(1);';
  assert.equal(withTypePreludes(code, []), code);
  assert.equal(withTypePreludes(code, ['adb']), `${code}\ndeclare const adb: import("@yume-chan/adb").Adb;\n`);
  assert.equal(withTypePreludes(code, ['unknown']), code);

  const source = withRunPreludes(code, ['adb'], 12, './prelude-runtime.mjs');
  const lines = source.split('\n');
  assert.match(
    lines[0]!,
    /^import \{ connectSampleAdb as __sampleConnectAdb, closeSampleAdb as __sampleCloseAdb \} from "\.\/prelude-runtime\.mjs"; const adb = await __sampleConnectAdb\(\);$/,
  );
  // The fence is on page line 12, so the code's first line is line 13.
  assert.equal(lines[12], 'console.log(await adb.getProp("a"));');
  assert.equal(lines[13], 'console.log(1);');
  assert.equal(lines[14], 'await __sampleCloseAdb(adb);');
  const plain = withRunPreludes('x();', [], 1, './r.mjs').split('\n');
  assert.deepEqual(plain, ['', 'x();', '', '']);
});

const facts = (overrides: Partial<RunFacts> & {code?: string}): RunFacts => ({
  block: {code: overrides.code ?? 'console.log(1);', lang: 'ts'},
  meta: {problems: []},
  version: '2.0.0',
  target: '2.0.0',
  runnable: ['2.0.0'],
  browserRunnable: ['2.0.0'],
  invalid: false,
  failedTypeCheck: false,
  typeOnly: false,
  browser: [],
  ...overrides,
});

test('decideRun: the reasons not to run, in order, and the preludes, server and platform of a sample that runs', () => {
  const reason = (overrides: Partial<RunFacts> & {code?: string}) => {
    const decision = decideRun(facts(overrides));
    return decision.run ? 'run' : `${decision.kind}: ${decision.reason}`;
  };
  assert.equal(reason({invalid: true, meta: {partial: 'x', problems: []}}), 'invalid: its fence meta is malformed');
  assert.equal(
    reason({meta: {partial: 'shows the options only', norun: 'x', problems: []}, typeOnly: true}),
    'partial: shows the options only',
  );
  assert.equal(reason({failedTypeCheck: true, browser: ['document']}), 'type-check: it failed the type-check');
  assert.equal(
    reason({target: '1.1.0', meta: {version: '1.1.0', problems: []}}),
    `version: it shows version 1.1.0's code (version="1.1.0")`,
  );
  assert.equal(
    reason({version: '0.0.24', target: '0.0.24'}),
    'version: this run leaves out version 0.0.24 (run it with --run --version 0.0.24)',
  );
  assert.match(
    reason({version: '0.0.24', target: '0.0.24', runnable: ['0.0.24'], browser: ['document']}),
    /^browser: a browser sample: Chromium runs 2\.0\.0's only/,
  );
  assert.equal(reason({version: '0.0.24', target: '0.0.24', runnable: ['0.0.24']}), 'run');
  assert.equal(reason({meta: {norun: 'waits for Ctrl+C', problems: []}, typeOnly: true}), 'norun: waits for Ctrl+C');
  assert.equal(reason({typeOnly: true, browser: ['document']}), 'type-only: it only declares types');
  const click = [{action: 'click' as const, target: 'button'}];
  assert.match(
    reason({meta: {events: click, problems: []}}),
    /^invalid: event="…" drives a browser page, and this sample uses no browser API/,
  );

  const node = {
    server: false,
    platform: 'node',
    browser: [],
    events: [],
    actions: {interrupt: undefined, unplug: undefined},
    varies: false,
  };
  assert.deepEqual(decideRun(facts({code: 'declare const adb: Adb;\nawait adb.getProp("x");'})), {
    run: true,
    preludes: ['adb'],
    standIn: true,
    ...node,
  });
  assert.deepEqual(decideRun(facts({meta: {prelude: ['adb'], problems: []}, code: '// adb: from above\nawait adb.getProp("x");'})), {
    run: true,
    preludes: ['adb'],
    standIn: false,
    ...node,
  });
  // varies="…": the output is compared with its numbers masked.
  assert.deepEqual(
    decideRun(facts({meta: {varies: "top's figures", problems: []}, code: 'declare const adb: Adb;\nawait adb.getProp("x");'})),
    {
      run: true,
      preludes: ['adb'],
      standIn: true,
      ...node,
      varies: true,
    },
  );
  const server = decideRun(facts({code: 'new AdbServerClient(new AdbServerNodeTcpConnector({host: "127.0.0.1", port: 5037}));'}));
  assert.deepEqual(server, {run: true, preludes: [], standIn: false, ...node, server: true});

  // interrupt= and unplug= act on a Node.js process; unplug= needs Google's ADB server.
  const serverCode = 'new AdbServerClient(new AdbServerNodeTcpConnector({host: "127.0.0.1", port: 5037}));';
  assert.deepEqual(decideRun(facts({code: serverCode, meta: {unplug: 'Unplug it', interrupt: 'ready', problems: []}})), {
    ...server,
    actions: {interrupt: 'ready', unplug: 'Unplug it'},
  });
  assert.match(reason({meta: {unplug: 'Unplug it', problems: []}}), /^invalid: unplug="…" disconnects the device from Google's ADB server/);
  assert.match(
    reason({browser: ['document'], meta: {interrupt: 'ready', problems: []}}),
    /^invalid: interrupt="…" and unplug="…" act on a Node\.js process/,
  );

  // Browser samples run in Chromium, with their events; never with Google's ADB server.
  assert.deepEqual(
    decideRun(facts({browser: ['document', 'window'], meta: {events: click, problems: []}, code: 'fetch("http://x:5037")'})),
    {
      run: true,
      preludes: [],
      standIn: false,
      server: false,
      platform: 'browser',
      browser: ['document', 'window'],
      events: click,
      actions: {interrupt: undefined, unplug: undefined},
      varies: false,
    },
  );
  const jsx = decideRun(facts({block: {code: 'export const A = () => null;', lang: 'tsx'}}));
  assert.deepEqual(jsx.run && [jsx.platform, jsx.browser], ['browser', ['JSX']]);
});

test('needsAdbServer: port 5037, the Node.js server connector, or the adb command', () => {
  assert.equal(needsAdbServer('connect(5037, "127.0.0.1")'), true);
  assert.equal(needsAdbServer('new AdbServerNodeTcpConnector({host: "localhost", port})'), true);
  assert.equal(needsAdbServer('await run("adb", ["shell", "getprop"]);'), true);
  assert.equal(needsAdbServer("execFile('adb', ['devices'])"), true);
  assert.equal(needsAdbServer('declare const adb: Adb; await adb.getProp("x"); // port 50370'), false);
  assert.equal(needsAdbServer('console.log("adb")'), false);
});

test('isTypeOnly: declarations only, or anything that runs', () => {
  const typeOnly = (code: string) => isTypeOnly(ts.createSourceFile('x.ts', code, ts.ScriptTarget.ES2022, true));
  assert.equal(typeOnly('import type {Adb} from "@yume-chan/adb";\ninterface A {x: number}\ntype B = A["x"];\nexport type {A};'), true);
  assert.equal(
    typeOnly('declare class Adb {\n  getProp(key: string): Promise<string>;\n}\ndeclare const x: number;\ndeclare function f(): void;'),
    true,
  );
  assert.equal(typeOnly('export declare namespace N {\n  type T = string;\n}\nexport declare class C {}'), true);
  assert.equal(typeOnly('// only a comment'), true);
  assert.equal(typeOnly('declare const adb: Adb;\nawait adb.getProp("x");'), false);
  assert.equal(typeOnly('export function f() {}'), false);
  assert.equal(typeOnly('export default {a: 1};'), false);
  assert.equal(typeOnly('enum E {A}'), false);
});

test('browserApis: browser-only globals (by the running Node.js), WebUSB members and the library browser packages', () => {
  const cases: Array<{code: string; hasGlobal?: (name: string) => boolean; want: string[]}> = [
    {code: 'console.log(document.title);', want: ['document']},
    {code: 'declare const element: HTMLElement;\nelement.focus();', want: ['HTMLElement']},
    {code: 'const response = await fetch(new URL("https://example.com/"));\nconsole.log(response.body, new TextEncoder());', want: []},
    {
      code: 'const socket = new WebSocket("ws://localhost");\nsocket.close();',
      hasGlobal: (name) => name !== 'WebSocket',
      want: ['WebSocket'],
    },
    {code: 'const socket = new WebSocket("ws://localhost");\nsocket.close();', hasGlobal: () => true, want: []},
    {code: 'const document = {title: "local"};\nconsole.log(document.title);', hasGlobal: (name) => name !== 'document', want: []},
    {code: 'declare const nav: Navigator;\nawait nav.usb.getDevices();', want: ['Navigator', 'nav.usb']},
    {code: 'declare const device: USBDevice;\nawait device.close();', want: ['USBDevice']},
    {
      code: 'import {AdbDaemonWebUsbDeviceManager, AdbDefaultInterfaceFilter} from "@yume-chan/adb-daemon-webusb";\nconsole.log(AdbDaemonWebUsbDeviceManager.BROWSER, AdbDefaultInterfaceFilter);',
      want: ['AdbDaemonWebUsbDeviceManager (WebUSB)', 'AdbDaemonWebUsbDeviceManager.BROWSER'],
    },
  ];
  const dir = fs.mkdtempSync(path.join(REPO, 'node_modules', '.cache', 'run-samples-test-'));
  try {
    const blocks = cases.map(({code}) => block(code));
    const found = new Map<SampleBlock, string[]>();
    const {failures} = checkTypes(blocks, LIBRARIES['2.0.0']!, dir, (item, source, checker) => {
      found.set(item, browserApis(source, checker, cases[blocks.indexOf(item)]!.hasGlobal));
    });
    assert.deepEqual(
      failures.map((failure) => failure.message),
      [],
    );
    cases.forEach(({code, want}, index) => assert.deepEqual(found.get(blocks[index]!), want, code));
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});

test('recordNames: titles, block-N without one, other characters made safe, repeats numbered', () => {
  const blocks = [
    block('a', 'title="list.ts"'),
    block('b'),
    block('c', "title='server/main.ts' {1,3}"),
    block('d', 'title="list.ts" partial="x"'),
    block('e', 'title="ScrcpyOptions3_1 (excerpt)"'),
    block('f', 'title="list.ts"'),
  ];
  assert.deepEqual(
    [...recordNames(blocks).values()],
    ['list.ts', 'block-2', 'server-main.ts', 'list.ts-2', 'ScrcpyOptions3_1-excerpt', 'list.ts-3'],
  );
  assert.equal(recordPath('2.0.0', 'api/adb/rm.mdx', 'clean-up.ts'), 'samples/recorded/2.0.0/api/adb/rm/clean-up.ts.txt');
  assert.equal(recordPath('2.0.0', 'tango/index.md', 'block-1'), 'samples/recorded/2.0.0/tango/index/block-1.txt');
});

test('normalizeOutput: paths, ports, host times, durations, ids, versions and stack frames', () => {
  const run = '/repo/node_modules/.cache/samples-run-AbC123';
  const context = {
    replacements: [
      [`${run}/src/3.ts`, 'docs/api/page.mdx'],
      [run, '<run>'],
      ['/repo', '<root>'],
    ] as Array<[string, string]>,
    ports: [41234],
    now: Date.UTC(2025, 5, 1, 10, 0, 0),
  };
  const text = [
    `file://${run}/src/3.ts:14`,
    `${run}/cwd/3/screen.png and /repo/node_modules/@tango-v2/adb/esm/index.js`,
    'serial 127.0.0.1:41234, client localhost:51000, server 127.0.0.1:5037, device port 41234',
    'host 2025-06-01T09:59:58.123Z, device 2024-03-01T12:00:00.000Z',
    'took 12ms, then 3.5 ms; duration_ms 45.2',
    'socket localabstract:scrcpy_1a2b3c4d',
    'transport 3, transportId: 12n, transport_id:7',
    'Node.js v20.20.2',
    'Error: boom',
    '    at f (file:///repo/a.js:1:1)',
    '    at g (node:internal/x:2:2)',
    'after\r\n',
    'typed\r\r\n',
  ].join('\n');
  const expected = [
    'docs/api/page.mdx:14',
    '<run>/cwd/3/screen.png and <root>/node_modules/@tango-v2/adb/esm/index.js',
    'serial 127.0.0.1:<port>, client localhost:<port>, server 127.0.0.1:5037, device port <port>',
    'host <now>, device 2024-03-01T12:00:00.000Z',
    'took <n> ms, then <n> ms; duration_ms <n>',
    'socket localabstract:scrcpy_<scid>',
    'transport <id>, transportId: <id>n, transport_id:<id>',
    'Node.js <version>',
    'Error: boom',
  ];
  assert.equal(normalizeOutput(text, context), [...expected, '    at …', 'after\n', 'typed\n'].join('\n'));
  assert.equal(
    normalizeOutput(text, {...context, frames: 'first'}),
    [...expected, '    at f (<root>/a.js:1:1)', '    at …', 'after\n', 'typed\n'].join('\n'),
  );
  // A single frame is kept as it is with `first`.
  assert.equal(normalizeOutput('E\n    at x (y:1:1)\n', {frames: 'first'}), 'E\n    at x (y:1:1)\n');
});

test('formatRecord keeps stdout and stderr apart; compareRecord names the first difference', () => {
  assert.equal(formatRecord('', ''), '');
  assert.equal(formatRecord('a\nb', ''), 'a\nb\n');
  assert.equal(formatRecord('', 'oops\n'), '--- stderr ---\noops\n');
  assert.equal(formatRecord('out\n', 'err'), 'out\n--- stderr ---\nerr\n');
  assert.equal(compareRecord('a\nb\n', 'a\nb\n'), undefined);
  assert.equal(compareRecord('a\nb\n', 'a\nc\n'), 'line 2: recorded "b", printed "c"');
  assert.equal(compareRecord('a\n', 'a\nb\n'), 'line 2: recorded "", printed "b"');
  assert.equal(compareRecord('a\nb\nc', 'a\nb'), 'line 3: missing: "c"');
  assert.equal(compareRecord('a', 'a\nb'), 'line 2: not in the recording: "b"');
  // maskNumbers: figures and the spaces that pad them differ, the words may not.
  assert.equal(
    compareRecord('Mem:  7675716K total\n', 'Mem:    24105M total\n', {maskNumbers: true}),
    'line 1: recorded "Mem:#K total", printed "Mem:#M total"',
  );
  assert.equal(compareRecord('Tasks: 786 total,   1 running\n', 'Tasks: 20 total,  12 running\n', {maskNumbers: true}), undefined);
  assert.equal(
    compareRecord('Tasks: 786 total\n', 'Threads: 786 total\n', {maskNumbers: true}),
    'line 1: recorded "Tasks:# total", printed "Threads:# total"',
  );
});

test('waitsOnTimer: a literal setTimeout delay of a second or more, wherever the callback has parentheses', () => {
  assert.equal(waitsOnTimer('setTimeout(() => void process.kill(), 10_000);'), true);
  assert.equal(waitsOnTimer('setTimeout(() => controller.abort(), 3000);'), true);
  assert.equal(waitsOnTimer('await new Promise((resolve) => setTimeout(resolve, 500));'), false);
  assert.equal(waitsOnTimer('setTimeout(stop, delay);'), false);
  assert.equal(waitsOnTimer('console.log(1000);'), false);
});

test('caughtReferenceError: a stand-in error printed by a catch still fails the sample', () => {
  assert.match(
    caughtReferenceError("--- stderr ---\nCan't list devices ReferenceError: client is not defined\n")!,
    /"ReferenceError: client is not defined"/,
  );
  assert.equal(caughtReferenceError('ReferenceError is a class\n'), undefined);
  assert.equal(caughtReferenceError('Model: Pixel 7\n'), undefined);
});

/** Writes `files` (relative path → content) under a new temporary folder and returns that folder. */
function makeTree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'run-samples-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), {recursive: true});
    fs.writeFileSync(path.join(root, name), content);
  }
  return root;
}

const fence = (meta: string, code: string) => `\`\`\`ts${meta ? ' ' + meta : ''}\n${code}\n\`\`\``;

/** A browser sample that prints what storage its origin holds, then leaves some behind. */
const STORAGE_SAMPLE = [
  'const databases = await indexedDB.databases();',
  'console.log("found", localStorage.length, sessionStorage.length, databases.length);',
  'localStorage.setItem("left", "behind");',
  'sessionStorage.setItem("left", "behind");',
  'await new Promise((resolve, reject) => {',
  '    const request = indexedDB.open("left-behind");',
  '    request.onsuccess = () => resolve(request.result.close());',
  '    request.onerror = () => reject(request.error);',
  '});',
].join('\n');

test('--run: a small site against the simulated device, recorded, compared, and its failures reported', async (t) => {
  const page = [
    '# Samples',
    fence(
      'title="model.ts"',
      'import type { Adb } from "@yume-chan/adb";\n\ndeclare const adb: Adb;\n\nconsole.log("Model:", await adb.getProp("ro.product.model"));',
    ),
    fence(
      'title="prelude.ts" prelude="adb"',
      '// adb: an Adb connected to your device\nconst sdk = await adb.getProp("ro.build.version.sdk");\nconsole.error("SDK", sdk);',
    ),
    fence('title="never.ts"', 'await new Promise<void>(() => {});\nconsole.log("not printed");'),
    fence('title="stand-in.ts"', 'declare const client: { getVersion(): Promise<number> };\n\nconsole.log(await client.getVersion());'),
    fence('title="forever.ts" norun="runs until it is stopped"', 'setInterval(() => {}, 1000);'),
    fence('title="types.ts"', 'import type { Adb } from "@yume-chan/adb";\n\nexport type Model = Awaited<ReturnType<Adb["getProp"]>>;'),
    fence(
      'title="page.ts" event="click button"',
      [
        'const button = document.createElement("button");',
        'button.addEventListener("click", async () => {',
        '    const device = await navigator.usb.requestDevice({ filters: [] });',
        '    console.log("picked", [device.productName]);',
        '});',
        'document.body.append(button);',
        'console.warn("ready");',
      ].join('\n'),
    ),
    fence('title="throws.ts"', 'document.title = "x";\nthrow new Error("boom");'),
    // A module another sample imports runs inside that sample's program, with no recording of its own.
    fence('title="greet.ts"', 'export function greet(name: string): void {\n    console.log(`Hello, ${name}`);\n}'),
    fence('title="use-greet.ts"', 'import { greet } from "./greet.js";\n\ngreet("Pixel 7");'),
    // A tab runs one browser sample after another: each must find the origin's storage empty.
    ...[1, 2, 3].map((n) => fence(`title="storage-${n}.ts"`, STORAGE_SAMPLE)),
    '',
  ].join('\n\n');
  const root = makeTree({'docs/samples.mdx': page, 'samples/recorded/2.0.0/old/gone.txt': 'stale\n'});
  t.after(() => fs.rmSync(root, {recursive: true, force: true}));
  const output: string[] = [];
  t.mock.method(console, 'log', (...args: unknown[]) => output.push(args.join(' ')));

  assert.equal(await main(['--root', root, '--no-newest', '--record', '--list-not-run']), 1);
  const record = (name: string) => fs.readFileSync(path.join(root, 'samples/recorded/2.0.0/samples', `${name}.txt`), 'utf8');
  assert.equal(record('model.ts'), 'Model: Pixel 7\n');
  assert.equal(record('prelude.ts'), '--- stderr ---\nSDK 34\n');
  assert.equal(fs.existsSync(path.join(root, 'samples/recorded/2.0.0/samples/never.ts.txt')), false, 'a failing sample gets no recording');
  assert.equal(record('use-greet.ts'), 'Hello, Pixel 7\n');
  assert.equal(
    fs.existsSync(path.join(root, 'samples/recorded/2.0.0/samples/greet.ts.txt')),
    false,
    'an imported module gets no recording',
  );
  assert.equal(fs.existsSync(path.join(root, 'samples/recorded/2.0.0/old')), false, 'a stale recording and its folder are deleted');
  const text = output.join('\n');
  assert.match(text, /(?:^|\/)docs\/samples\.mdx:\d+ forever\.ts: not run \(norun\): runs until it is stopped$/m);
  assert.match(text, /(?:^|\/)docs\/samples\.mdx:\d+ types\.ts: not run \(type-only\): it only declares types$/m);
  assert.match(text, /(?:^|\/)docs\/samples\.mdx:\d+ never\.ts: exit code 13: a top-level await never settled/m);
  assert.match(text, /(?:^|\/)docs\/samples\.mdx:\d+ stand-in\.ts: exit code 1 \(error at line \d+\)$/m);
  assert.match(text, /^ {4}\| ReferenceError: client is not defined$/m);
  // The browser samples: a click with a user gesture (the picker answered), and an uncaught error at its page line.
  assert.equal(record('page.ts'), "picked [ 'Pixel 7' ]\n--- stderr ---\nready\n");
  for (const n of [1, 2, 3]) assert.equal(record(`storage-${n}.ts`), 'found 0 0 0\n', `storage-${n}.ts`);
  const throwsAt = page.split('\n').findIndex((line) => line === 'throw new Error("boom");') + 1;
  assert.match(
    text,
    new RegExp(`docs/samples\\.mdx:\\d+ throws\\.ts: uncaught error in the page: Error: boom \\(error at line ${throwsAt}\\)$`, 'm'),
  );
  assert.match(text, new RegExp(`^ {4}\\| {5}at .*docs/samples\\.mdx:${throwsAt}:\\d+`, 'm'));
  assert.match(text, /^samples\/recorded\/2\.0\.0\/old\/gone\.txt: deleted/m);
  assert.match(
    text,
    /^2\.0\.0 \(.*docs\/\): run 11: 8 passed, 3 failed \(in Chromium: 4 passed, 1 failed\); 2 not run \(type-only 1, norun 1\); 1 get adb from their own "declare const adb: Adb;"/m,
  );
  assert.match(text, /^samples run: 8 passed, 3 failed, 2 not run$/m);
  assert.match(
    text,
    /^run: 10 samples of 2\.0\.0 \(5 in Node\.js, 5 in Chromium\), 3 at a time \(2 more for those waiting on a timer\), in [\d.]+ s$/m,
  );

  // Compared, not written: a changed recording fails, with the first difference.
  output.length = 0;
  fs.writeFileSync(path.join(root, 'samples/recorded/2.0.0/samples/model.ts.txt'), 'Model: Pixel 8\n');
  assert.equal(await main(['--root', root, '--no-newest', '--run', '--only', 'samples.mdx']), 1);
  assert.match(
    output.join('\n'),
    /model\.ts: output differs from samples\/recorded\/2\.0\.0\/samples\/model\.ts\.txt: line 1: recorded "Model: Pixel 8", printed "Model: Pixel 7"/,
  );
  assert.equal(record('model.ts'), 'Model: Pixel 8\n');
});
