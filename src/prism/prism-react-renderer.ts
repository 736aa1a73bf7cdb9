/**
 * A stand-in for `prism-react-renderer` in the site's bundles (server and client), wired in by the
 * `tango-stand-ins` plugin of docusaurus.config.ts as a webpack alias.
 *
 * Code is highlighted at build time (src/rehype/highlight.ts, with the real package, in Node), so
 * the pages need no Prism. But theme-classic's client module `prism-include-languages` imports
 * `Prism` from `prism-react-renderer` on every page, which would bundle the package with its ~40
 * grammars. This module gives it an empty Prism instead; `@theme/prism-include-languages` (swizzled
 * to a no-op) receives it and adds nothing. `Highlight` would only be used by the theme's
 * `CodeBlock/Content`, which is swizzled too: it throws if anything renders it.
 * Facts: the names theme-classic 3.10.2 imports from prism-react-renderer (tests/unit/prism-stand-in.test.ts).
 */
export const Prism = {languages: {}};

export function Highlight(): never {
  throw new Error("Code is highlighted at build time (src/rehype/highlight.ts): nothing should render prism-react-renderer's Highlight.");
}
