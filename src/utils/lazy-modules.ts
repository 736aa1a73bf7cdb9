/**
 * The compiler and the formatter that the remark plugins use, loaded when a plugin first needs
 * them instead of when docusaurus.config.ts is loaded. Loading the config is what `docusaurus
 * serve`, `docs:version` and the config's unit tests do without transforming a single page; with
 * TypeScript and Prettier imported at the top of the plugins, it took ~2 CPU-s (TypeScript's 9 MB
 * file, read again by tsx's CommonJS hook), against ~0.5 without.
 *
 * Input: none. Output: the module, the same object on every call. Errors: throws as `require`
 * does when the package is not installed.
 */
import {createRequire} from 'node:module';

const require = createRequire(import.meta.url);

let typescript: typeof import('typescript') | undefined;
let prettier: typeof import('prettier') | undefined;

/** The `typescript` package (what `import ts from 'typescript'` gives). */
export function loadTypeScript(): typeof import('typescript') {
  typescript ??= require('typescript') as typeof import('typescript');
  return typescript;
}

/** The `prettier` package (its CommonJS entry, the same API as `import * as prettier from 'prettier'`). */
export function loadPrettier(): typeof import('prettier') {
  prettier ??= require('prettier') as typeof import('prettier');
  return prettier;
}
