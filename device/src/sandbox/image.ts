/**
 * The programs of the system image: Android's shell (mksh) and toybox with the links Android 14
 * installs in `/system/bin`, the dynamic linker and the C libraries they load, the device's own
 * programs (`init`, adbd's device side, the framework client under the names of the framework
 * programs it stands for), the `/system/bin` scripts that run `cmd` or `app_process` as Android's
 * do, `/system/etc` (mkshrc, the user names, the linker's cache and preloads) and the files laid
 * over the sandbox's `/proc`.
 *
 * The C libraries are the host's glibc: the sandbox's programs are built for it, where a phone's
 * are built for bionic. They live in `/system/lib64` and the linker is `/system/bin/linker64`,
 * Android's paths; `/system/etc/passwd` and `group` hold Android's user names for glibc (bionic
 * has them built in).
 */
import {execFileSync} from 'node:child_process';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  lchownSync,
  lutimesSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import {dirname, join} from 'node:path';

import {AID, idName} from '../fs.ts';
import {SYSTEM_TIME, buildPartitions, type Partitions} from '../rootfs.ts';
import {FRAMEWORK_PROGRAMS, SYSTEM_BIN_SCRIPTS} from './framework-programs.ts';
import {PROC_FILES} from './kernel.ts';
import {MKSHRC} from './mkshrc.ts';
import {nativePrograms} from './native.ts';
import {processTable} from './processes.ts';
import {shellPrograms, type ShellPrograms} from './programs.ts';
import {Sandbox} from './sandbox.ts';

/** The dynamic linker's path in the programs Debian builds (their ELF `PT_INTERP`). */
const HOST_INTERPRETER = '/lib64/ld-linux-x86-64.so.2';
/** glibc's C.UTF-8 locale on the host (Debian's libc-bin). */
const HOST_C_UTF8 = '/usr/lib/locale/C.utf8';

/** Android's dynamic linker path, which the sandbox's programs are made to name instead. */
const DEVICE_INTERPRETER = '/system/bin/linker64';

/**
 * A copy of an ELF program that loads with `/system/bin/linker64`: its `PT_INTERP` string (the
 * host linker's path) is overwritten in place, padded with NULs (the new path is shorter).
 * Throws when the program names another linker.
 */
function withDeviceInterpreter(program: Uint8Array, name: string): Uint8Array {
  const bytes = Buffer.from(program);
  const host = Buffer.from(`${HOST_INTERPRETER}\0`);
  const at = bytes.indexOf(host);
  if (at < 0) throw new Error(`${name} does not load with ${HOST_INTERPRETER}`);
  const device = Buffer.alloc(host.length);
  device.write(DEVICE_INTERPRETER);
  device.copy(bytes, at);
  return bytes;
}

/**
 * The shared libraries a program loads, as `ldd` lists them (host paths, the linker left out);
 * `libraryPath` is searched first (toybox's own libselinux).
 */
function librariesOf(program: string, libraryPath?: string): string[] {
  const env = libraryPath ? {...process.env, LD_LIBRARY_PATH: libraryPath} : process.env;
  const output = execFileSync('ldd', [program], {encoding: 'utf8', env});
  return [...output.matchAll(/=>\s+(\S+)\s+\(/g)].map((match) => match[1]!);
}

/** What the image builder writes, remembered to set times (and owners) once everything is in. */
class ImageWriter {
  readonly #root: string;
  readonly #entries: {path: string; symlink: boolean}[] = [];

  constructor(root: string) {
    this.#root = root;
  }

  #host(path: string): string {
    return join(this.#root, path);
  }

  dir(path: string, mode = 0o755, gid = 0): void {
    mkdirSync(this.#host(path), {recursive: true});
    chmodSync(this.#host(path), mode);
    this.#chown(path, 0, gid);
    this.#entries.push({path, symlink: false});
  }

  file(path: string, data: Uint8Array | string, mode = 0o644, gid = 0): void {
    writeFileSync(this.#host(path), data);
    chmodSync(this.#host(path), mode);
    this.#chown(path, 0, gid);
    this.#entries.push({path, symlink: false});
  }

  copy(path: string, from: string, mode = 0o644, gid = 0): void {
    copyFileSync(from, this.#host(path));
    chmodSync(this.#host(path), mode);
    this.#chown(path, 0, gid);
    this.#entries.push({path, symlink: false});
  }

  symlink(path: string, target: string, gid = 0): void {
    symlinkSync(target, this.#host(path));
    try {
      lchownSync(this.#host(path), 0, gid);
    } catch {
      // A contributor's unprivileged run keeps its own owner.
    }
    this.#entries.push({path, symlink: true});
  }

  #chown(path: string, uid: number, gid: number): void {
    try {
      chownSync(this.#host(path), uid, gid);
    } catch {
      // A contributor's unprivileged run keeps its own owner.
    }
  }

  /** Gives everything written, and the folders it went in, the system image's time stamp. */
  finish(): void {
    const dirs = new Set<string>();
    for (const {path, symlink} of this.#entries) {
      if (symlink) lutimesSync(this.#host(path), SYSTEM_TIME, SYSTEM_TIME);
      else utimesSync(this.#host(path), SYSTEM_TIME, SYSTEM_TIME);
      for (let parent = dirname(path); parent !== '/' && parent !== '.'; parent = dirname(parent)) dirs.add(parent);
    }
    for (const dir of dirs) utimesSync(this.#host(dir), SYSTEM_TIME, SYSTEM_TIME);
  }
}

/** `/system/etc/passwd` and `group`: Android's ids with their names (`android_filesystem_config.h`), and app ids `u0_aN`. */
function userNames(): {passwd: string; group: string} {
  const ids = [...new Set(Object.values(AID))].sort((a, b) => a - b);
  const apps = Array.from({length: 1000}, (_, index) => 10000 + index);
  const passwd = [...ids, ...apps].map((id) => `${idName(id)}:x:${id}:${id}::/:/system/bin/sh`);
  const group = [...ids, ...apps].map((id) => `${idName(id)}:x:${id}:`);
  return {passwd: passwd.join('\n') + '\n', group: group.join('\n') + '\n'};
}

/** Installs the programs into a freshly laid-out image (`buildPartitions`). */
function installPrograms(partitions: Partitions, programs: ShellPrograms): void {
  const native = nativePrograms();
  const image = new ImageWriter(partitions.image);
  const bin = '/system/bin';

  // The shell and toybox, loading with Android's linker path; toybox's commands as links.
  image.file(`${bin}/sh`, withDeviceInterpreter(readFileSync(programs.mksh), 'mksh'), 0o755, AID.shell);
  image.file(`${bin}/toybox`, withDeviceInterpreter(readFileSync(programs.toybox), 'toybox'), 0o755, AID.shell);
  for (const name of programs.toyboxCommands) image.symlink(`${bin}/${name}`, 'toybox', AID.shell);

  // The linker, the C libraries, and what every program preloads: the device kernel's answers.
  image.copy(`${bin}/linker64`, HOST_INTERPRETER, 0o755, AID.shell);
  const libraries = new Set<string>();
  for (const program of [programs.mksh, programs.toybox, native.device, native.kernelShim]) {
    for (const library of librariesOf(program, programs.selinux && dirname(programs.selinux))) libraries.add(library);
  }
  for (const library of libraries) image.copy(`/system/lib64/${library.slice(library.lastIndexOf('/') + 1)}`, library);
  image.copy('/system/lib64/libsimulated_kernel.so', native.kernelShim);
  // glibc's C.UTF-8 locale, which the kernel shim loads for programs that ask for the environment's.
  const copyTree = (from: string, to: string) => {
    image.dir(to);
    for (const name of readdirSync(from)) {
      if (statSync(join(from, name)).isDirectory()) copyTree(join(from, name), `${to}/${name}`);
      else image.copy(`${to}/${name}`, join(from, name));
    }
  };
  copyTree(HOST_C_UTF8, '/system/usr/locale/C.utf8');
  image.file('/system/etc/ld.so.conf', '/system/lib64\n');
  image.file('/system/etc/ld.so.preload', '/system/lib64/libsimulated_kernel.so\n');
  execFileSync('ldconfig', ['-r', partitions.image, '-f', '/system/etc/ld.so.conf', '-C', '/system/etc/ld.so.cache']);
  chmodSync(join(partitions.image, 'system/etc/ld.so.cache'), 0o644);
  utimesSync(join(partitions.image, 'system/etc/ld.so.cache'), SYSTEM_TIME, SYSTEM_TIME);

  // The device's own programs: init, adbd's device side, and the framework client under each name.
  image.copy(`${bin}/init`, native.device, 0o755, AID.shell);
  image.dir('/apex/com.android.adbd/bin', 0o755, AID.shell);
  // Copies, not hard links: on a phone each is a file of its own (`ls -l` shows one link).
  image.copy('/apex/com.android.adbd/bin/adbd', native.device, 0o755, AID.shell);
  for (const name of FRAMEWORK_PROGRAMS) image.copy(`${bin}/${name}`, native.device, 0o755, AID.shell);
  image.symlink(`${bin}/app_process`, 'app_process64', AID.shell);
  for (const [name, script] of Object.entries(SYSTEM_BIN_SCRIPTS)) image.file(`${bin}/${name}`, script, 0o755, AID.shell);
  for (const dir of ['/apex/com.android.runtime/bin', '/apex/com.android.art/bin', '/product/bin', '/system_ext/bin', '/vendor/bin']) {
    image.dir(dir, 0o755, AID.shell);
  }

  // /system/etc: the shell's rc file, the user names, and the processes init starts.
  image.dir('/system/etc/init');
  image.file('/system/etc/init/simulated_processes', processTable());
  const {passwd, group} = userNames();
  image.file('/system/etc/mkshrc', MKSHRC);
  image.file('/system/etc/passwd', passwd);
  image.file('/system/etc/group', group);

  // The files laid over /proc: what describes the phone rather than the host.
  for (const [path, content] of Object.entries(PROC_FILES)) {
    const host = join(partitions.image, 'proc', path);
    mkdirSync(dirname(host), {recursive: true});
    writeFileSync(host, content);
  }
  image.finish();
}

let partitions: Partitions | undefined;

/**
 * The partitions every device of this process shares, made on first use: the tree
 * (`buildPartitions`) and the programs. Throws when a program it needs is missing from the
 * machine (the message names the package).
 */
export function processPartitions(): Partitions {
  if (!partitions) {
    // Where no sandbox can run, the device still has its files (sync, the package manager), and
    // its shell services answer why it has no shell.
    const programs = Sandbox.unavailable() ? undefined : shellPrograms();
    const built = buildPartitions({sandbox: programs !== undefined});
    if (programs) installPrograms(built, programs);
    partitions = built;
  }
  return partitions;
}
