/**
 * The adb and client preludes in Chromium, for 2.0.0's browser samples: the adb prelude of
 * prelude-browser-adb.ts and a Scrcpy session (prelude-scrcpy.ts, 2.x) on its connection. The
 * older versions' pages have no client prelude; their samples get prelude-browser-adb.ts alone.
 */
import type {Adb} from '@tango-v2/adb';

import {atCleanup, closeSampleAdb, connectSampleAdb} from './prelude-browser-adb.ts';
import {closeClient, startClientOn, type SampleClient} from './prelude-scrcpy.ts';

export {closeSampleAdb, connectSampleAdb};

/**
 * The client prelude: a Scrcpy session (prelude-scrcpy.ts startClientOn) on a WebUSB connection.
 *
 * @returns The started `AdbScrcpyClient`.
 * @throws What connectSampleAdb or `AdbScrcpyClient.start` throws.
 */
export async function startSampleClient(): Promise<SampleClient> {
  return startClientOn((await connectSampleAdb()) as unknown as Adb);
}

/**
 * The client prelude's teardown: stops the session and closes its connection once the runner's
 * events are done.
 *
 * @param client The client startSampleClient gave.
 */
export async function closeSampleClient(client: SampleClient): Promise<void> {
  atCleanup(async () => {
    const adb = await closeClient(client);
    if (adb) await Promise.resolve(adb.close()).catch(() => undefined);
  });
}
