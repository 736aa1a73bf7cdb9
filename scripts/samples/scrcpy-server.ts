/**
 * `@yume-chan/fetch-scrcpy-server` as a reader's install leaves it: the package has no `index.js`
 * or `index.d.ts` until its command, `fetch-scrcpy-server <version>` (the reader's `postinstall`),
 * downloads the server from Scrcpy's GitHub release as `server.bin` and writes `index.js`,
 * `index.d.ts`, `version.js` and `version.d.ts` (`VERSION`, and `BIN`, `new URL("./server.bin",
 * import.meta.url)`). The checker runs that same command of each version's package, with the
 * download replaced (this machine has no GitHub): `gh-release-fetch`'s `fetchVersion` resolves to
 * scrcpy-server-fetch-stub.mjs, which writes the simulated device's stand-in server file
 * (device/src/scrcpy/registry.ts `standInServer`) where the release file would land.
 *
 * Which package: a scope library's own copy (`node_modules/<scope>/fetch-scrcpy-server`); for a
 * sources library (1.x, whose sources hold no code of this package), a copy of the published 1.0.0
 * package, the version their package.json names, in `node_modules/.cache/`. Which server version:
 * LIBRARIES' `scrcpyServer`, what the version's pages pass.
 */
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import {standInServer} from '../../device/src/scrcpy/registry.ts';
import type {Library} from '../../src/versions/index.ts';
import {fetchScrcpyServerDir, PACKAGE_ROOT} from './libraries.ts';

/** The module that stands in for `gh-release-fetch` while the package's command runs. */
const FETCH_STUB = path.join(PACKAGE_ROOT, 'scripts', 'samples', 'scrcpy-server-fetch-stub.mjs');

/** The published package the 1.x sources name (their package.json: 1.0.0), installed in the 2.0.0 scope. */
const PUBLISHED_1_0_0 = path.join(PACKAGE_ROOT, 'node_modules', '@tango-v2', 'fetch-scrcpy-server');

/**
 * Runs `fetch-scrcpy-server <library.scrcpyServer>` of the version's package, unless its files are
 * there for that server version already. Does nothing for a library without `scrcpyServer`.
 *
 * @param library A docs version's library (LIBRARIES).
 * @returns The package's folder, or `undefined` without `scrcpyServer`.
 * @throws Error when the package is not installed (npm install), or its command fails (with its output).
 */
export function installFetchScrcpyServer(library: Library): string | undefined {
  const server = library.scrcpyServer;
  if (server === undefined) return undefined;
  const dir = fetchScrcpyServerDir(library);
  const typings = path.join(dir, 'index.d.ts');
  if (fs.existsSync(typings) && fs.readFileSync(typings, 'utf8').includes(`'${server}'`) && fs.existsSync(path.join(dir, 'server.bin'))) {
    return dir;
  }
  if (library.kind === 'sources') {
    if (!fs.existsSync(PUBLISHED_1_0_0)) throw new Error(`${PUBLISHED_1_0_0} is missing; run npm install`);
    fs.rmSync(dir, {recursive: true, force: true});
    fs.mkdirSync(dir, {recursive: true});
    for (const name of ['package.json', 'bin']) fs.cpSync(path.join(PUBLISHED_1_0_0, name), path.join(dir, name), {recursive: true});
  } else if (!fs.existsSync(dir)) {
    throw new Error(`${dir} is missing; run npm install`);
  }
  execFileSync(process.execPath, ['--import', FETCH_STUB, path.join(dir, 'bin', 'fetch-server.js'), server], {
    cwd: dir,
    env: {...process.env, TANGO_STAND_IN_SERVER: Buffer.from(standInServer(server.replace(/^v/, ''))).toString('base64')},
    stdio: 'pipe',
  });
  return dir;
}
