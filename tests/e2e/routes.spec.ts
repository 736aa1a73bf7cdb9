import {readFileSync, readdirSync} from 'node:fs';
import path from 'node:path';
import {test, expect, expectedRoutes, builtRoutes, SITE_TITLE} from './fixtures.ts';

const expected = expectedRoutes();
const allExpected = new Set([...expected.values()].flat());
const built = builtRoutes().filter((route) => !route.startsWith('/__test__/'));
const siteRoutes = new Set(['/search/']);
const RENDER_CHUNK = 20;

function decodeEntities(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'");
}

test('every built doc route is a listed route', () => {
  const unlisted = built.filter((route) => !allExpected.has(route) && !siteRoutes.has(route));
  expect(unlisted, 'routes the build has but ../shared/spec/routes does not list').toEqual([]);
  const missing = [...allExpected].filter((route) => !built.includes(route));
  const perVersion = [...expected].map(([version, routes]) => `${version}: ${routes.filter((r) => !built.includes(r)).length}/${routes.length}`);
  console.log(`routes listed but not built yet: ${missing.length} of ${allExpected.size} (${perVersion.join(', ')})`);
  expect(built.length).toBeGreaterThan(0);
  // The 2.0.0 pages are all written: from here on a missing one is a failure.
  expect(expected.get('2.0.0')!.filter((route) => !built.includes(route)), '2.0.0 routes not built').toEqual([]);
});

for (const [version, routes] of expected) {
  test(`built ${version} routes answer 200 with their page title`, async ({request}) => {
    const builtHere = routes.filter((route) => built.includes(route));
    for (const route of builtHere) {
      const response = await request.get(route);
      expect(response.status(), route).toBe(200);
      const html = await response.text();
      const title = decodeEntities(/<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
      const h1 = decodeEntities((/<h1[^>]*>(.*?)<\/h1>/s.exec(html)?.[1] ?? '').replace(/<[^>]+>/g, '').trim());
      expect(h1, `${route} has a heading`).not.toBe('');
      expect(title, route).toBe(`${h1} | ${SITE_TITLE}`);
    }
  });

  // Rendering every page takes a while: in chunks, so that two workers share the load.
  const renderable = routes.filter((r) => built.includes(r));
  for (let start = 0; start < renderable.length; start += RENDER_CHUNK) {
    const chunk = renderable.slice(start, start + RENDER_CHUNK);
    test(`built ${version} routes ${start + 1}-${start + chunk.length} render in the browser without console errors`, async ({page, watch}) => {
      test.setTimeout(240_000);
      for (const route of chunk) {
        await page.goto(route, {waitUntil: 'load'});
        await expect(page.locator('h1').first(), route).toBeVisible();
      }
      expect(watch.consoleErrors).toEqual([]);
      expect(watch.externalRequests).toEqual([]);
    });
  }
}

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
    const folder = path.resolve(import.meta.dirname, '../..', version === '2.0.0' ? 'docs' : `versioned_docs/version-${version}`, 'tango/daemon/tcp');
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
