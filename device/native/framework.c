/*
 * The client every framework program in the sandbox is a link to: `cmd`, `dumpsys`,
 * `app_process64`, `getprop`, `setprop`, `logcat`, `screencap`, `bugreportz` and the like. On a
 * phone these talk to system_server, logd and init over binder and sockets; here the Node.js side
 * plays those services (device/src/framework/), reached over /dev/socket/system_server.
 *
 * The client sends its argv, environment, working directory, ids and whether its stdout is a
 * terminal, then does what the other side asks: writes to stdout and stderr, reads stdin only when
 * asked (so a program that never reads stdin leaves it to the shell, as a Java program does), and
 * exits with the code it is given. A signal that kills it (Ctrl+C, a closed pipe) ends the
 * connection, which stops the command on the other side.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "packet.h"
#include "request.h"

extern char **environ;

int framework_main(int argc, char **argv);

#define SYSTEM_SERVER_SOCKET "/dev/socket/system_server"

static int append_field(char **buffer, uint32_t *length, uint32_t *capacity, const char *key, const char *value) {
  size_t size = strlen(key) + 1 + strlen(value) + 1;
  char *field = malloc(size);
  if (!field) return -1;
  snprintf(field, size, "%s=%s", key, value);
  int result = request_append(buffer, length, capacity, field);
  free(field);
  return result;
}

/* Answers an ID_READ: one read of stdin, unless the other side speaks first (then 1 is returned). */
static int serve_read(int conn, long limit) {
  if (limit <= 0 || limit > PACKET_DATA_MAX) limit = PACKET_DATA_MAX;
  for (;;) {
    struct pollfd fds[2] = {{.fd = STDIN_FILENO, .events = POLLIN}, {.fd = conn, .events = POLLIN}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)) {
      char buffer[PACKET_DATA_MAX];
      ssize_t n = read(STDIN_FILENO, buffer, (size_t)limit);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) return send_packet(conn, ID_STDIN, buffer, (size_t)n);
      return send_packet(conn, ID_CLOSE_STDIN, NULL, 0);
    }
    if (fds[1].revents) return 1;
  }
}

int framework_main(int argc, char **argv) {
  (void)argc;
  int conn = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  snprintf(address.sun_path, sizeof(address.sun_path), "%s", SYSTEM_SERVER_SOCKET);
  if (conn < 0 || connect(conn, (struct sockaddr *)&address, sizeof(address)) < 0) {
    fprintf(stderr, "%s: can't reach the system server: %s\n", argv[0], strerror(errno));
    return 1;
  }
  char *buffer = NULL;
  uint32_t length = 0, capacity = 0;
  char cwd[PATH_MAX];
  char number[32];
  request_append(&buffer, &length, &capacity, "exec");
  for (char **arg = argv; *arg; arg++) append_field(&buffer, &length, &capacity, "arg", *arg);
  for (char **env = environ; env && *env; env++) append_field(&buffer, &length, &capacity, "env", *env);
  append_field(&buffer, &length, &capacity, "cwd", getcwd(cwd, sizeof(cwd)) ? cwd : "/");
  snprintf(number, sizeof(number), "%d", (int)getpid());
  append_field(&buffer, &length, &capacity, "pid", number);
  snprintf(number, sizeof(number), "%d", (int)getuid());
  append_field(&buffer, &length, &capacity, "uid", number);
  append_field(&buffer, &length, &capacity, "stdout_tty", isatty(STDOUT_FILENO) ? "1" : "0");
  append_field(&buffer, &length, &capacity, "stdin_tty", isatty(STDIN_FILENO) ? "1" : "0");
  if (!buffer || send_packet(conn, ID_REQUEST, buffer, length) < 0) return 1;
  free(buffer);

  for (;;) {
    uint8_t id;
    char *data;
    uint32_t size;
    if (read_packet(conn, &id, &data, &size) < 0) return 255;
    switch (id) {
      case ID_STDOUT:
        if (write_all(STDOUT_FILENO, data, size) < 0) return 1;
        break;
      case ID_STDERR:
        if (write_all(STDERR_FILENO, data, size) < 0) return 1;
        break;
      case ID_READ:
        if (serve_read(conn, strtol(data, NULL, 10)) < 0) return 255;
        break;
      case ID_EXIT:
        return size > 0 ? (unsigned char)data[0] : 0;
      case ID_SIGNAL: {
        int number = (int)strtol(data, NULL, 10);
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        signal(number, SIG_DFL);
        raise(number);
        return 128 + number;
      }
      default:
        break;
    }
    free(data);
  }
}
