/**
 * The `sync:` and `framebuffer:` services of the simulated device, driven by the real library
 * (`@yume-chan/adb` 2.0.1 `AdbSync`, `Adb#framebuffer`), through sync v2 (the default features) and
 * v1 (a device without `sendrecv_v2`, `stat_v2` and `ls_v2`).
 *
 * Compressed transfers: the library defines the `SND2` flags but never sets them and pulls with
 * `RECV` only, and Debian's `adb` (29.0.6) predates compression, so those tests write `SND2`/`RCV2`
 * requests with the library's own sync structs. The uploads are streams made by liblz4 and libzstd
 * (`fixtures/make-sync-compressed.sh`); the downloads are checked with `lz4js`/`fzstd` and, where
 * the `lz4`/`zstd` commands are installed, with those C libraries too.
 */
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {after, describe, test} from 'node:test';
import {brotliCompressSync, brotliDecompressSync} from 'node:zlib';

import {
  AdbSyncDataResponse,
  AdbSyncError,
  AdbSyncNumberRequest,
  AdbSyncOkResponse,
  AdbSyncRequestId,
  AdbSyncResponseId,
  AdbSyncSendV2Flags,
  AdbSyncSendV2Request,
  AdbSyncSocket,
  adbSyncEncodeId,
  adbSyncReadResponse,
  adbSyncReadResponses,
  adbSyncWriteRequest,
  LinuxFileType,
  type Adb,
} from '@tango-v2/adb';
import {ReadableStream} from '@tango-v2/stream-extra';
import {decompress as fzstdDecompress} from 'fzstd';
import {decompress as lz4jsDecompress} from 'lz4js';

import {DEFAULT_FEATURES, type DeviceOptions} from '../src/device.ts';
import {AID} from '../src/fs.ts';
import {renderScreen} from '../src/screen.ts';
import {startDevice} from './connect.ts';

const started: Array<{close(): Promise<void>}> = [];
after(() => Promise.all(started.map((device) => device.close())));

async function connect(options?: DeviceOptions) {
  const device = await startDevice(options);
  started.push(device);
  return {device: device.device, adb: await device.connect()};
}

/** The features of an Android 8-era device: no `sendrecv_v2`, `stat_v2`, `ls_v2` (sync v1 only). */
const V1_FEATURES = DEFAULT_FEATURES.filter((feature) => !/^(sendrecv_v2|stat_v2|ls_v2)/.test(feature));

/** `size` bytes of a fixed pattern (not a repeating one, so misplaced chunks are noticed). */
function pattern(size: number): Uint8Array {
  const data = new Uint8Array(size);
  let x = 0x12345678;
  for (let i = 0; i < size; i += 1) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data[i] = x & 0xff;
  }
  return data;
}

function streamOf(data: Uint8Array, chunk = 10_000): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= data.length) {
        controller.close();
        return;
      }
      controller.enqueue(data.subarray(offset, offset + chunk));
      offset += chunk;
    },
  });
}

async function readAll(adb: Adb, path: string): Promise<{data: Uint8Array; chunks: number[]}> {
  const sync = await adb.sync();
  try {
    const chunks: Uint8Array[] = [];
    for await (const chunk of sync.read(path)) chunks.push(chunk);
    return {data: new Uint8Array(Buffer.concat(chunks)), chunks: chunks.map((chunk) => chunk.length)};
  } finally {
    await sync.dispose();
  }
}

for (const [version, features] of [
  ['v2', undefined],
  ['v1', V1_FEATURES],
] as const) {
  describe(`sync ${version}`, () => {
    test('a file over 64 KiB round-trips byte for byte, in 64 KiB DATA chunks', async () => {
      const {adb, device} = await connect({features});
      const data = pattern(200_000);
      const sync = await adb.sync();
      assert.equal(sync.supportsSendReceiveV2, version === 'v2');
      try {
        await sync.write({filename: '/data/local/tmp/large.bin', file: streamOf(data), permission: 0o644, mtime: 1_700_000_000});
      } finally {
        await sync.dispose();
      }
      const {data: back, chunks} = await readAll(adb, '/data/local/tmp/large.bin');
      assert.deepEqual(chunks, [65536, 65536, 65536, 3392]);
      assert.ok(Buffer.from(back).equals(Buffer.from(data)));
      // The device's file system holds the same bytes, with adbd's mode rule (user bits copied to group and others).
      const stat = device.fs.stat('/data/local/tmp/large.bin')!;
      assert.equal(stat.size, 200_000);
      assert.equal(stat.mode, 0o100666);
      assert.equal(stat.uid, AID.shell);
      assert.equal(stat.mtime, 1_700_000_000);
    });

    test('lstat reports what Android reports (the v1 request only mode, size and mtime)', async () => {
      const {adb} = await connect({features});
      const sync = await adb.sync();
      try {
        assert.equal(sync.supportsStat, version === 'v2');
        const link = await sync.lstat('/sdcard');
        assert.equal(link.type, LinuxFileType.Link);
        // A phone's image has its root links (`/sdcard`, `/bin`, `/etc`, `/d`) as `lrw-r--r--`
        // (0644, fs_config.cpp's default), which the device reports although Linux makes every
        // link 0777 on the host's disk.
        assert.equal(link.permission, 0o644);
        assert.equal(link.size, BigInt('/storage/self/primary'.length));
        const file = await sync.lstat('/sdcard/Download/report.pdf');
        assert.equal(file.type, LinuxFileType.File);
        assert.equal(file.permission, 0o660);
        assert.equal(file.mtime, BigInt(Date.UTC(2024, 1, 28, 10, 45, 33) / 1000));
        if (version === 'v2') {
          assert.equal(file.uid, AID.u0_a185);
          assert.equal(file.gid, AID.media_rw);
          const target = await sync.stat('/sdcard');
          assert.equal(target.type, LinuxFileType.Directory);
          assert.equal(target.permission, 0o2770);
          assert.equal(target.uid, AID.u0_a185);
          await assert.rejects(sync.lstat('/sdcard/missing.txt'), {message: 'ENOENT'});
          await assert.rejects(sync.stat('/data/data/com.whatsapp/files'), {message: 'EACCES'});
        } else {
          assert.equal(file.uid, undefined);
          await assert.rejects(sync.stat('/sdcard'), {message: 'Not supported'});
          await assert.rejects(sync.lstat('/sdcard/missing.txt'), {message: 'lstat error'});
        }
        assert.equal(await sync.isDirectory('/sdcard'), true);
        assert.equal(await sync.isDirectory('/sdcard/Download/report.pdf'), false);
      } finally {
        await sync.dispose();
      }
    });

    test('readdir lists ., .. and every entry with lstat metadata; unreadable directories list nothing', async () => {
      const {adb} = await connect({features});
      const sync = await adb.sync();
      try {
        const entries = await sync.readdir('/sdcard/DCIM/Camera');
        assert.deepEqual(
          entries.map((entry) => entry.name),
          ['.', '..', 'PXL_20240217_140351123.jpg', 'PXL_20240217_140409876.jpg', 'PXL_20240224_183002451.mp4'],
        );
        const photo = entries.find((entry) => entry.name === 'PXL_20240217_140351123.jpg')!;
        assert.equal(photo.size, 48_213n);
        assert.equal(photo.type, LinuxFileType.File);
        assert.equal(entries[0]!.type, LinuxFileType.Directory);
        const root = await sync.readdir('/');
        const sdcard = root.find((entry) => entry.name === 'sdcard')!;
        assert.equal(sdcard.type, LinuxFileType.Link);
        // adbd runs as shell: /data (0771 system:system) can't be read, so the listing is empty.
        assert.deepEqual(await sync.readdir('/data'), []);
        assert.deepEqual(await sync.readdir('/nonexistent'), []);
      } finally {
        await sync.dispose();
      }
    });

    test("a missing file's error text, and a failed upload's", async () => {
      const {adb} = await connect({features});
      await assert.rejects(readAll(adb, '/sdcard/nope.txt'), (error) => {
        assert.ok(error instanceof AdbSyncError);
        assert.equal(error.message, 'open failed: No such file or directory');
        return true;
      });
      await assert.rejects(readAll(adb, '/sdcard/Download'), {message: 'read failed: Is a directory'});
      await assert.rejects(readAll(adb, '/data/system/packages.xml'), {message: 'open failed: Permission denied'});
      const sync = await adb.sync();
      try {
        await assert.rejects(sync.write({filename: '/system/hello.txt', file: streamOf(pattern(100))}), {
          message: "couldn't create file: Read-only file system",
        });
      } finally {
        await sync.dispose();
      }
    });
  });
}

describe('sync', () => {
  test('an upload creates missing parent directories (mode 0775), and replaces an existing file', async () => {
    const {adb, device} = await connect();
    const sync = await adb.sync();
    try {
      await sync.write({filename: '/data/local/tmp/my-app/config/app.json', file: streamOf(new TextEncoder().encode('{"a":1}'))});
      await sync.write({filename: '/data/local/tmp/my-app/config/app.json', file: streamOf(new TextEncoder().encode('{"a":2}'))});
    } finally {
      await sync.dispose();
    }
    assert.equal(device.fs.stat('/data/local/tmp/my-app/config')!.mode, 0o40775);
    assert.equal(device.fs.readText('/data/local/tmp/my-app/config/app.json'), '{"a":2}');
  });

  test('a pushed mtime stays as pushed, even after the device started; a file the shell makes reads the device clock', async () => {
    const {adb, device} = await connect();
    const pushed = Math.floor(Date.now() / 1000) + 60;
    const sync = await adb.sync();
    try {
      await sync.write({filename: '/data/local/tmp/now.txt', file: streamOf(new TextEncoder().encode('now')), mtime: pushed});
      assert.equal((await sync.stat('/data/local/tmp/now.txt')).mtime, BigInt(pushed));
    } finally {
      await sync.dispose();
    }
    const clock = device.fs.nowSeconds();
    const shell = await adb.subprocess.shellProtocol!.spawnWaitText(
      'cd /data/local/tmp && touch made.txt && stat -c "%Y %Z" now.txt made.txt',
    );
    assert.equal(shell.stdout, `${pushed} ${clock}\n${clock} ${clock}\n`);
  });

  test("directories on /data and shared storage have f2fs's inline size, 3452; ext4's 4096 on / and /system; tmpfs's own on /storage", async () => {
    const {adb} = await connect();
    const sync = await adb.sync();
    try {
      assert.equal((await sync.stat('/sdcard/Download')).size, 3452n);
      assert.equal((await sync.stat('/data/local/tmp')).size, 3452n);
      assert.equal((await sync.stat('/system')).size, 4096n);
      assert.equal((await sync.stat('/metadata')).size, 4096n);
      // tmpfs: 40 bytes and 20 an entry (emulated, self), as on the phone.
      assert.equal((await sync.stat('/storage')).size, 80n);
    } finally {
      await sync.dispose();
    }
    const shell = await adb.subprocess.shellProtocol!.spawnWaitText(
      'stat -c "%s %b %n" /sdcard/Download /data/local/tmp /system /metadata /storage; cd /sdcard && stat -c %s Music',
    );
    assert.equal(shell.stdout, '3452 0 /sdcard/Download\n3452 0 /data/local/tmp\n4096 8 /system\n4096 8 /metadata\n80 0 /storage\n3452\n');
  });

  test('files pushed to shared storage take the FUSE owner and mode', async () => {
    const {adb, device} = await connect();
    const sync = await adb.sync();
    try {
      await sync.write({filename: '/sdcard/Download/notes.txt', file: streamOf(new TextEncoder().encode('hello')), permission: 0o755});
      const stat = await sync.stat('/sdcard/Download/notes.txt');
      assert.equal(stat.permission, 0o660);
      assert.equal(stat.uid, AID.u0_a185);
    } finally {
      await sync.dispose();
    }
    assert.equal(device.fs.readText('/storage/emulated/0/Download/notes.txt'), 'hello');
  });

  test('/system/build.prop (0600 root) shows the device properties to root, not to shell', async () => {
    const shell = await connect();
    await assert.rejects(readAll(shell.adb, '/system/build.prop'), {message: 'open failed: Permission denied'});
    const {adb} = await connect({properties: {'ro.product.model': 'Pixel 7 Pro', 'service.adb.root': '1'}});
    const {data} = await readAll(adb, '/system/build.prop');
    const text = new TextDecoder().decode(data);
    assert.match(text, /^ro\.product\.model=Pixel 7 Pro$/m);
    assert.match(text, /^ro\.build\.version\.sdk=34$/m);
  });
});

/** The text of the compressed fixtures: `seq -f '%g: lz4 and zstd uploads' 1 5000`, 133,893 bytes. */
const UPLOAD_TEXT = new TextEncoder().encode(Array.from({length: 5000}, (_, i) => `${i + 1}: lz4 and zstd uploads\n`).join(''));

function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
}

/** `RCV2`, which the library's `AdbSyncRequestId` leaves out (adbd `file_sync_protocol.h` `ID_RECV_V2`). */
const ID_RECV_V2 = adbSyncEncodeId('RCV2');

/** Runs `body` on a fresh `sync:` stream, locked as the library's `AdbSync` locks it. */
async function withSync<T>(adb: Adb, body: (locked: Awaited<ReturnType<AdbSyncSocket['lock']>>) => Promise<T>): Promise<T> {
  const socket = new AdbSyncSocket(await adb.createSocket('sync:'), adb.maxPayloadSize);
  const locked = await socket.lock();
  try {
    return await body(locked);
  } finally {
    locked.release();
    await socket.close().catch(() => undefined);
  }
}

/**
 * `SND2` with `flags`: `stream` in `DATA` packets of `packet` bytes (cut anywhere, as a host may),
 * then `DONE` with the mtime. Resolves on `OKAY`, rejects with the `FAIL` text.
 */
function sendV2(adb: Adb, path: string, stream: Uint8Array, flags: number, packet = 65536): Promise<void> {
  return withSync(adb, async (locked) => {
    await adbSyncWriteRequest(locked, AdbSyncRequestId.SendV2, path);
    await locked.write(AdbSyncSendV2Request.serialize({id: AdbSyncRequestId.SendV2, mode: 0o100644, flags}));
    for (let offset = 0; offset < stream.length; offset += packet) {
      await adbSyncWriteRequest(locked, AdbSyncRequestId.Data, stream.subarray(offset, offset + packet));
    }
    await adbSyncWriteRequest(locked, AdbSyncRequestId.Done, 1_700_000_000);
    await locked.flush();
    await adbSyncReadResponse(locked, AdbSyncResponseId.Ok, AdbSyncOkResponse);
  });
}

/** `RCV2` with `flags`: resolves with the stream the device sent and the size of each `DATA` packet. */
function receiveV2(adb: Adb, path: string, flags: number): Promise<{stream: Uint8Array; packets: number[]}> {
  return withSync(adb, async (locked) => {
    await adbSyncWriteRequest(locked, ID_RECV_V2, path);
    await locked.write(AdbSyncNumberRequest.serialize({id: ID_RECV_V2, arg: flags}));
    await locked.flush();
    const packets: Uint8Array[] = [];
    for await (const {data} of adbSyncReadResponses(locked, AdbSyncResponseId.Data, AdbSyncDataResponse)) packets.push(data);
    return {stream: new Uint8Array(Buffer.concat(packets)), packets: packets.map((packet) => packet.length)};
  });
}

/** `data` decoded by the `lz4` or `zstd` command (liblz4, libzstd: what adb links), or `undefined` when it isn't installed. */
function referenceDecode(tool: 'lz4' | 'zstd', data: Uint8Array): Uint8Array | undefined {
  try {
    return new Uint8Array(execFileSync(tool, ['-d', '-c', '-q'], {input: data, maxBuffer: 64 << 20}));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function sameBytes(actual: Uint8Array, expected: Uint8Array): boolean {
  return Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength).equals(
    Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength),
  );
}

describe('sync v2 compression (SND2/RCV2 with the Brotli, LZ4 and Zstandard flags)', () => {
  test('the banner announces every compression adbd 14 has', async () => {
    const {adb} = await connect();
    for (const feature of ['sendrecv_v2_brotli', 'sendrecv_v2_lz4', 'sendrecv_v2_zstd']) {
      assert.ok(adb.banner.features.includes(feature as never), feature);
    }
  });

  for (const [name, flag, file] of [
    ['LZ4', AdbSyncSendV2Flags.Lz4, 'sync-upload.txt.lz4'],
    ['Zstandard', AdbSyncSendV2Flags.Zstd, 'sync-upload.txt.zst'],
  ] as const) {
    test(`SND2 with the ${name} flag stores what liblz4/libzstd compressed, decompressed`, async () => {
      const {adb, device} = await connect();
      const path = `/data/local/tmp/upload-${name}.txt`;
      // Packets of 1000 bytes: the device joins them whatever the block boundaries.
      await sendV2(adb, path, fixture(file), flag, 1000);
      assert.ok(sameBytes(device.fs.readFile(path), UPLOAD_TEXT));
      const stat = device.fs.stat(path)!;
      assert.equal(stat.mode, 0o100666);
      assert.equal(stat.mtime, 1_700_000_000);
      // A dry run decodes the same stream and writes nothing.
      await sendV2(adb, `${path}.dry`, fixture(file), flag | AdbSyncSendV2Flags.DryRun);
      assert.equal(device.fs.lstat(`${path}.dry`), undefined);
    });
  }

  test('a stream that does not decode fails with adbd\'s "decompress failed" and leaves no file', async () => {
    const {adb, device} = await connect();
    const lz4 = fixture('sync-upload.txt.lz4');
    const zstd = fixture('sync-upload.txt.zst');
    const badChecksum = lz4.slice();
    badChecksum[6] ^= 0xff; // the frame header's checksum byte
    for (const [label, stream, flag] of [
      ['truncated LZ4', lz4.subarray(0, lz4.length - 10), AdbSyncSendV2Flags.Lz4],
      ['LZ4 header checksum', badChecksum, AdbSyncSendV2Flags.Lz4],
      ['truncated Zstandard', zstd.subarray(0, zstd.length - 10), AdbSyncSendV2Flags.Zstd],
      ['Zstandard sent as LZ4', zstd, AdbSyncSendV2Flags.Lz4],
      ['LZ4 sent as Zstandard', lz4, AdbSyncSendV2Flags.Zstd],
    ] as const) {
      await assert.rejects(sendV2(adb, '/data/local/tmp/bad.txt', stream, flag), {message: 'decompress failed'}, label);
      assert.equal(device.fs.lstat('/data/local/tmp/bad.txt'), undefined, label);
    }
    await assert.rejects(sendV2(adb, '/data/local/tmp/bad.txt', lz4, AdbSyncSendV2Flags.Lz4 | AdbSyncSendV2Flags.Zstd), {
      message: 'multiple compression flags received: 6',
    });
  });

  test("RCV2 with the LZ4 flag answers liblz4's default frame in 64 KiB DATA packets", async () => {
    const {adb, device} = await connect();
    device.fs.writeFile('/data/local/tmp/upload.txt', UPLOAD_TEXT, {mode: 0o644});
    const text = await receiveV2(adb, '/data/local/tmp/upload.txt', AdbSyncSendV2Flags.Lz4);
    // Version 1, linked blocks, 64 KiB blocks, no checksums: what LZ4F_compressBegin writes with no preferences.
    assert.deepEqual([...text.stream.subarray(0, 7)], [0x04, 0x22, 0x4d, 0x18, 0x40, 0x40, 0xc0]);
    assert.ok(text.stream.length < UPLOAD_TEXT.length / 4, `${text.stream.length} bytes`);
    assert.ok(sameBytes(lz4jsDecompress(text.stream), UPLOAD_TEXT));
    const reference = referenceDecode('lz4', text.stream);
    if (reference) assert.ok(sameBytes(reference, UPLOAD_TEXT));

    // 128 KiB that don't compress: two stored blocks, sent as 64 KiB, 64 KiB and the rest.
    const video = '/sdcard/DCIM/Camera/PXL_20240224_183002451.mp4';
    const {stream, packets} = await receiveV2(adb, video, AdbSyncSendV2Flags.Lz4);
    assert.deepEqual(packets, [65536, 65536, 7 + 2 * (4 + 65536) + 4 - 2 * 65536]);
    assert.ok(sameBytes(lz4jsDecompress(stream), device.fs.readFile(video)));
  });

  test('RCV2 with the Zstandard flag answers one frame (Raw blocks) in 64 KiB DATA packets', async () => {
    const {adb, device} = await connect();
    device.fs.writeFile('/data/local/tmp/upload.txt', UPLOAD_TEXT, {mode: 0o644});
    for (const path of ['/data/local/tmp/upload.txt', '/sdcard/DCIM/Camera/PXL_20240224_183002451.mp4']) {
      const original = device.fs.readFile(path);
      const {stream, packets} = await receiveV2(adb, path, AdbSyncSendV2Flags.Zstd);
      // No content size, no checksum, a 512 KiB window: libzstd's streaming header at level 1.
      assert.deepEqual([...stream.subarray(0, 6)], [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x48]);
      assert.ok(packets.slice(0, -1).every((size) => size === 65536) && packets.at(-1)! <= 65536, String(packets));
      assert.ok(sameBytes(fzstdDecompress(stream), original));
      const reference = referenceDecode('zstd', stream);
      if (reference) assert.ok(sameBytes(reference, original));
    }
    // An empty file: the frame libzstd ends at once (single segment, content size 0, one empty last block).
    device.fs.writeFile('/data/local/tmp/empty.txt', new Uint8Array(0), {mode: 0o644});
    const empty = await receiveV2(adb, '/data/local/tmp/empty.txt', AdbSyncSendV2Flags.Zstd);
    assert.deepEqual([...empty.stream], [0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00]);
    assert.equal(fzstdDecompress(empty.stream).length, 0);
  });

  test('Brotli both ways: SND2 decodes what node:zlib compressed, RCV2 answers a stream it decodes', async () => {
    const {adb, device} = await connect();
    await sendV2(adb, '/data/local/tmp/brotli.txt', new Uint8Array(brotliCompressSync(UPLOAD_TEXT)), AdbSyncSendV2Flags.Brotli);
    assert.ok(sameBytes(device.fs.readFile('/data/local/tmp/brotli.txt'), UPLOAD_TEXT));
    const {stream} = await receiveV2(adb, '/data/local/tmp/brotli.txt', AdbSyncSendV2Flags.Brotli);
    assert.ok(stream.length < UPLOAD_TEXT.length / 4);
    assert.ok(sameBytes(new Uint8Array(brotliDecompressSync(stream)), UPLOAD_TEXT));
  });
});

describe('framebuffer:', () => {
  test('answers version 2 RGBA_8888 at the display size, with the rendered screen', async () => {
    const {adb} = await connect();
    const frame = await adb.framebuffer();
    assert.equal(frame.bpp, 32);
    assert.equal(frame.width, 1080);
    assert.equal(frame.height, 2400);
    assert.ok('colorSpace' in frame && frame.colorSpace === 1);
    assert.deepEqual([frame.red_offset, frame.green_offset, frame.blue_offset, frame.alpha_offset, frame.alpha_length], [0, 8, 16, 24, 8]);
    assert.equal(frame.data.length, 1080 * 2400 * 4);
    assert.ok(Buffer.from(frame.data).equals(Buffer.from(renderScreen(1080, 2400).pixels)));
  });
});
