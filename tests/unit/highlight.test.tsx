import assert from 'node:assert/strict';
import {test} from 'node:test';
import fs from 'node:fs';
import path from 'node:path';

import React from 'react';
import {renderToStaticMarkup} from 'react-dom/server';
import {Highlight, themes, type RenderProps} from 'prism-react-renderer';
import {fromHtml} from 'hast-util-from-html';
import type {Element, ElementContent} from 'hast';

import {highlightLines, themeColors, tokenStylesheet} from '../../src/rehype/highlight.ts';
import {accessiblePrismTheme} from '../../src/utils/prism-contrast.ts';

const REPO = path.resolve(import.meta.dirname ?? __dirname, '../..');
/** The themes of docusaurus.config.ts. */
const THEMES = {light: accessiblePrismTheme(themes.github, [0, 0, 0, 0.1]), dark: accessiblePrismTheme(themes.dracula, [0, 0, 0, 0.3])};

const SAMPLES: [language: string, code: string][] = [
  [
    'ts',
    'import { Adb } from "@yume-chan/adb";\n\n// connect\nconst adb: Adb = await connect(`tcp:${port}`);\nexport class A<T> extends B { #x = 0x1f; get y(): T | undefined { return /a+b/g.test("s") ? undefined : this.z; } }\n',
  ],
  ['tsx', 'export function App({ n }: { n: number }) {\n  return <div className="a">{n > 1 && <span>{"x"}</span>}</div>;\n}\n'],
  ['js', 'const a = 1;\nconst b = `x${a}y`;\n\n'],
  ['bash', 'npm install @yume-chan/adb # comment\nadb shell "getprop ro.product.model" && echo $HOME\n'],
  ['json', '{ "a": [1, true, null, "s"] }'],
  ['html', '<div class="x"><script>var a = 1;</script><!-- c --></div>'],
];

/** One entry per character: its colour and font style, `''` where the token has none. */
type Styled = string[][];

/** What prism-react-renderer's Highlight (the browser highlighter the site used) shows, per line. */
function libraryStyles(code: string, language: string, theme: typeof themes.github): Styled {
  let render: RenderProps | undefined;
  renderToStaticMarkup(
    <Highlight theme={theme} code={code.replace(/\n$/, '')} language={language}>
      {(props) => {
        render = props;
        return <></>;
      }}
    </Highlight>,
  );
  return render!.tokens.map((line) =>
    line.flatMap((token) => {
      const {style, children} = render!.getTokenProps({token});
      const text = String(children).replace(/\n/g, '');
      return [...text].map(() => `${style?.color ?? ''}|${style?.fontStyle ?? ''}`);
    }),
  );
}

/** What the build-time HTML shows in one colour mode, per line, reading its classes (`l` light, `d` dark). */
function ourStyles(lines: string[], mode: 'l' | 'd'): Styled {
  const colors = themeColors(mode === 'l' ? THEMES.light : THEMES.dark);
  return lines.map((html) => {
    const styles: string[] = [];
    const walk = (nodes: ElementContent[], style: string) => {
      for (const node of nodes) {
        if (node.type === 'text') styles.push(...[...node.value].map(() => style));
        else if (node.type === 'element') {
          const classes = ((node as Element).properties.className as string[]).map(String);
          const color = classes.find((name) => new RegExp(`^${mode}\\d+$`).test(name));
          const italic = classes.includes(`${mode}i`);
          walk(node.children, `${color ? colors[Number(color.slice(1))] : ''}|${italic ? 'italic' : ''}`);
        }
      }
    };
    walk(fromHtml(html, {fragment: true}).children as ElementContent[], '|');
    return styles;
  });
}

test('build-time highlighting gives every character the colour and font style Prism gave it in the browser, in both themes', () => {
  for (const [language, code] of SAMPLES) {
    const lines = highlightLines(code, language, THEMES);
    assert.ok(lines, `${language}: highlighted`);
    assert.equal(
      lines
        .join('\n')
        .replace(/<[^>]+>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
      code.replace(/\n$/, ''),
    );
    assert.deepEqual(ourStyles(lines, 'l'), libraryStyles(code, language, THEMES.light), `${language}, light`);
    assert.deepEqual(ourStyles(lines, 'd'), libraryStyles(code, language, THEMES.dark), `${language}, dark`);
  }
});

test('the stylesheet gives each colour class its colour in its mode only', () => {
  const css = tokenStylesheet(THEMES);
  themeColors(THEMES.light).forEach((color, index) =>
    assert.ok(css.includes(`html[data-theme='light'] .tango-code .l${index}{color:${color}}`)),
  );
  themeColors(THEMES.dark).forEach((color, index) =>
    assert.ok(css.includes(`html[data-theme='dark'] .tango-code .d${index}{color:${color}}`)),
  );
  assert.match(css, /html\[data-theme='dark'\] \.tango-code \.di\{font-style:italic\}/);
});

test('a language without a grammar is left unhighlighted', () => {
  assert.equal(highlightLines('graph TD', 'mermaid', THEMES), undefined);
  assert.equal(highlightLines('x = 1', 'nosuchlanguage', THEMES), undefined);
  // `text` is Prism's plain language: escaped text, no colours.
  assert.deepEqual(highlightLines('a < b\n\nc', 'text', THEMES), ['a &lt; b', '', 'c']);
});

test("the bundles' prism-react-renderer stand-in exports every name the bundled Docusaurus and search packages import", async () => {
  // The bundler aliases `prism-react-renderer` to the stand-in for every importer; a name it lacks
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
  assert.ok(wanted.has('Prism'), `found: ${[...wanted].join(', ')}`);
  const ours = (await import('../../src/prism/prism-react-renderer.ts')) as Record<string, unknown>;
  for (const name of wanted) assert.notEqual(ours[name], undefined, `the stand-in does not export ${name}`);
});
