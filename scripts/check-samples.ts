/**
 * Code-sample checker: type-checks every TypeScript code block of the docs against the library
 * version its page documents.
 *
 * Usage: tsx scripts/check-samples.ts [--root DIR] [--version X]
 *   --root DIR  the site to check (the folder holding docs/, versioned_docs/ and versions.json);
 *               default: the repository this script lives in.
 *   --version X check only the pages of docs version X (default: every version).
 *
 * Every fenced block whose language is `ts`, `tsx` or `typescript` in every `.md`/`.mdx` file of a
 * docs version is type-checked against that version's library (LIBRARIES in src/versions/index.ts): one module per
 * block, all blocks of a version in one TypeScript program, `@yume-chan/*` mapped to the version's
 * installed packages (2.0.0, 0.0.24) or to its TypeScript sources in ../shared/sources/ (1.1.0,
 * 1.0.0, whose `@yume-chan/adb` was never published). A version with no library there is checked
 * for syntax only, and counted as such.
 * A block that only declares types (a signature) must declare only names that a `@yume-chan`
 * package of its version exports, or global types (see signatureNames).
 * Meta words: `partial="reason"` opts a block out; `version="X"` checks it as docs version X.
 *
 * Output: one line per problem (`file:line:col message`, paths relative to the working directory),
 * one line per docs version, and last `samples: N type-checked, M syntax-only, K opted out, F failed`.
 * Exit code: 0 when nothing failed, 1 when a block or file failed (or the packages are missing),
 * 2 on bad usage.
 */
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import ts from 'typescript';
import {unified} from 'unified';
import remarkParse from 'remark-parse';
import remarkMdx from 'remark-mdx';
// The syntax extensions and preprocessing @docusaurus/mdx-loader 3.10.2 applies before MDX sees a
// page (its own dependencies, hoisted to node_modules; see lib/processor.js and lib/preprocessor.js).
import remarkFrontmatter from 'remark-frontmatter';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkComment from '@slorber/remark-comment';
import {escapeMarkdownHeadingIds} from '@docusaurus/utils';
import {visit} from 'unist-util-visit';
import type {Root} from 'mdast';
import {listPages} from './pages.ts';
import {docsVersions, LIBRARIES, parseVersionsJson, type Library} from '../src/versions/index.ts';

export const USAGE = 'Usage: tsx scripts/check-samples.ts [--root DIR] [--version X]';

/** The repository this script belongs to: its node_modules hold TypeScript and the aliased packages. */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Why a version without an entry in LIBRARIES is checked for syntax only. */
const SYNTAX_ONLY_REASON = 'no library to type-check against (add the version to LIBRARIES in src/versions/index.ts)';

/** Code-block languages that are checked, and the file extension a block gets. */
const SAMPLE_LANGS: Readonly<Record<string, 'ts' | 'tsx'>> = {ts: 'ts', typescript: 'ts', tsx: 'tsx'};

/** A fenced TypeScript code block found in a Markdown/MDX page. */
export interface SampleBlock {
  /** The page, as given to `extractBlocks`. */
  file: string;
  /** 1-based line of the opening fence in the page. The code starts on the next line. */
  line: number;
  /** 1-based column of the opening fence (greater than 1 inside lists and block quotes). */
  column: number;
  lang: 'ts' | 'tsx' | 'typescript';
  /** Everything after the language on the fence line; empty when there is nothing. */
  meta: string;
  /** The code, without the fences and without the indentation of the fence. */
  code: string;
}

/** What a code block's meta asks of the checker. */
export interface SampleMeta {
  /** The reason given by `partial="…"`; the block is then not checked. */
  partial?: string;
  /** The docs version given by `version="…"`; the block is checked as code of that version. */
  version?: string;
  /** Meta words that are present but malformed, as messages; a block with any of them fails. */
  problems: string[];
}

/** A page that is not valid MDX; position is 1-based, in the page. */
export class MdxParseError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}:${column} cannot parse as MDX: ${reason}`);
    this.name = 'MdxParseError';
  }
}

/** One diagnostic about a page, already mapped to a position in that page. */
export interface Failure {
  file: string;
  line: number;
  column: number;
  message: string;
  /** The block the diagnostic is in; absent for problems of a whole page. */
  block?: SampleBlock;
}

/**
 * Finds the TypeScript code blocks of a page, parsing it as Docusaurus 3.10 does with its default
 * `markdown` options: heading IDs (`## Title {#id}`) escaped, then remark-parse + remark-mdx with
 * the front matter, directive (`:::note`), GFM and HTML-comment syntaxes. Escaping heading IDs
 * only adds a character to heading lines, so positions are those of the page itself.
 * Not mirrored: `mdx-code-block` fences are not unwrapped (a TypeScript block inside one is not
 * found), and a page's `format: md` front matter is ignored (every page is parsed as MDX).
 *
 * @param mdxText The page source (`.md` or `.mdx`; Docusaurus parses both as MDX by default).
 * @param file The page's path, copied into each block and into errors.
 * @returns The blocks whose language is `ts`, `tsx` or `typescript`, in page order.
 * @throws MdxParseError when the page is not valid MDX (e.g. an unclosed JSX tag or a stray `{`).
 */
export function extractBlocks(mdxText: string, file: string): SampleBlock[] {
  let tree: Root;
  try {
    tree = unified()
      .use(remarkParse)
      .use(remarkMdx)
      .use(remarkFrontmatter)
      .use(remarkDirective)
      .use(remarkGfm)
      .use(remarkComment)
      .parse(escapeMarkdownHeadingIds(mdxText));
  } catch (error) {
    const {line, column, reason, message} = error as {line?: number; column?: number; reason?: string; message?: string};
    const text = reason ?? message ?? String(error);
    // Some mdast-util-mdx-jsx errors (e.g. an unclosed tag) carry their place only in the text: "(3:1-3:7)".
    const place = /\((\d+):(\d+)-\d+:\d+\)/.exec(text);
    throw new MdxParseError(file, line ?? Number(place?.[1] ?? 1), column ?? Number(place?.[2] ?? 1), text);
  }
  const blocks: SampleBlock[] = [];
  visit(tree, 'code', (node) => {
    const lang = node.lang ?? '';
    if (!Object.hasOwn(SAMPLE_LANGS, lang) || !node.position) return;
    blocks.push({
      file,
      line: node.position.start.line,
      column: node.position.start.column,
      lang: lang as SampleBlock['lang'],
      meta: node.meta ?? '',
      code: node.value,
    });
  });
  return blocks;
}

/**
 * Reads the checker's words out of a code-block meta string. Values may be double-quoted,
 * single-quoted or a bare word; other words (`title="…"`, `{1,3-4}`, `showLineNumbers`) are ignored.
 *
 * @param meta The meta string, e.g. `title="connect.ts" partial="needs an adb from the previous step"`.
 * @returns `partial` (the trimmed reason) and `version` when present and well-formed; `problems`
 *   lists "partial needs a reason" for a `partial` without a non-empty reason, and a message for a
 *   `version` without a value.
 */
export function parseMeta(meta: string | null | undefined): SampleMeta {
  const result: SampleMeta = {problems: []};
  const words = /([A-Za-z_][\w-]*)(?:=(?:"([^"]*)"|'([^']*)'|([^\s"']\S*)))?|\S+/g;
  for (const match of (meta ?? '').matchAll(words)) {
    const [, name, double, single, bare] = match;
    const value = (double ?? single ?? bare)?.trim();
    if (name === 'partial') {
      if (value) result.partial = value;
      else result.problems.push('partial needs a reason: write partial="why this sample is not complete"');
    } else if (name === 'version') {
      if (value) result.version = value;
      else result.problems.push('version needs a docs version, e.g. version="0.0.24"');
    }
  }
  return result;
}

/** One docs folder of a site: the library version its pages document, and where it is. */
export interface SiteFolder {
  /** The library version (for `docs/`, CURRENT_VERSION of src/versions/index.ts). */
  version: string;
  /** Absolute path of the folder. */
  dir: string;
}

/**
 * Lists the docs folders of a site, as src/versions/index.ts lays them out.
 *
 * @param root The site folder.
 * @returns `docs/` (the version CURRENT_VERSION documents), then `versioned_docs/version-<v>/` for
 *   each entry of the site's `versions.json`, in that file's order. A missing versions.json means
 *   the site has only `docs/`. Two folders may document the same version (`docs/` as "Next" after
 *   its version was frozen).
 * @throws Error when versions.json is not a JSON array of distinct version strings.
 */
export function siteFolders(root: string): SiteFolder[] {
  const file = path.join(root, 'versions.json');
  const released = fs.existsSync(file) ? parseVersionsJson(JSON.parse(fs.readFileSync(file, 'utf8')), file) : [];
  return docsVersions(released).map(({version, folder}) => ({version, dir: path.join(root, folder)}));
}

/** A diagnostic's message on one line (TypeScript chains nested messages over several lines). */
function messageOf(diagnostic: ts.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').replace(/\s*\n\s*/g, ' ');
  return `TS${diagnostic.code}: ${text}`;
}

/**
 * Maps a diagnostic inside a block's code to the page: line = code line + fence line, column =
 * code column + the fence's indentation (remark removes that indentation from the code).
 */
function toFailure(block: SampleBlock, diagnostic: ts.Diagnostic): Failure {
  const {line, character} =
    diagnostic.file && diagnostic.start !== undefined
      ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
      : {line: 0, character: 0};
  return {
    file: block.file,
    line: block.line + 1 + line,
    column: block.column + character,
    message: messageOf(diagnostic),
    block,
  };
}

/**
 * Checks blocks for syntax errors only (e.g. for docs versions whose packages are not published).
 *
 * @param blocks The blocks to parse; each is parsed as a module, `tsx` blocks with JSX.
 * @returns One failure per syntax error, mapped to the page; empty when all blocks parse.
 */
export function checkSyntax(blocks: readonly SampleBlock[]): Failure[] {
  const failures: Failure[] = [];
  for (const block of blocks) {
    const {diagnostics = []} = ts.transpileModule(block.code, {
      fileName: `sample.${SAMPLE_LANGS[block.lang]}`,
      reportDiagnostics: true,
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleDetection: ts.ModuleDetectionKind.Force,
        jsx: ts.JsxEmit.Preserve,
      },
    });
    for (const diagnostic of diagnostics) {
      if (diagnostic.category === ts.DiagnosticCategory.Error) failures.push(toFailure(block, diagnostic));
    }
  }
  return failures;
}

/** What a version's program needs: its compiler options, and where its `@yume-chan` imports may land. */
interface LibrarySetup {
  options: ts.CompilerOptions;
  /** Declaration files of the library that no module imports (the sources' ambient `libs.d.ts`). */
  extraRoots: string[];
  /** Real paths (ending in a separator) that every `@yume-chan/*` import must resolve inside. */
  allowedRoots: string[];
  /** The library's `@yume-chan` packages, without scope (`adb`, `async`, `scrcpy`, …), sorted. */
  packages: string[];
}

/**
 * The compiler options a version's samples are checked with. `@yume-chan/*` is mapped with `paths`
 * to the version's alias folder or source folder; `paths` applies to every import in the program,
 * so the packages' imports of each other reach the same copies and not the copies npm nested under
 * each alias. Sources are checked with `lib: ESNext` (the 1.x struct types need ES2023+ typings)
 * and `exactOptionalPropertyTypes`, as the library's own build compiles them.
 *
 * @param library The version's library (see LIBRARIES).
 * @returns The options, the sources' ambient declaration files, the allowed roots and the packages.
 * @throws Error when the packages or the sources folder are missing (with what to do), or when
 *   TypeScript rejects an option (e.g. after a TypeScript upgrade).
 */
export function librarySetup(library: Library): LibrarySetup {
  const scopeDir = (scope: string) => {
    const dir = path.join(PACKAGE_ROOT, 'node_modules', scope);
    if (!fs.existsSync(dir)) throw new Error(`${dir} is missing; run npm install`);
    return dir;
  };
  const extraRoots: string[] = [];
  let paths: Record<string, string[]>;
  let allowed: string[];
  let packages: string[];
  if (library.kind === 'scope') {
    const dir = scopeDir(library.scope);
    paths = {'@yume-chan/*': [path.join(dir, '*')]};
    allowed = [dir];
    packages = fs.readdirSync(dir).filter((pkg) => fs.existsSync(path.join(dir, pkg, 'package.json')));
  } else {
    const dir = path.resolve(PACKAGE_ROOT, library.dir);
    if (!fs.existsSync(dir)) {
      throw new Error(`${dir} is missing: the 1.x library sources come with ../shared/ beside this repository`);
    }
    const asyncDir = path.join(scopeDir(library.asyncScope), 'async');
    paths = {'@yume-chan/async': [asyncDir], '@yume-chan/*': [path.join(dir, '*', 'src', 'index.ts')]};
    allowed = [dir, asyncDir];
    packages = ['async', ...fs.readdirSync(dir).filter((pkg) => fs.existsSync(path.join(dir, pkg, 'src', 'index.ts')))];
    for (const pkg of fs.readdirSync(dir).sort()) {
      const src = path.join(dir, pkg, 'src');
      if (!fs.existsSync(src)) continue;
      for (const name of fs.readdirSync(src).sort()) {
        if (name.endsWith('.d.ts')) extraRoots.push(path.join(src, name));
      }
    }
  }
  const {options, errors} = ts.convertCompilerOptionsFromJson(
    {
      strict: true,
      target: 'ES2022',
      module: 'esnext',
      moduleResolution: 'bundler',
      moduleDetection: 'force',
      lib: library.kind === 'sources' ? ['ESNext', 'DOM', 'DOM.Iterable'] : ['ES2022', 'DOM', 'DOM.Iterable'],
      exactOptionalPropertyTypes: library.kind === 'sources',
      jsx: 'react-jsx',
      skipLibCheck: true,
      noEmit: true,
      // adb-daemon-webusb's types use the WebUSB globals of @types/w3c-web-usb.
      types: ['node', 'w3c-web-usb'],
      typeRoots: [path.join(PACKAGE_ROOT, 'node_modules', '@types')],
      paths,
    },
    PACKAGE_ROOT,
  );
  if (errors.length > 0) throw new Error(errors.map(messageOf).join('\n'));
  return {options, extraRoots, allowedRoots: allowed.map((dir) => fs.realpathSync(dir) + path.sep), packages: packages.sort()};
}

/** Parsed library files (lib.dom.d.ts, @types/node, …), shared by the programs of all versions. */
const sharedSourceFiles = new Map<string, ts.SourceFile | undefined>();

/**
 * Type-checks the blocks of one version in one program; each block is its own module.
 *
 * @param blocks The blocks to check.
 * @param library The version's library (see LIBRARIES).
 * @param workDir An empty folder inside PACKAGE_ROOT/node_modules (so that `react/jsx-runtime` and
 *   other packages resolve from it); the blocks are written there as `block-N.ts`/`.tsx`.
 * @returns `failures`: the errors of the blocks, mapped to the pages; `environment`: problems of
 *   the setup rather than of a sample (option errors, a missing `@types` package, an `@yume-chan`
 *   import of a package that resolved outside the version's library).
 * @throws Error when the library is missing (see librarySetup).
 */
export function checkTypes(
  blocks: readonly SampleBlock[],
  library: Library,
  workDir: string,
): {failures: Failure[]; environment: string[]} {
  const {options, extraRoots, allowedRoots, packages} = librarySetup(library);
  const inLibrary = (file: string) => allowedRoots.some((root) => file.startsWith(root));

  const byFile = new Map<string, SampleBlock>();
  blocks.forEach((block, index) => {
    const fileName = path.join(workDir, `block-${index + 1}.${SAMPLE_LANGS[block.lang]}`);
    fs.writeFileSync(fileName, block.code);
    byFile.set(fileName, block);
  });

  const host = ts.createCompilerHost(options);
  const readSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (byFile.has(fileName) || !/[\\/]node_modules[\\/](typescript|@types|react)[\\/]/.test(fileName)) {
      return readSourceFile(fileName, languageVersion, onError, shouldCreate);
    }
    const key = `${fileName}\0${JSON.stringify(languageVersion)}`;
    if (!sharedSourceFiles.has(key)) sharedSourceFiles.set(key, readSourceFile(fileName, languageVersion, onError));
    return sharedSourceFiles.get(key);
  };

  const environment: string[] = [];
  const cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), host.getCanonicalFileName, options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirectedReference, resolveOptions, containingSourceFile) =>
    literals.map((literal) => {
      const mode = ts.getModeForUsageLocation(containingSourceFile, literal, resolveOptions);
      const resolved = ts.resolveModuleName(literal.text, containingFile, resolveOptions, host, cache, redirectedReference, mode);
      const target = resolved.resolvedModule?.resolvedFileName;
      if (!literal.text.startsWith('@yume-chan/') || !target || inLibrary(fs.realpathSync(target))) return resolved;
      // paths found no such package in the library and TypeScript fell back to node_modules.
      if (byFile.has(containingFile)) return {resolvedModule: undefined};
      environment.push(`${literal.text} imported by ${containingFile} resolved to ${target}, outside ${allowedRoots.join(' and ')}`);
      return resolved;
    });

  // One module importing every package of the library, so that their exports can be listed.
  const exportsFile = path.join(workDir, 'library-exports.ts');
  fs.writeFileSync(exportsFile, packages.map((pkg, index) => `export * as p${index} from '@yume-chan/${pkg}';`).join('\n') + '\n');
  const program = ts.createProgram({rootNames: [...byFile.keys(), ...extraRoots, exportsFile], options, host});
  const checker = program.getTypeChecker();
  const exported = new Set<string>();
  const exportsSource = program.getSourceFile(exportsFile);
  const exportsModule = exportsSource && checker.getSymbolAtLocation(exportsSource);
  for (const namespace of exportsModule ? checker.getExportsOfModule(exportsModule) : []) {
    const target = namespace.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(namespace) : namespace;
    for (const symbol of checker.getExportsOfModule(target)) exported.add(symbol.name);
  }
  // The platform's own types (lib.dom.d.ts, @types/node) are the library's vocabulary too.
  if (exportsSource) {
    for (const symbol of checker.getSymbolsInScope(exportsSource, ts.SymbolFlags.Type | ts.SymbolFlags.Value)) exported.add(symbol.name);
  }
  for (const diagnostic of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]) {
    environment.push(messageOf(diagnostic));
  }
  const failures: Failure[] = [];
  for (const [fileName, block] of byFile) {
    const sourceFile = program.getSourceFile(fileName);
    if (!sourceFile) continue;
    const diagnostics = [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)];
    for (const diagnostic of diagnostics) {
      if (diagnostic.category === ts.DiagnosticCategory.Error) failures.push(toFailure(block, diagnostic));
    }
    for (const {name, node} of signatureNames(sourceFile)) {
      if (exported.has(name)) continue;
      const {line, character} = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
      failures.push({
        file: block.file,
        line: block.line + 1 + line,
        column: block.column + character,
        message: `signature: "${name}" is exported by no @yume-chan package of this version (nor a global type); a block that only declares types shows the library's own declarations`,
        block,
      });
    }
  }
  return {failures, environment};
}

/**
 * The names a signature block declares: for a block whose every statement is a declaration of
 * types (imports, interfaces, type aliases, and `declare` classes, functions, namespaces, enums
 * and variables), the name of each top-level declaration, type aliases only when they spell out
 * an object or function type. A block with any runtime statement is a sample, not a signature,
 * and gives none.
 *
 * @param source The block's parsed module.
 * @returns The declared names with their nodes, in order.
 */
export function signatureNames(source: ts.SourceFile): Array<{name: string; node: ts.Node}> {
  const names: Array<{name: string; node: ts.Node}> = [];
  const declared = (statement: ts.Statement) =>
    ts.getCombinedModifierFlags(statement as unknown as ts.Declaration) & ts.ModifierFlags.Ambient;
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) || (ts.isExportDeclaration(statement) && !statement.moduleSpecifier)) continue;
    if (ts.isInterfaceDeclaration(statement)) {
      names.push({name: statement.name.text, node: statement.name});
    } else if (ts.isTypeAliasDeclaration(statement)) {
      // A type computed from the library's (`keyof X`, `Parameters<typeof f>`) is a sample; an
      // alias that spells out a shape (an object or function type) is a declaration.
      const shape = statement.type;
      if (ts.isTypeLiteralNode(shape) || ts.isFunctionTypeNode(shape) || ts.isConstructorTypeNode(shape)) {
        names.push({name: statement.name.text, node: statement.name});
      }
    } else if (
      (ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
      declared(statement) &&
      statement.name
    ) {
      names.push({name: statement.name.text, node: statement.name});
    } else if (ts.isModuleDeclaration(statement) && declared(statement) && ts.isIdentifier(statement.name)) {
      names.push({name: statement.name.text, node: statement.name});
    } else if (ts.isVariableStatement(statement) && declared(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.push({name: declaration.name.text, node: declaration.name});
      }
    } else {
      return [];
    }
  }
  return names;
}

/** Counts of one docs version (or of all), as printed. */
interface Counts {
  typeChecked: number;
  syntaxOnly: number;
  optedOut: number;
  failed: number;
}

/** How a block is handled: checked against `target`, opted out, or failed on its meta. */
type Plan =
  | {block: SampleBlock; folder: string; version: string; kind: 'types' | 'syntax'; target: string}
  | {block: SampleBlock; folder: string; version: string; kind: 'opted-out'}
  | {block: SampleBlock; folder: string; version: string; kind: 'invalid'; problems: string[]};

/**
 * Runs the checker on a site and prints the report to stdout. Counting: every block is exactly one
 * of type-checked, syntax-only, opted out, or invalid (bad `partial`/`version` meta; then not
 * checked). "failed" counts type-checked and syntax-only blocks with at least one error, invalid
 * blocks, and pages that do not parse (one each, however many diagnostics). Blocks are counted
 * under the docs version of their page, even when `version="X"` checks them as X.
 *
 * @param root The site folder (docs/, versioned_docs/, versions.json).
 * @param only When given, only the pages of this docs version are checked.
 * @returns The exit code: 0 when every block passed, 1 when a block or page failed or the setup is
 *   broken (packages missing, an `@yume-chan` import escaping its alias folder).
 * @throws Error when versions.json is malformed or the alias packages are missing.
 */
export function run(root: string, only?: string): number {
  const display = (file: string) => path.relative(process.cwd(), file).split(path.sep).join('/') || '.';
  const allFolders = siteFolders(root);
  const known = [...new Set(allFolders.map(({version}) => version))];
  if (only !== undefined && !known.includes(only)) throw new Error(`--version ${only} is not a docs version (${known.join(', ')})`);
  const folders = only === undefined ? allFolders : allFolders.filter(({version}) => version === only);
  const failures: Failure[] = [];
  const plans: Plan[] = [];
  const perFolder = new Map<string, Counts & {pages: number; missing: boolean}>();

  for (const {version, dir} of folders) {
    const pages = listPages(dir);
    const counts = {typeChecked: 0, syntaxOnly: 0, optedOut: 0, failed: 0, pages: pages.length, missing: !fs.existsSync(dir)};
    perFolder.set(dir, counts);
    for (const page of pages) {
      let blocks: SampleBlock[];
      try {
        blocks = extractBlocks(fs.readFileSync(page, 'utf8'), display(page));
      } catch (error) {
        if (!(error instanceof MdxParseError)) throw error;
        failures.push({file: error.file, line: error.line, column: error.column, message: `cannot parse as MDX: ${error.reason}`});
        counts.failed += 1;
        continue;
      }
      for (const block of blocks) {
        const meta = parseMeta(block.meta);
        const problems = [...meta.problems];
        if (meta.version !== undefined && !known.includes(meta.version)) {
          problems.push(`version="${meta.version}" is not a docs version (${known.join(', ')})`);
        }
        const target = meta.version ?? version;
        if (problems.length > 0) plans.push({block, folder: dir, version, kind: 'invalid', problems});
        else if (meta.partial !== undefined) plans.push({block, folder: dir, version, kind: 'opted-out'});
        else plans.push({block, folder: dir, version, kind: Object.hasOwn(LIBRARIES, target) ? 'types' : 'syntax', target});
      }
    }
  }

  const failedBlocks = new Set<SampleBlock>();
  const versionOf = new Map(plans.map((plan) => [plan.block, plan.version]));
  const environment: string[] = [];
  for (const plan of plans) {
    if (plan.kind !== 'invalid') continue;
    failedBlocks.add(plan.block);
    for (const message of plan.problems) {
      failures.push({file: plan.block.file, line: plan.block.line, column: plan.block.column, message, block: plan.block});
    }
  }

  const targets = [...new Set(plans.flatMap((plan) => (plan.kind === 'types' || plan.kind === 'syntax' ? [plan.target] : [])))];
  const workRoot = path.join(PACKAGE_ROOT, 'node_modules', '.cache');
  fs.mkdirSync(workRoot, {recursive: true});
  const workDir = fs.mkdtempSync(path.join(workRoot, 'check-samples-'));
  try {
    for (const target of targets) {
      const blocks = plans.flatMap((plan) =>
        (plan.kind === 'types' || plan.kind === 'syntax') && plan.target === target ? [plan.block] : [],
      );
      let found: Failure[];
      if (Object.hasOwn(LIBRARIES, target)) {
        const dir = path.join(workDir, target);
        fs.mkdirSync(dir);
        const result = checkTypes(blocks, LIBRARIES[target]!, dir);
        found = result.failures;
        environment.push(...result.environment);
      } else {
        found = checkSyntax(blocks);
      }
      for (const failure of found) {
        failedBlocks.add(failure.block!);
        if (versionOf.get(failure.block!) !== target) failure.message += ` (version="${target}")`;
        failures.push(failure);
      }
    }
  } finally {
    fs.rmSync(workDir, {recursive: true, force: true});
  }

  const total: Counts = {typeChecked: 0, syntaxOnly: 0, optedOut: 0, failed: 0};
  for (const plan of plans) {
    const counts = perFolder.get(plan.folder)!;
    if (plan.kind === 'types') counts.typeChecked += 1;
    if (plan.kind === 'syntax') counts.syntaxOnly += 1;
    if (plan.kind === 'opted-out') counts.optedOut += 1;
    if (failedBlocks.has(plan.block)) counts.failed += 1;
  }

  failures.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  for (const failure of failures) console.log(`${failure.file}:${failure.line}:${failure.column} ${failure.message}`);
  for (const message of environment) console.log(`check-samples: ${message}`);

  const syntaxOnlyVersions = [...new Set(folders.map(({version}) => version))].filter((version) => !Object.hasOwn(LIBRARIES, version));
  if (syntaxOnlyVersions.length > 0) console.log(`${syntaxOnlyVersions.join(', ')}: ${SYNTAX_ONLY_REASON}`);
  for (const {version, dir} of folders) {
    const counts = perFolder.get(dir)!;
    const where = `${display(dir)}/`;
    if (counts.missing) {
      console.log(`${version} (${where}): no such folder, 0 blocks`);
    } else {
      console.log(
        `${version} (${where}): ${counts.pages} ${counts.pages === 1 ? 'page' : 'pages'}; ${counts.typeChecked} type-checked, ${counts.syntaxOnly} syntax-only, ` +
          `${counts.optedOut} opted out, ${counts.failed} failed`,
      );
    }
    total.typeChecked += counts.typeChecked;
    total.syntaxOnly += counts.syntaxOnly;
    total.optedOut += counts.optedOut;
    total.failed += counts.failed;
  }
  console.log(
    `samples: ${total.typeChecked} type-checked, ${total.syntaxOnly} syntax-only, ${total.optedOut} opted out, ${total.failed} failed`,
  );
  return total.failed > 0 || environment.length > 0 ? 1 : 0;
}

/**
 * Command-line entry: parses the arguments and runs the checker.
 *
 * @param argv The arguments after the script name.
 * @returns The exit code: that of `run`, 0 for `--help`, 2 for bad usage (usage on stderr).
 */
export function main(argv: readonly string[]): number {
  let values: {root?: string; version?: string; help?: boolean};
  try {
    ({values} = parseArgs({
      args: [...argv],
      options: {root: {type: 'string'}, version: {type: 'string'}, help: {type: 'boolean', short: 'h'}},
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const root = path.resolve(values.root ?? PACKAGE_ROOT);
  if (!fs.statSync(root, {throwIfNoEntry: false})?.isDirectory()) {
    console.error(`--root: ${root} is not a directory\n${USAGE}`);
    return 2;
  }
  return run(root, values.version);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(`check-samples: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
