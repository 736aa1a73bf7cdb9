import {existsSync} from 'node:fs';

/** Where Debian and other distributions install Chromium or Chrome, in order of preference. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'];

/**
 * Finds the Chromium binary the browser tests run.
 *
 * @returns `$CHROMIUM_PATH` when it is set and exists, else the first existing path of
 *   `CANDIDATES`, else null. Never downloads a browser.
 */
export function findChromium(): string | null {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return CANDIDATES.find((path) => existsSync(path)) ?? null;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = findChromium();
  if (found) console.log(found);
  process.exit(found ? 0 : 1);
}
