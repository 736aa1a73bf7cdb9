/**
 * What the browser side of the sample runner (browser.ts) shares with the WebUSB browser tests
 * (tests/e2e/webusb-device.spec.ts): Chromium's launch options, esbuild's options for a sample
 * bundled for the browser with its version's library, and a small file server on 127.0.0.1.
 */
import {createServer} from 'node:http';
import type {LaunchOptions} from '@playwright/test';
import type {BuildOptions, Plugin} from 'esbuild';

import site from '../../playwright.config.ts';

/**
 * How the sample runner launches Chromium: the browser tests' options (playwright.config.ts, the
 * one place they are written): Debian's Chromium (`CHROMIUM_PATH`, else /usr/bin/chromium, never a
 * browser Playwright downloads) with `--no-sandbox`, no GPU, no QUIC, and every host name but
 * 127.0.0.1 unresolvable.
 *
 * @returns A copy of playwright.config.ts's `use.launchOptions`.
 * @throws Error when playwright.config.ts has no launch options (a broken checkout).
 */
export function chromiumLaunchOptions(): LaunchOptions {
  // Loaded from an ES module, the CommonJS-compiled config is its `module.exports`: `{default: config}`.
  const config = (site as typeof site & {default?: typeof site}).default ?? site;
  const options = config.use?.launchOptions;
  if (!options?.executablePath) throw new Error('playwright.config.ts has no use.launchOptions.executablePath');
  return {...options, args: [...(options.args ?? [])]};
}

/**
 * esbuild plugin: a sample's own `@yume-chan/<package>` imports resolve to `<scope>/<package>`,
 * the npm alias under which its docs version's library is installed (LIBRARIES in
 * src/versions/index.ts), as the type-check maps them. The packages' imports of each other resolve
 * as npm installed them (node_modules/@yume-chan/* link to the 2.x aliases: one copy of each).
 *
 * @param scope The alias scope, e.g. `@tango-v2`.
 * @param isSample Whether an importing file (esbuild's absolute `importer`) is a sample.
 * @returns The plugin.
 */
export function libraryAlias(scope: string, isSample: (importer: string) => boolean): Plugin {
  return {
    name: 'docs-library-alias',
    setup(build) {
      build.onResolve({filter: /^@yume-chan\//}, async (args) => {
        if (!isSample(args.importer)) return undefined;
        const target = `${scope}/${args.path.slice('@yume-chan/'.length)}`;
        const resolved = await build.resolve(target, {kind: args.kind, resolveDir: args.resolveDir});
        return {path: resolved.path, errors: resolved.errors, warnings: resolved.warnings};
      });
    },
  };
}

/**
 * esbuild's options for code that runs in the browser tests' Chromium: ES modules for Chrome 120
 * and later (top-level await, class fields defined as the TypeScript sources mean), every import
 * bundled, React's production build for JSX.
 */
export const BROWSER_BUILD: Readonly<BuildOptions> = {
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'chrome120',
  logLevel: 'silent',
  define: {'process.env.NODE_ENV': '"production"'},
  tsconfigRaw: {compilerOptions: {useDefineForClassFields: true, jsx: 'react-jsx'}},
};

/** One file the test server answers with. */
export interface Served {
  /** Its `content-type`. */
  type: string;
  body: string | Uint8Array;
  /**
   * The file never changes while it is served (a build output): the browser may keep it in its
   * HTTP cache (and V8 its compiled code) instead of asking again. Default false: `no-store`.
   */
  immutable?: boolean;
}

/** The content type of a built file, by its extension (`.js`, `.mjs`, `.map`, `.html`, `.css`; else bytes). */
export function contentType(file: string): string {
  if (/\.m?js$/.test(file)) return 'text/javascript; charset=utf-8';
  if (file.endsWith('.map')) return 'application/json';
  if (file.endsWith('.html')) return 'text/html; charset=utf-8';
  if (file.endsWith('.css')) return 'text/css; charset=utf-8';
  return 'application/octet-stream';
}

/**
 * Serves files on 127.0.0.1 (a secure context for Chromium, as `localhost` is: WebUSB, WebCrypto,
 * WebCodecs and IndexedDB work). Unknown paths answer 404.
 *
 * @param files The files by path (`/`, `/sample.js`); the map may gain files while it serves.
 * @returns The origin (`http://127.0.0.1:PORT`) and `close()`.
 * @throws Error (rejects) when no port can be bound.
 */
export async function serveFiles(files: Readonly<Record<string, Served>>): Promise<{origin: string; close(): Promise<void>}> {
  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const file = Object.hasOwn(files, pathname) ? files[pathname] : undefined;
    if (!file) {
      response.writeHead(404, {'content-type': 'text/plain'}).end('not found');
      return;
    }
    const cache = file.immutable ? 'max-age=86400, immutable' : 'no-store';
    response.writeHead(200, {'content-type': file.type, 'cache-control': cache}).end(file.body);
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

/**
 * An HTML page with an empty icon, so that Chromium asks for no /favicon.ico.
 *
 * @param title The page's title (trusted text).
 * @param body The markup of its body (trusted).
 * @param head More markup for its head (trusted), e.g. a script tag.
 * @returns The page, to serve.
 */
export function htmlPage(title: string, body: string, head = ''): Served {
  return {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title>${head}</head>\n<body>\n${body}\n</body>\n</html>\n`,
  };
}
