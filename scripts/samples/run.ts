/**
 * The sample runner: runs samples against the simulated Android device (device/) and checks that
 * each exits 0 within a time limit and prints what its recording says.
 *
 * How (runSamples): every sample, with its preludes (prelude.ts), is written as a TypeScript file
 * whose line numbers are those of its page, and one esbuild call transpiles them all into ESM
 * files in a temporary folder inside node_modules/.cache (so that bare imports resolve from the
 * repository), with `@yume-chan/<package>` imports led to the version's library (the alias
 * `@tango-v2/<package>` for 2.0.0), as the type-check maps them, and the library bundled into
 * chunks the samples share (importsPlugin). Each sample then runs in its own
 * `node` process (Node's own semantics: exit code 13 for a top-level await that never settles, 1
 * for an uncaught error or unhandled rejection, `process.exit`), three at a time (two more for
 * samples that wait on a timer: WAITING_SLOTS), in its own empty
 * working folder, with stdin closed. A sample with the adb prelude gets a fresh SimulatedDevice
 * (a few milliseconds to make) on its own 127.0.0.1 port, which trusts the run's key; a sample that
 * talks to Google's ADB server (prelude.ts needsAdbServer) gets the server on port 5037, started
 * if it was not running (and stopped at the end then), with one shared device `adb connect`ed;
 * those samples run one at a time. Browser samples (classify.ts platform `browser`) run in the
 * same two slots, each in its own page of one Chromium with its own device behind the WebUSB
 * bridge (browser.ts).
 *
 * Every fresh device is a Pixel 7 on Android 14 (device/README.md) with the Scrcpy server 3.1
 * (the simulated server's stand-in file) already at DefaultServerPath, as after the docs' "Push
 * the server" step.
 */
import {execFile, spawn, spawnSync, type ChildProcess} from 'node:child_process';
import {generateKeyPairSync} from 'node:crypto';
import {once} from 'node:events';
import fs from 'node:fs';
import {connect} from 'node:net';
import path from 'node:path';
import {promisify} from 'node:util';
import * as esbuild from 'esbuild';
import {adbGeneratePublicKey} from '@tango-v2/adb';
import type {Library} from '../../src/versions/index.ts';
import {SimulatedDevice} from '../../device/src/device.ts';
import {SHELL} from '../../device/src/fs.ts';
import {standInServer} from '../../device/src/scrcpy/registry.ts';
import {DEFAULT_SERVER_PATH} from '../../device/src/scrcpy/server.ts';
import {browserSourceName, BrowserSamples, sampleFile, type BrowserJob} from './browser.ts';
import type {Platform, SampleActions} from './classify.ts';
import {blockTitle, companionResolver, writeCompanions, type ProgramFile} from './companions.ts';
import {SAMPLE_LANGS, type SampleBlock, type SampleEvent} from './extract.ts';
import {fetchScrcpyServerDir, importsPlugin, PACKAGE_ROOT} from './libraries.ts';
import {DEVICE_PRELUDES, SAMPLE_ENV, withRunPreludes} from './prelude.ts';
import {compareRecord, formatRecord, normalizeOutput, type NormalizeContext} from './record.ts';

/** The docs versions the runner has a setup for (a prelude runtime and a library it runs). */
export const RUNNABLE_VERSIONS: readonly string[] = ['2.0.0', '1.1.0', '1.0.0', '0.0.24'];

/** The versions `--run` runs without `--version` (what npm test runs): all of them. */
export const DEFAULT_RUN_VERSIONS: readonly string[] = RUNNABLE_VERSIONS;

/** The versions whose browser samples run in Chromium, each bundled against its own library (browser.ts). */
export const BROWSER_VERSIONS: readonly string[] = ['2.0.0', '1.1.0', '1.0.0', '0.0.24'];

/**
 * How long a sample may run before it is killed and fails, in milliseconds. 30 s: on a busy 2-core
 * CI machine (builds beside the run) the framebuffer PNG sample took over 15 s once.
 */
export const RUN_TIMEOUT_MS = 30_000;

/**
 * How many sample processes run at once, besides those that wait on a timer (WAITING_SLOTS). Three
 * on the 2-core machine: a sample spends part of its time waiting (its device's sandbox starting,
 * a process starting), and 2.0.0's 291 samples ran in 50.8 s with three against 57.7 s with two
 * (2026-12-07, idle machine; four took 51.7 s).
 */
export const RUN_CONCURRENCY = 3;

/**
 * The samples that spend most of their time on a timer of a second or more (a watcher stopped
 * after 10 s: `setTimeout(() => void process.kill(), 10_000)`, see waitsOnTimer) run in these
 * extra slots, beside the RUN_CONCURRENCY others: asleep, they would hold a slot of the two that
 * keep the 2-core machine busy (twelve of them held one for ~120 s of a run of every version).
 */
export const WAITING_SLOTS = 2;

/**
 * Whether a sample waits on a timer of at least a second: its code calls `setTimeout` with a
 * literal delay of 1000 ms or more (`10_000` included).
 *
 * @param code The sample's code.
 * @returns true for such a sample.
 */
export function waitsOnTimer(code: string): boolean {
  return [...code.matchAll(/\bsetTimeout\((?:[^()]|\([^()]*\))*,\s*([\d_]+)\s*\)/g)].some(
    (match) => Number(match[1]!.replace(/_/g, '')) >= 1000,
  );
}

/** The most output kept per stream of a sample, in bytes; the rest is dropped (and said so). */
const OUTPUT_LIMIT = 1024 * 1024;

/** The prelude runtime's source (its 2.0.0 version), transpiled beside the samples. */
const PRELUDE_RUNTIME = path.join(PACKAGE_ROOT, 'scripts', 'samples', 'prelude-runtime.ts');

/** The specifier the samples import the prelude runtime with: a file beside them. */
const RUNTIME_SPECIFIER = './prelude-runtime.mjs';

/** One sample to run. */
export interface RunJob {
  block: SampleBlock;
  /** The docs version of its page (one of RUNNABLE_VERSIONS). */
  version: string;
  /** The version's library (its alias scope). */
  library: Library;
  /** Prelude names the runner supplies. */
  preludes: readonly string[];
  /** The sample talks to Google's ADB server. */
  server: boolean;
  /** Where it runs: a Node.js process, or a page in the run's Chromium (browser.ts). */
  platform: Platform;
  /** For a browser sample: the input events the runner gives its page after its top-level code. */
  events: readonly SampleEvent[];
  /** For a Node.js sample: what the runner does once it printed a text (`interrupt=`, `unplug=`). */
  actions?: SampleActions;
  /** `varies="…"`: its output is compared with its recording with every number masked. */
  varies?: boolean;
  /** Its recording, relative to the site's root (record.ts recordPath). */
  record: string;
  /** How the report names it: `page:line title`. */
  label: string;
  /**
   * The blocks it imports by a relative path, each at its title's path (companions.ts
   * sampleProgram, without the sample itself), written beside it; empty for most samples.
   */
  companions?: readonly ProgramFile[];
}

/** What happened to one sample. */
export interface RunOutcome {
  job: RunJob;
  passed: boolean;
  /**
   * The process's exit code; `null` when it was killed or never started. A browser sample has 0
   * when its page ran to the end without an uncaught error, 1 when it had one, `null` otherwise.
   */
  exitCode: number | null;
  /** The signal that killed it, if any. */
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** The recording text of this run (record.ts formatRecord of the normalised stdout and stderr). */
  output: string;
  /** The same, with the first frame of each stack trace kept (for the failure report). */
  detail: string;
  /** Why it failed; absent when it passed. */
  problem?: string;
  /** Wall time of its process, in milliseconds. */
  durationMs: number;
}

/** Options of runSamples. */
export interface RunOptions {
  /** The site's root: recordings are under it (RECORD_FOLDER). */
  root: string;
  /** Write each passing sample's recording instead of comparing with it. */
  record: boolean;
  /** Per-sample time limit in milliseconds (default RUN_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Processes at once (default RUN_CONCURRENCY). */
  concurrency?: number;
}

/**
 * Runs samples against the simulated device and checks them.
 *
 * @param jobs The samples (check.ts plans them; each of a version in RUNNABLE_VERSIONS).
 * @param options The site's root, whether to record, limits.
 * @returns One outcome per job, in the jobs' order, and `environment`: problems of the setup
 *   rather than of a sample (e.g. Google's adb missing), each already reflected in the outcomes of
 *   the samples it hit.
 * @throws Error when the temporary folder cannot be made or esbuild cannot start.
 */
export async function runSamples(jobs: readonly RunJob[], options: RunOptions): Promise<{outcomes: RunOutcome[]; environment: string[]}> {
  const timeoutMs = options.timeoutMs ?? RUN_TIMEOUT_MS;
  const cacheDir = path.join(PACKAGE_ROOT, 'node_modules', '.cache');
  fs.mkdirSync(cacheDir, {recursive: true});
  const workDir = fs.mkdtempSync(path.join(cacheDir, 'samples-run-'));
  const environment: string[] = [];
  const started = Date.now();
  let adbServer: GoogleAdbServer | undefined;
  let browser: BrowserSamples | undefined;
  const running = new Set<RunJob>();
  const guard = guardProcess(running, environment);
  try {
    // Chromium starts and the browser samples are bundled while the Node.js samples are transpiled.
    const browserJobs = jobs.flatMap((job, index): BrowserJob[] => (job.platform === 'browser' ? [browserJob(job, index)] : []));
    const browserStart =
      browserJobs.length > 0
        ? BrowserSamples.start(browserJobs, workDir).then(
            (started) => (browser = started),
            (error: unknown) => {
              environment.push(`Chromium: ${(error as Error).message}`);
              return undefined;
            },
          )
        : Promise.resolve(undefined);
    const built = await transpile(jobs, workDir);
    await browserStart;
    const key = makeKey(workDir);
    let server: GoogleAdbServer | undefined;
    if (jobs.some((job) => job.server)) {
      adbServer = new GoogleAdbServer(key.publicKey);
      const problem = await adbServer.start().then(
        () => undefined,
        (error: unknown) => (error as Error).message,
      );
      if (problem) environment.push(`Google's ADB server: ${problem}`);
      else server = adbServer;
    }

    const outcomes = new Array<RunOutcome>(jobs.length);
    const general = jobs.map((_, index) => index).filter((index) => !jobs[index]!.server && !waitsOnTimer(jobs[index]!.block.code));
    const waiting = jobs.map((_, index) => index).filter((index) => !jobs[index]!.server && waitsOnTimer(jobs[index]!.block.code));
    const serial = jobs.map((_, index) => index).filter((index) => jobs[index]!.server);
    const runOne = async (index: number) => {
      const job = jobs[index]!;
      const build = built[index]!;
      const context = {workDir, index, key, server, timeoutMs, now: started};
      running.add(job);
      try {
        const failed = (error: unknown) => notStarted(job, `the runner could not set it up: ${(error as Error).message}`);
        const outcome =
          job.platform === 'browser'
            ? browser
              ? await executeBrowser(job, browser, context).catch(failed)
              : notStarted(job, `needs Chromium, which did not start (${environment.join('; ')})`)
            : build === undefined
              ? notStarted(job, 'not transpiled')
              : 'error' in build
                ? notStarted(job, `esbuild: ${build.error}`)
                : await execute(job, build.file, context, environment).catch(failed);
        outcomes[index] = settle(outcome, options);
      } finally {
        running.delete(job);
      }
    };
    // Worker 0 runs the ADB-server samples first (so they never overlap), then helps with the rest.
    const worker = async (first: boolean) => {
      for (let next = first ? serial.shift() : undefined; next !== undefined; next = serial.shift()) await runOne(next);
      for (let next = general.shift(); next !== undefined; next = general.shift()) await runOne(next);
    };
    // The waiting samples start at once in their own slots; the other slots take what is left of
    // them once their own queue is empty.
    const waiter = async () => {
      for (let next = waiting.shift(); next !== undefined; next = waiting.shift()) await runOne(next);
    };
    const concurrency = Math.max(1, options.concurrency ?? RUN_CONCURRENCY);
    await Promise.all([
      ...Array.from({length: concurrency}, async (_, index) => {
        await worker(index === 0);
        await waiter();
      }),
      ...Array.from({length: options.concurrency === undefined ? WAITING_SLOTS : 0}, waiter),
    ]);
    return {outcomes, environment};
  } finally {
    await adbServer?.stop();
    await browser?.close();
    guard.release();
    fs.rmSync(workDir, {recursive: true, force: true});
  }
}

/**
 * Keeps the simulated devices, which run in this process, from ending the run or cluttering its
 * report while samples run: an unhandled rejection or uncaught exception (a device that lets a
 * write to a host that hung up go unhandled) becomes a line of `environment` naming the samples
 * that were running, and the devices' own log lines (`console.error('[device] …')`, e.g. a host
 * that reset its connection when its process ended) are counted into one line at the end.
 *
 * @returns `release()`, which restores the console and the process's handlers and adds the count.
 */
function guardProcess(running: ReadonlySet<RunJob>, environment: string[]): {release(): void} {
  const during = () => [...running].map((job) => job.label).join(', ') || 'no sample';
  const onError = (error: unknown) => {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    const lines = text.split('\n');
    environment.push(
      `unhandled error in the runner's process (the simulated device) while ${during()} ran: ${lines.slice(0, 4).join(' | ')}`,
    );
  };
  const deviceLines = new Map<string, number>();
  const original = console.error;
  console.error = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('[device]')) {
      const line = args.map((arg) => (arg instanceof Error ? arg.message : String(arg))).join(' ');
      deviceLines.set(line, (deviceLines.get(line) ?? 0) + 1);
    } else {
      original.apply(console, args);
    }
  };
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 30;
  process.on('unhandledRejection', onError);
  process.on('uncaughtException', onError);
  return {
    release() {
      process.off('unhandledRejection', onError);
      process.off('uncaughtException', onError);
      Error.stackTraceLimit = limit;
      console.error = original;
      const total = [...deviceLines.values()].reduce((sum, count) => sum + count, 0);
      if (total > 0) {
        const kinds = [...deviceLines.keys()].map((line) => line.replace(/\bhost-\d+/g, 'host-N'));
        environment.push(
          `the simulated devices logged ${total} ${total === 1 ? 'line' : 'lines'}: ${[...new Set(kinds)].slice(0, 5).join('; ')}`,
        );
      }
    },
  };
}

/** A sample's transpiled file, or why esbuild could not make it; `undefined` for a browser sample (browser.ts bundles those). */
type Built = {file: string} | {error: string} | undefined;

/**
 * Writes each Node.js job's source (withRunPreludes) to `<work>/src/<n>.ts` and transpiles them,
 * one esbuild call per docs version (each with its own copy of the prelude runtime, built against
 * that version's library), into `<work>/out/<version>/s<n>.mjs`. When a version's call fails, each
 * of its samples is transpiled alone, so that the error lands on its own sample.
 */
async function transpile(allJobs: readonly RunJob[], workDir: string): Promise<Built[]> {
  const srcDir = path.join(workDir, 'src');
  fs.mkdirSync(srcDir);
  const jobs = allJobs.map((job) => (job.platform === 'node' ? job : undefined));
  const built: Built[] = jobs.map(() => undefined);
  const versions = new Map<string, number[]>();
  const mains = new Map<string, string>();
  jobs.forEach((job, index) => {
    if (!job) return;
    const file = path.join(srcDir, `${index}.ts`);
    fs.writeFileSync(file, withRunPreludes(job.block.code, job.preludes, job.block.line, RUNTIME_SPECIFIER));
    writeCompanions(job.companions, file);
    if (job.companions?.length) mains.set(file, path.posix.dirname(blockTitle(job.block) ?? 'sample.ts'));
    versions.set(job.version, [...(versions.get(job.version) ?? []), index]);
  });
  for (const [version, indexes] of versions) {
    const library = jobs[indexes[0]!]!.library;
    const outDir = path.join(workDir, 'out', version);
    const build = (entryPoints: Record<string, string>) =>
      esbuild.build({
        entryPoints,
        outdir: outDir,
        outExtension: {'.js': '.mjs'},
        bundle: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        sourcemap: 'inline',
        // Frames inside the library are collapsed in recordings (record.ts): a map without the
        // library's sources is enough for the samples' own lines, and quicker for Node.js to read.
        sourcesContent: false,
        logLevel: 'silent',
        // The library's code that the prelude runtime and the samples share goes to shared chunks:
        // one copy of each package, so the library's instanceof checks (Consumable, its error
        // classes) hold between the prelude's `adb` and the sample's own imports.
        splitting: true,
        // A bundled scope library (see importsPlugin) may hold CommonJS packages (`@yume-chan/async`
        // 2.x requires tslib): give the ES module output a `require`.
        banner:
          library.kind === 'scope'
            ? {js: "import {createRequire as __sampleRequire} from 'node:module'; const require = __sampleRequire(import.meta.url);"}
            : undefined,
        tsconfigRaw: {compilerOptions: {useDefineForClassFields: true, jsx: 'react-jsx'}},
        plugins: [companionResolver(mains), importsPlugin(library)],
      });
    const entry = (index: number) => [`s${index}`, path.join(srcDir, `${index}.ts`)] as const;
    try {
      await build(Object.fromEntries([['prelude-runtime', PRELUDE_RUNTIME], ...indexes.map(entry)]));
      for (const index of indexes) built[index] = {file: path.join(outDir, `s${index}.mjs`)};
    } catch {
      await build({'prelude-runtime': PRELUDE_RUNTIME}).catch(() => undefined);
      await Promise.all(
        indexes.map(async (index) => {
          try {
            await build(Object.fromEntries([entry(index)]));
            built[index] = {file: path.join(outDir, `s${index}.mjs`)};
          } catch (error) {
            const messages = (error as esbuild.BuildFailure).errors ?? [];
            const first = messages[0];
            built[index] = {error: first ? `${first.text}${first.location ? ` (line ${first.location.line})` : ''}` : String(error)};
          }
        }),
      );
    }
  }
  return built;
}

/** The run's ADB key: a PKCS #8 DER file the prelude runtime reads, and its public key in ADB's format. */
interface RunKey {
  file: string;
  publicKey: string;
}

/**
 * Makes an RSA-2048 key (exponent 65537) whose private exponent fills all 256 bytes, as the
 * library reads it at a fixed offset (see the docs' AdbNodeJsCredentialStore), writes it to
 * `<work>/adbkey` and computes its ADB public key with the library's adbGeneratePublicKey.
 */
function makeKey(workDir: string): RunKey {
  for (;;) {
    const {privateKey} = generateKeyPairSync('rsa', {modulusLength: 2048, publicExponent: 65537});
    if (Buffer.from(privateKey.export({format: 'jwk'}).d!, 'base64url').length !== 256) continue;
    const der = privateKey.export({type: 'pkcs8', format: 'der'});
    const file = path.join(workDir, 'adbkey');
    fs.writeFileSync(file, der, {mode: 0o600});
    return {file, publicKey: `${Buffer.from(adbGeneratePublicKey(new Uint8Array(der))).toString('base64')} sample@tango`};
  }
}

/**
 * A fresh simulated device for one sample (or the ADB server's): the default Pixel 7, trusting
 * the run's key and allowing any other key at once (the default dialog answers "always", as a
 * phone whose owner taps "Allow": a browser sample's AdbWebCredentialStore makes its own key),
 * with the Scrcpy server stand-in (version 3.1, owned by shell as `adb push` leaves it) at
 * DefaultServerPath.
 */
function makeDevice(key: RunKey): SimulatedDevice {
  const device = new SimulatedDevice({authorizedKeys: [key.publicKey]});
  device.fs.writeFile(DEFAULT_SERVER_PATH, standInServer('3.1'), {mode: 0o644, uid: SHELL.uid, gid: SHELL.gid});
  return device;
}

/** What execute needs besides the job. */
interface ExecuteContext {
  workDir: string;
  index: number;
  key: RunKey;
  server: GoogleAdbServer | undefined;
  timeoutMs: number;
  now: number;
}

/** An outcome before settle: without `passed`. */
type RawOutcome = Omit<RunOutcome, 'passed'>;

/** The outcome of a sample whose process never started (esbuild could not transpile it, or its setup is missing). */
function notStarted(job: RunJob, problem: string): RawOutcome {
  return {job, exitCode: null, signal: null, timedOut: false, output: '', detail: '', problem, durationMs: 0};
}

/** Runs one sample's process with its device, and normalises what it printed. */
async function execute(job: RunJob, file: string, context: ExecuteContext, environment: string[]): Promise<RawOutcome> {
  const cwd = path.join(context.workDir, 'cwd', String(context.index));
  fs.mkdirSync(cwd, {recursive: true});
  // A sample that reads the server file a reader downloaded, `scrcpy-server-v<version>` (the name
  // Scrcpy's releases give it), finds a stand-in of that version in its working folder.
  for (const [name, version] of job.block.code.matchAll(/scrcpy-server-v(\d+(?:\.\d+)+)/g)) {
    fs.writeFileSync(path.join(cwd, name), standInServer(version));
  }
  // A sample that reads an APK of the reader's by a bare file name in a string (`"app-release.apk"`)
  // finds a minimal APK of `com.example.app` there, which the simulated package manager installs.
  for (const [, name] of job.block.code.matchAll(/["'`]([\w-]+(?:\.[\w-]+)*\.apk)["'`]/g)) {
    fs.writeFileSync(path.join(cwd, name!), sampleFile(name!).buffer);
  }
  const env: NodeJS.ProcessEnv = {...process.env, [SAMPLE_ENV.key]: context.key.file};
  delete env.NODE_OPTIONS;
  // A sample talks to 127.0.0.1 only: a CA bundle the host adds for its proxy (this machine sets
  // one) would cost each sample's process ~40 ms of CPU to parse at start, for nothing.
  delete env.NODE_EXTRA_CA_CERTS;
  const ports: number[] = [];
  let device: SimulatedDevice | undefined;
  try {
    if (job.preludes.some((name) => DEVICE_PRELUDES.includes(name))) {
      device = makeDevice(context.key);
      const {port} = await device.listen(0);
      ports.push(port);
      env[SAMPLE_ENV.device] = `127.0.0.1:${port}`;
      env[SAMPLE_ENV.serial] = device.properties.get('ro.serialno') ?? `127.0.0.1:${port}`;
    }
    if (job.server) {
      if (!context.server) {
        return notStarted(job, `needs Google's ADB server, which is not available (${environment.join('; ')})`);
      }
      await context.server.ensure();
      ports.push(context.server.port);
    }
    const pending = Object.entries(job.actions ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined);
    const result = await spawnSample(file, cwd, env, context.timeoutMs, (printed, child) => {
      for (const [index, [action, text]] of pending.entries()) {
        if (!printed.includes(text)) continue;
        pending.splice(index, 1);
        if (action === 'interrupt') child.kill('SIGINT');
        else void context.server?.unplug();
        return;
      }
    });
    const normalize = (text: string, frames: 'collapse' | 'first') =>
      normalizeOutput(text, {
        replacements: [
          [path.join(context.workDir, 'src', `${context.index}.ts`), job.block.file],
          [file, job.block.file],
          [cwd, '<cwd>'],
          [context.workDir, '<run>'],
          // Where a reader's install puts the package (here: the version's alias or a copy).
          [fetchScrcpyServerDir(job.library), '<root>/node_modules/@yume-chan/fetch-scrcpy-server'],
          [PACKAGE_ROOT, '<root>'],
          [context.key.publicKey.split(' ')[0]!, '<public key>'],
        ],
        ports,
        now: context.now,
        frames,
      } satisfies NormalizeContext);
    const problem = result.timedOut
      ? `did not exit within ${context.timeoutMs / 1000} s (killed)`
      : result.signal
        ? `killed by ${result.signal}`
        : result.exitCode === 13
          ? 'exit code 13: a top-level await never settled (Node.js had nothing left to wait for)'
          : result.exitCode !== 0
            ? `exit code ${result.exitCode}`
            : undefined;
    return {
      job,
      exitCode: result.exitCode,
      signal: result.signal,
      timedOut: result.timedOut,
      output: formatRecord(normalize(result.stdout, 'collapse'), normalize(result.stderr, 'collapse')),
      detail: formatRecord(normalize(result.stdout, 'first'), normalize(result.stderr, 'first')),
      ...(problem ? {problem} : {}),
      durationMs: result.durationMs,
    };
  } finally {
    await device?.close();
  }
}

/** What browser.ts needs of a browser sample at position `index` of the run. */
function browserJob(job: RunJob, index: number): BrowserJob {
  return {
    index,
    code: job.block.code,
    line: job.block.line,
    extension: SAMPLE_LANGS[job.block.lang] ?? 'ts',
    preludes: job.preludes,
    events: job.events,
    version: job.version,
    library: job.library,
    companions: job.companions,
    titleDir: path.posix.dirname(blockTitle(job.block) ?? 'sample.ts'),
  };
}

/**
 * Runs one browser sample in the run's Chromium (browser.ts) with its own device, and normalises
 * what its page printed as execute does a process's output (its bundled source becomes its page).
 */
async function executeBrowser(job: RunJob, browser: BrowserSamples, context: ExecuteContext): Promise<RawOutcome> {
  const sample = browserJob(job, context.index);
  const result = await browser.execute(sample, {makeDevice: () => makeDevice(context.key), timeoutMs: context.timeoutMs});
  const ports = [...result.ports, Number(new URL(browser.origin).port)];
  const normalize = (text: string, frames: 'collapse' | 'first') =>
    normalizeOutput(text, {
      replacements: [
        [path.join(context.workDir, 'web', browserSourceName(sample)), job.block.file],
        [context.workDir, '<run>'],
        [PACKAGE_ROOT, '<root>'],
        [context.key.publicKey.split(' ')[0]!, '<public key>'],
      ],
      ports,
      now: context.now,
      frames,
    } satisfies NormalizeContext);
  const uncaught = result.problem?.startsWith('uncaught error') ?? false;
  return {
    job,
    exitCode: result.problem === undefined ? 0 : uncaught ? 1 : null,
    signal: null,
    timedOut: result.timedOut,
    output: formatRecord(normalize(result.stdout, 'collapse'), normalize(result.stderr, 'collapse')),
    detail: formatRecord(normalize(result.stdout, 'first'), normalize(result.stderr, 'first')),
    ...(result.problem ? {problem: result.problem} : {}),
    durationMs: result.durationMs,
  };
}

/**
 * Decides pass or fail: a sample that exited 0 in time passes when its output equals its
 * recording; with `options.record` its recording is written instead (only for a sample that
 * exited 0 in time; a failing sample's recording is left alone).
 */
function settle(outcome: RawOutcome, options: RunOptions): RunOutcome {
  // SAMPLE_TIMES=FILE: one line per sample appended to FILE (recording, milliseconds, platform, problem;
  // tab-separated), to compare the time of each sample between two runs (bench/samples.ts's note).
  if (process.env.SAMPLE_TIMES) {
    fs.appendFileSync(
      process.env.SAMPLE_TIMES,
      `${outcome.job.record}\t${Math.round(outcome.durationMs)}\t${outcome.job.platform}\t${outcome.problem ?? ''}\n`,
    );
  }
  if (outcome.problem) return {...outcome, passed: false};
  const caught = caughtReferenceError(outcome.output);
  if (caught) return {...outcome, passed: false, problem: caught};
  const file = path.join(options.root, outcome.job.record);
  if (options.record) {
    fs.mkdirSync(path.dirname(file), {recursive: true});
    fs.writeFileSync(file, outcome.output);
    return {...outcome, passed: true};
  }
  if (!fs.existsSync(file)) return {...outcome, passed: false, problem: `no recording at ${outcome.job.record}: run with --record`};
  const difference = compareRecord(fs.readFileSync(file, 'utf8'), outcome.output, {maskNumbers: outcome.job.varies});
  return difference
    ? {...outcome, passed: false, problem: `output differs from ${outcome.job.record}: ${difference}`}
    : {...outcome, passed: true};
}

/**
 * A sample that exits 0 can still have hit a stand-in: a `try`/`catch` that prints the error
 * turns `ReferenceError: client is not defined` (a `declare const client` with no prelude) into
 * ordinary output, which a recording would then keep as correct.
 *
 * @param output The sample's recording text.
 * @returns Why the sample fails (naming the undefined variable), or `undefined` when its output
 *   has no `ReferenceError: NAME is not defined`.
 */
export function caughtReferenceError(output: string): string | undefined {
  const name = /\bReferenceError: ([\w$]+) is not defined\b/.exec(output)?.[1];
  return name === undefined
    ? undefined
    : `exit code 0, but it printed "ReferenceError: ${name} is not defined" (a stand-in with no prelude?)`;
}

/** What a sample's process did. */
interface ProcessResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/**
 * Runs `node --enable-source-maps FILE` in `cwd`, killing it (SIGKILL) after `timeoutMs`.
 * `onStdout` is called with everything the process printed on stdout so far, after each chunk.
 */
async function spawnSample(
  file: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  onStdout?: (printed: string, child: ChildProcess) => void,
): Promise<ProcessResult> {
  const start = performance.now();
  const child = spawn(process.execPath, ['--enable-source-maps', file], {cwd, env, stdio: ['ignore', 'pipe', 'pipe']});
  const collect = (stream: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let dropped = false;
    stream.on('data', (chunk: Buffer) => {
      if (size + chunk.length <= OUTPUT_LIMIT) chunks.push(chunk);
      else dropped = true;
      size += chunk.length;
    });
    return () => Buffer.concat(chunks).toString('utf8') + (dropped ? `\n[runner: output over ${OUTPUT_LIMIT} bytes dropped]\n` : '');
  };
  const stdout = collect(child.stdout);
  if (onStdout) child.stdout.on('data', () => onStdout(stdout(), child));
  const stderr = collect(child.stderr);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const closed = once(child, 'close');
  const [exitCode, signal] = await Promise.race([exited, once(child, 'error').then(([error]) => Promise.reject(error as Error))]);
  clearTimeout(timer);
  // A grandchild may hold the pipes open: give them a moment, then stop reading.
  let wait: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise((resolve) => (wait = setTimeout(resolve, 1000)))]);
  clearTimeout(wait);
  child.stdout.destroy();
  child.stderr.destroy();
  return {exitCode, signal, timedOut, stdout: stdout(), stderr: stderr(), durationMs: performance.now() - start};
}

const run = promisify(execFile);

/**
 * Google's ADB server for the samples that use it: started on its default port 5037 unless one
 * answers there, with one simulated device `adb connect`ed (it allows the server's key at once).
 * Facts: Debian's `adb` (server version 41): `adb connect` answers "failed to authenticate" while
 * the device's dialog is up, then the device comes online (device/test/adb-server.test.ts).
 */
class GoogleAdbServer {
  readonly #device: SimulatedDevice;
  readonly #adb = spawnSync('sh', ['-c', 'command -v adb'], {encoding: 'utf8'}).stdout.trim();
  #port = 0;
  #startedServer = false;

  constructor(publicKey: string) {
    this.#device = new SimulatedDevice({authorizedKeys: [publicKey]});
    this.#device.fs.writeFile(DEFAULT_SERVER_PATH, standInServer('3.1'), {mode: 0o644, uid: SHELL.uid, gid: SHELL.gid});
  }

  /** The device's TCP port (its serial is `127.0.0.1:<port>`). */
  get port(): number {
    return this.#port;
  }

  get #serial(): string {
    return `127.0.0.1:${this.#port}`;
  }

  /** Listens with the device and makes sure the server has it online; throws when `adb` is not installed or the device never comes online. */
  async start(): Promise<void> {
    if (!this.#adb) throw new Error('the adb command is not installed (sudo apt-get install -y adb)');
    ({port: this.#port} = await this.#device.listen(0));
    await this.ensure();
  }

  /**
   * Makes sure the server runs and lists the device as `device` (a sample may have killed the
   * server, or disconnected the device): starts the server (remembering that this run started
   * it), `adb connect`s the device and waits up to 10 s for it.
   */
  async ensure(): Promise<void> {
    if (!(await answers(5037))) {
      this.#startedServer = true;
      await run(this.#adb, ['start-server']);
    }
    if (await this.#online()) return;
    await run(this.#adb, ['connect', this.#serial]).catch(() => undefined);
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await this.#online()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${this.#serial} never came online in adb devices`);
  }

  async #online(): Promise<boolean> {
    const {stdout} = await run(this.#adb, ['devices']).catch(() => ({stdout: ''}));
    return stdout.split('\n').some((line) => line.split(/\s+/).join(' ') === `${this.#serial} device`);
  }

  /** Disconnects the device from the server, as pulling its cable does (`unplug="…"`); ensure() connects it again. */
  async unplug(): Promise<void> {
    await run(this.#adb, ['disconnect', this.#serial]).catch(() => undefined);
  }

  /** Disconnects the device, stops the server if this run started it, and closes the device. */
  async stop(): Promise<void> {
    if (this.#adb && this.#port) await run(this.#adb, ['disconnect', this.#serial]).catch(() => undefined);
    if (this.#startedServer) await run(this.#adb, ['kill-server']).catch(() => undefined);
    await this.#device.close();
  }
}

/** True when something accepts a TCP connection on 127.0.0.1:`port` within a second. */
async function answers(port: number): Promise<boolean> {
  const socket = connect({host: '127.0.0.1', port});
  const timer = setTimeout(() => socket.destroy(new Error('timeout')), 1000);
  try {
    await once(socket, 'connect');
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}
