/*
 * The part of libselinux's interface that toybox uses (`lib/lsm.h`, `toys/android/getenforce.c`),
 * for `device/native/libselinux/selinux.c`: the sandbox's stand-in for Android's libselinux.
 */
#ifndef TANGO_DEVICE_SELINUX_H
#define TANGO_DEVICE_SELINUX_H

#include <sys/types.h>

int is_selinux_enabled(void);
int security_getenforce(void);
int getcon(char **context);
int getpidcon(pid_t pid, char **context);
void freecon(char *context);
int setfscreatecon(const char *context);
int getfilecon(const char *path, char **context);
int lgetfilecon(const char *path, char **context);
int fgetfilecon(int fd, char **context);
int setfilecon(const char *path, const char *context);
int lsetfilecon(const char *path, const char *context);
int fsetfilecon(int fd, const char *context);

#endif
