/*
 * Preloaded into every program of the sandbox (/system/etc/ld.so.preload): what the device's
 * kernel answers where the host's kernel, which the sandbox runs on, would answer otherwise.
 *
 * - `uname(2)`: the release, version and machine the files laid over /proc/sys/kernel give
 *   (`osrelease`, `version`, `arch`); the node name is the sandbox's own (localhost, as init sets
 *   it on a phone).
 * - The wall clock (`clock_gettime` of the real-time clocks, `gettimeofday`, `time`): the device's
 *   fixed clock when the program started, running on from there (each program starts at the same
 *   instant, so what it prints is the same on every run, and `time` or a loop still sees time pass).
 * - File times (`stat` and its kin, `statx`): a time at or after the device started (it happened
 *   on the device, after boot) reads as the device's clock; earlier ones (the system image's
 *   2009-01-01, the seeded user files) as they are. An access or modification time that was set
 *   (adbd's sync sets the pushed mtime, `touch -d` sets any) stays as set: the kernel stamps a
 *   change's time and its ctime together, so a whole second that differs from the ctime was set.
 * - Directory sizes, by the file system the folder is on in a Pixel (the device's files are on a
 *   host tmpfs, where a directory reports 20 bytes an entry): on /data and shared storage (f2fs,
 *   with inline dentries and the extra attributes `fscompress` needs) a directory small enough to
 *   keep its entries in its inode reports 3452 bytes, f2fs's MAX_INLINE_DATA, and whole 4096-byte
 *   blocks beyond; on /dev, /mnt, /storage and /apex (tmpfs on the phone too) the tmpfs size; on
 *   the rest (ext4 and erofs) whole 4096-byte blocks; 0 (procfs, sysfs) stays 0. The 512-byte
 *   blocks it takes (`st_blocks`, what `ls -s` and `du` count) follow: none for tmpfs and for an
 *   inline f2fs directory (f2fs counts data and xattr blocks in i_blocks, not the inode that holds
 *   inline dentries: `F2FS_HAS_BLOCKS`, `inc_valid_node_count`), whole blocks for the others.
 * - The modes of the symbolic links the build made: what fs_config.cpp gives them on a phone
 *   (`lrw-r--r--` on the root, `lrwxr-xr-x` in /system/bin), where Linux makes every link 0777.
 *
 * - `sysinfo(2)` (what `uptime` reads): the uptime and load averages of the files laid over
 *   /proc/uptime and /proc/loadavg.
 * - The locale: a program asking for the environment's (`setlocale(…, "")`) where no `LC_*` or
 *   `LANG` is set gets C.UTF-8 (from /system/usr/locale), as bionic's C locale handles UTF-8; glibc's
 *   would print a file name like 로보카 as escapes.
 *
 * The clock is the file /dev/.simulated_time: two decimal numbers of seconds since the epoch,
 * the device clock and the host time the device started at.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define CLOCK_FILE "/dev/.simulated_time"

static long long device_now = -1;
static long long device_boot;
/* The host's real-time clock, in nanoseconds, when this program first asked for the time. */
static long long started_ns;

static long long real_time_ns(void) {
  struct timespec now;
  syscall(SYS_clock_gettime, CLOCK_REALTIME, &now);
  return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

/* The device clock now, in nanoseconds since the epoch. */
static long long device_time_ns(void) {
  return device_now * 1000000000LL + (real_time_ns() - started_ns);
}

static ssize_t read_small(const char *path, char *buffer, size_t size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buffer, size - 1);
  close(fd);
  if (n < 0) return -1;
  buffer[n] = '\0';
  return n;
}

/* Loads the clock file once; without it, times pass through unchanged. */
static int load_clock(void) {
  if (device_now >= 0) return 1;
  if (device_now == -2) return 0;
  char buffer[64];
  if (read_small(CLOCK_FILE, buffer, sizeof(buffer)) <= 0) {
    device_now = -2;
    return 0;
  }
  char *end;
  long long now = strtoll(buffer, &end, 10);
  device_boot = strtoll(end, NULL, 10);
  started_ns = real_time_ns();
  device_now = now;
  return 1;
}

/* A time that utime/utimensat set: a whole second other than the change time (see the top). */
static int was_set(long long sec, long long nsec, long long ctime_sec, long long ctime_nsec) {
  return nsec == 0 && (sec != ctime_sec || nsec != ctime_nsec);
}

static void shift(struct timespec *time) {
  if (time->tv_sec >= device_boot) {
    time->tv_sec = (time_t)device_now;
    time->tv_nsec = 0;
  }
}

static void shift_stat(int result, struct stat *buffer) {
  if (result != 0 || !buffer || !load_clock()) return;
  const struct timespec ctime = buffer->st_ctim;
  if (!was_set(buffer->st_atim.tv_sec, buffer->st_atim.tv_nsec, ctime.tv_sec, ctime.tv_nsec)) shift(&buffer->st_atim);
  if (!was_set(buffer->st_mtim.tv_sec, buffer->st_mtim.tv_nsec, ctime.tv_sec, ctime.tv_nsec)) shift(&buffer->st_mtim);
  shift(&buffer->st_ctim);
}

/* f2fs's MAX_INLINE_DATA: 4 × (923 addresses − 9 of extra attributes − 50 of inline xattrs − 1). */
#define F2FS_INLINE_DIR_SIZE 3452

static int has_prefix(const char *path, const char *prefix) {
  size_t length = strlen(prefix);
  return strncmp(path, prefix, length) == 0 && (path[length] == '/' || path[length] == '\0');
}

/* Writes into `full` the absolute path of `path` taken relative to `dirfd` as the *at calls take
 * it (NULL or "" for `dirfd` itself, AT_FDCWD for the working directory); 0 when it can't. */
static int full_path(int dirfd, const char *path, char *full, size_t size) {
  if (path && path[0] == '/') return (size_t)snprintf(full, size, "%s", path) < size;
  char base[PATH_MAX];
  if (dirfd == AT_FDCWD) {
    if (!getcwd(base, sizeof(base))) return 0;
  } else {
    char link[32];
    snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
    ssize_t n = readlink(link, base, sizeof(base) - 1);
    if (n < 0) return 0;
    base[n] = '\0';
  }
  int length = path && path[0] ? snprintf(full, size, "%s%s%s", base, strcmp(base, "/") == 0 ? "" : "/", path)
                                : snprintf(full, size, "%s", base);
  return length >= 0 && (size_t)length < size;
}

/* Whether the canonical path `full` is on the device's f2fs: /data, and shared storage (the FUSE
 * view of /data/media). The mounts are rootfs.ts's. */
static int on_f2fs(const char *full) { return has_prefix(full, "/data") || has_prefix(full, "/storage/emulated"); }

/* Whether the canonical path `full` is on one of the phone's tmpfs mounts (init.rc mounts /dev,
 * /mnt, /storage and /apex as tmpfs). */
static int on_tmpfs(const char *full) {
  return has_prefix(full, "/dev") || has_prefix(full, "/mnt") || has_prefix(full, "/storage") || has_prefix(full, "/apex");
}

static off_t whole_blocks(off_t size) { return (size + 4095) / 4096 * 4096; }

/* The size the phone's file system gives the directory `path` (see full_path) whose host size is
 * `size`, and in `blocks` the 512-byte blocks it takes there (ext4, erofs, a non-inline f2fs
 * directory: its whole 4096-byte blocks; tmpfs and an inline f2fs directory: none). A directory's
 * last component is no link (or was followed), so its canonical path (realpath: /sdcard is
 * /storage/emulated/0) names the folder the kernel looked at. */
static off_t dir_size(off_t size, int dirfd, const char *path, blkcnt_t *blocks) {
  char full[PATH_MAX];
  char canonical[PATH_MAX];
  if (!full_path(dirfd, path, full, sizeof(full)) || !realpath(full, canonical)) return size;
  if (on_tmpfs(canonical) && !on_f2fs(canonical)) return size;
  if (on_f2fs(canonical) && size <= 4096) {
    *blocks = 0;
    return F2FS_INLINE_DIR_SIZE;
  }
  *blocks = whole_blocks(size) / 512;
  return whole_blocks(size);
}

/* The permission bits of a symbolic link the build made (fs_config.cpp's rules: 0755 in a bin or
 * xbin folder of a partition, 0644 elsewhere, as on the root); 0 for another link (0777, as Linux
 * makes every link). */
static mode_t image_link_mode(int dirfd, const char *path) {
  char full[PATH_MAX];
  if (!full_path(dirfd, path, full, sizeof(full))) return 0;
  char *slash = strrchr(full, '/');
  if (!slash) return 0;
  if (slash == full) return 0644;
  static const char *const partitions[] = {"/system", "/vendor", "/product", "/system_ext", "/odm", "/apex"};
  int on_image = 0;
  for (size_t i = 0; i < sizeof(partitions) / sizeof(partitions[0]); i++) on_image |= has_prefix(full, partitions[i]);
  if (!on_image) return 0;
  *slash = '\0';
  const char *folder = strrchr(full, '/') + 1;
  return strcmp(folder, "bin") == 0 || strcmp(folder, "xbin") == 0 ? 0755 : 0644;
}

static void link_mode(int result, struct stat *buffer, int dirfd, const char *path) {
  if (result != 0 || !buffer || !S_ISLNK(buffer->st_mode)) return;
  mode_t mode = image_link_mode(dirfd, path);
  if (mode) buffer->st_mode = S_IFLNK | mode;
}

static void phone_dir_size(int result, struct stat *buffer, int dirfd, const char *path) {
  if (result == 0 && buffer && S_ISDIR(buffer->st_mode)) buffer->st_size = dir_size(buffer->st_size, dirfd, path, &buffer->st_blocks);
}

#define REAL(name) static __typeof__(name) *real; if (!real) real = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

int stat(const char *path, struct stat *buffer) {
  REAL(stat);
  int result = real(path, buffer);
  shift_stat(result, buffer);
  phone_dir_size(result, buffer, AT_FDCWD, path);
  return result;
}

int lstat(const char *path, struct stat *buffer) {
  REAL(lstat);
  int result = real(path, buffer);
  shift_stat(result, buffer);
  phone_dir_size(result, buffer, AT_FDCWD, path);
  link_mode(result, buffer, AT_FDCWD, path);
  return result;
}

int fstat(int fd, struct stat *buffer) {
  REAL(fstat);
  int result = real(fd, buffer);
  shift_stat(result, buffer);
  phone_dir_size(result, buffer, fd, NULL);
  return result;
}

int fstatat(int dirfd, const char *path, struct stat *buffer, int flags) {
  REAL(fstatat);
  int result = real(dirfd, path, buffer, flags);
  shift_stat(result, buffer);
  phone_dir_size(result, buffer, dirfd, path);
  link_mode(result, buffer, dirfd, path);
  return result;
}

/* On x86_64 the 64 variants have the same layout. */
int stat64(const char *path, struct stat64 *buffer) {
  REAL(stat64);
  int result = real(path, buffer);
  shift_stat(result, (struct stat *)buffer);
  phone_dir_size(result, (struct stat *)buffer, AT_FDCWD, path);
  return result;
}

int lstat64(const char *path, struct stat64 *buffer) {
  REAL(lstat64);
  int result = real(path, buffer);
  shift_stat(result, (struct stat *)buffer);
  phone_dir_size(result, (struct stat *)buffer, AT_FDCWD, path);
  link_mode(result, (struct stat *)buffer, AT_FDCWD, path);
  return result;
}

int fstat64(int fd, struct stat64 *buffer) {
  REAL(fstat64);
  int result = real(fd, buffer);
  shift_stat(result, (struct stat *)buffer);
  phone_dir_size(result, (struct stat *)buffer, fd, NULL);
  return result;
}

int fstatat64(int dirfd, const char *path, struct stat64 *buffer, int flags) {
  REAL(fstatat64);
  int result = real(dirfd, path, buffer, flags);
  shift_stat(result, (struct stat *)buffer);
  phone_dir_size(result, (struct stat *)buffer, dirfd, path);
  link_mode(result, (struct stat *)buffer, dirfd, path);
  return result;
}

static void shift_statx(struct statx_timestamp *time) {
  if (time->tv_sec >= device_boot) {
    time->tv_sec = device_now;
    time->tv_nsec = 0;
  }
}

int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buffer) {
  REAL(statx);
  int result = real(dirfd, path, flags, mask, buffer);
  if (result == 0 && load_clock()) {
    const struct statx_timestamp ctime = buffer->stx_ctime;
    if (!was_set(buffer->stx_atime.tv_sec, buffer->stx_atime.tv_nsec, ctime.tv_sec, ctime.tv_nsec)) shift_statx(&buffer->stx_atime);
    if (!was_set(buffer->stx_mtime.tv_sec, buffer->stx_mtime.tv_nsec, ctime.tv_sec, ctime.tv_nsec)) shift_statx(&buffer->stx_mtime);
    shift_statx(&buffer->stx_ctime);
    shift_statx(&buffer->stx_btime);
  }
  if (result == 0 && S_ISDIR(buffer->stx_mode)) {
    blkcnt_t blocks = (blkcnt_t)buffer->stx_blocks;
    buffer->stx_size = dir_size((off_t)buffer->stx_size, dirfd, path, &blocks);
    buffer->stx_blocks = (__u64)blocks;
  }
  if (result == 0 && S_ISLNK(buffer->stx_mode)) {
    mode_t mode = image_link_mode(dirfd, path);
    if (mode) buffer->stx_mode = S_IFLNK | mode;
  }
  return result;
}

int clock_gettime(clockid_t clock, struct timespec *time) {
  REAL(clock_gettime);
  int result = real(clock, time);
  if (result == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE || clock == CLOCK_TAI) && load_clock()) {
    long long ns = device_time_ns();
    time->tv_sec = (time_t)(ns / 1000000000LL);
    time->tv_nsec = (long)(ns % 1000000000LL);
  }
  return result;
}

int gettimeofday(struct timeval *restrict time, void *restrict zone) {
  REAL(gettimeofday);
  int result = real(time, zone);
  if (result == 0 && load_clock()) {
    long long ns = device_time_ns();
    time->tv_sec = (time_t)(ns / 1000000000LL);
    time->tv_usec = (suseconds_t)(ns % 1000000000LL / 1000);
  }
  return result;
}

time_t time(time_t *out) {
  REAL(time);
  time_t result = real(out);
  if (load_clock()) {
    result = (time_t)(device_time_ns() / 1000000000LL);
    if (out) *out = result;
  }
  return result;
}

/* Replaces `field` with the first line of `path`, when it can be read. */
static void read_into(const char *path, char *field, size_t size) {
  char buffer[sizeof(((struct utsname *)0)->version)];
  if (read_small(path, buffer, sizeof(buffer)) <= 0) return;
  char *newline = strchr(buffer, '\n');
  if (newline) *newline = '\0';
  strncpy(field, buffer, size - 1);
  field[size - 1] = '\0';
}

int uname(struct utsname *name) {
  REAL(uname);
  int result = real(name);
  if (result != 0) return result;
  read_into("/proc/sys/kernel/osrelease", name->release, sizeof(name->release));
  read_into("/proc/sys/kernel/version", name->version, sizeof(name->version));
  read_into("/proc/sys/kernel/arch", name->machine, sizeof(name->machine));
  return 0;
}

char *setlocale(int category, const char *locale) {
  REAL(setlocale);
  if (locale && locale[0] == '\0' && !getenv("LC_ALL") && !getenv("LC_CTYPE") && !getenv("LANG") && !getenv("LOCPATH")) {
    setenv("LOCPATH", "/system/usr/locale", 1);
    char *result = real(category, "C.UTF-8");
    unsetenv("LOCPATH");
    if (result) return result;
  }
  return real(category, locale);
}

int sysinfo(struct sysinfo *info) {
  REAL(sysinfo);
  int result = real(info);
  if (result != 0) return result;
  char buffer[128];
  if (read_small("/proc/uptime", buffer, sizeof(buffer)) > 0) info->uptime = strtol(buffer, NULL, 10);
  if (read_small("/proc/loadavg", buffer, sizeof(buffer)) > 0) {
    char *p = buffer;
    for (int i = 0; i < 3; i++) {
      double load = strtod(p, &p);
      info->loads[i] = (unsigned long)(load * (1 << SI_LOAD_SHIFT) + 0.5);
    }
  }
  return 0;
}
