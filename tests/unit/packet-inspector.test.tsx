import assert from 'node:assert/strict';
import {AdbCommand} from '@tango-v2/adb';
import {describe, test} from 'node:test';

import {Children, isValidElement, type ReactElement, type ReactNode} from 'react';
import {renderToStaticMarkup} from 'react-dom/server';

import PacketInspector, {InspectionResult, PacketInspectorView} from '../../src/components/PacketInspector/index.tsx';
import {
  buildPacket,
  checksumOf,
  COMMANDS,
  describeArgument,
  EXAMPLES,
  formatHex32,
  formatPacketHex,
  formatSize,
  inspectPacket,
  parseHex,
  TANGO_DEFAULT_FEATURES,
  toHex,
  type PacketInspection,
} from '../../src/components/PacketInspector/inspect.ts';

type Inspected = Extract<PacketInspection, {ok: true}>;

function inspectOk(text: string): Inspected {
  const result = inspectPacket(text);
  assert.ok(result.ok, `expected a decoded packet, got: ${result.ok ? '' : result.error}`);
  return result;
}

function inspectError(text: string): string {
  const result = inspectPacket(text);
  assert.ok(!result.ok, 'expected an error');
  return result.error;
}

/** A command's value, from the inspector's own list (its values are checked against their letters below). */
const valueOf = (name: string) => COMMANDS.find((command) => command.name === name)!.value;
const CNXN = valueOf('CNXN');
const OPEN = valueOf('OPEN');
const OKAY = valueOf('OKAY');
const WRTE = valueOf('WRTE');
const AUTH = valueOf('AUTH');
const CLSE = valueOf('CLSE');
const STLS = valueOf('STLS');

/** Hex of a packet built with the given parts. */
function hexOf(command: number, arg0: number, arg1: number, payload: string | Uint8Array, checksum = true, magic?: number): string {
  return toHex(buildPacket(command, arg0, arg1, payload, {checksum, magic}));
}

describe('COMMANDS', () => {
  test('each value is its four ASCII letters read as a little-endian 32-bit number', () => {
    for (const command of COMMANDS) {
      const bytes = new TextEncoder().encode(command.name);
      const value = new DataView(bytes.buffer).getUint32(0, true);
      assert.equal(value, command.value, command.name);
    }
  });

  test('agrees with AdbCommand of @yume-chan/adb 2.0.1: every member listed, with its value; STLS, which it lacks, too', () => {
    const library = Object.entries(AdbCommand as Record<string, number>).map(([key, value]) => [`AdbCommand.${key}`, value]);
    const listed = COMMANDS.filter((command) => command.libraryName !== undefined).map((command) => [command.libraryName, command.value]);
    assert.deepEqual(listed.sort(), library.sort());
    assert.deepEqual(
      COMMANDS.filter((command) => command.libraryName === undefined).map((command) => command.name),
      ['STLS'],
    );
  });
});

describe('parseHex', () => {
  test('reads pairs of digits in either case', () => {
    const result = parseHex('00ff7fAbcD');
    assert.ok(result.ok);
    assert.deepEqual([...result.bytes], [0x00, 0xff, 0x7f, 0xab, 0xcd]);
  });

  test('ignores spaces, tabs, line breaks and colons anywhere', () => {
    const result = parseHex(' 43 4e\t58:4e\r\n0 1 ');
    assert.ok(result.ok);
    assert.deepEqual([...result.bytes], [0x43, 0x4e, 0x58, 0x4e, 0x01]);
  });

  test('rejects empty and separator-only input', () => {
    for (const text of ['', '   ', '\n:\t']) {
      const result = parseHex(text);
      assert.ok(!result.ok);
      assert.match(result.error, /The input is empty/);
    }
  });

  test('rejects an odd number of digits, giving the count', () => {
    const result = parseHex('43 4e 5');
    assert.ok(!result.ok);
    assert.match(result.error, /5 hexadecimal digits, an odd number/);
  });

  test('rejects a non-hex character, quoting it with its 1-based position', () => {
    const result = parseHex('43 4g');
    assert.ok(!result.ok);
    assert.match(result.error, /^Character 5, "g", is not a hexadecimal digit/);
  });

  test('rejects a 0x prefix (x is not a digit) and names control characters by code point', () => {
    const prefixed = parseHex('0x43');
    assert.ok(!prefixed.ok);
    assert.match(prefixed.error, /Character 2, "x"/);
    const control = parseHex('43\u000044');
    assert.ok(!control.ok);
    assert.match(control.error, /Character 3, U\+0000,/);
  });

  test('reports the first bad character even when the digit count is also odd', () => {
    const result = parseHex('4z3');
    assert.ok(!result.ok);
    assert.match(result.error, /Character 2, "z"/);
  });
});

describe('helpers', () => {
  test('checksumOf is the unsigned byte sum, wrapping at 2^32', () => {
    assert.equal(checksumOf(new Uint8Array()), 0);
    assert.equal(checksumOf(new Uint8Array([1, 2, 255])), 258);
    assert.equal(checksumOf(new TextEncoder().encode('host::')), 0x68 + 0x6f + 0x73 + 0x74 + 0x3a + 0x3a);
  });

  test('formatHex32 pads to eight digits and treats values as unsigned', () => {
    assert.equal(formatHex32(0x01000001), '0x01000001');
    assert.equal(formatHex32(-1), '0xffffffff');
    assert.equal(formatHex32(CNXN ^ 0xffffffff), '0xb1a7b1bc');
  });

  test('formatSize adds KiB or MiB only for whole units', () => {
    assert.equal(formatSize(0), '0 bytes');
    assert.equal(formatSize(1), '1 byte');
    assert.equal(formatSize(4096), '4096 bytes (4 KiB)');
    assert.equal(formatSize(1024 * 1024), '1048576 bytes (1 MiB)');
    assert.equal(formatSize(1500), '1500 bytes');
  });

  test('buildPacket writes six little-endian fields, the magic and an optional checksum', () => {
    const packet = buildPacket(OPEN, 1, 0, 'shell:ls', {checksum: true});
    assert.equal(packet.length, 24 + 8);
    const view = new DataView(packet.buffer);
    assert.deepEqual(
      [0, 4, 8, 12, 16, 20].map((offset) => view.getUint32(offset, true)),
      [OPEN, 1, 0, 8, checksumOf(new TextEncoder().encode('shell:ls')), (OPEN ^ 0xffffffff) >>> 0],
    );
    assert.equal(toHex(packet.subarray(0, 4)), '4f 50 45 4e');
    assert.equal(new DataView(buildPacket(OPEN, 1, 0, 'x', {checksum: false}).buffer).getUint32(16, true), 0);
  });

  test('formatPacketHex puts the header on one line and 16 payload bytes per line', () => {
    const lines = formatPacketHex(buildPacket(WRTE, 1, 2, new Uint8Array(20), {checksum: false})).split('\n');
    assert.equal(lines.length, 3);
    assert.equal(lines[0]!.split(' ').length, 24);
    assert.equal(lines[1]!.split(' ').length, 16);
    assert.equal(lines[2]!.split(' ').length, 4);
  });
});

describe('describeArgument', () => {
  const command = (name: string) => COMMANDS.find((candidate) => candidate.name === name);

  test('CNXN: protocol version and maximum payload size', () => {
    assert.match(describeArgument(command('CNXN'), 'arg0', 0x01000000), /0x01000000: checksums required/);
    assert.match(describeArgument(command('CNXN'), 'arg0', 0x01000001), /0x01000001: checksums may be skipped/);
    assert.match(describeArgument(command('CNXN'), 'arg0', 0x00000001), /unknown/);
    assert.match(describeArgument(command('CNXN'), 'arg1', 4096), /Maximum payload size: 4096 bytes \(4 KiB\)/);
  });

  test('AUTH: the three types, an unknown type, and arg1', () => {
    assert.match(describeArgument(command('AUTH'), 'arg0', 1), /Type 1, token/);
    assert.match(describeArgument(command('AUTH'), 'arg0', 2), /Type 2, signature/);
    assert.match(describeArgument(command('AUTH'), 'arg0', 3), /Type 3, RSA public key/);
    assert.match(describeArgument(command('AUTH'), 'arg0', 4), /Unknown authentication type 4/);
    assert.equal(describeArgument(command('AUTH'), 'arg1', 0), 'Unused (0)');
    assert.match(describeArgument(command('AUTH'), 'arg1', 7), /should be 0 but is 7/);
  });

  test('OPEN: local id and delayed-ack budget', () => {
    assert.equal(describeArgument(command('OPEN'), 'arg0', 5), "Sender's local socket id: 5");
    assert.equal(describeArgument(command('OPEN'), 'arg1', 0), '0: no delayed acknowledgement');
    assert.match(describeArgument(command('OPEN'), 'arg1', 32 * 1024 * 1024), /33554432 bytes \(32 MiB\) before an OKAY/);
  });

  test('OKAY, WRTE, CLSE: sender and receiver ids; CLSE arg0 0 refuses an OPEN', () => {
    for (const name of ['OKAY', 'WRTE', 'CLSE']) {
      assert.equal(describeArgument(command(name), 'arg0', 3), "Sender's local socket id: 3");
      assert.equal(describeArgument(command(name), 'arg1', 9), "Receiver's local socket id: 9");
    }
    assert.match(describeArgument(command('CLSE'), 'arg0', 0), /refuses an OPEN/);
  });

  test('STLS and unknown commands', () => {
    assert.equal(describeArgument(command('STLS'), 'arg0', 0x01000000), 'TLS protocol version 0x01000000');
    assert.equal(describeArgument(undefined, 'arg0', 12), '12 (meaning depends on the command)');
  });
});

describe('inspectPacket errors', () => {
  test('passes hex errors through', () => {
    assert.match(inspectError(''), /empty/);
    assert.match(inspectError('abc'), /odd number/);
    assert.match(inspectError('zz'), /not a hexadecimal digit/);
  });

  test('rejects input shorter than a header, giving the byte count', () => {
    assert.equal(inspectError('43 4e 58 4e'), 'A packet header is 24 bytes, but the input holds only 4 bytes.');
    assert.match(inspectError('00'), /only 1 byte\./);
    assert.match(inspectError(hexOf(CNXN, 1, 2, '').slice(0, 23 * 3 - 1)), /only 23 bytes/);
  });
});

describe('inspectPacket on valid packets', () => {
  test('decodes a CNXN with its payload: every field, all checks pass, banner shown as text', () => {
    const banner = 'host::features=shell_v2,cmd';
    const result = inspectOk(hexOf(CNXN, 0x01000001, 1024 * 1024, banner));
    assert.equal(result.command?.name, 'CNXN');
    assert.deepEqual(
      result.fields.map((field) => [field.name, field.offset, field.value]),
      [
        ['command', 0, CNXN],
        ['arg0', 4, 0x01000001],
        ['arg1', 8, 1024 * 1024],
        ['payloadLength', 12, banner.length],
        ['checksum', 16, checksumOf(new TextEncoder().encode(banner))],
        ['magic', 20, 0xb1a7b1bc],
      ],
    );
    assert.equal(result.fields[0]!.bytes, '43 4e 58 4e');
    assert.equal(result.fields[0]!.meaning, 'CNXN: connect');
    assert.match(result.fields[2]!.meaning, /1 MiB/);
    assert.deepEqual(
      result.checks.map((check) => check.status),
      ['pass', 'pass', 'pass', 'pass'],
    );
    assert.equal(result.payload?.text, banner);
    assert.equal(result.payload?.length, banner.length);
    assert.equal(result.payload?.truncated, false);
    assert.match(result.payload?.note ?? '', /Banner/);
  });

  test('a header-only packet with no payload passes and has no payload view', () => {
    const result = inspectOk(hexOf(OKAY, 7, 1, ''));
    assert.deepEqual(
      result.checks.map((check) => [check.status, check.message]),
      [
        ['pass', 'OKAY (0x59414b4f) is a known command, AdbCommand.Okay in @yume-chan/adb.'],
        ['pass', 'The magic 0xa6beb4b0 equals command XOR 0xFFFFFFFF.'],
        ['pass', 'No payload, as payloadLength (0) says.'],
        ['pass', 'The checksum 0x00000000 equals the byte sum of the payload.'],
      ],
    );
    assert.equal(result.payload, undefined);
  });

  test('a header whose payload is missing is a note, and the checksum is not judged', () => {
    const header = hexOf(AUTH, 1, 0, new Uint8Array(20).fill(1)).split(' ').slice(0, 24).join(' ');
    const result = inspectOk(header);
    assert.equal(result.checks.length, 3);
    assert.equal(result.checks[2]!.status, 'note');
    assert.match(result.checks[2]!.message, /announces 20 bytes of payload\. Paste them after the header to verify the checksum/);
    assert.equal(result.payload, undefined);
    assert.match(result.fields[1]!.meaning, /token/);
  });

  test('a checksum of 0 on a non-empty payload is a note about protocol 0x01000001', () => {
    const result = inspectOk(hexOf(OPEN, 1, 0, 'shell:ls', false));
    const last = result.checks.at(-1)!;
    assert.equal(last.status, 'note');
    assert.match(
      last.message,
      /The checksum is 0, not the byte sum 0x00000[0-9a-f]{3}: the sender skipped it, which protocol version 0x01000001/,
    );
    assert.equal(result.payload?.text, 'shell:ls');
    assert.match(result.payload?.note ?? '', /Service string/);
  });

  test('shows NUL bytes in text as \\0 (service strings before 0x01000001)', () => {
    const result = inspectOk(hexOf(OPEN, 1, 0, 'shell:\0'));
    assert.equal(result.payload?.text, 'shell:\\0');
  });

  test('binary payloads have no text view; long ones are truncated to 64 bytes of hex', () => {
    const payload = new Uint8Array(100).map((_, index) => index);
    const result = inspectOk(hexOf(WRTE, 1, 2, payload));
    assert.equal(result.payload?.text, undefined);
    assert.equal(result.payload?.hex.split(' ').length, 64);
    assert.equal(result.payload?.truncated, true);
    assert.equal(result.payload?.length, 100);
    const zeros = inspectOk(hexOf(WRTE, 1, 2, new Uint8Array(4)));
    assert.equal(zeros.payload?.text, undefined);
    const invalidUtf8 = inspectOk(hexOf(WRTE, 1, 2, new Uint8Array([0xc3, 0x28])));
    assert.equal(invalidUtf8.payload?.text, undefined);
  });

  test('reads the delayed-ack byte count of a 4-byte OKAY payload', () => {
    const result = inspectOk(hexOf(OKAY, 42, 1, new Uint8Array([0x00, 0x00, 0x00, 0x02]), false));
    assert.match(result.payload?.note ?? '', /Delayed acknowledgement: 33554432 bytes \(32 MiB\)/);
  });

  test('STLS decodes, with a note that @yume-chan/adb lacks it', () => {
    const result = inspectOk(hexOf(STLS, 0x01000000, 0, ''));
    assert.equal(result.command?.name, 'STLS');
    assert.equal(result.checks[0]!.status, 'note');
    assert.match(result.checks[0]!.message, /AdbCommand doesn't define/);
  });

  test('describes AUTH payloads by type', () => {
    assert.match(inspectOk(hexOf(AUTH, 2, 0, new Uint8Array(256).fill(3))).payload?.note ?? '', /RSA signature/);
    assert.match(inspectOk(hexOf(AUTH, 3, 0, 'QUFB name\0')).payload?.note ?? '', /Public key/);
  });
});

describe('inspectPacket mismatches', () => {
  test('an unknown command fails, quoting its letters', () => {
    const result = inspectOk(hexOf(0x454b4146, 0, 0, ''));
    assert.equal(result.command, undefined);
    assert.equal(result.checks[0]!.status, 'fail');
    assert.match(result.checks[0]!.message, /0x454b4146 \("FAKE"\) is not an ADB command/);
    assert.equal(result.fields[0]!.meaning, 'Unknown ("FAKE")');
    assert.match(result.fields[1]!.meaning, /meaning depends on the command/);
  });

  test('non-printable command bytes are shown as dots', () => {
    const result = inspectOk(hexOf(0x00010203, 0, 0, ''));
    assert.match(result.checks[0]!.message, /\("\.\.\.\."\)/);
  });

  test('a wrong magic fails, giving the expected value', () => {
    const result = inspectOk(hexOf(CLSE, 1, 2, '', false, 0x12345678));
    const magic = result.checks[1]!;
    assert.equal(magic.status, 'fail');
    assert.equal(magic.message, 'The magic is 0x12345678, but command XOR 0xFFFFFFFF is 0xbaacb3bc: receivers discard this header.');
  });

  test('a wrong non-zero checksum fails', () => {
    const bytes = buildPacket(WRTE, 1, 2, 'abc', {checksum: true});
    new DataView(bytes.buffer).setUint32(16, 1, true);
    const result = inspectOk(toHex(bytes));
    const last = result.checks.at(-1)!;
    assert.equal(last.status, 'fail');
    assert.match(last.message, /The checksum is 0x00000001, but the byte sum of the payload is 0x00000126/);
  });

  test('an incomplete payload fails and skips the checksum', () => {
    const text = toHex(buildPacket(WRTE, 1, 2, 'abcdef', {checksum: true}).subarray(0, 24 + 2));
    const result = inspectOk(text);
    assert.equal(result.checks.length, 3);
    assert.equal(result.checks[2]!.status, 'fail');
    assert.match(result.checks[2]!.message, /announces 6 bytes of payload, but only 2 bytes follow it/);
    assert.equal(result.payload?.length, 2);
  });

  test('extra bytes after the payload fail, and the checksum is verified on the announced payload', () => {
    const text = `${hexOf(WRTE, 1, 2, 'abc')} 00 01`;
    const result = inspectOk(text);
    assert.equal(result.checks[2]!.status, 'fail');
    assert.match(result.checks[2]!.message, /5 bytes follow the header, but payloadLength is 3: 2 bytes too many/);
    assert.equal(result.checks[3]!.status, 'pass');
    assert.equal(result.payload?.text, 'abc');
  });

  test('a payloadLength over 1 MiB fails', () => {
    const bytes = buildPacket(WRTE, 1, 2, '', {checksum: false});
    new DataView(bytes.buffer).setUint32(12, 1024 * 1024 + 1, true);
    const result = inspectOk(toHex(bytes));
    assert.ok(result.checks.some((check) => check.status === 'fail' && /more than 1048576 bytes \(1 MiB\)/.test(check.message)));
  });
});

describe('EXAMPLES', () => {
  test("the first is Tango's CNXN: version 0x01000001, 1 MiB, its default features, checksum set", () => {
    const result = inspectOk(EXAMPLES[0]!.hex);
    assert.equal(result.command?.name, 'CNXN');
    assert.equal(result.fields[1]!.value, 0x01000001);
    assert.equal(result.fields[2]!.value, 1024 * 1024);
    assert.equal(result.payload?.text, `host::features=${TANGO_DEFAULT_FEATURES.join(',')}`);
    assert.ok(result.checks.every((check) => check.status === 'pass'));
  });

  test('every example decodes; only the broken one fails, on its magic', () => {
    for (const example of EXAMPLES) {
      const result = inspectOk(example.hex);
      const failed = result.checks.filter((check) => check.status === 'fail');
      if (example.label.includes('bad magic')) {
        assert.equal(failed.length, 1);
        assert.match(failed[0]!.message, /magic/);
      } else {
        assert.deepEqual(failed, [], example.label);
      }
    }
  });

  test('labels are unique', () => {
    assert.equal(new Set(EXAMPLES.map((example) => example.label)).size, EXAMPLES.length);
  });
});

/** Finds host elements of the given tag in a React element tree (components are called, not rendered). */
function findButtons(node: ReactNode): ReactElement<{onClick?: () => void; children?: ReactNode}>[] {
  const found: ReactElement<{onClick?: () => void; children?: ReactNode}>[] = [];
  Children.forEach(node, (child) => {
    if (!isValidElement<{children?: ReactNode}>(child)) {
      return;
    }
    if (child.type === 'button') {
      found.push(child);
    }
    found.push(...findButtons(child.props.children));
  });
  return found;
}

describe('<PacketInspector> server render', () => {
  const html = renderToStaticMarkup(<PacketInspector />);

  test('labels the text area and describes the accepted format', () => {
    const inputId = /<label class="label" for="([^"]+)">Packet bytes in hexadecimal<\/label>/.exec(html)?.[1];
    assert.ok(inputId, html);
    const hintId = /<p class="hint" id="([^"]+)">The 24-byte header/.exec(html)?.[1];
    assert.ok(hintId);
    assert.match(html, new RegExp(`<textarea class="input" id="${inputId}" aria-describedby="${hintId}"`));
  });

  test('pre-fills the first example and decodes it in the live region', () => {
    assert.match(html, /<textarea[^>]*>43 4e 58 4e 01 00 00 01 00 00 10 00/);
    assert.match(html, /<div class="output" role="region" aria-label="Decoded packet" aria-live="polite">/);
    assert.match(html, /<caption>Header of a CNXN packet<\/caption>/);
    assert.match(html, /<th scope="row"><code>magic<\/code><\/th><td><code>bc b1 a7 b1<\/code><\/td>/);
    assert.match(html, /<span class="status">Pass<\/span> The magic 0xb1a7b1bc equals command XOR 0xFFFFFFFF\./);
    assert.match(html, /<pre class="text">host::features=shell_v2,cmd,/);
    assert.doesNotMatch(html, /Can&#x27;t decode/);
  });

  test('renders one button per example, each controlling the text area', () => {
    const labels = [...html.matchAll(/<button type="button" class="example" aria-controls="[^"]+">([^<]*)<\/button>/g)].map(
      (match) => match[1],
    );
    assert.deepEqual(
      labels,
      EXAMPLES.map((example) => example.label.replace("'", '&#x27;')),
    );
    assert.match(html, /role="group" aria-labelledby="[^"]+"><span class="examplesLabel" id="[^"]+">Examples:<\/span>/);
  });

  test('accepts another initial text', () => {
    const other = renderToStaticMarkup(<PacketInspector initialHex="zz" />);
    assert.match(
      other,
      /<p class="error"><strong>Can&#x27;t decode this input\.<\/strong> Character 1, &quot;z&quot;, is not a hexadecimal digit/,
    );
  });
});

describe('<PacketInspectorView>', () => {
  test('example buttons report their hex through onTextChange', () => {
    const changes: string[] = [];
    const tree = PacketInspectorView({id: 'p', text: '', onTextChange: (text) => changes.push(text)});
    const buttons = findButtons(tree);
    assert.equal(buttons.length, EXAMPLES.length);
    buttons[1]!.props.onClick?.();
    buttons[4]!.props.onClick?.();
    assert.deepEqual(changes, [EXAMPLES[1]!.hex, EXAMPLES[4]!.hex]);
  });

  test('uses the given id for the input, hint and examples label', () => {
    const html = renderToStaticMarkup(<PacketInspectorView id="x" text="00" onTextChange={() => {}} />);
    assert.match(html, /for="x-input"/);
    assert.match(html, /id="x-hint"/);
    assert.match(html, /aria-labelledby="x-examples"/);
    assert.match(html, /only 1 byte\./);
  });
});

describe('<InspectionResult>', () => {
  test('marks failed checks with the word Fail, not colour alone', () => {
    const html = renderToStaticMarkup(<InspectionResult inspection={inspectPacket(hexOf(CLSE, 1, 2, '', false, 0))} />);
    assert.match(html, /<li class="fail"><span class="status">Fail<\/span> The magic is 0x00000000/);
    assert.match(html, /<caption>Header of a CLSE packet<\/caption>/);
  });

  test('shows an unknown command in the caption and a truncated hex payload with an ellipsis', () => {
    const html = renderToStaticMarkup(<InspectionResult inspection={inspectPacket(hexOf(0x454b4146, 0, 0, new Uint8Array(70)))} />);
    assert.match(html, /<caption>Header of a packet with an unknown command<\/caption>/);
    assert.match(html, /<strong>Payload<\/strong>, 70 bytes<\/p><pre class="hex">(00 ){63}00 …<\/pre>/);
    assert.doesNotMatch(html, /class="text"/);
  });

  test('renders an error as one paragraph', () => {
    assert.equal(
      renderToStaticMarkup(<InspectionResult inspection={{ok: false, error: 'Bad.'}} />),
      '<p class="error"><strong>Can&#x27;t decode this input.</strong> Bad.</p>',
    );
  });
});
