/**
 * Samples of several files: a block that names its file (`title="client/transport.ts"`) is a
 * module that other blocks of its docs version import by a relative path (`./transport.js`, as
 * TypeScript writes imports of `.ts` files for ES modules). The checker and the runner write such
 * a block with the blocks it imports, each at the path its title gives, into one folder, and
 * type-check or bundle them as one program, as the Go playground takes several files.
 *
 * Which block an import names: the import's path, resolved against the importing block's title
 * (`./socket.js` from `client/transport.ts` is `client/socket.ts`; `.js` → `.ts` or `.tsx`), is
 * the title of a block of the same page, else of exactly one block of the version's pages.
 */
import fs from 'node:fs';
import path from 'node:path';
import type * as esbuild from 'esbuild';

import type {SampleBlock} from './extract.ts';
import {SAMPLE_LANGS} from './extract.ts';

/** One file of a sample's program: its path in the program's folder (POSIX), and the block that holds it. */
export interface ProgramFile {
  path: string;
  block: SampleBlock;
}

/** The file name a block's fence gives (`title="client/main.ts"`), when it ends in `.ts` or `.tsx`. */
export function blockTitle(block: SampleBlock): string | undefined {
  const title = /(?:^|\s)title=(["'])(.*?)\1/.exec(block.meta)?.[2];
  return title && /\.tsx?$/.test(title) ? path.posix.normalize(title) : undefined;
}

/** The relative module paths a block imports or re-exports (`./x.js`, `../y.js`), in order. */
export function relativeImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)(["'])(\.\.?\/[^"']+)\1/g)) found.add(match[2]!);
  return [...found];
}

/**
 * The files of a block's program: the block itself first (at its title, or `sample.ts`), then every
 * block it imports by a relative path, and theirs, once each.
 *
 * @param block The sample.
 * @param pool The blocks of its docs version that can be imported (with their titles).
 * @returns `files`, and `missing`: imports no block of `pool` answers (`client/socket.ts`), which
 *   the type-check then reports as a module it can't find.
 */
export function sampleProgram(block: SampleBlock, pool: readonly SampleBlock[]): {files: ProgramFile[]; missing: string[]} {
  const main = blockTitle(block) ?? `sample.${SAMPLE_LANGS[block.lang]}`;
  const files: ProgramFile[] = [{path: main, block}];
  const missing: string[] = [];
  const byTitle = new Map<string, SampleBlock[]>();
  for (const candidate of pool) {
    const title = blockTitle(candidate);
    if (title) byTitle.set(title, [...(byTitle.get(title) ?? []), candidate]);
  }
  for (let next = 0; next < files.length; next++) {
    const {path: from, block: importer} = files[next]!;
    for (const specifier of relativeImports(importer.code)) {
      const base = path.posix.join(path.posix.dirname(from), specifier).replace(/\.jsx?$/, '');
      const wanted = [`${base}.ts`, `${base}.tsx`];
      if (files.some((file) => wanted.includes(file.path))) continue;
      const candidates = wanted.flatMap((title) => byTitle.get(title) ?? []);
      const found =
        candidates.find((candidate) => candidate.file === importer.file) ?? (candidates.length === 1 ? candidates[0] : undefined);
      if (found) files.push({path: blockTitle(found)!, block: found});
      else missing.push(wanted[0]!);
    }
  }
  return {files, missing};
}

/**
 * Writes a sample's companions (RunJob.companions) into `<main without extension>.files/`, at
 * their titles' paths, where companionResolver resolves the sample's relative imports. The
 * sample's own file stays where it is (its stack frames name it).
 *
 * @param companions The companions, or undefined.
 * @param main The sample's own file (`<work>/src/12.ts`).
 */
export function writeCompanions(companions: readonly ProgramFile[] | undefined, main: string): void {
  for (const file of companions ?? []) {
    const target = path.join(main.replace(/\.[^./]+$/, '.files'), file.path);
    fs.mkdirSync(path.dirname(target), {recursive: true});
    fs.writeFileSync(target, file.block.code);
  }
}

/**
 * esbuild plugin: a relative import of a sample (`<work>/src/12.ts`) that has companions resolves
 * in `<work>/src/12.files/`, against the folder of the sample's own title (companions.ts); the
 * companions' own relative imports resolve among themselves as usual.
 *
 * @param mains The samples' files, with the folder of their title (`client` for `client/main.ts`).
 */
export function companionResolver(mains: ReadonlyMap<string, string>): esbuild.Plugin {
  return {
    name: 'sample-companions',
    setup(build) {
      build.onResolve({filter: /^\.\.?\//}, (args) => {
        const titleDir = mains.get(args.importer);
        if (titleDir === undefined || args.path === './prelude-runtime.mjs') return undefined;
        const base = path.join(args.importer.replace(/\.[^./]+$/, '.files'), titleDir, args.path).replace(/\.jsx?$/, '');
        const found = ['.ts', '.tsx'].map((extension) => base + extension).find((file) => fs.existsSync(file));
        return found ? {path: found} : undefined;
      });
    },
  };
}
