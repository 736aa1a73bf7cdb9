/**
 * The README's "Adding a version", done in a temporary copy of the project: freeze the version
 * docs/ documents with `docusaurus docs:version`, then start documenting a newer release by raising
 * CURRENT_VERSION and adding its library in src/versions/index.ts. After each step the copy's config,
 * its category and config unit tests, and its code-sample check agree with the new layout.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {CURRENT_VERSION, RELEASED_VERSIONS} from '../../../src/versions/index.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The pages whose samples the copy's check type-checks: a guide page and an API page, each with samples. */
const CHECKED_PAGES = ['/tango/server/devices.mdx', '/api/adb/sync/read.mdx'];

/** Copies the files git tracks or would track (the working tree, not node_modules or build/) to `dest`. */
function copyProject(dest: string) {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {cwd: REPO, encoding: 'utf8'})
    .split('\0')
    .filter((file) => file !== '' && fs.existsSync(path.join(REPO, file)));
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(dest, file)), {recursive: true});
    fs.copyFileSync(path.join(REPO, file), path.join(dest, file));
  }
  fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(dest, 'node_modules'));
}

/** Runs a command in the copy and returns its output; fails the test with the output on a non-zero exit. */
function runIn(cwd: string, command: string, args: string[]): string {
  // Without NODE_TEST_CONTEXT, a nested `node --test` reports in TAP instead of to this runner.
  const {NODE_TEST_CONTEXT: _, ...env} = process.env;
  const result = spawnSync(command, args, {cwd, encoding: 'utf8', env: {...env, FORCE_COLOR: '0'}});
  assert.equal(result.status, 0, `${command} ${args.join(' ')} exited ${result.status}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** The docs plugin's `versions` and `lastVersion` of the copy's config. */
function docsOptions(cwd: string): {lastVersion: string; versions: Record<string, {label: string; path: string; banner: string}>} {
  const script =
    'const m = await import("./docusaurus.config.ts"); const c = m.default.default ?? m.default; console.log(JSON.stringify(c.presets[0][1].docs));';
  const output = runIn(cwd, process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
  return JSON.parse(output.trim().split('\n').pop()!);
}

/**
 * Runs the copy's unit tests that read the version layout, and its sample check for the pages of
 * `version` (the folders the step changed); returns the check's lines. The check covers
 * {@link CHECKED_PAGES} of each folder, enough to show which library a folder's imports reach (the
 * full type-check of every version runs in `npm test` itself; three more of the largest version
 * here took about 4 minutes of the 2-core CI machine).
 */
function checkCopy(cwd: string, version: string): string[] {
  const unit = runIn(cwd, process.execPath, [
    '--import',
    'tsx',
    '--import',
    './tests/unit/setup.mjs',
    '--test',
    'tests/unit/config.test.ts',
    'tests/unit/categories.test.ts',
    'tests/unit/docs-version.test.ts',
  ]);
  assert.match(unit, /^# fail 0$/m, unit);
  const only = CHECKED_PAGES.flatMap((page) => ['--only', page]);
  return runIn(cwd, process.execPath, ['--import', 'tsx', 'scripts/samples/check.ts', '--version', version, '--no-newest', ...only])
    .trimEnd()
    .split('\n');
}

test('adding a version as the README says: freeze docs/, then document a newer release', {timeout: 240_000}, () => {
  assert.ok(!RELEASED_VERSIONS.includes(CURRENT_VERSION), 'this test starts from a site whose docs/ is the latest release');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'add-version-'));
  try {
    const site = path.join(root, 'site');
    copyProject(site);
    // The 1.x library sources sit beside the project, as ../shared does beside this repository.
    fs.symlinkSync(path.resolve(REPO, '..', 'shared'), path.join(root, 'shared'));

    // Step 1: freeze the version docs/ documents.
    runIn(site, path.join(site, 'node_modules', '.bin', 'docusaurus'), ['docs:version', CURRENT_VERSION]);
    const frozen = docsOptions(site);
    assert.equal(frozen.lastVersion, CURRENT_VERSION);
    assert.deepEqual(frozen.versions[CURRENT_VERSION], {label: CURRENT_VERSION, path: '/', banner: 'none'});
    assert.deepEqual(frozen.versions.current, {label: 'Next', path: 'next', banner: 'unreleased', noIndex: true});
    const afterFreeze = checkCopy(site, CURRENT_VERSION);
    // Both folders document CURRENT_VERSION and are counted apart, each fully type-checked.
    const docsLine = afterFreeze.find((line) => line.startsWith(`${CURRENT_VERSION} (`) && line.includes('(docs/)'));
    const frozenLine = afterFreeze.find((line) => line.includes(`(versioned_docs/version-${CURRENT_VERSION}/)`));
    assert.ok(docsLine && frozenLine, afterFreeze.join('\n'));
    assert.equal(docsLine.slice(docsLine.indexOf(':')), frozenLine.slice(frozenLine.indexOf(':')));
    assert.match(afterFreeze.at(-1)!, /^samples: \d+ type-checked, 0 syntax-only, \d+ opted out, 0 failed$/, afterFreeze.join('\n'));

    // Step 2: docs/ now documents 2.1.0. The test stands the installed packages in for 2.1.0's.
    const versionsFile = path.join(site, 'src', 'versions', 'index.ts');
    const source = fs.readFileSync(versionsFile, 'utf8');
    const raised = source
      .replace(`export const CURRENT_VERSION = '${CURRENT_VERSION}';`, "export const CURRENT_VERSION = '2.1.0';")
      .replace(
        'export const LIBRARIES: Readonly<Record<string, Library>> = {',
        `$&\n  '2.1.0': {kind: 'scope', scope: '@tango-v2', data: {scrcpy: '@tango-v2/scrcpy', 'adb-scrcpy': '@tango-v2/adb-scrcpy', 'android-bin': '@tango-v2/android-bin'}},`,
      );
    assert.notEqual(raised, source);
    fs.writeFileSync(versionsFile, raised);
    const released = docsOptions(site);
    assert.equal(released.lastVersion, 'current');
    assert.deepEqual(released.versions.current, {label: '2.1.0', path: '/', banner: 'none'});
    assert.deepEqual(released.versions[CURRENT_VERSION], {label: CURRENT_VERSION, path: CURRENT_VERSION, banner: 'unmaintained'});
    const afterRaise = checkCopy(site, '2.1.0');
    assert.ok(
      afterRaise.some((line) => line.startsWith('2.1.0 (') && line.includes('(docs/)')),
      afterRaise.join('\n'),
    );
    assert.match(afterRaise.at(-1)!, /^samples: \d+ type-checked, 0 syntax-only, \d+ opted out, 0 failed$/, afterRaise.join('\n'));
  } finally {
    fs.rmSync(root, {recursive: true, force: true});
  }
});
