import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {createSlugger, DEFAULT_PARSE_FRONT_MATTER} from '@docusaurus/utils';
import type {DocMetadataBase, VersionMetadata} from '@docusaurus/plugin-content-docs';
import {loadSidebars} from '@docusaurus/plugin-content-docs/lib/sidebars/index.js';
import {DefaultSidebarItemsGenerator} from '@docusaurus/plugin-content-docs/lib/sidebars/generator.js';
import {createSidebarsUtils} from '@docusaurus/plugin-content-docs/lib/sidebars/utils.js';
import {DefaultNumberPrefixParser} from '@docusaurus/plugin-content-docs/lib/numberPrefix.js';
import {docsVersions} from '../../src/versions/index.ts';

/**
 * STYLE.md ("Pages"): a "Next step" box only where the next step is not the next page in the
 * sidebar, which the pager under the page already links (issue 34: 24 of 142 boxes linked the
 * pager's own page). The pager's next doc comes from Docusaurus's own sidebar code, fed with the
 * pages' front matter and `_category_.yml` files as the build feeds it.
 */
const root = path.resolve(import.meta.dirname ?? __dirname, '../..');

/** The `.mdx` files of a docs folder, relative to it (POSIX), sorted. */
function pages(folder: string): string[] {
  return readdirSync(path.join(root, folder), {recursive: true, encoding: 'utf8'})
    .filter((file) => file.endsWith('.mdx'))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

/** For each doc ID of a docs version, the doc ID its pager's "Next" link leads to (undefined: none, or a generated index). */
async function pagerNext(folder: string, sidebarFile: string): Promise<Map<string, string | undefined>> {
  const docs: DocMetadataBase[] = [];
  for (const file of pages(folder)) {
    const fileContent = readFileSync(path.join(root, folder, file), 'utf8');
    const {frontMatter} = await DEFAULT_PARSE_FRONT_MATTER({filePath: file, fileContent});
    const dir = path.posix.dirname(file);
    docs.push({
      id: file.replace(/\.mdx$/, ''),
      title: String(frontMatter.title ?? ''),
      frontMatter,
      source: `@site/${folder}/${file}`,
      sourceDirName: dir,
      sidebarPosition: frontMatter.sidebar_position as number | undefined,
    } as DocMetadataBase);
  }
  const sidebars = await loadSidebars(path.join(root, sidebarFile), {
    sidebarItemsGenerator: DefaultSidebarItemsGenerator,
    numberPrefixParser: DefaultNumberPrefixParser,
    docs,
    drafts: [],
    version: {contentPath: path.join(root, folder), path: '/', versionName: folder} as VersionMetadata,
    categoryLabelSlugger: createSlugger(),
    sidebarOptions: {sidebarCollapsed: true, sidebarCollapsible: true},
  });
  const utils = createSidebarsUtils(sidebars);
  return new Map(
    docs.map(({id}) => {
      const {next} = utils.getDocNavigation({docId: id, displayedSidebar: undefined, unlistedIds: new Set()});
      if (next?.type !== 'category') return [id, next?.id];
      return [id, next.link.type === 'doc' ? next.link.id : undefined];
    }),
  );
}

/** The doc IDs that the "Next step" boxes of a page link to (relative `.mdx` links), box by box. */
function nextStepLinks(docId: string, source: string): string[][] {
  return [...source.matchAll(/^:::\w+\[Next steps?\]\n([\s\S]*?)^:::$/gm)].map(([, body]) =>
    [...body!.matchAll(/\]\((\.[^)#\s]*\.mdx)(?:#[^)]*)?\)/g)].map(([, link]) =>
      path.posix.join(path.posix.dirname(docId), link!).replace(/\.mdx$/, ''),
    ),
  );
}

test('nextStepLinks finds the pages a box links to, relative to the page', () => {
  const source = ['Text [a](./a.mdx).', '', ':::note[Next step]', '', 'See [b](../b.mdx#x) or [c](https://c.dev).', '', ':::'].join('\n');
  assert.deepEqual(nextStepLinks('tango/server/watch', source), [['tango/b']]);
});

for (const {version, folder, name} of docsVersions()) {
  const sidebarFile = name === 'current' ? 'sidebars.ts' : `versioned_sidebars/version-${name}-sidebars.json`;
  test(`${version}: no "Next step" box links to the page the pager's "Next" already leads to`, async () => {
    const next = await pagerNext(folder, sidebarFile);
    assert.ok([...next.values()].filter(Boolean).length > next.size / 2, 'the sidebars give most pages a next page');
    const repeated: string[] = [];
    for (const [docId, target] of next) {
      const source = readFileSync(path.join(root, folder, `${docId}.mdx`), 'utf8');
      for (const links of nextStepLinks(docId, source)) {
        if (target !== undefined && links.includes(target)) repeated.push(`${folder}/${docId}.mdx -> ${target}`);
      }
    }
    assert.deepEqual(repeated, [], 'remove the link (or the box): the pager under the page already leads there');
  });
}
