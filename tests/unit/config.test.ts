import {test} from 'node:test';
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {CURRENT_VERSION, RELEASED_VERSIONS} from '../../src/versions/index.ts';

/**
 * Loads docusaurus.config.ts once per environment in `envs`, all in one fresh process, and returns
 * `pick(config)` for each. Each load goes through tsx's `tsImport`, which evaluates the config (and
 * the site's own modules) anew while the packages it imports stay loaded: the second load takes
 * ~50 ms where a fresh process took ~2 s of CPU (TypeScript and Prettier, which the remark plugins
 * import, dominate).
 */
function loadConfigs(envs: Record<string, string>[], pick: string): unknown[] {
  const script = `
    import {tsImport} from 'tsx/esm/api';
    const base = {...process.env};
    const picked = [];
    for (const env of ${JSON.stringify(envs)}) {
      for (const key of Object.keys(process.env)) if (!(key in base)) delete process.env[key];
      Object.assign(process.env, base, {GTAG_TRACKING_ID: '', TANGO_TEST_ROUTES: '', TANGO_ONLY_DOCS: ''}, env);
      const m = await tsImport(process.cwd() + '/docusaurus.config.ts', import.meta.url);
      const c = m.default.default ?? m.default;
      picked.push(${pick} ?? null);
    }
    console.log(JSON.stringify(picked));`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {encoding: 'utf8'});
  return JSON.parse(output.trim().split('\n').pop()!) as unknown[];
}

interface Picked {
  gtag: unknown;
  docs: {
    lastVersion: string;
    include?: string[];
    versions: Record<string, {label: string; path: string; banner: string; noIndex?: boolean}>;
  };
  broken: string[];
}

/**
 * The config without GTAG_TRACKING_ID, with a blank one, with one set, and with TANGO_ONLY_DOCS:
 * one process for the file's tests.
 */
let picked: Picked[] | undefined;
const configs = () =>
  (picked ??= loadConfigs(
    [{}, {GTAG_TRACKING_ID: '  '}, {GTAG_TRACKING_ID: 'G-ABC123'}, {TANGO_ONLY_DOCS: 'api/index.mdx, internal/index.mdx'}],
    '{gtag: c.presets[0][1].gtag ?? null, docs: c.presets[0][1].docs, broken: [c.onBrokenLinks, c.onBrokenAnchors, c.markdown.hooks.onBrokenMarkdownLinks, c.markdown.hooks.onBrokenMarkdownImages]}',
  ) as Picked[]);

test('broken links, anchors and Markdown links fail the build, except in a build of a few docs (TANGO_ONLY_DOCS)', () => {
  const [none, , , few] = configs();
  assert.deepEqual(none!.broken, ['throw', 'throw', 'throw', 'throw']);
  assert.equal(none!.docs.include, undefined);
  assert.deepEqual(few!.docs.include, ['api/index.mdx', 'internal/index.mdx']);
  assert.deepEqual(few!.broken, ['ignore', 'ignore', 'ignore', 'ignore']);
});

test('analytics is off without GTAG_TRACKING_ID and on with it', () => {
  const [none, blank, set] = configs();
  assert.equal(none!.gtag, null);
  assert.equal(blank!.gtag, null);
  assert.deepEqual(set!.gtag, {trackingID: 'G-ABC123', anonymizeIP: true});
});

test('versions come from src/versions/index.ts and versions.json: the latest release at the root, older ones under their number', () => {
  const {docs} = configs()[0]!;
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
