/**
 * APK files for the simulated package manager: builds small but well-formed APKs (ZIP archives
 * holding an `AndroidManifest.xml`, signed with APK Signature Scheme v2 as a release build is),
 * reads the package name, version and SDK versions back from an APK, whether its manifest is
 * plain XML (what `buildApk` writes) or Android's compiled binary XML (a real APK), and tells which
 * signatures an APK carries.
 *
 * Facts: the ZIP layout (local headers, central directory, end record; methods 0 "stored" and 8
 * "deflated") is PKWARE's APPNOTE.TXT; binary XML (chunk types 0x0003 XML, 0x0001 string pool,
 * 0x0102 start element; 20-byte attributes; UTF-8 flag 0x100) is
 * `frameworks/base/libs/androidfw/include/androidfw/ResourceTypes.h`. The APK Signing Block (ID-value
 * pairs between the entries and the central directory, its size before and after them, the magic
 * `APK Sig Block 42`), the v2 block (ID 0x7109871a: signers, each with signed data of digests,
 * certificates and attributes, signatures, public key; 1 MiB chunks digested with a 0xa5 prefix and
 * their digests with 0x5a; the end record's central directory offset read as the block's offset)
 * and the v3 blocks' IDs (0xf05368c0, and 0x1b93ad61 for v3.1) are
 * `frameworks/base/core/java/android/util/apk/ApkSigningBlockUtils.java`,
 * `ApkSignatureSchemeV2Verifier.java` and `ApkSignatureSchemeV3Verifier.java` beside it
 * (android-14.0.0_r50). A v1 (JAR) signature is `META-INF/MANIFEST.MF` with a signature file
 * `META-INF/NAME.SF` and its block `META-INF/NAME.RSA`, `.DSA` or `.EC`
 * (`frameworks/base/core/java/android/util/jar/StrictJarVerifier.java`). Where apksigner lays out
 * what the format leaves open (zero padding of the entries to 4096 bytes, a padding pair of ID
 * 0x42726577 that makes the block a multiple of 4096 bytes, an empty field after the attributes),
 * `buildApk` writes what Debian's apksigner 31.0.2 writes: `device/fixtures/make-signed-apks.sh`.
 */
import {createHash, createPrivateKey, createPublicKey, sign, type KeyObject} from 'node:crypto';
import {readFileSync} from 'node:fs';
import {crc32, gzipSync, inflateRawSync} from 'node:zlib';

/** What the package manager needs to know of an APK. */
export interface ApkInfo {
  packageName: string;
  versionCode: number;
  versionName: string;
  /** The `split` attribute of a split APK's `<manifest>` (`config.en`); absent in a base APK. */
  split?: string;
  /** `<uses-sdk android:minSdkVersion>`, 1 without one. */
  minSdkVersion: number;
  /** `<uses-sdk android:targetSdkVersion>`; without one the minimum SDK version if that is given, else 0. */
  targetSdkVersion: number;
}

/**
 * A minimal APK for `packageName`: a stored (uncompressed) ZIP with a plain-text
 * `AndroidManifest.xml` (minimum SDK 24, target SDK 34, as a new app for Android 14 has) and an
 * empty `classes.dex`, signed as `signApk` signs. `parseApk` reads it back; `pm install` accepts
 * it. With `split`, a split APK of that package (its `<manifest>` names the split, as a bundle's
 * `split_config.*.apk` does). With `signed: false`, the unsigned ZIP, which Android refuses to
 * install (`INSTALL_PARSE_FAILED_NO_CERTIFICATES`).
 */
export function buildApk(info: {
  packageName: string;
  versionCode?: number;
  versionName?: string;
  split?: string;
  signed?: boolean;
}): Uint8Array {
  const versionCode = info.versionCode ?? 1;
  const versionName = info.versionName ?? '1.0';
  const split = info.split === undefined ? '' : ` split="${info.split}"`;
  const manifest =
    `<?xml version="1.0" encoding="utf-8"?>\n` +
    `<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="${info.packageName}"${split}` +
    ` android:versionCode="${versionCode}" android:versionName="${versionName}">\n` +
    `    <uses-sdk android:minSdkVersion="24" android:targetSdkVersion="34" />\n` +
    `    <application android:label="${info.packageName}" />\n</manifest>\n`;
  // A dex file header with no classes (magic "dex\n035\0"), enough to look like code.
  const dex = new Uint8Array(112);
  dex.set([0x64, 0x65, 0x78, 0x0a, 0x30, 0x33, 0x35, 0x00]);
  const apk = zip([
    ['AndroidManifest.xml', new TextEncoder().encode(manifest)],
    ['classes.dex', dex],
  ]);
  return info.signed === false ? apk : signApk(apk);
}

const V2_BLOCK_ID = 0x7109871a;
const V3_BLOCK_ID = 0xf05368c0;
const V31_BLOCK_ID = 0x1b93ad61;
/** apksigner's padding pair (its `VERITY_PADDING_BLOCK_ID`), which makes the APK Signing Block a multiple of 4096 bytes. */
const VERITY_PADDING_BLOCK_ID = 0x42726577;
const SIGNING_BLOCK_MAGIC = new TextEncoder().encode('APK Sig Block 42');
/** `SIGNATURE_RSA_PKCS1_V1_5_WITH_SHA256`, the algorithm of an RSA key of 2048 bits. */
const RSA_PKCS1_V1_5_WITH_SHA256 = 0x0103;
const CHUNK_SIZE = 1024 * 1024;
const PAGE_SIZE = 4096;

/** The test key and certificate of `device/fixtures/`, read on first use. */
let signingKey: {key: KeyObject; certificate: Uint8Array; publicKey: Uint8Array} | undefined;

function fixtureSigningKey(): {key: KeyObject; certificate: Uint8Array; publicKey: Uint8Array} {
  if (!signingKey) {
    const fixtures = new URL('../fixtures/', import.meta.url);
    const key = createPrivateKey(readFileSync(new URL('apk-signing-key.pem', fixtures)));
    signingKey = {
      key,
      certificate: new Uint8Array(readFileSync(new URL('apk-signing-cert.der', fixtures))),
      publicKey: new Uint8Array(createPublicKey(key).export({type: 'spki', format: 'der'})),
    };
  }
  return signingKey;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let position = 0;
  for (const part of parts) {
    out.set(part, position);
    position += part.length;
  }
  return out;
}

function uint32(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, true);
  return out;
}

function uint64(value: number): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(value), true);
  return out;
}

/** `parts`, concatenated, after their total length (a uint32, as every length of the v2 block). */
function lengthPrefixed(...parts: Uint8Array[]): Uint8Array {
  const body = concat(parts);
  return concat([uint32(body.length), body]);
}

/** A length-prefixed sequence of length-prefixed elements. */
function sequence(elements: readonly Uint8Array[]): Uint8Array {
  return lengthPrefixed(...elements.map((element) => lengthPrefixed(element)));
}

/** The v2 content digest: SHA-256 of each 1 MiB chunk of each section, then of those digests. */
function contentDigest(sections: readonly Uint8Array[]): Uint8Array {
  const digests: Uint8Array[] = [];
  for (const section of sections) {
    for (let offset = 0; offset < section.length; offset += CHUNK_SIZE) {
      const chunk = section.subarray(offset, offset + CHUNK_SIZE);
      digests.push(createHash('sha256').update(Uint8Array.of(0xa5)).update(uint32(chunk.length)).update(chunk).digest());
    }
  }
  const top = createHash('sha256').update(Uint8Array.of(0x5a)).update(uint32(digests.length));
  for (const digest of digests) top.update(digest);
  return new Uint8Array(top.digest());
}

/** The offset of a ZIP archive's end record (no comment longer than 64 KiB), or -1. */
function endOfCentralDirectory(archive: Uint8Array): number {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  for (let i = archive.length - 22; i >= Math.max(0, archive.length - 22 - 65535); i -= 1) {
    if (view.getUint32(i, true) === 0x06054b50) return i;
  }
  return -1;
}

/**
 * `apk` signed with APK Signature Scheme v2 by the test key of `device/fixtures/`: an APK Signing
 * Block with one signer (RSASSA-PKCS1-v1_5 with SHA-256, the key's self-signed certificate) goes
 * between the entries and the central directory, laid out as apksigner lays it out, so the result
 * is what `apksigner sign --v1-signing-enabled false --v3-signing-enabled false` writes for `apk`
 * (and verifies with `apksigner verify`). The signature is deterministic: the same input gives the
 * same bytes. Input: an unsigned ZIP archive without a comment; throws for anything else.
 */
export function signApk(apk: Uint8Array): Uint8Array {
  const end = endOfCentralDirectory(apk);
  if (end < 0 || end + 22 !== apk.length) throw new Error('signApk: not a ZIP archive without a comment');
  const endView = new DataView(apk.buffer, apk.byteOffset + end, 22);
  const centralOffset = endView.getUint32(16, true);
  const entries = new Uint8Array(Math.ceil(centralOffset / PAGE_SIZE) * PAGE_SIZE);
  entries.set(apk.subarray(0, centralOffset));
  const centralDirectory = apk.subarray(centralOffset, end);
  const endRecord = apk.slice(end);
  // The digest reads the end record as pointing at the APK Signing Block, where the entries stop.
  new DataView(endRecord.buffer).setUint32(16, entries.length, true);
  const {key, certificate, publicKey} = fixtureSigningKey();
  const digest = contentDigest([entries, centralDirectory, endRecord]);
  const signedData = concat([
    sequence([concat([uint32(RSA_PKCS1_V1_5_WITH_SHA256), lengthPrefixed(digest)])]),
    sequence([certificate]),
    lengthPrefixed(),
    lengthPrefixed(),
  ]);
  const signature = new Uint8Array(sign('sha256', signedData, key));
  const signer = concat([
    lengthPrefixed(signedData),
    sequence([concat([uint32(RSA_PKCS1_V1_5_WITH_SHA256), lengthPrefixed(signature)])]),
    lengthPrefixed(publicKey),
  ]);
  const v2Block = sequence([signer]);
  const pairs = [concat([uint64(4 + v2Block.length), uint32(V2_BLOCK_ID), v2Block])];
  let size = 8 + pairs[0]!.length + 8 + SIGNING_BLOCK_MAGIC.length;
  if (size % PAGE_SIZE !== 0) {
    let padding = PAGE_SIZE - (size % PAGE_SIZE);
    if (padding < 12) padding += PAGE_SIZE;
    const pair = new Uint8Array(padding);
    pair.set(uint64(padding - 8));
    pair.set(uint32(VERITY_PADDING_BLOCK_ID), 8);
    pairs.push(pair);
    size += padding;
  }
  const block = concat([uint64(size - 8), ...pairs, uint64(size - 8), SIGNING_BLOCK_MAGIC]);
  new DataView(endRecord.buffer).setUint32(16, entries.length + block.length, true);
  return concat([entries, block, centralDirectory, endRecord]);
}

/** Which signatures an APK carries (`apkSignatures`). */
export interface ApkSignatures {
  /** `META-INF/MANIFEST.MF`, which Android's JAR verifier reads first: without it, it fails. */
  jarManifest: boolean;
  /** A v1 (JAR) signature: the manifest, a `.SF` file and its signature block. */
  v1: boolean;
  /** An APK Signing Block with an APK Signature Scheme v2 block. */
  v2: boolean;
  /** An APK Signing Block with an APK Signature Scheme v3 (or v3.1) block. */
  v3: boolean;
}

/**
 * The signatures `archive` carries, found by their presence alone: no signature is verified (the
 * simulated device trusts every one, where Android checks the digests and the signers'
 * certificates). `undefined` when `archive` isn't a ZIP archive.
 */
export function apkSignatures(archive: Uint8Array): ApkSignatures | undefined {
  const end = endOfCentralDirectory(archive);
  if (end < 0) return undefined;
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  const names = new Set([...centralDirectoryEntries(archive)].map((entry) => entry.name.toUpperCase()));
  const blockIds = new Set<number>();
  const centralOffset = view.getUint32(end + 16, true);
  const magic = archive.subarray(centralOffset - 16, centralOffset);
  if (centralOffset >= 32 && magic.every((byte, i) => byte === SIGNING_BLOCK_MAGIC[i])) {
    const size = Number(view.getBigUint64(centralOffset - 24, true));
    const start = centralOffset - size - 8;
    if (start >= 0 && Number(view.getBigUint64(start, true)) === size) {
      for (let at = start + 8; at + 12 <= centralOffset - 24;) {
        const length = Number(view.getBigUint64(at, true));
        if (length < 4 || at + 8 + length > centralOffset - 24) break;
        blockIds.add(view.getUint32(at + 8, true));
        at += 8 + length;
      }
    }
  }
  const signatureFile = (name: string) => /^META-INF\/[^/]+\.(RSA|DSA|EC)$/.test(name) && names.has(name.replace(/\.\w+$/, '.SF'));
  const jarManifest = names.has('META-INF/MANIFEST.MF');
  return {
    jarManifest,
    v1: jarManifest && [...names].some(signatureFile),
    v2: blockIds.has(V2_BLOCK_ID),
    v3: blockIds.has(V3_BLOCK_ID) || blockIds.has(V31_BLOCK_ID),
  };
}

/**
 * `apk` as a system image ships the full APK of a compressed app (`/product/app/Chrome/Chrome.apk.gz`
 * beside the stub `/product/app/Chrome-Stub/Chrome-Stub.apk`, on a Pixel 7 with Android 14: the
 * image's `all_files.txt`): gzip, which the package manager reads back with `GZIPInputStream`
 * when it copies the app to `/data/app` (`PackageManagerServiceUtils.decompressFile`). The gzip
 * header carries no file name and time 0, so the bytes are the same on every run.
 */
export function gzipApk(apk: Uint8Array): Uint8Array {
  return new Uint8Array(gzipSync(apk));
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
  return concat([...locals, ...centrals, end]);
}

/** A record of a ZIP archive's central directory. */
interface CentralDirectoryEntry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

/** The records of a ZIP archive's central directory, up to the first malformed one; none when it isn't a ZIP. */
function* centralDirectoryEntries(archive: Uint8Array): Generator<CentralDirectoryEntry> {
  const end = endOfCentralDirectory(archive);
  if (end < 0) return;
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  const count = view.getUint16(end + 10, true);
  let position = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  for (let i = 0; i < count && position + 46 <= archive.length; i += 1) {
    if (view.getUint32(position, true) !== 0x02014b50) return;
    const nameLength = view.getUint16(position + 28, true);
    yield {
      name: decoder.decode(archive.subarray(position + 46, position + 46 + nameLength)),
      method: view.getUint16(position + 10, true),
      compressedSize: view.getUint32(position + 20, true),
      localOffset: view.getUint32(position + 42, true),
    };
    position += 46 + nameLength + view.getUint16(position + 30, true) + view.getUint16(position + 32, true);
  }
}

/** The data of the entry `name` of a ZIP archive, or `undefined` (not a ZIP, no such entry, unknown method). */
export function unzipEntry(archive: Uint8Array, name: string): Uint8Array | undefined {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  for (const entry of centralDirectoryEntries(archive)) {
    if (entry.name !== name) continue;
    const {localOffset} = entry;
    if (localOffset + 30 > archive.length || view.getUint32(localOffset, true) !== 0x04034b50) return undefined;
    const dataStart = localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
    const data = archive.subarray(dataStart, dataStart + entry.compressedSize);
    if (entry.method === 0) return data;
    if (entry.method === 8) return new Uint8Array(inflateRawSync(data));
    return undefined;
  }
  return undefined;
}

/**
 * Reads the attributes of `<manifest>` and `<uses-sdk>` of compiled (binary) XML; `undefined` when
 * it isn't binary XML. An SDK version given by codename reads as `NaN`.
 */
function parseBinaryManifest(xml: Uint8Array): Partial<ApkInfo> | undefined {
  const view = new DataView(xml.buffer, xml.byteOffset, xml.byteLength);
  if (xml.length < 8 || view.getUint16(0, true) !== 0x0003) return undefined;
  let strings: string[] = [];
  let manifest: Partial<ApkInfo> | undefined;
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
      if (name === 'manifest' || name === 'uses-sdk') {
        const attributeStart = view.getUint16(position + 24, true);
        const attributeSize = view.getUint16(position + 26, true);
        const attributeCount = view.getUint16(position + 28, true);
        manifest ??= {};
        for (let i = 0; i < attributeCount; i += 1) {
          const at = position + 16 + attributeStart + i * attributeSize;
          const attribute = strings[view.getUint32(at + 4, true)];
          const raw = view.getUint32(at + 8, true);
          const dataType = xml[at + 15];
          const data = view.getUint32(at + 16, true);
          const text = raw !== 0xffffffff ? strings[raw] : dataType === 0x10 ? String(data) : undefined;
          const number = dataType === 0x10 ? data : Number(text);
          if (name === 'uses-sdk') {
            if (attribute === 'minSdkVersion') manifest.minSdkVersion = number;
            if (attribute === 'targetSdkVersion') manifest.targetSdkVersion = number;
            continue;
          }
          if (attribute === 'package' && text) manifest.packageName = text;
          if (attribute === 'versionCode') manifest.versionCode = number;
          if (attribute === 'versionName' && text) manifest.versionName = text;
          if (attribute === 'split' && text) manifest.split = text;
        }
      }
    }
    position += size;
  }
  return manifest;
}

/**
 * The package name, version and SDK versions of an APK, or `undefined` when `archive` isn't a ZIP
 * with a readable `AndroidManifest.xml` naming a package (what `pm install` reports as
 * `INSTALL_PARSE_FAILED_NOT_APK`). The SDK versions default as `ParsingPackageUtils.parseUsesSdk`
 * defaults them (android-14.0.0_r50): minimum 1, target the minimum when only that is given, else 0.
 */
export function parseApk(archive: Uint8Array): ApkInfo | undefined {
  const manifest = unzipEntry(archive, 'AndroidManifest.xml');
  if (!manifest) return undefined;
  let info = parseBinaryManifest(manifest);
  if (!info) {
    const text = new TextDecoder().decode(manifest);
    const usesSdk = /<uses-sdk\b[^>]*>/.exec(text)?.[0] ?? '';
    const sdk = (name: string) => new RegExp(`\\bandroid:${name}="(\\d+)"`).exec(usesSdk)?.[1];
    info = {
      packageName: /\bpackage="([^"]+)"/.exec(text)?.[1],
      versionCode: Number(/versionCode="(\d+)"/.exec(text)?.[1] ?? 1),
      versionName: /versionName="([^"]*)"/.exec(text)?.[1],
      split: /\bsplit="([^"]+)"/.exec(text)?.[1],
    };
    if (sdk('minSdkVersion')) info.minSdkVersion = Number(sdk('minSdkVersion'));
    if (sdk('targetSdkVersion')) info.targetSdkVersion = Number(sdk('targetSdkVersion'));
  }
  if (!info.packageName || !/^[A-Za-z][\w]*(\.[A-Za-z][\w]*)+$/.test(info.packageName)) return undefined;
  const result: ApkInfo = {
    packageName: info.packageName,
    versionCode: info.versionCode || 1,
    versionName: info.versionName ?? '',
    minSdkVersion: info.minSdkVersion ?? 1,
    targetSdkVersion: info.targetSdkVersion ?? info.minSdkVersion ?? 0,
  };
  if (info.split) result.split = info.split;
  return result;
}
