/**
 * Where a docs version's library is on disk. Which library each version uses is LIBRARIES in
 * src/versions/index.ts: an installed alias scope (2.0.0 `@tango-v2/*`, 0.0.24 `@tango-v0/*`) or
 * the TypeScript sources in ../shared/sources/<version>/ (1.1.0, 1.0.0, whose `@yume-chan/adb` was
 * never published). libraryFiles maps a sample's `@yume-chan/*` imports to that library.
 */
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import type * as esbuild from 'esbuild';

import type {Library} from '../../src/versions/index.ts';

/** The repository these scripts belong to: its node_modules hold TypeScript and the aliased packages. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where a version's `@yume-chan` imports land. */
export interface LibraryFiles {
  /** Import patterns (`@yume-chan/*`, `@yume-chan/async`) and the files they map to, in the form of TypeScript's `paths` option. */
  paths: Record<string, string[]>;
  /** Declaration files of the library that no module imports (the sources' ambient `libs.d.ts`). */
  extraRoots: string[];
  /** Real paths (ending in a separator) that every `@yume-chan/*` import must resolve inside. */
  allowedRoots: string[];
  /** The library's `@yume-chan` packages, without scope (`adb`, `async`, `scrcpy`, …), sorted. */
  packages: string[];
}

/**
 * The folder of the `@yume-chan/fetch-scrcpy-server` package a library's samples import: a scope
 * library's own copy, or for a sources library (whose sources hold none of its code) a copy of the
 * published package in `node_modules/.cache/fetch-scrcpy-server-<sources folder name>`. Its
 * `index.js` and `index.d.ts` exist once scrcpy-server.ts installFetchScrcpyServer ran.
 *
 * @param library A docs version's library (LIBRARIES).
 * @returns An absolute path, which may not exist yet.
 */
export function fetchScrcpyServerDir(library: Library): string {
  return library.kind === 'scope'
    ? path.join(PACKAGE_ROOT, 'node_modules', library.scope, 'fetch-scrcpy-server')
    : path.join(PACKAGE_ROOT, 'node_modules', '.cache', `fetch-scrcpy-server-${path.basename(library.dir)}`);
}

/**
 * Maps `@yume-chan/*` to a version's library. A scope library maps `@yume-chan/<package>` to
 * `node_modules/<scope>/<package>`; a sources library maps it to `<dir>/<package>/src/index.ts`,
 * except `@yume-chan/async`, which comes from the alias scope `asyncScope` (the sources' packages
 * depend on the published package).
 *
 * @param library The version's library (see LIBRARIES).
 * @returns The mapping, the sources' ambient declaration files, the allowed roots and the packages:
 *   a scope's folders that hold a package.json, a sources folder's folders that hold
 *   `src/index.ts`, plus `async`.
 * @throws Error when the packages or the sources folder are missing (with what to do).
 */
export function libraryFiles(library: Library): LibraryFiles {
  const scopeDir = (scope: string) => {
    const dir = path.join(PACKAGE_ROOT, 'node_modules', scope);
    if (!fs.existsSync(dir)) throw new Error(`${dir} is missing; run npm install`);
    return dir;
  };
  const extraRoots: string[] = [];
  let paths: Record<string, string[]>;
  let allowed: string[];
  let packages: string[];
  if (library.kind === 'scope') {
    const dir = scopeDir(library.scope);
    paths = {'@yume-chan/*': [path.join(dir, '*')]};
    allowed = [dir];
    packages = fs.readdirSync(dir).filter((pkg) => fs.existsSync(path.join(dir, pkg, 'package.json')));
  } else {
    const dir = path.resolve(PACKAGE_ROOT, library.dir);
    if (!fs.existsSync(dir)) {
      throw new Error(`${dir} is missing: the 1.x library sources come with ../shared/ beside this repository`);
    }
    const asyncDir = path.join(scopeDir(library.asyncScope), 'async');
    const fetchDir = fetchScrcpyServerDir(library);
    paths = {
      '@yume-chan/async': [asyncDir],
      '@yume-chan/fetch-scrcpy-server': [fetchDir],
      '@yume-chan/*': [path.join(dir, '*', 'src', 'index.ts')],
    };
    allowed = [dir, asyncDir, ...(fs.existsSync(fetchDir) ? [fetchDir] : [])];
    packages = [
      'async',
      ...(fs.existsSync(fetchDir) ? ['fetch-scrcpy-server'] : []),
      ...fs.readdirSync(dir).filter((pkg) => fs.existsSync(path.join(dir, pkg, 'src', 'index.ts'))),
    ];
    for (const pkg of fs.readdirSync(dir).sort()) {
      const src = path.join(dir, pkg, 'src');
      if (!fs.existsSync(src)) continue;
      for (const name of fs.readdirSync(src).sort()) {
        if (name.endsWith('.d.ts')) extraRoots.push(path.join(src, name));
      }
    }
  }
  return {paths, extraRoots, allowedRoots: allowed.map((dir) => fs.realpathSync(dir) + path.sep), packages: packages.sort()};
}

/**
 * esbuild plugin: maps `@yume-chan/<package>` to the version's library, as the type-check's `paths`
 * do, and leaves every other bare import (packages, `node:` modules) outside the bundle.
 * - An installed alias scope (2.0.0 `@tango-v2`, 0.0.24 `@tango-v0`) is bundled, each
 *   `@yume-chan/*` import (the packages' own too) led to `<scope>/<package>`; where a package of
 *   the scope nests a copy of another version of a package (0.0.24: adb-server-node-tcp 0.0.23's
 *   own stream-extra, see hasNestedCopies), or the scope lacks one, the import resolves as Node.js
 *   would. Bundled, a sample loads a few shared chunks instead of the ~400 files of the packages'
 *   `esm/` folders: 0.13 s of CPU for node to start and load the library against 0.38 s
 *   (measured on the 2-core machine), and most of a sample's run was that.
 * - A sources library (1.x) is bundled from `<dir>/<package>/src/index.ts`, except
 *   `@yume-chan/async`, which comes from its alias scope.
 * Relative imports of the prelude runtime (prelude.ts) are bundled. For `platform: 'browser'`
 * every import is bundled: other bare imports resolve as esbuild does (the build's `nodePaths`
 * should hold this repository's node_modules, where the sources' dependencies are), and
 * `@yume-chan/async` of a sources library from its alias scope.
 */
export function importsPlugin(library: Library, platform: 'node' | 'browser' = 'node'): esbuild.Plugin {
  const sourcesDir = library.kind === 'sources' ? path.resolve(PACKAGE_ROOT, library.dir) : undefined;
  const nestedCopies = library.kind === 'scope' && hasNestedCopies(library.scope);
  return {
    name: 'sample-imports',
    setup(build) {
      // esbuild filters are Go regular expressions (no lookahead): anything not starting with `.` or `/`.
      build.onResolve({filter: /^[^./]|^\.\/prelude-runtime\.mjs$/}, async ({path: specifier, kind, pluginData, importer, resolveDir}) => {
        if (kind === 'entry-point' || path.isAbsolute(specifier) || (pluginData as {inner?: boolean} | undefined)?.inner) return undefined;
        // The prelude runtime's Scrcpy part (prelude-scrcpy.ts) imports the 2.0.0 alias by name.
        const prefix = ['@yume-chan/', library.kind === 'scope' ? `${library.scope}/` : undefined].find(
          (candidate) => candidate !== undefined && specifier.startsWith(candidate),
        );
        if (prefix === undefined) return platform === 'node' ? {path: specifier, external: true} : undefined;
        const name = specifier.slice(prefix.length);
        if (name === 'fetch-scrcpy-server') {
          // Its BIN is `new URL("./server.bin", import.meta.url)`: in Node.js the package's own file
          // loads, beside its server.bin; in the browser it is bundled, and browser.ts serves the
          // server file beside the chunks.
          const index = path.join(fetchScrcpyServerDir(library), 'index.js');
          return platform === 'node' ? {path: index, external: true} : {path: index};
        }
        if (library.kind === 'scope') {
          // Bundled, with every `@yume-chan/*` import (the packages' own too) led to the scope's
          // one copy. A nested copy of another version (adb-server-node-tcp 0.0.23's own
          // stream-extra) is what its package needs, and is kept, as is a package the scope doesn't hold.
          const top = scopeVersion(library.scope, name.split('/')[0]!);
          const own = nestedCopies ? nestedVersion(library.scope, importer, name.split('/')[0]!) : undefined;
          if (top === undefined || (own !== undefined && own !== top)) {
            const nested = await build.resolve(specifier, {kind, resolveDir, pluginData: {inner: true}});
            return nested.errors.length > 0 ? {errors: nested.errors} : {path: nested.path};
          }
          const found = await build.resolve(`${library.scope}/${name}`, {kind, resolveDir: PACKAGE_ROOT, pluginData: {inner: true}});
          return found.errors.length > 0 ? {errors: found.errors} : {path: found.path};
        }
        if (name === 'async' || name.startsWith('async/')) {
          if (platform === 'node') return {path: `${library.asyncScope}/${name}`, external: true};
          const found = await build.resolve(`${library.asyncScope}/${name}`, {kind, resolveDir: PACKAGE_ROOT, pluginData: {inner: true}});
          return found.errors.length > 0 ? {errors: found.errors} : {path: found.path};
        }
        return {path: path.join(sourcesDir!, name.split('/')[0]!, 'src', 'index.ts')};
      });
    },
  };
}

const scopeVersions = new Map<string, string | undefined>();

/** The version of `<scope>/<name>` (its package.json), or undefined when it isn't installed. */
function scopeVersion(scope: string, name: string): string | undefined {
  const file = path.join(PACKAGE_ROOT, 'node_modules', scope, name, 'package.json');
  if (!scopeVersions.has(file)) {
    scopeVersions.set(file, fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as {version: string}).version : undefined);
  }
  return scopeVersions.get(file);
}

/**
 * The version of the copy of `@yume-chan/<name>` nested in the scope package that holds `importer`
 * (`<scope>/<package>/node_modules/@yume-chan/<name>`), or undefined when the importer is outside
 * the scope or its package has no such copy.
 */
function nestedVersion(scope: string, importer: string, name: string): string | undefined {
  const scopeDir = path.join(PACKAGE_ROOT, 'node_modules', scope) + path.sep;
  if (!importer.startsWith(scopeDir)) return undefined;
  const pkg = importer.slice(scopeDir.length).split(path.sep)[0]!;
  const file = path.join(scopeDir, pkg, 'node_modules', '@yume-chan', name, 'package.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as {version: string}).version : undefined;
}

/**
 * Whether a package of an installed alias scope carries its own copy of a `@yume-chan` package
 * (`<scope>/<package>/node_modules/@yume-chan/`): npm nests them for 0.0.24, whose packages pin
 * exact versions; then two copies of a class break the library's instanceof checks.
 */
function hasNestedCopies(scope: string): boolean {
  const dir = path.join(PACKAGE_ROOT, 'node_modules', scope);
  return (
    fs.existsSync(dir) &&
    fs.readdirSync(dir).some((pkg) => {
      const nested = path.join(dir, pkg, 'node_modules', '@yume-chan');
      return fs.existsSync(nested) && fs.readdirSync(nested).length > 0;
    })
  );
}
