import assert from 'node:assert/strict';
import {test} from 'node:test';

import React from 'react';
import {renderToStaticMarkup} from 'react-dom/server';
import fs from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';

/** The repository root. */
const REPO = path.resolve(import.meta.dirname ?? __dirname, '../..');
/**
 * prism-react-renderer as theme-classic resolves it: the copy our stand-in replaces in the bundle,
 * which is the one to match (another copy may be hoisted to the top of node_modules).
 */
const library = createRequire(createRequire(path.join(REPO, 'package.json')).resolve('@docusaurus/theme-classic/package.json'))(
  'prism-react-renderer',
) as typeof import('prism-react-renderer');
const {Highlight: LibraryHighlight, normalizeTokens: libraryNormalize, themes} = library;

import {Highlight, normalizeTokens, Prism} from '../../src/prism/prism-react-renderer.ts';

const SAMPLES: [language: string, code: string][] = [
  [
    'ts',
    'import { Adb } from "@yume-chan/adb";\n\n// connect\nconst adb: Adb = await connect(`tcp:${port}`);\nexport class A<T> extends B { #x = 0x1f; get y(): T | undefined { return /a+b/g.test("s") ? undefined : this.z; } }\n',
  ],
  ['tsx', 'export function App({ n }: { n: number }) {\n  return <div className="a">{n > 1 && <span>{"x"}</span>}</div>;\n}\n'],
  ['js', 'const a = 1;\r\nconst b = `x${a}y`;\r\n\r\n'],
  ['jsx', 'const el = <a href="/x">{1}</a>;'],
  ['bash', 'npm install @yume-chan/adb # comment\nadb shell "getprop ro.product.model" && echo $HOME\n'],
  ['json', '{ "a": [1, true, null, "s"] }'],
  ['html', '<div class="x"><script>var a = 1;</script><!-- c --></div>'],
  ['text', 'plain text\n\nwith empty line'],
  ['nosuchlanguage', 'x = 1'],
];

test('no grammar is built on import; the first Highlight adds the ones the docs use, and no more', () => {
  assert.equal(Prism.languages['typescript'], undefined);
  const global = globalThis as {Prism?: unknown};
  const sentinel = {};
  global.Prism = sentinel;
  renderToStaticMarkup(
    <Highlight code="x" language="ts">
      {() => null}
    </Highlight>,
  );
  assert.equal(global.Prism, sentinel, 'the global Prism is restored');
  for (const language of ['typescript', 'ts', 'javascript', 'js', 'jsx', 'tsx', 'markup', 'html', 'bash', 'sh', 'json']) {
    assert.ok(Prism.languages[language], language);
  }
  assert.equal(Prism.languages['coffeescript'], undefined);
});

test('normalizeTokens gives the same lines as prism-react-renderer for every sample', () => {
  for (const [language, code] of SAMPLES) {
    const grammar = Prism.languages[language];
    const stream = grammar ? Prism.tokenize(code, grammar) : [code];
    assert.deepEqual(normalizeTokens(stream), libraryNormalize(stream as never), language);
  }
});

test('Highlight renders the same markup as prism-react-renderer, with the same Prism and theme', () => {
  const render = (Component: typeof Highlight, language: string, code: string, theme = themes.github) =>
    renderToStaticMarkup(
      <Component prism={Prism} theme={theme} code={code} language={language}>
        {({className, style, tokens, getLineProps, getTokenProps}) => (
          <pre className={className} style={style}>
            {tokens.map((line, i) => (
              <div key={i} {...getLineProps({line, className: i === 0 ? 'first' : undefined})}>
                {line.map((token, j) => (
                  <span key={j} {...getTokenProps({token, style: j === 0 ? {fontWeight: 'bold'} : undefined})} />
                ))}
              </div>
            ))}
          </pre>
        )}
      </Component>,
    );
  for (const [language, code] of SAMPLES) {
    for (const theme of [themes.github, themes.dracula]) {
      assert.equal(
        render(Highlight, language, code, theme),
        render(LibraryHighlight as unknown as typeof Highlight, language, code, theme),
        language,
      );
    }
  }
});

test('exports every name that the bundled Docusaurus and search packages import from prism-react-renderer', async () => {
  // The bundler aliases `prism-react-renderer` to our stand-in for every importer; a name it lacks
  // would be undefined at run time, so read what the importers ask for.
  const wanted = new Set<string>();
  const scan = (dir: string) => {
    for (const entry of fs.readdirSync(dir, {withFileTypes: true})) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules') scan(full);
      else if (/\.(js|mjs|jsx)$/.test(entry.name)) {
        const text = fs.readFileSync(full, 'utf8');
        for (const match of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]prism-react-renderer['"]/g)) {
          if (match[1]) continue;
          for (const part of match[2]!.split(',')) {
            const name = part
              .trim()
              .split(/\s+as\s+/)[0]!
              .trim();
            if (name !== '' && !name.startsWith('type ')) wanted.add(name);
          }
        }
      }
    }
  };
  for (const scope of ['@docusaurus', '@easyops-cn']) scan(path.join(REPO, 'node_modules', scope));
  assert.ok(wanted.has('Prism') && wanted.has('Highlight'), `found: ${[...wanted].join(', ')}`);
  const ours = (await import('../../src/prism/prism-react-renderer.ts')) as Record<string, unknown>;
  for (const name of wanted) assert.notEqual(ours[name], undefined, `the stand-in does not export ${name}`);
});
