import type {Root, Table, TableCell, TableRow, PhrasingContent} from 'mdast';
import type {Plugin} from 'unified';
import {visit, SKIP} from 'unist-util-visit';
import {dataPackageFor, docsVersionOfFile, DATA_PACKAGES} from './docs-version';

/** One Scrcpy server version that `@yume-chan/scrcpy` supports, as one table row. */
export interface ScrcpyVersionRow {
  /** Server version, e.g. `"2.1.1"`. */
  version: string;
  /** Options class exported by `@yume-chan/scrcpy`, e.g. `"ScrcpyOptions2_1_1"`. */
  scrcpyClass: string;
  /**
   * Matching class exported by `@yume-chan/adb-scrcpy`, or `undefined` when that package exports
   * none (or was not given).
   */
  adbScrcpyClass: string | undefined;
  /** Option names in this version's `Defaults` but not in the previous version's (all of them for the first). */
  added: string[];
  /** Option names in the previous version's `Defaults` but not in this version's. */
  removed: string[];
}

const CLASS_NAME = /^ScrcpyOptions(\d+)_(\d+)(?:_(\d+))?$/;

function compareVersions(a: number[], b: number[]): number {
  for (let index = 0; index < 3; index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) {
      return difference;
    }
  }
  return 0;
}

/**
 * Lists the Scrcpy server versions a pair of Tango packages supports, and what each changes.
 *
 * Input: the module namespaces of `@yume-chan/scrcpy` and `@yume-chan/adb-scrcpy`
 * (`import * as …`); the second may be `undefined` when that package is not
 * published for the docs version. Every export named `ScrcpyOptionsX_Y` or
 * `ScrcpyOptionsX_Y_Z` is one server version (`ScrcpyOptionsLatest` is an alias
 * and is skipped); its options are the keys of its static `Defaults` object
 * (`DEFAULTS` in 0.0.24), which each version's source builds from the previous
 * version's defaults plus or minus options; a later class without either object
 * (0.0.24's `ScrcpyOptions1_25`) has the previous version's options.
 * Output: one row per version, oldest first, with the `AdbScrcpyOptionsX_Y` class
 * of the same name when `@yume-chan/adb-scrcpy` exports it, and the options added
 * and removed compared with the previous row (patch-version alias classes inherit
 * `Defaults`, so they add and remove nothing).
 * Errors: throws when no `ScrcpyOptionsX_Y` class is found, or when the oldest class has
 * neither a `Defaults` nor a `DEFAULTS` object, so a package whose structure changed fails the build
 * instead of printing a wrong table.
 * Facts: the packages passed in (the site passes those of the page's docs
 * version; see DATA_PACKAGES in ./docs-version.ts).
 */
export function scrcpyVersionRows(
  scrcpyModule: Readonly<Record<string, unknown>>,
  adbScrcpyModule: Readonly<Record<string, unknown>> | undefined,
): ScrcpyVersionRow[] {
  const versions = Object.keys(scrcpyModule)
    .map((name) => ({name, match: CLASS_NAME.exec(name)}))
    .filter((entry): entry is {name: string; match: RegExpExecArray} => entry.match !== null)
    .map(({name, match}) => ({
      name,
      numbers: match
        .slice(1)
        .filter((part) => part !== undefined)
        .map(Number),
    }))
    .sort((a, b) => compareVersions(a.numbers, b.numbers));
  if (versions.length === 0) {
    throw new Error(
      'scrcpy-versions: the @yume-chan/scrcpy module exports no ScrcpyOptionsX_Y class; did the package change its structure?',
    );
  }

  let previous: string[] = [];
  return versions.map(({name, numbers}, index) => {
    const versionClass = scrcpyModule[name] as {Defaults?: unknown; DEFAULTS?: unknown} | undefined;
    const own = versionClass?.Defaults ?? versionClass?.DEFAULTS;
    // 0.0.24's ScrcpyOptions1_25 declares no defaults of its own and passes 1.24's to its base.
    const defaults = own ?? (index > 0 ? Object.fromEntries(previous.map((key) => [key, undefined])) : undefined);
    if (typeof defaults !== 'object' || defaults === null) {
      throw new Error(
        `scrcpy-versions: ${name} has no static Defaults (or DEFAULTS) object; update src/remark/scrcpy-versions.ts to read its options another way.`,
      );
    }
    const keys = Object.keys(defaults);
    const adbName = `Adb${name}`;
    const row: ScrcpyVersionRow = {
      version: numbers.join('.'),
      scrcpyClass: name,
      adbScrcpyClass: typeof adbScrcpyModule?.[adbName] === 'function' ? adbName : undefined,
      added: index === 0 ? keys : keys.filter((key) => !previous.includes(key)),
      removed: previous.filter((key) => !keys.includes(key)),
    };
    previous = keys;
    return row;
  });
}

/**
 * Loads the installed packages of a page's docs version and returns their rows.
 *
 * Input: the page's file path (its docs version picks the packages: `@tango-v2/*` for
 * `docs/`, `@tango-v1/scrcpy` for 1.1.0, `@tango-v0/*` for 0.0.24; see ./docs-version.ts).
 * Output: `scrcpyVersionRows` of those packages; `adbScrcpyClass` is always `undefined` when the
 * version has no published `@yume-chan/adb-scrcpy`. Errors: those of `scrcpyVersionRows`, those of
 * `dataPackageFor` (no `@yume-chan/scrcpy` for the version, e.g. 1.0.0), or a module-not-found
 * error when the packages are not installed.
 */
export async function loadScrcpyVersionRows(filePath?: string): Promise<ScrcpyVersionRow[]> {
  const scrcpyModule = (await import(dataPackageFor(filePath, 'scrcpy'))) as Record<string, unknown>;
  const adbScrcpyAlias = DATA_PACKAGES[docsVersionOfFile(filePath)]?.['adb-scrcpy'];
  const adbScrcpyModule = adbScrcpyAlias === undefined ? undefined : ((await import(adbScrcpyAlias)) as Record<string, unknown>);
  return scrcpyVersionRows(scrcpyModule, adbScrcpyModule);
}

function cell(children: PhrasingContent[]): TableCell {
  return {type: 'tableCell', children};
}

function codeList(names: string[]): PhrasingContent[] {
  if (names.length === 0) {
    return [{type: 'text', value: '—'}];
  }
  return names.flatMap((name, index): PhrasingContent[] =>
    index === 0
      ? [{type: 'inlineCode', value: name}]
      : [
          {type: 'text', value: ', '},
          {type: 'inlineCode', value: name},
        ],
  );
}

/**
 * Builds the GFM table (mdast) for a list of rows.
 *
 * Input: rows from `scrcpyVersionRows`, and whether to show the `@yume-chan/adb-scrcpy`
 * column (default `true`; `false` for a docs version without a published adb-scrcpy).
 * Output: an mdast `table` with a header row and the columns server version,
 * `@yume-chan/scrcpy` class, `@yume-chan/adb-scrcpy` class (when asked for), options
 * added, options removed; a missing class or an empty list is shown as "—". Errors: none.
 */
export function scrcpyVersionsTable(rows: readonly ScrcpyVersionRow[], withAdbScrcpy = true): Table {
  const titles = ['Server version', '@yume-chan/scrcpy class', '@yume-chan/adb-scrcpy class', 'Options added', 'Options removed'];
  const keep = (_: unknown, index: number) => withAdbScrcpy || index !== 2;
  const header: TableRow = {
    type: 'tableRow',
    children: titles.filter(keep).map((title) => cell([{type: 'text', value: title}])),
  };
  return {
    type: 'table',
    align: titles.filter(keep).map(() => null),
    children: [
      header,
      ...rows.map((row): TableRow => ({
        type: 'tableRow',
        children: [
          cell([{type: 'text', value: row.version}]),
          cell(codeList([row.scrcpyClass])),
          cell(codeList(row.adbScrcpyClass === undefined ? [] : [row.adbScrcpyClass])),
          cell(codeList(row.added)),
          cell(codeList(row.removed)),
        ].filter(keep),
      })),
    ],
  };
}

/**
 * Remark plugin: replaces every `<ScrcpyVersionsTable />` MDX element with the
 * versions table of the Scrcpy packages of the page's docs version.
 *
 * Input: an MDX tree. Output: the same tree with each flow element named
 * `ScrcpyVersionsTable` swapped for the GFM table of `scrcpyVersionsTable`.
 * Pages without the element are left alone and don't load the packages.
 * Errors: those of `loadScrcpyVersionRows`, prefixed with the file path.
 * Register it before the TypeScript-to-JavaScript tabs plugin.
 */
const remarkScrcpyVersions: Plugin<[], Root> = function remarkScrcpyVersions() {
  return async (tree, file) => {
    const places: {parent: {children: unknown[]}; index: number}[] = [];
    visit(tree, 'mdxJsxFlowElement', (node, index, parent) => {
      if (node.name === 'ScrcpyVersionsTable' && parent !== undefined && index !== undefined) {
        places.push({parent, index});
        return SKIP;
      }
      return undefined;
    });
    if (places.length === 0) {
      return;
    }
    let rows: ScrcpyVersionRow[];
    try {
      rows = await loadScrcpyVersionRows(file.path);
    } catch (error) {
      throw new Error(`${file.path}: <ScrcpyVersionsTable />: ${(error as Error).message}`, {cause: error});
    }
    for (const {parent, index} of places) {
      const withAdbScrcpy = DATA_PACKAGES[docsVersionOfFile(file.path)]?.['adb-scrcpy'] !== undefined;
      parent.children[index] = scrcpyVersionsTable(rows, withAdbScrcpy);
    }
  };
};

export default remarkScrcpyVersions;
