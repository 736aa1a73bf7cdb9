/*
 * adbd's side inside the sandbox: the part of adbd that has to run on the device, where the
 * shell and its programs live. The Node.js side (device/src/) speaks ADB to the host and asks this
 * process, over the unix socket /dev/socket/adbd, to
 *
 * - "spawn" a process as the shell service does (LineageOS/android_packages_modules_adb
 *   lineage-21.0, daemon/shell_service.cpp `Subprocess::ForkAndExec`, `PassDataStreams`,
 *   `PassInput`, `PassOutput`, `WaitForExit`): a PTY (raw with `raw=1`, as adbd makes it for the
 *   services without the shell protocol) or socketpairs for stdin/stdout and stderr; the child
 *   calls setsid(), resets SIGPIPE, drops to the uid, gid and groups given and runs argv with the
 *   environment given. Standard streams travel as shell-protocol packets on the connection; the exit
 *   packet carries WEXITSTATUS, or 0x80 | signal. When the connection ends first, the child gets
 *   SIGHUP (with `protocol=1`, as adbd sends it) and its streams are closed;
 * - "connect" to a socket inside the sandbox's network (a forward tunnel reaching a device
 *   program: tcp:PORT, tcp:HOST:PORT, localabstract:, localreserved:, localfilesystem:), then relay
 *   bytes;
 * - "listen" on one (a reverse tunnel that device programs connect to): each connection that
 *   arrives is announced by an ID_ACCEPT packet with a token, and a "take" request with that token
 *   relays it.
 *
 * One thread per connection, as adbd runs one per subprocess.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "packet.h"
#include "request.h"

int adbd_main(int argc, char **argv);

/* ---- accepted connections waiting for a "take" ------------------------------------------ */

struct pending {
  unsigned long token;
  int fd;
  int listen_conn;
  struct pending *next;
};

static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pending *pending_list;
static unsigned long next_token = 1;

static unsigned long pending_add(int fd, int listen_conn) {
  struct pending *entry = calloc(1, sizeof(*entry));
  if (!entry) return 0;
  pthread_mutex_lock(&pending_lock);
  entry->token = next_token++;
  entry->fd = fd;
  entry->listen_conn = listen_conn;
  entry->next = pending_list;
  pending_list = entry;
  pthread_mutex_unlock(&pending_lock);
  return entry->token;
}

/* Removes and returns the fd of a token, or -1. */
static int pending_take(unsigned long token) {
  int fd = -1;
  pthread_mutex_lock(&pending_lock);
  for (struct pending **p = &pending_list; *p; p = &(*p)->next) {
    if ((*p)->token == token) {
      struct pending *entry = *p;
      *p = entry->next;
      fd = entry->fd;
      free(entry);
      break;
    }
  }
  pthread_mutex_unlock(&pending_lock);
  return fd;
}

/* Closes what a listener's connections left untaken. */
static void pending_drop(int listen_conn) {
  pthread_mutex_lock(&pending_lock);
  for (struct pending **p = &pending_list; *p;) {
    if ((*p)->listen_conn == listen_conn) {
      struct pending *entry = *p;
      *p = entry->next;
      close(entry->fd);
      free(entry);
    } else {
      p = &(*p)->next;
    }
  }
  pthread_mutex_unlock(&pending_lock);
}

/* ---- helpers ------------------------------------------------------------------------------ */

static void reply(int conn, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void reply(int conn, const char *format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof(text), format, args);
  va_end(args);
  send_text(conn, ID_RESULT, text);
}

static int set_nonblocking(int fd, int on) {
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0) return -1;
  return fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK);
}

/* Parses "1004,1007,…" into `groups`; returns the count. */
static int parse_groups(const char *text, gid_t *groups, int max) {
  int count = 0;
  while (text && *text && count < max) {
    char *end;
    long value = strtol(text, &end, 10);
    if (end == text) break;
    groups[count++] = (gid_t)value;
    text = *end == ',' ? end + 1 : end;
  }
  return count;
}

/* ---- spawn: the shell service ------------------------------------------------------------- */

struct subprocess {
  int conn;
  int conn_dead; /* the connection ended: the caller closes it; nothing more is sent */
  int protocol; /* 1: the shell protocol (stdin may be closed alone; SIGHUP when the host goes) */
  int pty;
  pid_t pid;
  int io;  /* PTY master, or our end of the stdin/stdout socketpair */
  int err; /* our end of the stderr socketpair, or -1 */
};

/* adbd `PassOutput`: a read of `fd`, sent as a packet. Returns 1 when `fd` is done, -1 when the connection is. */
static int pass_output(struct subprocess *sp, int fd, uint8_t id) {
  char buffer[PACKET_DATA_MAX];
  ssize_t n = read(fd, buffer, sizeof(buffer));
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) return 0;
  if (n <= 0) return 1; /* EOF, or EIO once a PTY's other side is gone */
  if (send_packet(sp->conn, id, buffer, (size_t)n) < 0) return -1;
  return 0;
}

/* adbd `PassDataStreams`/`PollLoop`/`PassInput`: relays until the connection, or both outputs, end. */
static void pass_data_streams(struct subprocess *sp) {
  char *input = NULL;
  uint32_t input_length = 0, input_done = 0;
  int conn_alive = 1;
  int io_out = 1, err_out = sp->err >= 0;
  int io_in = 1;
  while (conn_alive && (io_out || err_out)) {
    struct pollfd fds[3];
    fds[0].fd = io_out || io_in ? sp->io : -1;
    fds[0].events = (io_out ? POLLIN : 0) | (input_done < input_length && io_in ? POLLOUT : 0);
    fds[1].fd = err_out ? sp->err : -1;
    fds[1].events = POLLIN;
    fds[2].fd = input_done < input_length ? -1 : sp->conn;
    fds[2].events = POLLIN;
    if (poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[0].fd >= 0 && io_out && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
      int r = pass_output(sp, sp->io, ID_STDOUT);
      if (r < 0) conn_alive = 0;
      else if (r > 0) io_out = 0;
    }
    if (conn_alive && err_out && (fds[1].revents & (POLLIN | POLLHUP | POLLERR))) {
      int r = pass_output(sp, sp->err, ID_STDERR);
      if (r < 0) conn_alive = 0;
      else if (r > 0) err_out = 0;
    }
    if (conn_alive && fds[2].fd >= 0 && (fds[2].revents & (POLLIN | POLLHUP | POLLERR))) {
      uint8_t id;
      char *data = NULL;
      uint32_t length;
      if (read_packet(sp->conn, &id, &data, &length) < 0) {
        conn_alive = 0;
      } else if (id == ID_STDIN && io_in) {
        free(input);
        input = data;
        input_length = length;
        input_done = 0;
        data = NULL;
      } else if (id == ID_CLOSE_STDIN) {
        /* A PTY can't close its input alone: adbd leaves it open. */
        if (!sp->pty && io_in) {
          shutdown(sp->io, SHUT_WR);
          io_in = 0;
        }
      } else if (id == ID_WINDOW_SIZE) {
        int rows, cols, x, y;
        if (sscanf(data, "%dx%d,%dx%d", &rows, &cols, &x, &y) == 4) {
          struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols, .ws_xpixel = (unsigned short)x, .ws_ypixel = (unsigned short)y};
          ioctl(sp->io, TIOCSWINSZ, &ws);
        }
      }
      free(data);
    }
    if (input_done < input_length && io_in) {
      ssize_t n = write(sp->io, input + input_done, input_length - input_done);
      if (n > 0) {
        input_done += (uint32_t)n;
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        /* stdin is done: further input is dropped. */
        input_done = input_length;
        io_in = 0;
      }
    }
  }
  free(input);
  if (!conn_alive) {
    /* The host went away: adbd sends SIGHUP under the shell protocol; without it, closing the PTY hangs it up. */
    if (sp->protocol) kill(sp->pid, SIGHUP);
    close(sp->io);
    sp->io = -1;
    if (sp->err >= 0) close(sp->err);
    sp->err = -1;
    sp->conn_dead = 1;
  }
}

/* adbd `WaitForExit`: the status, then the exit packet if the connection is still there. */
static void wait_for_exit(struct subprocess *sp) {
  int exit_code = 1;
  siginfo_t info;
  memset(&info, 0, sizeof(info));
  while (waitid(P_PID, (id_t)sp->pid, &info, WEXITED) < 0 && errno == EINTR) {
  }
  if (info.si_code == CLD_EXITED) exit_code = info.si_status & 0xff;
  else if (info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED) exit_code = 0x80 | info.si_status;
  if (!sp->conn_dead) {
    unsigned char code = (unsigned char)exit_code;
    send_packet(sp->conn, ID_EXIT, &code, 1);
  }
}

static void spawn(int conn, struct request *rq) {
  struct subprocess sp = {.conn = conn, .pid = -1, .io = -1, .err = -1};
  sp.pty = request_number(rq, "pty", 0) != 0;
  sp.protocol = request_number(rq, "protocol", 1) != 0;
  int raw = request_number(rq, "raw", 0) != 0;
  int merge = request_number(rq, "merge", 0) != 0;
  uid_t uid = (uid_t)request_number(rq, "uid", (long)getuid());
  gid_t gid = (gid_t)request_number(rq, "gid", (long)getgid());
  gid_t groups[64];
  int group_count = parse_groups(request_get(rq, "groups", ""), groups, 64);
  const char *cwd = request_get(rq, "cwd", "/");
  if (rq->arg_count == 0) {
    reply(conn, "error no argv");
    return;
  }
  /* The program, when argv[0] is not its path (a login shell's "-/system/bin/sh"). */
  const char *path = request_get(rq, "path", rq->args[0]);

  int child_io = -1, child_err = -1;
  char pts_name[128] = "";
  if (sp.pty) {
    sp.io = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (sp.io < 0 || unlockpt(sp.io) != 0 || ptsname_r(sp.io, pts_name, sizeof(pts_name)) != 0) {
      reply(conn, "error failed to create pty master: %s", strerror(errno));
      if (sp.io >= 0) close(sp.io);
      return;
    }
    long rows = request_number(rq, "rows", 0), cols = request_number(rq, "cols", 0);
    if (rows > 0 || cols > 0) {
      struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};
      ioctl(sp.io, TIOCSWINSZ, &ws);
    }
  } else {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0) {
      reply(conn, "error failed to create socketpair for stdin/out: %s", strerror(errno));
      return;
    }
    sp.io = pair[0];
    child_io = pair[1];
    if (!merge) {
      if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0) {
        reply(conn, "error failed to create socketpair for stderr: %s", strerror(errno));
        close(sp.io);
        close(child_io);
        return;
      }
      sp.err = pair[0];
      child_err = pair[1];
    }
  }

  int error_pipe[2];
  if (pipe2(error_pipe, O_CLOEXEC) < 0) {
    reply(conn, "error failed to create pipe for subprocess error reporting: %s", strerror(errno));
    return;
  }

  sp.pid = fork();
  if (sp.pid == 0) {
    setsid();
    if (sp.pty) {
      child_io = open(pts_name, O_RDWR | O_CLOEXEC);
      if (child_io < 0) {
        dprintf(error_pipe[1], "child failed to open pseudo-term slave %s: %s", pts_name, strerror(errno));
        _exit(1);
      }
      ioctl(child_io, TIOCSCTTY, 0);
      if (raw) {
        struct termios attributes;
        if (tcgetattr(child_io, &attributes) == 0) {
          cfmakeraw(&attributes);
          tcsetattr(child_io, TCSADRAIN, &attributes);
        }
      }
    }
    dup2(child_io, STDIN_FILENO);
    dup2(child_io, STDOUT_FILENO);
    dup2(child_err >= 0 ? child_err : child_io, STDERR_FILENO);
    signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (getuid() == 0 && uid != 0) {
      if (setgroups((size_t)group_count, groups) < 0 || setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0) {
        dprintf(error_pipe[1], "failed to drop privileges: %s", strerror(errno));
        _exit(1);
      }
    }
    if (chdir(cwd) < 0 && chdir("/") < 0) {
      /* adbd starts every shell in its own working directory, /. */
    }
    execve(path, rq->args, rq->envs);
    dprintf(error_pipe[1], "Exec '%s' failed: %s", path, strerror(errno));
    _exit(1);
  }
  close(error_pipe[1]);
  if (child_io >= 0) close(child_io);
  if (child_err >= 0) close(child_err);
  if (sp.pid < 0) {
    reply(conn, "error fork failed: %s", strerror(errno));
    close(error_pipe[0]);
    close(sp.io);
    if (sp.err >= 0) close(sp.err);
    return;
  }
  char error_text[512];
  size_t error_length = 0;
  for (;;) {
    ssize_t n = read(error_pipe[0], error_text + error_length, sizeof(error_text) - 1 - error_length);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    error_length += (size_t)n;
    if (error_length == sizeof(error_text) - 1) break;
  }
  close(error_pipe[0]);
  error_text[error_length] = '\0';
  if (error_length > 0) {
    while (waitpid(sp.pid, NULL, 0) < 0 && errno == EINTR) {
    }
    reply(conn, "error %s", error_text);
    close(sp.io);
    if (sp.err >= 0) close(sp.err);
    return;
  }
  set_nonblocking(sp.io, 1);
  if (sp.err >= 0) set_nonblocking(sp.err, 1);
  reply(conn, "ok %d", (int)sp.pid);
  pass_data_streams(&sp);
  if (sp.io >= 0) close(sp.io);
  if (sp.err >= 0) close(sp.err);
  sp.io = sp.err = -1;
  wait_for_exit(&sp);
}

/* ---- sockets: forward and reverse tunnels -------------------------------------------------- */

/* The first port a tcp:0 listener gets (see listen_socket). */
#define FIRST_PICKED_PORT 38211

/*
 * Parses an adb socket spec (adb `socket_spec.cpp`): tcp:PORT, tcp:HOST:PORT, localabstract:NAME,
 * localreserved:NAME (/dev/socket/NAME), localfilesystem:PATH and local:PATH. Returns the address
 * length, or -1 with `error` set.
 */
static socklen_t parse_address(const char *spec, struct sockaddr_storage *address, int *family, const char **error) {
  memset(address, 0, sizeof(*address));
  if (strncmp(spec, "tcp:", 4) == 0) {
    const char *rest = spec + 4;
    const char *colon = strrchr(rest, ':');
    const char *host = "127.0.0.1";
    char host_buffer[256];
    if (colon) {
      size_t n = (size_t)(colon - rest);
      if (n >= sizeof(host_buffer)) n = sizeof(host_buffer) - 1;
      memcpy(host_buffer, rest, n);
      host_buffer[n] = '\0';
      host = strcmp(host_buffer, "localhost") == 0 ? "127.0.0.1" : host_buffer;
      rest = colon + 1;
    }
    char *end;
    long port = strtol(rest, &end, 10);
    if (*rest == '\0' || *end || port < 0 || port > 65535) {
      *error = "bad port number";
      return (socklen_t)-1;
    }
    struct sockaddr_in *in = (struct sockaddr_in *)address;
    in->sin_family = AF_INET;
    in->sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, host, &in->sin_addr) != 1) {
      *error = "unknown host";
      return (socklen_t)-1;
    }
    *family = AF_INET;
    return sizeof(*in);
  }
  struct sockaddr_un *un = (struct sockaddr_un *)address;
  un->sun_family = AF_UNIX;
  *family = AF_UNIX;
  const char *name;
  size_t offset = 0;
  char path[sizeof(un->sun_path)];
  if (strncmp(spec, "localabstract:", 14) == 0) {
    name = spec + 14;
    offset = 1; /* the abstract namespace: a leading NUL */
    snprintf(path, sizeof(path), "%s", name);
  } else if (strncmp(spec, "localreserved:", 14) == 0) {
    snprintf(path, sizeof(path), "/dev/socket/%s", spec + 14);
  } else if (strncmp(spec, "localfilesystem:", 16) == 0) {
    snprintf(path, sizeof(path), "%s", spec + 16);
  } else if (strncmp(spec, "local:", 6) == 0) {
    snprintf(path, sizeof(path), "%s", spec + 6);
  } else {
    *error = "unknown socket specification";
    return (socklen_t)-1;
  }
  size_t length = strlen(path);
  if (length + offset >= sizeof(un->sun_path)) {
    *error = "socket name too long";
    return (socklen_t)-1;
  }
  memcpy(un->sun_path + offset, path, length);
  return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + offset + length + (offset ? 0 : 1));
}

/*
 * Relays bytes both ways: `a` is the Node.js side's connection, `b` the device's socket. Each
 * direction runs until its reader ends or its writer fails; a failed write (the device program
 * closed its socket while the host was still sending) does not stop the other direction, so what
 * the program wrote before it closed still reaches the host, as adbd reads a socket's data as it
 * arrives. When the device's socket ends, the Node.js side is told (shutdown), and it closes the
 * stream, as an adb stream has no half-close. Closes both when neither direction is left.
 */
static void relay(int a, int b) {
  char buffer[64 * 1024];
  int fds_of[2] = {a, b};
  int open_from[2] = {1, 1}; /* open_from[i]: bytes still flow from fds_of[i] to the other */
  while (open_from[0] || open_from[1]) {
    struct pollfd fds[2] = {{.fd = open_from[0] ? a : -1, .events = POLLIN}, {.fd = open_from[1] ? b : -1, .events = POLLIN}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    /* The device's socket first: its data is what must not be lost. */
    for (int k = 0; k < 2; k++) {
      int i = 1 - k;
      if (!open_from[i] || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(fds_of[i], buffer, sizeof(buffer));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        open_from[i] = 0;
        shutdown(fds_of[1 - i], SHUT_WR);
        /* The Node.js side ended: the device's socket gets nothing more, and nothing more is read. */
        if (i == 0) open_from[1] = 0;
      } else if (write_all(fds_of[1 - i], buffer, (size_t)n) < 0) {
        open_from[i] = 0;
        if (i == 1) open_from[0] = 0; /* the Node.js side is gone */
      }
    }
  }
  close(a);
  close(b);
}

/* The request's `address`, parsed, and a stream socket of its family; on failure answers `conn`
 * with the reason and returns -1. */
static int address_socket(int conn, struct request *rq, struct sockaddr_storage *address, int *family, socklen_t *length) {
  const char *error = NULL;
  *length = parse_address(request_get(rq, "address", ""), address, family, &error);
  if (*length == (socklen_t)-1) {
    reply(conn, "error %s", error);
    return -1;
  }
  int fd = socket(*family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) reply(conn, "error %s", strerror(errno));
  return fd;
}

/* Returns -1 when it failed before taking `conn` over (the caller closes it), else 0. */
static int connect_socket(int conn, struct request *rq) {
  struct sockaddr_storage address;
  int family;
  socklen_t length;
  int fd = address_socket(conn, rq, &address, &family, &length);
  if (fd < 0) return -1;
  if (connect(fd, (struct sockaddr *)&address, length) < 0) {
    reply(conn, "error %s", strerror(errno));
    close(fd);
    return -1;
  }
  reply(conn, "ok");
  relay(conn, fd);
  return 0;
}

/* Returns -1 when it failed before taking `conn` over (the caller closes it), else 0. */
static int listen_socket(int conn, struct request *rq) {
  struct sockaddr_storage address;
  int family;
  socklen_t length;
  int fd = address_socket(conn, rq, &address, &family, &length);
  if (fd < 0) return -1;
  int one = 1;
  if (family == AF_INET) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  struct sockaddr_in *in = (struct sockaddr_in *)&address;
  if (family == AF_INET && in->sin_port == 0) {
    /*
     * tcp:0: the kernel would pick a random free port; the device takes the first free one from
     * FIRST_PICKED_PORT (in the kernel's ephemeral range), so that what a program prints of it is
     * the same on every run.
     */
    for (int port = FIRST_PICKED_PORT; port < 61000; port++) {
      in->sin_port = htons((uint16_t)port);
      if (bind(fd, (struct sockaddr *)&address, length) == 0) break;
      if (errno != EADDRINUSE) break;
    }
  } else if (bind(fd, (struct sockaddr *)&address, length) < 0) {
    reply(conn, "error %s", strerror(errno));
    close(fd);
    return -1;
  }
  if (listen(fd, 128) < 0) {
    reply(conn, "error %s", strerror(errno));
    close(fd);
    return -1;
  }
  int port = 0;
  if (family == AF_INET) {
    struct sockaddr_in bound;
    socklen_t size = sizeof(bound);
    if (getsockname(fd, (struct sockaddr *)&bound, &size) == 0) port = ntohs(bound.sin_port);
  }
  reply(conn, "ok %d", port);
  for (;;) {
    struct pollfd fds[2] = {{.fd = fd, .events = POLLIN}, {.fd = conn, .events = POLLIN}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
      /* Node.js stopped listening (killforward, or the host went away). */
      break;
    }
    if (fds[0].revents & POLLIN) {
      int accepted = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
      if (accepted < 0) continue;
      unsigned long token = pending_add(accepted, conn);
      char text[32];
      snprintf(text, sizeof(text), "%lu", token);
      if (send_text(conn, ID_ACCEPT, text) < 0) break;
    }
  }
  close(fd);
  pending_drop(conn);
  close(conn);
  return 0;
}

/* Returns -1 when it failed before taking `conn` over (the caller closes it), else 0. */
static int take_socket(int conn, struct request *rq) {
  int fd = pending_take((unsigned long)request_number(rq, "token", 0));
  if (fd < 0) {
    reply(conn, "error no such connection");
    return -1;
  }
  reply(conn, "ok");
  relay(conn, fd);
  return 0;
}

/* ---- connections from Node.js ---------------------------------------------------------- */

/*
 * Closes a connection once the other side has read everything: stops writing, then reads and
 * drops what still arrives (stdin nobody will read) until the other side closes. Closing with
 * unread data would reset the connection, and the other side would lose output it hadn't read
 * yet (as adb's own sockets avoid, b/74616284).
 */
static void linger_close(int conn) {
  shutdown(conn, SHUT_WR);
  char buffer[16 * 1024];
  for (;;) {
    struct pollfd fd = {.fd = conn, .events = POLLIN};
    int ready = poll(&fd, 1, 10000);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;
    ssize_t n = read(conn, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
  }
  close(conn);
}

static void *serve(void *argument) {
  int conn = (int)(intptr_t)argument;
  uint8_t id;
  char *data;
  uint32_t length;
  struct request *rq = malloc(sizeof(*rq));
  if (!rq || read_packet(conn, &id, &data, &length) < 0) {
    free(rq);
    close(conn);
    return NULL;
  }
  if (id != ID_REQUEST || request_parse(rq, data, length) < 0) {
    reply(conn, "error bad request");
    close(conn);
  } else if (strcmp(rq->op, "spawn") == 0) {
    spawn(conn, rq);
    linger_close(conn);
  } else if (strcmp(rq->op, "connect") == 0) {
    if (connect_socket(conn, rq) < 0) close(conn);
  } else if (strcmp(rq->op, "listen") == 0) {
    if (listen_socket(conn, rq) < 0) close(conn);
  } else if (strcmp(rq->op, "take") == 0) {
    if (take_socket(conn, rq) < 0) close(conn);
  } else {
    reply(conn, "error unknown operation %s", rq->op);
    close(conn);
  }
  free(data);
  free(rq);
  return NULL;
}

/*
 * adbd [OPTIONS]: listens on /dev/socket/adbd and serves each connection in a thread until the
 * listening socket fails. Its options (adbd.rc's `--root_seclabel=…`) change nothing here.
 */
int adbd_main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  const char *path = "/dev/socket/adbd";
  /* adbd ignores SIGPIPE to get EPIPE; its children get SIG_DFL back (see spawn). */
  signal(SIGPIPE, SIG_IGN);
  /* adbd's main() sets umask(0), which every shell inherits. */
  umask(0);
  int server = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  snprintf(address.sun_path, sizeof(address.sun_path), "%s", path);
  unlink(path);
  if (server < 0 || bind(server, (struct sockaddr *)&address, sizeof(address)) < 0 || listen(server, 128) < 0) {
    fprintf(stderr, "adbd: cannot listen on %s: %s\n", path, strerror(errno));
    return 1;
  }
  chmod(path, 0600);
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attributes, 256 * 1024);
  for (;;) {
    int conn = accept4(server, NULL, NULL, SOCK_CLOEXEC);
    if (conn < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      fprintf(stderr, "adbd: accept: %s\n", strerror(errno));
      return 1;
    }
    pthread_t thread;
    if (pthread_create(&thread, &attributes, serve, (void *)(intptr_t)conn) != 0) close(conn);
  }
}
