/**
 * The script that puts the simulated `navigator.usb` into a page: `page/install.ts` bundled with
 * esbuild into one self-contained function, called with the bridge's address and the device's
 * USB identity. Inject it before the page's own scripts run:
 * `await context.addInitScript({content: webUsbInitScript({...})})` (Playwright).
 */
import {buildSync} from 'esbuild';
import {fileURLToPath} from 'node:url';

import type {PageConfig} from './page/install.ts';
import type {UsbDeviceDescriptor} from './protocol.ts';

/** What the init script needs: the bridge, the device's identity, and how the simulated picker behaves. */
export interface WebUsbInitScriptOptions {
  /** The bridge's `ws://127.0.0.1:PORT/` (`WebUsbBridge.url`). */
  bridgeUrl: string;
  /** The device's USB identity (`WebUsbBridge.descriptor`, or `usbDescriptorFor(device.properties)`). */
  descriptor: UsbDeviceDescriptor;
  /**
   * The simulated device picker: `'wait'` (default) keeps it open until the test calls
   * `window.__simulatedWebUsb.choose('select' | 'cancel')`; `'select'` picks the device at once
   * when the picker lists it (else cancels); `'cancel'` closes it at once.
   */
  chooser?: PageConfig['chooser'];
  /** `true` when the origin already has permission for the device: `getDevices()` lists it from the start. Default `false`. */
  granted?: boolean;
  /** The global name of the control object (`SimulatedWebUsbControl`). Default `__simulatedWebUsb`. */
  controlName?: string;
}

let installer: string | undefined;

/** `page/install.ts` and its imports as one IIFE script defining `__tangoWebUsb.install`, built once per process. */
function installerSource(): string {
  installer ??= buildSync({
    entryPoints: [fileURLToPath(new URL('./page/install.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: '__tangoWebUsb',
    platform: 'browser',
    target: 'chrome120',
    legalComments: 'none',
    // Class fields are defined, never assigned: the real WebUSB prototypes sit under ours.
    tsconfigRaw: {compilerOptions: {useDefineForClassFields: true}},
  }).outputFiles[0]!.text;
  return installer;
}

/**
 * The init script's text.
 *
 * Input: {@link WebUsbInitScriptOptions}. Output: JavaScript source that, run in a page before its
 * scripts, replaces `navigator.usb` and defines the control object; it leaves no other global.
 * Errors: throws when esbuild cannot build `page/install.ts` (a broken checkout).
 */
export function webUsbInitScript(options: WebUsbInitScriptOptions): string {
  const config: PageConfig = {
    bridgeUrl: options.bridgeUrl,
    descriptor: options.descriptor,
    chooser: options.chooser ?? 'wait',
    granted: options.granted ?? false,
    controlName: options.controlName ?? '__simulatedWebUsb',
  };
  return `(() => {\n${installerSource()}\n__tangoWebUsb.install(${JSON.stringify(config)});\n})();\n`;
}
