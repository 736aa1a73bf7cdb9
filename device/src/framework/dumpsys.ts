/**
 * `dumpsys [-l] [-t SEC] [-T MS] [--help] [SERVICE [ARGS…]]`: the services' dumps. Dumped here:
 * `battery` (see `battery.ts`) and `diskstats`; the other services (`SERVICE_NAMES`) are listed
 * and found, but their dumps (hundreds of lines of live state) are not simulated and come out
 * empty.
 *
 * Facts (android-14.0.0_r50):
 * - `frameworks/native/cmds/dumpsys/dumpsys.cpp`: `usage()` (`--help`, and after `\n` for an
 *   unknown option, status -1), `Error: invalid timeout(seconds) number: 'X'`; with `-l`, or
 *   without a service, `Currently running services:` and a `  NAME` line each; without a service
 *   every service is dumped with `-a` between the `writeDumpHeader` line of dashes plus
 *   `DUMP OF SERVICE NAME:` and the `writeDumpFooter` line `--------- 0.000s was the duration of
 *   dumpsys NAME, ending at: YYYY-MM-DD HH:MM:SS`; `Can't find service: NAME` on standard error
 *   for an unknown one; status 0.
 * - `frameworks/base/services/core/java/com/android/server/DiskStatsService.java` `dump`:
 *   `Latency: Nms [512B Data Write]`, `Recent Disk Write Speed (kB/s) = N`, a `NAME-Free: FREEK /
 *   TOTALK total = P% free` line for Data, Cache, System and Metadata, `File-based Encryption:
 *   true`, then `reportCachedValues`: the sizes of `/data/system/diskstats_cache.json`
 *   (`App Size: `, `App Data Size: `, … `Package Names: [...]`, `App Sizes: [...]`, `App Data
 *   Sizes: [...]`, `Cache Sizes: [...]`, `JSONArray.toString`).
 */
import type {CommandContext, CommandHandler} from '../types.ts';
import {batteryDump} from './battery.ts';
import {eprint, eprintln, println} from './shell-command.ts';
import {hasService, SERVICE_NAMES} from './services.ts';
import {androidState} from './state.ts';

/** `usage()` of `dumpsys.cpp`. */
const USAGE_TEXT =
  'usage: dumpsys\n' +
  '         To dump all services.\n' +
  'or:\n' +
  '       dumpsys [-t TIMEOUT] [--priority LEVEL] [--clients] [--dump] [--pid] [--thread] [--help | -l | --skip SERVICES | SERVICE [ARGS]]\n' +
  '         --help: shows this help\n' +
  '         -l: only list services, do not dump them\n' +
  '         -t TIMEOUT_SEC: TIMEOUT to use in seconds instead of default 10 seconds\n' +
  '         -T TIMEOUT_MS: TIMEOUT to use in milliseconds instead of default 10 seconds\n' +
  '         --clients: dump client PIDs instead of usual dump\n' +
  '         --dump: ask the service to dump itself (this is the default)\n' +
  '         --pid: dump PID instead of usual dump\n' +
  '         --proto: filter services that support dumping data in proto format. Dumps\n' +
  '               will be in proto format.\n' +
  '         --priority LEVEL: filter services based on specified priority\n' +
  '               LEVEL must be one of CRITICAL | HIGH | NORMAL\n' +
  '         --skip SERVICES: dumps all services but SERVICES (comma-separated list)\n' +
  '         --stability: dump binder stability information instead of usual dump\n' +
  '         --thread: dump thread usage instead of usual dump\n' +
  '         SERVICE [ARGS]: dumps only service SERVICE, optionally passing ARGS to it\n';

/** The `/data` file system of a Pixel 7 (128 GB): 1 KiB blocks (`StatFs` of `/data`). */
const DATA_FS = {total: 115276064, free: 98364788};
/** `/system` (erofs, read-only, full) and `/metadata` (ext4). */
const SYSTEM_FS = {total: 1748032, free: 0};
const METADATA_FS = {total: 11760, free: 10504};

/** The sizes the last `DiskStatsLoggingService` run cached (`/data/system/diskstats_cache.json`). */
const CACHED_SIZES = {
  photos: 10485760,
  videos: 131072,
  audio: 0,
  downloads: 3072,
  system: 14737418240,
  other: 1288490188,
};

/** `DiskStatsService.dump` (text form). */
async function dumpDiskStats(context: CommandContext): Promise<void> {
  const state = androidState(context.device);
  const freeLine = async (name: string, fs: {total: number; free: number}) => {
    await println(context, `${name}-Free: ${fs.free}K / ${fs.total}K total = ${Math.floor((100 * fs.free) / fs.total)}% free`);
  };
  await println(context, 'Latency: 2ms [512B Data Write]');
  await println(context, 'Recent Disk Write Speed (kB/s) = 61120');
  await freeLine('Data', DATA_FS);
  await freeLine('Cache', DATA_FS);
  await freeLine('System', SYSTEM_FS);
  await freeLine('Metadata', METADATA_FS);
  await println(context, 'File-based Encryption: true');
  // Per package: code size from its APKs, data and cache sizes fixed per package (stable outputs).
  const packages = [...state.packages.values()].filter((record) => record.installed);
  const appSizes = packages.map((record, index) => 1048576 * (8 + ((record.uid * 7 + index) % 90)));
  const dataSizes = packages.map((record) => 65536 * (1 + (record.uid % 200)));
  const cacheSizes = packages.map((record) => 4096 * (record.uid % 300));
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  await println(context, `App Size: ${sum(appSizes)}`);
  await println(context, `App Data Size: ${sum(dataSizes)}`);
  await println(context, `App Cache Size: ${sum(cacheSizes)}`);
  await println(context, `Photos Size: ${CACHED_SIZES.photos}`);
  await println(context, `Videos Size: ${CACHED_SIZES.videos}`);
  await println(context, `Audio Size: ${CACHED_SIZES.audio}`);
  await println(context, `Downloads Size: ${CACHED_SIZES.downloads}`);
  await println(context, `System Size: ${CACHED_SIZES.system}`);
  await println(context, `Other Size: ${CACHED_SIZES.other}`);
  await println(context, `Package Names: ${JSON.stringify(packages.map((record) => record.name))}`);
  await println(context, `App Sizes: ${JSON.stringify(appSizes)}`);
  await println(context, `App Data Sizes: ${JSON.stringify(dataSizes)}`);
  await println(context, `Cache Sizes: ${JSON.stringify(cacheSizes)}`);
}

/** Dumps one service with `args`; the services without a simulated dump write nothing. */
async function dumpService(context: CommandContext, name: string, args: readonly string[]): Promise<void> {
  if (name === 'battery') await batteryDump(context, args);
  else if (name === 'diskstats') await dumpDiskStats(context);
}

/** `strftime("%Y-%m-%d %H:%M:%S")` of the device clock (UTC, the device's time zone). */
function localTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

/** `dumpsys`: see the file's comment. */
export const dumpsys: CommandHandler = async (context) => {
  const argv = context.argv.slice(1);
  let listOnly = false;
  let i = 0;
  // `getopt_long(argc, argv, "+t:T:l", …)`: options until the first non-option.
  for (; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '-') break;
    if (arg === '--') {
      i += 1;
      break;
    }
    if (arg === '--help') {
      await eprint(context, USAGE_TEXT);
      return 0;
    }
    if (['--clients', '--dump', '--pid', '--proto', '--stability', '--thread', '--skip'].includes(arg)) continue;
    if (arg === '--priority') {
      i += 1;
      continue;
    }
    if (arg === '-l') {
      listOnly = true;
      continue;
    }
    if (arg.startsWith('-t') || arg.startsWith('-T')) {
      const value = arg.length > 2 ? arg.slice(2) : argv[++i];
      if (value === undefined || !/^\d+$/.test(value) || Number(value) <= 0) {
        if (arg.startsWith('-t')) await eprintln(context, `Error: invalid timeout(seconds) number: '${value ?? ''}'`);
        else await eprintln(context, `Error: invalid timeout(milliseconds) number: '${value ?? ''}'`);
        return 255;
      }
      continue;
    }
    await eprint(context, '\n');
    await eprint(context, USAGE_TEXT);
    return 255;
  }
  const [service, ...args] = argv.slice(i);
  if (service !== undefined && listOnly) {
    await eprint(context, USAGE_TEXT);
    return 255;
  }
  if (service !== undefined) {
    if (!hasService(service)) {
      await eprintln(context, `Can't find service: ${service}`);
      return 0;
    }
    await dumpService(context, service, args);
    return 0;
  }
  await println(context, 'Currently running services:');
  for (const name of SERVICE_NAMES) await println(context, `  ${name}`);
  if (listOnly) return 0;
  for (const name of SERVICE_NAMES) {
    await println(context, '-------------------------------------------------------------------------------');
    await println(context, `DUMP OF SERVICE ${name}:`);
    await dumpService(context, name, ['-a']);
    await println(context, `--------- 0.001s was the duration of dumpsys ${name}, ending at: ${localTime(context.device.now())}`);
  }
  return 0;
};
