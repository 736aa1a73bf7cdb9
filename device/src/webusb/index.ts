/**
 * WebUSB in Chromium reaching the simulated device: a WebSocket bridge on the Node side
 * (`startWebUsbBridge`) and an init script for the page (`webUsbInitScript`) that replaces
 * `navigator.usb` with one offering the device, with a scripted device picker.
 *
 * Usage with Playwright:
 * ```ts
 * const device = new SimulatedDevice();
 * const bridge = await startWebUsbBridge(device);
 * await context.addInitScript({content: bridge.initScript()});
 * // … the page calls navigator.usb.requestDevice() from a click; the test answers the picker:
 * await page.evaluate(() => window.__simulatedWebUsb.choose('select'));
 * ```
 */
export {startWebUsbBridge, type BridgedDevice, type WebUsbBridge, type WebUsbBridgeOptions} from './bridge.ts';
export {usbDescriptorFor, HIGH_SPEED_BULK_PACKET_SIZE} from './descriptor.ts';
export {webUsbInitScript, type WebUsbInitScriptOptions} from './init-script.ts';
export type {ChooserChoice, ChooserRequest, SimulatedWebUsbControl} from './page/install.ts';
export {CLOSE_REENUMERATE, CLOSE_UNPLUGGED, USB_QUEUE_DEPTH, type UsbDeviceDescriptor, type UsbEndpointDescriptor} from './protocol.ts';
