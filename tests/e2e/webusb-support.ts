/**
 * Support for the browser tests that run docs samples against the simulated device over WebUSB
 * (webusb-device.spec.ts): read a sample out of its MDX page, bundle it with the library version
 * the page documents, and serve it on 127.0.0.1.
 */
import {build, type Plugin} from 'esbuild';
import {readFileSync} from 'node:fs';
import {createServer} from 'node:http';
import path from 'node:path';

import {extractBlocks, type SampleBlock} from '../../scripts/samples/extract.ts';

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
 * esbuild plugin: the sample's own `@yume-chan/<pkg>` imports resolve to `<scope>/<pkg>`, the npm
 * alias under which the documented version is installed (see LIBRARIES in src/versions/index.ts).
 * The packages' imports of each other resolve as npm installed them (each package's own
 * dependencies), as they would in a reader's app.
 */
function aliasLibrary(scope: string, samplePath: string): Plugin {
  return {
    name: 'docs-library-alias',
    setup(pluginBuild) {
      pluginBuild.onResolve({filter: /^@yume-chan\//}, async (args) => {
        if (args.importer !== samplePath) return undefined;
        const target = args.path.replace(/^@yume-chan\//, `${scope}/`);
        const resolved = await pluginBuild.resolve(target, {kind: args.kind, resolveDir: args.resolveDir});
        return {path: resolved.path, errors: resolved.errors, warnings: resolved.warnings};
      });
    },
  };
}

/**
 * Bundles a TypeScript sample for the browser (ES module, Chrome 120+).
 *
 * Input: the block, and the npm scope of its library (e.g. `@tango-v2`). Output: the bundle's
 * JavaScript. Errors: rejects with esbuild's errors when an import does not resolve or the code
 * does not parse.
 */
export async function bundleSample(block: SampleBlock, scope: string): Promise<string> {
  const sampleName = `${block.file}:${block.line}`;
  const result = await build({
    stdin: {contents: block.code, loader: 'ts', resolveDir: REPO, sourcefile: sampleName},
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    logLevel: 'silent',
    // esbuild names the stdin module `<resolveDir>/<sourcefile>` when it imports.
    plugins: [aliasLibrary(scope, path.join(REPO, sampleName))],
  });
  return result.outputFiles[0]!.text;
}

/** One file the test server answers with. */
export interface Served {
  type: string;
  body: string;
}

/**
 * Serves fixed files on 127.0.0.1 (a secure context for Chromium, as `localhost` is: WebUSB,
 * WebCrypto and IndexedDB work). Unknown paths answer 404.
 *
 * Input: the files by path (`/`, `/sample.js`). Output: the origin (`http://127.0.0.1:PORT`) and
 * `close()`. Errors: rejects when no port can be bound.
 */
export async function serveFiles(files: Readonly<Record<string, Served>>): Promise<{origin: string; close(): Promise<void>}> {
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://127.0.0.1').pathname];
    if (!file) {
      response.writeHead(404, {'content-type': 'text/plain'}).end('not found');
      return;
    }
    response.writeHead(200, {'content-type': file.type, 'cache-control': 'no-store'}).end(file.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An HTML page: a title and a body of `body` (trusted markup); an empty icon, so that Chromium asks for no /favicon.ico. */
export function htmlPage(title: string, body: string): Served {
  return {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title></head>\n<body>\n${body}\n</body>\n</html>\n`,
  };
}
