import {mkdir, readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';
import logger from '@docusaurus/logger';
import type {LoadContext, Plugin} from '@docusaurus/types';
import type {LoadedContent, LoadedVersion} from '@docusaurus/plugin-content-docs';
import {twinPath} from '../../utils/twin-path.ts';
import {CURRENT_VERSION} from '../../versions/index.ts';
import {docHtmlToMarkdown} from './markdown.ts';

/** The `##` section of llms.txt that each sidebar becomes (the navbar's labels). */
const SECTION_TITLES: Record<string, string> = {tango: 'Guide', api: 'API', scrcpy: 'Scrcpy', internal: 'Internal'};

/** One doc page as llms.txt lists it. */
export interface LlmsPage {
  title: string;
  description: string;
  /** The page's path, e.g. `/1.1.0/api/adb/sync/stat/`. */
  permalink: string;
}

/** One version's pages, grouped by sidebar, in sidebar order. */
export interface LlmsVersion {
  /** The library version the docs describe, e.g. `2.0.0` (the docs plugin calls the current one `current`). */
  name: string;
  /** Base path, e.g. `/` or `/1.1.0/`. */
  path: string;
  sections: {title: string; pages: LlmsPage[]}[];
}

/** `/1.1.0` or `/1.1.0/` → `/1.1.0/`; `/` stays `/`. */
function withSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`;
}

/**
 * A version's docs in sidebar order, one section per sidebar (`tango`, `api`, `scrcpy`, `internal`),
 * then the docs that are in no sidebar. Each doc appears once, under the first sidebar that lists it.
 * Generated category indexes are not docs and are left out.
 * Input: the docs plugin's loaded version. Output: {@link LlmsVersion}. Errors: none.
 */
export function versionSections(version: LoadedVersion): LlmsVersion {
  const byId = new Map(version.docs.filter((doc) => !doc.unlisted).map((doc) => [doc.id, doc]));
  const seen = new Set<string>();
  const take = (id: string, into: LlmsPage[]): void => {
    const doc = byId.get(id);
    if (doc && !seen.has(id)) {
      seen.add(id);
      into.push({title: doc.title, description: doc.description, permalink: doc.permalink});
    }
  };
  type Item = LoadedVersion['sidebars'][string][number];
  const walk = (items: readonly Item[], into: LlmsPage[]): void => {
    for (const item of items) {
      if (item.type === 'doc' || item.type === 'ref') {
        take(item.id, into);
      } else if (item.type === 'category') {
        if (item.link?.type === 'doc') {
          take(item.link.id, into);
        }
        walk(item.items, into);
      }
    }
  };
  const sections = Object.entries(version.sidebars).map(([id, items]) => {
    const pages: LlmsPage[] = [];
    walk(items, pages);
    return {title: SECTION_TITLES[id] ?? id, pages};
  });
  const rest: LlmsPage[] = [];
  for (const id of byId.keys()) {
    take(id, rest);
  }
  if (rest.length > 0) {
    sections.push({title: 'Other pages', pages: rest});
  }
  return {
    name: version.versionName === 'current' ? CURRENT_VERSION : version.versionName,
    path: withSlash(version.path),
    sections: sections.filter((section) => section.pages.length > 0),
  };
}

/**
 * The llms.txt of one version (format of llmstxt.org): `# Tango ADB`, a one-line summary as a
 * blockquote, a paragraph naming the version and linking the other versions' files, then one `##`
 * section per sidebar with `- [title](absolute URL of the twin): description` per page.
 * Input: the version, every built version (for the links), the site URL (no trailing slash).
 * Output: the file's text. Errors: none.
 */
export function llmsTxt(version: LlmsVersion, all: LlmsVersion[], siteUrl: string): string {
  const others = all
    .filter((other) => other.name !== version.name)
    .map((other) => `[${other.name}](${siteUrl}${other.path}llms.txt)`)
    .join(', ');
  const lines = [
    '# Tango ADB',
    '',
    '> Tango ADB is a TypeScript library (npm scope `@yume-chan`) that drives Android devices over ADB from a web page (WebUSB) or Node.js, and mirrors and controls their screen with Scrcpy.',
    '',
    `These are the docs of version ${version.name} of the \`@yume-chan\` packages, each page as Markdown; every TypeScript sample in them is type-checked against ${version.name}. ` +
      `All pages in one file: [llms-full.txt](${siteUrl}${version.path}llms-full.txt).` +
      (others ? ` Other versions: ${others}.` : ''),
  ];
  for (const section of version.sections) {
    lines.push('', `## ${section.title}`, '');
    for (const page of section.pages) {
      const description = page.description ? `: ${page.description}` : '';
      lines.push(`- [${page.title}](${siteUrl}${twinPath(page.permalink)})${description}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Turns a link of a built page into the URL a Markdown twin should hold: a link to a doc page
 * becomes the absolute URL of that page's twin (fragment kept); other site paths become absolute;
 * fragments, external URLs and other schemes are kept.
 */
function urlResolver(pagePath: string, docPaths: Set<string>, siteUrl: string): (href: string) => string {
  return (href) => {
    if (href === '' || href.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(href)) {
      return href;
    }
    const url = new URL(href, `http://site${pagePath}`);
    if (docPaths.has(url.pathname)) {
      return `${siteUrl}${twinPath(url.pathname)}${url.hash}`;
    }
    return `${siteUrl}${url.pathname}${url.search}${url.hash}`;
  };
}

/**
 * Docusaurus plugin: after the build, writes beside every doc page of every built version its
 * Markdown twin (`/api/adb/sync/stat.md` beside `/api/adb/sync/stat/`), and per version an
 * `llms.txt` index and an `llms-full.txt` with every page (`/llms.txt`, `/1.1.0/llms.txt`, …).
 *
 * Input: the site's load context (for `siteConfig.url`); reads the docs plugin's content (versions,
 * docs, sidebars) and the built HTML in `outDir`. Output: files in `outDir`; nothing in the client
 * bundle. Errors: the build fails (the error names the file) when a built doc page is missing or
 * is not theme-classic doc markup. Facts: the twin's content is the rendered page, converted by
 * {@link docHtmlToMarkdown}; the page list and order are the sidebars'.
 */
export default function llmsTxtPlugin(context: LoadContext): Plugin {
  let versions: LlmsVersion[] = [];
  const siteUrl = context.siteConfig.url.replace(/\/+$/, '');
  return {
    name: 'tango-llms-txt',
    allContentLoaded({allContent}) {
      const docs = allContent['docusaurus-plugin-content-docs']?.default as LoadedContent | undefined;
      versions = (docs?.loadedVersions ?? []).map(versionSections);
    },
    async postBuild({outDir}) {
      const started = performance.now();
      let twins = 0;
      const docPaths = new Set(
        versions.flatMap((version) => version.sections.flatMap((section) => section.pages.map((page) => page.permalink))),
      );
      for (const version of versions) {
        const full: string[] = [];
        for (const page of version.sections.flatMap((section) => section.pages)) {
          const htmlFile = path.join(outDir, page.permalink, 'index.html');
          let markdown: string;
          try {
            markdown = docHtmlToMarkdown(await readFile(htmlFile, 'utf8'), {
              title: page.title,
              description: page.description,
              resolveUrl: urlResolver(page.permalink, docPaths, siteUrl),
            });
          } catch (error) {
            throw new Error(`llms-txt: cannot make the Markdown twin of ${htmlFile}`, {cause: error});
          }
          const twinFile = path.join(outDir, twinPath(page.permalink));
          await mkdir(path.dirname(twinFile), {recursive: true});
          await writeFile(twinFile, markdown);
          twins++;
          full.push(`Source: ${siteUrl}${twinPath(page.permalink)}\n\n${markdown}`);
        }
        const versionDir = path.join(outDir, version.path);
        await mkdir(versionDir, {recursive: true});
        await writeFile(path.join(versionDir, 'llms.txt'), llmsTxt(version, versions, siteUrl));
        await writeFile(path.join(versionDir, 'llms-full.txt'), `${llmsTxt(version, versions, siteUrl)}\n---\n\n${full.join('\n---\n\n')}`);
      }
      // bench/build.ts reads this line for the time the twins add to the build.
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      logger.info(`[tango-llms-txt] ${twins} Markdown twins and ${versions.length} llms.txt/llms-full.txt pairs written in ${seconds} s`);
    },
  };
}
