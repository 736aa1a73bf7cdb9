import fs from 'node:fs';
import path from 'node:path';

/**
 * Lists the pages under a folder, recursively, skipping dot-folders and node_modules. Shared by
 * scripts/samples/ (the code-sample checker) and scripts/render-diagrams.ts.
 *
 * @param dir Folder to walk; a missing folder has no pages.
 * @returns Absolute paths of the `.md` and `.mdx` files, sorted.
 */
export function listPages(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const pages: string[] = [];
  for (const entry of fs.readdirSync(dir, {withFileTypes: true})) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && entry.name !== 'node_modules') pages.push(...listPages(full));
    } else if (/\.mdx?$/.test(entry.name)) {
      pages.push(full);
    }
  }
  return pages.sort();
}
