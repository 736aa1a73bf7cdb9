/**
 * The device's own native programs, built from `device/native/*.c` with the machine's C compiler
 * the first time a process needs them and kept in the temporary folder under a hash of their
 * sources (a changed source builds anew; two processes building at once each rename a finished
 * file into place):
 * - `tango-device`: `init`, adbd's device side and the framework client, one program with many
 *   names (`device/native/main.c`), linked to load with `/system/bin/linker64`, the sandbox's
 *   dynamic linker;
 * - `libsimulated_kernel.so`: preloaded into every sandbox program, it answers what the device's
 *   kernel would where the host's would answer otherwise (`device/native/kernel.c`): `uname(2)`,
 *   the wall clock, and the times of files changed since the device started.
 *
 * Throws when no C compiler (`cc`) is found, with the package to install.
 */
import {execFileSync} from 'node:child_process';
import {createHash} from 'node:crypto';
import {existsSync, mkdirSync, readdirSync, readFileSync, renameSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';

const SOURCES = fileURLToPath(new URL('../../native/', import.meta.url));

/** The two programs, as host paths. */
export interface NativePrograms {
  /** The multi-call program (init, adbd, the framework client). */
  device: string;
  /** The kernel shim, loaded through `/etc/ld.so.preload`. */
  kernelShim: string;
}

let built: NativePrograms | undefined;

/** Builds the native programs (once per process, and once per source version on the machine). */
export function nativePrograms(): NativePrograms {
  if (built) return built;
  const files = readdirSync(SOURCES)
    .filter((name) => /\.[ch]$/.test(name))
    .sort();
  const hash = createHash('sha256').update(readFileSync(fileURLToPath(import.meta.url)));
  for (const name of files) hash.update(name).update(readFileSync(join(SOURCES, name)));
  const dir = join(tmpdir(), `tango-device-native-${hash.digest('hex').slice(0, 16)}`);
  const device = join(dir, 'tango-device');
  const kernelShim = join(dir, 'libsimulated_kernel.so');
  if (!existsSync(device) || !existsSync(kernelShim)) {
    mkdirSync(dir, {recursive: true});
    const programSources = files.filter((name) => name.endsWith('.c') && name !== 'kernel.c').map((name) => join(SOURCES, name));
    const partial = `.${process.pid}`;
    try {
      execFileSync(
        'cc',
        [
          '-O2',
          '-Wall',
          '-Werror=implicit-function-declaration',
          '-pthread',
          '-Wl,--dynamic-linker=/system/bin/linker64',
          '-o',
          device + partial,
          ...programSources,
        ],
        {stdio: ['ignore', 'ignore', 'pipe']},
      );
      execFileSync(
        'cc',
        [
          '-O2',
          '-Wall',
          '-Werror=implicit-function-declaration',
          '-shared',
          '-fPIC',
          '-o',
          kernelShim + partial,
          join(SOURCES, 'kernel.c'),
        ],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new Error('The simulated device builds its native side with a C compiler: install one (apt-get install -y gcc).', {
          cause: error,
        });
      }
      throw new Error(`building device/native failed:\n${String((error as {stderr?: Buffer}).stderr ?? error)}`, {cause: error});
    }
    renameSync(device + partial, device);
    renameSync(kernelShim + partial, kernelShim);
  }
  built = {device, kernelShim};
  return built;
}
