import {test} from 'node:test';
import assert from 'node:assert/strict';
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {format} from 'node:util';
import {main} from '../../scripts/samples/check.ts';
import {extractBlocks, MdxParseError, parseMeta} from '../../scripts/samples/extract.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCRIPT = path.join(REPO, 'scripts', 'samples', 'check.ts');

/**
 * Runs the checker's `main` in this process with `args`, as `npm run check:samples -- ARGS` runs
 * it from the repository folder, and returns its exit code and what it printed (console.log lines
 * as `stdout`, console.error lines as `stderr`; `last` is the last stdout line). In-process, the
 * checks share TypeScript and its parsed lib files (typecheck.ts): 6 s a run as a process.
 */
async function runChecker(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const {log, error} = console;
  console.log = (...parts: unknown[]) => void out.push(format(...parts));
  console.error = (...parts: unknown[]) => void err.push(format(...parts));
  let status: number;
  try {
    status = await main(args);
  } finally {
    Object.assign(console, {log, error});
  }
  const stdout = out.map((line) => `${line}\n`).join('');
  return {status, stdout, stderr: err.map((line) => `${line}\n`).join(''), last: out.at(-1)?.split('\n').at(-1)};
}

/** Writes `files` (relative path → content) under a new temporary folder and returns that folder. */
function makeTree(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'check-samples-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), {recursive: true});
    fs.writeFileSync(path.join(root, name), content);
  }
  return root;
}

const fence = (meta: string, code: string, lang = 'ts') => `\`\`\`${lang}${meta ? ' ' + meta : ''}\n${code}\n\`\`\``;

const CONNECT_2 = `import {Adb, AdbServerClient} from '@yume-chan/adb';
import {AdbServerNodeTcpConnector} from '@yume-chan/adb-server-node-tcp';

const client = new AdbServerClient(new AdbServerNodeTcpConnector({host: '127.0.0.1', port: 5037}));
const devices: AdbServerClient.Device[] = await client.getDevices();
const device = devices[0];
if (!device) throw new Error('No device');
const adb: Adb = new Adb(await client.createTransport(device));
console.log(adb.serial, AdbServerClient.parseDeviceList(''));`;

// An Adb from @yume-chan/adb passed to @yume-chan/adb-scrcpy: only type-checks when both packages
// see the same copy of @yume-chan/adb (npm nests a newer one under @tango-v2/adb-scrcpy).
const SCRCPY_2 = `import type {Adb} from '@yume-chan/adb';
import {AdbScrcpyClient, AdbScrcpyOptionsLatest} from '@yume-chan/adb-scrcpy';
import {DefaultServerPath} from '@yume-chan/scrcpy';

export async function start(adb: Adb) {
  return AdbScrcpyClient.start(adb, DefaultServerPath, new AdbScrcpyOptionsLatest({audio: false}));
}`;

const COUNTER_TSX = `import {useState} from 'react';

export function Counter() {
  const [count, setCount] = useState(0);
  return <button onClick={() => setCount(count + 1)}>{count}</button>;
}`;

const TRACK_0 = `import {AdbServerClient} from '@yume-chan/adb';
import {AdbServerNodeTcpConnector} from '@yume-chan/adb-server-node-tcp';

const client = new AdbServerClient(new AdbServerNodeTcpConnector({host: '127.0.0.1', port: 5037}));
for await (const devices of client.trackDevices()) {
  console.log(devices.map((device) => device.serial));
}`;

const FIXTURE: Record<string, string> = {
  'versions.json': JSON.stringify(['1.1.0', '0.0.24']),
  'docs/connect.mdx': [
    '---',
    'title: Connect {to a server',
    '---',
    '',
    'import Tabs from "@theme/Tabs";',
    '',
    '## Connect {#connect}',
    '',
    '<!-- Docusaurus accepts HTML comments and heading IDs; plain MDX rejects both. -->',
    '',
    fence('title="connect.ts"', CONNECT_2),
    '',
    ':::note{.custom}',
    '',
    '<Tabs>',
    '',
    fence('', SCRCPY_2),
    '',
    '</Tabs>',
    '',
    ':::',
    '',
    fence('showLineNumbers', COUNTER_TSX, 'tsx'),
    '',
  ].join('\n'),
  'docs/guides/errors.md': [
    '# Errors',
    '',
    '1. A step',
    '',
    '   ```typescript {2}',
    "   import {AdbServerClient} from '@yume-chan/adb';",
    '   declare const client: AdbServerClient;',
    '   const version: string = await client.getVersion();',
    '   ```',
    '',
    fence('partial="continues the block above"', 'await adb.reboot();'),
    '',
    fence('partial', 'await adb.reboot();'),
    '',
    fence('version="0.0.24" title="Before"', TRACK_0),
    '',
    '```js',
    'this is not checked',
    '```',
    '',
  ].join('\n'),
  'docs/broken.mdx': '# Broken\n\n<Tabs>\n\nno closing tag\n',
  'versioned_docs/version-1.1.0/intro.md': [
    '# Intro',
    '',
    fence('', 'const adb = await connect(;'),
    '',
    fence('', "import {Adb} from '@yume-chan/adb';\nexport function serial(adb: Adb): string {\n  return adb.serial;\n}"),
    '',
  ].join('\n'),
  'versioned_docs/version-0.0.24/track.mdx': [
    '# Track devices',
    '',
    fence('', TRACK_0),
    '',
    fence('', "import {AdbServerClient} from '@yume-chan/adb';\nconsole.log(AdbServerClient.parseDeviceList(''));"),
    '',
  ].join('\n'),
};

test('parseMeta reads partial and version and ignores other words', () => {
  assert.deepEqual(parseMeta('title="a partial view" partial="needs adb" {1,3-4} showLineNumbers'), {
    partial: 'needs adb',
    problems: [],
  });
  assert.deepEqual(parseMeta("partial='uses adb from above'"), {partial: 'uses adb from above', problems: []});
  assert.deepEqual(parseMeta('version="0.0.24" title="Before"'), {version: '0.0.24', problems: []});
  assert.deepEqual(parseMeta('interrupt="devices ready" unplug="Unplug it"'), {
    interrupt: 'devices ready',
    unplug: 'Unplug it',
    problems: [],
  });
  assert.deepEqual(parseMeta('newer="AdbBanner changed"'), {newer: 'AdbBanner changed', problems: []});
  assert.deepEqual(parseMeta(undefined), {problems: []});
  assert.deepEqual(parseMeta('title="partial" showLineNumbers'), {problems: []});
});

test('parseMeta reports partial without a reason and version without a value', () => {
  for (const meta of ['partial', 'partial=""', "partial='  '", 'title="x" partial']) {
    const {partial, problems} = parseMeta(meta);
    assert.equal(partial, undefined, meta);
    assert.equal(problems.length, 1, meta);
    assert.match(problems[0]!, /^partial needs a reason/, meta);
  }
  assert.match(parseMeta('version=""').problems[0]!, /^version needs/);
});

test('extractBlocks finds ts, tsx and typescript blocks with their page positions', () => {
  const blocks = extractBlocks(FIXTURE['docs/guides/errors.md']!, 'errors.md');
  assert.deepEqual(
    blocks.map(({line, column, lang, meta}) => ({line, column, lang, meta})),
    [
      {line: 5, column: 4, lang: 'typescript', meta: '{2}'},
      {line: 11, column: 1, lang: 'ts', meta: 'partial="continues the block above"'},
      {line: 15, column: 1, lang: 'ts', meta: 'partial'},
      {line: 19, column: 1, lang: 'ts', meta: 'version="0.0.24" title="Before"'},
    ],
  );
  assert.equal(blocks[0]!.code.split('\n')[0], "import {AdbServerClient} from '@yume-chan/adb';");
  assert.ok(blocks.every((block) => block.file === 'errors.md'));
});

test('extractBlocks parses pages as Docusaurus does: front matter, heading IDs, comments, admonitions, JSX', () => {
  const blocks = extractBlocks(FIXTURE['docs/connect.mdx']!, 'connect.mdx');
  assert.deepEqual(
    blocks.map(({line, lang}) => [line, lang]),
    [
      [11, 'ts'],
      [27, 'ts'],
      [41, 'tsx'],
    ],
  );
});

test('extractBlocks throws MdxParseError naming the file', () => {
  assert.throws(
    () => extractBlocks(FIXTURE['docs/broken.mdx']!, 'docs/broken.mdx'),
    (error: unknown) => error instanceof MdxParseError && error.message.startsWith('docs/broken.mdx:3:1 cannot parse as MDX'),
  );
});

test('the checker reports each failing block and exits 1', async () => {
  const root = makeTree(FIXTURE);
  try {
    const {status, stdout, last} = await runChecker('--root', root, '--no-newest');
    const rel = (file: string) => path.relative(REPO, path.join(root, file)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    assert.equal(last, 'samples: 9 type-checked, 0 syntax-only, 1 opted out, 5 failed', stdout);
    assert.equal(status, 1);
    // The 2.0.0 type error, at its position in the page (indented list item, after the fence line).
    assert.match(
      stdout,
      new RegExp(`^${rel('docs/guides/errors.md')}:8:10 TS2322: Type 'number' is not assignable to type 'string'\\.$`, 'm'),
    );
    assert.match(stdout, new RegExp(`^${rel('docs/guides/errors.md')}:15:1 partial needs a reason`, 'm'));
    assert.match(stdout, new RegExp(`^${rel('docs/broken.mdx')}:3:1 cannot parse as MDX: Expected a closing tag for \`<Tabs>\``, 'm'));
    assert.match(stdout, new RegExp(`^${rel('versioned_docs/version-1.1.0/intro.md')}:4:27 TS1005: '\\)' expected\\.$`, 'm'));
    // A 2.0.0-only API (static parseDeviceList) fails against 0.0.24.
    assert.match(stdout, new RegExp(`^${rel('versioned_docs/version-0.0.24/track.mdx')}:15:29 TS2339: .*parseDeviceList`, 'm'));
    // The 1.1.0 sample with a syntax error also has a type error (connect is not declared).
    assert.match(stdout, new RegExp(`^${rel('versioned_docs/version-1.1.0/intro.md')}:4:19 TS2304: Cannot find name 'connect'\\.$`, 'm'));
    assert.equal(stdout.match(/TS\d+/g)?.length, 4, stdout);
  } finally {
    fs.rmSync(root, {recursive: true, force: true});
  }
});

test("1.x samples are type-checked against that version's sources: wrong ones fail, right ones pass", async () => {
  // Wrong against the 1.0.0 sources: a misspelt method, a Promise used without await (trackDevices
  // returns Promise<DeviceObserver> in 1.0.0), and a class that only 1.1.0 has.
  const wrong = [
    "import {Adb, AdbServerClient} from '@yume-chan/adb';",
    "import {WebGLVideoFrameRenderer} from '@yume-chan/scrcpy-decoder-webcodecs';",
    'export async function run(adb: Adb, client: AdbServerClient) {',
    "  console.log(await adb.getProperty('ro.product.model'));",
    '  const observer = client.trackDevices();',
    '  observer.stop();',
    '  return WebGLVideoFrameRenderer;',
    '}',
  ].join('\n');
  // Right against the 1.0.0 sources, and wrong against 2.x (the renderer was renamed in 1.1.0).
  const right = [
    "import {Adb, AdbServerClient} from '@yume-chan/adb';",
    "import {WebGLWebCodecsDecoderRenderer} from '@yume-chan/scrcpy-decoder-webcodecs';",
    'export async function run(adb: Adb, client: AdbServerClient) {',
    "  console.log(await adb.getProp('ro.product.model'));",
    '  const observer = await client.trackDevices();',
    '  observer.stop();',
    '  return WebGLWebCodecsDecoderRenderer;',
    '}',
  ].join('\n');
  const root = makeTree({
    'versions.json': JSON.stringify(['1.0.0']),
    'versioned_docs/version-1.0.0/a.md': `${fence('', wrong)}\n\n${fence('', right)}\n`,
  });
  try {
    const {status, stdout, last} = await runChecker('--root', root, '--version', '1.0.0');
    assert.equal(last, 'samples: 2 type-checked, 0 syntax-only, 0 opted out, 1 failed', stdout);
    assert.equal(status, 1);
    const rel = path.relative(REPO, path.join(root, 'versioned_docs/version-1.0.0/a.md')).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    assert.match(
      stdout,
      new RegExp(
        `^${rel}:3:9 TS2305: Module '"@yume-chan/scrcpy-decoder-webcodecs"' has no exported member 'WebGLVideoFrameRenderer'`,
        'm',
      ),
    );
    assert.match(stdout, new RegExp(`^${rel}:5:25 TS2339: Property 'getProperty' does not exist on type 'Adb'`, 'm'));
    assert.match(stdout, new RegExp(`^${rel}:7:12 TS2339: Property 'stop' does not exist on type 'Promise<DeviceObserver>'`, 'm'));
    assert.equal(stdout.match(/TS\d+/g)?.length, 3, stdout);
  } finally {
    fs.rmSync(root, {recursive: true, force: true});
  }
});

test('the checker exits 0 when nothing fails; a version with no library is checked for syntax', async () => {
  const root = makeTree({
    'versions.json': JSON.stringify(['1.1.0', '0.0.1']),
    'docs/a.mdx': fence('partial="shows one call"', 'await adb.reboot();'),
    'versioned_docs/version-1.1.0/a.md': fence('', 'export const answer: number = 42;'),
    'versioned_docs/version-0.0.1/a.md': fence('', 'export const answer = 42;'),
  });
  try {
    const {status, stdout, last} = await runChecker('--root', root, '--no-newest');
    assert.match(stdout, /^0\.0\.1: no library to type-check against/m);
    assert.equal(last, 'samples: 1 type-checked, 1 syntax-only, 1 opted out, 0 failed', stdout);
    assert.equal(status, 0);
  } finally {
    fs.rmSync(root, {recursive: true, force: true});
  }
});

test('the checker prints its usage on --help, and on bad arguments exits 2 from the command line', async () => {
  const help = await runChecker('--help');
  assert.equal(help.status, 0);
  assert.match(
    help.stdout,
    /^Usage: tsx scripts\/samples\/check\.ts \[--root DIR\] \[--version X\] \[--run\] \[--record\] \[--list-not-run\] \[--no-newest\] \[--only TEXT\]… \[--browser\]$/m,
  );
  // As a process, the way npm runs it: main's code becomes the exit code.
  const bad = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, '--nope'], {cwd: REPO, encoding: 'utf8'});
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /Usage: tsx scripts\/samples\/check\.ts/);
});

test('main rejects a missing --root value, extra arguments and a --root that is not a folder', async (t) => {
  const stderr = t.mock.method(console, 'error', () => {});
  for (const args of [['--root'], ['extra'], ['--root', path.join(os.tmpdir(), 'no-such-check-samples-dir')]]) {
    assert.equal(await main(args), 2, args.join(' '));
    assert.match(String(stderr.mock.calls.at(-1)?.arguments[0]), /\nUsage: tsx scripts\/samples\/check\.ts/, args.join(' '));
  }
});

test('a block that only declares types may declare only names the library (or the platform) has', async () => {
  const invented = [
    'import type {AdbServerClient} from "@yume-chan/adb";',
    'interface RequestDevice {',
    '  (filters?: USBDeviceFilter[]): Promise<unknown>;',
    '}',
    'declare function pushServer(adb: unknown): Promise<void>;',
    'export type Serial = AdbServerClient.Device["serial"];',
  ].join('\n');
  const real = [
    'declare class AdbSync {',
    '  stat(path: string): Promise<unknown>;',
    '}',
    'interface ReadableStream<R> {',
    '  readonly locked: boolean;',
    '}',
  ].join('\n');
  const sample = [
    'import {Adb} from "@yume-chan/adb";',
    'interface Options {',
    '  adb: Adb;',
    '}',
    'export const options: Options | undefined = undefined;',
  ].join('\n');
  const root = makeTree({'docs/a.md': `${fence('', invented)}\n\n${fence('', real)}\n\n${fence('', sample)}\n`});
  try {
    const {status, stdout, last} = await runChecker('--root', root, '--no-newest');
    assert.equal(last, 'samples: 3 type-checked, 0 syntax-only, 0 opted out, 1 failed', stdout);
    assert.equal(status, 1);
    const rel = path.relative(REPO, path.join(root, 'docs/a.md')).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // The interface and the free function are invented; the computed type alias is a sample.
    assert.match(stdout, new RegExp(`^${rel}:3:11 signature: "RequestDevice" is exported by no @yume-chan package`, 'm'));
    assert.match(stdout, new RegExp(`^${rel}:6:18 signature: "pushServer" is exported by no @yume-chan package`, 'm'));
    assert.equal(stdout.match(/signature:/g)?.length, 2, stdout);
  } finally {
    fs.rmSync(root, {recursive: true, force: true});
  }
});
