/**
 * The kernel a Pixel 7 on Android 14 runs, as the files the sandbox lays over `/proc` describe it
 * (the sandbox's programs run on the host's kernel; `uname(2)` reads these through the preloaded
 * shim, `device/native/uname.c`).
 *
 * Facts:
 * - Release and build time: a Pixel 7 on Android 14 (UQ1A.231205.015) reported
 *   `5.10.177-android13-4-00003-ga7208022a7ea-ab10815828 #1 … Fri Sep 15 16:40:54 UTC 2023`
 *   (github.com/tiann/KernelSU/issues/1219); a Pixel 7a on the February 2024 patch still ran it
 *   (KernelSU pull 1449). `SMP PREEMPT` is the GKI kernels' tag; GKI builds as
 *   `build-user@build-host` (`build.config.common`).
 * - CPUs: Tensor G2, 4 Cortex-A55 (part 0xd05, variant 0x2), 2 Cortex-A78 (0xd41, variant 0x1,
 *   revision 1), 2 Cortex-X1 (0xd44, variant 0x1), BogoMIPS 49.15 and the feature list of a real
 *   capture (github.com/hrw/arm-socs-table `cpuinfo-data/Google-Tensor-G2.cpuinfo`); arm64 kernels
 *   print no `Hardware` line.
 * - Uptime and load: fixed values (2 days, 3:17:42 up), so that what `uptime` prints is the same on
 *   every run; no capture of a Pixel 7's `/proc/meminfo` exists publicly, so the host's stays.
 */

/** What `uname` reports. */
export const KERNEL = {
  release: '5.10.177-android13-4-00003-ga7208022a7ea-ab10815828',
  version: '#1 SMP PREEMPT Fri Sep 15 16:40:54 UTC 2023',
  machine: 'aarch64',
} as const;

/** Seconds the device has been up (`/proc/uptime`). */
export const UPTIME_SECONDS = 2 * 86400 + 3 * 3600 + 17 * 60 + 42;

const FEATURES = 'fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp';

/** `/proc/cpuinfo` of a Tensor G2: one block per CPU, each followed by an empty line. */
function cpuinfo(): string {
  const cores: [variant: string, part: string, revision: number][] = [
    ...Array.from({length: 4}, () => ['0x2', '0xd05', 0] as [string, string, number]),
    ...Array.from({length: 2}, () => ['0x1', '0xd41', 1] as [string, string, number]),
    ...Array.from({length: 2}, () => ['0x1', '0xd44', 0] as [string, string, number]),
  ];
  return cores
    .map(
      ([variant, part, revision], index) =>
        `processor\t: ${index}\nBogoMIPS\t: 49.15\nFeatures\t: ${FEATURES}\nCPU implementer\t: 0x41\nCPU architecture: 8\n` +
        `CPU variant\t: ${variant}\nCPU part\t: ${part}\nCPU revision\t: ${revision}\n\n`,
    )
    .join('');
}

/** The files laid over the sandbox's `/proc`, by path under it. */
export const PROC_FILES: Readonly<Record<string, string>> = {
  cpuinfo: cpuinfo(),
  version: `Linux version ${KERNEL.release} (build-user@build-host) ${KERNEL.version}\n`,
  uptime: `${UPTIME_SECONDS}.00 ${UPTIME_SECONDS * 6}.00\n`,
  loadavg: '0.52 0.58 0.59 1/1523 12345\n',
  'sys/kernel/osrelease': `${KERNEL.release}\n`,
  'sys/kernel/version': `${KERNEL.version}\n`,
  'sys/kernel/arch': `${KERNEL.machine}\n`,
  'sys/kernel/hostname': 'localhost\n',
};
