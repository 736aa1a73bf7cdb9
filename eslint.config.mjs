// ESLint (flat config): the site's TypeScript and React code, tests, scripts and benchmarks.
// Rules: ESLint's and typescript-eslint's recommended sets, React's hooks rules and Docusaurus's
// recommended rules. Formatting is Prettier's (see .prettierrc.json), not ESLint's.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import docusaurus from '@docusaurus/eslint-plugin';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';

export default tseslint.config(
  {
    ignores: [
      'build/',
      'build-analytics/',
      '.docusaurus/',
      '.sources/',
      'node_modules/',
      'test-results/',
      'playwright-report/',
      'static/',
      'docs/',
      'versioned_docs/',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  {
    plugins: {'@docusaurus': docusaurus},
    rules: docusaurus.configs.recommended.rules,
  },
  {
    // The simulated device's parts depend on the interfaces in device/src/types.ts, and device.ts
    // composes them: no module of device/src may import one that imports it back.
    files: ['device/src/**/*.ts'],
    plugins: {'import-x': importX},
    settings: {
      'import-x/parsers': {'@typescript-eslint/parser': ['.ts', '.tsx']},
      'import-x/resolver': {node: {extensions: ['.ts', '.tsx', '.js', '.mjs']}},
    },
    rules: {'import-x/no-cycle': 'error'},
  },
  {
    languageOptions: {globals: {...globals.browser, ...globals.node}},
    rules: {
      // Unused arguments and caught errors named with a leading underscore are deliberate.
      '@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none'}],
    },
  },
);
