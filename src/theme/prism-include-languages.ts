/**
 * Swizzled (replaced) `@theme/prism-include-languages`: nothing to add. Code is highlighted at build
 * time (src/rehype/highlight.ts), so the browser has no Prism to give languages to; the theme's
 * version would `require` `prismjs/components/*` into every page.
 * Input: the (stub) Prism object theme-classic's client module passes. Output: none. Errors: none.
 */
export default function prismIncludeLanguages(): void {}
