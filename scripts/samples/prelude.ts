/**
 * Preludes: the setup a sample takes for granted, hidden from the page the way rustdoc hides `# `
 * lines. `prelude="adb"` gives an `Adb` connected to the device; `prelude="client"` gives a
 * started Scrcpy session (`AdbScrcpyClient`, server 3.1, audio off, video read in the background
 * as a player would), for the control samples. A block whose fence meta says `prelude="adb"` uses `adb` without declaring it: the
 * type-check appends a hidden declaration (`withTypePreludes`), the runner puts a real connection
 * to the simulated device before the code and closes it after (`withRunPreludes`), and the page
 * shows one visible comment line saying where `adb` comes from (`preludeProblems` requires it).
 *
 * Until the pages say `prelude="adb"`, a block's own `declare const adb: Adb;` line (the stand-in
 * the 2.0.0 pages use so that they compile) counts as that prelude at run time (`standInPreludes`).
 *
 * The runtime the setup imports (`./prelude-runtime.mjs`) is prelude-runtime.ts in a Node.js
 * sample's process, and prelude-browser.ts in a browser sample's page (browser.ts resolves it so):
 * the same names, connected over TCP or over WebUSB.
 *
 * This module has no imports: prelude-runtime.ts, which runs inside each sample's process, bundles
 * SAMPLE_ENV from it.
 */

/** A setup that samples may take for granted. */
export interface Prelude {
  /** The name `prelude="…"` gives, which is also the variable the prelude defines. */
  name: string;
  /** What the variable holds, for messages and the docs. */
  description: string;
  /** TypeScript appended (hidden) to the block for the type-check: a declaration, no code. */
  declaration: string;
  /**
   * JavaScript/TypeScript put before the sample at run time, on one line: imports and statements
   * that define the variable. `runtime` is the specifier of the module built from
   * prelude-runtime.ts (e.g. `./prelude-runtime.mjs`).
   */
  setup(runtime: string): string;
  /** Statements put after the sample at run time (they run once its top-level code is done). */
  teardown: string;
}

/** The preludes a block may name, by name. */
export const PRELUDES: Readonly<Record<string, Prelude>> = {
  adb: {
    name: 'adb',
    description: 'an Adb connected to the device',
    declaration: 'declare const adb: import("@yume-chan/adb").Adb;',
    setup: (runtime) =>
      `import { connectSampleAdb as __sampleConnectAdb, closeSampleAdb as __sampleCloseAdb } from ${JSON.stringify(runtime)}; ` +
      'const adb = await __sampleConnectAdb();',
    teardown: 'await __sampleCloseAdb(adb);',
  },
  client: {
    name: 'client',
    description: 'an AdbScrcpyClient started as in "Start server", whose video your player reads',
    declaration:
      'declare const client: import("@yume-chan/adb-scrcpy").AdbScrcpyClient<import("@yume-chan/adb-scrcpy").AdbScrcpyOptions3_1<true>>;',
    setup: (runtime) =>
      `import { startSampleClient as __sampleStartClient, closeSampleClient as __sampleCloseClient } from ${JSON.stringify(runtime)}; ` +
      'const client = await __sampleStartClient();',
    teardown: 'await __sampleCloseClient(client);',
  },
};

/** The prelude names that need a simulated device of their own (every one today). */
export const DEVICE_PRELUDES: readonly string[] = ['adb', 'client'];

/**
 * The environment variables through which the runner tells prelude-runtime.ts where the device is:
 * `device` is `host:port` (the simulated device's TCP address), `key` the path of a PKCS #8 DER
 * private key the device trusts, `serial` the serial the connection reports (`adb.serial`).
 */
export const SAMPLE_ENV = {device: 'TANGO_SAMPLE_DEVICE', key: 'TANGO_SAMPLE_KEY', serial: 'TANGO_SAMPLE_SERIAL'} as const;

/** The stand-in line of the 2.0.0 pages, `declare const adb: Adb;`, alone on its line. */
const ADB_STAND_IN = /^[ \t]*declare[ \t]+const[ \t]+adb[ \t]*:[ \t]*Adb[ \t]*;?[ \t]*$/m;

/**
 * The preludes a block's own stand-in declarations ask for (the first version's bridge until the
 * pages say `prelude="adb"`).
 *
 * @param code The block's code.
 * @returns `['adb']` when a line is exactly `declare const adb: Adb;` (spaces and the semicolon
 *   free), else `[]`. Other stand-ins (`declare const client: …`) are not preludes.
 */
export function standInPreludes(code: string): string[] {
  return ADB_STAND_IN.test(code) ? ['adb'] : [];
}

/** A regular expression source matching `name` as a whole identifier. */
const identifier = (name: string) => `(?<![\\w$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`;

/**
 * What is wrong with a block's `prelude="…"`.
 *
 * @param names The names the meta gives (parseMeta's `prelude`).
 * @param code The block's code.
 * @returns One message per problem, empty when none: a name that is not in PRELUDES; a block that
 *   declares the variable itself (`const adb`, `declare const adb`, `let`, `var`, `function`,
 *   `class`), which the prelude already does; a block with no visible `//` comment line naming
 *   the variable (the line that tells the reader where it comes from).
 */
export function preludeProblems(names: readonly string[], code: string): string[] {
  const problems: string[] = [];
  for (const name of names) {
    if (!Object.hasOwn(PRELUDES, name)) {
      problems.push(`prelude="${name}" is not a known prelude (${Object.keys(PRELUDES).join(', ')})`);
      continue;
    }
    if (new RegExp(`(?:^|[\\s;])(?:declare\\s+)?(?:const|let|var|function|class)\\s+${identifier(name)}`, 'm').test(code)) {
      problems.push(`prelude="${name}" supplies ${name}: remove the block's own declaration of ${name}`);
    }
    if (!new RegExp(`^[ \\t]*//.*${identifier(name)}`, 'm').test(code)) {
      problems.push(
        `prelude="${name}" hides where ${name} comes from: add a visible comment line naming it, ` +
          `e.g. // ${name}: ${PRELUDES[name]!.description} (see "Quick start")`,
      );
    }
  }
  return problems;
}

/**
 * The source the type-check compiles for a block: the code, then one hidden declaration per
 * prelude on lines after it. Declarations after the code change no position in it, and
 * TypeScript accepts a `declare const` used above its line.
 *
 * @param code The block's code.
 * @param names Prelude names (unknown names are skipped; preludeProblems reports them).
 * @returns The code unchanged when `names` is empty.
 */
export function withTypePreludes(code: string, names: readonly string[]): string {
  const declarations = names.flatMap((name) => (Object.hasOwn(PRELUDES, name) ? [PRELUDES[name]!.declaration] : []));
  return declarations.length === 0 ? code : `${code}\n${declarations.join('\n')}\n`;
}

/**
 * The source the runner transpiles for a block: `line` lines before the code, so that the code's
 * first line is line `line + 1` as in the page (stack traces then give page lines), the preludes'
 * setup on the first of them, and their teardowns after the code.
 *
 * @param code The block's code.
 * @param names Prelude names (unknown names are skipped).
 * @param line The 1-based line of the block's opening fence in its page.
 * @param runtime The specifier the setup imports the prelude runtime from.
 * @returns The source, with `line + 1` lines before the code's end plus one for the teardowns.
 */
export function withRunPreludes(code: string, names: readonly string[], line: number, runtime: string): string {
  const preludes = names.flatMap((name) => (Object.hasOwn(PRELUDES, name) ? [PRELUDES[name]!] : []));
  const head = preludes.map((prelude) => prelude.setup(runtime)).join(' ');
  const teardown = preludes.map((prelude) => prelude.teardown).join(' ');
  return `${head}${'\n'.repeat(Math.max(1, line))}${code}\n${teardown}\n`;
}

/**
 * Whether a sample talks to Google's ADB server on its default port: it names port 5037, uses
 * `AdbServerNodeTcpConnector` (the library's way to reach a server from Node.js), or runs the
 * `adb` command (`execFile("adb", [...])`). The runner then starts the server if needed and has
 * it `adb connect` the simulated device first.
 *
 * @param code The block's code.
 * @returns True when one of those appears in the code.
 */
export function needsAdbServer(code: string): boolean {
  return /\b5037\b|\bAdbServerNodeTcpConnector\b|(["'])adb\1\s*,\s*\[/.test(code);
}

/**
 * Whether a sample talks to the simulated device that the runner gives it (a Pixel 7, device/):
 * through a device prelude (its meta's `prelude="…"`, else its stand-in line), through Google's
 * ADB server, which has the device connected (needsAdbServer), or over WebUSB in a browser page,
 * which offers the device in its picker. Other samples (a stream, a mock transport) print the
 * same anywhere.
 *
 * @param code The block's code.
 * @param preludes The names its meta gives (parseMeta's `prelude`), if any.
 * @returns True when one of those applies.
 */
export function usesSimulatedDevice(code: string, preludes: readonly string[] | undefined): boolean {
  return (
    (preludes ?? standInPreludes(code)).some((name) => DEVICE_PRELUDES.includes(name)) ||
    needsAdbServer(code) ||
    /\bAdbDaemonWebUsbDeviceManager\b|\bnavigator\.usb\b/.test(code)
  );
}
