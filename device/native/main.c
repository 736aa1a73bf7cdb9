/*
 * One program, many names, as toybox is: the simulated device's native side in its sandbox. Its
 * name picks the part: `init` (the sandbox's pid 1), `adbd` (adbd's shell service and socket
 * tunnels), anything else the framework client (`cmd`, `dumpsys`, `getprop`, …); with
 * SIMULATED_SLEEPER in its environment, one of the processes init starts only to show in the
 * process list.
 */
#include <stdlib.h>
#include <string.h>

int init_main(int argc, char **argv);
int sleeper_main(void);
int adbd_main(int argc, char **argv);
int framework_main(int argc, char **argv);

int main(int argc, char **argv) {
  const char *name = argc > 0 ? argv[0] : "";
  const char *slash = strrchr(name, '/');
  if (slash) name = slash + 1;
  /* A process init started only to be in the process list (init.c), whatever its name. */
  if (getenv("SIMULATED_SLEEPER")) return sleeper_main();
  if (strcmp(name, "init") == 0) return init_main(argc, argv);
  if (strcmp(name, "adbd") == 0) return adbd_main(argc, argv);
  return framework_main(argc, argv);
}
