/**
 * The simulated device's file system: the device's tree as directories and files on the host's
 * disk (`rootfs.ts` lays them out: a Pixel 7 on Android 14 as the `shell` user sees it), which the
 * sandbox's programs (mksh, toybox) use directly and the device's services (sync, the package
 * manager) through `DeviceFileSystem`, with the same owners, modes and errors.
 *
 * Facts:
 * - Names of uids/gids: `system/core/libcutils/include/private/android_filesystem_config.h`.
 * - MediaProvider's FUSE daemon (Android 11 and later) decides access to `/storage/emulated/0`
 *   rather than the mode bits, and owns what it creates there.
 * - Error texts: bionic's `strerror` (`bionic/libc/private/bionic_errdefs.h`).
 */
import {
  chmodSync,
  chownSync,
  lchownSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import {join} from 'node:path';

/** The kind of a file system entry. */
export type FileType = 'file' | 'directory' | 'symlink';

/** `S_IFMT` type bits of `st_mode` (Linux `include/uapi/linux/stat.h`). */
export const S_IFMT = 0o170000;
/** `S_IFDIR`: a directory. */
export const S_IFDIR = 0o040000;
/** `S_IFREG`: a regular file. */
export const S_IFREG = 0o100000;
/** `S_IFLNK`: a symbolic link. */
export const S_IFLNK = 0o120000;

/**
 * What `stat`/`lstat` report about an entry, as Linux `struct stat` has it. `mode` is the whole
 * `st_mode` (type bits and permission bits, `0o100644` for a `-rw-r--r--` file); times are in
 * whole seconds since the epoch.
 */
export interface FileStat {
  type: FileType;
  /** `st_mode`: type bits (`S_IFDIR`, `S_IFREG`, `S_IFLNK`) or'ed with `permission`. */
  mode: number;
  /** Permission bits, including set-uid/set-gid/sticky (`0o7777` at most). */
  permission: number;
  /** Bytes: a file's length, a symbolic link's target length, a directory's block size (3452 on f2fs, 4096 elsewhere). */
  size: number;
  uid: number;
  gid: number;
  /** Seconds since the epoch. */
  atime: number;
  /** Seconds since the epoch. */
  mtime: number;
  /** Seconds since the epoch. */
  ctime: number;
  ino: number;
  dev: number;
  nlink: number;
}

/** Whose access is checked: `SHELL` is what adbd and its children run as on a user build, `ROOT` after `adb root`. */
export interface Credentials {
  uid: number;
  gid: number;
  /** Supplementary groups. */
  groups: readonly number[];
}

/** Android's well-known ids (`android_filesystem_config.h`, and `u0_aNNN` = 10000 + NNN for apps of user 0). */
export const AID = {
  root: 0,
  system: 1000,
  radio: 1001,
  bluetooth: 1002,
  graphics: 1003,
  input: 1004,
  audio: 1005,
  camera: 1006,
  log: 1007,
  compass: 1008,
  mount: 1009,
  wifi: 1010,
  adb: 1011,
  install: 1012,
  media: 1013,
  dhcp: 1014,
  sdcard_rw: 1015,
  media_rw: 1023,
  sdcard_r: 1028,
  ext_data_rw: 1078,
  ext_obb_rw: 1079,
  keystore: 1017,
  logd: 1036,
  audioserver: 1041,
  tombstoned: 1058,
  lmkd: 1069,
  shell: 2000,
  cache: 2001,
  diag: 2002,
  net_bt_admin: 3001,
  net_bt: 3002,
  inet: 3003,
  net_bw_stats: 3006,
  readproc: 3009,
  uhid: 3011,
  readtracefs: 3012,
  everybody: 9997,
  misc: 9998,
  /** The MediaProvider module's app id on this device: the owner of everything on shared storage. */
  u0_a185: 10185,
} as const;

/** Name of a uid or gid as `ls -l` and `id` print it (`u0_aNNN` for app ids, else the number). */
export function idName(id: number): string {
  for (const [name, value] of Object.entries(AID)) if (value === id) return name;
  if (id >= 10000 && id < 20000) return `u0_a${id - 10000}`;
  return String(id);
}

/** The `shell` user of adbd on a user build: uid/gid 2000 and the groups `id` lists for it (adbd `daemon/main.cpp` `drop_privileges`). */
export const SHELL: Credentials = {
  uid: AID.shell,
  gid: AID.shell,
  groups: [
    AID.shell,
    AID.input,
    AID.log,
    AID.adb,
    AID.sdcard_rw,
    AID.sdcard_r,
    AID.ext_data_rw,
    AID.ext_obb_rw,
    AID.net_bt_admin,
    AID.net_bt,
    AID.inet,
    AID.net_bw_stats,
    AID.readproc,
    AID.uhid,
    AID.readtracefs,
  ],
};

/** `root`, as adbd runs after `adb root` on a debuggable build. */
export const ROOT: Credentials = {uid: 0, gid: 0, groups: [0]};

/** The credentials adbd and the processes it starts run with: `ROOT` when `service.adb.root` is `1`, else `SHELL`. */
export function adbdCredentials(properties: ReadonlyMap<string, string>): Credentials {
  return properties.get('service.adb.root') === '1' ? ROOT : SHELL;
}

/** Linux errno values (`include/uapi/asm-generic/errno-base.h`) and bionic's `strerror` texts. */
export const ERRNO = {
  EPERM: [1, 'Operation not permitted'],
  ENOENT: [2, 'No such file or directory'],
  EIO: [5, 'I/O error'],
  EACCES: [13, 'Permission denied'],
  EEXIST: [17, 'File exists'],
  ENOTDIR: [20, 'Not a directory'],
  EISDIR: [21, 'Is a directory'],
  EINVAL: [22, 'Invalid argument'],
  ENOSPC: [28, 'No space left on device'],
  EROFS: [30, 'Read-only file system'],
  ENAMETOOLONG: [36, 'File name too long'],
  ENOTEMPTY: [39, 'Directory not empty'],
  ELOOP: [40, 'Too many symbolic links encountered'],
  EXDEV: [18, 'Cross-device link'],
} as const;

/** An errno name of `ERRNO`. */
export type ErrnoCode = keyof typeof ERRNO;

/**
 * A failed file system call. `code` is the errno name (`ENOENT`), `errno` its number, `description`
 * bionic's `strerror` text ("No such file or directory"), `syscall` the call (`open`, `mkdir`) and
 * `path` the path it was given. `message` reads like Node's: `ENOENT: No such file or directory, open '/x'`.
 */
export class FsError extends Error {
  readonly code: ErrnoCode;
  readonly errno: number;
  readonly description: string;
  readonly syscall: string;
  readonly path: string;

  constructor(code: ErrnoCode, syscall: string, path: string) {
    const [errno, description] = ERRNO[code];
    super(`${code}: ${description}, ${syscall} '${path}'`);
    this.name = 'FsError';
    this.code = code;
    this.errno = errno;
    this.description = description;
    this.syscall = syscall;
    this.path = path;
  }
}

/**
 * A part of the device's file tree: the device path `path` is the host path `source` (a
 * directory, or one file laid over another, as a bind mount is). The table of mounts is what the
 * sandbox binds (`sandbox.ts`) and what this file system resolves through, so the shell's programs
 * and the device's services see one tree.
 */
export interface Mount {
  /** Where it appears on the device (`/`, `/system`, `/system/build.prop`). */
  path: string;
  /** The host directory or file that holds it. */
  source: string;
  /** A read-only mount: writes fail with `EROFS` (the system partitions, the root). */
  readOnly: boolean;
  /** MediaProvider's FUSE view of shared storage: the daemon lets `shell` in whatever the mode bits say, and owns what it creates. */
  fuse?: boolean;
  /** `st_dev` the device reports for entries under it. */
  dev: number;
  /**
   * How the sandbox makes it: `proc` is a new procfs with the files of `source` laid over it (what
   * describes the phone), `dev` bubblewrap's minimal `/dev`; otherwise a bind mount of `source`.
   */
  kind?: 'proc' | 'dev';
}

/** Options of the calls that check access: `cred` absent means the kernel itself (no checks). */
export interface AccessOptions {
  cred?: Credentials;
}

const MAX_SYMLINKS = 40;

/** Splits a path into its components; `.` components are dropped, `..` kept. */
function components(path: string): string[] {
  return path.split('/').filter((part) => part !== '' && part !== '.');
}

/** Where the device's f2fs is (/data; shared storage is MediaProvider's view of /data/media). */
const F2FS_PATHS = ['/data', '/storage/emulated'];
/** Where the phone mounts a tmpfs (init.rc) among the device's folders. */
const TMPFS_PATHS = ['/dev', '/mnt', '/storage', '/apex'];
/**
 * The size f2fs gives a directory whose entries fit in its inode (inline dentries): MAX_INLINE_DATA,
 * 4 × (923 addresses − 9 for the extra attributes `fscompress` needs − 50 inline xattr − 1), bytes.
 */
const F2FS_INLINE_DIR_SIZE = 3452;

function under(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(`${root}/`));
}

/**
 * The size, in bytes, a Pixel's file system gives the directory at device path `real` (links
 * resolved) whose host size is `size` (the device's tree is on a host tmpfs: 20 bytes an entry).
 * f2fs (/data, shared storage): 3452 (MAX_INLINE_DATA) while the entries fit in the inode, whole
 * 4096-byte blocks beyond; tmpfs (/dev, /mnt, /storage, /apex): the tmpfs size; ext4 and erofs
 * elsewhere: whole 4096-byte blocks (0, as procfs gives, stays 0). `device/native/kernel.c`
 * reports the same to the sandbox's programs.
 */
function phoneDirectorySize(real: string, size: number): number {
  const blocks = Math.ceil(size / 4096) * 4096;
  if (under(real, F2FS_PATHS)) return size <= 4096 ? F2FS_INLINE_DIR_SIZE : blocks;
  if (under(real, TMPFS_PATHS)) return size;
  return blocks;
}

/** The partitions the build makes (read-only on the device). */
const IMAGE_PARTITIONS = ['/system', '/vendor', '/product', '/system_ext', '/odm', '/apex'];

/**
 * The permission bits of a symbolic link the build made, at device path `path`, by
 * `libcutils/fs_config.cpp`'s rules: 0755 in a `bin` or `xbin` folder of a partition, 0644
 * elsewhere there and on the root. `undefined` for another link (0777, as Linux makes every link).
 * `device/native/kernel.c` reports the same to the sandbox's programs.
 */
function imageLinkMode(path: string): number | undefined {
  const parent = dirname(path);
  if (parent === '/') return 0o644;
  if (!IMAGE_PARTITIONS.some((root) => path.startsWith(`${root}/`))) return undefined;
  const folder = basename(parent);
  return folder === 'bin' || folder === 'xbin' ? 0o755 : 0o644;
}

/** The parent directory of an absolute path (`/a/b` → `/a`, `/a` → `/`). */
export function dirname(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const index = trimmed.lastIndexOf('/');
  if (index <= 0) return '/';
  return trimmed.substring(0, index);
}

/** The last component of a path (`/a/b.txt` → `b.txt`). */
export function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.substring(trimmed.lastIndexOf('/') + 1);
}

/** What resolving a path found: the entry (if it exists) and its parent directory, as host paths and `lstat` results. */
interface Lookup {
  /** The resolved device path (symbolic links of directories followed). */
  real: string;
  host: string;
  mount: Mount;
  stats: Stats | undefined;
  parentReal: string;
  parentHost: string;
  parentMount: Mount;
  parentStats: Stats;
  name: string;
}

function lstatOrUndefined(host: string): Stats | undefined {
  try {
    return lstatSync(host);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function typeOf(stats: Stats): FileType {
  return stats.isDirectory() ? 'directory' : stats.isSymbolicLink() ? 'symlink' : 'file';
}

/**
 * The device's file tree on the host's disk, seen as the device's processes see it: every
 * method takes an absolute device path (a relative one is taken from `/`, the working directory
 * of `adb shell`), resolves it through the mounts with the device's symbolic links (an absolute
 * target starts again at the device's `/`, never the host's), and throws `FsError` with the errno
 * the device's kernel would give.
 *
 * Access checks happen only when `cred` is given (the sync service passes the credentials adbd
 * runs with): the mode bits against the uid and groups, `EROFS` on a read-only mount, and
 * MediaProvider's rule on shared storage. Without `cred`, a call acts as the kernel (seeding, and
 * the framework services, which run as `system` on a phone). New entries made for `cred` are owned
 * by it (by MediaProvider's uid on shared storage), with the group of a set-gid parent.
 */
export class DeviceFileSystem {
  readonly #now: () => number;
  readonly #boot: number;
  /** Longest device path first, so the first match is the innermost mount. */
  readonly #mounts: readonly Mount[];

  /**
   * `mounts` must include `/`; `now` is the device clock in milliseconds (new entries' times).
   * `boot` is the host time in seconds the device started at: a file time from then on (a change
   * made while the device runs) reads as the device clock, as the sandbox's programs see it
   * (`device/native/kernel.c`). Default: never.
   */
  constructor(mounts: readonly Mount[], now: () => number, boot = Infinity) {
    if (!mounts.some((mount) => mount.path === '/')) throw new Error('the mounts have no /');
    this.#mounts = [...mounts].sort((a, b) => b.path.length - a.path.length);
    this.#now = now;
    this.#boot = boot;
  }

  /**
   * A file time, in nanoseconds, as the device reads it (see the constructor), in seconds. An
   * access or modification time that was set (`set`: a whole second other than the ctime, as
   * `kernel.c` tells them apart) stays as it is.
   */
  #deviceTime(nanoseconds: bigint, ctime?: bigint): number {
    const seconds = Number(nanoseconds / 1_000_000_000n);
    const set = ctime !== undefined && nanoseconds % 1_000_000_000n === 0n && nanoseconds !== ctime;
    return seconds >= this.#boot && !set ? this.nowSeconds() : seconds;
  }

  /** The mounts, innermost first. */
  get mounts(): readonly Mount[] {
    return this.#mounts;
  }

  /** The device clock in whole seconds. */
  nowSeconds(): number {
    return Math.floor(this.#now() / 1000);
  }

  /** The mount that holds a (resolved) device path. */
  mountOf(path: string): Mount {
    for (const mount of this.#mounts) {
      if (mount.path === '/' || path === mount.path || path.startsWith(`${mount.path}/`)) return mount;
    }
    /* c8 ignore next */
    throw new Error(`no mount for ${path}`);
  }

  /** The host path of a resolved device path (no symbolic links in it). */
  hostPath(path: string): string {
    const mount = this.mountOf(path);
    return mount.path === '/' ? join(mount.source, path) : join(mount.source, path.slice(mount.path.length));
  }

  // ---- resolution -------------------------------------------------------------------------

  #lookup(path: string, follow: boolean, syscall: string, cred: Credentials | undefined): Lookup {
    const trailingSlash = /\/\.?$/.test(path) && path !== '/';
    const pending = components(path);
    let real: string[] = [];
    let links = 0;
    const at = (parts: readonly string[]) => '/' + parts.join('/');
    const rootStats = lstatSync(this.hostPath('/'));
    let dirStats = rootStats;
    const whole = (stats: Stats, parts: string[]): Lookup => {
      const real = at(parts);
      const parentReal = dirname(real);
      const parentHost = this.hostPath(parentReal);
      return {
        real,
        host: this.hostPath(real),
        mount: this.mountOf(real),
        stats,
        parentReal,
        parentHost,
        parentMount: this.mountOf(parentReal),
        parentStats: parts.length <= 1 ? rootStats : lstatSync(parentHost),
        name: parts[parts.length - 1] ?? '/',
      };
    };
    if (pending.length === 0) return whole(rootStats, []);
    while (pending.length > 0) {
      const name = pending.shift()!;
      const last = pending.length === 0;
      if (!dirStats.isDirectory()) throw new FsError('ENOTDIR', syscall, path);
      if (!this.#may(dirStats, this.mountOf(at(real)), cred, 1)) throw new FsError('EACCES', syscall, path);
      if (name === '..') {
        real.pop();
        dirStats = real.length === 0 ? rootStats : lstatSync(this.hostPath(at(real)));
        if (last) return whole(dirStats, real);
        continue;
      }
      if (Buffer.byteLength(name) > 255) throw new FsError('ENAMETOOLONG', syscall, path);
      const childReal = [...real, name];
      const childHost = this.hostPath(at(childReal));
      const stats = lstatOrUndefined(childHost);
      if (!stats) {
        if (last) {
          return {
            real: at(childReal),
            host: childHost,
            mount: this.mountOf(at(childReal)),
            stats: undefined,
            parentReal: at(real),
            parentHost: this.hostPath(at(real)),
            parentMount: this.mountOf(at(real)),
            parentStats: dirStats,
            name,
          };
        }
        throw new FsError('ENOENT', syscall, path);
      }
      if (stats.isSymbolicLink() && (!last || follow || trailingSlash)) {
        links += 1;
        if (links > MAX_SYMLINKS) throw new FsError('ELOOP', syscall, path);
        const target = readlinkSync(childHost);
        if (target.startsWith('/')) {
          real = [];
          dirStats = rootStats;
        }
        pending.unshift(...components(target));
        if (pending.length === 0) return whole(dirStats, real);
        continue;
      }
      if (last) {
        if (trailingSlash && !stats.isDirectory()) throw new FsError('ENOTDIR', syscall, path);
        return {
          real: at(childReal),
          host: childHost,
          mount: this.mountOf(at(childReal)),
          stats,
          parentReal: at(real),
          parentHost: this.hostPath(at(real)),
          parentMount: this.mountOf(at(real)),
          parentStats: dirStats,
          name,
        };
      }
      real = childReal;
      dirStats = stats;
    }
    /* c8 ignore next */
    throw new FsError('ENOENT', syscall, path);
  }

  /** Whether `cred` may read (4), write (2) or search/execute (1) an entry, by its mode bits (FUSE: always). */
  #may(stats: Stats, mount: Mount, cred: Credentials | undefined, want: 4 | 2 | 1): boolean {
    if (!cred || cred.uid === 0) {
      if (want === 1 && stats.isFile() && cred) return (stats.mode & 0o111) !== 0;
      return true;
    }
    if (mount.fuse) return want !== 1 || stats.isDirectory() || (stats.mode & 0o111) !== 0;
    let bits: number;
    if (stats.uid === cred.uid) bits = (stats.mode >> 6) & 7;
    else if (stats.gid === cred.gid || cred.groups.includes(stats.gid)) bits = (stats.mode >> 3) & 7;
    else bits = stats.mode & 7;
    return (bits & want) !== 0;
  }

  #existing(path: string, follow: boolean, syscall: string, cred: Credentials | undefined): Lookup & {stats: Stats} {
    const lookup = this.#lookup(path, follow, syscall, cred);
    if (!lookup.stats) throw new FsError('ENOENT', syscall, path);
    return lookup as Lookup & {stats: Stats};
  }

  /**
   * The metadata of the entry at `host` (device path `real`; a link there is not followed), with
   * the device's times, and a directory's size as the phone's file system gives it
   * (`phoneDirectorySize`), as `device/native/kernel.c` reports them to the sandbox's programs.
   */
  #statOf(host: string, real: string, mount: Mount): FileStat {
    const stats = lstatSync(host);
    const times = lstatSync(host, {bigint: true});
    const linkMode = stats.isSymbolicLink() ? imageLinkMode(real) : undefined;
    const mode = linkMode === undefined ? stats.mode : (stats.mode & ~0o7777) | linkMode;
    return {
      type: typeOf(stats),
      mode,
      permission: mode & 0o7777,
      size: stats.isDirectory() ? phoneDirectorySize(real, stats.size) : stats.size,
      uid: stats.uid,
      gid: stats.gid,
      atime: this.#deviceTime(times.atimeNs, times.ctimeNs),
      mtime: this.#deviceTime(times.mtimeNs, times.ctimeNs),
      ctime: this.#deviceTime(times.ctimeNs),
      ino: stats.ino,
      dev: mount.dev,
      nlink: stats.nlink,
    };
  }

  // ---- queries ----------------------------------------------------------------------------

  /**
   * `stat(2)`: the metadata of `path`, symbolic links followed; throws `FsError` (`ENOENT`,
   * `ENOTDIR`, `EACCES` when a directory on the way can't be searched by `cred`, `ELOOP`).
   */
  statOrThrow(path: string, options: AccessOptions & {follow?: boolean} = {}): FileStat {
    const follow = options.follow ?? true;
    const lookup = this.#existing(path, follow, follow ? 'stat' : 'lstat', options.cred);
    return this.#statOf(lookup.host, lookup.real, lookup.mount);
  }

  /** The metadata of `path` with symbolic links followed, or `undefined` when it can't be resolved (see `statOrThrow`). */
  stat(path: string, options: AccessOptions = {}): FileStat | undefined {
    try {
      return this.statOrThrow(path, {...options, follow: true});
    } catch (error) {
      if (error instanceof FsError) return undefined;
      throw error;
    }
  }

  /** `lstat(2)`: like `stat`, but a symbolic link itself is described (`type: 'symlink'`). */
  lstat(path: string, options: AccessOptions = {}): FileStat | undefined {
    try {
      return this.statOrThrow(path, {...options, follow: false});
    } catch (error) {
      if (error instanceof FsError) return undefined;
      throw error;
    }
  }

  /** Whether `path` exists (symbolic links followed). */
  exists(path: string): boolean {
    return this.stat(path) !== undefined;
  }

  /**
   * The content of a regular file, symbolic links followed. Throws `FsError`: `ENOENT`, `EISDIR`
   * for a directory, `EACCES` when `cred` may not read it.
   */
  readFile(path: string, options: AccessOptions = {}): Uint8Array {
    const lookup = this.#existing(path, true, 'open', options.cred);
    if (!this.#may(lookup.stats, lookup.mount, options.cred, 4)) throw new FsError('EACCES', 'open', path);
    if (lookup.stats.isDirectory()) throw new FsError('EISDIR', 'read', path);
    return new Uint8Array(readFileSync(lookup.host));
  }

  /** A file's content decoded as UTF-8 (see `readFile`). */
  readText(path: string, options: AccessOptions = {}): string {
    return new TextDecoder().decode(this.readFile(path, options));
  }

  /**
   * The names in a directory, sorted by byte value, without `.` and `..` (add them yourself where
   * Linux's `readdir` would list them). Throws `FsError`: `ENOENT`, `ENOTDIR`, `EACCES` when `cred`
   * may not read the directory.
   */
  readdir(path: string, options: AccessOptions = {}): string[] {
    const lookup = this.#existing(path, true, 'opendir', options.cred);
    if (!lookup.stats.isDirectory()) throw new FsError('ENOTDIR', 'opendir', path);
    if (!this.#may(lookup.stats, lookup.mount, options.cred, 4)) throw new FsError('EACCES', 'opendir', path);
    const names = readdirSync(lookup.host);
    // A mount point inside this directory shows the mounted entry, which exists already (the sandbox mounts on existing entries).
    return names;
  }

  /** `readlink(2)`: the target of a symbolic link. Throws `EINVAL` when `path` isn't one. */
  readlink(path: string, options: AccessOptions = {}): string {
    const lookup = this.#existing(path, false, 'readlink', options.cred);
    if (!lookup.stats.isSymbolicLink()) throw new FsError('EINVAL', 'readlink', path);
    return readlinkSync(lookup.host);
  }

  /** `realpath(3)`: the absolute path with every symbolic link resolved. Throws like `stat`. */
  realpath(path: string, options: AccessOptions = {}): string {
    return this.#existing(path, true, 'realpath', options.cred).real;
  }

  /** Whether `cred` may read (`'r'`), write (`'w'`) or execute/search (`'x'`) `path` (`access(2)`, links followed). */
  access(path: string, mode: 'r' | 'w' | 'x', options: AccessOptions = {}): boolean {
    try {
      const lookup = this.#existing(path, true, 'access', options.cred);
      if (mode === 'w' && lookup.mount.readOnly) return false;
      return this.#may(lookup.stats, lookup.mount, options.cred, mode === 'r' ? 4 : mode === 'w' ? 2 : 1);
    } catch (error) {
      if (error instanceof FsError) return false;
      throw error;
    }
  }

  // ---- changes ----------------------------------------------------------------------------

  #checkWritableDir(lookup: Lookup, cred: Credentials | undefined, syscall: string, path: string): void {
    if (lookup.parentMount.readOnly && cred) throw new FsError('EROFS', syscall, path);
    if (!this.#may(lookup.parentStats, lookup.parentMount, cred, 2)) throw new FsError('EACCES', syscall, path);
  }

  /** The owner, group and mode a new entry gets (see the class comment); `perm` is what was asked. */
  #ownership(lookup: Lookup, directory: boolean, perm: number, cred: Credentials | undefined): {uid: number; gid: number; perm: number} {
    const setgid = (lookup.parentStats.mode & 0o2000) !== 0;
    if (lookup.parentMount.fuse && cred) {
      // The FUSE daemon creates files as itself on the lower file system.
      return {uid: AID.u0_a185, gid: AID.media_rw, perm: directory ? 0o2770 : 0o660};
    }
    return {
      uid: cred?.uid ?? 0,
      gid: setgid ? lookup.parentStats.gid : (cred?.gid ?? 0),
      perm: setgid && directory ? perm | 0o2000 : perm,
    };
  }

  /** Sets owner and mode of a new host entry (owner changes need root: a contributor's unprivileged run keeps its own). */
  #own(host: string, owner: {uid: number; gid: number; perm?: number}, symlink = false): void {
    try {
      if (symlink) lchownSync(host, owner.uid, owner.gid);
      else chownSync(host, owner.uid, owner.gid);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    }
    if (owner.perm !== undefined && !symlink) chmodSync(host, owner.perm);
  }

  /**
   * Creates or replaces a regular file (symbolic links followed), as `open(O_CREAT|O_TRUNC)` then
   * `write` then `utimes` would. `mode` (permission bits) applies to a new file, and to an existing
   * one when given; `mtime` (seconds) defaults to now; `uid`/`gid` override the owner. `parents`
   * creates missing parent directories (mode 0775) as adbd's `secure_mkdirs` does. Throws
   * `FsError`: `ENOENT` (missing parent), `ENOTDIR`, `EISDIR`, `EACCES`, `EROFS` (read-only mount,
   * only checked when `cred` is given).
   */
  writeFile(
    path: string,
    data: Uint8Array | string,
    options: AccessOptions & {mode?: number; mtime?: number; uid?: number; gid?: number; parents?: boolean} = {},
  ): FileStat {
    const {cred} = options;
    if (options.parents) this.mkdir(dirname(path), {recursive: true, cred, mode: 0o775});
    const lookup = this.#lookup(path, true, 'open', cred);
    const now = this.nowSeconds();
    if (lookup.stats) {
      if (lookup.stats.isDirectory()) throw new FsError('EISDIR', 'open', path);
      if (lookup.mount.readOnly && cred) throw new FsError('EROFS', 'open', path);
      if (!this.#may(lookup.stats, lookup.mount, cred, 2)) throw new FsError('EACCES', 'open', path);
      writeFileSync(lookup.host, data);
      if (options.mode !== undefined && !lookup.mount.fuse) chmodSync(lookup.host, options.mode & 0o7777);
    } else {
      this.#checkWritableDir(lookup, cred, 'open', path);
      writeFileSync(lookup.host, data);
      this.#own(lookup.host, this.#ownership(lookup, false, (options.mode ?? 0o644) & 0o7777, cred));
    }
    if (options.uid !== undefined || options.gid !== undefined) {
      const stats = lstatSync(lookup.host);
      this.#own(lookup.host, {uid: options.uid ?? stats.uid, gid: options.gid ?? stats.gid});
    }
    const mtime = options.mtime ?? now;
    utimesSync(lookup.host, mtime, mtime);
    return this.#statOf(lookup.host, lookup.real, lookup.mount);
  }

  /** Appends to a regular file, creating it (mode 0666) when missing. Throws like `writeFile`. */
  appendFile(path: string, data: Uint8Array | string, options: AccessOptions = {}): void {
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    const stat = this.stat(path);
    let existing: Uint8Array = new Uint8Array(0);
    if (stat) existing = this.readFile(path, options);
    const merged = new Uint8Array(existing.length + bytes.length);
    merged.set(existing);
    merged.set(bytes, existing.length);
    this.writeFile(path, merged, {cred: options.cred, mode: stat ? undefined : 0o666});
  }

  /**
   * `mkdir(2)`; `mode` defaults to 0775 (toybox `mkdir` asks 0777, and the shell's umask 002
   * removes the others' write bit). With `recursive`, like `mkdir -p`: missing parents are created
   * and an existing directory is fine. Throws `FsError`: `EEXIST`, `ENOENT`, `ENOTDIR`, `EACCES`,
   * `EROFS`.
   */
  mkdir(path: string, options: AccessOptions & {recursive?: boolean; mode?: number; mtime?: number} = {}): void {
    const {cred} = options;
    const mode = (options.mode ?? 0o775) & 0o7777;
    const make = (lookup: Lookup, target: string) => {
      this.#checkWritableDir(lookup, cred, 'mkdir', target);
      mkdirSync(lookup.host);
      this.#own(lookup.host, this.#ownership(lookup, true, mode, cred));
      if (options.mtime !== undefined) utimesSync(lookup.host, options.mtime, options.mtime);
    };
    if (options.recursive) {
      let prefix = '';
      for (const part of components(path)) {
        prefix += '/' + part;
        const lookup = this.#lookup(prefix, true, 'mkdir', cred);
        if (lookup.stats) {
          if (!lookup.stats.isDirectory()) throw new FsError('ENOTDIR', 'mkdir', path);
          continue;
        }
        make(lookup, prefix);
      }
      return;
    }
    const lookup = this.#lookup(path, false, 'mkdir', cred);
    if (lookup.stats) throw new FsError('EEXIST', 'mkdir', path);
    make(lookup, path);
  }

  /**
   * `symlink(2)`: creates `path` pointing to `target` (not resolved, may dangle). Throws `FsError`:
   * `EEXIST`, `ENOENT`, `EACCES`, `EROFS`.
   */
  symlink(target: string, path: string, options: AccessOptions & {mtime?: number; uid?: number; gid?: number} = {}): void {
    const lookup = this.#lookup(path, false, 'symlink', options.cred);
    if (lookup.stats) throw new FsError('EEXIST', 'symlink', path);
    this.#checkWritableDir(lookup, options.cred, 'symlink', path);
    symlinkSync(target, lookup.host);
    const owner = this.#ownership(lookup, false, 0o777, options.cred);
    this.#own(lookup.host, {uid: options.uid ?? owner.uid, gid: options.gid ?? owner.gid}, true);
    const mtime = options.mtime ?? this.nowSeconds();
    lutimesSync(lookup.host, mtime, mtime);
  }

  /**
   * Removes a file, a symbolic link (not its target) or an empty directory; with `recursive`, a
   * directory and everything in it (`rm -r`). Throws `FsError`: `ENOENT`, `ENOTEMPTY` (a non-empty
   * directory without `recursive`), `EACCES`, `EROFS`, `EISDIR` when `directory: false` is asked
   * for and `path` is a directory (`unlink(2)`).
   */
  remove(path: string, options: AccessOptions & {recursive?: boolean; directory?: boolean} = {}): void {
    const lookup = this.#lookup(path, false, 'unlink', options.cred);
    if (!lookup.stats) throw new FsError('ENOENT', 'unlink', path);
    if (lookup.real === '/') throw new FsError('EPERM', 'rmdir', path);
    const directory = lookup.stats.isDirectory();
    if (directory) {
      if (options.directory === false) throw new FsError('EISDIR', 'unlink', path);
      const names = readdirSync(lookup.host);
      if (names.length > 0) {
        if (!options.recursive) throw new FsError('ENOTEMPTY', 'rmdir', path);
        for (const name of names) this.remove(`${lookup.real === '/' ? '' : lookup.real}/${name}`, {cred: options.cred, recursive: true});
      }
    }
    this.#checkWritableDir(lookup, options.cred, directory ? 'rmdir' : 'unlink', path);
    if (directory) rmdirSync(lookup.host);
    else unlinkSync(lookup.host);
  }

  /** `rename(2)`: moves `from` to `to`, replacing a file there. Throws `FsError`: `ENOENT`, `EACCES`, `EISDIR`, `ENOTEMPTY`, `EROFS`, `EXDEV`. */
  rename(from: string, to: string, options: AccessOptions = {}): void {
    const source = this.#lookup(from, false, 'rename', options.cred);
    if (!source.stats) throw new FsError('ENOENT', 'rename', from);
    const destination = this.#lookup(to, false, 'rename', options.cred);
    this.#checkWritableDir(source, options.cred, 'rename', from);
    this.#checkWritableDir(destination, options.cred, 'rename', to);
    if (destination.parentMount !== source.mount) throw new FsError('EXDEV', 'rename', to);
    if (destination.host === source.host) return;
    if (destination.stats) {
      if (destination.stats.isDirectory() && !source.stats.isDirectory()) throw new FsError('EISDIR', 'rename', to);
      if (destination.stats.isDirectory() && readdirSync(destination.host).length > 0) throw new FsError('ENOTEMPTY', 'rename', to);
    }
    renameSync(source.host, destination.host);
  }

  /** `chmod(2)` (links followed): sets the permission bits (`0o7777` at most). Throws like `stat`, and `EPERM` when `cred` doesn't own it. */
  chmod(path: string, mode: number, options: AccessOptions = {}): void {
    const lookup = this.#existing(path, true, 'chmod', options.cred);
    const {cred} = options;
    if (cred && cred.uid !== 0 && cred.uid !== lookup.stats.uid && !lookup.mount.fuse) throw new FsError('EPERM', 'chmod', path);
    if (lookup.mount.readOnly && cred) throw new FsError('EROFS', 'chmod', path);
    if (!lookup.mount.fuse || !cred) chmodSync(lookup.host, mode & 0o7777);
  }

  /** `lchown`-like owner change without checks (seeding, and the framework services). */
  chown(path: string, uid: number, gid: number): void {
    const lookup = this.#existing(path, false, 'chown', undefined);
    this.#own(lookup.host, {uid, gid}, lookup.stats.isSymbolicLink());
  }

  /** `utimes(2)`: sets access and modification times in seconds (links followed unless `follow: false`, like `lutimes`). */
  utimes(path: string, atime: number, mtime: number, options: AccessOptions & {follow?: boolean} = {}): void {
    const lookup = this.#existing(path, options.follow ?? true, 'utimes', options.cred);
    const {cred} = options;
    if (cred && cred.uid !== 0 && cred.uid !== lookup.stats.uid && !lookup.mount.fuse && !this.#may(lookup.stats, lookup.mount, cred, 2)) {
      throw new FsError('EACCES', 'utimes', path);
    }
    if (lookup.stats.isSymbolicLink()) lutimesSync(lookup.host, atime, mtime);
    else utimesSync(lookup.host, atime, mtime);
  }
}
