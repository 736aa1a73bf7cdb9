/*
 * The sandbox's pid 1, as Android's init is the phone's: it starts adbd's device side
 * (/apex/com.android.adbd/bin/adbd, a link to this program) and the processes a phone runs
 * besides (system_server, surfaceflinger, the apps…: /system/etc/init/simulated_processes), each
 * with the pid, user and command line the file gives, and reaps every process orphaned in the
 * sandbox. The other processes only sleep. When adbd ends, the sandbox ends with it. SIGTERM from
 * outside ends it too: as pid 1 of its namespace, its exit kills every process left in the sandbox.
 *
 * Pids are chosen by writing the one before to /proc/sys/kernel/ns_last_pid (the sandbox's pid
 * namespace), so they are the same on every run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int init_main(int argc, char **argv);
int sleeper_main(void);

#define ADBD_PATH "/apex/com.android.adbd/bin/adbd"
#define PROCESS_TABLE "/system/etc/init/simulated_processes"

static volatile sig_atomic_t stopping;

static void on_term(int signal_number) {
  (void)signal_number;
  stopping = 1;
}

/* Makes the next process started get `pid` (best effort). */
static void next_pid(long pid) {
  int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
  if (fd < 0) return;
  dprintf(fd, "%ld", pid - 1);
  close(fd);
}

/*
 * Becomes a process that only sleeps, with the command line `args` (NUL-separated, `count`
 * arguments) and the user and group `uid`/`gid`: drops to them, then runs this program again
 * under that command line (SIMULATED_SLEEPER in the environment picks the part, see main.c).
 */
static void become_sleeper(char *args, int count, uid_t uid, gid_t gid) {
  char *argv[64];
  int n = 0;
  for (char *p = args; n < count && n < 63; p += strlen(p) + 1) argv[n++] = p;
  argv[n] = NULL;
  char *envp[] = {"SIMULATED_SLEEPER=1", NULL};
  for (int fd = 0; fd < 1024; fd++) close(fd);
  setgroups(0, NULL);
  if (setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0) _exit(1);
  execve("/system/bin/init", argv, envp);
  _exit(127);
}

/* What a sleeper runs: nothing, until a signal ends it. */
int sleeper_main(void) {
  for (;;) pause();
}

/* Reads the process table; starts the sleepers; returns adbd's pid (0 when not given). */
static long start_processes(long *next) {
  long adbd = 0;
  FILE *table = fopen(PROCESS_TABLE, "re");
  if (!table) return 0;
  char line[1024];
  while (fgets(line, sizeof(line), table)) {
    line[strcspn(line, "\n")] = '\0';
    long pid, uid, gid;
    int used = 0;
    if (sscanf(line, "adbd %ld", &pid) == 1) {
      adbd = pid;
    } else if (sscanf(line, "next %ld", &pid) == 1) {
      *next = pid;
    } else if (sscanf(line, "process %ld %ld %ld %n", &pid, &uid, &gid, &used) == 3 && used > 0) {
      char *args = line + used;
      int count = 1;
      for (char *p = args; *p; p++)
        if (*p == ' ') {
          *p = '\0';
          count++;
        }
      next_pid(pid);
      pid_t child = fork();
      if (child == 0) become_sleeper(args, count, (uid_t)uid, (gid_t)gid);
    }
  }
  fclose(table);
  return adbd;
}

int init_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  prctl(PR_SET_NAME, "init");
  struct sigaction action;
  memset(&action, 0, sizeof(action));
  action.sa_handler = on_term;
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGINT, &action, NULL);

  long next = 0;
  long adbd_pid = start_processes(&next);
  if (adbd_pid > 0) next_pid(adbd_pid);
  pid_t adbd = fork();
  if (adbd == 0) {
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    /* adbd.rc: `service adbd /apex/com.android.adbd/bin/adbd --root_seclabel=u:r:su:s0`. */
    char *adbd_argv[] = {ADBD_PATH, "--root_seclabel=u:r:su:s0", NULL};
    execv(ADBD_PATH, adbd_argv);
    fprintf(stderr, "init: cannot start %s: %s\n", ADBD_PATH, strerror(errno));
    _exit(127);
  }
  if (adbd < 0) {
    fprintf(stderr, "init: fork: %s\n", strerror(errno));
    return 1;
  }
  if (next > 0) next_pid(next + 1);
  while (!stopping) {
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid == adbd) {
      fprintf(stderr, "init: adbd ended (status %d)\n", status);
      return 1;
    }
    if (pid < 0 && errno != EINTR) pause();
  }
  return 0;
}
