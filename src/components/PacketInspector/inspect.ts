/**
 * Pure decoding logic of the {@link PacketInspector} component: hexadecimal text in, a
 * field-by-field description of one ADB packet out. No React, no DOM, so it can be unit-tested.
 *
 * Facts (from `@yume-chan/adb` 2.0.1, `daemon/packet.ts`, `daemon/transport.ts`,
 * `daemon/dispatcher.ts`, `daemon/auth.ts`, `daemon/crypto.ts`, and AOSP's adb for `STLS`):
 * the header is six little-endian 32-bit fields (24 bytes); `magic` is `command ^ 0xFFFFFFFF`;
 * `checksum` is the unsigned sum of the payload bytes, which senders on protocol version
 * 0x01000001 and later may leave at 0; the largest maximum payload size is 1 MiB.
 */

/** Size of an ADB packet header in bytes. */
export const HEADER_SIZE = 24;

/** The largest maximum payload size any side negotiates (1 MiB, `AdbDaemonTransport`'s start value). */
export const MAX_PAYLOAD_SIZE = 1024 * 1024;

/** First protocol version whose receivers don't check `checksum` (`ADB_DAEMON_VERSION_OMIT_CHECKSUM`). */
export const VERSION_SKIP_CHECKSUM = 0x01000001;

/** The protocol version that requires checksums. */
export const VERSION_MIN = 0x01000000;

/** A command the inspector can name. */
export interface CommandInfo {
  /** The four ASCII letters, e.g. `"CNXN"`. */
  name: string;
  /** The letters read as a little-endian 32-bit number, e.g. `0x4e584e43`. */
  value: number;
  /** What the command does, in a few words. */
  summary: string;
  /** Whether `@yume-chan/adb`'s `AdbCommand` defines it (and under which key). */
  libraryName: string | undefined;
}

/** Every command the inspector knows, in the order the docs list them. */
export const COMMANDS: readonly CommandInfo[] = [
  {name: 'CNXN', value: 0x4e584e43, summary: 'connect', libraryName: 'AdbCommand.Connect'},
  {name: 'AUTH', value: 0x48545541, summary: 'authenticate', libraryName: 'AdbCommand.Auth'},
  {name: 'OPEN', value: 0x4e45504f, summary: 'open a stream', libraryName: 'AdbCommand.Open'},
  {name: 'OKAY', value: 0x59414b4f, summary: 'stream ready or data acknowledged', libraryName: 'AdbCommand.Okay'},
  {name: 'WRTE', value: 0x45545257, summary: 'stream data', libraryName: 'AdbCommand.Write'},
  {name: 'CLSE', value: 0x45534c43, summary: 'close a stream', libraryName: 'AdbCommand.Close'},
  {name: 'STLS', value: 0x534c5453, summary: 'start TLS', libraryName: undefined},
];

/** Names of the six header fields, in wire order. */
export type HeaderFieldName = 'command' | 'arg0' | 'arg1' | 'payloadLength' | 'checksum' | 'magic';

const FIELD_NAMES: readonly HeaderFieldName[] = ['command', 'arg0', 'arg1', 'payloadLength', 'checksum', 'magic'];

/** One decoded header field. */
export interface HeaderField {
  name: HeaderFieldName;
  /** Byte offset in the header. */
  offset: number;
  /** The four bytes as they appear on the wire, e.g. `"43 4e 58 4e"`. */
  bytes: string;
  /** The field as an unsigned 32-bit number. */
  value: number;
  /** What the value means for this command. */
  meaning: string;
}

/** Outcome of one verification: `pass` (correct), `fail` (a receiver would reject it) or `note`. */
export type CheckStatus = 'pass' | 'fail' | 'note';

/** One verification result shown under the header table. */
export interface Check {
  status: CheckStatus;
  message: string;
}

/** The payload bytes that follow the header, as far as the input holds them. */
export interface PayloadView {
  /** Number of payload bytes shown (at most `payloadLength`). */
  length: number;
  /** The payload as text, when it is printable UTF-8 (NUL bytes shown as `\0`). */
  text: string | undefined;
  /** The first {@link PAYLOAD_HEX_LIMIT} bytes as hexadecimal. */
  hex: string;
  /** Whether `hex` stops before the end of the payload. */
  truncated: boolean;
  /** What this payload is for this command (e.g. the acknowledged byte count of an `OKAY`). */
  note: string | undefined;
}

/** How many payload bytes the hexadecimal view shows. */
export const PAYLOAD_HEX_LIMIT = 64;

/** Result of {@link inspectPacket}: an error message, or the decoded packet. */
export type PacketInspection =
  | {ok: false; error: string}
  | {
      ok: true;
      /** The command, when it is one of {@link COMMANDS}. */
      command: CommandInfo | undefined;
      fields: HeaderField[];
      checks: Check[];
      /** `undefined` when no payload bytes follow the header. */
      payload: PayloadView | undefined;
    };

/** Result of {@link parseHex}. */
export type HexParseResult = {ok: true; bytes: Uint8Array} | {ok: false; error: string};

const SEPARATOR = /[\s:]/;
const HEX_DIGIT = /[0-9a-fA-F]/;

/**
 * Converts hexadecimal text to bytes.
 *
 * Input: any string. White space (spaces, tabs, line breaks) and colons between digits are
 * ignored, so `43 4e 58 4e`, `43:4e:58:4e` and `434e584e` are the same four bytes; case is ignored.
 * Output: `{ok: true, bytes}`, or `{ok: false, error}` with a message for the reader when the
 * text is empty, holds a character that isn't a hex digit (the message quotes it and gives its
 * 1-based position in the text) or holds an odd number of digits.
 * Errors: none thrown.
 */
export function parseHex(text: string): HexParseResult {
  const digits: string[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (SEPARATOR.test(char)) {
      continue;
    }
    if (!HEX_DIGIT.test(char)) {
      const code = char.codePointAt(0)!;
      const shown = code < 0x20 ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : `"${String.fromCodePoint(code)}"`;
      return {
        ok: false,
        error: `Character ${index + 1}, ${shown}, is not a hexadecimal digit. Use only 0–9 and a–f; spaces, line breaks and colons between bytes are ignored.`,
      };
    }
    digits.push(char);
  }
  if (digits.length === 0) {
    return {ok: false, error: 'The input is empty. Paste at least the 24 header bytes of a packet as hexadecimal digits.'};
  }
  if (digits.length % 2 !== 0) {
    return {
      ok: false,
      error: `The input has ${digits.length} hexadecimal digits, an odd number: every byte takes two digits. Look for a missing or an extra digit.`,
    };
  }
  const bytes = new Uint8Array(digits.length / 2);
  for (let index = 0; index < bytes.length; index += 1) {
    bytes[index] = Number.parseInt(digits[2 * index]! + digits[2 * index + 1]!, 16);
  }
  return {ok: true, bytes};
}

/** Formats a 32-bit number as `0x` and eight lowercase hex digits, e.g. `0x01000001`. */
export function formatHex32(value: number): string {
  return `0x${(value >>> 0).toString(16).padStart(8, '0')}`;
}

/** Formats bytes as lowercase hex pairs separated by `separator` (default one space). */
export function toHex(bytes: Uint8Array, separator = ' '): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join(separator);
}

/** The unsigned 32-bit sum of all bytes, as ADB's `checksum` field holds it (`calculateChecksum`). */
export function checksumOf(payload: Uint8Array): number {
  let sum = 0;
  for (const byte of payload) {
    sum = (sum + byte) >>> 0;
  }
  return sum;
}

/** Formats a byte count, adding KiB or MiB when it is a whole number of them. */
export function formatSize(bytes: number): string {
  const unit = bytes === 1 ? 'byte' : 'bytes';
  if (bytes !== 0 && bytes % (1024 * 1024) === 0) {
    return `${bytes} ${unit} (${bytes / (1024 * 1024)} MiB)`;
  }
  if (bytes !== 0 && bytes % 1024 === 0) {
    return `${bytes} ${unit} (${bytes / 1024} KiB)`;
  }
  return `${bytes} ${unit}`;
}

/** The four bytes of a command as text, with non-printable bytes shown as `.`. */
function commandLetters(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('');
}

const AUTH_TYPES: Readonly<Record<number, string>> = {
  1: 'token: the device sends data to sign',
  2: 'signature: the host signed the token',
  3: 'RSA public key: the host offers its key',
};

/**
 * Describes `arg0` or `arg1` for a command.
 *
 * Input: the command (or `undefined` when unknown), which argument, and its value.
 * Output: a short sentence for the reader. Errors: none.
 */
export function describeArgument(command: CommandInfo | undefined, which: 'arg0' | 'arg1', value: number): string {
  switch (command?.name) {
    case 'CNXN':
      if (which === 'arg0') {
        if (value === VERSION_MIN) {
          return 'Protocol version 0x01000000: checksums required';
        }
        if (value >= VERSION_SKIP_CHECKSUM) {
          return `Protocol version ${formatHex32(value)}: checksums may be skipped`;
        }
        return `Protocol version ${formatHex32(value)} (unknown)`;
      }
      return `Maximum payload size: ${formatSize(value)}`;
    case 'AUTH':
      if (which === 'arg0') {
        const type = AUTH_TYPES[value];
        return type === undefined ? `Unknown authentication type ${value}` : `Type ${value}, ${type}`;
      }
      return value === 0 ? 'Unused (0)' : `Unused, should be 0 but is ${value}`;
    case 'OPEN':
      if (which === 'arg0') {
        return `Sender's local socket id: ${value}`;
      }
      return value === 0
        ? '0: no delayed acknowledgement'
        : `Delayed acknowledgement budget: the receiver may send ${formatSize(value)} before an OKAY`;
    case 'OKAY':
    case 'WRTE':
      return which === 'arg0' ? `Sender's local socket id: ${value}` : `Receiver's local socket id: ${value}`;
    case 'CLSE':
      if (which === 'arg0') {
        return value === 0 ? '0: the sender refuses an OPEN' : `Sender's local socket id: ${value}`;
      }
      return `Receiver's local socket id: ${value}`;
    case 'STLS':
      return which === 'arg0'
        ? `TLS protocol version ${formatHex32(value)}`
        : value === 0
          ? 'Unused (0)'
          : `Unused, should be 0 but is ${value}`;
    default:
      return `${value} (meaning depends on the command)`;
  }
}

function payloadNote(command: CommandInfo | undefined, arg0: number, payload: Uint8Array, complete: boolean): string | undefined {
  switch (command?.name) {
    case 'CNXN':
      return "Banner: the sender's type, properties and features";
    case 'OPEN':
      return 'Service string to connect to';
    case 'WRTE':
      return 'Stream data';
    case 'OKAY':
      if (payload.length === 4 && complete) {
        const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
        return `Delayed acknowledgement: ${formatSize(view.getUint32(0, true))} (little-endian 32-bit number)`;
      }
      return 'An OKAY payload is empty, or 4 bytes with delayed acknowledgement';
    case 'AUTH':
      if (arg0 === 1) {
        return 'Random token the host must sign (20 bytes)';
      }
      if (arg0 === 2) {
        return 'RSA signature of the token (256 bytes for a 2048-bit key)';
      }
      if (arg0 === 3) {
        return 'Public key: Base64 of the 524-byte key structure, a space, the key name, and a NUL byte';
      }
      return undefined;
    default:
      return undefined;
  }
}

/** Decodes the payload as text when every character is printable (trailing or inner NULs shown as `\0`). */
function payloadText(payload: Uint8Array): string | undefined {
  if (payload.length === 0) {
    return undefined;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', {fatal: true}).decode(payload);
  } catch {
    return undefined;
  }
  // Allow tab, line feed and carriage return; any other control character means binary data.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point here
  if (/[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text)) {
    return undefined;
  }
  const shown = text.replaceAll('\0', '\\0');
  // A payload that is mostly NULs is binary, not text.
  return shown.replaceAll('\\0', '').length === 0 ? undefined : shown;
}

/**
 * Decodes one ADB packet from hexadecimal text.
 *
 * Input: text as accepted by {@link parseHex}: the 24-byte header, optionally followed by the
 * payload.
 * Output: `{ok: false, error}` when the text isn't hex (see {@link parseHex}) or holds fewer
 * than 24 bytes; otherwise `{ok: true, command, fields, checks, payload}`: the six header fields
 * with their meaning for this command, and checks of the command (known or not), the magic
 * (`command ^ 0xFFFFFFFF`), the payload length (at most 1 MiB, and matching the bytes present) and
 * the checksum (verified only when the whole payload is present; 0 is reported as skipped).
 * Errors: none thrown.
 */
export function inspectPacket(text: string): PacketInspection {
  const parsed = parseHex(text);
  if (!parsed.ok) {
    return parsed;
  }
  const {bytes} = parsed;
  if (bytes.length < HEADER_SIZE) {
    return {
      ok: false,
      error: `A packet header is ${HEADER_SIZE} bytes, but the input holds only ${bytes.length} ${bytes.length === 1 ? 'byte' : 'bytes'}.`,
    };
  }

  const view = new DataView(bytes.buffer, bytes.byteOffset, HEADER_SIZE);
  const values = FIELD_NAMES.map((_, index) => view.getUint32(index * 4, true));
  const [commandValue, arg0, , payloadLength, checksum, magic] = values as [number, number, number, number, number, number];
  const command = COMMANDS.find((candidate) => candidate.value === commandValue);
  const checks: Check[] = [];

  const letters = commandLetters(bytes.subarray(0, 4));
  if (command === undefined) {
    checks.push({
      status: 'fail',
      message: `The command ${formatHex32(commandValue)} ("${letters}") is not an ADB command. If the letters look shifted, the input may not start at the beginning of a packet.`,
    });
  } else if (command.libraryName === undefined) {
    checks.push({
      status: 'note',
      message: `${command.name} (${formatHex32(command.value)}) is a command of AOSP's adb that @yume-chan/adb's AdbCommand doesn't define: Tango doesn't implement TLS.`,
    });
  } else {
    checks.push({
      status: 'pass',
      message: `${command.name} (${formatHex32(command.value)}) is a known command, ${command.libraryName} in @yume-chan/adb.`,
    });
  }

  const expectedMagic = (commandValue ^ 0xffffffff) >>> 0;
  checks.push(
    magic === expectedMagic
      ? {status: 'pass', message: `The magic ${formatHex32(magic)} equals command XOR 0xFFFFFFFF.`}
      : {
          status: 'fail',
          message: `The magic is ${formatHex32(magic)}, but command XOR 0xFFFFFFFF is ${formatHex32(expectedMagic)}: receivers discard this header.`,
        },
  );

  if (payloadLength > MAX_PAYLOAD_SIZE) {
    checks.push({
      status: 'fail',
      message: `payloadLength is ${formatSize(payloadLength)}, more than ${formatSize(MAX_PAYLOAD_SIZE)}, the largest maximum payload size ADB negotiates.`,
    });
  }

  const following = bytes.length - HEADER_SIZE;
  const complete = following >= payloadLength;
  if (following === 0 && payloadLength > 0) {
    checks.push({
      status: 'note',
      message: `The header announces ${formatSize(payloadLength)} of payload. Paste them after the header to verify the checksum.`,
    });
  } else if (!complete) {
    checks.push({
      status: 'fail',
      message: `The header announces ${formatSize(payloadLength)} of payload, but only ${formatSize(following)} follow it: the payload is incomplete, so the checksum can't be verified.`,
    });
  } else if (following > payloadLength) {
    checks.push({
      status: 'fail',
      message: `${formatSize(following)} follow the header, but payloadLength is ${payloadLength}: ${formatSize(following - payloadLength)} too many. Paste one packet at a time.`,
    });
  } else {
    checks.push({
      status: 'pass',
      message:
        payloadLength === 0
          ? 'No payload, as payloadLength (0) says.'
          : `The payload has the ${formatSize(payloadLength)} that payloadLength announces.`,
    });
  }

  const payloadBytes = bytes.subarray(HEADER_SIZE, HEADER_SIZE + Math.min(following, payloadLength));
  if (complete) {
    const sum = checksumOf(payloadBytes);
    if (checksum === sum) {
      checks.push({status: 'pass', message: `The checksum ${formatHex32(checksum)} equals the byte sum of the payload.`});
    } else if (checksum === 0) {
      checks.push({
        status: 'note',
        message: `The checksum is 0, not the byte sum ${formatHex32(sum)}: the sender skipped it, which protocol version 0x01000001 and later allow. A device on 0x01000000 rejects the packet.`,
      });
    } else {
      checks.push({
        status: 'fail',
        message: `The checksum is ${formatHex32(checksum)}, but the byte sum of the payload is ${formatHex32(sum)}. A device on protocol version 0x01000000 rejects the packet; from 0x01000001 the field isn't checked.`,
      });
    }
  }

  const fields: HeaderField[] = FIELD_NAMES.map((name, index) => {
    const value = values[index]!;
    let meaning: string;
    switch (name) {
      case 'command':
        meaning = command === undefined ? `Unknown ("${letters}")` : `${command.name}: ${command.summary}`;
        break;
      case 'arg0':
      case 'arg1':
        meaning = describeArgument(command, name, value);
        break;
      case 'payloadLength':
        meaning = `${formatSize(value)} of payload follow the header`;
        break;
      case 'checksum':
        meaning = value === 0 ? 'Unsigned byte sum of the payload; 0 when empty or skipped' : 'Unsigned byte sum of the payload';
        break;
      case 'magic':
        meaning = `command XOR 0xFFFFFFFF, expected ${formatHex32(expectedMagic)}`;
        break;
    }
    return {name, offset: index * 4, bytes: toHex(bytes.subarray(index * 4, index * 4 + 4)), value, meaning};
  });

  const payload: PayloadView | undefined =
    payloadBytes.length === 0
      ? undefined
      : {
          length: payloadBytes.length,
          text: payloadText(payloadBytes),
          hex: toHex(payloadBytes.subarray(0, PAYLOAD_HEX_LIMIT)),
          truncated: payloadBytes.length > PAYLOAD_HEX_LIMIT,
          note: payloadNote(command, arg0, payloadBytes, complete),
        };

  return {ok: true, command, fields, checks, payload};
}

/** Options of {@link buildPacket}. */
export interface BuildPacketOptions {
  /** Whether to fill `checksum` with the byte sum (`true`) or leave it 0 as version 0x01000001 allows. */
  checksum: boolean;
  /** Override the magic (to build a broken example). Default: `command ^ 0xFFFFFFFF`. */
  magic?: number;
}

/**
 * Encodes one packet: header (six little-endian 32-bit fields) followed by the payload.
 *
 * Input: command, arguments, payload (a string is UTF-8 encoded) and {@link BuildPacketOptions}.
 * Output: the packet bytes. Errors: none.
 */
export function buildPacket(
  command: number,
  arg0: number,
  arg1: number,
  payload: string | Uint8Array,
  options: BuildPacketOptions,
): Uint8Array {
  const data = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
  const bytes = new Uint8Array(HEADER_SIZE + data.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, command >>> 0, true);
  view.setUint32(4, arg0 >>> 0, true);
  view.setUint32(8, arg1 >>> 0, true);
  view.setUint32(12, data.length, true);
  view.setUint32(16, options.checksum ? checksumOf(data) : 0, true);
  view.setUint32(20, (options.magic ?? command ^ 0xffffffff) >>> 0, true);
  bytes.set(data, HEADER_SIZE);
  return bytes;
}

/**
 * Formats packet bytes for the input box: the header on one line, then the payload 16 bytes
 * per line.
 */
export function formatPacketHex(bytes: Uint8Array): string {
  const lines = [toHex(bytes.subarray(0, HEADER_SIZE))];
  for (let start = HEADER_SIZE; start < bytes.length; start += 16) {
    lines.push(toHex(bytes.subarray(start, start + 16)));
  }
  return lines.join('\n');
}

const command = (name: string): number => COMMANDS.find((candidate) => candidate.name === name)!.value;

/**
 * The `features` Tango 2.0 lists in its CNXN banner by default
 * (`ADB_DAEMON_DEFAULT_FEATURES` in `@yume-chan/adb` 2.0.1, `daemon/transport.ts`).
 */
export const TANGO_DEFAULT_FEATURES = [
  'shell_v2',
  'cmd',
  'stat_v2',
  'ls_v2',
  'fixed_push_mkdir',
  'apex',
  'abb',
  'fixed_push_symlink_timestamp',
  'abb_exec',
  'remount_shell',
  'track_app',
  'sendrecv_v2',
  'sendrecv_v2_brotli',
  'sendrecv_v2_lz4',
  'sendrecv_v2_zstd',
  'sendrecv_v2_dry_run_send',
  'delayed_ack',
] as const;

/** A ready-made input the reader can load with one click. */
export interface PacketExample {
  /** Button text. */
  label: string;
  /** The packet as formatted hexadecimal text. */
  hex: string;
}

/**
 * Example packets, each built with {@link buildPacket} the way `@yume-chan/adb` 2.0.1 would
 * send or receive it. The first is the inspector's initial input.
 */
export const EXAMPLES: readonly PacketExample[] = [
  {
    label: "Tango's CNXN",
    // AdbDaemonTransport.authenticate: version 0x01000001, 1 MiB, `host::features=…`, checksum always set.
    hex: formatPacketHex(
      buildPacket(command('CNXN'), VERSION_SKIP_CHECKSUM, MAX_PAYLOAD_SIZE, `host::features=${TANGO_DEFAULT_FEATURES.join(',')}`, {
        checksum: true,
      }),
    ),
  },
  {
    label: 'OPEN shell:ls',
    // AdbPacketDispatcher.createSocket on 0x01000001 with delayed ack: no NUL, no checksum, 32 MiB budget.
    hex: formatPacketHex(buildPacket(command('OPEN'), 1, 32 * 1024 * 1024, 'shell:ls', {checksum: false})),
  },
  {
    label: 'OKAY with delayed ack',
    hex: formatPacketHex(buildPacket(command('OKAY'), 0x2a, 1, new Uint8Array([0x00, 0x00, 0x00, 0x02]), {checksum: false})),
  },
  {
    label: 'AUTH token, header only',
    hex: formatPacketHex(buildPacket(command('AUTH'), 1, 0, new Uint8Array(20).fill(0x5a), {checksum: true}).subarray(0, HEADER_SIZE)),
  },
  {
    label: 'CLSE with a bad magic',
    hex: formatPacketHex(buildPacket(command('CLSE'), 1, 0x2a, '', {checksum: false, magic: 0x12345678})),
  },
];
