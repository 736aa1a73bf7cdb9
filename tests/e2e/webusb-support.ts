/**
 * Support for the browser tests that run docs samples against the simulated device over WebUSB
 * (webusb-device.spec.ts): read a sample out of its MDX page and bundle it with the library
 * version the page documents. Serving and esbuild's browser options are the sample runner's
 * (scripts/samples/web.ts), re-exported here.
 */
import {build} from 'esbuild';
import {readFileSync} from 'node:fs';
import path from 'node:path';

import {extractBlocks, type SampleBlock} from '../../scripts/samples/extract.ts';
import {BROWSER_BUILD, libraryAlias} from '../../scripts/samples/web.ts';

export {htmlPage, serveFiles, type Served} from '../../scripts/samples/web.ts';

/** The repository root (node_modules, docs/). */
export const REPO = path.resolve(import.meta.dirname, '../..');

/**
 * The code block whose fence has `title="<title>"` in a docs page, parsed as the site parses MDX
 * (the same reader as `npm run check:samples`).
 *
 * Input: the page's path relative to the repository and the block's title. Output: the block (its
 * code and its line in the page). Errors: throws when the page has no such block, or more than one.
 */
export function docsSample(page: string, title: string): SampleBlock {
  const file = path.join(REPO, page);
  const blocks = extractBlocks(readFileSync(file, 'utf8'), page).filter((block) => block.meta.split(/\s+/).includes(`title="${title}"`));
  if (blocks.length !== 1) throw new Error(`${page}: expected one code block titled ${title}, found ${blocks.length}`);
  return blocks[0]!;
}

/**
 * Bundles a TypeScript sample for the browser (ES module, Chrome 120+), its `@yume-chan/*`
 * imports resolved to the version's alias.
 *
 * Input: the block, and the npm scope of its library (e.g. `@tango-v2`). Output: the bundle's
 * JavaScript. Errors: rejects with esbuild's errors when an import does not resolve or the code
 * does not parse.
 */
export async function bundleSample(block: SampleBlock, scope: string): Promise<string> {
  const sampleName = `${block.file}:${block.line}`;
  // esbuild names the stdin module `<resolveDir>/<sourcefile>` when it imports.
  const samplePath = path.join(REPO, sampleName);
  const result = await build({
    ...BROWSER_BUILD,
    stdin: {contents: block.code, loader: 'ts', resolveDir: REPO, sourcefile: sampleName},
    write: false,
    plugins: [libraryAlias(scope, (importer) => importer === samplePath)],
  });
  return result.outputFiles[0]!.text;
}
