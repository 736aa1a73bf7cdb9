import fs from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';

import type {Root, RootContent, Table, TableCell, TableRow} from 'mdast';
import type {MdxJsxFlowElement, MdxJsxTextElement} from 'mdast-util-mdx-jsx';
import type ts from 'typescript';
import type {Plugin} from 'unified';
import {SKIP, visit} from 'unist-util-visit';
import type {VFile} from 'vfile';
import {dataPackageFor} from './docs-version';
import {loadTypeScript} from '../utils/lazy-modules';

/** The MDX element the plugin replaces. */
export const PM_INSTALL_OPTIONS_ELEMENT = 'PmInstallOptionsTable';
/** The exported constant of `pm.ts` that maps each install option to its `pm install` flag. */
export const OPTIONS_MAP_NAME = 'PACKAGE_MANAGER_INSTALL_OPTIONS_MAP';
/** The interface of `pm.ts` that declares the type of each install option. */
export const OPTIONS_INTERFACE_NAME = 'PackageManagerInstallOptions';

/** One `PackageManagerInstallOptions` field, as shown in one table row. */
export interface PmInstallOptionRow {
  /** The option's property name, e.g. `"skipExisting"`. */
  option: string;
  /** The property's type as written in the interface, e.g. `"boolean"` or `"SingleUserOrAll"`. */
  type: string;
  /** The `pm install` flag the library passes, e.g. `"-R"`. */
  flag: string;
  /**
   * Whether the value follows the flag: the library's `buildArguments` passes a `true` boolean
   * as the flag alone, and a number or string as the flag followed by the value.
   */
  takesValue: boolean;
}

/** Property initialisers wrapped in `(…)`, `as …` or `satisfies …` are read through to the object. */
function unwrap(expression: ts.Expression): ts.Expression {
  const ts = loadTypeScript();
  let current = expression;
  while (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current)) {
    current = current.expression;
  }
  return current;
}

function propertyName(name: ts.PropertyName, sourceFile: ts.SourceFile): string {
  const ts = loadTypeScript();
  if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) {
    return name.text;
  }
  throw new Error(`${sourceFile.fileName}: ${OPTIONS_MAP_NAME} has a computed key (${name.getText(sourceFile)})`);
}

function findMap(sourceFile: ts.SourceFile): ts.ObjectLiteralExpression {
  const ts = loadTypeScript();
  for (const statement of sourceFile.statements) {
    if (!ts.isVariableStatement(statement)) {
      continue;
    }
    for (const declaration of statement.declarationList.declarations) {
      if (!ts.isIdentifier(declaration.name) || declaration.name.text !== OPTIONS_MAP_NAME) {
        continue;
      }
      const initializer = declaration.initializer === undefined ? undefined : unwrap(declaration.initializer);
      if (initializer === undefined || !ts.isObjectLiteralExpression(initializer)) {
        throw new Error(`${sourceFile.fileName}: ${OPTIONS_MAP_NAME} is not initialised with an object literal`);
      }
      return initializer;
    }
  }
  throw new Error(
    `${sourceFile.fileName}: no top-level "const ${OPTIONS_MAP_NAME} = {…}" found; ` +
      'the install-options table cannot be generated (did @yume-chan/android-bin move or rename it?)',
  );
}

function findOptionTypes(sourceFile: ts.SourceFile): Map<string, string> {
  const ts = loadTypeScript();
  const declaration = sourceFile.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === OPTIONS_INTERFACE_NAME,
  );
  if (declaration === undefined) {
    throw new Error(`${sourceFile.fileName}: no interface ${OPTIONS_INTERFACE_NAME} found`);
  }
  const types = new Map<string, string>();
  for (const member of declaration.members) {
    if (ts.isPropertySignature(member) && member.type !== undefined) {
      types.set(propertyName(member.name, sourceFile), member.type.getText(sourceFile));
    }
  }
  return types;
}

/**
 * Reads the install options of `PackageManager` from the source of `@yume-chan/android-bin`.
 *
 * Input: the TypeScript source text of the package's `pm.ts`, and the file name used in error
 * messages. The source must contain a top-level `PACKAGE_MANAGER_INSTALL_OPTIONS_MAP` constant
 * initialised with an object literal of `option: "flag"` string properties (possibly wrapped in
 * `as`/`satisfies`), and an `interface PackageManagerInstallOptions` declaring each option's type.
 * Output: one row per property of the map, in the map's order: the option name, the type text
 * from the interface, the flag, and whether a value follows the flag (every type but `boolean`).
 * Errors: throws an Error naming the file when the map is missing, is not an object literal, is
 * empty, has a computed or spread key or a value that is not a string literal, or when the
 * interface is missing or lacks one of the map's options.
 * Facts: `PACKAGE_MANAGER_INSTALL_OPTIONS_MAP` and `PackageManagerInstallOptions` in `src/pm.ts`
 * of `@yume-chan/android-bin` (2.1.0 for the 2.0.0 docs); the flag-then-value rule is
 * `buildArguments` in its `src/utils.ts`.
 */
export function pmInstallOptionRows(source: string, fileName = 'pm.ts'): PmInstallOptionRow[] {
  const ts = loadTypeScript();
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const map = findMap(sourceFile);
  const types = findOptionTypes(sourceFile);

  const rows = map.properties.map((property): PmInstallOptionRow => {
    if (!ts.isPropertyAssignment(property)) {
      throw new Error(`${fileName}: ${OPTIONS_MAP_NAME} has a member that is not "key: value" (${property.getText(sourceFile)})`);
    }
    const option = propertyName(property.name, sourceFile);
    const value = unwrap(property.initializer);
    if (!ts.isStringLiteral(value) && !ts.isNoSubstitutionTemplateLiteral(value)) {
      throw new Error(`${fileName}: ${OPTIONS_MAP_NAME}.${option} is not a string literal`);
    }
    const type = types.get(option);
    if (type === undefined) {
      throw new Error(`${fileName}: ${OPTIONS_INTERFACE_NAME} has no property "${option}"`);
    }
    return {option, type, flag: value.text, takesValue: type !== 'boolean'};
  });
  if (rows.length === 0) {
    throw new Error(`${fileName}: ${OPTIONS_MAP_NAME} is empty`);
  }
  return rows;
}

/**
 * The `src/pm.ts` of the `@yume-chan/android-bin` of a page's docs version (`@tango-v2/android-bin`
 * for `docs/`; see DATA_PACKAGES in ./docs-version.ts), resolved from this file.
 *
 * @param filePath The page; omitted = a page of the current version.
 * @throws Error when android-bin is not published for the page's version (1.x) or not installed.
 */
export function defaultPmSourcePath(filePath?: string): string {
  const require = createRequire(import.meta.url);
  const alias = dataPackageFor(filePath, 'android-bin');
  return path.join(path.dirname(require.resolve(`${alias}/package.json`)), 'src', 'pm.ts');
}

function cell(...children: TableCell['children']): TableCell {
  return {type: 'tableCell', children};
}

function code(value: string): TableCell['children'][number] {
  return {type: 'inlineCode', value};
}

/**
 * Builds the GFM table for the install options.
 *
 * Input: rows from {@link pmInstallOptionRows}.
 * Output: an mdast `table` node: a header row (Option, Type, `pm install` argument), then one row
 * per option, in order, whose cells are inline code: the option, its type, and the flag (`-R`)
 * or, when a value follows it, the flag and a placeholder (`--user <value>`). Columns carry no
 * alignment, like the site's hand-written tables.
 * Errors: none.
 */
export function pmInstallOptionsTable(rows: readonly PmInstallOptionRow[]): Table {
  const header: TableRow = {
    type: 'tableRow',
    children: [
      cell({type: 'text', value: 'Option'}),
      cell({type: 'text', value: 'Type'}),
      cell(code('pm install'), {type: 'text', value: ' argument'}),
    ],
  };
  const body = rows.map((row): TableRow => ({
    type: 'tableRow',
    children: [cell(code(row.option)), cell(code(row.type)), cell(code(row.takesValue ? `${row.flag} <value>` : row.flag))],
  }));
  return {type: 'table', align: [null, null, null], children: [header, ...body]};
}

function describePlace(file: VFile, node: MdxJsxFlowElement | MdxJsxTextElement): string {
  const start = node.position?.start;
  const where = start === undefined ? '' : `:${start.line}:${start.column}`;
  return `${file.path ?? '<unknown file>'}${where}`;
}

/** Options of the remark plugin. */
export interface PmInstallOptionsPluginOptions {
  /** The `pm.ts` to read; default {@link defaultPmSourcePath}. */
  sourceFile?: string;
}

/**
 * Remark plugin: replaces `<PmInstallOptionsTable />` with a table of every install option of
 * `PackageManager`, generated from the library source at build time so that it cannot drift.
 *
 * Input: an mdast tree parsed with remark-mdx. Each MDX JSX flow element (on a line of its own)
 * named `PmInstallOptionsTable`, without attributes or children, is replaced.
 * Output: the same tree with each such element replaced by a GFM `table` node built by
 * {@link pmInstallOptionsTable} from {@link pmInstallOptionRows}. Each source file is read once per
 * plugin instance, and only when a page uses the element.
 * Errors: throws an Error naming the page and line:column when the element is used inline (inside
 * a paragraph), has attributes or children, the source file cannot be read, or
 * {@link pmInstallOptionRows} fails; any of them fails the Docusaurus build.
 * Facts: `src/pm.ts` of the android-bin of the page's docs version (2.0.0: `@tango-v2/android-bin`,
 * `npm:@yume-chan/android-bin@2.1.0`), or `options.sourceFile`. A page of a version without a
 * published android-bin (1.x) fails the build.
 */
const remarkPmInstallOptions: Plugin<[PmInstallOptionsPluginOptions?], Root> = function remarkPmInstallOptions(options = {}) {
  const rowsBySource = new Map<string, PmInstallOptionRow[]>();
  const loadRows = (page: VFile): PmInstallOptionRow[] => {
    const sourceFile = options.sourceFile ?? defaultPmSourcePath(page.path);
    let rows = rowsBySource.get(sourceFile);
    if (rows === undefined) {
      rows = pmInstallOptionRows(fs.readFileSync(sourceFile, 'utf8'), sourceFile);
      rowsBySource.set(sourceFile, rows);
    }
    return rows;
  };

  return (tree, file) => {
    visit(tree, (node, index, parent) => {
      if ((node.type !== 'mdxJsxFlowElement' && node.type !== 'mdxJsxTextElement') || node.name !== PM_INSTALL_OPTIONS_ELEMENT) {
        return;
      }
      const place = describePlace(file, node);
      if (node.type === 'mdxJsxTextElement') {
        throw new Error(`${place}: <${PM_INSTALL_OPTIONS_ELEMENT} /> must stand on a line of its own`);
      }
      if (node.attributes.length > 0 || node.children.length > 0) {
        throw new Error(`${place}: <${PM_INSTALL_OPTIONS_ELEMENT} /> takes no attributes and no children`);
      }
      if (parent === undefined || index === undefined) {
        throw new Error(`${place}: <${PM_INSTALL_OPTIONS_ELEMENT} /> cannot be the root`);
      }
      let table: Table;
      try {
        table = pmInstallOptionsTable(loadRows(file));
      } catch (error) {
        throw new Error(`${place}: ${(error as Error).message}`, {cause: error});
      }
      (parent.children as RootContent[])[index] = table;
      return SKIP;
    });
  };
};

export default remarkPmInstallOptions;
