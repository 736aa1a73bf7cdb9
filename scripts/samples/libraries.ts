/**
 * Where a docs version's library is on disk. Which library each version uses is LIBRARIES in
 * src/versions/index.ts: an installed alias scope (2.0.0 `@tango-v2/*`, 0.0.24 `@tango-v0/*`) or
 * the TypeScript sources in ../shared/sources/<version>/ (1.1.0, 1.0.0, whose `@yume-chan/adb` was
 * never published). libraryFiles maps a sample's `@yume-chan/*` imports to that library.
 */
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
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
    paths = {'@yume-chan/async': [asyncDir], '@yume-chan/*': [path.join(dir, '*', 'src', 'index.ts')]};
    allowed = [dir, asyncDir];
    packages = ['async', ...fs.readdirSync(dir).filter((pkg) => fs.existsSync(path.join(dir, pkg, 'src', 'index.ts')))];
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
