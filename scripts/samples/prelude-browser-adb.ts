/**
 * The adb prelude in Chromium, for the browser samples of every docs version: bundled into each
 * sample's page against that version's library (its `@yume-chan/*` imports are mapped as the
 * sample's own; browser.ts resolves the preludes' `./prelude-runtime.mjs` import to this file, or
 * for 2.0.0 to prelude-browser.ts, which adds the client prelude), it connects as the Quick
 * start's web sample does: `AdbDaemonWebUsbDeviceManager.BROWSER.requestDevice()`
 * (the runner clicked, and answers the device picker), `connect()`, and
 * `AdbDaemonTransport.authenticate` with an `AdbWebCredentialStore`, whose key the page makes and
 * keeps in IndexedDB; the simulated device allows it at once, as a phone whose owner taps "Allow".
 *
 * The teardowns do not close at once: a browser sample's top-level code ends before the events the
 * runner then dispatches (fence meta `event="…"`), whose listeners still use `adb`. They hand the
 * closing to the harness (harness.ts `cleanups`), which runs it after the events.
 */
// `@yume-chan/*`, not an alias: browser.ts maps these to the version's library, as it does the
// samples' own (requestDevice, connect and AdbWebCredentialStore are the same in 0.0.24, 1.x and 2.0.x).
import {Adb, AdbDaemonTransport} from '@yume-chan/adb';
import AdbWebCredentialStore from '@yume-chan/adb-credential-web';
import {AdbDaemonWebUsbDeviceManager} from '@yume-chan/adb-daemon-webusb';

import {HARNESS_GLOBAL, type SampleHarness} from './harness.ts';

/** The key's name the device's dialog shows: `<app name>@<host>`. */
const APP_NAME = 'Tango samples';

/** Runs `close` when the harness cleans up, or at once outside the harness. */
export function atCleanup(close: () => Promise<void>): void {
  const harness = (globalThis as Record<string, unknown>)[HARNESS_GLOBAL] as SampleHarness | undefined;
  if (harness) harness.cleanups.push(close);
  else void close();
}

/**
 * Connects to the simulated device over WebUSB, as the Quick start does.
 *
 * @returns An `Adb` whose serial is the device's USB serial number (`ro.serialno`).
 * @throws Error when the page has no WebUSB, no device was picked, or authentication fails;
 *   `DOMException` (SecurityError) when the page is not handling a click.
 */
export async function connectSampleAdb(): Promise<Adb> {
  const manager = AdbDaemonWebUsbDeviceManager.BROWSER;
  if (!manager) throw new Error('the adb prelude needs WebUSB: run the sample with npm run check:samples -- --run');
  const device = await manager.requestDevice();
  if (!device) throw new Error('the adb prelude: no device was picked');
  const transport = await AdbDaemonTransport.authenticate({
    serial: device.serial,
    connection: await device.connect(),
    credentialStore: new AdbWebCredentialStore(APP_NAME),
  });
  return new Adb(transport);
}

/**
 * The adb prelude's teardown: closes the connection once the runner's events are done; a
 * connection the sample closed or lost already is no error.
 *
 * @param adb The `Adb` connectSampleAdb gave.
 */
export async function closeSampleAdb(adb: Adb): Promise<void> {
  atCleanup(async () => {
    await Promise.resolve(adb.close()).catch(() => undefined);
  });
}
