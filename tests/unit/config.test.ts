import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {CURRENT_VERSION, RELEASED_VERSIONS} from '../../src/versions/index.ts';

/** Loads docusaurus.config.ts in a fresh process with the given environment and returns `pick(config)`. */
function loadConfig(env: Record<string, string>, pick: string): unknown {
  const script = `const m = await import("./docusaurus.config.ts"); const c = m.default.default ?? m.default; console.log(JSON.stringify(${pick} ?? null));`;
  const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: {...process.env, GTAG_TRACKING_ID: '', TANGO_TEST_ROUTES: '', ...env},
    encoding: 'utf8',
  });
  return JSON.parse(output.trim().split('\n').pop()!);
}

test('analytics is off without GTAG_TRACKING_ID and on with it', () => {
  assert.equal(loadConfig({}, 'c.presets[0][1].gtag'), null);
  assert.equal(loadConfig({GTAG_TRACKING_ID: '  '}, 'c.presets[0][1].gtag'), null);
  assert.deepEqual(loadConfig({GTAG_TRACKING_ID: 'G-ABC123'}, 'c.presets[0][1].gtag'), {trackingID: 'G-ABC123', anonymizeIP: true});
});

test('versions come from src/versions/index.ts and versions.json: the latest release at the root, older ones under their number', () => {
  const docs = loadConfig({}, 'c.presets[0][1].docs') as {
    lastVersion: string;
    versions: Record<string, {label: string; path: string; banner: string; noIndex?: boolean}>;
  };
  assert.deepEqual(Object.keys(docs.versions), ['current', ...RELEASED_VERSIONS]);
  const atRoot = Object.entries(docs.versions).filter(([, options]) => options.path === '/');
  assert.deepEqual(
    atRoot.map(([name]) => name),
    [docs.lastVersion],
  );
  if (RELEASED_VERSIONS.includes(CURRENT_VERSION)) {
    // docs/ has been frozen: it is the unreleased Next, and the newest frozen version is the latest.
    assert.deepEqual(docs.versions.current, {label: 'Next', path: 'next', banner: 'unreleased', noIndex: true});
    assert.equal(docs.lastVersion, RELEASED_VERSIONS[0]);
  } else {
    assert.deepEqual(docs.versions.current, {label: CURRENT_VERSION, path: '/', banner: 'none'});
    assert.equal(docs.lastVersion, 'current');
  }
  for (const version of RELEASED_VERSIONS.filter((v) => v !== docs.lastVersion)) {
    assert.deepEqual(docs.versions[version], {label: version, path: version, banner: 'unmaintained'});
  }
});
