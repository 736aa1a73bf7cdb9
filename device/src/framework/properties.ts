/**
 * `getprop` and `setprop`, toolbox's property tools, over the device's properties
 * (`device.properties`).
 *
 * Facts: `system/core/toolbox/getprop.cpp` and `system/core/toolbox/setprop.cpp`
 * (android-14.0.0_r50, LineageOS lineage-21.0):
 * - `getprop`: no name → every property as `[NAME]: [VALUE]`, sorted; a name → its value or the
 *   default (empty); `-h`/`--help` → the usage on standard output, status 0; more than two names →
 *   `getprop: Max 2 arguments (see "getprop --help")`, status 255 (-1). `-T`/`-Z` (types and SELinux
 *   contexts from the property info file) are not simulated.
 * - `setprop NAME VALUE`: otherwise the usage on standard output, status 1; the name checks
 *   (`Property names must not start or end with a '.'`, `'..' is not allowed in a property
 *   name`, `Invalid character 'C' in name 'N'`), `Value 'V' is too long, N bytes vs a max of 92`
 *   (`PROP_VALUE_MAX`, unless the value starts with `ro.`), and init refusing it (a read-only
 *   property already set): `Failed to set property 'N' to 'V'.` and `See dmesg for error reason.`.
 */
import type {CommandHandler} from '../types.ts';
import {eprintln, print, println} from './shell-command.ts';

/** `PROP_VALUE_MAX` (`bionic/libc/include/sys/system_properties.h`). */
const PROP_VALUE_MAX = 92;

/** `getprop`: see the file's comment. */
export const getprop: CommandHandler = async (context) => {
  const properties = context.device.properties;
  const names: string[] = [];
  for (const arg of context.argv.slice(1)) {
    if (arg === '-h' || arg === '--help') {
      await print(
        context,
        'usage: getprop [-TZ] [NAME [DEFAULT]]\n\nGets an Android system property, or lists them all.\n\n-T\tShow property types instead of values\n-Z\tShow property contexts instead of values\n\n',
      );
      return 0;
    }
    names.push(arg);
  }
  if (names.length === 0) {
    const keys = [...properties.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const key of keys) await println(context, `[${key}]: [${properties.get(key)}]`);
    return 0;
  }
  if (names.length > 2) {
    await eprintln(context, 'getprop: Max 2 arguments (see "getprop --help")');
    return 255;
  }
  await println(context, properties.get(names[0]!) ?? names[1] ?? '');
  return 0;
};

/** `setprop NAME VALUE`: see the file's comment. */
export const setprop: CommandHandler = async (context) => {
  const args = context.argv.slice(1);
  if (args.length !== 2) {
    await println(context, 'usage: setprop NAME VALUE\n\nSets an Android system property.');
    return 1;
  }
  const [name, value] = args as [string, string];
  if (name.startsWith('.') || name.endsWith('.')) {
    await eprintln(context, "Property names must not start or end with a '.'");
    return 1;
  }
  if (name.includes('..')) {
    await eprintln(context, "'..' is not allowed in a property name");
    return 1;
  }
  const bad = [...name].find((c) => !/[A-Za-z0-9:@_.-]/.test(c));
  if (bad !== undefined) {
    await eprintln(context, `Invalid character '${bad}' in name '${name}'`);
    return 1;
  }
  const bytes = new TextEncoder().encode(value).length;
  if (bytes >= PROP_VALUE_MAX && !value.startsWith('ro.')) {
    await eprintln(context, `Value '${value}' is too long, ${bytes} bytes vs a max of ${PROP_VALUE_MAX}`);
    return 1;
  }
  const properties = context.device.properties;
  // init's property service: a read-only property can be set once only.
  if (name.startsWith('ro.') && properties.has(name)) {
    await eprintln(context, `Failed to set property '${name}' to '${value}'.\nSee dmesg for error reason.`);
    return 1;
  }
  properties.set(name, value);
  return 0;
};
