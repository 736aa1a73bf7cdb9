/// <reference types="w3c-web-usb" />
/**
 * The page side of the WebUSB simulation: replaces Chromium's `navigator.usb` with one that offers
 * the simulated device, bridged to the Node device over a WebSocket (see `../protocol.ts`).
 *
 * This file runs in the browser only: `../init-script.ts` bundles it into the script that
 * Playwright injects before the page's own scripts (`addInitScript`). It has no Node imports.
 *
 * What it implements is what `@yume-chan/adb-daemon-webusb` 2.1.0 calls (`manager.ts`,
 * `device.ts`, `utils.ts`, `observer.ts`): `requestDevice`, `getDevices`, the `connect` and
 * `disconnect` events, `USBDevice.open`/`close`/`selectConfiguration`/`claimInterface`/
 * `releaseInterface`/`transferIn`/`transferOut` and the descriptor objects the filters read
 * (`configurations[].interfaces[].alternates[]` with class codes and `endpoints`, `claimed`,
 * `alternate`, `serialNumber`, `vendorId`, `productId`, `productName`).
 *
 * Behaviour and error texts follow Chromium's Blink module (`third_party/blink/renderer/modules/
 * webusb/usb.cc`, `usb_device.cc`, `usb_interface.cc`): errors are `DOMException`s whose message
 * Blink prefixes with "Failed to execute '<method>' on '<interface>': " (checked against Chromium
 * 156 for `requestDevice` without a user gesture; the same prefix shows on Chrome's asynchronous
 * rejections, e.g. "Failed to execute 'transferIn' on 'USBDevice': A transfer error has
 * occurred." in ya-webadb issue #433 and "…'requestDevice' on 'USB': No device selected." in
 * Chrome 138 logs). The real classes stay in the prototype chains (`navigator.usb instanceof
 * USB`, `device instanceof USBDevice`), and transfer results are real `USBInTransferResult` and
 * `USBOutTransferResult` objects.
 */
import {CLOSE_REENUMERATE, type ControlMessage, type UsbDeviceDescriptor} from '../protocol.ts';

/** What the init script passes to {@link install}. */
export interface PageConfig {
  /** `ws://127.0.0.1:PORT/`: the bridge (`startWebUsbBridge`). */
  bridgeUrl: string;
  /** The device's USB identity. */
  descriptor: UsbDeviceDescriptor;
  /**
   * What the simulated device picker does when `requestDevice` opens it: `'wait'` for the test to
   * call `choose()` on the control object, or answer at once with `'select'` (pick the device when
   * the picker lists it, else cancel) or `'cancel'`.
   */
  chooser: 'wait' | ChooserChoice;
  /** True when the origin already has permission for the device (a device picked in an earlier session). */
  granted: boolean;
  /** The global the control object is installed as (default `__simulatedWebUsb`). */
  controlName: string;
}

/** A scripted answer to the device picker. */
export type ChooserChoice = 'select' | 'cancel';

/** What the device picker was opened with, and whether it lists the simulated device. */
export interface ChooserRequest {
  filters: USBDeviceFilter[];
  exclusionFilters: USBDeviceFilter[];
  /** True when the device is plugged in, matches a filter and no exclusion filter. */
  listed: boolean;
}

/**
 * The test's handle on the simulation, at `window[controlName]`:
 * - `chooserOpen`: whether a `requestDevice` picker waits for an answer;
 * - `waitForChooser()`: resolves with the oldest open picker's request (at once if one is open);
 * - `choose(choice)`: answers the oldest open picker; throws `Error` when none is open, or for
 *   `'select'` when the picker does not list the device (a user could not pick it either);
 * - `plugged`, `unplug()`, `plug()`: pull and put back the cable (`disconnect`/`connect` events,
 *   transfers in progress fail as on a real unplug);
 * - `permitted`: whether the origin has permission for the device.
 */
export interface SimulatedWebUsbControl {
  readonly chooserOpen: boolean;
  waitForChooser(): Promise<ChooserRequest>;
  choose(choice: ChooserChoice): void;
  readonly plugged: boolean;
  unplug(): void;
  plug(): void;
  readonly permitted: boolean;
}

/** Chromium's transfer size limit (`kUsbTransferLengthLimit`, usb_device.cc), in bytes. */
const TRANSFER_LENGTH_LIMIT = 32 * 1024 * 1024;

/** Blink's message texts (usb_device.cc, usb.cc). */
const TEXT = {
  userGesture: 'Must be handling a user gesture to show a permission request.',
  noDevice: 'No device selected.',
  openRequired: 'The device must be opened first.',
  disconnected: 'The device was disconnected.',
  deviceChanging: 'An operation that changes the device state is in progress.',
  interfaceChanging: 'An operation that changes interface state is in progress.',
  interfaceNotFound: 'The interface number provided is not supported by the device in its current configuration.',
  noConfiguration: 'The device must have a configuration selected.',
  configurationNotFound: 'The configuration value provided is not supported by the device.',
  alternateNotFound: 'The alternate setting provided is not supported by the device in its current configuration.',
  notClaimed: 'The specified interface has not been claimed.',
  endpointRange: 'The specified endpoint number is out of range.',
  endpointNotClaimed: 'The specified endpoint is not part of a claimed and selected alternate interface.',
  claimFailed: 'Unable to claim interface.',
  transferError: 'A transfer error has occurred.',
  cancelled: 'The transfer was cancelled.',
  tooLong: `The data buffer exceeded supported maximum size of ${TRANSFER_LENGTH_LIMIT} bytes`,
} as const;

/** A `DOMException` as Blink words it: "Failed to execute '<method>' on '<owner>': <text>". */
function failure(owner: 'USB' | 'USBDevice', method: string, name: string, text: string): DOMException {
  return new DOMException(`Failed to execute '${method}' on '${owner}': ${text}`, name);
}

/** A `TypeError` from Blink's bindings, with the same prefix. */
function typeFailure(owner: 'USB' | 'USBDevice', method: string, text: string): TypeError {
  return new TypeError(`Failed to execute '${method}' on '${owner}': ${text}`);
}

/** Puts `proto` (a real WebUSB prototype, when the browser has it) under `ours` in the chain. */
function chainTo(ours: object, proto: unknown): void {
  if (typeof proto === 'object' && proto !== null) Object.setPrototypeOf(ours, proto);
}

/** The real constructor named `name` on the global, if the browser has it. */
function realClass(name: string): (new (...args: never[]) => object) | undefined {
  const value = (globalThis as Record<string, unknown>)[name];
  return typeof value === 'function' ? (value as new (...args: never[]) => object) : undefined;
}

/** Copies a `BufferSource` (the bytes are taken when the call is made, as Blink does). */
function copyBytes(data: BufferSource): Uint8Array<ArrayBuffer> | undefined {
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
  if (data instanceof ArrayBuffer) return new Uint8Array(data).slice();
  return undefined;
}

/** Chromium's checks on a filter (usb.cc `ConvertDeviceFilter`); the message, or undefined when valid. */
function filterProblem(filter: USBDeviceFilter): string | undefined {
  if (filter.productId !== undefined && filter.vendorId === undefined)
    return 'A filter containing a productId must also contain a vendorId.';
  if (filter.subclassCode !== undefined && filter.classCode === undefined) {
    return 'A filter containing a subclassCode must also contain a classCode.';
  }
  if (filter.protocolCode !== undefined && filter.subclassCode === undefined) {
    return 'A filter containing a protocolCode must also contain a subclassCode.';
  }
  return undefined;
}

/**
 * Whether a filter matches the device, as Chromium's picker decides (`UsbDeviceFilterMatches`):
 * ids and serial number must be equal when given; class codes match the device's or any
 * interface's alternate setting.
 */
function filterMatches(filter: USBDeviceFilter, d: UsbDeviceDescriptor): boolean {
  if (filter.vendorId !== undefined && filter.vendorId !== d.vendorId) return false;
  if (filter.productId !== undefined && filter.productId !== d.productId) return false;
  if (filter.serialNumber !== undefined && filter.serialNumber !== d.serialNumber) return false;
  const classes = [
    [d.deviceClass, d.deviceSubclass, d.deviceProtocol],
    [d.interfaceClass, d.interfaceSubclass, d.interfaceProtocol],
  ];
  return classes.some(
    ([c, s, p]) =>
      (filter.classCode === undefined || filter.classCode === c) &&
      (filter.subclassCode === undefined || filter.subclassCode === s) &&
      (filter.protocolCode === undefined || filter.protocolCode === p),
  );
}

/** A write of the device waiting in the page, partly consumed by `transferIn`s from `offset`. */
interface InChunk {
  bytes: Uint8Array;
  offset: number;
}

interface Pending<T> {
  method: string;
  resolve(value: T): void;
  reject(error: unknown): void;
}

const INSTALLED = Symbol.for('tango.simulatedWebUsb');

/**
 * Replaces `navigator.usb` in this window with the simulation and installs the control object.
 * Installing twice in one window does nothing the second time.
 *
 * Input: {@link PageConfig}. Output: none. Errors: none (a browser without `Navigator` is left alone).
 */
export function install(config: PageConfig): void {
  const scope = globalThis as typeof globalThis & {[INSTALLED]?: true};
  if (scope[INSTALLED] || typeof Navigator === 'undefined') return;
  scope[INSTALLED] = true;

  const descriptor = config.descriptor;
  const userActivation = navigator.userActivation as {readonly isActive: boolean} | undefined;
  const InTransferResult = realClass('USBInTransferResult') as
    (new (status: USBTransferStatus, data?: DataView) => USBInTransferResult) | undefined;
  const OutTransferResult = realClass('USBOutTransferResult') as
    (new (status: USBTransferStatus, bytesWritten?: number) => USBOutTransferResult) | undefined;

  const inResult = (status: USBTransferStatus, data: DataView): USBInTransferResult =>
    InTransferResult ? new InTransferResult(status, data) : ({status, data} as USBInTransferResult);
  const outResult = (status: USBTransferStatus, bytesWritten: number): USBOutTransferResult =>
    OutTransferResult ? new OutTransferResult(status, bytesWritten) : ({status, bytesWritten} as USBOutTransferResult);

  // Browser-wide state: is the cable in, which USBDevice object stands for it, does the origin have permission.
  let current: SimulatedUsbDevice | undefined;
  let permitted = config.granted;
  const choosers: Array<{request: ChooserRequest; resolve(device: USBDevice): void; reject(error: unknown): void}> = [];
  const chooserWaiters: Array<(request: ChooserRequest) => void> = [];

  class SimulatedEndpoint {
    readonly #d: (typeof descriptor.endpoints)[number];
    constructor(d: (typeof descriptor.endpoints)[number]) {
      this.#d = d;
    }
    get endpointNumber() {
      return this.#d.endpointNumber;
    }
    get direction() {
      return this.#d.direction;
    }
    get type() {
      return this.#d.type;
    }
    get packetSize() {
      return this.#d.packetSize;
    }
  }
  chainTo(SimulatedEndpoint.prototype, realClass('USBEndpoint')?.prototype);

  class SimulatedAlternateInterface {
    readonly #endpoints = descriptor.endpoints.map((e) => new SimulatedEndpoint(e) as unknown as USBEndpoint);
    get alternateSetting() {
      return 0;
    }
    get interfaceClass() {
      return descriptor.interfaceClass;
    }
    get interfaceSubclass() {
      return descriptor.interfaceSubclass;
    }
    get interfaceProtocol() {
      return descriptor.interfaceProtocol;
    }
    get interfaceName() {
      return descriptor.interfaceName;
    }
    get endpoints() {
      return this.#endpoints.slice();
    }
  }
  chainTo(SimulatedAlternateInterface.prototype, realClass('USBAlternateInterface')?.prototype);

  class SimulatedInterface {
    readonly #device: SimulatedUsbDevice;
    readonly #alternate = new SimulatedAlternateInterface() as unknown as USBAlternateInterface;
    constructor(device: SimulatedUsbDevice) {
      this.#device = device;
    }
    get interfaceNumber() {
      return descriptor.interfaceNumber;
    }
    /** Blink: the selected alternate when claimed, else the first one (usb_interface.cc). */
    get alternate() {
      return this.#alternate;
    }
    get alternates() {
      return [this.#alternate];
    }
    get claimed() {
      return this.#device.isClaimed();
    }
  }
  chainTo(SimulatedInterface.prototype, realClass('USBInterface')?.prototype);

  class SimulatedConfiguration {
    readonly #interfaces: USBInterface[];
    constructor(device: SimulatedUsbDevice) {
      this.#interfaces = [new SimulatedInterface(device) as unknown as USBInterface];
    }
    get configurationValue() {
      return descriptor.configurationValue;
    }
    get configurationName() {
      return null;
    }
    get interfaces() {
      return this.#interfaces.slice();
    }
  }
  chainTo(SimulatedConfiguration.prototype, realClass('USBConfiguration')?.prototype);

  /** One enumeration of the device (a new object after each unplug/re-enumeration, as in Chromium). */
  class SimulatedUsbDevice implements USBDevice {
    readonly #configuration = new SimulatedConfiguration(this) as unknown as USBConfiguration;
    #connected = true;
    #opened = false;
    #deviceChanging = false;
    #interfaceChanging = false;
    #claimed = false;
    #socket: WebSocket | undefined;
    readonly #inChunks: InChunk[] = [];
    readonly #inRequests: Array<Pending<USBInTransferResult> & {length: number}> = [];
    readonly #outRequests: Array<Pending<USBOutTransferResult> & {bytes: number}> = [];
    #pendingControl: (Pending<ControlMessage> & {expect: ControlMessage['op']}) | undefined;

    get usbVersionMajor() {
      return descriptor.usbVersion[0];
    }
    get usbVersionMinor() {
      return descriptor.usbVersion[1];
    }
    get usbVersionSubminor() {
      return descriptor.usbVersion[2];
    }
    get deviceClass() {
      return descriptor.deviceClass;
    }
    get deviceSubclass() {
      return descriptor.deviceSubclass;
    }
    get deviceProtocol() {
      return descriptor.deviceProtocol;
    }
    get vendorId() {
      return descriptor.vendorId;
    }
    get productId() {
      return descriptor.productId;
    }
    get deviceVersionMajor() {
      return descriptor.deviceVersion[0];
    }
    get deviceVersionMinor() {
      return descriptor.deviceVersion[1];
    }
    get deviceVersionSubminor() {
      return descriptor.deviceVersion[2];
    }
    get manufacturerName() {
      return descriptor.manufacturerName || null;
    }
    get productName() {
      return descriptor.productName || null;
    }
    get serialNumber() {
      return descriptor.serialNumber || null;
    }
    /** The only configuration is active from enumeration on, as the OS configures an Android device. */
    get configuration() {
      return this.#configuration;
    }
    get configurations() {
      return [this.#configuration];
    }
    get opened() {
      return this.#opened;
    }

    isClaimed(): boolean {
      return this.#claimed;
    }

    // --- Blink's state checks (usb_device.cc `Ensure*`); each returns the error to reject with. ---

    #checkNoDeviceChange(method: string): DOMException | undefined {
      if (!this.#connected) return failure('USBDevice', method, 'NotFoundError', TEXT.disconnected);
      if (this.#deviceChanging) return failure('USBDevice', method, 'InvalidStateError', TEXT.deviceChanging);
      return undefined;
    }

    #checkNoChange(method: string): DOMException | undefined {
      return (
        this.#checkNoDeviceChange(method) ??
        (this.#interfaceChanging ? failure('USBDevice', method, 'InvalidStateError', TEXT.interfaceChanging) : undefined)
      );
    }

    #checkConfigured(method: string): DOMException | undefined {
      return (
        this.#checkNoDeviceChange(method) ??
        (this.#opened ? undefined : failure('USBDevice', method, 'InvalidStateError', TEXT.openRequired))
      );
    }

    #checkInterface(method: string, interfaceNumber: number): DOMException | undefined {
      const error = this.#checkConfigured(method);
      if (error) return error;
      if (interfaceNumber !== descriptor.interfaceNumber) return failure('USBDevice', method, 'NotFoundError', TEXT.interfaceNotFound);
      if (this.#interfaceChanging) return failure('USBDevice', method, 'InvalidStateError', TEXT.interfaceChanging);
      return undefined;
    }

    #checkEndpoint(method: string, direction: USBDirection, endpointNumber: number): DOMException | undefined {
      const error = this.#checkConfigured(method);
      if (error) return error;
      if (endpointNumber === 0 || endpointNumber >= 16) return failure('USBDevice', method, 'IndexSizeError', TEXT.endpointRange);
      const exists = descriptor.endpoints.some((e) => e.endpointNumber === endpointNumber && e.direction === direction);
      if (!this.#claimed || this.#interfaceChanging || !exists) {
        return failure('USBDevice', method, 'NotFoundError', TEXT.endpointNotClaimed);
      }
      return undefined;
    }

    // --- Opening and closing: one WebSocket to the bridge per open(). ---

    open(): Promise<void> {
      const error = this.#checkNoChange('open');
      if (error) return Promise.reject(error);
      if (this.#opened) return Promise.resolve();
      this.#deviceChanging = true;
      return new Promise<void>((resolve, reject) => {
        const socket = new WebSocket(config.bridgeUrl);
        socket.binaryType = 'arraybuffer';
        const fail = () => {
          this.#deviceChanging = false;
          reject(
            failure(
              'USBDevice',
              'open',
              'NetworkError',
              `the simulated device's bridge at ${config.bridgeUrl} did not answer (simulation error).`,
            ),
          );
        };
        socket.onerror = fail;
        socket.onclose = fail;
        socket.onopen = () => {
          socket.onerror = null;
          socket.onclose = (event) => this.#socketClosed(socket, event.code);
          socket.onmessage = (event) => this.#message(socket, event.data as ArrayBuffer | string);
          this.#socket = socket;
          this.#deviceChanging = false;
          if (!this.#connected) {
            // Unplugged while opening.
            socket.close();
            reject(failure('USBDevice', 'open', 'NotFoundError', TEXT.disconnected));
            return;
          }
          this.#opened = true;
          resolve();
        };
      });
    }

    async close(): Promise<void> {
      const error = this.#checkNoChange('close');
      if (error) throw error;
      if (!this.#opened) return;
      this.#deviceChanging = true;
      try {
        // Release first, so that the bridge frees the interface before a later open() claims it again.
        if (this.#claimed) await this.#control('close', {op: 'release'}, 'release-result');
      } catch {
        // The device went away meanwhile: closed all the same.
      }
      this.#deviceChanging = false;
      this.#endSession((method) => failure('USBDevice', method, 'AbortError', TEXT.cancelled));
      this.#opened = false;
    }

    async forget(): Promise<void> {
      permitted = false;
      if (this.#opened && this.#connected && !this.#deviceChanging && !this.#interfaceChanging) await this.close();
    }

    selectConfiguration(configurationValue: number): Promise<void> {
      const error =
        this.#checkNoChange('selectConfiguration') ??
        (this.#opened ? undefined : failure('USBDevice', 'selectConfiguration', 'InvalidStateError', TEXT.openRequired)) ??
        (configurationValue === descriptor.configurationValue
          ? undefined
          : failure('USBDevice', 'selectConfiguration', 'NotFoundError', TEXT.configurationNotFound));
      return error ? Promise.reject(error) : Promise.resolve();
    }

    async claimInterface(interfaceNumber: number): Promise<void> {
      const error = this.#checkInterface('claimInterface', interfaceNumber);
      if (error) throw error;
      if (this.#claimed) return;
      this.#interfaceChanging = true;
      let reply: ControlMessage;
      try {
        reply = await this.#control('claimInterface', {op: 'claim'}, 'claim-result');
      } finally {
        this.#interfaceChanging = false;
      }
      if (reply.op === 'claim-result' && reply.ok) {
        this.#claimed = true;
        return;
      }
      // Another program (e.g. Google's ADB server) holds the interface: the library turns this into DeviceBusyError.
      throw failure('USBDevice', 'claimInterface', 'NetworkError', TEXT.claimFailed);
    }

    async releaseInterface(interfaceNumber: number): Promise<void> {
      const error = this.#checkInterface('releaseInterface', interfaceNumber);
      if (error) throw error;
      if (!this.#claimed) return;
      this.#interfaceChanging = true;
      try {
        await this.#control('releaseInterface', {op: 'release'}, 'release-result');
      } finally {
        this.#interfaceChanging = false;
      }
      this.#claimed = false;
      this.#failTransfers((method) => failure('USBDevice', method, 'AbortError', TEXT.cancelled));
      this.#inChunks.length = 0;
    }

    selectAlternateInterface(interfaceNumber: number, alternateSetting: number): Promise<void> {
      const method = 'selectAlternateInterface';
      const error =
        this.#checkInterface(method, interfaceNumber) ??
        (this.#claimed ? undefined : failure('USBDevice', method, 'InvalidStateError', TEXT.notClaimed)) ??
        (alternateSetting === 0 ? undefined : failure('USBDevice', method, 'NotFoundError', TEXT.alternateNotFound));
      return error ? Promise.reject(error) : Promise.resolve();
    }

    /** Control transfers: the simulated device answers none (a STALL), which adb never sends anyway. */
    controlTransferIn(_setup: USBControlTransferParameters, _length: number): Promise<USBInTransferResult> {
      const error = this.#checkNoChange('controlTransferIn') ?? this.#checkConfigured('controlTransferIn');
      return error ? Promise.reject(error) : Promise.resolve(inResult('stall', new DataView(new ArrayBuffer(0))));
    }

    controlTransferOut(_setup: USBControlTransferParameters, _data?: BufferSource): Promise<USBOutTransferResult> {
      const error = this.#checkNoChange('controlTransferOut') ?? this.#checkConfigured('controlTransferOut');
      return error ? Promise.reject(error) : Promise.resolve(outResult('stall', 0));
    }

    clearHalt(direction: USBDirection, endpointNumber: number): Promise<void> {
      const error = this.#checkEndpoint('clearHalt', direction, endpointNumber);
      return error ? Promise.reject(error) : Promise.resolve();
    }

    /**
     * One bulk IN transfer of at most `length` bytes, assembled from the device's writes as USB
     * packets would be: a write is a run of `packetSize` packets; the transfer ends after a short
     * packet (a write whose size is not a multiple of the packet size, or an empty one) or when
     * `length` bytes arrived. So an ADB header (24 bytes, short) is never merged with its payload,
     * and a transfer never holds more than `length` bytes: the rest of a write stays for the next
     * transfer when `length` is a multiple of the packet size, else the transfer ends with status
     * `'babble'` and the rest of that write is lost (a packet overflowing the host's buffer).
     * `data` is a `DataView` over an `ArrayBuffer` of exactly its size (the library reads
     * `data.buffer`). Rejects as Blink does when the endpoint is not claimed, with AbortError when
     * the device is closed or the interface released meanwhile, NotFoundError when unplugged.
     */
    transferIn(endpointNumber: number, length: number): Promise<USBInTransferResult> {
      if (!Number.isInteger(length) || length < 0 || length > 0xffffffff) {
        return Promise.reject(typeFailure('USBDevice', 'transferIn', "Value is outside the 'unsigned long' value range."));
      }
      if (length > TRANSFER_LENGTH_LIMIT) return Promise.reject(failure('USBDevice', 'transferIn', 'DataError', TEXT.tooLong));
      const error = this.#checkEndpoint('transferIn', 'in', endpointNumber);
      if (error) return Promise.reject(error);
      return new Promise<USBInTransferResult>((resolve, reject) => {
        this.#inRequests.push({method: 'transferIn', length, resolve, reject});
        this.#pumpIn();
      });
    }

    /**
     * One bulk OUT transfer: the bytes are copied at once and sent to the device; resolves with
     * `{status: 'ok', bytesWritten}` once they reached the device's read queue (so a device that
     * stops reading stops the host's writes, as on USB). A zero-length transfer resolves at once
     * (it carries no data; the library sends one after a payload that fills whole packets).
     */
    transferOut(endpointNumber: number, data: BufferSource): Promise<USBOutTransferResult> {
      const bytes = copyBytes(data);
      if (!bytes) {
        return Promise.reject(
          typeFailure('USBDevice', 'transferOut', "The provided value is not of type '(ArrayBuffer or ArrayBufferView)'."),
        );
      }
      if (bytes.length > TRANSFER_LENGTH_LIMIT) return Promise.reject(failure('USBDevice', 'transferOut', 'DataError', TEXT.tooLong));
      const error = this.#checkEndpoint('transferOut', 'out', endpointNumber);
      if (error) return Promise.reject(error);
      if (bytes.length === 0) return Promise.resolve(outResult('ok', 0));
      return new Promise<USBOutTransferResult>((resolve, reject) => {
        this.#outRequests.push({method: 'transferOut', bytes: bytes.length, resolve, reject});
        this.#socket!.send(bytes);
      });
    }

    /** The ADB interface has no isochronous endpoints: the OS fails such a transfer. */
    isochronousTransferIn(endpointNumber: number, _packetLengths: number[]): Promise<USBIsochronousInTransferResult> {
      const error = this.#checkEndpoint('isochronousTransferIn', 'in', endpointNumber);
      return Promise.reject(error ?? failure('USBDevice', 'isochronousTransferIn', 'NetworkError', TEXT.transferError));
    }

    isochronousTransferOut(
      endpointNumber: number,
      _data: BufferSource,
      _packetLengths: number[],
    ): Promise<USBIsochronousOutTransferResult> {
      const error = this.#checkEndpoint('isochronousTransferOut', 'out', endpointNumber);
      return Promise.reject(error ?? failure('USBDevice', 'isochronousTransferOut', 'NetworkError', TEXT.transferError));
    }

    reset(): Promise<void> {
      const error = this.#checkNoChange('reset') ?? this.#checkConfigured('reset');
      return error ? Promise.reject(error) : Promise.resolve();
    }

    // --- The bridge. ---

    /** Sends a control message for `method` and resolves with the bridge's reply of type `expect`. */
    #control(method: string, message: ControlMessage, expect: ControlMessage['op']): Promise<ControlMessage> {
      return new Promise<ControlMessage>((resolve, reject) => {
        const socket = this.#socket;
        if (!socket || socket.readyState !== WebSocket.OPEN) {
          reject(failure('USBDevice', method, 'NotFoundError', TEXT.disconnected));
          return;
        }
        // Rejected by #endSession when the device goes away before the reply.
        this.#pendingControl = {method, expect, resolve, reject};
        socket.send(JSON.stringify(message));
      });
    }

    #message(socket: WebSocket, data: ArrayBuffer | string): void {
      if (socket !== this.#socket) return;
      if (typeof data === 'string') {
        const message = JSON.parse(data) as ControlMessage;
        if (message.op === 'received') {
          for (const request of this.#outRequests.splice(0, message.count)) request.resolve(outResult('ok', request.bytes));
        } else if (message.op === this.#pendingControl?.expect) {
          const pending = this.#pendingControl;
          this.#pendingControl = undefined;
          pending.resolve(message);
        }
        return;
      }
      // Data that arrives while the interface is released has nowhere to go (as on USB, it stays unread).
      if (!this.#claimed) return;
      this.#inChunks.push({bytes: new Uint8Array(data), offset: 0});
      this.#pumpIn();
    }

    /** Completes the oldest `transferIn`s that the queued writes can fill (see {@link transferIn}). */
    #pumpIn(): void {
      let consumed = 0;
      while (this.#inRequests.length > 0) {
        const request = this.#inRequests[0]!;
        const packetSize = descriptor.endpoints.find((e) => e.direction === 'in')!.packetSize;
        // Plan the transfer without consuming, so that an incomplete one waits for more packets.
        let total = 0;
        let chunks = 0;
        let split: number | undefined;
        let status: USBTransferStatus = 'ok';
        let complete = false;
        for (const chunk of this.#inChunks) {
          const available = chunk.bytes.length - chunk.offset;
          const room = request.length - total;
          if (available === 0) {
            chunks++;
            complete = true;
            break;
          }
          if (available <= room) {
            total += available;
            chunks++;
            if (available % packetSize !== 0 || total === request.length) {
              complete = true;
              break;
            }
            continue;
          }
          total += room;
          complete = true;
          if (room % packetSize === 0) {
            split = room;
          } else {
            status = 'babble';
            chunks++;
          }
          break;
        }
        if (!complete) break;
        const buffer = new ArrayBuffer(total);
        const view = new Uint8Array(buffer);
        let at = 0;
        for (let i = 0; i < chunks; i++) {
          const chunk = this.#inChunks.shift()!;
          const take = Math.min(chunk.bytes.length - chunk.offset, total - at);
          view.set(chunk.bytes.subarray(chunk.offset, chunk.offset + take), at);
          at += take;
          consumed++;
        }
        if (split !== undefined) {
          const chunk = this.#inChunks[0]!;
          view.set(chunk.bytes.subarray(chunk.offset, chunk.offset + split), at);
          chunk.offset += split;
        }
        this.#inRequests.shift();
        request.resolve(inResult(status, new DataView(buffer)));
      }
      if (consumed > 0 && this.#socket?.readyState === WebSocket.OPEN) {
        this.#socket.send(JSON.stringify({op: 'consumed', count: consumed} satisfies ControlMessage));
      }
    }

    #failTransfers(error: (method: string) => unknown): void {
      for (const request of this.#inRequests.splice(0)) request.reject(error(request.method));
      for (const request of this.#outRequests.splice(0)) request.reject(error(request.method));
    }

    /** Ends the open session: pending transfers fail with `error`, the socket closes, claims are gone. */
    #endSession(error: (method: string) => unknown): void {
      this.#failTransfers(error);
      const control = this.#pendingControl;
      this.#pendingControl = undefined;
      control?.reject(error(control.method));
      this.#inChunks.length = 0;
      this.#claimed = false;
      const socket = this.#socket;
      this.#socket = undefined;
      if (socket) {
        socket.onclose = null;
        socket.onmessage = null;
        if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close(1000);
      }
    }

    #socketClosed(socket: WebSocket, code: number): void {
      if (socket !== this.#socket) return;
      unplugDevice(this, code === CLOSE_REENUMERATE);
    }

    /** The cable is out: everything in progress fails with NotFoundError, as in Blink's `OnConnectionError`. */
    disconnect(): void {
      if (!this.#connected) return;
      this.#endSession((method) => failure('USBDevice', method, 'NotFoundError', TEXT.disconnected));
      this.#connected = false;
      this.#opened = false;
      this.#deviceChanging = false;
      this.#interfaceChanging = false;
    }
  }
  chainTo(SimulatedUsbDevice.prototype, realClass('USBDevice')?.prototype);

  function connectionEvent(type: 'connect' | 'disconnect', device: USBDevice): Event {
    const event = new Event(type);
    chainTo(event, realClass('USBConnectionEvent')?.prototype);
    Object.defineProperty(event, 'device', {value: device, enumerable: true});
    return event;
  }

  /** Unplugs `device` (if it is the current one); with `reenumerate`, it comes back as a new object, as after an adbd restart. */
  function unplugDevice(device: SimulatedUsbDevice, reenumerate: boolean): void {
    if (device !== current) return;
    device.disconnect();
    current = undefined;
    // Blink fires connection events only for devices the origin may see (WebUsbServiceImpl).
    if (permitted) usb.dispatchEvent(connectionEvent('disconnect', device));
    if (reenumerate) setTimeout(plugDevice, 50);
  }

  function plugDevice(): void {
    if (current) return;
    current = new SimulatedUsbDevice();
    if (permitted) usb.dispatchEvent(connectionEvent('connect', current));
  }

  function chooserRequest(options: USBDeviceRequestOptions): ChooserRequest {
    const filters = [...options.filters];
    const exclusionFilters = [...(options.exclusionFilters ?? [])];
    const listed =
      current !== undefined &&
      (filters.length === 0 || filters.some((f) => filterMatches(f, descriptor))) &&
      !exclusionFilters.some((f) => filterMatches(f, descriptor));
    return {filters, exclusionFilters, listed};
  }

  function answerChooser(choice: ChooserChoice): void {
    const chooser = choosers[0];
    if (!chooser) throw new Error('simulated WebUSB: no device picker is open');
    if (choice === 'select' && (!chooser.request.listed || !current)) {
      throw new Error('simulated WebUSB: the device picker does not list the simulated device, so it cannot be selected');
    }
    choosers.shift();
    if (choice === 'select') {
      permitted = true;
      chooser.resolve(current!);
    } else {
      chooser.reject(failure('USB', 'requestDevice', 'NotFoundError', TEXT.noDevice));
    }
  }

  class SimulatedUsb extends EventTarget {
    #onconnect: ((this: USB, event: USBConnectionEvent) => unknown) | null = null;
    #ondisconnect: ((this: USB, event: USBConnectionEvent) => unknown) | null = null;

    constructor() {
      super();
      this.addEventListener('connect', (event) => this.#onconnect?.call(this as unknown as USB, event as USBConnectionEvent));
      this.addEventListener('disconnect', (event) => this.#ondisconnect?.call(this as unknown as USB, event as USBConnectionEvent));
    }

    get onconnect() {
      return this.#onconnect;
    }
    set onconnect(handler) {
      this.#onconnect = typeof handler === 'function' ? handler : null;
    }
    get ondisconnect() {
      return this.#ondisconnect;
    }
    set ondisconnect(handler) {
      this.#ondisconnect = typeof handler === 'function' ? handler : null;
    }

    /** The connected devices the origin has permission for (the same objects `requestDevice` returned). */
    async getDevices(): Promise<USBDevice[]> {
      return permitted && current ? [current] : [];
    }

    /**
     * Opens the simulated device picker. Rejects like Chromium: TypeError without options or
     * filters, SecurityError without transient user activation (`navigator.userActivation`),
     * TypeError for a malformed filter, NotFoundError "No device selected." when the picker is
     * cancelled. Resolves with the device when the picker's answer is "select".
     */
    requestDevice(...args: [options?: USBDeviceRequestOptions]): Promise<USBDevice> {
      if (args.length === 0) return Promise.reject(typeFailure('USB', 'requestDevice', '1 argument required, but only 0 present.'));
      const options = args[0] ?? ({} as Partial<USBDeviceRequestOptions>);
      if (typeof options !== 'object') {
        return Promise.reject(typeFailure('USB', 'requestDevice', "The provided value is not of type 'USBDeviceRequestOptions'."));
      }
      if (options.filters === undefined) {
        return Promise.reject(
          typeFailure(
            'USB',
            'requestDevice',
            "Failed to read the 'filters' property from 'USBDeviceRequestOptions': Required member is undefined.",
          ),
        );
      }
      if (!userActivation?.isActive) return Promise.reject(failure('USB', 'requestDevice', 'SecurityError', TEXT.userGesture));
      const problem = [...options.filters, ...(options.exclusionFilters ?? [])].map(filterProblem).find(Boolean);
      if (problem) return Promise.reject(new TypeError(problem));
      const request = chooserRequest(options as USBDeviceRequestOptions);
      return new Promise<USBDevice>((resolve, reject) => {
        choosers.push({request, resolve, reject});
        for (const waiter of chooserWaiters.splice(0)) waiter(request);
        if (config.chooser !== 'wait') {
          const choice = config.chooser === 'select' && request.listed ? 'select' : 'cancel';
          queueMicrotask(() => answerChooser(choice));
        }
      });
    }
  }
  chainTo(SimulatedUsb.prototype, realClass('USB')?.prototype);

  const usb = new SimulatedUsb();
  current = new SimulatedUsbDevice();
  Object.defineProperty(Navigator.prototype, 'usb', {get: () => usb, configurable: true, enumerable: true});

  const control: SimulatedWebUsbControl = {
    get chooserOpen() {
      return choosers.length > 0;
    },
    waitForChooser() {
      const open = choosers[0];
      return open ? Promise.resolve(open.request) : new Promise<ChooserRequest>((resolve) => chooserWaiters.push(resolve));
    },
    choose: answerChooser,
    get plugged() {
      return current !== undefined;
    },
    unplug() {
      if (current) unplugDevice(current, false);
    },
    plug: plugDevice,
    get permitted() {
      return permitted;
    },
  };
  Object.defineProperty(globalThis, config.controlName, {value: Object.freeze(control), configurable: true});
}
