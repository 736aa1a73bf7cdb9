import {readFileSync} from 'node:fs';
import path from 'node:path';

/**
 * The localStorage keys the site reads and writes, without their namespace suffix. Found by
 * reading the built JS and by using every stateful control (tests/e2e/bad-input.spec.ts checks
 * that a session which uses them all ends with exactly these keys):
 * - `theme`: the colour mode, read by the inline script in <head> and by the toggle;
 * - `docusaurus.announcement.dismiss`, `docusaurus.announcement.id`: the announcement bar;
 * - `docusaurus.tab.{groupId}`: the tab last picked in each synced tab group of the docs
 *   (`code-language`: TypeScript / JavaScript, `runtime`: Web / Node.js, `bundler`);
 * - `docs-preferred-version-default`: the docs version picked in the navbar dropdown.
 * The search plugin stores nothing. sessionStorage holds only `tango-test-crash`, read by the
 * test-only crash page (tests/support/CrashPage.tsx).
 */
export const SITE_STORAGE_KEYS = [
  'theme',
  'docusaurus.announcement.dismiss',
  'docusaurus.announcement.id',
  'docusaurus.tab.code-language',
  'docusaurus.tab.runtime',
  'docusaurus.tab.bundler',
  'docs-preferred-version-default',
];

/**
 * A key as the site stores it. `future.v4` turns on storage namespacing, so every key carries a
 * suffix derived from the site URL (`theme-f18`, not `theme`); the build's inline colour-mode
 * script names it.
 */
export function siteStorageKey(name: string): string {
  const html = readFileSync(path.resolve(import.meta.dirname, '../../build/index.html'), 'utf8');
  const suffix = /localStorage\.getItem\("theme([^"]*)"\)/.exec(html)?.[1];
  if (suffix === undefined) throw new Error('build/index.html: no inline script reading the theme from localStorage');
  return `${name}${suffix}`;
}
