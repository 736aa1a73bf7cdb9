import {test, expect} from './fixtures.ts';

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
  ['PackageManager', '/api/bin/pm/install/'],
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

for (const [query, expected] of QUERIES) {
  test(`searching "${query}" finds ${expected} in the top 3`, async ({page, request}) => {
    expect((await request.get(expected)).status(), `${expected} is built`).toBe(200);
    await page.goto(`/search/?q=${encodeURIComponent(query)}`);
    const results = page.locator('article h2 a');
    // The index of a whole version is large (issue 8 measures it): allow time to fetch and load it.
    await expect(results.first()).toBeVisible({timeout: 15_000});
    const top = (await results.evaluateAll((links) => links.slice(0, 3).map((a) => a.getAttribute('href') ?? '')))
      .map((href) => href.replace(/[?#].*$/, ''));
    expect(top, `top results for "${query}"`).toContain(expected);
  });
}
