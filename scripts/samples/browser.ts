/**
 * The browser side of the sample runner: runs browser samples (classify.ts platform `browser`) in
 * one Chromium per run, each in a new document whose origin's storage is empty (IndexedDB, where
 * the credential store keeps its key, local and session storage) and whose WebUSB permissions are
 * new, with its own simulated device behind the WebUSB bridge (device/src/webusb/). A browser
 * context and its page run one sample after another, the storage cleared in between
 * (BrowserSamples.#recycle): a new context per sample cost ~0.4 CPU-s more each.
 *
 * How (BrowserSamples): every browser sample, with its preludes (prelude.ts; their runtime here is
 * prelude-browser.ts), is written as a TypeScript file whose lines are those of its page, and one
 * esbuild call bundles them all for the browser (web.ts BROWSER_BUILD, shared chunks, the
 * library's `@yume-chan/*` rewritten to the version's alias), with the harness (harness.ts) and
 * TinyH264's worker, which its decoder loads from `new URL("./worker.js", import.meta.url)`: the
 * worker is built to `worker.js` beside the chunks (its WebAssembly is inlined in tinyh264's
 * JavaScript). A small server on 127.0.0.1 serves them and the harness page.
 *
 * Each sample: a fresh SimulatedDevice (trusting the run's key, and allowing any other key at once,
 * as a phone whose owner taps "Allow": the page's AdbWebCredentialStore makes its own), its WebUSB
 * bridge, and a page whose `navigator.usb` is the simulated one (an init script, removed after), with the device picker
 * answered at once ("select"). The runner opens the harness page and clicks its button; the click
 * handler imports the sample's module, so that `requestDevice()` has its user gesture. The sample's
 * top-level code is done when that import settles; then the runner gives the page the input events
 * of the block's `event="…"` (extract.ts SampleEvent), one after the other, each followed by waiting
 * for the promises its listeners returned; then it waits SETTLE_MS for late logs, runs the
 * preludes' teardowns and takes the page to an empty page of the origin, clearing its storage.
 *
 * What the page prints: `console.log`/`info`/`debug` (and the other console methods) go to stdout,
 * `console.error` and `console.warn` to stderr, each line formatted by Node's util.format from the
 * arguments' values (so that it reads as the same sample run by Node.js would print it); a dialog
 * (`alert`) prints `[alert] text` and a download `[download] name` on stdout. Chromium's own
 * console messages (failed requests, WebGL driver notes) are left out. An uncaught error or
 * unhandled rejection (Playwright's `pageerror`) prints `Uncaught <stack>` on stderr and fails the
 * sample. Stack frames that point into the bundles are mapped back to the page's lines.
 */
import {createRequire, SourceMap} from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import {format} from 'node:util';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type CDPSession,
  type ConsoleMessage,
  type Dialog,
  type Download,
  type Page,
} from '@playwright/test';
import * as esbuild from 'esbuild';

import {buildApk} from '../../device/src/apk.ts';
import type {SimulatedDevice} from '../../device/src/device.ts';
import {CURRENT_VERSION, type Library} from '../../src/versions/index.ts';
import {startWebUsbBridge} from '../../device/src/webusb/index.ts';
import {companionResolver, writeCompanions, type ProgramFile} from './companions.ts';
import type {SampleEvent} from './extract.ts';
import {HARNESS_GLOBAL, SAMPLE_ATTRIBUTE, START_BUTTON_ID, type SampleHarness} from './harness.ts';
import {fetchScrcpyServerDir, importsPlugin, PACKAGE_ROOT} from './libraries.ts';
import {withRunPreludes} from './prelude.ts';
import {BROWSER_BUILD, chromiumLaunchOptions, contentType, htmlPage, serveFiles, type Served} from './web.ts';

/** How long the runner waits after a sample's top-level code and events, for logs still on their way, in milliseconds. */
export const SETTLE_MS = 250;

/** Where the runner clicks the harness page's start button (it covers 0-160 × 0-40 CSS pixels). */
const START_BUTTON_AT = {x: 80, y: 20};

/** How long the preludes' teardowns may take at the end, in milliseconds. */
const CLEANUP_MS = 1000;

/** How long the runner waits for the values of the page's last console messages, in milliseconds. */
const FLUSH_MS = 1000;

/** How long an event waits for its target to be there, visible and enabled, in milliseconds. */
const EVENT_TIMEOUT_MS = 5000;

/** The most output kept per stream of a sample, in characters; the rest is dropped (and said so). */
const OUTPUT_LIMIT = 1024 * 1024;

/** The harness's source. */
const HARNESS_SOURCE = path.join(PACKAGE_ROOT, 'scripts', 'samples', 'harness.ts');

/**
 * The browser prelude runtime's source: what `./prelude-runtime.mjs` means in a browser sample:
 * the adb and client preludes for 2.0.0, the adb prelude alone for the older versions (whose pages
 * have no client prelude; prelude-browser.ts's Scrcpy session is 2.x's).
 */
const preludeBrowser = (version: string) =>
  path.join(PACKAGE_ROOT, 'scripts', 'samples', version === CURRENT_VERSION ? 'prelude-browser.ts' : 'prelude-browser-adb.ts');

/**
 * esbuild plugin: a dynamic `import()` of a CommonJS package (0.0.24's TinyH264 decoder does
 * `(await import("yuv-buffer")).format(…)`) gets the package's exports by name, as Node.js, Vite
 * and an unsplit esbuild bundle give them; esbuild's split ESM output gives such a chunk only
 * `default`. The names are the keys of the module's `module.exports`, read by loading it in Node.js
 * at build time; a package Node.js can't `require` (an ES module) is left to esbuild.
 */
function commonJsDynamicImports(): esbuild.Plugin {
  const requireHere = createRequire(import.meta.url);
  return {
    name: 'commonjs-dynamic-imports',
    setup(build) {
      // Go regular expressions have no lookahead: `@yume-chan/*` (importsPlugin's) is left below.
      build.onResolve({filter: /^[^./]/}, async (args) => {
        if (args.kind !== 'dynamic-import' || args.path.startsWith('@yume-chan/')) return undefined;
        if ((args.pluginData as {interop?: boolean} | undefined)?.interop) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: 'import-statement',
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: {interop: true},
        });
        if (resolved.errors.length > 0 || !/\.c?js$/.test(resolved.path)) return undefined;
        try {
          const keys = Object.keys(requireHere(resolved.path) as object);
          return {path: resolved.path, namespace: 'commonjs-interop', pluginData: {keys}};
        } catch {
          return undefined;
        }
      });
      build.onLoad({filter: /.*/, namespace: 'commonjs-interop'}, (args) => {
        const keys = ((args.pluginData as {keys: string[]}).keys ?? []).filter(
          (key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default',
        );
        const module = JSON.stringify(args.path);
        return {
          contents: `import m from ${module};\nexport default m;\nexport const {${keys.join(', ')}} = m;\n`,
          resolveDir: path.dirname(args.path),
          loader: 'js',
        };
      });
    },
  };
}

/**
 * TinyH264's worker module of a library, which the decoder loads from `worker.js` beside its own
 * module: the package's `esm/worker.js`, or the sources' `src/worker.ts`.
 */
function tinyH264Worker(library: Library): string {
  return library.kind === 'scope'
    ? path.join(PACKAGE_ROOT, 'node_modules', library.scope, 'scrcpy-decoder-tinyh264', 'esm', 'worker.js')
    : path.join(path.resolve(PACKAGE_ROOT, library.dir), 'scrcpy-decoder-tinyh264', 'src', 'worker.ts');
}

/** Where the built files are served. */
const OUT_PATH = '/out/';

/** A browser sample to run: its page block, its preludes and events, and how its code reaches the page. */
export interface BrowserJob {
  /** Its position in the run (the file names use it). */
  index: number;
  /** The block's code. */
  code: string;
  /** The 1-based line of the block's fence in its page. */
  line: number;
  /** Its source's extension: `tsx` for JSX. */
  extension: 'ts' | 'tsx';
  /** The prelude names it gets (their runtime: prelude-browser.ts). */
  preludes: readonly string[];
  /** The input events of its `event="…"`, in order. */
  events: readonly SampleEvent[];
  /** Its docs version (the bundle's folder) and that version's library (libraries.ts). */
  version: string;
  library: Library;
  /** The blocks it imports by a relative path (run.ts RunJob.companions), and its title's folder. */
  companions?: readonly ProgramFile[];
  titleDir?: string;
}

/** What a browser sample did, before run.ts normalises it. */
export interface BrowserResult {
  /** What it printed on stdout (console.log…, dialogs, downloads), lines ending in `\n`. */
  stdout: string;
  /** What it printed on stderr (console.error, console.warn, uncaught errors). */
  stderr: string;
  /** Why it failed (timeout, uncaught error, a missing element for an event…), or undefined. */
  problem?: string;
  /** It passed its time limit (and was closed). */
  timedOut: boolean;
  /** Wall time of the sample, from its start to its page's close, in milliseconds. */
  durationMs: number;
  /** TCP ports of this sample (the bridge's), for normalisation. */
  ports: number[];
}

/** What BrowserSamples.execute needs of the run. */
export interface BrowserRunContext {
  /** A fresh device for one sample (run.ts makeDevice: the run's key, the Scrcpy server in place). */
  makeDevice(): SimulatedDevice;
  /** The time limit, in milliseconds, from the sample's start to the end of its settle. */
  timeoutMs: number;
}

/** Thrown by a step that passed the sample's deadline. */
class DeadlineError extends Error {}

/** A browser context and its page, which run one sample after another (see BrowserSamples.#recycle). */
interface Tab {
  context: BrowserContext;
  page: Page;
  /** The page's DevTools session, which clears the origin's storage between samples. */
  cdp: CDPSession;
}

/** An empty page on the samples' origin, where a tab waits between samples. */
const BLANK_PATH = '/blank.html';

/**
 * The browser half of a run: the bundles, their server and the Chromium they run in.
 * `BrowserSamples.start` builds and launches; `execute` runs one sample; `close` ends it all.
 */
export class BrowserSamples {
  readonly #browser: Browser;
  readonly #server: {origin: string; close(): Promise<void>};
  readonly #built: ReadonlyMap<number, {url: string} | {error: string}>;
  readonly #maps: ReadonlyMap<string, SourceMap>;
  /** The bridges and devices of finished samples that are still closing, and the tabs being closed. */
  readonly #closing = new Set<Promise<void>>();
  /** Tabs whose last sample has ended and whose origin's storage is cleared, ready for the next one. */
  readonly #idle: Tab[] = [];
  /** Every tab not closed yet (idle or running a sample). */
  readonly #tabs = new Set<Tab>();

  private constructor(
    browser: Browser,
    server: {origin: string; close(): Promise<void>},
    built: ReadonlyMap<number, {url: string} | {error: string}>,
    maps: ReadonlyMap<string, SourceMap>,
  ) {
    this.#browser = browser;
    this.#server = server;
    this.#built = built;
    this.#maps = maps;
  }

  /** A fresh context (downloads accepted), its first page (still at about:blank) and its DevTools session. */
  async #open(): Promise<Tab> {
    const context = await this.#browser.newContext({acceptDownloads: true});
    const page = await context.newPage();
    const tab = {context, page, cdp: await context.newCDPSession(page)};
    this.#tabs.add(tab);
    return tab;
  }

  /** An idle tab, or a new one when none is idle. */
  #take(): Promise<Tab> {
    const idle = this.#idle.pop();
    return idle ? Promise.resolve(idle) : this.#open();
  }

  /**
   * Readies a tab for the next sample, as if it were new: its other pages closed, its page taken
   * to an empty page of the origin (the sample's document unloads: its scripts, workers, sockets
   * and IndexedDB connections end), and the origin's storage cleared (IndexedDB, where
   * AdbWebCredentialStore keeps its key, local and session storage, cookies, caches, service
   * workers; DevTools' Storage.clearDataForOrigin). What stays is the HTTP cache and compiled
   * code, which a page cannot tell apart from a new context's. A new context costs ~0.4 CPU-s
   * more per sample than this (a renderer process and a browser context to make and tear down).
   *
   * @param tab The tab whose sample has ended (its listeners and init script removed).
   * @param reusable false after a timeout or a crash: the tab is closed instead.
   */
  async #recycle(tab: Tab, reusable: boolean): Promise<void> {
    try {
      if (!reusable) throw new Error('not reusable');
      for (const other of tab.context.pages()) if (other !== tab.page) await other.close();
      await tab.page.goto(`${this.origin}${BLANK_PATH}`, {waitUntil: 'load', timeout: CLEANUP_MS});
      await tab.page.evaluate(() => sessionStorage.clear());
      await tab.cdp.send('Storage.clearDataForOrigin', {origin: this.origin, storageTypes: 'all'});
      this.#idle.push(tab);
    } catch {
      this.#tabs.delete(tab);
      const closing = tab.context.close().catch(() => undefined);
      this.#closing.add(closing);
      void closing.finally(() => this.#closing.delete(closing));
    }
  }

  /** The server's origin (`http://127.0.0.1:PORT`), for normalisation. */
  get origin(): string {
    return this.#server.origin;
  }

  /**
   * Bundles the samples, serves them and launches Chromium (the build and the launch overlap).
   *
   * @param jobs The browser samples of the run.
   * @param workDir The run's temporary folder: sources go to `<workDir>/web/`.
   * @returns The ready runner. A sample esbuild could not bundle gets its error, reported when
   *   it is executed.
   * @throws Error when Chromium cannot be launched (not installed: set CHROMIUM_PATH) or the
   *   harness cannot be built.
   */
  static async start(jobs: readonly BrowserJob[], workDir: string): Promise<BrowserSamples> {
    const launching = chromium.launch({...chromiumLaunchOptions(), headless: true});
    // A failed build must not leave a browser running.
    const building = bundle(jobs, path.join(workDir, 'web')).catch(async (error: unknown) => {
      await launching.then((browser) => browser.close()).catch(() => undefined);
      throw error;
    });
    let browser: Browser;
    try {
      browser = await launching;
    } catch (error) {
      await building.catch(() => undefined);
      throw new Error(`Chromium did not start (${chromiumLaunchOptions().executablePath}): ${(error as Error).message.split('\n')[0]}`, {
        cause: error,
      });
    }
    const {files, built, maps} = await building;
    for (const job of jobs) {
      const sample = built.get(job.index);
      if (sample && 'url' in sample) files[pagePath(job.index)] = harnessPage(sample.url, pageMarkup(job.code));
    }
    files[BLANK_PATH] = htmlPage('idle', '');
    const server = await serveFiles(files);
    return new BrowserSamples(browser, server, built, maps);
  }

  /**
   * Runs one sample in a tab with fresh storage (a new one, or one another sample left and
   * `#recycle` cleared) and a fresh device (see the module's description).
   *
   * @param job The sample.
   * @param context The device maker and the time limit.
   * @returns Its output (not normalised, stack frames mapped to page lines), and why it failed.
   */
  async execute(job: BrowserJob, context: BrowserRunContext): Promise<BrowserResult> {
    const started = performance.now();
    const built = this.#built.get(job.index);
    if (!built || 'error' in built) {
      return {stdout: '', stderr: '', problem: `esbuild: ${built?.error ?? 'not built'}`, timedOut: false, durationMs: 0, ports: []};
    }
    const deadline = started + context.timeoutMs;
    const tab = await this.#take();
    const {page} = tab;
    const device = context.makeDevice();
    const bridge = await startWebUsbBridge(device).catch(async (error: unknown) => {
      this.#idle.push(tab);
      await device.close();
      throw error;
    });
    const output = new PageOutput((text) => this.#mapFrames(text));
    let problem: string | undefined;
    let timedOut = false;
    /** Races a step of the run with the deadline; its late rejection (the page closed) is ignored. */
    const step = <T>(promise: Promise<T>): Promise<T> => {
      promise.catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new DeadlineError()), Math.max(0, deadline - performance.now()));
      });
      return Promise.race([promise, late]).finally(() => clearTimeout(timer));
    };
    let initScript: {dispose(): Promise<void>} | undefined;
    let detach = (): void => undefined;
    try {
      initScript = await page.addInitScript({content: bridge.initScript({chooser: 'select'})});
      page.setDefaultTimeout(context.timeoutMs);
      detach = output.attach(page);
      await step(page.goto(`${this.origin}${pagePath(job.index)}`, {waitUntil: 'domcontentloaded'}));
      await step(page.mouse.click(START_BUTTON_AT.x, START_BUTTON_AT.y));
      const settled = await step(callHarness(page, 'settled'));
      if (settled === 'ok') {
        for (const event of job.events) {
          await step(
            perform(page, event).catch((error: unknown) => {
              throw new Error(`event ${describeEvent(event)}: ${((error as Error).message ?? String(error)).split('\n')[0]}`, {
                cause: error,
              });
            }),
          );
          await step(callHarness(page, 'idle'));
        }
      }
      await step(page.waitForTimeout(SETTLE_MS));
      const cleanup = callHarness(page, 'cleanup');
      await Promise.race([cleanup.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, CLEANUP_MS))]);
      // DevTools sends the page's console messages and an evaluation's answer on one session, in
      // order: once this answer is in, every line printed before it has reached the listener.
      await step(page.evaluate(() => undefined));
    } catch (error) {
      if (error instanceof DeadlineError) {
        timedOut = true;
        problem = `did not finish within ${context.timeoutMs / 1000} s (its top-level code, an event's listeners, or the settle)`;
      } else {
        problem = ((error as Error).message ?? String(error)).split('\n')[0];
      }
    } finally {
      await output.flush();
      detach();
      await initScript?.dispose().catch(() => undefined);
      await this.#recycle(tab, !timedOut && !output.crashed && initScript !== undefined);
      // The bridge and the device close while the next sample starts.
      const closing = (async () => {
        await bridge.close();
        await device.close();
      })().catch(() => undefined);
      this.#closing.add(closing);
      void closing.finally(() => this.#closing.delete(closing));
    }
    if (!problem && output.uncaught.length > 0) problem = `uncaught error in the page: ${output.uncaught[0]}`;
    if (!problem && output.crashed) problem = 'the page crashed';
    return {
      stdout: output.text('stdout'),
      stderr: output.text('stderr'),
      ...(problem ? {problem} : {}),
      timedOut,
      durationMs: performance.now() - started,
      ports: [bridge.port],
    };
  }

  /** Waits for the samples' bridges and devices to close, closes the tabs, then Chromium and the server. */
  async close(): Promise<void> {
    await Promise.all(this.#closing);
    await Promise.all([...this.#tabs].map((tab) => tab.context.close().catch(() => undefined)));
    await this.#browser.close().catch(() => undefined);
    await this.#server.close();
  }

  /** mapStackFrames with this run's origin and source maps. */
  #mapFrames(text: string): string {
    return mapStackFrames(text, this.origin, (file, line, column) => {
      const map = this.#maps.get(file);
      const entry = map?.findEntry(line - 1, column - 1) as
        {originalSource?: string; originalLine?: number; originalColumn?: number} | undefined;
      if (!entry?.originalSource || entry.originalLine === undefined) return undefined;
      return {file: entry.originalSource, line: entry.originalLine + 1, column: (entry.originalColumn ?? 0) + 1};
    });
  }
}

/**
 * The file name of a browser sample's source in the run's `web/` folder (its stack frames name it).
 *
 * @param job The sample's index and extension.
 * @returns `b<index>.ts` or `b<index>.tsx`.
 */
export function browserSourceName(job: Pick<BrowserJob, 'index' | 'extension'>): string {
  return `b${job.index}.${job.extension}`;
}

/** Where a sample's harness page is served. */
const pagePath = (index: number) => `/b${index}.html`;

/**
 * The harness page of one sample: its markup, then the start button (at a fixed place, so that
 * the runner clicks it at once, at START_BUTTON_AT, without Playwright's actionability checks),
 * which names the sample's module; the harness script and a preload of the module in the head.
 */
function harnessPage(sampleUrl: string, markup: string): Served {
  const button =
    `<button id="${START_BUTTON_ID}" type="button" ${SAMPLE_ATTRIBUTE}="${sampleUrl}" ` +
    'style="position: fixed; left: 0; top: 0; width: 160px; height: 40px">Run the sample</button>';
  // The sample's module is fetched while the page loads, and runs on the click.
  const head = `<script type="module" src="${OUT_PATH}harness.js"></script><link rel="modulepreload" href="${sampleUrl}">`;
  return htmlPage('Tango sample', markup ? `${markup}\n${button}` : button, head);
}

/**
 * The page markup a browser sample states it needs: the text after `// HTML:` on each of its
 * comment lines that start so, in order, one per line (e.g. `// HTML: <canvas></canvas>` for a
 * sample that finds the canvas a player draws into with `document.querySelector("canvas")`). The
 * runner puts it in the body of the sample's page; readers see the same line in the docs.
 *
 * @param code The block's code.
 * @returns The markup, lines joined with `\n`; empty when the block has no such line.
 */
export function pageMarkup(code: string): string {
  return [...code.matchAll(/^[ \t]*\/\/[ \t]*HTML:[ \t]*(.*?)[ \t]*$/gm)].map((match) => match[1]!).join('\n');
}

/**
 * Replaces the positions in `text` that point into served files (`<origin>/out/x.js:LINE:COL`, as
 * Chromium's stack frames write them) with the original file and position that `resolve` gives;
 * positions it does not know are left alone.
 *
 * @param text An error's stack, or any output.
 * @param origin The server's origin, e.g. `http://127.0.0.1:4000`.
 * @param resolve From a served path (`/out/b3.js`) and a 1-based line and column, the original
 *   absolute file and 1-based position, or undefined.
 * @returns The text with `file:line:column` in place of each known position.
 */
export function mapStackFrames(
  text: string,
  origin: string,
  resolve: (file: string, line: number, column: number) => {file: string; line: number; column: number} | undefined,
): string {
  const escaped = origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`${escaped}(/[^\\s():]+):(\\d+):(\\d+)`, 'g'), (match, file: string, line: string, column: string) => {
    const original = resolve(file, Number(line), Number(column));
    return original ? `${original.file}:${original.line}:${original.column}` : match;
  });
}

/**
 * The file a `file` event picks: `NAME` with fixed content, so that recordings are stable. A name
 * ending in `.apk` holds a minimal APK of the package `com.example.app` (device/src/apk.ts
 * buildApk, which the simulated package manager installs); any other name holds the text
 * `Hello from Tango\n`.
 *
 * @param name The file's name, from the event.
 * @returns What Playwright's setInputFiles takes: the name, a MIME type and the bytes.
 */
export function sampleFile(name: string): {name: string; mimeType: string; buffer: Buffer} {
  if (name.toLowerCase().endsWith('.apk')) {
    return {name, mimeType: 'application/vnd.android.package-archive', buffer: Buffer.from(buildApk({packageName: 'com.example.app'}))};
  }
  return {name, mimeType: 'text/plain', buffer: Buffer.from('Hello from Tango\n')};
}

/** Reads the harness's `settled`, or calls its `idle()` or `cleanup()`, in the page. */
function callHarness(page: Page, member: 'settled' | 'idle' | 'cleanup'): Promise<string | undefined> {
  return page.evaluate(
    ([name, what]): Promise<string | undefined> | undefined => {
      const harness = (globalThis as unknown as Record<string, SampleHarness>)[name]!;
      return what === 'settled' ? harness.settled : harness[what]().then(() => undefined);
    },
    [HARNESS_GLOBAL, member] as const,
  );
}

/**
 * How the report names an event: as the fence meta writes it.
 *
 * @param event The event.
 * @returns `"click button"`, `"press KeyA"`, `"file input app.apk"`.
 */
export function describeEvent(event: SampleEvent): string {
  if (event.action === 'press') return `"press ${event.key}"`;
  if (event.action === 'file') return `"file ${event.target} ${event.name}"`;
  return `"${event.action} ${event.target}"`;
}

/** Gives one SampleEvent to the page with Playwright's trusted input; its target must be there within EVENT_TIMEOUT_MS. */
async function perform(page: Page, event: SampleEvent): Promise<void> {
  const timeout = EVENT_TIMEOUT_MS;
  switch (event.action) {
    case 'click':
      await page.locator(event.target).first().click({timeout});
      break;
    case 'right-click':
      await page.locator(event.target).first().click({button: 'right', timeout});
      break;
    case 'wheel':
      await page.locator(event.target).first().hover({timeout});
      await page.mouse.wheel(0, 100);
      break;
    case 'press':
      await page.keyboard.press(event.key);
      break;
    case 'file':
      await page.locator(event.target).first().setInputFiles(sampleFile(event.name), {timeout});
      break;
  }
}

/** Console message types that Node.js writes to stderr (console.error, console.warn, console.assert, console.trace). */
const STDERR_TYPES = new Set(['error', 'warning', 'assert', 'trace']);

/**
 * Formats a console message's arguments as Node.js's console would: util.format of their values
 * (Playwright's jsonValue: primitives, arrays, plain objects, typed arrays, errors, dates…). A
 * message without arguments (one Chromium writes itself, e.g. a failed request) is its text.
 *
 * @param values The arguments' values, or undefined when they could not be read (then `fallback`).
 * @param fallback Chromium's own text of the message.
 * @returns The line, without its newline.
 */
export function formatConsoleLine(values: readonly unknown[] | undefined, fallback: string): string {
  if (!values || values.length === 0) return fallback;
  return format(...(values as unknown[]));
}

/** One line a page printed: its stream, and its text (Chromium's own until the arguments' values are read). */
interface OutputLine {
  stream: 'stdout' | 'stderr';
  text: string;
}

/** What a page printed, in order, by stream; the listeners attach to one page. */
class PageOutput {
  readonly #lines: OutputLine[] = [];
  readonly #reading: Array<Promise<void>> = [];
  readonly #map: (text: string) => string;
  /** The first line of each uncaught error, in order. */
  readonly uncaught: string[] = [];
  crashed = false;
  #closed = false;

  constructor(map: (text: string) => string) {
    this.#map = map;
  }

  /** Adds a line; `values`, when given, replaces its text with formatConsoleLine of the values once they are read. */
  #push(stream: OutputLine['stream'], text: string, values?: Promise<unknown[] | undefined>): void {
    if (this.#closed) return;
    const line: OutputLine = {stream, text};
    this.#lines.push(line);
    if (values) this.#reading.push(values.then((read) => void (line.text = formatConsoleLine(read, text))));
  }

  /** Listens to the page's console, errors, dialogs, downloads and crash; returns the function that stops listening. */
  attach(page: Page): () => void {
    const onConsole = (message: ConsoleMessage): void => {
      // A message with text and no arguments is Chromium's own (a failed request, a WebGL driver
      // note, a deprecation): not what the sample printed, and not the same from run to run.
      if (message.args().length === 0 && message.text() !== '') return;
      const values = Promise.all(message.args().map((arg) => arg.jsonValue() as Promise<unknown>)).catch(() => undefined);
      this.#push(STDERR_TYPES.has(message.type()) ? 'stderr' : 'stdout', message.text(), values);
    };
    const onPageError = (error: Error): void => {
      const stack = error.stack && error.stack.includes(error.message) ? error.stack : `${error.name}: ${error.message}`;
      this.uncaught.push(`${error.name}: ${error.message}`.split('\n')[0]!);
      this.#push('stderr', `Uncaught ${stack}`);
    };
    const onDialog = (dialog: Dialog): void => {
      this.#push('stdout', `[${dialog.type()}] ${dialog.message()}`);
      void dialog.dismiss().catch(() => undefined);
    };
    const onDownload = (download: Download): void => this.#push('stdout', `[download] ${download.suggestedFilename()}`);
    const onCrash = (): void => void (this.crashed = true);
    page.on('console', onConsole);
    page.on('pageerror', onPageError);
    page.on('dialog', onDialog);
    page.on('download', onDownload);
    page.on('crash', onCrash);
    return () => {
      page.off('console', onConsole);
      page.off('pageerror', onPageError);
      page.off('dialog', onDialog);
      page.off('download', onDownload);
      page.off('crash', onCrash);
    };
  }

  /**
   * Waits for the messages' values (the page must still be open), at most FLUSH_MS (a line whose
   * values are not read by then keeps Chromium's text), then takes no more lines.
   */
  async flush(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.#reading), new Promise((resolve) => (timer = setTimeout(resolve, FLUSH_MS)))]);
    clearTimeout(timer);
    this.#closed = true;
  }

  /** One stream's text: its lines (stack frames mapped), each ending in a newline, cut at OUTPUT_LIMIT. */
  text(stream: OutputLine['stream']): string {
    const text = this.#lines
      .filter((line) => line.stream === stream)
      .map((line) => `${this.#map(line.text)}\n`)
      .join('');
    return text.length <= OUTPUT_LIMIT
      ? text
      : `${text.slice(0, OUTPUT_LIMIT)}\n[runner: output over ${OUTPUT_LIMIT} characters dropped]\n`;
  }
}

/** The result of bundle(): the files to serve, each sample's URL or error, and the source maps by served path. */
interface Bundle {
  files: Record<string, Served>;
  built: Map<number, {url: string} | {error: string}>;
  maps: Map<string, SourceMap>;
}

/**
 * Writes each sample (withRunPreludes, its preludes' runtime prelude-browser.ts) to
 * `<dir>/b<index>.ts` (`.tsx` for JSX) and bundles them with the harness and, when a sample uses TinyH264, its
 * worker, in one esbuild call (shared chunks). When that call fails, each sample is built alone to
 * find the ones that fail, and the others are built together again.
 */
async function bundle(jobs: readonly BrowserJob[], dir: string): Promise<Bundle> {
  fs.mkdirSync(dir, {recursive: true});
  const harnessEntry = path.join(dir, 'harness-entry.ts');
  fs.writeFileSync(harnessEntry, `import {installHarness} from ${JSON.stringify(HARNESS_SOURCE)};\ninstallHarness(window);\n`);
  const sources = new Map<number, string>();
  const mains = new Map<string, string>();
  for (const job of jobs) {
    const file = path.join(dir, browserSourceName(job));
    fs.writeFileSync(file, withRunPreludes(job.code, job.preludes, job.line, './prelude-runtime.mjs'));
    sources.set(job.index, file);
    writeCompanions(job.companions, file);
    if (job.companions?.length) mains.set(file, job.titleDir ?? '.');
  }
  const samples = new Set(sources.values());
  const versions = new Map<string, BrowserJob[]>();
  for (const job of jobs) versions.set(job.version, [...(versions.get(job.version) ?? []), job]);
  const files: Record<string, Served> = {};
  const maps = new Map<string, SourceMap>();
  const built = new Map<number, {url: string} | {error: string}>();
  const collect = (result: esbuild.BuildResult<{write: false}>, outDir: string) => {
    for (const output of result.outputFiles) {
      const served = `${OUT_PATH}${path.relative(path.join(dir, 'out'), output.path).split(path.sep).join('/')}`;
      if (served.endsWith('.map')) {
        const payload = JSON.parse(output.text) as {sources: string[]};
        // Sources are relative to the map: make them absolute, as the normalisation replaces them.
        payload.sources = payload.sources.map((source) => path.resolve(outDir, source));
        maps.set(served.slice(0, -'.map'.length), new SourceMap(payload as ConstructorParameters<typeof SourceMap>[0]));
      } else {
        files[served] = {type: contentType(served), body: output.contents, immutable: true};
      }
    }
  };
  collect(
    await esbuild.build({...BROWSER_BUILD, entryPoints: {harness: harnessEntry}, outdir: path.join(dir, 'out'), write: false}),
    path.join(dir, 'out'),
  );
  // One build per docs version, each against its own library, in its own folder (`/out/<version>/`:
  // TinyH264's worker must sit beside that version's chunks).
  for (const [version, group] of versions) {
    const {library} = group[0]!;
    const outDir = path.join(dir, 'out', version);
    const worker = group.some((job) => job.code.includes('scrcpy-decoder-tinyh264')) ? tinyH264Worker(library) : undefined;
    const build = (selected: readonly BrowserJob[], write: boolean) =>
      esbuild.build({
        ...BROWSER_BUILD,
        entryPoints: {
          ...(worker ? {worker} : {}),
          ...Object.fromEntries(selected.map((job) => [`b${job.index}`, sources.get(job.index)!])),
        },
        outdir: outDir,
        entryNames: '[name]',
        chunkNames: 'chunk-[hash]',
        splitting: true,
        sourcemap: write ? 'external' : false,
        write: false,
        // The 1.x sources' own dependencies (tinyh264, yuv-buffer…) are in this repository's node_modules.
        nodePaths: [path.join(PACKAGE_ROOT, 'node_modules')],
        plugins: [
          {
            name: 'sample-prelude-runtime',
            setup(pluginBuild) {
              pluginBuild.onResolve({filter: /^\.\/prelude-runtime\.mjs$/}, (args) =>
                samples.has(args.importer) ? {path: preludeBrowser(version)} : undefined,
              );
            },
          },
          companionResolver(mains),
          commonJsDynamicImports(),
          importsPlugin(library, 'browser'),
        ],
      });
    let good = group;
    let result: esbuild.BuildResult<{write: false}>;
    try {
      result = await build(group, true);
    } catch {
      const alone = await Promise.all(
        group.map(async (job) => {
          try {
            await build([job], false);
            return undefined;
          } catch (error) {
            const first = (error as esbuild.BuildFailure).errors?.[0];
            return first ? `${first.text}${first.location ? ` (line ${first.location.line})` : ''}` : String(error);
          }
        }),
      );
      group.forEach((job, position) => {
        if (alone[position] !== undefined) built.set(job.index, {error: alone[position]!});
      });
      good = group.filter((job) => !built.has(job.index));
      if (good.length === 0) continue;
      result = await build(good, true);
    }
    collect(result, outDir);
    // `BIN` of fetch-scrcpy-server, bundled, is `new URL("./server.bin", import.meta.url)` of a chunk here.
    if (group.some((job) => job.code.includes('@yume-chan/fetch-scrcpy-server'))) {
      const server = path.join(fetchScrcpyServerDir(library), 'server.bin');
      if (fs.existsSync(server))
        files[`${OUT_PATH}${version}/server.bin`] = {type: 'application/octet-stream', body: fs.readFileSync(server), immutable: true};
    }
    for (const job of good) built.set(job.index, {url: `${OUT_PATH}${version}/b${job.index}.js`});
  }
  return {files, built, maps};
}
