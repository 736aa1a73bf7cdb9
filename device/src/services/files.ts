/**
 * The `sync:` service (file transfer: `STAT`/`LST2`/`STA2`, `LIST`/`LIS2`, `RECV`/`RCV2`,
 * `SEND`/`SND2`, `QUIT`) and the `framebuffer:` service (a raw screenshot), over the device's
 * in-memory file system and screen.
 *
 * Facts, from LineageOS/android_packages_modules_adb: `file_sync_protocol.h` (ids, structs, flags,
 * `SYNC_DATA_MAX` 64 KiB) and `daemon/file_sync_service.cpp` (a request is an id and a path of at
 * most 1024 bytes; `STAT` answers zeros when `lstat` fails; `LST2`/`STA2` answer the errno; a
 * listing skips (v1) or reports (v2) entries it can't `lstat` and always ends with `DONE`;
 * `SEND` takes `path,mode` with the mode parsed by `strtoul(…, 0)`; user permission bits are copied
 * to group and others; missing parents are created with mode 0775; after a `FAIL` the rest of the
 * upload is read and dropped and the service ends; `DONE` of an upload carries the mtime; texts
 * "open failed: …", "read failed: …", "couldn't create file: …", "secure_mkdirs() failed: …",
 * "unknown flags: …", "path too long", "unknown command …"), `daemon/framebuffer_service.cpp`
 * (header version 2, RGBA_8888 offsets).
 *
 * Compressed transfers (`SND2`/`RCV2` with the Brotli, LZ4 or Zstandard flag, which adbd 14
 * announces as `sendrecv_v2_brotli`, `sendrecv_v2_lz4` and `sendrecv_v2_zstd`) are decoded and
 * encoded in `sync-compression.ts`.
 *
 * Byte layouts are the library's own structs (`@yume-chan/adb` 2.0.1: `AdbSyncNumberRequest`,
 * `AdbSyncLstatResponse`, `AdbSyncStatResponse`, `AdbSyncEntryResponse`, `AdbSyncEntry2Response`,
 * `AdbSyncSendV2Request`, `AdbSyncFailResponse`, `AdbFrameBufferV2`).
 */
import {
  AdbFrameBufferV2,
  AdbSyncEntry2Response,
  AdbSyncEntryResponse,
  AdbSyncFailResponse,
  AdbSyncLstatResponse,
  AdbSyncNumberRequest,
  AdbSyncRequestId,
  AdbSyncResponseId,
  AdbSyncSendV2Request,
  AdbSyncStatResponse,
  adbSyncEncodeId,
} from '@tango-v2/adb';
import {ExactReadableEndedError} from '@tango-v2/struct';

import {adbdCredentials, dirname, FsError, type Credentials, type FileStat, type DeviceFileSystem} from '../fs.ts';
import type {DeviceSocket, Device, ServiceHandler} from '../types.ts';
import {renderScreen} from '../screen.ts';
import {displaySize} from '../framework/state.ts';
import {ByteReader} from '../byte-reader.ts';
import {compressDownload, decompressUpload, SyncDecompressError, type SyncCompression} from './sync-compression.ts';

/** Largest `DATA` payload adbd sends or accepts (`SYNC_DATA_MAX`). */
export const SYNC_DATA_MAX = 64 * 1024;
/** Longest path a sync request may carry. */
export const SYNC_MAX_PATH = 1024;

/** Ids adbd knows that the library's `AdbSyncRequestId`/`AdbSyncResponseId` tables leave out. */
const ID_RECV_V2 = adbSyncEncodeId('RCV2');
const ID_QUIT = adbSyncEncodeId('QUIT');

/** `kSyncFlag*` of `file_sync_protocol.h`. */
const SyncFlag = {Brotli: 1, Lz4: 2, Zstd: 4, DryRun: 0x80000000} as const;

/** Collects response bytes and writes them to the socket in large pieces, as adbd's writes get coalesced. */
class SyncWriter {
  readonly #socket: DeviceSocket;
  #parts: Uint8Array[] = [];
  #size = 0;

  constructor(socket: DeviceSocket) {
    this.#socket = socket;
  }

  async push(...parts: Uint8Array[]): Promise<void> {
    for (const part of parts) {
      this.#parts.push(part);
      this.#size += part.length;
    }
    if (this.#size >= 256 * 1024) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.#size === 0) return;
    const out = new Uint8Array(this.#size);
    let offset = 0;
    for (const part of this.#parts) {
      out.set(part, offset);
      offset += part.length;
    }
    this.#parts = [];
    this.#size = 0;
    await this.#socket.write(out);
  }
}

function u32le(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value >>> 0, true);
  return out;
}

/** An id alone, or an id followed by a `u32` (`DATA` header, `DONE`, `OKAY`). */
function idAndNumber(id: number, arg: number): Uint8Array {
  return AdbSyncNumberRequest.serialize({id, arg});
}

/** `FAIL` followed by the length-prefixed message. */
function failMessage(message: string): Uint8Array[] {
  return [u32le(AdbSyncResponseId.Fail), AdbSyncFailResponse.serialize({message})];
}

/** The `struct stat` fields of a `sync_stat_v2`/`sync_dent_v2` (`error` 0), or all zeros with the errno. */
function statV2(stat: FileStat | undefined, error = 0) {
  return {
    error: error as 0,
    dev: BigInt(stat?.dev ?? 0),
    ino: BigInt(stat?.ino ?? 0),
    mode: stat?.mode ?? 0,
    nlink: stat?.nlink ?? 0,
    uid: stat?.uid ?? 0,
    gid: stat?.gid ?? 0,
    size: BigInt(stat?.size ?? 0),
    atime: BigInt(stat?.atime ?? 0),
    mtime: BigInt(stat?.mtime ?? 0),
    ctime: BigInt(stat?.ctime ?? 0),
  };
}

function errnoOf(error: unknown): number {
  if (error instanceof FsError) return error.errno;
  throw error;
}

/** `strtoul(text, nullptr, 0)`: leading `0x` hex, leading `0` octal, else decimal; stops at the first bad digit. */
function strtoul(text: string): number {
  const trimmed = text.trimStart();
  let match: RegExpExecArray | null;
  if ((match = /^0[xX]([0-9a-fA-F]+)/.exec(trimmed))) return parseInt(match[1]!, 16) >>> 0;
  if ((match = /^0([0-7]*)/.exec(trimmed))) return match[1] ? parseInt(match[1], 8) >>> 0 : 0;
  if ((match = /^\+?(\d+)/.exec(trimmed))) return Number(match[1]) >>> 0;
  return 0;
}

function compressionOf(flags: number): SyncCompression | string {
  const chosen: SyncCompression[] = [];
  if (flags & SyncFlag.Brotli) chosen.push('brotli');
  if (flags & SyncFlag.Lz4) chosen.push('lz4');
  if (flags & SyncFlag.Zstd) chosen.push('zstd');
  if (chosen.length > 1) return `multiple compression flags received: ${flags | 0}`;
  return chosen[0] ?? 'none';
}

/** One sync session: the loop of `handle_sync_command` of adbd. */
class SyncSession {
  readonly #fs: DeviceFileSystem;
  readonly #cred: Credentials;
  readonly #reader: ByteReader;
  readonly #writer: SyncWriter;

  constructor(device: Device, socket: DeviceSocket) {
    this.#fs = device.fs;
    this.#cred = adbdCredentials(device.properties);
    this.#reader = new ByteReader(socket);
    this.#writer = new SyncWriter(socket);
  }

  /** Serves requests until the host quits, closes, or a request fails. */
  async run(): Promise<void> {
    try {
      while (await this.#handle()) {
        // next request
      }
    } catch (error) {
      if (!isClosed(error)) throw error;
    } finally {
      await this.#writer.flush().catch(() => undefined);
    }
  }

  async #fail(message: string): Promise<false> {
    await this.#writer.push(...failMessage(message));
    return false;
  }

  async #handle(): Promise<boolean> {
    await this.#writer.flush();
    const {id, arg: length} = await AdbSyncNumberRequest.deserialize(this.#reader);
    if (length > SYNC_MAX_PATH) return this.#fail('path too long');
    const path = new TextDecoder().decode(await this.#reader.readExactly(length));
    switch (id) {
      case AdbSyncRequestId.Lstat:
        await this.#lstatV1(path);
        return true;
      case AdbSyncRequestId.LstatV2:
      case AdbSyncRequestId.Stat:
        await this.#statV2(id, path);
        return true;
      case AdbSyncRequestId.List:
        await this.#list(path, false);
        return true;
      case AdbSyncRequestId.ListV2:
        await this.#list(path, true);
        return true;
      case AdbSyncRequestId.Send: {
        const comma = path.lastIndexOf(',');
        if (comma === -1) return this.#fail('missing , in ID_SEND_V1');
        return this.#send(path.substring(0, comma), strtoul(path.substring(comma + 1)), 'none', false);
      }
      case AdbSyncRequestId.SendV2: {
        const setup = await AdbSyncSendV2Request.deserialize(this.#reader);
        let flags = setup.flags >>> 0;
        const compression = compressionOf(flags);
        if (!['none', 'brotli', 'lz4', 'zstd'].includes(compression)) return this.#fail(compression);
        flags &= ~(SyncFlag.Brotli | SyncFlag.Lz4 | SyncFlag.Zstd);
        const dryRun = (flags & SyncFlag.DryRun) !== 0;
        flags = (flags & ~SyncFlag.DryRun) >>> 0;
        if (flags) return this.#fail(`unknown flags: ${flags | 0}`);
        return this.#send(path, setup.mode, compression as SyncCompression, dryRun);
      }
      case AdbSyncRequestId.Receive:
        return this.#receive(path, 'none');
      case ID_RECV_V2: {
        const setup = await AdbSyncNumberRequest.deserialize(this.#reader);
        const flags = setup.arg >>> 0;
        const compression = compressionOf(flags);
        if (!['none', 'brotli', 'lz4', 'zstd'].includes(compression)) return this.#fail(compression);
        const unknown = flags & ~(SyncFlag.Brotli | SyncFlag.Lz4 | SyncFlag.Zstd);
        if (unknown) return this.#fail(`unknown flags: ${unknown | 0}`);
        return this.#receive(path, compression as SyncCompression);
      }
      case ID_QUIT:
        return false;
      default:
        return this.#fail(`unknown command ${(id >>> 0).toString(16).padStart(8, '0')}`);
    }
  }

  /** `STAT`: `lstat`'s mode, size and mtime (32 bits each), all zero when it fails. */
  async #lstatV1(path: string): Promise<void> {
    let stat: FileStat | undefined;
    try {
      stat = this.#fs.statOrThrow(path, {follow: false, cred: this.#cred});
    } catch (error) {
      errnoOf(error);
    }
    await this.#writer.push(
      u32le(AdbSyncResponseId.Lstat),
      AdbSyncLstatResponse.serialize({mode: stat?.mode ?? 0, size: (stat?.size ?? 0) >>> 0, mtime: (stat?.mtime ?? 0) >>> 0}),
    );
  }

  /** `LST2` (no link following) and `STA2` (following): the full `struct stat` or the errno. */
  async #statV2(id: number, path: string): Promise<void> {
    let stat: FileStat | undefined;
    let error = 0;
    try {
      stat = this.#fs.statOrThrow(path, {follow: id === AdbSyncRequestId.Stat, cred: this.#cred});
    } catch (caught) {
      error = errnoOf(caught);
    }
    await this.#writer.push(u32le(id), AdbSyncStatResponse.serialize(statV2(stat, error)));
  }

  /** `LIST`/`LIS2`: `.`, `..` and every name, each `lstat`ed; a directory that can't be opened lists nothing. */
  async #list(path: string, v2: boolean): Promise<void> {
    let names: string[] = [];
    try {
      names = ['.', '..', ...this.#fs.readdir(path, {cred: this.#cred})];
    } catch (error) {
      errnoOf(error);
    }
    for (const name of names) {
      let stat: FileStat | undefined;
      let error = 0;
      try {
        stat = this.#fs.statOrThrow(`${path}/${name}`, {follow: false, cred: this.#cred});
      } catch (caught) {
        error = errnoOf(caught);
      }
      if (v2) {
        await this.#writer.push(u32le(AdbSyncResponseId.Entry2), AdbSyncEntry2Response.serialize({...statV2(stat, error), name}));
      } else if (stat) {
        await this.#writer.push(
          u32le(AdbSyncResponseId.Entry),
          AdbSyncEntryResponse.serialize({mode: stat.mode, size: stat.size >>> 0, mtime: stat.mtime >>> 0, name}),
        );
      }
    }
    // `DONE` padded to the size of an entry (`sync_dent_v1`/`sync_dent_v2` without the id).
    const size = v2 ? AdbSyncEntry2Response.size : AdbSyncEntryResponse.size;
    await this.#writer.push(u32le(AdbSyncResponseId.Done), new Uint8Array(size));
  }

  /** Reads `DATA` packets until `DONE`: resolves with the data and the `DONE` argument (the mtime), or a failure text. */
  async #readUpload(): Promise<{chunks: Uint8Array[]; mtime: number} | {error: string}> {
    const chunks: Uint8Array[] = [];
    while (true) {
      const {id, arg} = await AdbSyncNumberRequest.deserialize(this.#reader);
      if (id === AdbSyncRequestId.Done) return {chunks, mtime: arg};
      if (id !== AdbSyncRequestId.Data) return {error: 'invalid data message'};
      chunks.push(await this.#reader.readExactly(arg));
    }
  }

  /** After a failure: reads and drops `DATA` packets up to `DONE`, as adbd does, then ends the session. */
  async #drain(): Promise<false> {
    while (true) {
      const {id, arg} = await AdbSyncNumberRequest.deserialize(this.#reader);
      if (id !== AdbSyncRequestId.Data || arg > SYNC_DATA_MAX) return false;
      await this.#reader.readExactly(arg);
    }
  }

  async #send(path: string, mode: number, compression: SyncCompression, dryRun: boolean): Promise<boolean> {
    const fs = this.#fs;
    const cred = this.#cred;
    if ((mode & 0o170000) === 0o120000) return this.#sendLink(path, dryRun);

    // Copy the user permission bits to group and others.
    let permission = mode & 0o777;
    permission |= (permission >> 3) & 0o070;
    permission |= (permission >> 3) & 0o007;

    if (!dryRun) {
      const existing = fs.lstat(path);
      try {
        if (existing && existing.type !== 'directory') fs.remove(path, {cred, directory: false});
      } catch {
        // adbd ignores a failed unlink; the open below reports the problem.
      }
      try {
        this.#create(path, permission);
      } catch (error) {
        if (!(error instanceof FsError)) throw error;
        await this.#writer.push(
          ...failMessage(
            error.syscall === 'mkdir' ? `secure_mkdirs() failed: ${error.description}` : `couldn't create file: ${error.description}`,
          ),
        );
        await this.#writer.flush();
        return this.#drain();
      }
    }

    const upload = await this.#readUpload();
    if ('error' in upload) {
      if (!dryRun) fs.remove(path, {cred: undefined});
      return this.#fail(upload.error);
    }
    let data: Uint8Array;
    try {
      data = decompressUpload(Buffer.concat(upload.chunks), compression);
    } catch (error) {
      if (!(error instanceof SyncDecompressError)) throw error;
      // adbd's `handle_send_file_data`: "decompress failed", the file unlinked, the session over.
      if (!dryRun) fs.remove(path);
      return this.#fail('decompress failed');
    }
    if (!dryRun) {
      fs.writeFile(path, data, {mtime: upload.mtime});
      fs.utimes(path, upload.mtime, upload.mtime, {follow: false});
    }
    await this.#writer.push(idAndNumber(AdbSyncResponseId.Ok, 0));
    return true;
  }

  /** Creates the empty file, making missing parents first (`secure_mkdirs`, mode 0775). */
  #create(path: string, permission: number): void {
    const fs = this.#fs;
    const cred = this.#cred;
    try {
      fs.writeFile(path, new Uint8Array(0), {cred, mode: permission});
    } catch (error) {
      if (!(error instanceof FsError) || error.code !== 'ENOENT') throw error;
      fs.mkdir(dirname(path), {recursive: true, cred, mode: 0o775});
      fs.writeFile(path, new Uint8Array(0), {cred, mode: permission});
    }
  }

  /** A symbolic link upload: one `DATA` with the target (NUL-terminated), then `DONE`. */
  async #sendLink(path: string, dryRun: boolean): Promise<boolean> {
    const {id, arg} = await AdbSyncNumberRequest.deserialize(this.#reader);
    if (id !== AdbSyncRequestId.Data) return this.#fail('invalid data message: expected ID_DATA');
    if (arg > SYNC_DATA_MAX) return this.#fail('oversize data message');
    const raw = await this.#reader.readExactly(arg);
    const end = raw.indexOf(0);
    const target = new TextDecoder().decode(end === -1 ? raw : raw.subarray(0, end));
    if (!dryRun) {
      const fs = this.#fs;
      let current: string | undefined;
      try {
        current = fs.readlink(path);
      } catch {
        current = undefined;
      }
      if (current !== target) {
        try {
          if (fs.lstat(path)) fs.remove(path, {cred: this.#cred});
          try {
            fs.symlink(target, path, {cred: this.#cred});
          } catch (error) {
            if (!(error instanceof FsError) || error.code !== 'ENOENT') throw error;
            try {
              fs.mkdir(dirname(path), {recursive: true, cred: this.#cred});
            } catch (inner) {
              if (inner instanceof FsError) return this.#fail(`secure_mkdirs failed: ${inner.description}`);
              throw inner;
            }
            fs.symlink(target, path, {cred: this.#cred});
          }
        } catch (error) {
          if (error instanceof FsError) return this.#fail(`symlink failed: ${error.description}`);
          throw error;
        }
      }
    }
    const done = await AdbSyncNumberRequest.deserialize(this.#reader);
    if (done.id !== AdbSyncRequestId.Done) return this.#fail('invalid data message: expected ID_DONE');
    if (!dryRun) this.#fs.utimes(path, done.arg, done.arg, {follow: false});
    await this.#writer.push(idAndNumber(AdbSyncResponseId.Ok, 0));
    return true;
  }

  /** `RECV`/`RCV2`: the file in `DATA` packets of at most 64 KiB, then `DONE`. */
  async #receive(path: string, compression: SyncCompression): Promise<boolean> {
    let data: Uint8Array;
    try {
      const stat = this.#fs.statOrThrow(path, {cred: this.#cred});
      if (!this.#fs.access(path, 'r', {cred: this.#cred})) throw new FsError('EACCES', 'open', path);
      if (stat.type === 'directory') return this.#fail('read failed: Is a directory');
      data = this.#fs.readFile(path, {cred: this.#cred});
    } catch (error) {
      if (error instanceof FsError) return this.#fail(`open failed: ${error.description}`);
      throw error;
    }
    const encoded = compressDownload(data, compression);
    for (let offset = 0; offset < encoded.length; offset += SYNC_DATA_MAX) {
      const chunk = encoded.subarray(offset, Math.min(encoded.length, offset + SYNC_DATA_MAX));
      await this.#writer.push(idAndNumber(AdbSyncResponseId.Data, chunk.length), chunk);
    }
    await this.#writer.push(idAndNumber(AdbSyncResponseId.Done, 0));
    return true;
  }
}

/** Whether `error` only means the host went away (the stream closed, or ended inside/between requests). */
function isClosed(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'SocketClosedError' ||
    error instanceof ExactReadableEndedError ||
    // The library's `StructEmptyError`/`StructNotEnoughDataError`, matched by name whichever copy of `@yume-chan/struct` threw them.
    /^Struct(Empty|NotEnoughData)Error$/.test(error.constructor.name) ||
    /closed/i.test(error.message)
  );
}

/**
 * `sync:`: file transfer. Serves requests until the host sends `QUIT`, closes the stream, or a
 * request fails (adbd then sends `FAIL` and closes). Acts with adbd's credentials (`shell`, or
 * `root` when `service.adb.root` is `1`).
 */
export const syncService: ServiceHandler = {
  open(service, transport) {
    if (service !== 'sync:') return undefined;
    return async (socket) => {
      try {
        await new SyncSession(transport.device, socket).run();
      } finally {
        socket.close();
      }
    };
  },
};

/**
 * `framebuffer:`: one screenshot. Writes the version (2) and the `fbinfo` header of
 * `framebuffer_service.cpp` (32 bpp RGBA_8888, color space 1 = sRGB as `screencap` reports it),
 * then `width * height * 4` bytes of pixels, and closes. The size is the display's (`wm size`).
 */
export const framebufferService: ServiceHandler = {
  open(service, transport) {
    if (service !== 'framebuffer:') return undefined;
    return async (socket) => {
      try {
        const {width, height} = displaySize(transport.device);
        const frame = renderScreen(width, height);
        const header = AdbFrameBufferV2.serialize({
          bpp: 32,
          colorSpace: 1,
          width,
          height,
          red_offset: 0,
          red_length: 8,
          blue_offset: 16,
          blue_length: 8,
          green_offset: 8,
          green_length: 8,
          alpha_offset: 24,
          alpha_length: 8,
          data: frame.pixels,
        });
        await socket.write(Buffer.concat([u32le(2), header]));
      } catch (error) {
        if (!isClosed(error)) throw error;
      } finally {
        socket.close();
      }
    };
  },
};
