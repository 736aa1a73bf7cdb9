import {defineConfig, devices} from '@playwright/test';

/**
 * Browser tests run Debian's Chromium (never a browser Playwright downloads: `CHROMIUM_PATH`,
 * set by `scripts/test.sh`, else /usr/bin/chromium) against two production builds served by
 * `docusaurus serve`, which `npm test` makes first:
 * - `build/` on 127.0.0.1:4173: the site as the README serves it (no analytics), plus the
 *   test-only route (TANGO_TEST_ROUTES=1);
 * - `build-analytics/` on 127.0.0.1:4174: the home pages of the latest version's four sidebars
 *   (TANGO_LATEST_ONLY=1, TANGO_ONLY_DOCS) with GTAG_TRACKING_ID=G-TANGOTEST, for the analytics
 *   tests (tests/e2e/analytics.spec.ts).
 */
const port = 4173;
const analyticsPort = 4174;
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: true,
  // Two workers on the 2-core CI machine: once requests stopped going through Playwright's router
  // (see tests/e2e/fixtures.ts), the browser tests took 6.7 min with two workers and 9.7 min with
  // one on this machine.
  workers: 2,
  retries: 0,
  timeout: 30_000,
  // Chromium and the servers share the cores with the tests: give assertions room before they fail.
  expect: {timeout: 10_000},
  reporter: [['list'], ['json', {outputFile: 'test-results/e2e.json'}]],
  use: {
    baseURL,
    // Recording a trace slowed every test by about a third (8.4 s against 5.9 s for 20 page loads),
    // kept or not. The failure messages name the route and the check; rerun a failing test with
    // `npx playwright test <file> --trace on` to get one.
    trace: 'off',
    // One browser context per worker, reset between tests (Playwright closes its other pages and
    // clears cookies, local and session storage, IndexedDB, routes and init scripts;
    // tests/e2e/fixtures.ts clears permissions), so that its HTTP and compiled-code caches stay
    // warm: a test's first page load in a fresh context took ~2.2 CPU-s against ~0.6 in a used
    // one, and the browser tests took 617 CPU-s with a context per test, 462 with this.
    reuseContext: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // No host name but 127.0.0.1 resolves: a request to another host fails at once, on the
        // machine (tests/e2e/fixtures.ts records it), without routing every request through Playwright.
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      ],
    },
  },
  projects: [{name: 'chromium', use: {...devices['Desktop Chrome'], channel: undefined}}],
  webServer: [
    {
      command: `npx docusaurus serve --port ${port} --host 127.0.0.1 --no-open`,
      url: `${baseURL}/`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
    {
      command: `npx docusaurus serve --dir build-analytics --port ${analyticsPort} --host 127.0.0.1 --no-open`,
      url: `http://127.0.0.1:${analyticsPort}/`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
  ],
});
