/* Packet framing: see packet.h. */
#include "packet.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int read_exactly(int fd, void *buffer, size_t length) {
  char *p = buffer;
  while (length > 0) {
    ssize_t n = read(fd, p, length);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = 0;
      return -1;
    }
    p += n;
    length -= (size_t)n;
  }
  return 0;
}

int write_all(int fd, const void *buffer, size_t length) {
  const char *p = buffer;
  while (length > 0) {
    ssize_t n = write(fd, p, length);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    p += n;
    length -= (size_t)n;
  }
  return 0;
}

int send_packet(int fd, uint8_t id, const void *data, size_t length) {
  char header[5];
  uint32_t le = (uint32_t)length;
  header[0] = (char)id;
  header[1] = (char)(le & 0xff);
  header[2] = (char)((le >> 8) & 0xff);
  header[3] = (char)((le >> 16) & 0xff);
  header[4] = (char)((le >> 24) & 0xff);
  if (length <= 4096) {
    /* One write keeps small packets whole on the stream. */
    char buffer[5 + 4096];
    memcpy(buffer, header, 5);
    if (length > 0) memcpy(buffer + 5, data, length);
    return write_all(fd, buffer, 5 + length);
  }
  if (write_all(fd, header, 5) < 0) return -1;
  return write_all(fd, data, length);
}

int send_text(int fd, uint8_t id, const char *text) { return send_packet(fd, id, text, strlen(text)); }

int read_packet(int fd, uint8_t *id, char **data, uint32_t *length) {
  unsigned char header[5];
  if (read_exactly(fd, header, 5) < 0) return -1;
  uint32_t n = (uint32_t)header[1] | ((uint32_t)header[2] << 8) | ((uint32_t)header[3] << 16) | ((uint32_t)header[4] << 24);
  if (n > PACKET_READ_MAX) {
    errno = EMSGSIZE;
    return -1;
  }
  char *buffer = malloc((size_t)n + 1);
  if (!buffer) return -1;
  if (n > 0 && read_exactly(fd, buffer, n) < 0) {
    free(buffer);
    return -1;
  }
  buffer[n] = '\0';
  *id = header[0];
  *data = buffer;
  *length = n;
  return 0;
}
