/**
 * A small stand-in for `prism-react-renderer` in the site's bundles (server and client), wired in
 * by the `tango-stand-ins` plugin of docusaurus.config.ts as a webpack alias.
 *
 * Why: prism-react-renderer 2.4 ships one module that defines ~40 Prism grammars when it is
 * imported (CoffeeScript, Swift, Rust, …). Docusaurus imports it in a client module, so every page
 * paid for all of them before it could hydrate (Lighthouse mobile: ~1 s of total blocking time on
 * the search page, see bench/lighthouse.ts). These pages only show TypeScript, JavaScript, JSX,
 * TSX, HTML, `bash` and `json`: this module builds Prism from the `prismjs` package
 * with just those, and renders tokens the way prism-react-renderer does, so the theme's CodeBlock
 * and its line/token markup are unchanged (tests/unit/prism-renderer.test.tsx compares both).
 * The grammars are added when the first code block renders ({@link addGrammars}); theme-classic
 * still adds bash and json at load, from `themeConfig.prism.additionalLanguages` (an empty list
 * would make it bundle Prism's whole component index).
 *
 * Exports what theme-classic imports: `Highlight` and `Prism`; and `normalizeTokens`, `addGrammars`.
 * Facts: the prop and token shapes of prism-react-renderer 2.4.1's public API.
 */
import './manual';
import {useCallback, useMemo, type CSSProperties, type ReactNode} from 'react';
import clsx from 'clsx';
import Prism from 'prismjs/components/prism-core';
import type {PrismTheme} from 'prism-react-renderer';

export {Prism};

let grammarsAdded = false;

/**
 * Adds the grammars the docs use to {@link Prism}, on first call; later calls do nothing.
 *
 * Why not at import: this module is imported by a client module, i.e. while main.js is evaluated,
 * before the page can respond to input. Building the grammars (hundreds of regular expressions)
 * was ~14 % of that task in a Chrome trace of the home page (bench/long-tasks.ts). Called from
 * `Highlight`, it runs when the first code block renders, and never on a page without one.
 *
 * Input: none. Output: `Prism.languages` holds markup (html, xml, svg), clike, javascript (js),
 * jsx, typescript (ts), tsx, bash (sh, shell) and json (bash and json are usually there already,
 * from theme-classic; a module runs once, so requiring them again does nothing). The grammar files are plain scripts that
 * extend the global `Prism`, so it is pointed at this instance while they run and restored after.
 * Errors: none of its own.
 */
export function addGrammars(): void {
  if (grammarsAdded) return;
  grammarsAdded = true;
  const global = globalThis as {Prism?: unknown};
  const before = global.Prism;
  global.Prism = Prism;
  try {
    /* eslint-disable @typescript-eslint/no-require-imports -- the grammars register themselves on the global Prism set just above, so they must load here, in this order, and not as hoisted imports */
    require('prismjs/components/prism-markup');
    require('prismjs/components/prism-clike');
    require('prismjs/components/prism-javascript');
    require('prismjs/components/prism-jsx');
    require('prismjs/components/prism-typescript');
    require('prismjs/components/prism-tsx');
    require('prismjs/components/prism-bash');
    require('prismjs/components/prism-json');
    /* eslint-enable @typescript-eslint/no-require-imports */
  } finally {
    global.Prism = before;
  }
}

/** One token of a line: the Prism token types it is nested in, and its text. */
export interface Token {
  types: string[];
  content: string;
  /** Set on the single token that stands for an empty line (its content is then `"\n"`). */
  empty?: boolean;
}

type PrismStream = Array<string | Prism.Token>;

function addTypes(types: string[], added: string | string[] | undefined): string[] {
  if (added === undefined || added === '' || (Array.isArray(added) && added.length === 0)) return types;
  if (typeof added === 'string' && types[types.length - 1] === added) return types;
  return types.concat(added);
}

function closeLine(line: Token[]): void {
  if (line.length === 0) line.push({types: ['plain'], content: '\n', empty: true});
  else if (line.length === 1 && line[0]!.content === '') {
    line[0]!.content = '\n';
    line[0]!.empty = true;
  }
}

/**
 * Flattens a Prism token stream into lines of tokens.
 *
 * Input: what `Prism.tokenize` returns (strings and nested `Prism.Token`s).
 * Output: one array per source line (split on `\r\n`, `\r` or `\n`); a token carries every type it
 * is nested in (top-level strings are `plain`); an empty line holds one `{types: ['plain'],
 * content: '\n', empty: true}` token. Errors: none.
 */
export function normalizeTokens(stream: PrismStream): Token[][] {
  const lines: Token[][] = [[]];
  const walk = (items: PrismStream, inherited: string[], nested: boolean): void => {
    for (const item of items) {
      let types: string[];
      let content: string | Prism.Token | PrismStream;
      if (typeof item === 'string') {
        types = nested ? inherited : ['plain'];
        content = item;
      } else {
        types = addTypes(addTypes(inherited, item.type), item.alias);
        content = item.content;
      }
      if (typeof content !== 'string') {
        // A nested stream; a lone nested token (never produced by tokenize) has no lines of its own.
        if (Array.isArray(content)) walk(content, types, true);
        continue;
      }
      content.split(/\r\n|\r|\n/).forEach((part, index) => {
        if (index > 0) {
          closeLine(lines[lines.length - 1]!);
          lines.push([]);
        }
        lines[lines.length - 1]!.push({types, content: part});
      });
    }
  };
  walk(stream, [], false);
  closeLine(lines[lines.length - 1]!);
  return lines;
}

type StyleDictionary = Record<string, CSSProperties> & {root: CSSProperties; plain: CSSProperties};

function styleDictionary(theme: PrismTheme, language: string): StyleDictionary {
  const dictionary: Record<string, CSSProperties> = {};
  for (const entry of theme.styles) {
    if (entry.languages && !entry.languages.includes(language as never)) continue;
    for (const type of entry.types) dictionary[type] = {...dictionary[type], ...(entry.style as CSSProperties)};
  }
  return {
    ...dictionary,
    root: theme.plain as CSSProperties,
    plain: {...(theme.plain as CSSProperties), backgroundColor: undefined},
  };
}

/** Props of a line element, as `getLineProps` returns them. */
export interface LineOutputProps {
  className: string;
  style?: CSSProperties;
  [other: string]: unknown;
}

/** Props of a token element, as `getTokenProps` returns them. */
export interface TokenOutputProps {
  className: string;
  style?: CSSProperties;
  children: string;
  [other: string]: unknown;
}

/** What `Highlight` passes to its render function. */
export interface RenderProps {
  tokens: Token[][];
  className: string;
  style: CSSProperties;
  getLineProps: (input: {line: Token[]; className?: string; style?: CSSProperties; [other: string]: unknown}) => LineOutputProps;
  getTokenProps: (input: {token: Token; className?: string; style?: CSSProperties; [other: string]: unknown}) => TokenOutputProps;
}

/** Props of `Highlight`, as prism-react-renderer's. */
export interface HighlightProps {
  code: string;
  language: string;
  theme?: PrismTheme;
  prism?: typeof Prism;
  children: (props: RenderProps) => ReactNode;
}

/**
 * Tokenizes `code` with the grammar of `language` and hands lines of tokens to `children`.
 *
 * Input: `{code, language, theme, prism, children}`; a language without a grammar renders as
 * plain text; without a theme, tokens get no inline style. Output: whatever `children` renders,
 * given `{tokens, className: 'prism-code language-<language>', style (the theme's plain style),
 * getLineProps, getTokenProps}`. Errors: none of its own (Prism's, if a grammar throws).
 */
export function Highlight({code, language: languageProp, theme, prism = Prism, children}: HighlightProps): ReactNode {
  addGrammars();
  const language = languageProp.toLowerCase();
  const dictionary = useMemo(() => (theme ? styleDictionary(theme, language) : undefined), [theme, language]);
  const grammar = prism.languages[language];
  const tokens = useMemo(() => {
    if (grammar === undefined) return normalizeTokens([code]);
    const environment = {code, grammar, language, tokens: [] as PrismStream};
    prism.hooks.run('before-tokenize', environment);
    environment.tokens = prism.tokenize(code, grammar);
    prism.hooks.run('after-tokenize', environment);
    return normalizeTokens(environment.tokens);
  }, [code, grammar, language, prism]);

  const getLineProps = useCallback<RenderProps['getLineProps']>(
    ({line: _line, className, style, ...rest}) => {
      const output: LineOutputProps = {...rest, className: clsx('token-line', className)};
      if (dictionary) output.style = dictionary.plain;
      if (typeof style === 'object') output.style = {...output.style, ...style};
      return output;
    },
    [dictionary],
  );

  const getTokenProps = useCallback<RenderProps['getTokenProps']>(
    ({token, className, style, ...rest}) => {
      let tokenStyle: CSSProperties | undefined;
      if (dictionary) {
        const inline: CSSProperties | undefined = token.empty ? {display: 'inline-block'} : undefined;
        if (token.types.length === 1 && token.types[0] === 'plain') tokenStyle = inline;
        else if (token.types.length === 1 && inline) tokenStyle = dictionary[token.types[0]!];
        else tokenStyle = Object.assign({}, inline, ...token.types.map((type) => dictionary[type]));
      }
      const output: TokenOutputProps = {
        ...rest,
        className: clsx('token', ...token.types, className),
        children: token.content,
        style: tokenStyle,
      };
      if (style != null) output.style = {...output.style, ...style};
      return output;
    },
    [dictionary],
  );

  return children({tokens, className: `prism-code language-${language}`, style: dictionary?.root ?? {}, getLineProps, getTokenProps});
}
