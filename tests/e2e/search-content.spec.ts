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

async function topThree(page: import('@playwright/test').Page, url: string): Promise<string[]> {
  await gotoHydrated(page, url);
  const results = page.locator('article h2 a');
  // The index of a whole version is large (issue 8 measures it): allow time to fetch and load it.
  await expect(results.first()).toBeVisible({timeout: 15_000});
  return (await results.evaluateAll((links) => links.slice(0, 3).map((a) => a.getAttribute('href') ?? ''))).map((href) =>
    href.replace(/[?#].*$/, ''),
  );
}

// One page per version, asking each query in turn: the version's index is fetched once (the
// browser caches it), not once per query.
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
    for (const [query, expected] of queries) {
      expect((await request.get(expected)).status(), `${expected} is built`).toBe(200);
      const versionParam = version === undefined ? '' : `&version=${encodeURIComponent(`${version}/`)}`;
      const top = await topThree(page, `/search/?q=${encodeURIComponent(query)}${versionParam}`);
      if (!top.includes(expected)) misses.push(`"${query}" → ${expected}: ${top.join(', ')}`);
    }
    expect(misses, 'queries whose top three results miss their page').toEqual([]);
  });
}

test('pasted error messages find the troubleshooting page in the top 3', async ({page, request}) => {
  const troubleshooting = '/tango/troubleshooting/';
  expect((await request.get(troubleshooting)).status(), `${troubleshooting} is built`).toBe(200);
  const misses: string[] = [];
  for (const message of PASTED_ERRORS) {
    const top = await topThree(page, `/search/?q=${encodeURIComponent(message)}`);
    if (!top.includes(troubleshooting)) misses.push(`"${message}": ${top.join(', ')}`);
  }
  expect(misses, 'messages whose top three results miss the troubleshooting page').toEqual([]);
});
