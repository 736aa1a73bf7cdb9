/**
 * The `sync:` and `framebuffer:` services of the simulated device, driven by the real library
 * (`@yume-chan/adb` 2.0.1 `AdbSync`, `Adb#framebuffer`), through sync v2 (the default features) and
 * v1 (a device without `sendrecv_v2`, `stat_v2` and `ls_v2`).
 */
import assert from 'node:assert/strict';
import {after, describe, test} from 'node:test';

import {AdbSyncError, LinuxFileType, type Adb} from '@tango-v2/adb';
import {ReadableStream} from '@tango-v2/stream-extra';

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
