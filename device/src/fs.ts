/**
 * The simulated device's file system: an in-memory tree of directories, regular files and symbolic
 * links with Linux metadata (mode, owner, times, inode numbers), seeded with the layout of a Pixel 7
 * on Android 14 as the `shell` user sees it.
 *
 * Facts:
 * - Layout and ownership: `system/core/rootdir/init.rc` (`/data/local/tmp` 0771 shell:shell,
 *   `/data` 0771 system:system, `/storage` 0751 root:sdcard_rw), `system/core/rootdir/Android.mk`
 *   (`/sdcard` → `/storage/self/primary`), the FUSE daemon of MediaProvider (Android 11 and later:
 *   `/storage/emulated/0` entries owned by the MediaProvider app, group `media_rw`, set-gid
 *   directories, and access for `shell` decided by the daemon rather than by the mode bits).
 * - Names of uids/gids: `system/core/libcutils/include/private/android_filesystem_config.h`.
 * - Files of the system image carry the fixed time 2009-01-01 00:00:00 UTC (`build/make`'s
 *   `fs_config`/`mkuserimg` use a fixed timestamp so images are reproducible).
 * - Error texts: bionic's `strerror` (`bionic/libc/private/bionic_errdefs.h`).
 */
import {buildApk} from './apk.ts';
import {SEEDED_PACKAGES} from './packages.ts';
import {screenPng} from './screen.ts';

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

const TYPE_BITS: Record<FileType, number> = {directory: S_IFDIR, file: S_IFREG, symlink: S_IFLNK};

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

interface Inode {
  ino: number;
  type: FileType;
  perm: number;
  uid: number;
  gid: number;
  atime: number;
  mtime: number;
  ctime: number;
  data: Uint8Array;
  children: Map<string, Inode> | undefined;
  target: string;
  parent: Inode;
  dev: number;
  readOnly: boolean;
  /** On the FUSE file system of shared storage: access is the FUSE daemon's decision, not the mode bits'. */
  fuse: boolean;
  /** Directory size reported by stat (f2fs 3452, ext4/erofs 4096, tmpfs: entries × 20). */
  dirSize: number;
  /** Content computed at each read (`/system/build.prop`), instead of `data`. */
  provider?: () => Uint8Array;
}

/** The result of resolving a path: the entry (if it exists), its parent directory and its name there. */
interface Lookup {
  node: Inode | undefined;
  parent: Inode;
  name: string;
  /** The resolved absolute path (symbolic links of directories followed). */
  real: string;
}

/** Options of the calls that check access: `cred` absent means the kernel itself (no checks). */
export interface AccessOptions {
  cred?: Credentials;
}

const MAX_SYMLINKS = 40;
const EMPTY = new Uint8Array(0);

function toSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** Splits a path into its components; `.` components are dropped, `..` kept. */
function components(path: string): string[] {
  return path.split('/').filter((part) => part !== '' && part !== '.');
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

/**
 * An in-memory Linux file system. Every method takes absolute paths (a relative path is taken
 * relative to `/`, the working directory of `adb shell`), follows symbolic links like the matching
 * system call, and throws `FsError` with the errno the kernel would give.
 *
 * Access checks happen only when `cred` is given (the sync service and the shell commands pass the
 * credentials adbd runs with); without it, a call acts as the kernel (root, and no read-only mounts
 * are enforced for seeding).
 */
export class MemoryFileSystem {
  readonly #now: () => number;
  /** While seeding: the time (seconds) that stands for "now". */
  #seedTime: number | undefined;
  #nextIno = 2;
  readonly #root: Inode;

  /**
   * `now` is the device clock in milliseconds (new files' times); the tree is seeded with Android's
   * layout. `properties` (the device's system properties) feed `/system/build.prop`; see `bindProperties`.
   */
  constructor(now: () => number, properties?: ReadonlyMap<string, string>) {
    this.#now = now;
    const root = {} as Inode;
    Object.assign(root, {
      ino: 2,
      type: 'directory',
      perm: 0o755,
      uid: 0,
      gid: 0,
      atime: SYSTEM_TIME,
      mtime: SYSTEM_TIME,
      ctime: SYSTEM_TIME,
      data: EMPTY,
      children: new Map(),
      target: '',
      parent: root,
      dev: 0xfd00,
      readOnly: false,
      fuse: false,
      dirSize: 4096,
    } satisfies Inode);
    this.#root = root;
    this.#nextIno = 100;
    seed(this, (time) => (this.#seedTime = time));
    this.#seedTime = undefined;
    if (properties) this.bindProperties(properties);
  }

  /** The device clock in whole seconds. */
  nowSeconds(): number {
    return this.#seedTime ?? toSeconds(this.#now());
  }

  #properties: ReadonlyMap<string, string> | undefined;

  /**
   * Makes `/system/build.prop` show these system properties (the `ro.*` ones, as `key=value`
   * lines), read at each access so `setprop` changes show. Idempotent.
   */
  bindProperties(properties: ReadonlyMap<string, string>): void {
    if (this.#properties === properties) return;
    this.#properties = properties;
    const node = this.#lookup('/system/build.prop', true, 'open', undefined).node;
    if (node) node.provider = () => new TextEncoder().encode(buildProp(properties));
  }

  // ---- resolution -------------------------------------------------------------------------

  #lookup(path: string, follow: boolean, syscall: string, cred: Credentials | undefined): Lookup {
    const trailingSlash = /\/\.?$/.test(path) && path !== '/';
    const pending = components(path);
    let current = this.#root;
    const real: string[] = [];
    let links = 0;
    if (pending.length === 0) return {node: this.#root, parent: this.#root, name: '/', real: '/'};
    while (pending.length > 0) {
      const name = pending.shift()!;
      const last = pending.length === 0;
      if (current.type !== 'directory') throw new FsError('ENOTDIR', syscall, path);
      if (!this.#may(current, cred, 1)) throw new FsError('EACCES', syscall, path);
      if (name === '..') {
        current = current.parent;
        real.pop();
        if (last) return {node: current, parent: current.parent, name: real[real.length - 1] ?? '/', real: '/' + real.join('/')};
        continue;
      }
      if (name.length > 255) throw new FsError('ENAMETOOLONG', syscall, path);
      const child = current.children!.get(name);
      if (!child) {
        if (last) return {node: undefined, parent: current, name, real: '/' + [...real, name].join('/')};
        throw new FsError('ENOENT', syscall, path);
      }
      if (child.type === 'symlink' && (!last || follow || trailingSlash)) {
        links += 1;
        if (links > MAX_SYMLINKS) throw new FsError('ELOOP', syscall, path);
        const target = child.target;
        if (target.startsWith('/')) {
          current = this.#root;
          real.length = 0;
        }
        pending.unshift(...components(target));
        if (pending.length === 0)
          return {node: current, parent: current.parent, name: real[real.length - 1] ?? '/', real: '/' + real.join('/')};
        continue;
      }
      if (last) {
        if (trailingSlash && child.type !== 'directory') throw new FsError('ENOTDIR', syscall, path);
        return {node: child, parent: current, name, real: '/' + [...real, name].join('/')};
      }
      current = child;
      real.push(name);
    }
    /* c8 ignore next */
    throw new FsError('ENOENT', syscall, path);
  }

  /** Whether `cred` may read (4), write (2) or search/execute (1) `node`, by its mode bits (FUSE: always). */
  #may(node: Inode, cred: Credentials | undefined, want: 4 | 2 | 1): boolean {
    if (!cred || cred.uid === 0) {
      if (want === 1 && node.type === 'file' && cred) return (node.perm & 0o111) !== 0;
      return true;
    }
    if (node.fuse) return want !== 1 || node.type === 'directory' || (node.perm & 0o111) !== 0;
    let bits: number;
    if (node.uid === cred.uid) bits = (node.perm >> 6) & 7;
    else if (node.gid === cred.gid || cred.groups.includes(node.gid)) bits = (node.perm >> 3) & 7;
    else bits = node.perm & 7;
    return (bits & want) !== 0;
  }

  #existing(path: string, follow: boolean, syscall: string, cred: Credentials | undefined): Inode {
    const {node} = this.#lookup(path, follow, syscall, cred);
    if (!node) throw new FsError('ENOENT', syscall, path);
    return node;
  }

  #statOf(node: Inode): FileStat {
    let nlink = 1;
    let size = (node.provider?.() ?? node.data).length;
    if (node.type === 'directory') {
      nlink = 2;
      for (const child of node.children!.values()) if (child.type === 'directory') nlink += 1;
      size = node.dirSize;
    } else if (node.type === 'symlink') {
      size = new TextEncoder().encode(node.target).length;
    }
    return {
      type: node.type,
      mode: TYPE_BITS[node.type] | node.perm,
      permission: node.perm,
      size,
      uid: node.uid,
      gid: node.gid,
      atime: node.atime,
      mtime: node.mtime,
      ctime: node.ctime,
      ino: node.ino,
      dev: node.dev,
      nlink,
    };
  }

  // ---- queries ----------------------------------------------------------------------------

  /**
   * `stat(2)`: the metadata of `path`, symbolic links followed; throws `FsError` (`ENOENT`,
   * `ENOTDIR`, `EACCES` when a directory on the way can't be searched by `cred`, `ELOOP`).
   */
  statOrThrow(path: string, options: AccessOptions & {follow?: boolean} = {}): FileStat {
    const follow = options.follow ?? true;
    return this.#statOf(this.#existing(path, follow, follow ? 'stat' : 'lstat', options.cred));
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
   * The content of a regular file (a copy), symbolic links followed. Throws `FsError`: `ENOENT`,
   * `EISDIR` for a directory, `EACCES` when `cred` may not read it.
   */
  readFile(path: string, options: AccessOptions = {}): Uint8Array {
    const node = this.#existing(path, true, 'open', options.cred);
    if (!this.#may(node, options.cred, 4)) throw new FsError('EACCES', 'open', path);
    if (node.type === 'directory') throw new FsError('EISDIR', 'read', path);
    // A copy, whatever the stored array is (a Buffer's slice() would share its memory).
    return new Uint8Array(node.provider?.() ?? node.data);
  }

  /** A file's content decoded as UTF-8 (see `readFile`). */
  readText(path: string, options: AccessOptions = {}): string {
    return new TextDecoder().decode(this.readFile(path, options));
  }

  /**
   * The names in a directory, in creation order, without `.` and `..` (add them yourself where
   * Linux's `readdir` would list them). Throws `FsError`: `ENOENT`, `ENOTDIR`, `EACCES` when `cred`
   * may not read the directory.
   */
  readdir(path: string, options: AccessOptions = {}): string[] {
    const node = this.#existing(path, true, 'opendir', options.cred);
    if (node.type !== 'directory') throw new FsError('ENOTDIR', 'opendir', path);
    if (!this.#may(node, options.cred, 4)) throw new FsError('EACCES', 'opendir', path);
    return [...node.children!.keys()];
  }

  /** `readlink(2)`: the target of a symbolic link. Throws `EINVAL` when `path` isn't one. */
  readlink(path: string, options: AccessOptions = {}): string {
    const node = this.#existing(path, false, 'readlink', options.cred);
    if (node.type !== 'symlink') throw new FsError('EINVAL', 'readlink', path);
    return node.target;
  }

  /** `realpath(3)`: the absolute path with every symbolic link resolved. Throws like `stat`. */
  realpath(path: string, options: AccessOptions = {}): string {
    const lookup = this.#lookup(path, true, 'realpath', options.cred);
    if (!lookup.node) throw new FsError('ENOENT', 'realpath', path);
    return lookup.real;
  }

  /** Whether `cred` may read (`'r'`), write (`'w'`) or execute/search (`'x'`) `path` (`access(2)`, links followed). */
  access(path: string, mode: 'r' | 'w' | 'x', options: AccessOptions = {}): boolean {
    try {
      const node = this.#existing(path, true, 'access', options.cred);
      if (mode === 'w' && node.readOnly) return false;
      return this.#may(node, options.cred, mode === 'r' ? 4 : mode === 'w' ? 2 : 1);
    } catch (error) {
      if (error instanceof FsError) return false;
      throw error;
    }
  }

  // ---- changes ----------------------------------------------------------------------------

  #checkWritableDir(parent: Inode, cred: Credentials | undefined, syscall: string, path: string): void {
    if (parent.readOnly && cred) throw new FsError('EROFS', syscall, path);
    if (!this.#may(parent, cred, 2)) throw new FsError('EACCES', syscall, path);
  }

  #create(parent: Inode, name: string, type: FileType, perm: number, cred: Credentials | undefined, time: number): Inode {
    // A set-gid directory passes its group on (and, for directories, the set-gid bit).
    const setgid = (parent.perm & 0o2000) !== 0;
    let uid = cred?.uid ?? 0;
    let gid = setgid ? parent.gid : (cred?.gid ?? 0);
    if (parent.fuse) {
      // The FUSE daemon creates files as itself on the lower file system.
      uid = AID.u0_a185;
      gid = AID.media_rw;
      perm = type === 'directory' ? 0o2770 : 0o660;
    } else if (setgid && type === 'directory') {
      perm |= 0o2000;
    }
    const node: Inode = {
      ino: this.#nextIno++,
      type,
      perm,
      uid,
      gid,
      atime: time,
      mtime: time,
      ctime: time,
      data: EMPTY,
      children: type === 'directory' ? new Map() : undefined,
      target: '',
      parent,
      dev: parent.dev,
      readOnly: parent.readOnly,
      fuse: parent.fuse,
      dirSize: parent.dirSize,
    };
    parent.children!.set(name, node);
    parent.mtime = parent.ctime = time;
    return node;
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
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    const {cred} = options;
    if (options.parents) this.mkdir(dirname(path), {recursive: true, cred, mode: 0o775});
    const lookup = this.#lookup(path, true, 'open', cred);
    const now = this.nowSeconds();
    let node = lookup.node;
    if (node) {
      if (node.type === 'directory') throw new FsError('EISDIR', 'open', path);
      if (node.readOnly && cred) throw new FsError('EROFS', 'open', path);
      if (!this.#may(node, cred, 2)) throw new FsError('EACCES', 'open', path);
      if (options.mode !== undefined && !node.fuse) node.perm = options.mode & 0o7777;
    } else {
      this.#checkWritableDir(lookup.parent, cred, 'open', path);
      node = this.#create(lookup.parent, lookup.name, 'file', (options.mode ?? 0o644) & 0o7777, cred, now);
    }
    node.data = new Uint8Array(bytes);
    node.provider = undefined;
    if (options.uid !== undefined) node.uid = options.uid;
    if (options.gid !== undefined) node.gid = options.gid;
    node.mtime = node.atime = options.mtime ?? now;
    node.ctime = now;
    return this.#statOf(node);
  }

  /** Appends to a regular file, creating it (mode 0644, or 0666 under `umask 0`) when missing. Throws like `writeFile`. */
  appendFile(path: string, data: Uint8Array | string, options: AccessOptions = {}): void {
    const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
    let existing: Uint8Array = EMPTY;
    const stat = this.stat(path);
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
    if (options.recursive) {
      const parts = components(path);
      let prefix = '';
      for (const part of parts) {
        prefix += '/' + part;
        const lookup = this.#lookup(prefix, true, 'mkdir', cred);
        if (lookup.node) {
          if (lookup.node.type !== 'directory') throw new FsError('ENOTDIR', 'mkdir', path);
          continue;
        }
        this.#checkWritableDir(lookup.parent, cred, 'mkdir', prefix);
        const node = this.#create(lookup.parent, lookup.name, 'directory', mode, cred, options.mtime ?? this.nowSeconds());
        if (options.mtime !== undefined) node.atime = node.mtime = node.ctime = options.mtime;
      }
      return;
    }
    const lookup = this.#lookup(path, false, 'mkdir', cred);
    if (lookup.node) throw new FsError('EEXIST', 'mkdir', path);
    this.#checkWritableDir(lookup.parent, cred, 'mkdir', path);
    const node = this.#create(lookup.parent, lookup.name, 'directory', mode, cred, options.mtime ?? this.nowSeconds());
    if (options.mtime !== undefined) node.atime = node.mtime = node.ctime = options.mtime;
  }

  /**
   * `symlink(2)`: creates `path` pointing to `target` (not resolved, may dangle). Throws `FsError`:
   * `EEXIST`, `ENOENT`, `EACCES`, `EROFS`.
   */
  symlink(target: string, path: string, options: AccessOptions & {mtime?: number; uid?: number; gid?: number; mode?: number} = {}): void {
    const lookup = this.#lookup(path, false, 'symlink', options.cred);
    if (lookup.node) throw new FsError('EEXIST', 'symlink', path);
    this.#checkWritableDir(lookup.parent, options.cred, 'symlink', path);
    const node = this.#create(
      lookup.parent,
      lookup.name,
      'symlink',
      options.mode ?? 0o777,
      options.cred,
      options.mtime ?? this.nowSeconds(),
    );
    node.target = target;
    if (options.uid !== undefined) node.uid = options.uid;
    if (options.gid !== undefined) node.gid = options.gid;
  }

  /**
   * Removes a file, a symbolic link (not its target) or an empty directory; with `recursive`, a
   * directory and everything in it (`rm -r`). Throws `FsError`: `ENOENT`, `ENOTEMPTY` (a non-empty
   * directory without `recursive`), `EACCES`, `EROFS`, `EISDIR` when `directory: false` is asked
   * for and `path` is a directory (`unlink(2)`).
   */
  remove(path: string, options: AccessOptions & {recursive?: boolean; directory?: boolean} = {}): void {
    const lookup = this.#lookup(path, false, 'unlink', options.cred);
    const node = lookup.node;
    if (!node) throw new FsError('ENOENT', 'unlink', path);
    if (node === this.#root) throw new FsError('EPERM', 'rmdir', path);
    if (node.type === 'directory') {
      if (options.directory === false) throw new FsError('EISDIR', 'unlink', path);
      if (node.children!.size > 0) {
        if (!options.recursive) throw new FsError('ENOTEMPTY', 'rmdir', path);
        for (const name of [...node.children!.keys()]) {
          this.remove(`${path.replace(/\/+$/, '')}/${name}`, {cred: options.cred, recursive: true});
        }
      }
    }
    this.#checkWritableDir(lookup.parent, options.cred, node.type === 'directory' ? 'rmdir' : 'unlink', path);
    lookup.parent.children!.delete(lookup.name);
    lookup.parent.mtime = lookup.parent.ctime = this.nowSeconds();
  }

  /** `rename(2)`: moves `from` to `to`, replacing a file there. Throws `FsError`: `ENOENT`, `EACCES`, `EISDIR`, `ENOTEMPTY`, `EROFS`, `EXDEV`. */
  rename(from: string, to: string, options: AccessOptions = {}): void {
    const source = this.#lookup(from, false, 'rename', options.cred);
    if (!source.node) throw new FsError('ENOENT', 'rename', from);
    const destination = this.#lookup(to, false, 'rename', options.cred);
    this.#checkWritableDir(source.parent, options.cred, 'rename', from);
    this.#checkWritableDir(destination.parent, options.cred, 'rename', to);
    if (destination.parent.dev !== source.node.dev) throw new FsError('EXDEV', 'rename', to);
    const existing = destination.node;
    if (existing === source.node) return;
    if (existing) {
      if (existing.type === 'directory' && source.node.type !== 'directory') throw new FsError('EISDIR', 'rename', to);
      if (existing.type === 'directory' && existing.children!.size > 0) throw new FsError('ENOTEMPTY', 'rename', to);
    }
    source.parent.children!.delete(source.name);
    destination.parent.children!.set(destination.name, source.node);
    source.node.parent = destination.parent;
    const now = this.nowSeconds();
    source.parent.mtime = destination.parent.mtime = now;
    source.node.ctime = now;
  }

  /** `chmod(2)` (links followed): sets the permission bits (`0o7777` at most). Throws like `stat`, and `EPERM` when `cred` doesn't own it. */
  chmod(path: string, mode: number, options: AccessOptions = {}): void {
    const node = this.#existing(path, true, 'chmod', options.cred);
    if (options.cred && options.cred.uid !== 0 && options.cred.uid !== node.uid && !node.fuse) throw new FsError('EPERM', 'chmod', path);
    if (node.readOnly && options.cred) throw new FsError('EROFS', 'chmod', path);
    if (!node.fuse) node.perm = mode & 0o7777;
    node.ctime = this.nowSeconds();
  }

  /** `lchown`-like owner change without checks (seeding, and `root`'s `chown`). */
  chown(path: string, uid: number, gid: number): void {
    const node = this.#existing(path, false, 'chown', undefined);
    node.uid = uid;
    node.gid = gid;
  }

  /** `utimes(2)`: sets access and modification times in seconds (links followed unless `follow: false`, like `lutimes`). */
  utimes(path: string, atime: number, mtime: number, options: AccessOptions & {follow?: boolean} = {}): void {
    const node = this.#existing(path, options.follow ?? true, 'utimes', options.cred);
    if (options.cred && options.cred.uid !== 0 && options.cred.uid !== node.uid && !node.fuse && !this.#may(node, options.cred, 2)) {
      throw new FsError('EACCES', 'utimes', path);
    }
    node.atime = atime;
    node.mtime = mtime;
    node.ctime = this.nowSeconds();
  }

  /** Marks the directory at `path` (and what is created under it later) as a mount point with these properties (seeding). */
  mount(path: string, options: {dev: number; readOnly?: boolean; fuse?: boolean; dirSize?: number}): void {
    const node = this.#existing(path, true, 'mount', undefined);
    const apply = (inode: Inode): void => {
      inode.dev = options.dev;
      inode.readOnly = options.readOnly ?? false;
      inode.fuse = options.fuse ?? false;
      if (options.dirSize !== undefined) inode.dirSize = options.dirSize;
      if (inode.children) for (const child of inode.children.values()) apply(child);
    };
    apply(node);
  }
}

/** 2009-01-01T00:00:00Z, the time stamp of every file in Android's system images. */
export const SYSTEM_TIME = Date.UTC(2009, 0, 1) / 1000;

/** Time stamps of the seeded user files (seconds): some days before the default device clock (2024-03-01T12:00:00Z). */
const T = {
  setup: Date.UTC(2024, 1, 5, 9, 14, 27) / 1000,
  photo1: Date.UTC(2024, 1, 17, 14, 3, 51) / 1000,
  photo2: Date.UTC(2024, 1, 17, 14, 4, 9) / 1000,
  video: Date.UTC(2024, 1, 24, 18, 30, 2) / 1000,
  download: Date.UTC(2024, 1, 28, 10, 45, 33) / 1000,
  tmp: Date.UTC(2024, 1, 29, 16, 20, 0) / 1000,
  screenshot: Date.UTC(2024, 2, 1, 8, 12, 45) / 1000,
};

/** A deterministic byte pattern of `size` bytes (photo/video bodies), started with `header`. */
export function patternBytes(size: number, header: readonly number[] = [], seed = 1): Uint8Array {
  const data = new Uint8Array(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i += 1) {
    // xorshift32: fixed, fast, and looks like compressed data.
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    data[i] = x & 0xff;
  }
  data.set(header.slice(0, size));
  return data;
}

/** A JPEG-looking body: SOI + JFIF APP0 header, pattern data, EOI. */
function jpeg(size: number, seed: number): Uint8Array {
  const data = patternBytes(size, [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01], seed);
  data[size - 2] = 0xff;
  data[size - 1] = 0xd9;
  return data;
}

/** A short, valid PDF document with one empty page. */
function pdf(): string {
  return [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
    '',
  ].join('\n');
}

/** The home folder of the Termux app (`$HOME` in its terminal). */
export const TERMUX_HOME = '/data/data/com.termux/files/home';

/** The uid of the Termux app, whose programs run as it. */
export function termuxUid(): number {
  return SEEDED_PACKAGES.find((seed) => seed.name === 'com.termux')!.uid;
}

/** `/system/build.prop` lines for the given properties (`key=value`, grouped as the build writes them). */
export function buildProp(properties: ReadonlyMap<string, string>): string {
  const lines = ['', '# begin common build properties', '# autogenerated by build/make/tools/buildinfo.sh'];
  for (const [key, value] of properties) {
    if (key.startsWith('ro.')) lines.push(`${key}=${value}`);
  }
  lines.push('# end common build properties', '');
  return lines.join('\n');
}

/** Seeds a new file system with the layout of a Pixel 7 on Android 14 (see the module comment); `at` sets the clock of each step. */
function seed(fs: MemoryFileSystem, at: (seconds: number) => void): void {
  const dir = (path: string, perm: number, uid: number, gid: number, mtime = SYSTEM_TIME) => {
    at(mtime);
    fs.mkdir(path, {mode: perm, mtime});
    fs.chown(path, uid, gid);
    fs.chmod(path, perm);
    fs.utimes(path, mtime, mtime);
  };
  const file = (path: string, data: Uint8Array | string, perm: number, uid: number, gid: number, mtime = SYSTEM_TIME) => {
    at(mtime);
    fs.writeFile(path, data, {mode: perm, mtime, uid, gid});
  };
  // Root links (`/sdcard`, `/bin`, …) are `lrw-r--r--` as init makes them; toybox's are `lrwxr-xr-x root shell`.
  const link = (path: string, target: string, mtime = SYSTEM_TIME, mode = 0o777, gid = 0) => {
    at(mtime);
    fs.symlink(target, path, {mtime, uid: 0, gid, mode});
  };

  // The root: a read-only erofs/ext4 image on Android 10 and later (system-as-root).
  for (const name of ['acct', 'apex', 'config', 'data', 'debug_ramdisk', 'dev', 'linkerconfig', 'metadata', 'mnt', 'odm', 'oem']) {
    dir(`/${name}`, 0o755, 0, 0);
  }
  dir('/proc', 0o555, 0, 0);
  dir('/product', 0o755, 0, 0);
  dir('/storage', 0o751, 0, AID.sdcard_rw);
  dir('/sys', 0o755, 0, 0);
  dir('/system', 0o755, 0, 0);
  dir('/system_ext', 0o755, 0, 0);
  dir('/vendor', 0o755, 0, AID.shell);
  link('/sdcard', '/storage/self/primary', SYSTEM_TIME, 0o644);
  link('/bin', '/system/bin', SYSTEM_TIME, 0o644);
  link('/etc', '/system/etc', SYSTEM_TIME, 0o644);
  link('/d', '/sys/kernel/debug', SYSTEM_TIME, 0o644);
  at(SYSTEM_TIME);
  fs.chmod('/data', 0o771);
  fs.chown('/data', AID.system, AID.system);
  fs.chmod('/mnt', 0o755);
  fs.chown('/mnt', 0, AID.system);
  fs.chmod('/config', 0o555);

  // /system: the system image.
  for (const name of ['app', 'bin', 'etc', 'fonts', 'framework', 'lib', 'lib64', 'priv-app', 'usr', 'xbin']) {
    dir(`/system/${name}`, 0o755, 0, name === 'bin' || name === 'xbin' ? AID.shell : 0);
  }
  file('/system/build.prop', buildProp(new Map()), 0o600, 0, 0);
  for (const name of [
    'sh',
    'toybox',
    'app_process64',
    'linker64',
    'logcat',
    'screencap',
    'cmd',
    'dumpsys',
    'getprop',
    'setprop',
    'input',
  ]) {
    file(
      `/system/bin/${name}`,
      patternBytes(4096 + name.length * 512, [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1], name.length),
      0o755,
      0,
      AID.shell,
    );
  }
  // Android's "multi-call" programs are links to toybox, and the Java wrappers scripts.
  for (const name of ['ls', 'cat', 'mkdir', 'rm', 'touch', 'stat', 'mv', 'cp', 'chmod', 'ln', 'uname', 'uptime', 'id', 'echo', 'sleep']) {
    link(`/system/bin/${name}`, 'toybox', SYSTEM_TIME, 0o755, AID.shell);
  }
  link('/system/bin/app_process', 'app_process64', SYSTEM_TIME, 0o755, AID.shell);
  for (const name of ['am', 'bu', 'pm', 'settings', 'wm', 'monkey']) {
    file(`/system/bin/${name}`, `#!/system/bin/sh\n# Script to start "${name}" on the device\n`, 0o755, 0, AID.shell);
  }
  file('/system/etc/hosts', '127.0.0.1       localhost\n::1             ip6-localhost\n', 0o644, 0, 0);
  file('/system/framework/framework.jar', patternBytes(8192, [0x50, 0x4b, 0x03, 0x04], 7), 0o644, 0, 0);
  // Every preinstalled app's APK, and the apps the user installed (in /data/app, below).
  for (const seed of SEEDED_PACKAGES) {
    const apk = buildApk({packageName: seed.name, versionCode: seed.versionCode, versionName: seed.versionName});
    if (seed.system) {
      at(SYSTEM_TIME);
      fs.mkdir(dirname(seed.path), {recursive: true, mode: 0o755, mtime: SYSTEM_TIME});
      file(seed.path, apk, 0o644, 0, 0);
    }
  }
  fs.mount('/system', {dev: 0xfd00, readOnly: true});
  fs.mount('/product', {dev: 0xfd00, readOnly: true});
  fs.mount('/system_ext', {dev: 0xfd00, readOnly: true});
  fs.mount('/vendor', {dev: 0xfd01, readOnly: true});

  // /data: f2fs, writable; only a few directories are open to shell.
  for (const [path, perm, uid, gid] of [
    ['/data/local', 0o751, 0, 0],
    ['/data/local/tmp', 0o771, AID.shell, AID.shell],
    ['/data/app', 0o771, AID.system, AID.system],
    ['/data/data', 0o771, AID.system, AID.system],
    ['/data/user', 0o711, AID.system, AID.system],
    ['/data/media', 0o770, AID.media_rw, AID.media_rw],
    ['/data/misc', 0o1771, AID.system, AID.misc],
    ['/data/misc/adb', 0o2750, AID.system, AID.shell],
    ['/data/system', 0o775, AID.system, AID.system],
    ['/data/anr', 0o775, AID.system, AID.system],
    ['/data/tombstones', 0o771, AID.system, AID.system],
    ['/data/user_de', 0o711, AID.system, AID.system],
    ['/data/vendor', 0o771, 0, 0],
  ] as const) {
    dir(path, perm, uid, gid, T.setup);
  }
  link('/data/user/0', '/data/data', T.setup);
  for (const seed of SEEDED_PACKAGES) {
    if (seed.system) continue;
    const apk = buildApk({packageName: seed.name, versionCode: seed.versionCode, versionName: seed.versionName});
    dir(dirname(dirname(seed.path)), 0o775, AID.system, AID.system, T.setup);
    dir(dirname(seed.path), 0o775, AID.system, AID.system, T.setup);
    file(seed.path, apk, 0o644, AID.system, AID.system, T.setup);
    for (const split of seed.splits ?? []) {
      const splitApk = buildApk({packageName: seed.name, versionCode: seed.versionCode, versionName: seed.versionName, split});
      file(`${dirname(seed.path)}/split_${split}.apk`, splitApk, 0o644, AID.system, AID.system, T.setup);
    }
    dir(`/data/data/${seed.name}`, 0o700, seed.uid, seed.uid, T.setup);
  }
  // Termux's home, which its user serves with `python -m http.server 8080` (http-server.ts).
  const termux = termuxUid();
  dir(dirname(TERMUX_HOME), 0o771, termux, termux, T.setup);
  dir(TERMUX_HOME, 0o700, termux, termux, T.setup);
  file(
    `${TERMUX_HOME}/index.html`,
    '<!DOCTYPE html>\n<title>Termux</title>\n<h1>Hello from the phone</h1>\n',
    0o600,
    termux,
    termux,
    T.download,
  );
  file('/data/misc/adb/adb_keys', '', 0o640, AID.system, AID.shell, T.setup);
  file(
    '/data/system/packages.xml',
    '<?xml version="1.0" encoding="utf-8" standalone="yes" ?>\n<packages />\n',
    0o640,
    AID.system,
    AID.system,
    T.setup,
  );
  file(
    '/data/local/tmp/app-debug.apk',
    buildApk({packageName: 'com.example.app', versionCode: 1, versionName: '1.0'}),
    0o666,
    AID.shell,
    AID.shell,
    T.tmp,
  );
  file('/data/local/tmp/notes.txt', 'Remember: /data/local/tmp is writable by the shell user.\n', 0o666, AID.shell, AID.shell, T.tmp);
  fs.mount('/data', {dev: 0xfd05, dirSize: 3452});

  // Shared storage: /storage/emulated/0 is MediaProvider's FUSE view of /data/media/0.
  dir('/storage/emulated', 0o711, 0, AID.sdcard_rw, T.setup);
  dir('/storage/self', 0o755, 0, 0, T.setup);
  link('/storage/self/primary', '/mnt/user/0/primary', T.setup);
  dir('/mnt/user', 0o755, 0, 0, T.setup);
  dir('/mnt/user/0', 0o755, 0, 0, T.setup);
  link('/mnt/user/0/primary', '/storage/emulated/0', T.setup);
  dir('/storage/emulated/0', 0o2770, AID.u0_a185, AID.media_rw, T.setup);
  const storage = '/storage/emulated/0';
  for (const name of [
    'Alarms',
    'Android',
    'Audiobooks',
    'DCIM',
    'Documents',
    'Download',
    'Movies',
    'Music',
    'Notifications',
    'Pictures',
    'Podcasts',
    'Recordings',
    'Ringtones',
  ]) {
    dir(`${storage}/${name}`, name === 'Android' ? 0o2771 : 0o2770, name === 'Android' ? AID.media_rw : AID.u0_a185, AID.media_rw, T.setup);
  }
  dir(`${storage}/Android/data`, 0o2771, AID.media_rw, AID.media_rw, T.setup);
  dir(`${storage}/Android/media`, 0o2770, AID.u0_a185, AID.media_rw, T.setup);
  dir(`${storage}/Android/obb`, 0o2771, AID.media_rw, AID.media_rw, T.setup);
  dir(`${storage}/DCIM/Camera`, 0o2770, AID.u0_a185, AID.media_rw, T.photo1);
  dir(`${storage}/Pictures/Screenshots`, 0o2770, AID.u0_a185, AID.media_rw, T.screenshot);
  const media = (path: string, data: Uint8Array | string, mtime: number) =>
    file(`${storage}/${path}`, data, 0o660, AID.u0_a185, AID.media_rw, mtime);
  media('DCIM/Camera/PXL_20240217_140351123.jpg', jpeg(48_213, 3), T.photo1);
  media('DCIM/Camera/PXL_20240217_140409876.jpg', jpeg(51_877, 4), T.photo2);
  media(
    'DCIM/Camera/PXL_20240224_183002451.mp4',
    patternBytes(131_072, [0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d], 5),
    T.video,
  );
  media('Download/report.pdf', pdf(), T.download);
  media('Download/cache-1.tmp', patternBytes(2048, [], 6), T.tmp);
  media('Download/cache-2.tmp', patternBytes(1024, [], 8), T.tmp);
  media('Documents/todo.txt', 'Buy milk\nCall Alice\n', T.download);
  media(
    'Pictures/Screenshots/Screenshot_20240301-081245.png',
    patternBytes(24_576, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 9),
    T.screenshot,
  );
  media('Pictures/screenshot.png', screenPng(270, 600), T.screenshot);
  dir(`${storage}/My Files`, 0o2770, AID.u0_a185, AID.media_rw, T.download);
  media('My Files/old.txt', 'An old note.\n', T.setup);
  // The FUSE mount: owners and modes as MediaProvider reports them; shell gets access regardless.
  fs.mount('/storage', {dev: 0x1c, dirSize: 80});
  fs.mount(storage, {dev: 0x36, fuse: true, dirSize: 3452});
}
