/**
 * Client module: the progress bar of a slow client-side navigation without its invalid ARIA role.
 *
 * theme-classic shows nprogress's bar when the next route takes over 200 ms to load
 * (`@docusaurus/theme-classic/lib/nprogress.js` 3.10.2). nprogress 0.2.0's default template marks
 * the bar `role="bar"`, which is no ARIA role: axe-core reports it as a critical `aria-roles`
 * violation (found by tests/e2e/a11y.spec.ts on a slow navigation). The bar only shows progress
 * and carries no text, so it is hidden from assistive technology instead, and nprogress finds it
 * by its class. The theme's own settings (no spinner) stay: `configure` merges.
 *
 * Input: none. Output: none (sets nprogress's template once, when the module loads). Errors: none.
 */
import nprogress from 'nprogress';

// nprogress finds the bar with `barSelector` (by default the role): it must follow the template.
nprogress.configure({template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>', barSelector: '.bar'});

export {};
