import path from 'node:path';
import {CURRENT_VERSION, LIBRARIES, type DataPackage} from '../versions/index.ts';

/**
 * For each docs version, the npm alias under which this site installs the `@yume-chan` packages whose
 * data build-time tables read (the `data` of each entry of LIBRARIES in src/versions/index.ts). A package
 * missing from a version's entry is not published on the registry for that version.
 */
export const DATA_PACKAGES: Readonly<Record<string, Readonly<Partial<Record<DataPackage, string>>>>> = Object.fromEntries(
  Object.entries(LIBRARIES).map(([version, library]) => [version, library.data]),
);

/**
 * Tells which docs version a page belongs to, from its path.
 *
 * Input: the page's file path (absolute or relative; `/` or the platform separator), or `undefined`.
 * Output: `X` for a file under `versioned_docs/version-X/`, else {@link CURRENT_VERSION}
 * (pages under `docs/`, and unit-test inputs without a path). Errors: none.
 */
export function docsVersionOfFile(filePath: string | undefined): string {
  const parts = (filePath ?? '').split(/[\\/]/);
  const index = parts.lastIndexOf('versioned_docs');
  const folder = index >= 0 ? parts[index + 1] : undefined;
  return folder?.startsWith('version-') ? folder.slice('version-'.length) : CURRENT_VERSION;
}

/**
 * Finds the installed package that holds a docs version's data.
 *
 * Input: the page's file path (see {@link docsVersionOfFile}) and the package wanted.
 * Output: the alias to import or resolve, e.g. `@tango-v1/scrcpy`.
 * Errors: throws an Error naming the version when that package is not published for it, so that a
 * page cannot show another version's data by mistake; the message tells the writer to give the
 * facts by hand.
 */
export function dataPackageFor(filePath: string | undefined, wanted: DataPackage): string {
  const version = docsVersionOfFile(filePath);
  const alias = DATA_PACKAGES[version]?.[wanted];
  if (alias === undefined) {
    throw new Error(
      `@yume-chan/${wanted} is not published for docs version ${version}, so this element has no data to show there; ` +
        'write the facts by hand from the sources instead.',
    );
  }
  return alias;
}

/**
 * The folder of an installed alias package.
 *
 * Input: an alias such as `@tango-v1/scrcpy`, resolved from this repository's node_modules.
 * Output: the absolute folder holding its package.json. Errors: throws when it is not installed.
 */
export function packageDirOf(alias: string): string {
  return path.dirname(require.resolve(`${alias}/package.json`));
}
