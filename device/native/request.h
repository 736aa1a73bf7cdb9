/*
 * A request's fields: the data of an ID_REQUEST packet is NUL-terminated strings, the operation
 * first ("spawn", "connect", "listen", "take", "exec"), then `key=value` fields. `arg` and `env`
 * may repeat (argv and the environment, in order); any other key is taken once.
 */
#ifndef TANGO_DEVICE_REQUEST_H
#define TANGO_DEVICE_REQUEST_H

#include <stdint.h>

#define REQUEST_MAX_LIST 4096

struct request {
  const char *op;
  char *args[REQUEST_MAX_LIST + 1];
  int arg_count;
  char *envs[REQUEST_MAX_LIST + 1];
  int env_count;
  /* Fields other than arg and env, as found. */
  const char *keys[64];
  const char *values[64];
  int field_count;
};

/* Splits `data` (kept by the caller while the request is used). Returns 0, or -1 when malformed. */
int request_parse(struct request *request, char *data, uint32_t length);

/* The value of a single field, or `fallback`. */
const char *request_get(const struct request *request, const char *key, const char *fallback);

/* A field as a decimal number, or `fallback`. */
long request_number(const struct request *request, const char *key, long fallback);

/* Appends a NUL-terminated string to a buffer that grows (for building requests). */
int request_append(char **buffer, uint32_t *length, uint32_t *capacity, const char *text);

#endif
