/**
 * A static server for a production build that compresses like real hosting: gzip (via the
 * `compression` middleware, level 6, for text responses over 1 KiB) in front of `serve-handler`
 * with the options `docusaurus serve` uses (clean URLs, trailing slashes kept, 404.html for
 * unknown paths). `docusaurus serve` itself does not compress, so page weight and Lighthouse
 * figures taken against it would be those of no real host.
 *
 * Usage as a script: tsx bench/serve-gzip.ts [DIR] [PORT]   (default build/ and 4180)
 */
import http from 'node:http';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import compression from 'compression';
import serveHandler from 'serve-handler';

/** A running server: its origin (`http://127.0.0.1:PORT`) and a way to stop it. */
export interface GzipServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * Starts the server.
 *
 * @param dir The build folder to serve (absolute or relative to the working directory).
 * @param port TCP port on 127.0.0.1; 0 picks a free one.
 * @returns The origin and `close()`.
 * @throws Error when the port cannot be bound (e.g. EADDRINUSE), as the `listen` error.
 */
export async function startGzipServer(dir: string, port = 0): Promise<GzipServer> {
  const compress = compression();
  const server = http.createServer((req, res) => {
    compress(req as never, res as never, () => {
      void serveHandler(req, res, {public: path.resolve(dir), cleanUrls: true, trailingSlash: true, directoryListing: false});
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    origin: `http://127.0.0.1:${actualPort}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const server = await startGzipServer(process.argv[2] ?? 'build', Number(process.argv[3] ?? 4180));
  console.log(`serving ${process.argv[2] ?? 'build'} with gzip at ${server.origin}/`);
}
