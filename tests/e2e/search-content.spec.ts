import type {Page} from '@playwright/test';

import {test, expect, gotoHydrated} from './fixtures.ts';

/**
 * Reader queries (API names as a reader would type them) and the 2.0.0 page each must find
 * among the first three results of the search page.
 */
const QUERIES: [query: string, page: string][] = [
  // Guide (tango sidebar)
  ['Consumable', '/tango/consumable/'],
  ['WebSocketStream', '/tango/web-stream/websocket/'],
  ['AdbDaemonWebUsbDeviceObserver', '/tango/daemon/usb/watch-devices/'],
  ['AdbServerNodeTcpConnector', '/tango/server/client/'],
  ['initialDelayedAckBytes', '/tango/daemon/connect-device/'],
  // API
  ['spawnWaitText', '/api/adb/subprocess/none-protocol/'],
  ['AdbFrameBufferForbiddenError', '/api/adb/framebuffer/'],
  ['AdbReverseNotSupportedError', '/api/adb/reverse/'],
  ['readdir', '/api/adb/sync/opendir/'],
  ['waitFor', '/api/server/wait-for/'],
  ['PackageManager', '/api/bin/pm/sessions/'],
  ['AndroidLogPriority', '/api/bin/logcat/binary/'],
  // Internal
  ['CNXN', '/internal/connection/'],
  ['checksum', '/internal/packet/'],
  // Scrcpy
  ['pushServer', '/scrcpy/push-server/'],
  ['injectTouch', '/scrcpy/control/touch/'],
  ['WebCodecsVideoDecoder', '/scrcpy/video/web-codecs/'],
  ['h264SearchConfiguration', '/scrcpy/video/record/'],
  ['videoCodec', '/scrcpy/options/video-codec/'],
];

/**
 * Reader queries on the older versions: API names that exist only in that version (or that moved),
 * and the page of that version each must find among the first three results of that version's
 * index (`/search/?version=X/`, as the search bar of an older page asks for it).
 */
const OLDER_QUERIES: [version: string, query: string, page: string][] = [
  ['0.0.24', 'AdbDaemonWebUsbDeviceWatcher', '/0.0.24/tango/daemon/usb/watch-devices/'],
  ['0.0.24', 'ADB_DEFAULT_DEVICE_FILTER', '/0.0.24/tango/daemon/usb/device-filter/'],
  ['0.0.24', 'LogcatFormat', '/0.0.24/api/bin/logcat/'],
  ['1.0.0', 'spawnAndWaitLegacy', '/1.0.0/api/adb/subprocess/'],
  ['1.0.0', 'BitmapWebCodecsDecoderRenderer', '/1.0.0/scrcpy/video/web-codecs/'],
  ['1.0.0', 'DeviceBusyError', '/1.0.0/tango/troubleshooting/'],
  ['1.1.0', 'AdbSubprocessProtocol', '/1.1.0/api/adb/subprocess/'],
  ['1.1.0', 'InsertableStreamVideoFrameRenderer', '/1.1.0/scrcpy/video/web-codecs/'],
  ['1.1.0', 'waitForDisconnect', '/1.1.0/api/server/wait-for/'],
];

/**
 * Messages and symptoms as readers paste them, each of which the troubleshooting page answers
 * under a heading with that text: it must be among the first three results.
 */
const PASTED_ERRORS: string[] = [
  'Unable to claim interface',
  'The device is already in used by another program',
  'scrcpy server exited prematurely',
  'Unexpected server output',
  'ERR_REQUIRE_ESM',
  'Cannot use import statement outside a module',
  "doesn't match this client",
  'navigator.usb is undefined',
];

/**
 * Opens the search page of a docs version (`undefined`: the latest) once; each query is then typed
 * into its box, as a reader refines a search, so the version's index is fetched and loaded once
 * per page rather than once per query (a full load per query took ~1.5 s on the 2-core machine).
 */
async function openSearchPage(page: Page, version: string | undefined): Promise<void> {
  await gotoHydrated(page, version === undefined ? '/search/' : `/search/?version=${encodeURIComponent(`${version}/`)}`);
}

/**
 * Types `query` into the open search page's box and returns the paths of its first three results.
 * The box is emptied first and the old results are gone before the query is typed, so the results
 * read are this query's: the page keeps the last list on screen until the next one arrives.
 */
async function topThree(page: Page, query: string, version: string | undefined): Promise<string[]> {
  const box = page.locator('input[type="search"][name="q"]');
  const results = page.locator('article h2 a');
  await box.fill('');
  await expect(results).toHaveCount(0);
  await box.fill(query);
  // The index of a whole version is large (issue 8 measures it): allow time to fetch and load it.
  await expect(results.first(), query).toBeVisible({timeout: 15_000});
  // The page puts the typed query in its URL and keeps the version it was opened with.
  const params = new URL(page.url()).searchParams;
  expect(params.get('q'), query).toBe(query);
  expect(params.get('version'), query).toBe(version === undefined ? null : `${version}/`);
  return (await results.evaluateAll((links) => links.slice(0, 3).map((a) => a.getAttribute('href') ?? ''))).map((href) =>
    href.replace(/[?#].*$/, ''),
  );
}

// One page per version, asking each query in turn.
const BY_VERSION: [version: string | undefined, queries: [query: string, page: string][]][] = [
  [undefined, QUERIES],
  ...[...new Set(OLDER_QUERIES.map(([version]) => version))].map(
    (version) =>
      [version, OLDER_QUERIES.filter(([v]) => v === version).map(([, query, page]) => [query, page] as [string, string])] as [
        string,
        [string, string][],
      ],
  ),
];

for (const [version, queries] of BY_VERSION) {
  test(`searching ${version ?? 'the latest version'} for reader queries finds each documenting page in the top 3`, async ({
    page,
    request,
  }) => {
    test.setTimeout(150_000);
    const misses: string[] = [];
    await openSearchPage(page, version);
    for (const [query, expected] of queries) {
      expect((await request.get(expected)).status(), `${expected} is built`).toBe(200);
      const top = await topThree(page, query, version);
      if (!top.includes(expected)) misses.push(`"${query}" → ${expected}: ${top.join(', ')}`);
    }
    expect(misses, 'queries whose top three results miss their page').toEqual([]);
  });
}

test('pasted error messages find the troubleshooting page in the top 3', async ({page, request}) => {
  const troubleshooting = '/tango/troubleshooting/';
  expect((await request.get(troubleshooting)).status(), `${troubleshooting} is built`).toBe(200);
  const misses: string[] = [];
  await openSearchPage(page, undefined);
  for (const message of PASTED_ERRORS) {
    const top = await topThree(page, message, undefined);
    if (!top.includes(troubleshooting)) misses.push(`"${message}": ${top.join(', ')}`);
  }
  expect(misses, 'messages whose top three results miss the troubleshooting page').toEqual([]);
});
