/**
 * The binder services the simulated system server has, by the name `servicemanager` knows them
 * under: what `cmd -l` and `dumpsys -l` list, and what `cmd SERVICE` and `dumpsys SERVICE` find.
 * Only the services this device simulates are listed; a Pixel 7 runs some two hundred more.
 *
 * Facts: the names are the ones each service registers with (`Context.ACTIVITY_SERVICE`
 * "activity", `BatteryService` "battery", `DiskStatsService` "diskstats", `InputManagerService`
 * "input", `PackageManagerService` "package", `SettingsProvider`'s `SettingsService` "settings",
 * `WindowManagerService` "window"); both commands sort them with `strcmp`
 * (`frameworks/native/cmds/cmd/cmd.cpp` and `frameworks/native/cmds/dumpsys/dumpsys.cpp`
 * `sort_func`).
 */

/** The services, sorted as `servicemanager`'s list is after `sort_func`. */
export const SERVICE_NAMES: readonly string[] = ['activity', 'battery', 'diskstats', 'input', 'package', 'settings', 'window'].sort(
  (a, b) => (a < b ? -1 : a > b ? 1 : 0),
);

/** Whether `name` is a running service. */
export function hasService(name: string): boolean {
  return SERVICE_NAMES.includes(name);
}
