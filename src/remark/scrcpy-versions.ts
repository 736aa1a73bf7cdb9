import type {Root, Table, TableCell, TableRow, PhrasingContent} from 'mdast';
import type {Plugin} from 'unified';
import {visit, SKIP} from 'unist-util-visit';

/** One Scrcpy server version that `@yume-chan/scrcpy` supports, as one table row. */
export interface ScrcpyVersionRow {
    /** Server version, e.g. `"2.1.1"`. */
    version: string;
    /** Options class exported by `@yume-chan/scrcpy`, e.g. `"ScrcpyOptions2_1_1"`. */
    scrcpyClass: string;
    /** Matching class exported by `@yume-chan/adb-scrcpy`, or `undefined` when that package exports none. */
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
 * (`import * as …`). Every export named `ScrcpyOptionsX_Y` or `ScrcpyOptionsX_Y_Z`
 * is one server version (`ScrcpyOptionsLatest` is an alias and is skipped); its
 * options are the keys of its static `Defaults` object, which each version's
 * source builds from the previous version's `Defaults` plus or minus options.
 * Output: one row per version, oldest first, with the `AdbScrcpyOptionsX_Y` class
 * of the same name when `@yume-chan/adb-scrcpy` exports it, and the options added
 * and removed compared with the previous row (patch-version alias classes inherit
 * `Defaults`, so they add and remove nothing).
 * Errors: throws when no `ScrcpyOptionsX_Y` class is found, or when a class has
 * no `Defaults` object, so a package whose structure changed fails the build
 * instead of printing a wrong table.
 * Facts: the two packages passed in (the site passes @yume-chan/scrcpy and
 * @yume-chan/adb-scrcpy 2.0.1, installed as @tango-v2/scrcpy and @tango-v2/adb-scrcpy).
 */
export function scrcpyVersionRows(
    scrcpyModule: Readonly<Record<string, unknown>>,
    adbScrcpyModule: Readonly<Record<string, unknown>>,
): ScrcpyVersionRow[] {
    const versions = Object.keys(scrcpyModule)
        .map((name) => ({name, match: CLASS_NAME.exec(name)}))
        .filter((entry): entry is {name: string; match: RegExpExecArray} => entry.match !== null)
        .map(({name, match}) => ({
            name,
            numbers: match.slice(1).filter((part) => part !== undefined).map(Number),
        }))
        .sort((a, b) => compareVersions(a.numbers, b.numbers));
    if (versions.length === 0) {
        throw new Error(
            'scrcpy-versions: the @yume-chan/scrcpy module exports no ScrcpyOptionsX_Y class; did the package change its structure?',
        );
    }

    let previous: string[] = [];
    return versions.map(({name, numbers}, index) => {
        const defaults = (scrcpyModule[name] as {Defaults?: unknown} | undefined)?.Defaults;
        if (typeof defaults !== 'object' || defaults === null) {
            throw new Error(
                `scrcpy-versions: ${name} has no static Defaults object; update src/remark/scrcpy-versions.ts to read its options another way.`,
            );
        }
        const keys = Object.keys(defaults);
        const adbName = `Adb${name}`;
        const row: ScrcpyVersionRow = {
            version: numbers.join('.'),
            scrcpyClass: name,
            adbScrcpyClass: typeof adbScrcpyModule[adbName] === 'function' ? adbName : undefined,
            added: index === 0 ? keys : keys.filter((key) => !previous.includes(key)),
            removed: previous.filter((key) => !keys.includes(key)),
        };
        previous = keys;
        return row;
    });
}

/**
 * Loads the installed 2.0.0 packages and returns their rows.
 *
 * Input: none (reads `@tango-v2/scrcpy` and `@tango-v2/adb-scrcpy` from node_modules).
 * Output: `scrcpyVersionRows` of those packages. Errors: those of `scrcpyVersionRows`,
 * or a module-not-found error when the packages are not installed.
 */
export async function loadScrcpyVersionRows(): Promise<ScrcpyVersionRow[]> {
    const scrcpyModule = (await import('@tango-v2/scrcpy')) as Record<string, unknown>;
    const adbScrcpyModule = (await import('@tango-v2/adb-scrcpy')) as Record<string, unknown>;
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
        index === 0 ? [{type: 'inlineCode', value: name}] : [{type: 'text', value: ', '}, {type: 'inlineCode', value: name}],
    );
}

/**
 * Builds the GFM table (mdast) for a list of rows.
 *
 * Input: rows from `scrcpyVersionRows`. Output: an mdast `table` with a header
 * row and the columns server version, `@yume-chan/scrcpy` class,
 * `@yume-chan/adb-scrcpy` class, options added, options removed; a missing
 * class or an empty list is shown as "—". Errors: none.
 */
export function scrcpyVersionsTable(rows: readonly ScrcpyVersionRow[]): Table {
    const header: TableRow = {
        type: 'tableRow',
        children: [
            'Server version',
            '@yume-chan/scrcpy class',
            '@yume-chan/adb-scrcpy class',
            'Options added',
            'Options removed',
        ].map((title) => cell([{type: 'text', value: title}])),
    };
    return {
        type: 'table',
        align: [null, null, null, null, null],
        children: [
            header,
            ...rows.map(
                (row): TableRow => ({
                    type: 'tableRow',
                    children: [
                        cell([{type: 'text', value: row.version}]),
                        cell(codeList([row.scrcpyClass])),
                        cell(codeList(row.adbScrcpyClass === undefined ? [] : [row.adbScrcpyClass])),
                        cell(codeList(row.added)),
                        cell(codeList(row.removed)),
                    ],
                }),
            ),
        ],
    };
}

/**
 * Remark plugin: replaces every `<ScrcpyVersionsTable />` MDX element with the
 * versions table of the installed 2.0.0 Scrcpy packages.
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
            rows = await loadScrcpyVersionRows();
        } catch (error) {
            throw new Error(`${file.path}: <ScrcpyVersionsTable />: ${(error as Error).message}`, {cause: error});
        }
        for (const {parent, index} of places) {
            parent.children[index] = scrcpyVersionsTable(rows);
        }
    };
};

export default remarkScrcpyVersions;
