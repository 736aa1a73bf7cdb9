/**
 * The bytes the simulated server exchanges with the client, per server version. Layouts come
 * from `@yume-chan/scrcpy` 2.0.1 (installed as `@tango-v2/scrcpy`): each version's `impl` module
 * holds the structs its options class serializes with (control messages) and parses with
 * (device messages, media packets), and the simulation uses those same structs. Only where the
 * library has no struct, or where its struct differs from the real server, a layout is written
 * here, each read from the server's source (Genymobile/scrcpy at the tag named).
 *
 * Differences between the library and the real server that the simulation follows the server on
 * (so a client hits what it would hit on a phone):
 * - 1.15–1.20 `SetClipboard` has a `paste` byte before the text (`ControlMessageReader.java`);
 *   the library's 1.15 struct has none.
 * - 1.15–1.22 mark a config packet with PTS -1 (`ScreenEncoder.NO_PTS`); the library expects
 *   `1 << 63`, which only 1.23+ send.
 */
import {
  ExactReadableEndedError,
  buffer,
  string,
  struct,
  u16,
  u32,
  u8,
  type AsyncExactReadable,
  type StructDeserializer,
} from '@tango-v2/struct';
import {
  EmptyControlMessage,
  ScrcpyControlMessageType,
  ScrcpyInjectKeyCodeControlMessage,
  ScrcpyInjectTextControlMessage,
  ScrcpySetDisplayPowerControlMessage,
} from '@tango-v2/scrcpy';
import {ScrcpyStartAppControlMessage} from '@tango-v2/scrcpy/esm/control/start-app.js';
import {ScrcpyUHidDestroyControlMessage, ScrcpyUHidInputControlMessage} from '@tango-v2/scrcpy/esm/control/uhid.js';
import * as impl1_15 from '@tango-v2/scrcpy/esm/1_15/impl/index.js';
import * as impl1_17 from '@tango-v2/scrcpy/esm/1_17/impl/index.js';
import * as impl1_18 from '@tango-v2/scrcpy/esm/1_18/impl/index.js';
import * as impl1_21 from '@tango-v2/scrcpy/esm/1_21/impl/index.js';
import * as impl1_22 from '@tango-v2/scrcpy/esm/1_22/impl/index.js';
import * as impl1_23 from '@tango-v2/scrcpy/esm/1_23/impl/index.js';
import * as impl1_24 from '@tango-v2/scrcpy/esm/1_24/impl/index.js';
import * as impl1_25 from '@tango-v2/scrcpy/esm/1_25/impl/index.js';
import * as impl2_0 from '@tango-v2/scrcpy/esm/2_0/impl/index.js';
import * as impl2_1 from '@tango-v2/scrcpy/esm/2_1/impl/index.js';
import * as impl2_2 from '@tango-v2/scrcpy/esm/2_2/impl/index.js';
import * as impl2_3 from '@tango-v2/scrcpy/esm/2_3/impl/index.js';
import * as impl2_4 from '@tango-v2/scrcpy/esm/2_4/impl/index.js';
import * as impl2_6 from '@tango-v2/scrcpy/esm/2_6/impl/index.js';
import * as impl2_7 from '@tango-v2/scrcpy/esm/2_7/impl/index.js';
import * as impl3_0 from '@tango-v2/scrcpy/esm/3_0/impl/index.js';
import * as impl3_1 from '@tango-v2/scrcpy/esm/3_1/impl/index.js';

import type {DeviceSocket} from '../types.ts';
import type {ServerVersion} from './versions.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyStruct = StructDeserializer<any>;

/** What the simulation takes from a library `impl` module (the members every version has, and UHID from 2.4). */
interface LibraryImpl {
  ControlMessageTypes: readonly ScrcpyControlMessageType[];
  InjectTouchControlMessage: AnyStruct;
  InjectScrollControlMessage: AnyStruct;
  BackOrScreenOnControlMessage: AnyStruct;
  SetClipboardControlMessage: AnyStruct;
  UHidCreateControlMessage?: AnyStruct;
}

/** The library's `impl` module for each server version (the patch releases share their minor's). */
const LIBRARY_IMPLS: ReadonlyArray<[since: string, impl: LibraryImpl]> = [
  ['3.1', impl3_1],
  ['3.0', impl3_0],
  ['2.7', impl2_7],
  ['2.6', impl2_6],
  ['2.4', impl2_4],
  ['2.3', impl2_3],
  ['2.2', impl2_2],
  ['2.1', impl2_1],
  ['2.0', impl2_0],
  ['1.25', impl1_25],
  ['1.24', impl1_24],
  ['1.23', impl1_23],
  ['1.22', impl1_22],
  ['1.21', impl1_21],
  ['1.18', impl1_18],
  ['1.17', impl1_17],
  ['1.15', impl1_15],
];

/** The library `impl` module whose options class talks to `version`. */
export function libraryImpl(version: ServerVersion): LibraryImpl {
  return LIBRARY_IMPLS.find(([since]) => version.atLeast(since))![1];
}

/** Size of the device name field, in bytes, a NUL-terminated UTF-8 string (`DesktopConnection.DEVICE_NAME_FIELD_LENGTH`). */
export const DEVICE_NAME_FIELD_LENGTH = 64;

/** Device metadata of 1.15–1.25: the name field, then the video width and height (u16 big-endian, pixels). */
export const DeviceMetaWithSize = struct({deviceName: buffer(DEVICE_NAME_FIELD_LENGTH), width: u16, height: u16}, {littleEndian: false});

/** Device metadata from 2.0: the name field only, on the first socket. */
export const DeviceMeta = struct({deviceName: buffer(DEVICE_NAME_FIELD_LENGTH)}, {littleEndian: false});

/** Video codec metadata (2.0+, `Streamer.writeVideoHeader`): codec id, width and height in pixels, u32 big-endian. */
export const VideoCodecMeta = struct({codecId: u32, width: u32, height: u32}, {littleEndian: false});

/**
 * Audio codec metadata (2.0+, `Streamer.writeAudioHeader`): the codec id, u32 big-endian; 0 means
 * audio is disabled and 1 that it failed (`Streamer.writeDisableStream`, sent even without
 * `send_codec_meta`).
 */
export const AudioCodecMeta = struct({codecId: u32}, {littleEndian: false});

/** Codec ids (`VideoCodec.java`, `AudioCodec.java`; the same values as the library's `ScrcpyVideoCodecId`/`ScrcpyAudioCodec`). */
export const CODEC_IDS: Readonly<Record<string, number>> = {
  h264: 0x68_32_36_34,
  h265: 0x68_32_36_35,
  av1: 0x00_61_76_31,
  opus: 0x6f_70_75_73,
  aac: 0x00_61_61_63,
  flac: 0x66_6c_61_63,
  raw: 0x00_72_61_77,
};

/** The device name field: `name` as UTF-8, cut at a character boundary to 63 bytes, NUL-padded to 64. */
export function deviceNameField(name: string): Uint8Array {
  const field = new Uint8Array(DEVICE_NAME_FIELD_LENGTH);
  const bytes = new TextEncoder().encode(name);
  let length = Math.min(bytes.length, DEVICE_NAME_FIELD_LENGTH - 1);
  // Don't cut a multi-byte character: back up over continuation bytes (StringUtils.getUtf8TruncationIndex).
  while (length > 0 && length < bytes.length && (bytes[length]! & 0xc0) === 0x80) length--;
  field.set(bytes.subarray(0, length));
  return field;
}

/** PTS of a config packet before 1.23 (`NO_PTS = -1` as an unsigned 64-bit value). */
export const PTS_CONFIG_1_15 = 0xffff_ffff_ffff_ffffn;

/**
 * One media packet with its 12-byte header (`pts` u64, `size` u32, big-endian; the library's
 * `MediaStreamRawPacket`). `pts` in microseconds; a config packet gets the version's config
 * marker, a key frame the `1 << 62` flag from 1.23 (`Streamer.writeFrameMeta`).
 */
export function mediaPacket(version: ServerVersion, data: Uint8Array, pts: bigint, config: boolean, keyFrame: boolean): Uint8Array {
  let value = pts;
  if (config) value = version.ptsFlags ? impl1_15.PtsConfig : PTS_CONFIG_1_15;
  else if (keyFrame && version.ptsFlags) value |= impl1_23.PtsKeyframe;
  return impl1_15.MediaStreamRawPacket.serialize({pts: value, data});
}

/** Device message types (`DeviceMessage.java`): clipboard (1.15+), clipboard ack (1.21+), UHID output (2.4+). */
export const DeviceMessageType = {Clipboard: 0, AckClipboard: 1, UHidOutput: 2} as const;

function withType(type: number, body: Uint8Array): Uint8Array {
  const message = new Uint8Array(1 + body.length);
  message[0] = type;
  message.set(body, 1);
  return message;
}

/** Largest clipboard text in a device message, in bytes (`DeviceMessageWriter.CLIPBOARD_TEXT_MAX_LENGTH`: 256 KiB minus the 5-byte header). */
export const CLIPBOARD_TEXT_MAX_LENGTH = (1 << 18) - 5;

/** A clipboard device message: type 0, then the text (u32 length, UTF-8, cut at a character boundary to `CLIPBOARD_TEXT_MAX_LENGTH`). */
export function clipboardDeviceMessage(text: string): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  let length = Math.min(bytes.length, CLIPBOARD_TEXT_MAX_LENGTH);
  while (length > 0 && length < bytes.length && (bytes[length]! & 0xc0) === 0x80) length--;
  const content = new TextDecoder().decode(bytes.subarray(0, length));
  return withType(DeviceMessageType.Clipboard, impl1_15.ClipboardDeviceMessage.serialize({content}));
}

/** The acknowledgement of a `SetClipboard` with a sequence (1.21+): type 1, then the sequence (u64). */
export function ackClipboardDeviceMessage(sequence: bigint): Uint8Array {
  return withType(DeviceMessageType.AckClipboard, impl1_21.AckClipboardDeviceMessage.serialize({sequence}));
}

/** A UHID output report (2.4+): type 2, the device id (u16), the data (u16 length). */
export function uhidOutputDeviceMessage(id: number, data: Uint8Array): Uint8Array {
  return withType(DeviceMessageType.UHidOutput, impl2_4.UHidOutputDeviceMessage.serialize({id, data}));
}

/** `GetClipboard` from 1.21: the type, then the key to press first (0 none, 1 COPY, 2 CUT). The library has no struct for it. */
export const GetClipboardControlMessage = struct({type: u8, copyKey: u8}, {littleEndian: false});

/** `SetClipboard` of 1.15–1.20 as the server reads it: the type, `paste` (u8), the text (u32 length). */
export const SetClipboardControlMessage1_15 = struct({type: u8, paste: u8, content: string(u32)}, {littleEndian: false});

/** The name of a control message type (`ScrcpyControlMessageType` key: `InjectTouch`, `SetClipboard`, …). */
export type ControlMessageKind = keyof typeof ScrcpyControlMessageType;

const KIND_BY_VALUE = new Map<number, ControlMessageKind>(
  Object.entries(ScrcpyControlMessageType).map(([name, value]) => [value, name as ControlMessageKind]),
);

/** How one wire type decodes for a version: its kind and the struct that reads it (type byte included). */
export interface ControlMessageLayout {
  kind: ControlMessageKind;
  struct: AnyStruct;
}

/**
 * The control messages `version` reads, by wire type: the library's type order for that version
 * (`ControlMessageTypes`) and the struct for each. Messages the server reads as the bare type byte
 * use the library's `EmptyControlMessage`.
 */
export function controlMessageLayouts(version: ServerVersion): Map<number, ControlMessageLayout> {
  const impl = libraryImpl(version);
  const layouts = new Map<number, ControlMessageLayout>();
  impl.ControlMessageTypes.forEach((value, wireType) => {
    const kind = KIND_BY_VALUE.get(value)!;
    let layout: AnyStruct;
    switch (kind) {
      case 'InjectKeyCode':
        layout = ScrcpyInjectKeyCodeControlMessage;
        break;
      case 'InjectText':
        layout = ScrcpyInjectTextControlMessage;
        break;
      case 'InjectTouch':
        layout = impl.InjectTouchControlMessage;
        break;
      case 'InjectScroll':
        layout = impl.InjectScrollControlMessage;
        break;
      case 'BackOrScreenOn':
        layout = impl.BackOrScreenOnControlMessage;
        break;
      case 'GetClipboard':
        layout = version.atLeast('1.21') ? GetClipboardControlMessage : EmptyControlMessage;
        break;
      case 'SetClipboard':
        layout = version.atLeast('1.21') ? impl.SetClipboardControlMessage : SetClipboardControlMessage1_15;
        break;
      case 'SetDisplayPower':
        layout = ScrcpySetDisplayPowerControlMessage;
        break;
      case 'UHidCreate':
        layout = impl.UHidCreateControlMessage!;
        break;
      case 'UHidInput':
        layout = ScrcpyUHidInputControlMessage;
        break;
      case 'UHidDestroy':
        layout = ScrcpyUHidDestroyControlMessage;
        break;
      case 'StartApp':
        layout = ScrcpyStartAppControlMessage;
        break;
      default:
        layout = EmptyControlMessage;
        break;
    }
    layouts.set(wireType, {kind, struct: layout});
  });
  return layouts;
}

/**
 * Reads a `DeviceSocket` as an `AsyncExactReadable` (the library's struct reader interface):
 * `readExactly` waits for enough chunks and throws `ExactReadableEndedError` when the host closed
 * the stream first.
 */
export class SocketReader implements AsyncExactReadable {
  readonly #socket: DeviceSocket;
  #buffer = new Uint8Array(0);
  #position = 0;

  constructor(socket: DeviceSocket) {
    this.#socket = socket;
  }

  /** Bytes consumed so far. */
  get position(): number {
    return this.#position;
  }

  /** Reads until at least `length` bytes are buffered; `false` when the stream ended first. */
  async #fill(length: number): Promise<boolean> {
    while (this.#buffer.length < length) {
      const chunk = await this.#socket.read();
      if (chunk === undefined) return false;
      const merged = new Uint8Array(this.#buffer.length + chunk.length);
      merged.set(this.#buffer);
      merged.set(chunk, this.#buffer.length);
      this.#buffer = merged;
    }
    return true;
  }

  /** The next byte without consuming it, or `undefined` at the end of the stream. */
  async peek(): Promise<number | undefined> {
    return (await this.#fill(1)) ? this.#buffer[0] : undefined;
  }

  async readExactly(length: number): Promise<Uint8Array> {
    if (!(await this.#fill(length))) throw new ExactReadableEndedError();
    const result = this.#buffer.slice(0, length);
    this.#buffer = this.#buffer.subarray(length);
    this.#position += length;
    return result;
  }
}
