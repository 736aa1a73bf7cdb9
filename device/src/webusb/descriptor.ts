/**
 * The USB identity of a simulated device: what Chromium's `USBDevice` shows for it.
 *
 * Facts: Google's USB vendor id 0x18d1 and the Pixel product id 0x4ee7 (ADB only, the "No data
 * transfer" mode Pixels default to) as Pixels report them; the ADB interface class 0xff/0x42/0x01
 * from `@yume-chan/adb-daemon-webusb` 2.1.0 (`AdbDefaultInterfaceFilter` in `device.ts`) and adbd's
 * USB descriptors (`daemon/usb_ffs.cpp`: one interface, a bulk IN and a bulk OUT endpoint of 512
 * bytes at high speed); the strings come from the properties Android's USB gadget reads
 * (`ro.product.manufacturer`, `ro.product.model`, `ro.serialno`). bcdDevice is the Linux gadget
 * default, the kernel version (5.10 on a Pixel 7).
 */
import type {UsbDeviceDescriptor} from './protocol.ts';

/** Packet size of both bulk endpoints, in bytes (high-speed bulk, USB 2.0 §5.8.3). */
export const HIGH_SPEED_BULK_PACKET_SIZE = 512;

/**
 * The descriptor of a device with these system properties.
 *
 * Input: the device's properties (`SimulatedDevice.properties`) and fields to override. Output: a
 * new descriptor; a missing property gives an empty string (a device with no serial number then
 * shows `18d1x4ee7` in the library, its `getSerialNumber` fallback). Errors: none.
 */
export function usbDescriptorFor(
  properties: ReadonlyMap<string, string>,
  overrides: Partial<UsbDeviceDescriptor> = {},
): UsbDeviceDescriptor {
  return {
    vendorId: 0x18d1,
    productId: 0x4ee7,
    deviceClass: 0,
    deviceSubclass: 0,
    deviceProtocol: 0,
    usbVersion: [2, 1, 0],
    deviceVersion: [5, 1, 0],
    manufacturerName: properties.get('ro.product.manufacturer') ?? '',
    productName: properties.get('ro.product.model') ?? '',
    serialNumber: properties.get('ro.serialno') ?? '',
    configurationValue: 1,
    interfaceNumber: 0,
    interfaceName: 'ADB Interface',
    interfaceClass: 0xff,
    interfaceSubclass: 0x42,
    interfaceProtocol: 0x01,
    endpoints: [
      {endpointNumber: 1, direction: 'in', type: 'bulk', packetSize: HIGH_SPEED_BULK_PACKET_SIZE},
      {endpointNumber: 1, direction: 'out', type: 'bulk', packetSize: HIGH_SPEED_BULK_PACKET_SIZE},
    ],
    ...overrides,
  };
}
