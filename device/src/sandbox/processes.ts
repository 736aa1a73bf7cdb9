/**
 * The processes a Pixel 7 runs besides the shell's, as `ps -A` and `top` show them: init starts
 * each as a sleeping process with its pid, user and command line (`device/native/init.c` reads
 * `/system/etc/init/simulated_processes`, written by `sandbox/image.ts`). They do nothing; they are
 * there so that the process list looks like a phone's, and so that `pidof` and `kill` find them.
 *
 * Facts: each native daemon's path and user are its `service` and `user` lines in AOSP's init
 * scripts at android-14.0.0_r50 (`system/core/rootdir/init.rc` for ueventd, `system/logging/logd/logd.rc`,
 * `system/memory/lmkd/lmkd.rc`, `frameworks/native/cmds/servicemanager/servicemanager.rc`,
 * `system/vold/vold.rc`, `frameworks/native/services/surfaceflinger/surfaceflinger.rc`,
 * `system/core/rootdir/init.zygote64.rc` (zygote64 and its child system_server),
 * `frameworks/av/media/audioserver/audioserver.rc`, `frameworks/native/cmds/installd/installd.rc`,
 * `system/security/keystore2/keystore2.rc`, `system/netd/server/netd.rc`,
 * `system/core/debuggerd/tombstoned/tombstoned.rc`, `packages/modules/adb/apex/adbd.rc`); the
 * apps' processes are their package names, with the uids the package manager gives them
 * (`packages.ts`). The pids are fixed, in the order init starts the services, so that what a
 * sample prints is the same on every run; the shell's processes come after them.
 */
import {AID} from '../fs.ts';
import {SEEDED_PACKAGES} from '../packages.ts';

/** One process: pid, user and group ids, and its command line (`argv`). */
export interface SimulatedProcess {
  pid: number;
  uid: number;
  gid: number;
  argv: readonly string[];
}

/** The pid adbd gets (it is the one process that really works: `device/native/adbd.c`). */
export const ADBD_PID = 1122;

/** The first pid left for the shell's processes. */
export const FIRST_SHELL_PID = 8290;

const app = (pid: number, name: string): SimulatedProcess => {
  const uid = SEEDED_PACKAGES.find((seed) => seed.name === name)?.uid ?? AID.system;
  return {pid, uid, gid: uid, argv: [name]};
};

/** The processes, by pid. */
export const SIMULATED_PROCESSES: readonly SimulatedProcess[] = [
  {pid: 390, uid: AID.root, gid: AID.root, argv: ['/system/bin/ueventd']},
  {pid: 575, uid: AID.logd, gid: AID.logd, argv: ['/system/bin/logd']},
  {pid: 576, uid: AID.lmkd, gid: AID.lmkd, argv: ['/system/bin/lmkd']},
  {pid: 577, uid: AID.system, gid: AID.system, argv: ['/system/bin/servicemanager']},
  {pid: 620, uid: AID.root, gid: AID.root, argv: ['/system/bin/vold']},
  {pid: 623, uid: AID.system, gid: AID.graphics, argv: ['/system/bin/surfaceflinger']},
  {pid: 640, uid: AID.audioserver, gid: AID.audio, argv: ['/system/bin/audioserver']},
  {pid: 651, uid: AID.root, gid: AID.root, argv: ['/system/bin/installd']},
  {pid: 655, uid: AID.keystore, gid: AID.keystore, argv: ['/system/bin/keystore2', '/data/misc/keystore']},
  {pid: 660, uid: AID.root, gid: AID.inet, argv: ['/system/bin/netd']},
  {pid: 670, uid: AID.tombstoned, gid: AID.system, argv: ['/system/bin/tombstoned']},
  {pid: 965, uid: AID.root, gid: AID.root, argv: ['zygote64']},
  {pid: 1501, uid: AID.system, gid: AID.system, argv: ['system_server']},
  app(2124, 'com.android.systemui'),
  app(2203, 'com.android.phone'),
  app(2301, 'com.google.android.apps.nexuslauncher'),
];

/**
 * `/system/etc/init/simulated_processes`, which init reads: `process PID UID GID ARG…` per
 * process (no argument holds a space), `adbd PID`, and `next PID` (the pid after which the shell's
 * processes are numbered).
 */
export function processTable(): string {
  const lines = SIMULATED_PROCESSES.map(({pid, uid, gid, argv}) => `process ${pid} ${uid} ${gid} ${argv.join(' ')}`);
  return [...lines, `adbd ${ADBD_PID}`, `next ${FIRST_SHELL_PID - 1}`, ''].join('\n');
}
