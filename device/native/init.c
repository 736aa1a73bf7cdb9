/*
 * The sandbox's pid 1, as Android's init is the phone's: it starts adbd's device side
 * (/apex/com.android.adbd/bin/adbd, a link to this program) and reaps every process orphaned in
 * the sandbox. When adbd ends, the sandbox ends with it. SIGTERM from outside ends it too: as pid 1
 * of its namespace, its exit kills every process left in the sandbox.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int init_main(int argc, char **argv);

#define ADBD_PATH "/apex/com.android.adbd/bin/adbd"

static volatile sig_atomic_t stopping;

static void on_term(int signal_number) {
  (void)signal_number;
  stopping = 1;
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

  pid_t adbd = fork();
  if (adbd == 0) {
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    char *adbd_argv[] = {ADBD_PATH, "/dev/socket/adbd", NULL};
    execv(ADBD_PATH, adbd_argv);
    fprintf(stderr, "init: cannot start %s: %s\n", ADBD_PATH, strerror(errno));
    _exit(127);
  }
  if (adbd < 0) {
    fprintf(stderr, "init: fork: %s\n", strerror(errno));
    return 1;
  }
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
