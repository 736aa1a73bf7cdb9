import {defineConfig} from '@playwright/test';

import site from './playwright.config.ts';

/**
 * The browser tests against the simulated device (tests/e2e/webusb-device.spec.ts) on their own:
 * the same Chromium and launch options as playwright.config.ts, without its two `docusaurus serve`
 * web servers (these tests serve their own pages and need no site build).
 *
 * Usage: `CHROMIUM_PATH=/usr/bin/chromium npx playwright test -c playwright.device.config.ts`.
 * `npm run test:e2e` (playwright.config.ts) runs these tests too, with the rest.
 */
export default defineConfig({
  ...site,
  testMatch: ['webusb-device.spec.ts'],
  webServer: undefined,
  reporter: [['list']],
  use: {...site.use, baseURL: undefined},
});
