/**
 * Android's shell and toolbox for the sandbox: mksh and toybox built from Debian's source packages
 * (the upstream tarballs, checked against Debian's SHA-256) with the options Android 14 builds them
 * with, so that they behave as a phone's do:
 *
 * - mksh 59c (`@(#)MIRBSD KSH R59 2020/10/31`, the release `external/mksh` has at
 *   android-14.0.0_r50) with `external/mksh/Android.bp`'s defines: `MKSHRC_PATH` /system/etc/mkshrc
 *   (read by every interactive shell), `MKSH_DEFAULT_PROFILEDIR` /system/etc, `MKSH_DEFAULT_EXECSHELL`
 *   /system/bin/sh, `MKSH_DEFAULT_TMPDIR` /data/local, UTF-8 always, no persistent history, and
 *   ` Android` after the version.
 * - toybox 0.8.9 (android-14.0.0_r1's; r50 has a 0.8.10 snapshot) with the commands of
 *   `external/toybox/Android.bp` (`toybox_symlinks`, and those compiled in without a link),
 *   `TOYBOX_ON_ANDROID` (Android's `ps` columns and the like) and SELinux support, linked with the
 *   sandbox's own libselinux (`device/native/libselinux/`: enforcing, the shell's context). The
 *   Android-only commands that need more of libselinux or liblog (`log`, `chcon`, `restorecon`,
 *   …) are not built; `ANDROID_ONLY` lists them.
 *
 * Built once per machine and source version into `node_modules/.cache/tango-device/` (a lock
 * keeps two processes from building at once), which takes about 25 s on two cores. Where the
 * source can't be fetched or built, Debian's `mksh` and `toybox` packages stand in, and the
 * difference is printed once (`$KSH_VERSION` and the rc file's path, `ps`'s columns, the missing
 * `dd`, `diff`, `expr`, `tr`, `vi`, `stty`, `more`, `lsof`, `gzip`).
 */
import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

/** Where the built programs are kept between runs. */
const CACHE = fileURLToPath(new URL('../../../node_modules/.cache/tango-device/', import.meta.url));

/** The source packages: Debian bookworm's pool, with the SHA-256 its `Sources` index gives. */
/** The sandbox's libselinux: its header folder and source. */
const LIBSELINUX = fileURLToPath(new URL('../../native/libselinux/', import.meta.url));

const SOURCES = {
  mksh: {
    url: 'http://deb.debian.org/debian/pool/main/m/mksh/mksh_59c.orig.tar.gz',
    sha256: '77ae1665a337f1c48c61d6b961db3e52119b38e58884d1c89684af31f87bc506',
    folder: 'mksh',
  },
  toybox: {
    url: 'http://deb.debian.org/debian/pool/main/t/toybox/toybox_0.8.9+dfsg.orig.tar.xz',
    sha256: '16fb5967531e88ca33b8c9142376987617ebe52e34e2b3f3a779603674b7d07c',
    folder: 'toybox-0.8.9',
  },
} as const;

/**
 * `external/mksh/Android.bp` (android-14.0.0_r50): the defines that change what the shell does,
 * quoted for `Build.sh`, which evaluates `CPPFLAGS` once more.
 */
const MKSH_DEFINES = [
  '-DMKSH_ASSUME_UTF8',
  '-DMKSH_DONT_EMIT_IDSTRING',
  '-DHAVE_PERSISTENT_HISTORY=0',
  '-DMKSH_DEFAULT_PROFILEDIR=\\"/system/etc\\"',
  '-DMKSHRC_PATH=\\"/system/etc/mkshrc\\"',
  '-DMKSH_DEFAULT_EXECSHELL=\\"/system/bin/sh\\"',
  '-DMKSH_DEFAULT_TMPDIR=\\"/data/local\\"',
  '-DKSH_VERSIONNAME_VENDOR_EXT=\\"\\ Android\\"',
];

/**
 * `external/toybox/Android.bp` at android-14.0.0_r50: the links in /system/bin (`toybox_symlinks`,
 * 187 names).
 */
export const ANDROID_TOYBOX_SYMLINKS: readonly string[] = (
  '[ acpi base64 basename blockdev brctl cal cat chattr chcon chgrp chmod chown chroot chrt cksum clear comm cmp cp cpio cut ' +
  'date dd devmem df diff dirname dmesg dos2unix du echo egrep env expand expr fallocate false fgrep file find flock fmt free ' +
  'fsync getconf getenforce getfattr gpiodetect gpiofind gpioget gpioinfo gpioset grep groups gunzip gzip head hostname ' +
  'hwclock i2cdetect i2cdump i2cget i2cset i2ctransfer iconv id ifconfig inotifyd insmod install ionice iorenice kill killall ' +
  'load_policy ln log logger logname losetup ls lsattr lsmod lsof lspci lsusb md5sum memeater mkdir mkfifo mknod mkswap ' +
  'mktemp microcom modinfo more mount mountpoint mv nc netcat netstat nice nl nohup nproc nsenter od paste patch pgrep pidof ' +
  'pkill pmap printenv printf ps pwd readelf readlink realpath renice restorecon rm rmdir rmmod rtcwake runcon sed sendevent ' +
  'seq setenforce setfattr setsid sha1sum sha224sum sha256sum sha384sum sha512sum sleep sort split stat strings stty swapoff ' +
  'swapon sync sysctl tac tail tar taskset tee test time timeout top touch tr true truncate tty uclampset ulimit umount uname ' +
  'uniq unix2dos unlink unshare uptime usleep uudecode uuencode uuidgen vi vmstat watch wc which whoami xargs xxd yes zcat'
).split(' ');

/** Compiled into Android's toybox without a link (`toybox NAME` runs them). */
const ANDROID_TOYBOX_UNLINKED =
  'blkdiscard blkid freeramdisk fsfreeze getopt help iotop makedevs modprobe nbd-client partprobe ping pivot_root pwdx rev rfkill traceroute tunctl vconfig'.split(
    ' ',
  );

/**
 * Android's toybox commands this build leaves out: SELinux and liblog ones (`toys/android/`),
 * and those newer than 0.8.9. `log` is the framework client instead (it writes to the device's
 * log, as Android's does).
 */
export const ANDROID_ONLY = ['chcon', 'i2ctransfer', 'load_policy', 'log', 'memeater', 'restorecon', 'runcon', 'sendevent', 'setenforce'];

/** The programs the image gets, as host paths, and the toybox links to make. */
export interface ShellPrograms {
  mksh: string;
  toybox: string;
  /** The libselinux toybox loads (`/system/lib64/libselinux.so.1`), or `undefined` for Debian's toybox. */
  selinux: string | undefined;
  /** The `/system/bin` links to toybox: Android's list, less what this toybox lacks. */
  toyboxCommands: string[];
  /** Whether mksh and toybox are Debian's binary packages rather than the Android-configured build. */
  fallback: boolean;
}

/** Downloads and checks a source tarball into `dir`, then unpacks it there. */
function fetchSource(source: (typeof SOURCES)[keyof typeof SOURCES], dir: string): string {
  const archive = join(dir, source.url.slice(source.url.lastIndexOf('/') + 1));
  execFileSync(
    process.execPath,
    [
      '-e',
      `fetch(process.argv[1]).then(async (r) => { if (!r.ok) throw new Error(r.status + ' ' + r.url); require('fs').writeFileSync(process.argv[2], Buffer.from(await r.arrayBuffer())); })`,
      source.url,
      archive,
    ],
    {stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000},
  );
  const digest = createHash('sha256').update(readFileSync(archive)).digest('hex');
  if (digest !== source.sha256) throw new Error(`${source.url}: SHA-256 ${digest}, expected ${source.sha256}`);
  execFileSync('tar', ['xf', archive, '-C', dir]);
  return join(dir, source.folder);
}

function buildMksh(work: string): string {
  const dir = fetchSource(SOURCES.mksh, work);
  execFileSync('sh', ['Build.sh', '-r'], {
    cwd: dir,
    env: {...process.env, CPPFLAGS: MKSH_DEFINES.join(' ')},
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return join(dir, 'mksh');
}

/** Builds the sandbox's libselinux into `work/lib` (with the `libselinux.so` link the linker looks for). */
function buildLibselinux(work: string): string {
  const lib = join(work, 'lib');
  mkdirSync(lib, {recursive: true});
  const output = join(lib, 'libselinux.so.1');
  execFileSync(
    'cc',
    [
      '-O2',
      '-Wall',
      '-shared',
      '-fPIC',
      `-I${join(LIBSELINUX, 'include')}`,
      '-Wl,-soname,libselinux.so.1',
      '-o',
      output,
      join(LIBSELINUX, 'selinux.c'),
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  symlinkSync('libselinux.so.1', join(lib, 'libselinux.so'));
  return output;
}

function buildToybox(work: string): string {
  const dir = fetchSource(SOURCES.toybox, work);
  // TOYBOX_ON_ANDROID is probed from the compiler (__ANDROID__, bionic's); say yes for glibc.
  const genconfig = join(dir, 'scripts/genconfig.sh');
  writeFileSync(genconfig, readFileSync(genconfig, 'utf8').replace('#ifndef __ANDROID__', '#ifndef __linux__'));
  execFileSync('make', ['allnoconfig'], {cwd: dir, stdio: ['ignore', 'ignore', 'pipe']});
  const configPath = join(dir, '.config');
  let config = readFileSync(configPath, 'utf8');
  const wanted = [...ANDROID_TOYBOX_SYMLINKS, ...ANDROID_TOYBOX_UNLINKED].filter((name) => name !== '[' && !ANDROID_ONLY.includes(name));
  const options = [
    'TOYBOX_FLOAT',
    'TOYBOX_HELP',
    'TOYBOX_HELP_DASHDASH',
    'TOYBOX_I18N',
    'TOYBOX_SUID',
    'TOYBOX_FREE',
    'TOYBOX_FORK',
    'TOYBOX_SELINUX',
  ];
  for (const name of [...wanted.map((command) => command.toUpperCase().replace(/-/g, '_')), ...options]) {
    // allnoconfig leaves out the options whose dependencies were off (getenforce needs SELinux).
    if (config.includes(`# CONFIG_${name} is not set`)) config = config.replace(`# CONFIG_${name} is not set`, `CONFIG_${name}=y`);
    else if (!config.includes(`CONFIG_${name}=`)) config += `CONFIG_${name}=y\n`;
  }
  // The security module is a choice: SELinux instead of none.
  config = config.replace('CONFIG_TOYBOX_LSM_NONE=y', '# CONFIG_TOYBOX_LSM_NONE is not set');
  writeFileSync(configPath, config);
  execFileSync('sh', ['-c', "yes '' | make oldconfig"], {cwd: dir, stdio: ['ignore', 'ignore', 'pipe']});
  // Android.bp adds the vendor suffix: `toybox --version` prints `toybox 0.8.9-android`.
  const env = {...process.env, CFLAGS: `-I${join(LIBSELINUX, 'include')} -DTOYBOX_VENDOR="-android"`, LDFLAGS: `-L${join(work, 'lib')}`};
  execFileSync('make', ['-j2', 'toybox'], {cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe']});
  return join(dir, 'toybox');
}

/** Waits for (or takes) the build lock: a folder whose `pid` file names the builder. */
function lock(path: string): () => void {
  for (;;) {
    try {
      mkdirSync(path);
      writeFileSync(join(path, 'pid'), String(process.pid));
      return () => rmSync(path, {recursive: true, force: true});
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let owner = 0;
      try {
        owner = Number(readFileSync(join(path, 'pid'), 'utf8'));
      } catch {
        // Being written: try again.
      }
      let alive = true;
      if (owner > 0) {
        try {
          process.kill(owner, 0);
        } catch {
          alive = false;
        }
      } else if (Date.now() - statSync(path).mtimeMs > 5_000) {
        alive = false;
      }
      if (!alive) rmSync(path, {recursive: true, force: true});
      else execFileSync('sleep', ['0.2']);
    }
  }
}

let found: ShellPrograms | undefined;

/**
 * The programs (built on first use, see the module comment). Throws when neither the build nor
 * Debian's packages give them, naming the packages to install.
 */
export function shellPrograms(): ShellPrograms {
  if (found) return found;
  const key = createHash('sha256')
    .update(JSON.stringify([SOURCES, MKSH_DEFINES, ANDROID_TOYBOX_SYMLINKS, ANDROID_TOYBOX_UNLINKED]))
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(readFileSync(join(LIBSELINUX, 'selinux.c')))
    .update(readFileSync(join(LIBSELINUX, 'include/selinux/selinux.h')))
    .digest('hex')
    .slice(0, 16);
  const dir = join(CACHE, `shell-${key}`);
  const mksh = join(dir, 'mksh');
  const toybox = join(dir, 'toybox');
  const selinux = join(dir, 'libselinux.so.1');
  let fallback = false;
  if (!existsSync(mksh) || !existsSync(toybox) || !existsSync(selinux)) {
    mkdirSync(CACHE, {recursive: true});
    const unlock = lock(join(CACHE, `shell-${key}.lock`));
    try {
      if (!existsSync(mksh) || !existsSync(toybox) || !existsSync(selinux)) {
        const work = join(CACHE, `shell-${key}.work-${process.pid}`);
        rmSync(work, {recursive: true, force: true});
        mkdirSync(work, {recursive: true});
        try {
          const builtMksh = buildMksh(work);
          const builtSelinux = buildLibselinux(work);
          const builtToybox = buildToybox(work);
          mkdirSync(dir, {recursive: true});
          renameSync(builtMksh, mksh);
          renameSync(builtSelinux, selinux);
          renameSync(builtToybox, toybox);
        } catch (error) {
          const reason = String((error as {stderr?: Buffer}).stderr ?? (error as Error).message)
            .trim()
            .split('\n')
            .slice(-3)
            .join(' ');
          console.warn(
            `simulated device: building Android's mksh and toybox failed (${reason}); using Debian's mksh and toybox, ` +
              'which read ~/.mkshrc, show another $KSH_VERSION and ps layout, and lack dd, diff, expr, tr, vi, stty, more, lsof and gzip',
          );
          fallback = true;
        } finally {
          rmSync(work, {recursive: true, force: true});
        }
      }
    } finally {
      unlock();
    }
  }
  if (fallback) {
    const debian = {mksh: '/bin/mksh', toybox: '/usr/bin/toybox'};
    for (const [name, path] of Object.entries(debian)) {
      if (!existsSync(path)) throw new Error(`The simulated device needs ${name}: apt-get install -y ${name}`);
    }
    found = {...debian, selinux: undefined, toyboxCommands: linkable(debian.toybox), fallback};
  } else {
    found = {mksh, toybox, selinux, toyboxCommands: linkable(toybox, selinux), fallback};
  }
  return found;
}

/** Android's toybox links that this toybox can serve (run with its libselinux, when it has one). */
function linkable(toybox: string, selinux?: string): string[] {
  const env = selinux ? {...process.env, LD_LIBRARY_PATH: join(selinux, '..')} : process.env;
  const has = new Set(execFileSync(toybox, [], {encoding: 'utf8', env}).split(/\s+/));
  return ANDROID_TOYBOX_SYMLINKS.filter((name) => has.has(name) && !ANDROID_ONLY.includes(name));
}
