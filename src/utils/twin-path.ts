/**
 * The path of a doc page's Markdown twin (written by src/plugins/llms-txt): the page path without
 * its trailing slash, plus `.md` (`/api/adb/sync/stat/` → `/api/adb/sync/stat.md`,
 * `/1.1.0/` → `/1.1.0.md`, `/` → `/index.md`).
 * Input: a path that starts with `/`. Output: a path. Errors: none.
 */
export function twinPath(permalink: string): string {
  const trimmed = permalink.replace(/\/+$/, '');
  return trimmed === '' ? '/index.md' : `${trimmed}.md`;
}
