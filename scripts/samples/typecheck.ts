/**
 * The TypeScript side of the check: a version's compiler options (librarySetup), one program per
 * version that type-checks its blocks (checkTypes), syntax-only parsing for versions without a
 * library (checkSyntax), the names a signature block may declare (signatureNames), and the
 * diagnostics mapped back to positions in the pages (Failure).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type {Library} from '../../src/versions/index.ts';
import {parseMeta, SAMPLE_LANGS, type SampleBlock} from './extract.ts';
import {relativeImports, sampleProgram} from './companions.ts';
import {libraryFiles, PACKAGE_ROOT, type LibraryFiles} from './libraries.ts';
import {withTypePreludes} from './prelude.ts';

/** One diagnostic about a page, already mapped to a position in that page. */
export interface Failure {
  file: string;
  line: number;
  column: number;
  message: string;
  /** The block the diagnostic is in; absent for problems of a whole page. */
  block?: SampleBlock;
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
interface LibrarySetup extends LibraryFiles {
  options: ts.CompilerOptions;
}

/**
 * The compiler options a version's samples are checked with. `@yume-chan/*` is mapped with `paths`
 * to the version's alias folder or source folder (see libraryFiles); `paths` applies to every
 * import in the program, so the packages' imports of each other reach the same copies and not the
 * copies npm nested under each alias. Sources are checked with `lib: ESNext` (the 1.x struct types
 * need ES2023+ typings) and `exactOptionalPropertyTypes`, as the library's own build compiles them.
 *
 * @param library The version's library (see LIBRARIES).
 * @returns The options, then what libraryFiles gives: the `paths` mapping, the sources' ambient
 *   declaration files, the allowed roots and the packages.
 * @throws Error when the packages or the sources folder are missing (with what to do), or when
 *   TypeScript rejects an option (e.g. after a TypeScript upgrade).
 */
export function librarySetup(library: Library): LibrarySetup {
  const files = libraryFiles(library);
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
      paths: files.paths,
    },
    PACKAGE_ROOT,
  );
  if (errors.length > 0) throw new Error(errors.map(messageOf).join('\n'));
  return {...files, options};
}

/** Parsed library files (lib.dom.d.ts, @types/node, …), shared by the programs of all versions. */
const sharedSourceFiles = new Map<string, ts.SourceFile | undefined>();

/** Called once per block after the type-check, with the block's module in the program and the program's checker. */
export type BlockInspector = (block: SampleBlock, source: ts.SourceFile, checker: ts.TypeChecker) => void;

/**
 * Type-checks the blocks of one version in one program; each block is its own module, with the
 * blocks it imports by a relative path beside it (companions.ts sampleProgram). A block
 * whose meta names preludes (`prelude="adb"`) gets their hidden declarations after its code
 * (prelude.ts withTypePreludes), which moves no position in it.
 *
 * @param blocks The blocks to check.
 * @param library The version's library (see LIBRARIES).
 * @param workDir An empty folder inside PACKAGE_ROOT/node_modules (so that `react/jsx-runtime` and
 *   other packages resolve from it); the blocks are written there as `block-N.ts`/`.tsx`, or, with
 *   the blocks they import, into `block-N/` at their titles' paths.
 * @param inspect Called for each block once the program is checked (the runner's classification
 *   uses it to find browser-only names).
 * @param pool The blocks the checked ones may import by a relative path (default: `blocks`).
 * @returns `failures`: the errors of the blocks, mapped to the pages; `environment`: problems of
 *   the setup rather than of a sample (option errors, a missing `@types` package, an `@yume-chan`
 *   import of a package that resolved outside the version's library).
 * @throws Error when the library is missing (see librarySetup).
 */
export function checkTypes(
  blocks: readonly SampleBlock[],
  library: Library,
  workDir: string,
  inspect?: BlockInspector,
  pool: readonly SampleBlock[] = blocks,
): {failures: Failure[]; environment: string[]} {
  const {options, extraRoots, allowedRoots, packages} = librarySetup(library);
  const inLibrary = (file: string) => allowedRoots.some((root) => file.startsWith(root));

  const byFile = new Map<string, SampleBlock>();
  blocks.forEach((block, index) => {
    // A block that imports others by a relative path (companions.ts) gets them beside it, each at
    // its title's path; only the block's own file is reported on (the others are, as themselves).
    const {files} = relativeImports(block.code).length > 0 ? sampleProgram(block, pool) : {files: []};
    const dir = path.join(workDir, `block-${index + 1}`);
    const own = files.length > 0 ? path.join(dir, files[0]!.path) : path.join(workDir, `block-${index + 1}.${SAMPLE_LANGS[block.lang]}`);
    for (const file of files.slice(1)) {
      fs.mkdirSync(path.dirname(path.join(dir, file.path)), {recursive: true});
      fs.writeFileSync(path.join(dir, file.path), withTypePreludes(file.block.code, parseMeta(file.block.meta).prelude ?? []));
    }
    fs.mkdirSync(path.dirname(own), {recursive: true});
    fs.writeFileSync(own, withTypePreludes(block.code, parseMeta(block.meta).prelude ?? []));
    byFile.set(own, block);
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
    inspect?.(block, sourceFile, checker);
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
