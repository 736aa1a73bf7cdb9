/**
 * Which samples the runner runs, where, and why the others are not run: blocks that only declare
 * types (isTypeOnly), browser samples (browserApis: names only a browser has, found with the
 * type-checker; they run in Chromium), samples that need Google's ADB server (needsAdbServer), and
 * the decision itself (decideRun), which also picks the preludes a sample gets.
 */
import ts from 'typescript';
import type {SampleBlock, SampleEvent, SampleMeta} from './extract.ts';
import {needsAdbServer, standInPreludes} from './prelude.ts';

/** Why a sample is not run; each is counted apart in the report. */
export type NotRunKind = 'invalid' | 'partial' | 'type-check' | 'version' | 'norun' | 'type-only' | 'browser';

/** Where a sample runs: its own Node.js process, or its own page in the run's Chromium. */
export type Platform = 'node' | 'browser';

/** How each NotRunKind is named in the report, in report order. */
export const NOT_RUN_LABELS: Readonly<Record<NotRunKind, string>> = {
  'type-only': 'type-only',
  partial: 'partial',
  norun: 'norun',
  version: 'other version',
  'type-check': 'type-check failed',
  browser: 'browser',
  invalid: 'bad meta',
};

/** The decision for one block: run it (with which preludes, and whether it needs the ADB server), or why not. */
export type RunDecision =
  | {
      run: true;
      /** Prelude names the runner supplies: the meta's, or `adb` for a `declare const adb: Adb;` stand-in. */
      preludes: string[];
      /** True when the preludes come from the block's own stand-in line, not from `prelude="…"`. */
      standIn: boolean;
      /** True when the sample talks to Google's ADB server (see needsAdbServer); never for a browser sample. */
      server: boolean;
      /** `browser` when the sample uses a browser API (the `reason` of `browser`), else `node`. */
      platform: Platform;
      /** For a browser sample: what `browser` found (names, `JSX`), for the report. Empty for Node.js. */
      browser: string[];
      /** The input events of `event="…"` (browser samples only), empty without one. */
      events: SampleEvent[];
      /** What the runner does to a Node.js sample once it printed a text (`interrupt=`, `unplug=`). */
      actions: SampleActions;
      /** `varies="…"`: compare with the recording with every number masked (record.ts compareRecord). */
      varies: boolean;
    }
  | {run: false; kind: NotRunKind; reason: string};

/** The runner's actions on a Node.js sample, each after the sample printed its text. */
export interface SampleActions {
  /** Send SIGINT (Ctrl+C) after this text. */
  interrupt?: string;
  /** Disconnect the device from Google's ADB server after this text. */
  unplug?: string;
}

/** What decideRun needs to know about a block. */
export interface RunFacts {
  block: Pick<SampleBlock, 'code' | 'lang'>;
  meta: SampleMeta;
  /** The docs version of the block's page. */
  version: string;
  /** The version the block is checked as (`version="…"`, else the page's). */
  target: string;
  /** The versions this run runs (a subset of RUNNABLE_VERSIONS in run.ts). */
  runnable: readonly string[];
  /** The versions whose browser samples run in Chromium (BROWSER_VERSIONS in run.ts). */
  browserRunnable: readonly string[];
  /** The block's meta is malformed (check.ts already reports it). */
  invalid: boolean;
  /** The block failed the type-check (or was not type-checked because its meta is invalid). */
  failedTypeCheck: boolean;
  /** isTypeOnly of the block. */
  typeOnly: boolean;
  /** browserApis of the block. */
  browser: readonly string[];
}

/**
 * Decides whether the runner runs a block, and where. In order, a block is not run when its meta
 * is invalid, it is `partial`, it failed the type-check, it shows another version's code
 * (`version="X"`) or its version has no runner yet, it says `norun="…"`, it only declares types,
 * or it has `event="…"` but uses no browser API. A block that uses a browser API (a `tsx` block
 * counts as one: JSX needs a page to render into) runs in Chromium, every other one in Node.js.
 *
 * @param facts What is known of the block (see RunFacts).
 * @returns `{run: true, preludes, standIn, server, platform, browser, events}` or
 *   `{run: false, kind, reason}`; `reason` is the text the report lists after the kind's label
 *   (`--list-not-run`): the meta's own reason for `partial` and `norun`.
 */
export function decideRun(facts: RunFacts): RunDecision {
  const {block, meta} = facts;
  if (facts.invalid) return {run: false, kind: 'invalid', reason: 'its fence meta is malformed'};
  if (meta.partial !== undefined) return {run: false, kind: 'partial', reason: meta.partial};
  if (facts.failedTypeCheck) return {run: false, kind: 'type-check', reason: 'it failed the type-check'};
  if (facts.target !== facts.version) {
    return {run: false, kind: 'version', reason: `it shows version ${facts.target}'s code (version="${facts.target}")`};
  }
  if (!facts.runnable.includes(facts.version)) {
    return {
      run: false,
      kind: 'version',
      reason: `this run leaves out version ${facts.version} (run it with --run --version ${facts.version})`,
    };
  }
  if (meta.norun !== undefined) return {run: false, kind: 'norun', reason: meta.norun};
  if (facts.typeOnly) return {run: false, kind: 'type-only', reason: 'it only declares types'};
  const browser = block.lang === 'tsx' ? ['JSX', ...facts.browser] : [...facts.browser];
  const platform: Platform = browser.length > 0 ? 'browser' : 'node';
  if (platform === 'browser' && !facts.browserRunnable.includes(facts.version)) {
    return {
      run: false,
      kind: 'browser',
      reason: `a browser sample: Chromium runs ${facts.browserRunnable.join(', ')}'s only`,
    };
  }
  if (meta.events && platform === 'node') {
    return {
      run: false,
      kind: 'invalid',
      reason: 'event="…" drives a browser page, and this sample uses no browser API (it runs in Node.js)',
    };
  }
  if ((meta.interrupt !== undefined || meta.unplug !== undefined) && platform !== 'node') {
    return {run: false, kind: 'invalid', reason: 'interrupt="…" and unplug="…" act on a Node.js process, and this sample runs in Chromium'};
  }
  const server = platform === 'node' && needsAdbServer(block.code);
  if (meta.unplug !== undefined && !server) {
    return {
      run: false,
      kind: 'invalid',
      reason: 'unplug="…" disconnects the device from Google\'s ADB server, which this sample doesn\'t use',
    };
  }
  const standIn = meta.prelude === undefined ? standInPreludes(block.code) : [];
  return {
    run: true,
    preludes: meta.prelude ?? standIn,
    standIn: standIn.length > 0,
    server,
    platform,
    browser,
    events: meta.events ?? [],
    actions: {interrupt: meta.interrupt, unplug: meta.unplug},
    varies: meta.varies !== undefined,
  };
}

/**
 * Whether a block only declares types, so that running it would do nothing: every top-level
 * statement is an import, an export list or re-export, an interface, a type alias, an ambient
 * (`declare`) class, function, enum, namespace or variable, or empty.
 *
 * @param source The block parsed as a module.
 * @returns True for such a block (and for a block with no statements).
 */
export function isTypeOnly(source: ts.SourceFile): boolean {
  const ambient = (statement: ts.Statement) =>
    (ts.getCombinedModifierFlags(statement as unknown as ts.Declaration) & ts.ModifierFlags.Ambient) !== 0;
  return source.statements.every(
    (statement) =>
      ts.isImportDeclaration(statement) ||
      ts.isExportDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isEmptyStatement(statement) ||
      ((ts.isClassDeclaration(statement) ||
        ts.isFunctionDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isModuleDeclaration(statement) ||
        ts.isVariableStatement(statement)) &&
        ambient(statement)),
  );
}

/** Declaration files of the platform: TypeScript's libraries, @types/node, React's stand-ins for DOM types, WebUSB's types. */
const PLATFORM_FILES =
  /[\\/]typescript[\\/]lib[\\/]lib\.[.\w]*\.d\.ts$|[\\/]@types[\\/](?:node|w3c-web-usb)[\\/]|[\\/]@types[\\/]react[\\/]global\.d\.ts$/;

/** Declaration files of browser APIs: the DOM and worker libraries of TypeScript, and WebUSB's types. */
const BROWSER_FILES = /[\\/]typescript[\\/]lib[\\/]lib\.(?:dom|webworker)[.\w]*\.d\.ts$|[\\/]@types[\\/]w3c-web-usb[\\/]/;

/**
 * Library packages (as their folder appears in the path of their declarations) whose exports, or
 * those matching `names`, stand for a browser API: WebUSB devices, the IndexedDB key store, the
 * WebCodecs decoder and its canvas renderers. Facts: the packages' own READMEs.
 */
const BROWSER_PACKAGES: ReadonlyArray<{folder: RegExp; names: RegExp; api: string}> = [
  {folder: /[\\/]adb-daemon-webusb[\\/]/, names: /^AdbDaemonWebUsb/, api: 'WebUSB'},
  {folder: /[\\/]adb-credential-web[\\/]/, names: /./, api: 'IndexedDB'},
  {folder: /[\\/]scrcpy-decoder-webcodecs[\\/]/, names: /./, api: 'WebCodecs'},
];

/**
 * The browser-only names a block uses, with these facts:
 * - a global (an identifier in a value or a type, not a property name) that lib.dom, lib.webworker
 *   or @types/w3c-web-usb declare, that only platform typings declare (not the block), and that
 *   the Node.js running the samples does not have (`hasGlobal`): `document`, `window`,
 *   `HTMLElement`, `KeyboardEvent`, `VideoDecoder`, `WebSocket` (Node 20), but not `fetch`, `URL`,
 *   `ReadableStream` or `MessageEvent`. The run-time test is the fact: @types/node declares some
 *   globals before Node has them, and React's typings declare empty DOM interfaces;
 * - WebUSB's entry point (`navigator.usb`, the member @types/w3c-web-usb adds to `Navigator`),
 *   and `AdbDaemonWebUsbDeviceManager.BROWSER`;
 * - the library's browser packages (BROWSER_PACKAGES): `AdbDaemonWebUsb…` classes, the web
 *   credential store, the WebCodecs decoder and renderers, written `Name (API)`;
 * - `fetch(BIN)` of `@yume-chan/fetch-scrcpy-server`: an asset URL a bundler serves (Node.js's
 *   fetch refuses its `file:` URL).
 *
 * @param source The block's module in `checker`'s program (compiled with lib.dom and @types/node).
 * @param checker The program's type-checker.
 * @param hasGlobal Whether the Node.js that runs the samples has a global of that name; default:
 *   this process's `globalThis` (the runner runs samples with the same `node`).
 * @returns The names, in order of first use, without duplicates.
 */
export function browserApis(
  source: ts.SourceFile,
  checker: ts.TypeChecker,
  hasGlobal: (name: string) => boolean = (name) => name in globalThis,
): string[] {
  const found = new Set<string>();
  const files = (symbol: ts.Symbol | undefined) => (symbol?.declarations ?? []).map((declaration) => declaration.getSourceFile().fileName);
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node)) {
      const owner = node.expression.getText(source);
      if (node.name.text === 'BROWSER' && /WebUsbDeviceManager$/.test(owner)) found.add(`${owner}.BROWSER`);
      // WebUSB's entry point: the `usb` member that @types/w3c-web-usb adds to Navigator.
      const member = checker.getSymbolAtLocation(node.name);
      const onNavigator = (member?.declarations ?? []).some(
        (declaration) =>
          /[\\/]@types[\\/]w3c-web-usb[\\/]/.test(declaration.getSourceFile().fileName) &&
          ts.isInterfaceDeclaration(declaration.parent) &&
          /^(?:Worker)?Navigator$/.test(declaration.parent.name.text),
      );
      if (onNavigator) found.add(`${owner}.${node.name.text}`);
    }
    // `fetch(BIN)`: fetch-scrcpy-server's `new URL("./server.bin", import.meta.url)` is an asset a
    // bundler serves to a web page; Node.js's fetch refuses `file:` URLs (it reads BIN with node:fs).
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'fetch') {
      const [first] = node.arguments;
      let symbol = first && ts.isIdentifier(first) ? checker.getSymbolAtLocation(first) : undefined;
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      if (files(symbol).some((file) => /[\\/]fetch-scrcpy-server(?:-[^\\/]+)?[\\/]/.test(file)))
        found.add(`fetch(${first!.getText(source)}) (a bundled asset)`);
    }
    if (ts.isIdentifier(node) && !isMemberName(node)) {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const declared = files(symbol);
      if (
        declared.length > 0 &&
        declared.every((file) => PLATFORM_FILES.test(file)) &&
        declared.some((file) => BROWSER_FILES.test(file)) &&
        !hasGlobal(node.text)
      ) {
        found.add(node.text);
      }
      const browserPackage = BROWSER_PACKAGES.find(
        ({folder, names}) => declared.some((file) => folder.test(file)) && names.test(node.text),
      );
      if (browserPackage) found.add(`${node.text} (${browserPackage.api})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found];
}

/** An identifier naming a member (`x.name`, `{name: …}`, `A.B` in a type, a declared member), not a global. */
function isMemberName(node: ts.Identifier): boolean {
  const parent = node.parent;
  return (
    (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
    (ts.isQualifiedName(parent) && parent.right === node) ||
    (ts.isPropertyAssignment(parent) && parent.name === node) ||
    (ts.isBindingElement(parent) && parent.propertyName === node) ||
    ((ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodSignature(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isGetAccessorDeclaration(parent) ||
      ts.isSetAccessorDeclaration(parent)) &&
      parent.name === node)
  );
}
