/**
 * The docs versions of the site and the library each one documents: the one module that the
 * config, the remark plugins, the scripts, the benchmarks and the tests read them from.
 *
 * - Which library version `docs/` documents: {@link CURRENT_VERSION}, set here by hand.
 * - Which versions are frozen: `versions.json`, written by `docusaurus docs:version X`.
 * - Where each version's library comes from (its package set): {@link LIBRARIES}.
 */
import versionsJson from '../../versions.json' with {type: 'json'};

/** The library version that `docs/` documents. Raise it when `docs/` starts documenting a newer release. */
export const CURRENT_VERSION = '2.0.0';

/**
 * Checks the content of a `versions.json`.
 *
 * Input: the parsed JSON and the file's name (for the message). Output: the versions, newest first,
 * as written by `docusaurus docs:version`. Errors: throws an Error when the value is not an array
 * of non-empty strings, or lists a version twice.
 */
export function parseVersionsJson(value: unknown, file: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v !== '')) {
    throw new Error(`${file} is not a JSON array of version strings`);
  }
  const versions = value as string[];
  const twice = versions.find((v, i) => versions.indexOf(v) !== i);
  if (twice !== undefined) throw new Error(`${file} lists version ${twice} twice`);
  return versions;
}

/** The frozen versions of this site, newest first (this repository's `versions.json`). */
export const RELEASED_VERSIONS: readonly string[] = parseVersionsJson(versionsJson, 'versions.json');

/** One docs version: a folder of pages, the library version it documents and where it is served. */
export interface DocsVersion {
  /** Docusaurus's name for it: `current` for `docs/`, else its entry in `versions.json`. */
  name: string;
  /** The library version the pages document (for `docs/`, {@link CURRENT_VERSION}). */
  version: string;
  /** The label shown in the version dropdown: the version, or `Next` for an unreleased `docs/`. */
  label: string;
  /** The folder of its pages, relative to the site root: `docs` or `versioned_docs/version-X`. */
  folder: string;
  /** Whether it is the latest release (served at `/`). */
  isLatest: boolean;
  /** Whether `docs/` is unreleased (its version has been frozen into `versioned_docs/`). */
  isNext: boolean;
}

/**
 * Lists the docs versions of a site, `docs/` first, then the frozen ones newest first.
 *
 * Input: the frozen versions (default: this site's `versions.json`) and the version `docs/`
 * documents (default: {@link CURRENT_VERSION}). Output: one {@link DocsVersion} each. While
 * `docs/`'s version is not frozen, `docs/` is the latest release at `/` and every frozen version
 * is served under `/X`; once it is (`docs:version <CURRENT_VERSION>`), the newest frozen version is
 * served at `/` and `docs/` becomes the unreleased "Next" at `/next`. Errors: none.
 */
export function docsVersions(released: readonly string[] = RELEASED_VERSIONS, current: string = CURRENT_VERSION): DocsVersion[] {
  const currentIsNext = released.includes(current);
  const result: DocsVersion[] = [
    {
      name: 'current',
      version: current,
      label: currentIsNext ? 'Next' : current,
      folder: 'docs',
      isLatest: !currentIsNext,
      isNext: currentIsNext,
    },
  ];
  released.forEach((version, index) => {
    const isLatest = currentIsNext && index === 0;
    result.push({
      name: version,
      version,
      label: version,
      folder: `versioned_docs/version-${version}`,
      isLatest,
      isNext: false,
    });
  });
  return result;
}

/** This site's latest release: the docs version served at `/`. */
export const LATEST: DocsVersion = docsVersions().find((version) => version.isLatest)!;

/**
 * Where the library of one version comes from:
 * - `scope`: the npm alias its packages are installed under (`@tango-v2/adb` is
 *   `npm:@yume-chan/adb@2.0.1`, etc.; see devDependencies in package.json);
 * - `sources`: a folder (relative to the site root) holding `<package>/src/index.ts` for every
 *   `@yume-chan` package of the library's monorepo at the release tag, for versions that were never
 *   published to the registry; their `@yume-chan/async`, a dependency from outside the monorepo,
 *   comes from the alias `asyncScope`.
 * `data` names the installed package that build-time tables read per package (see
 * src/remark/docs-version.ts); a package missing there has no published release for that version.
 */
export type Library = ({kind: 'scope'; scope: string} | {kind: 'sources'; dir: string; asyncScope: string}) & {
  data: Readonly<Partial<Record<DataPackage, string>>>;
  /**
   * The Scrcpy server version that the version's pages install with `fetch-scrcpy-server <version>`
   * (their `postinstall`), which writes the package's `index.js` and `index.d.ts`: the sample
   * checker writes them the same way (scripts/samples/scrcpy-server.ts). Without it, a sample that
   * imports `@yume-chan/fetch-scrcpy-server` can't be type-checked.
   */
  scrcpyServer?: string;
};

/** A package whose data a build-time plugin reads. */
export type DataPackage = 'scrcpy' | 'adb-scrcpy' | 'android-bin';

/**
 * The library of each version that has docs: what `check:samples` type-checks the samples
 * against, and where the build-time tables read their data.
 * - 2.0.0: the published 2.0.x packages (2.1.0 for adb-daemon-webusb, adb-credential-web and
 *   android-bin, which have no 2.0.x release); 0.0.24: 0.0.24 (adb-server-node-tcp 0.0.23).
 * - 1.1.0, 1.0.0: `@yume-chan/adb` 1.x was never published; the sources at tags v1.0.0 and v1.1.0
 *   are in ../shared/sources/ (see its README). Their packages want `@yume-chan/async` ^4.0.2,
 *   which the 2.0.0 alias installs (4.1.3). `@yume-chan/scrcpy` 1.1.0 is published (`@tango-v1`).
 */
export const LIBRARIES: Readonly<Record<string, Library>> = {
  '2.0.0': {
    kind: 'scope',
    scope: '@tango-v2',
    data: {scrcpy: '@tango-v2/scrcpy', 'adb-scrcpy': '@tango-v2/adb-scrcpy', 'android-bin': '@tango-v2/android-bin'},
    scrcpyServer: '3.1',
  },
  '1.1.0': {
    kind: 'sources',
    dir: '../shared/sources/1.1.0',
    asyncScope: '@tango-v2',
    data: {scrcpy: '@tango-v1/scrcpy'},
    scrcpyServer: '3.1',
  },
  '1.0.0': {kind: 'sources', dir: '../shared/sources/1.0.0', asyncScope: '@tango-v2', data: {}, scrcpyServer: '3.0'},
  '0.0.24': {
    kind: 'scope',
    scope: '@tango-v0',
    data: {scrcpy: '@tango-v0/scrcpy', 'adb-scrcpy': '@tango-v0/adb-scrcpy', 'android-bin': '@tango-v0/android-bin'},
    scrcpyServer: '2.3',
  },
};

/**
 * The newest release of a version's major line, which `npm install @yume-chan/<package>` gives a
 * reader of that version's pages today: `check:samples` type-checks the version's samples against
 * it too (issue #25 item 4), and a sample that needs a change for it says so in its fence meta
 * (`newer="…"`) and on the page. The alias scope is pinned in package.json and raised on purpose:
 * 2.0.0 against adb 2.6.4, adb-scrcpy 2.3.2, scrcpy 2.3.0, adb-daemon-webusb 2.3.2, stream-extra
 * 2.6.1, adb-server-node-tcp 2.5.2, scrcpy-decoder-webcodecs 2.5.3 (the others as in LIBRARIES).
 */
export const NEWEST_LIBRARIES: Readonly<Record<string, Library & {kind: 'scope'}>> = {
  '2.0.0': {kind: 'scope', scope: '@tango-v2-newest', data: {}, scrcpyServer: '3.1'},
};
