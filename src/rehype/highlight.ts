import {createRequire} from 'node:module';
import type {Element, Root} from 'hast';
import {Prism, normalizeTokens, type PrismTheme} from 'prism-react-renderer';
import {visit} from 'unist-util-visit';
import {escapeHtml} from '../utils/escape-html.ts';

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

/** Every colour a theme gives tokens, in the order of its styles: the class `l<i>`/`d<i>` is colour i. */
export function themeColors(theme: PrismTheme): string[] {
  const colors: string[] = [];
  for (const {style} of theme.styles) {
    const color = (style as {color?: string}).color;
    if (color && !colors.includes(color)) colors.push(color);
  }
  return colors;
}

/**
 * The stylesheet that gives the token classes of {@link highlightLines} their colours: `l<i>` the
 * light theme's colour i and `li` its italic, in light mode; `d<i>` and `di`, the same of the dark
 * theme, in dark mode. About 1 KB; docusaurus.config.ts puts it in every page's `<head>`.
 * Input: the two themes. Output: CSS text. Errors: none.
 */
export function tokenStylesheet(themes: HighlightThemes): string {
  const rules: string[] = [];
  for (const [prefix, mode, theme] of [
    ['l', 'light', themes.light],
    ['d', 'dark', themes.dark],
  ] as const) {
    const scope = `html[data-theme='${mode}'] .tango-code`;
    themeColors(theme).forEach((color, index) => rules.push(`${scope} .${prefix}${index}{color:${color}}`));
    rules.push(`${scope} .${prefix}i{font-style:italic}`);
  }
  return rules.join('\n');
}

/** The classes of one token in one theme: its colour's `l<i>`/`d<i>`, and `li`/`di` when italic. */
function tokenClasses(style: {color?: string; fontStyle?: string}, colors: string[], prefix: 'l' | 'd'): string[] {
  const classes: string[] = [];
  const index = style.color ? colors.indexOf(style.color) : -1;
  if (index >= 0) classes.push(`${prefix}${index}`);
  if (style.fontStyle === 'italic') classes.push(`${prefix}i`);
  return classes;
}

/**
 * A code sample as highlighted HTML, one string per line.
 *
 * Input: the code (a trailing newline is dropped, as theme-classic's CodeBlock does), a Prism
 * language name and the two themes. Output: for each line, the HTML of its tokens: plain text
 * escaped, other tokens as `<span class="l3 d5 di">`, the classes naming the token's colour and
 * font style in each theme ({@link tokenStylesheet} gives them their values, by colour mode);
 * adjacent tokens of the same classes share a span. Classes, not inline colours: the HTML of every
 * block is part of the page's JavaScript and of the build's memory, and inline colours made it
 * twice as long. `undefined` when Prism has no grammar for the language. Errors: none.
 * Facts: token types from Prism (prism-react-renderer 2.4's copy), styles merged as
 * prism-react-renderer merges them, so the colours are those the theme showed in the browser.
 */
export function highlightLines(code: string, language: string, themes: HighlightThemes): string[] | undefined {
  const rules = grammar(language);
  if (!rules) return undefined;
  const light = styleDictionary(themes.light, language);
  const dark = styleDictionary(themes.dark, language);
  const lightColors = themeColors(themes.light);
  const darkColors = themeColors(themes.dark);
  const lines = normalizeTokens(Prism.tokenize(code.replace(/\r?\n$/, ''), rules));
  return lines.map((line) => {
    let html = '';
    let open = '';
    for (const token of line) {
      // An empty line comes as one token '\n' (theme-classic's Line drops it the same way).
      const content = token.content.replace(/\r?\n/g, '');
      if (content === '') continue;
      const classes = [
        ...tokenClasses(tokenStyle(token.types, light), lightColors, 'l'),
        ...tokenClasses(tokenStyle(token.types, dark), darkColors, 'd'),
      ].join(' ');
      if (classes !== open) {
        if (open) html += '</span>';
        if (classes) html += `<span class="${classes}">`;
        open = classes;
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
