/** The part of a docs version's global data that the lookup reads. */
export interface VersionDocs {
  name: string;
  label: string;
  isLast: boolean;
  /** The version's base path: `/` for the latest, `/1.1.0` for an older one (no trailing slash). */
  path: string;
  docs: {id: string; path: string}[];
}

/** A doc of some version that matches a path the reader asked for. */
export interface DocElsewhere {
  path: string;
  versionLabel: string;
}

function withSlash(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}

/**
 * Finds the docs that stand, in any version, where a missing path would be.
 *
 * @param pathname The path that was not found, e.g. `/1.1.0/api/adb/subprocess/none-protocol/`
 *   or `/api/bin/logcat` (with or without the trailing slash).
 * @param versions The docs plugin's versions (`useAllDocsData().default.versions`); undefined
 *   gives no result.
 * @returns The docs whose path within their version equals the missing path within its version,
 *   plus, for a page that was split into sub-pages (e.g. `api/bin/logcat` in 1.1.0), the docs
 *   directly below it; the latest version first, then in version order; never the path itself.
 *   Paths outside every version (e.g. `/x`) are read as paths of the latest version.
 */
export function findDocsElsewhere(pathname: string, versions: VersionDocs[] | undefined): DocElsewhere[] {
  if (!versions) return [];
  const requested = withSlash(pathname.replace(/\/index\.html$|\.html$/, ''));
  const ordered = [...versions].sort((a, b) => Number(b.isLast) - Number(a.isLast));
  const owner = ordered.find((version) => version.path !== '/' && requested.startsWith(withSlash(version.path)));
  const relative = owner ? requested.slice(withSlash(owner.path).length) : requested.slice(1);
  if (relative === '') return [];

  const found: DocElsewhere[] = [];
  for (const version of ordered) {
    const base = withSlash(version.path);
    const exact = `${base}${relative}`;
    for (const doc of version.docs) {
      const path = withSlash(doc.path);
      const isChild = path.startsWith(exact) && !path.slice(exact.length, -1).includes('/');
      if ((path === exact || isChild) && path !== requested) {
        found.push({path, versionLabel: version.label});
      }
    }
  }
  return found;
}
