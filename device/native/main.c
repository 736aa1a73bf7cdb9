/*
 * One program, many names, as toybox is: the simulated device's native side in its sandbox. Its
 * name picks the part: `init` (the sandbox's pid 1), `adbd` (adbd's shell service and socket
 * tunnels), anything else the framework client (`cmd`, `dumpsys`, `getprop`, …).
 */
#include <string.h>

int init_main(int argc, char **argv);
int adbd_main(int argc, char **argv);
int framework_main(int argc, char **argv);

int main(int argc, char **argv) {
  const char *name = argc > 0 ? argv[0] : "";
  const char *slash = strrchr(name, '/');
  if (slash) name = slash + 1;
  if (strcmp(name, "init") == 0) return init_main(argc, argv);
  if (strcmp(name, "adbd") == 0) return adbd_main(argc, argv);
  return framework_main(argc, argv);
}
