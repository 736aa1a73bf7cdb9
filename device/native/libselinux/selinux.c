/*
 * The sandbox's libselinux (/system/lib64/libselinux.so.1): the sandbox runs on a host kernel
 * without SELinux, and toybox asks the library what Android's would answer.
 *
 * - SELinux is enabled and enforcing (`getenforce` prints `Enforcing`, as on a retail Pixel).
 * - A process's context is the one Android gives adbd's children: `u:r:shell:s0` for the shell
 *   user, `u:r:su:s0` after `adb root` (adbd's `--root_seclabel=u:r:su:s0`, LineageOS/
 *   android_packages_modules_adb `apex/adbd.rc`); `id` prints it as `context=…`.
 * - Files carry no labels here: asking for one fails with ENODATA, as on a file system without
 *   them, and toybox prints `?` (`ls -Z`); setting one fails with ENOTSUP.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "selinux/selinux.h"

int is_selinux_enabled(void) { return 1; }

int security_getenforce(void) { return 1; }

int getcon(char **context) {
  *context = strdup(getuid() == 0 ? "u:r:su:s0" : "u:r:shell:s0");
  return *context ? 0 : -1;
}

int getpidcon(pid_t pid, char **context) {
  (void)pid;
  return getcon(context);
}

void freecon(char *context) { free(context); }

int setfscreatecon(const char *context) {
  (void)context;
  return 0;
}

static int no_label(char **context) {
  *context = NULL;
  errno = ENODATA;
  return -1;
}

int getfilecon(const char *path, char **context) {
  (void)path;
  return no_label(context);
}

int lgetfilecon(const char *path, char **context) {
  (void)path;
  return no_label(context);
}

int fgetfilecon(int fd, char **context) {
  (void)fd;
  return no_label(context);
}

static int cannot_label(void) {
  errno = ENOTSUP;
  return -1;
}

int setfilecon(const char *path, const char *context) {
  (void)path;
  (void)context;
  return cannot_label();
}

int lsetfilecon(const char *path, const char *context) {
  (void)path;
  (void)context;
  return cannot_label();
}

int fsetfilecon(int fd, const char *context) {
  (void)fd;
  (void)context;
  return cannot_label();
}
