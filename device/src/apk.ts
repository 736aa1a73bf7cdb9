/**
 * APK files for the simulated package manager: builds small but well-formed APKs (ZIP archives
 * holding an `AndroidManifest.xml`) and reads the package name and version back from an APK,
 * whether its manifest is plain XML (what `buildApk` writes) or Android's compiled binary XML (a
 * real APK).
 *
 * Facts: the ZIP layout (local headers, central directory, end record; methods 0 "stored" and 8
 * "deflated") is PKWARE's APPNOTE.TXT; binary XML (chunk types 0x0003 XML, 0x0001 string pool,
 * 0x0102 start element; 20-byte attributes; UTF-8 flag 0x100) is
 * `frameworks/base/libs/androidfw/include/androidfw/ResourceTypes.h`.
 */
import {crc32, inflateRawSync} from 'node:zlib';

/** What the package manager needs to know of an APK. */
export interface ApkInfo {
  packageName: string;
  versionCode: number;
  versionName: string;
  /** The `split` attribute of a split APK's `<manifest>` (`config.en`); absent in a base APK. */
  split?: string;
}

/**
 * A minimal APK for `packageName`: a stored (uncompressed) ZIP with a plain-text
 * `AndroidManifest.xml` and an empty `classes.dex`. `parseApk` reads it back; `pm install` accepts it.
 * With `split`, a split APK of that package (its `<manifest>` names the split, as a bundle's
 * `split_config.*.apk` does).
 */
export function buildApk(info: {packageName: string; versionCode?: number; versionName?: string; split?: string}): Uint8Array {
  const versionCode = info.versionCode ?? 1;
  const versionName = info.versionName ?? '1.0';
  const split = info.split === undefined ? '' : ` split="${info.split}"`;
  const manifest =
    `<?xml version="1.0" encoding="utf-8"?>\n` +
    `<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="${info.packageName}"${split}` +
    ` android:versionCode="${versionCode}" android:versionName="${versionName}">\n` +
    `    <application android:label="${info.packageName}" />\n</manifest>\n`;
  // A dex file header with no classes (magic "dex\n035\0"), enough to look like code.
  const dex = new Uint8Array(112);
  dex.set([0x64, 0x65, 0x78, 0x0a, 0x30, 0x33, 0x35, 0x00]);
  return zip([
    ['AndroidManifest.xml', new TextEncoder().encode(manifest)],
    ['classes.dex', dex],
  ]);
}

/** A stored ZIP archive of `entries` (name, data), with fixed DOS times (1980-01-01). */
export function zip(entries: readonly (readonly [string, Uint8Array])[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const [name, data] of entries) {
    const nameBytes = new TextEncoder().encode(name);
    const crc = crc32(data);
    const local = new Uint8Array(30 + nameBytes.length + data.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 10, true);
    lv.setUint16(12, 0x21, true); // 1980-01-01
    lv.setUint32(14, crc, true);
    lv.setUint32(18, data.length, true);
    lv.setUint32(22, data.length, true);
    lv.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    local.set(data, 30 + nameBytes.length);
    const central = new Uint8Array(46 + nameBytes.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 10, true);
    cv.setUint16(6, 10, true);
    cv.setUint16(14, 0x21, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, data.length, true);
    cv.setUint32(24, data.length, true);
    cv.setUint16(28, nameBytes.length, true);
    cv.setUint32(42, offset, true);
    central.set(nameBytes, 46);
    locals.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, offset, true);
  const out = new Uint8Array(offset + centralSize + 22);
  let position = 0;
  for (const part of [...locals, ...centrals, end]) {
    out.set(part, position);
    position += part.length;
  }
  return out;
}

/** The data of the entry `name` of a ZIP archive, or `undefined` (not a ZIP, no such entry, unknown method). */
export function unzipEntry(archive: Uint8Array, name: string): Uint8Array | undefined {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  let end = -1;
  for (let i = archive.length - 22; i >= Math.max(0, archive.length - 22 - 65535); i -= 1) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return undefined;
  const count = view.getUint16(end + 10, true);
  let position = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  for (let i = 0; i < count && position + 46 <= archive.length; i += 1) {
    if (view.getUint32(position, true) !== 0x02014b50) return undefined;
    const method = view.getUint16(position + 10, true);
    const compressedSize = view.getUint32(position + 20, true);
    const nameLength = view.getUint16(position + 28, true);
    const extraLength = view.getUint16(position + 30, true);
    const commentLength = view.getUint16(position + 32, true);
    const localOffset = view.getUint32(position + 42, true);
    const entryName = decoder.decode(archive.subarray(position + 46, position + 46 + nameLength));
    position += 46 + nameLength + extraLength + commentLength;
    if (entryName !== name) continue;
    if (view.getUint32(localOffset, true) !== 0x04034b50) return undefined;
    const dataStart = localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
    const data = archive.subarray(dataStart, dataStart + compressedSize);
    if (method === 0) return data;
    if (method === 8) return new Uint8Array(inflateRawSync(data));
    return undefined;
  }
  return undefined;
}

/** Reads the `<manifest>` attributes of compiled (binary) XML; `undefined` when it isn't binary XML. */
function parseBinaryManifest(xml: Uint8Array): Partial<ApkInfo> | undefined {
  const view = new DataView(xml.buffer, xml.byteOffset, xml.byteLength);
  if (xml.length < 8 || view.getUint16(0, true) !== 0x0003) return undefined;
  let strings: string[] = [];
  let position = view.getUint16(2, true);
  while (position + 8 <= xml.length) {
    const type = view.getUint16(position, true);
    const headerSize = view.getUint16(position + 2, true);
    const size = view.getUint32(position + 4, true);
    if (size < 8) return undefined;
    if (type === 0x0001) {
      const count = view.getUint32(position + 8, true);
      const flags = view.getUint32(position + 16, true);
      const stringsStart = view.getUint32(position + 20, true);
      const utf8 = (flags & 0x100) !== 0;
      strings = [];
      for (let i = 0; i < count; i += 1) {
        let at = position + stringsStart + view.getUint32(position + headerSize + i * 4, true);
        if (utf8) {
          // UTF-16 length then UTF-8 length, each 1 or 2 bytes.
          at += xml[at]! & 0x80 ? 2 : 1;
          let length = xml[at]!;
          if (length & 0x80) {
            length = ((length & 0x7f) << 8) | xml[at + 1]!;
            at += 2;
          } else {
            at += 1;
          }
          strings.push(new TextDecoder().decode(xml.subarray(at, at + length)));
        } else {
          let length = view.getUint16(at, true);
          if (length & 0x8000) {
            length = ((length & 0x7fff) << 16) | view.getUint16(at + 2, true);
            at += 4;
          } else {
            at += 2;
          }
          strings.push(new TextDecoder('utf-16le').decode(xml.subarray(at, at + length * 2)));
        }
      }
    } else if (type === 0x0102) {
      const name = strings[view.getUint32(position + 20, true)];
      if (name === 'manifest') {
        const attributeStart = view.getUint16(position + 24, true);
        const attributeSize = view.getUint16(position + 26, true);
        const attributeCount = view.getUint16(position + 28, true);
        const result: Partial<ApkInfo> = {};
        for (let i = 0; i < attributeCount; i += 1) {
          const at = position + 16 + attributeStart + i * attributeSize;
          const attribute = strings[view.getUint32(at + 4, true)];
          const raw = view.getUint32(at + 8, true);
          const dataType = xml[at + 15];
          const data = view.getUint32(at + 16, true);
          const text = raw !== 0xffffffff ? strings[raw] : dataType === 0x10 ? String(data) : undefined;
          if (attribute === 'package' && text) result.packageName = text;
          if (attribute === 'versionCode') result.versionCode = dataType === 0x10 ? data : Number(text);
          if (attribute === 'versionName' && text) result.versionName = text;
          if (attribute === 'split' && text) result.split = text;
        }
        return result;
      }
    }
    position += size;
  }
  return undefined;
}

/**
 * The package name and version of an APK, or `undefined` when `archive` isn't a ZIP with a
 * readable `AndroidManifest.xml` naming a package (what `pm install` reports as
 * `INSTALL_PARSE_FAILED_NOT_APK`).
 */
export function parseApk(archive: Uint8Array): ApkInfo | undefined {
  const manifest = unzipEntry(archive, 'AndroidManifest.xml');
  if (!manifest) return undefined;
  let info = parseBinaryManifest(manifest);
  if (!info) {
    const text = new TextDecoder().decode(manifest);
    info = {
      packageName: /\bpackage="([^"]+)"/.exec(text)?.[1],
      versionCode: Number(/versionCode="(\d+)"/.exec(text)?.[1] ?? 1),
      versionName: /versionName="([^"]*)"/.exec(text)?.[1],
      split: /\bsplit="([^"]+)"/.exec(text)?.[1],
    };
  }
  if (!info.packageName || !/^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/.test(info.packageName)) return undefined;
  const result: ApkInfo = {packageName: info.packageName, versionCode: info.versionCode || 1, versionName: info.versionName ?? ''};
  if (info.split) result.split = info.split;
  return result;
}
