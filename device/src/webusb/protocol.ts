/**
 * What the WebUSB bridge's two ends share: the simulated device's USB identity and the messages
 * that travel on the WebSocket between the page (`page/install.ts`, running in Chromium) and the
 * Node side (`bridge.ts`). This module has no imports, so it bundles into the page script as is.
 *
 * Wire protocol, one WebSocket per `USBDevice.open()`:
 * - binary frames, page → Node: one bulk OUT transfer each (`transferOut`'s bytes; zero-length
 *   transfers are not sent, they carry no data);
 * - binary frames, Node → page: one write of the device each (the device writes an ADB packet's
 *   24-byte header and its payload as two writes, as adbd does on USB); the page assembles
 *   `transferIn` results from them with USB's packet rules (see `page/install.ts`);
 * - text frames: the JSON {@link ControlMessage}s below (claim, release, flow control);
 * - close codes: {@link CLOSE_REENUMERATE} when the device hung up (the page sees the device
 *   disconnect and come back, as a phone does when adbd restarts), {@link CLOSE_UNPLUGGED} when
 *   the bridge shuts down (the device is gone); a close by the page is `USBDevice.close()`.
 */

/** One USB endpoint of the ADB interface, as `USBEndpoint` reports it. */
export interface UsbEndpointDescriptor {
  /** 1-15 (the endpoint address without its direction bit). */
  endpointNumber: number;
  direction: 'in' | 'out';
  type: 'bulk';
  /** wMaxPacketSize, in bytes: 512 for a bulk endpoint at high speed (USB 2.0 §5.8.3). */
  packetSize: number;
}

/**
 * The simulated device as the browser's USB stack sees it: the device descriptor's fields under
 * their WebUSB names, and its one configuration with one interface (ADB) with one alternate
 * setting and two bulk endpoints.
 */
export interface UsbDeviceDescriptor {
  /** idVendor; 0x18d1 is Google's. */
  vendorId: number;
  /** idProduct; 0x4ee7 is what Pixel phones report in "No data transfer" mode with USB debugging on. */
  productId: number;
  /** bDeviceClass/SubClass/Protocol; 0 means "see the interfaces", as Android devices report. */
  deviceClass: number;
  deviceSubclass: number;
  deviceProtocol: number;
  /** bcdUSB split as WebUSB does (0x0210 → 2, 1, 0). */
  usbVersion: readonly [major: number, minor: number, subminor: number];
  /** bcdDevice split the same way. */
  deviceVersion: readonly [major: number, minor: number, subminor: number];
  /** iManufacturer's string (Android: `ro.product.manufacturer`). */
  manufacturerName: string;
  /** iProduct's string (Android: `ro.product.model`); `AdbDaemonWebUsbDevice.name` reads it. */
  productName: string;
  /** iSerialNumber's string (Android: `ro.serialno`); `AdbDaemonWebUsbDevice.serial` reads it. */
  serialNumber: string;
  /** bConfigurationValue of the only configuration (active from the start). */
  configurationValue: number;
  /** bInterfaceNumber of the ADB interface. */
  interfaceNumber: number;
  /** iInterface's string. */
  interfaceName: string;
  /** bInterfaceClass/SubClass/Protocol: 0xff/0x42/0x01 is ADB (`AdbDefaultInterfaceFilter`). */
  interfaceClass: number;
  interfaceSubclass: number;
  interfaceProtocol: number;
  /** The bulk IN endpoint first, then the bulk OUT one. */
  endpoints: readonly UsbEndpointDescriptor[];
}

/** A text frame of the bridge protocol (JSON). */
export type ControlMessage =
  /** page → Node: `claimInterface` (the device only sees a host once the interface is claimed). */
  | {op: 'claim'}
  /** Node → page: the answer to `claim`; `ok: false` when another program holds the interface. */
  | {op: 'claim-result'; ok: boolean}
  /** page → Node: `releaseInterface`; the device sees the host hang up. */
  | {op: 'release'}
  /** Node → page: the answer to `release`. */
  | {op: 'release-result'}
  /** page → Node: `count` more device writes were fully consumed by `transferIn`s (IN flow control). */
  | {op: 'consumed'; count: number}
  /** Node → page: `count` more OUT transfers reached the device's read queue (their `transferOut` resolves). */
  | {op: 'received'; count: number};

/** Close code (application range 4000-4999): the device hung up; it re-enumerates. */
export const CLOSE_REENUMERATE = 4000;
/** Close code: the bridge shut down; the device is unplugged. */
export const CLOSE_UNPLUGGED = 4001;

/**
 * How many writes the device may have on the wire that the page has not consumed yet, and how many
 * OUT transfers the device accepts ahead of reading them: adbd's USB queue depths
 * (`kUsbWriteQueueDepth`, `kUsbReadQueueDepth`, both 8 in `daemon/usb.cpp`).
 */
export const USB_QUEUE_DEPTH = 8;
