import {createRequire} from 'node:module';
import type {Element, Root} from 'hast';
import {Prism, normalizeTokens, type PrismTheme} from 'prism-react-renderer';
import {visit} from 'unist-util-visit';

/** The two colour themes of code blocks (themeConfig.prism's `theme` and `darkTheme`). */
export interface HighlightThemes {
  light: PrismTheme;
  dark: PrismTheme;
}

/** Token style of one theme: colour and font style by token type, as prism-react-renderer merges them. */
type StyleDictionary = Record<string, {color?: string; fontStyle?: string}>;

let bashAdded = false;

/**
 * Prism's grammars for the fence languages of these pages. prism-react-renderer's Prism has
 * TypeScript, JavaScript, TSX, JSX, JSON and HTML; `bash` (and `sh`, `shell`) comes from the
 * `prismjs` package, loaded into that Prism once.
 */
function grammar(language: string): Prism.Grammar | undefined {
  if (!bashAdded) {
    bashAdded = true;
    const global = globalThis as {Prism?: unknown};
    const before = global.Prism;
    global.Prism = Prism;
    createRequire(import.meta.url)('prismjs/components/prism-bash');
    global.Prism = before;
  }
  return Prism.languages[language];
}

/** prism-react-renderer 2.4's `themeToDict`: each token type's style for one language. */
function styleDictionary(theme: PrismTheme, language: string): StyleDictionary {
  const dictionary: StyleDictionary = {};
  for (const {types, languages, style} of theme.styles) {
    if (languages && !languages.includes(language)) continue;
    for (const type of types) dictionary[type] = {...dictionary[type], ...(style as StyleDictionary[string])};
  }
  return dictionary;
}

/** prism-react-renderer 2.4's `getStyleForToken`: the merged style of a token's types (`plain` has none). */
function tokenStyle(types: string[], dictionary: StyleDictionary): {color?: string; fontStyle?: string} {
  if (types.length === 1 && types[0] === 'plain') return {};
  return Object.assign({}, ...types.map((type) => dictionary[type] ?? {}));
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A code sample as highlighted HTML, one string per line.
 *
 * Input: the code (a trailing newline is dropped, as theme-classic's CodeBlock does), a Prism
 * language name and the two themes. Output: for each line, the HTML of its tokens: plain text
 * escaped, other tokens as `<span style="--tl:…;--td:…">`, with the light and dark colour (and
 * `--tlf`/`--tdf` font styles where a theme sets one) as CSS variables that src/css/custom.css
 * applies by colour mode; adjacent tokens of the same style share a span. `undefined` when Prism
 * has no grammar for the language. Errors: none.
 * Facts: token types from Prism (prism-react-renderer 2.4's copy), styles merged as
 * prism-react-renderer merges them, so the colours are those the theme showed in the browser.
 */
export function highlightLines(code: string, language: string, themes: HighlightThemes): string[] | undefined {
  const rules = grammar(language);
  if (!rules) return undefined;
  const light = styleDictionary(themes.light, language);
  const dark = styleDictionary(themes.dark, language);
  const lines = normalizeTokens(Prism.tokenize(code.replace(/\r?\n$/, ''), rules));
  return lines.map((line) => {
    let html = '';
    let open = '';
    for (const token of line) {
      // An empty line comes as one token '\n' (theme-classic's Line drops it the same way).
      const content = token.content.replace(/\r?\n/g, '');
      if (content === '') continue;
      const l = tokenStyle(token.types, light);
      const d = tokenStyle(token.types, dark);
      const vars = [
        l.color && `--tl:${l.color}`,
        d.color && `--td:${d.color}`,
        l.fontStyle && `--tlf:${l.fontStyle}`,
        d.fontStyle && `--tdf:${d.fontStyle}`,
      ]
        .filter(Boolean)
        .join(';');
      if (vars !== open) {
        if (open) html += '</span>';
        if (vars) html += `<span style="${vars}">`;
        open = vars;
      }
      html += escapeHtml(content);
    }
    if (open) html += '</span>';
    return html;
  });
}

/** The text of a hast element (code blocks hold text nodes only). */
function textOf(node: Element): string {
  return node.children.map((child) => (child.type === 'text' ? child.value : child.type === 'element' ? textOf(child) : '')).join('');
}

/**
 * Rehype plugin: highlights every fenced code block at build time, so that no highlighter runs or
 * ships in the reader's browser.
 *
 * Input: the MDX page's hast, where a fenced block is `pre > code.language-x`; options: the light
 * and dark themes. Output: the same tree, each `code` of a known language with a `data-tango-html`
 * property holding its lines' HTML ({@link highlightLines}) joined by `\n`, which src/theme/CodeBlock
 * passes to src/theme/CodeBlock/Content. Blocks in other languages (`text`, `mermaid`) are left
 * as they are and shown as plain text. Errors: none.
 */
export default function rehypeHighlight(themes: HighlightThemes) {
  return (tree: Root): void => {
    visit(tree, 'element', (node, _index, parent) => {
      if (node.tagName !== 'code' || parent?.type !== 'element' || parent.tagName !== 'pre') return;
      const className = (node.properties.className as string[] | undefined) ?? [];
      const language = className
        .map(String)
        .find((name) => name.startsWith('language-'))
        ?.slice('language-'.length);
      if (!language) return;
      const lines = highlightLines(textOf(node), language, themes);
      if (lines) node.properties.dataTangoHtml = lines.join('\n');
    });
  };
}
