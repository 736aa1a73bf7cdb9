import {readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';
import {
  test,
  expect,
  expectedRoutes,
  expectedTitles,
  builtRoutes,
  builtHtml,
  decodeEntities,
  SITE_TITLE,
  gotoHydrated,
  axeCheckedLatest,
  visitAllInApp,
} from './fixtures.ts';
import {docsVersions, LATEST} from '../../src/versions/index.ts';

const expected = expectedRoutes();
const titles = expectedTitles();
const allExpected = new Set([...expected.values()].flat());
const built = builtRoutes().filter((route) => !route.startsWith('/__test__/'));
const RENDER_CHUNK = 50;

test('the build has exactly the listed routes: none missing, none extra', () => {
  const siteFile = path.resolve(import.meta.dirname, '../../../shared/spec/routes/site.txt');
  const listedSite = readFileSync(siteFile, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const unlisted = built.filter((route) => !allExpected.has(route) && !listedSite.includes(route));
  expect(unlisted, 'routes the build has but ../shared/spec/routes does not list').toEqual([]);
  for (const [version, routes] of expected) {
    expect(
      routes.filter((route) => !built.includes(route)),
      `${version} routes not built`,
    ).toEqual([]);
  }
});

for (const [version, routes] of expected) {
  test(`built ${version} routes answer 200 with their page title`, async ({request}) => {
    const headings: string[] = [];
    for (const route of routes) {
      const response = await request.get(route);
      expect(response.status(), route).toBe(200);
      const html = await response.text();
      const title = decodeEntities(/<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
      const h1 = decodeEntities((/<h1[^>]*>(.*?)<\/h1>/s.exec(html)?.[1] ?? '').replace(/<[^>]+>/g, '').trim());
      expect(h1, `${route} has a heading`).not.toBe('');
      expect(title, route).toBe(`${h1} | ${SITE_TITLE}`);
      headings.push(h1);
    }
    // Every page of the spec's table for this version is there under its title.
    const missingTitles = titles.get(version)!.filter((wanted) => {
      const index = headings.indexOf(wanted);
      if (index >= 0) headings.splice(index, 1);
      return index < 0;
    });
    expect(missingTitles, `${version} page titles of pages.md section 1 not found as a page heading`).toEqual([]);
  });

  // Every other route of the latest version is rendered, with the same checks, by the
  // accessibility pass (a11y.spec.ts, axeCheckedLatest). Here the other routes are rendered in
  // chunks (a failure names a short range): the first route of a chunk is loaded and hydrated from
  // its pre-rendered HTML, and the others are reached as a reader's click reaches them, by the
  // client-side router (which loads each page's own chunks and renders it in React: 0.13 against
  // 0.44 CPU-s for a full load), all in one call inside the page (fixtures.ts visitAllInApp, half
  // the CPU of a Playwright assertion per route). Full loads, and so hydration, are checked on each
  // chunk's first route here and in a11y.spec.ts, and on the pages the other specs open.
  const rendered = version === LATEST.version ? routes.filter((_, index) => !axeCheckedLatest(index)) : routes;
  for (let start = 0; start < rendered.length; start += RENDER_CHUNK) {
    const chunk = rendered.slice(start, start + RENDER_CHUNK);
    test(`built ${version} routes ${start + 1}-${start + chunk.length} render in the browser without console errors or failed requests`, async ({
      page,
      watch,
    }) => {
      test.setTimeout(120_000);
      await gotoHydrated(page, chunk[0]!, {waitUntil: 'load'});
      await expect(page.locator('h1').first(), chunk[0]).toBeVisible();
      expect(await visitAllInApp(page, chunk.slice(1)), 'routes whose title or heading did not render').toEqual([]);
      expect(watch.consoleErrors).toEqual([]);
      expect(watch.externalRequests).toEqual([]);
      expect(watch.failedRequests, 'failed requests to the site').toEqual([]);
    });
  }
}

test('no page of any version has an empty code block', () => {
  // Pre-rendered HTML: every code block (the TypeScript tab of a sample included; a JavaScript
  // tab is rendered from the same conversion when picked) holds some text.
  const empty: string[] = [];
  for (const route of built) {
    for (const [, code] of builtHtml(route).matchAll(/<pre[^>]*><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)) {
      if (decodeEntities(code!.replace(/<[^>]+>/g, '')).trim() === '') empty.push(route);
    }
  }
  expect(empty, 'routes with an empty code block').toEqual([]);
});

test('no "Next step" box of any version only repeats the page\'s own pagination link', () => {
  // Pre-rendered HTML: a box titled "Next step(s)" must point somewhere the "Next" link under it
  // does not (issue #25: the box on 96 of 100 pages repeated the pagination link).
  const repeated: string[] = [];
  for (const route of built) {
    const html = builtHtml(route);
    const next = /pagination-nav__link--next"? href="?([^" >]+)/.exec(html)?.[1];
    for (const [, content] of html.matchAll(
      /<\/svg><\/span>Next steps?<\/div><div class="?admonitionContent[^>]*>([\s\S]*?)<\/div><\/div>/g,
    )) {
      const links = [...content!.matchAll(/href="?([^" >]+)/g)].map(([, href]) => href!.split('#')[0]);
      if (links.every((href) => href === next)) repeated.push(`${route} (${links.join(', ') || 'no link'})`);
    }
  }
  expect(repeated, 'pages whose Next step box only repeats the pagination link').toEqual([]);
});

test('the site routes outside the docs exist', async ({request}) => {
  expect((await request.get('/search/')).status()).toBe(200);
  expect((await request.get('/404.html')).status()).toBe(200);
  const sitemap = await request.get('/sitemap.xml');
  expect(sitemap.status()).toBe(200);
  expect(await sitemap.text()).toContain('<loc>https://docs.tangoapp.dev/</loc>');
});

test('the TCP connection category has its generated index in every version that has TCP pages', async ({request}) => {
  for (const [version, routes] of expected) {
    const route = routes.find((r) => r.endsWith('/category/tcp-connection/'));
    expect(route, version).toBeDefined();
    const folder = path.resolve(
      import.meta.dirname,
      '../..',
      docsVersions().find((v) => v.version === version && !v.isNext)!.folder,
      'tango/daemon/tcp',
    );
    expect(readFileSync(path.join(folder, '_category_.yml'), 'utf8')).toMatch(/type: generated-index\s+slug: \/category\/tcp-connection/);
    const hasPages = readdirSync(folder).some((file) => /\.mdx?$/.test(file));
    const response = await request.get(route!);
    if (hasPages) {
      expect(response.status(), route).toBe(200);
      const html = await response.text();
      expect(html).toMatch(/<h1[^>]*>TCP connection<\/h1>/);
      for (const page of routes.filter((r) => r.includes('/tango/daemon/tcp/'))) {
        expect(html).toMatch(new RegExp(`href="?${page.replace(/[.]/g, '\\.')}"?[ >]`));
      }
    } else {
      expect(response.status(), `${route} exists only once the folder has pages`).toBe(404);
    }
  }
});
