import {loadPrettier, loadTypeScript} from '../utils/lazy-modules';
import {visit, SKIP} from 'unist-util-visit';
import type {Code, Root, Parent, RootContent} from 'mdast';

/** The code-block languages that get a generated JavaScript tab. */
const TS_LANGS = new Set(['ts', 'tsx', 'typescript']);
/** Tabs of every generated pair share this group, so the reader's choice syncs site-wide. */
export const CODE_LANGUAGE_GROUP = 'code-language';
/** Blocks inside these JSX elements compare code side by side and keep a single language. */
const SKIP_INSIDE = new Set(['DiffTable', 'Tabs']);
const BLANK_MARKER = '/*__tango_blank_line__*/';

/**
 * Parses a Docusaurus line-highlight range such as `{1,3-5}` out of a code-block meta string.
 *
 * @param meta The fence meta, e.g. `title="a.ts" {1,3-5}`; null or empty when there is none.
 * @returns `lines`: the 1-based line numbers listed (sorted, unique); `rest`: the meta without
 *   the range, trimmed. A meta without a range gives no lines and the meta unchanged.
 */
export function splitHighlightMeta(meta: string | null | undefined): {lines: number[]; rest: string} {
  const text = meta ?? '';
  const match = /(?:^|\s)\{([\d,\s-]+)\}(?=\s|$)/.exec(text);
  if (!match) {
    return {lines: [], rest: text.trim()};
  }
  const lines = new Set<number>();
  for (const part of match[1]!.split(',')) {
    const [from, to = from] = part.trim().split('-').map(Number);
    if (!from || !to) continue;
    for (let line = from; line <= to; line += 1) lines.add(line);
  }
  const rest = (text.slice(0, match.index) + text.slice(match.index + match[0].length)).replace(/\s+/g, ' ').trim();
  return {lines: [...lines].sort((a, b) => a - b), rest};
}

/**
 * Turns TypeScript into the JavaScript a reader would write by hand: types removed, ES modules
 * kept, top-level `await` kept, blank lines between statements kept, Prettier formatting.
 * Highlighted lines are carried over as Docusaurus magic comments (`highlight-next-line`), so a
 * highlight survives even when the line moves; a highlighted line that is pure type syntax
 * (e.g. `import type`) disappears with it.
 *
 * @param code TypeScript source (`.ts`, or `.tsx` when `jsx` is true).
 * @param options.highlight 1-based line numbers of `code` to highlight in the output.
 * @param options.jsx Whether the source contains JSX; it is kept as JSX in the output.
 * @returns The JavaScript source, ending without a trailing newline.
 * @throws Error naming the first syntax error when the TypeScript does not parse.
 */
export function transpileForReaders(code: string, options: {highlight?: readonly number[]; jsx?: boolean} = {}): Promise<string> {
  // The same sample often appears in several versions of a page: each is converted once per build
  // process (half of the ~1 070 blocks are repeats; each conversion takes ~9 ms of main thread).
  const key = JSON.stringify([code, options.highlight ?? [], options.jsx ?? false]);
  let converted = conversions.get(key);
  if (converted === undefined) {
    converted = convert(code, options);
    conversions.set(key, converted);
  }
  return converted;
}

/** Conversions already made in this process, by source and options (a failed one fails again). */
const conversions = new Map<string, Promise<string>>();

async function convert(code: string, options: {highlight?: readonly number[]; jsx?: boolean}): Promise<string> {
  const highlight = new Set(options.highlight ?? []);
  const marked = code
    .split('\n')
    .flatMap((line, index) => {
      if (line.trim() === '') return [BLANK_MARKER];
      if (highlight.has(index + 1)) return ['// highlight-next-line', line];
      return [line];
    })
    .join('\n');

  const ts = loadTypeScript();
  const result = ts.transpileModule(marked, {
    fileName: options.jsx ? 'sample.tsx' : 'sample.ts',
    reportDiagnostics: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      jsx: ts.JsxEmit.Preserve,
      removeComments: false,
      verbatimModuleSyntax: false,
      isolatedModules: true,
      moduleDetection: ts.ModuleDetectionKind.Force,
    },
  });
  const syntaxError = result.diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error);
  if (syntaxError) {
    throw new Error(`TypeScript sample does not parse: ${ts.flattenDiagnosticMessageText(syntaxError.messageText, '\n')}`);
  }

  const javascript = result.outputText.replace(/^export \{\};\s*$/m, '');
  const formatted = await loadPrettier().format(javascript, {
    parser: 'babel',
    printWidth: 100,
    singleQuote: false,
  });
  const lines = formatted.split('\n').map((line) => line.replaceAll(BLANK_MARKER, '').trimEnd());
  // A removed type declaration takes its blank line with it; keep imports apart from the code.
  const lastImport = lines.findLastIndex((line) => /^import\s.*;$|^\}\s*from\s.*;$/.test(line));
  if (lastImport >= 0 && lines[lastImport + 1]) {
    lines.splice(lastImport + 1, 0, '');
  }
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Whether generated JavaScript holds no code: nothing but comments (`//`, `/* *\/`, including the
 * highlight markers) and white space.
 *
 * Input: JavaScript source. Output: true when only comments and white space remain. Errors: none.
 */
export function isOnlyComments(javascript: string): boolean {
  return (
    javascript
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
      .trim() === ''
  );
}

function jsxAttribute(name: string, value: string | null) {
  return {type: 'mdxJsxAttribute' as const, name, value};
}

function tabItem(value: string, label: string, code: Code) {
  return {
    type: 'mdxJsxFlowElement' as const,
    name: 'TabItem',
    attributes: [jsxAttribute('value', value), jsxAttribute('label', label)],
    children: [code],
  };
}

/**
 * Remark plugin: every fenced `ts`/`tsx`/`typescript` block becomes a pair of tabs,
 * TypeScript first and a JavaScript version generated at build time, in the tab group
 * `code-language` so the reader's choice holds across the site.
 *
 * Input: the mdast of an MDX document. Output: the same tree where each such `code` node is
 * replaced by `<Tabs groupId="code-language" className="code-tabs" lazy><TabItem value="ts">…</TabItem><TabItem value="js">…`
 * (the `Tabs` and `TabItem` components are provided globally by `src/theme/MDXComponents`).
 * The TypeScript block keeps its meta; the JavaScript block keeps the meta minus the line range,
 * whose lines are carried as magic comments instead. Blocks whose meta has `notabs`, blocks
 * inside `<DiffTable>` or `<Tabs>`, and blocks that only declare types (their JavaScript would be
 * empty, see {@link isOnlyComments}) are left as they are.
 *
 * @throws Error (failing the build) naming the file and line of a block that does not parse.
 */
export default function tsToJsTabs() {
  return async (tree: Root, file: {path?: string}) => {
    const jobs: {parent: Parent; node: Code}[] = [];
    visit(tree, (node, _index, parent) => {
      if (node.type === 'mdxJsxFlowElement' && SKIP_INSIDE.has(node.name ?? '')) {
        return SKIP;
      }
      if (node.type === 'code' && parent && TS_LANGS.has(node.lang ?? '') && !/(^|\s)notabs(\s|$)/.test(node.meta ?? '')) {
        jobs.push({parent, node});
      }
      return undefined;
    });

    for (const {parent, node} of jobs) {
      const {lines, rest} = splitHighlightMeta(node.meta);
      let javascript: string;
      try {
        javascript = await transpileForReaders(node.value, {highlight: lines, jsx: node.lang === 'tsx'});
      } catch (error) {
        throw new Error(`${file.path ?? 'MDX file'}:${node.position?.start.line ?? '?'}: ${(error as Error).message}`, {cause: error});
      }
      // A block that only declares types (interfaces, `declare class`, type aliases) has no
      // JavaScript: it stays one TypeScript block, without a JavaScript tab that shows nothing.
      if (isOnlyComments(javascript)) continue;
      const jsTitle = rest.replace(/(title=["'][^"']*?)\.ts(x?)(["'])/, '$1.js$2$3');
      const jsBlock: Code = {type: 'code', lang: node.lang === 'tsx' ? 'jsx' : 'js', meta: jsTitle || null, value: javascript};
      const tabs = {
        type: 'mdxJsxFlowElement' as const,
        name: 'Tabs',
        // `lazy`: only the chosen tab is rendered (and highlighted), in the HTML and on hydration;
        // the other is rendered when the reader picks it. Half the code to highlight on a phone,
        // and the search index holds each sample once.
        attributes: [jsxAttribute('groupId', CODE_LANGUAGE_GROUP), jsxAttribute('className', 'code-tabs'), jsxAttribute('lazy', null)],
        children: [tabItem('ts', 'TypeScript', {...node}), tabItem('js', 'JavaScript', jsBlock)],
      };
      const index = parent.children.indexOf(node as RootContent);
      parent.children.splice(index, 1, tabs as unknown as RootContent);
    }
  };
}
