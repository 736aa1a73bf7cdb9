/* Request fields: see request.h. */
#include "request.h"

#include <stdlib.h>
#include <string.h>

int request_parse(struct request *request, char *data, uint32_t length) {
  memset(request, 0, sizeof(*request));
  if (length == 0 || data[length - 1] != '\0') return -1;
  char *p = data;
  char *end = data + length;
  request->op = p;
  p += strlen(p) + 1;
  while (p < end) {
    char *equals = strchr(p, '=');
    size_t size = strlen(p);
    if (!equals) return -1;
    *equals = '\0';
    char *value = equals + 1;
    if (strcmp(p, "arg") == 0) {
      if (request->arg_count >= REQUEST_MAX_LIST) return -1;
      request->args[request->arg_count++] = value;
    } else if (strcmp(p, "env") == 0) {
      if (request->env_count >= REQUEST_MAX_LIST) return -1;
      request->envs[request->env_count++] = value;
    } else {
      if (request->field_count >= 64) return -1;
      request->keys[request->field_count] = p;
      request->values[request->field_count] = value;
      request->field_count++;
    }
    p += size + 1;
  }
  request->args[request->arg_count] = NULL;
  request->envs[request->env_count] = NULL;
  return 0;
}

const char *request_get(const struct request *request, const char *key, const char *fallback) {
  for (int i = 0; i < request->field_count; i++)
    if (strcmp(request->keys[i], key) == 0) return request->values[i];
  return fallback;
}

long request_number(const struct request *request, const char *key, long fallback) {
  const char *value = request_get(request, key, NULL);
  if (!value || !*value) return fallback;
  char *end;
  long number = strtol(value, &end, 10);
  return *end ? fallback : number;
}

int request_append(char **buffer, uint32_t *length, uint32_t *capacity, const char *text) {
  size_t size = strlen(text) + 1;
  if (*length + size > *capacity) {
    uint32_t grown = *capacity ? *capacity : 1024;
    while (*length + size > grown) grown *= 2;
    char *bigger = realloc(*buffer, grown);
    if (!bigger) return -1;
    *buffer = bigger;
    *capacity = grown;
  }
  memcpy(*buffer + *length, text, size);
  *length += (uint32_t)size;
  return 0;
}
