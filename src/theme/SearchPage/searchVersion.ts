/** The part of a docs version's global data that the check reads. */
export interface SearchableVersion {
  label: string;
  isLast: boolean;
  /** The version's base path, e.g. `/` or `/1.1.0`. */
  path: string;
}

/** What the search page should do with its `version` query parameter. */
export type SearchVersionCheck = {kind: 'ok'} | {kind: 'unknown'; requested: string; known: {label: string; version: string | null}[]};

/**
 * Checks the `version` parameter of `/search/` against the built docs versions. The search
 * plugin turns the parameter into the URL of an index file (`/{version}search-index.json`),
 * so a value it did not write itself (`../x`, `9.9.9`) would fetch a missing file and leave the
 * page spinning.
 *
 * @param requested The raw parameter (`URLSearchParams.get('version')`): null when absent.
 * @param versions The docs versions (`useAllDocsData().default.versions`).
 * @param baseUrl The site's base URL, `/` here.
 * @returns `ok` for no parameter or a version path the search plugin writes (`1.1.0/`);
 *   otherwise (`1.1.0` without its slash included) `unknown`, with every version's label and
 *   parameter (null for the latest, which takes no parameter).
 */
export function checkSearchVersion(requested: string | null, versions: SearchableVersion[], baseUrl = '/'): SearchVersionCheck {
  const known = versions.map((version) => ({
    label: version.label,
    version: version.isLast ? null : `${version.path.slice(baseUrl.length)}/`,
  }));
  if (requested === null || requested === '') return {kind: 'ok'};
  if (known.some((k) => k.version === requested)) return {kind: 'ok'};
  return {kind: 'unknown', requested, known};
}
