/*
 * Framing shared by the sandbox's programs and the Node.js side of the simulated device: the
 * shell protocol's packet, `id u8, length u32 LE, data` (adbd `shell_protocol.h`), with adbd's ids
 * 0-5 and the device's own ids from 16 on (requests and replies between Node.js and the sandbox).
 */
#ifndef TANGO_DEVICE_PACKET_H
#define TANGO_DEVICE_PACKET_H

#include <stddef.h>
#include <stdint.h>

enum {
  /* adbd shell_protocol.h ShellProtocol::Id */
  ID_STDIN = 0,
  ID_STDOUT = 1,
  ID_STDERR = 2,
  ID_EXIT = 3,
  ID_CLOSE_STDIN = 4,
  ID_WINDOW_SIZE = 5,
  /* The device's own. */
  ID_REQUEST = 16, /* first packet of a connection: NUL-terminated strings, the operation then key=value fields */
  ID_READ = 17,    /* framework side -> client: read up to N (decimal) bytes of stdin and send them */
  ID_ACCEPT = 18,  /* adbd -> Node.js on a listen connection: a connection arrived, its token (decimal) */
  ID_RESULT = 19,  /* reply to a request: "ok[ detail]" or "error TEXT" */
  ID_SIGNAL = 20,  /* framework side -> client: die of this signal (decimal), as a process the runtime aborts */
};

/* Largest data of one packet this side sends (adbd's shell protocol buffer is 32 KiB). */
#define PACKET_DATA_MAX (32 * 1024)

/* Largest data of a packet this side accepts. */
#define PACKET_READ_MAX (4 * 1024 * 1024)

/* Reads exactly `length` bytes; 0 on success, -1 on end of stream or error (errno 0 at the end). */
int read_exactly(int fd, void *buffer, size_t length);

/* Writes all of `length` bytes, retrying on EINTR; 0 on success, -1 on error. */
int write_all(int fd, const void *buffer, size_t length);

/* Sends one packet; 0 on success, -1 on error. */
int send_packet(int fd, uint8_t id, const void *data, size_t length);

/* Sends one packet whose data is a NUL-free string. */
int send_text(int fd, uint8_t id, const char *text);

/*
 * Reads one packet into a buffer it allocates (freed by the caller, NUL-terminated past `length`).
 * Returns 0, or -1 at the end of the stream or on an error (errno 0 at the end).
 */
int read_packet(int fd, uint8_t *id, char **data, uint32_t *length);

#endif
