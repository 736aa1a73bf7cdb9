/**
 * Code-sample checker: type-checks every TypeScript code block of the docs against the library
 * version its page documents. This file is the command line: it reads the arguments, plans each
 * block, runs the checks and prints the report. The steps it runs are in the files beside it:
 * extract.ts finds the pages and their blocks, libraries.ts finds each version's library, and
 * typecheck.ts type-checks the blocks.
 *
 * Usage: tsx scripts/samples/check.ts [--root DIR] [--version X] [--run] [--record] [--list-not-run] [--no-newest] [--only TEXT]… [--browser]
 *   --root DIR      the site to check (the folder holding docs/, versioned_docs/ and versions.json);
 *                   default: the repository this script lives in.
 *   --version X     check only the pages of docs version X (default: every version).
 *   --run           after the type-check, run the samples against the simulated device (run.ts) and
 *                   compare what they print with their recordings (samples/recorded/, record.ts).
 *   --record        with --run (implied): write the recordings instead of comparing, and delete
 *                   recordings no sample runs with any more.
 *   --list-not-run  list every sample that is not run, with the reason (runs nothing by itself).
 *   --no-newest     leave out the second type-check of a version's samples against the newest
 *                   release of its major line (NEWEST_LIBRARIES in src/versions/index.ts).
 *   --only TEXT     type-check and run only the pages whose path contains TEXT (no stale-recording
 *                   check); give it several times for several pages.
 *   --browser       run only the browser samples (those that run in Chromium; no stale-recording check).
 *
 * Every fenced block whose language is `ts`, `tsx` or `typescript` in every `.md`/`.mdx` file of a
 * docs version is type-checked against that version's library (LIBRARIES in src/versions/index.ts): one module per
 * block, all blocks of a version in one TypeScript program, `@yume-chan/*` mapped to the version's
 * installed packages (2.0.0, 0.0.24) or to its TypeScript sources in ../shared/sources/ (1.1.0,
 * 1.0.0, whose `@yume-chan/adb` was never published). A version with no library there is checked
 * for syntax only, and counted as such.
 * A block that only declares types (a signature) must declare only names that a `@yume-chan`
 * package of its version exports, or global types (see signatureNames in typecheck.ts).
 * Meta words: `partial="reason"` opts a block out; `version="X"` checks it as docs version X;
 * `prelude="adb"` gives it a hidden `adb` (prelude.ts); `norun="reason"` keeps it from running;
 * `event="click button"` is what the runner does in a browser sample's page (browser.ts).
 *
 * Output: one line per problem (`file:line:col message`, paths relative to the working directory),
 * one line per docs version, and `samples: N type-checked, M syntax-only, K opted out, F failed`.
 * With --run, then: each failing sample (`file:line title: problem`, then the last lines of its
 * output), one line per docs version, and last `samples run: N passed, F failed, K not run`
 * (browser samples, run in Chromium by browser.ts, counted with the others).
 * Exit code: 0 when nothing failed, 1 when a block or file failed (or the packages are missing),
 * or with --run when a sample failed or a recording is stale, 2 on bad usage.
 */
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {listPages} from '../pages.ts';
import ts from 'typescript';
import {LIBRARIES, NEWEST_LIBRARIES, type Library} from '../../src/versions/index.ts';
import {browserApis, decideRun, isTypeOnly, NOT_RUN_LABELS, type NotRunKind, type RunDecision} from './classify.ts';
import {extractBlocks, MdxParseError, parseMeta, SAMPLE_LANGS, siteFolders, type SampleBlock, type SampleMeta} from './extract.ts';
import {PACKAGE_ROOT} from './libraries.ts';
import {preludeProblems} from './prelude.ts';
import {RECORD_FOLDER, recordNames, recordPath} from './record.ts';
import {installFetchScrcpyServer} from './scrcpy-server.ts';
import {relativeImports, sampleProgram} from './companions.ts';
// run.ts (esbuild, the simulated device, the library, Playwright) is imported only for --run and
// --list-not-run: a type-check alone starts ~1 s of CPU sooner without it.
import type {RunJob, RunOutcome} from './run.ts';
import {checkSyntax, checkTypes, type Failure} from './typecheck.ts';

/** The usage line, printed for `--help` and (on stderr) after bad arguments. */
export const USAGE =
  'Usage: tsx scripts/samples/check.ts [--root DIR] [--version X] [--run] [--record] [--list-not-run] [--no-newest] [--only TEXT]… [--browser]';

/** How many lines of a failing sample's output the report shows. */
const TAIL_LINES = 12;

/** Why a version without an entry in LIBRARIES is checked for syntax only. */
const SYNTAX_ONLY_REASON = 'no library to type-check against (add the version to LIBRARIES in src/versions/index.ts)';

/** Counts of one docs version (or of all), as printed. */
interface Counts {
  typeChecked: number;
  syntaxOnly: number;
  optedOut: number;
  failed: number;
}

/** What the plans of every kind know of their block. */
interface PlanBase {
  block: SampleBlock;
  folder: string;
  version: string;
  meta: SampleMeta;
  /** The page's path inside its docs folder, `/`-separated. */
  pageInFolder: string;
  /** The block's recording name (record.ts recordNames). */
  name: string;
}

/** How a block is handled: checked against `target`, opted out, or failed on its meta. */
type Plan =
  | (PlanBase & {kind: 'types' | 'syntax'; target: string})
  | (PlanBase & {kind: 'opted-out'})
  | (PlanBase & {kind: 'invalid'; problems: string[]});

/** What `run` does besides the type-check. */
export interface CheckOptions {
  /** Only the pages of this docs version. */
  version?: string;
  /** Run the samples after the type-check. */
  run?: boolean;
  /** Write recordings instead of comparing (implies `run`). */
  record?: boolean;
  /** List the samples that are not run, with their reasons. */
  listNotRun?: boolean;
  /** Leave out the second type-check against the newest release (NEWEST_LIBRARIES). */
  skipNewest?: boolean;
  /** Type-check and run only the pages whose path (as printed) contains one of these texts. */
  onlyPages?: readonly string[];
  /** Run only the browser samples. */
  browserOnly?: boolean;
}

/**
 * Type-checks a version's own samples (its pages' blocks, not `version="…"` ones, that passed
 * against the version's library: a failing block is reported once) again, against
 * the newest release of its major line (NEWEST_LIBRARIES). A block marked `newer="…"` must fail
 * there (else the mark is stale); any other failure is a failure of the block.
 *
 * @param target The docs version.
 * @param library Its newest library (an installed alias scope).
 * @param plans Every block's plan; those of `target`'s own pages are checked.
 * @param dir An empty work folder.
 * @param failures Receives the failures, each message ending with the scope it was checked against.
 * @param failedBlocks Receives the blocks that failed.
 * @param environment Receives problems of the setup (a package missing from the scope).
 * @returns The report line: `2.0.0 against the newest 2.x (adb 2.6.4, …): N type-checked, M marked newer=, F failed`.
 */
function checkNewest(
  target: string,
  library: Library,
  plans: readonly Plan[],
  dir: string,
  failures: Failure[],
  failedBlocks: Set<SampleBlock>,
  environment: string[],
): string {
  const own = plans.filter(
    (plan) => plan.kind === 'types' && plan.target === target && plan.meta.version === undefined && !failedBlocks.has(plan.block),
  );
  const result = checkTypes(
    own.map((plan) => plan.block),
    library,
    dir,
  );
  environment.push(...result.environment);
  const marked = new Map(own.filter((plan) => plan.meta.newer !== undefined).map((plan) => [plan.block, plan.meta.newer!]));
  const failing = new Set<SampleBlock>();
  const against = `against ${library.kind === 'scope' ? library.scope : library.dir}`;
  for (const failure of result.failures) {
    failing.add(failure.block!);
    if (marked.has(failure.block!)) continue;
    failedBlocks.add(failure.block!);
    failures.push({
      ...failure,
      message: `${failure.message} (${against}; if the newest release needs a change, say so on the page and mark the block newer="…")`,
    });
  }
  let failed = new Set(result.failures.filter((failure) => !marked.has(failure.block!)).map((failure) => failure.block!)).size;
  for (const [block, reason] of marked) {
    if (failing.has(block)) continue;
    failed += 1;
    failedBlocks.add(block);
    failures.push({
      file: block.file,
      line: block.line,
      column: block.column,
      message: `newer="${reason}", but the block compiles ${against}: remove newer= and its note on the page`,
      block,
    });
  }
  const versions = library.kind === 'scope' ? scopeVersions(library.scope) : '';
  const major = target.split('.')[0];
  return `${target} against the newest ${major}.x (${versions}): ${own.length} type-checked, ${marked.size} marked newer=, ${failed} failed`;
}

/** `adb 2.6.4, adb-scrcpy 2.3.2, …`: the versions of an installed alias scope's packages. */
function scopeVersions(scope: string): string {
  const dir = path.join(PACKAGE_ROOT, 'node_modules', scope);
  if (!fs.existsSync(dir)) return `${scope} missing`;
  return fs
    .readdirSync(dir)
    .sort()
    .flatMap((pkg) => {
      const file = path.join(dir, pkg, 'package.json');
      return fs.existsSync(file) ? [`${pkg} ${(JSON.parse(fs.readFileSync(file, 'utf8')) as {version: string}).version}`] : [];
    })
    .join(', ');
}

/**
 * Runs the checker on a site and prints the report to stdout. Counting: every block is exactly one
 * of type-checked, syntax-only, opted out, or invalid (bad `partial`/`version`/`norun`/`prelude`
 * meta; then not checked). "failed" counts type-checked and syntax-only blocks with at least one
 * error, invalid blocks, and pages that do not parse (one each, however many diagnostics). Blocks
 * are counted under the docs version of their page, even when `version="X"` checks them as X.
 * With `run`, every block is then exactly one of passed, failed or not run (classify.ts decideRun).
 *
 * @param root The site folder (docs/, versioned_docs/, versions.json).
 * @param options Which version, and whether to run, record and list (see CheckOptions).
 * @returns The exit code: 0 when every block passed, 1 when a block or page failed or the setup is
 *   broken (packages missing, an `@yume-chan` import escaping its alias folder), or a sample run
 *   failed, or a recording is stale.
 * @throws Error when versions.json is malformed or the alias packages are missing.
 */
export async function run(root: string, options: CheckOptions = {}): Promise<number> {
  const only = options.version;
  const running = Boolean(options.run || options.record);
  const classifying = running || Boolean(options.listNotRun);
  const display = (file: string) => path.relative(process.cwd(), file).split(path.sep).join('/') || '.';
  const allFolders = siteFolders(root);
  const known = [...new Set(allFolders.map(({version}) => version))];
  if (only !== undefined && !known.includes(only)) throw new Error(`--version ${only} is not a docs version (${known.join(', ')})`);
  const folders = only === undefined ? allFolders : allFolders.filter(({version}) => version === only);
  const failures: Failure[] = [];
  const plans: Plan[] = [];
  const perFolder = new Map<string, Counts & {pages: number; missing: boolean}>();

  const onlyPages = options.onlyPages;
  // Every block of each version, checked or not: the modules its samples can import by a relative
  // path (companions.ts), also from pages that --only leaves out.
  // Each page is parsed once: its blocks, or why it can't be parsed.
  const companionPools = new Map<string, SampleBlock[]>();
  const parsed = new Map<string, SampleBlock[] | MdxParseError>();
  for (const {version, dir} of folders) {
    const pool = companionPools.get(version) ?? [];
    companionPools.set(version, pool);
    for (const page of listPages(dir)) {
      try {
        const blocks = extractBlocks(fs.readFileSync(page, 'utf8'), display(page));
        parsed.set(page, blocks);
        pool.push(...blocks);
      } catch (error) {
        if (!(error instanceof MdxParseError)) throw error;
        parsed.set(page, error);
      }
    }
  }
  for (const {version, dir} of folders) {
    const pages = listPages(dir).filter((page) => onlyPages === undefined || onlyPages.some((text) => display(page).includes(text)));
    const counts = {typeChecked: 0, syntaxOnly: 0, optedOut: 0, failed: 0, pages: pages.length, missing: !fs.existsSync(dir)};
    perFolder.set(dir, counts);
    for (const page of pages) {
      const blocks = parsed.get(page)!;
      if (blocks instanceof MdxParseError) {
        failures.push({file: blocks.file, line: blocks.line, column: blocks.column, message: `cannot parse as MDX: ${blocks.reason}`});
        counts.failed += 1;
        continue;
      }
      const names = recordNames(blocks);
      const pageInFolder = path.relative(dir, page).split(path.sep).join('/');
      for (const block of blocks) {
        const meta = parseMeta(block.meta);
        const problems = [...meta.problems, ...preludeProblems(meta.prelude ?? [], block.code)];
        if (meta.version !== undefined && !known.includes(meta.version)) {
          problems.push(`version="${meta.version}" is not a docs version (${known.join(', ')})`);
        }
        const target = meta.version ?? version;
        const base = {block, folder: dir, version, meta, pageInFolder, name: names.get(block)!};
        if (problems.length > 0) plans.push({...base, kind: 'invalid', problems});
        else if (meta.partial !== undefined) plans.push({...base, kind: 'opted-out'});
        else plans.push({...base, kind: Object.hasOwn(LIBRARIES, target) ? 'types' : 'syntax', target});
      }
    }
  }

  const failedBlocks = new Set<SampleBlock>();
  const newestLines: string[] = [];
  const versionOf = new Map(plans.map((plan) => [plan.block, plan.version]));
  const environment: string[] = [];
  for (const plan of plans) {
    if (plan.kind !== 'invalid') continue;
    failedBlocks.add(plan.block);
    for (const message of plan.problems) {
      failures.push({file: plan.block.file, line: plan.block.line, column: plan.block.column, message, block: plan.block});
    }
  }

  const browser = new Map<SampleBlock, string[]>();
  const typeOnly = new Map<SampleBlock, boolean>();
  const inspect = classifying
    ? (block: SampleBlock, source: ts.SourceFile, checker: ts.TypeChecker) => {
        browser.set(block, browserApis(source, checker));
        typeOnly.set(block, isTypeOnly(source));
      }
    : undefined;
  const targets = [...new Set(plans.flatMap((plan) => (plan.kind === 'types' || plan.kind === 'syntax' ? [plan.target] : [])))];
  const workRoot = path.join(PACKAGE_ROOT, 'node_modules', '.cache');
  fs.mkdirSync(workRoot, {recursive: true});
  const workDir = fs.mkdtempSync(path.join(workRoot, 'check-samples-'));
  try {
    for (const target of targets) {
      const blocks = plans.flatMap((plan) =>
        (plan.kind === 'types' || plan.kind === 'syntax') && plan.target === target ? [plan.block] : [],
      );
      let found: Failure[];
      if (Object.hasOwn(LIBRARIES, target)) {
        const dir = path.join(workDir, target);
        fs.mkdirSync(dir);
        // `@yume-chan/fetch-scrcpy-server`'s index.js and index.d.ts, as the pages' postinstall makes them.
        for (const library of [
          LIBRARIES[target]!,
          ...(options.skipNewest || !NEWEST_LIBRARIES[target] ? [] : [NEWEST_LIBRARIES[target]]),
        ]) {
          installFetchScrcpyServer(library);
        }
        const result = checkTypes(blocks, LIBRARIES[target]!, dir, inspect, companionPools.get(target));
        found = result.failures;
        environment.push(...result.environment);
      } else {
        found = checkSyntax(blocks);
      }
      for (const failure of found) {
        failedBlocks.add(failure.block!);
        if (versionOf.get(failure.block!) !== target) failure.message += ` (version="${target}")`;
        failures.push(failure);
      }
      const newest = options.skipNewest ? undefined : NEWEST_LIBRARIES[target];
      if (newest !== undefined) {
        const dir = path.join(workDir, `${target}-newest`);
        fs.mkdirSync(dir);
        newestLines.push(checkNewest(target, newest, plans, dir, failures, failedBlocks, environment));
      }
    }
  } finally {
    fs.rmSync(workDir, {recursive: true, force: true});
  }

  const total: Counts = {typeChecked: 0, syntaxOnly: 0, optedOut: 0, failed: 0};
  for (const plan of plans) {
    const counts = perFolder.get(plan.folder)!;
    if (plan.kind === 'types') counts.typeChecked += 1;
    if (plan.kind === 'syntax') counts.syntaxOnly += 1;
    if (plan.kind === 'opted-out') counts.optedOut += 1;
    if (failedBlocks.has(plan.block)) counts.failed += 1;
  }

  failures.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
  for (const failure of failures) console.log(`${failure.file}:${failure.line}:${failure.column} ${failure.message}`);
  for (const message of environment) console.log(`check-samples: ${message}`);

  const syntaxOnlyVersions = [...new Set(folders.map(({version}) => version))].filter((version) => !Object.hasOwn(LIBRARIES, version));
  if (syntaxOnlyVersions.length > 0) console.log(`${syntaxOnlyVersions.join(', ')}: ${SYNTAX_ONLY_REASON}`);
  for (const {version, dir} of folders) {
    const counts = perFolder.get(dir)!;
    const where = `${display(dir)}/`;
    if (counts.missing) {
      console.log(`${version} (${where}): no such folder, 0 blocks`);
    } else {
      console.log(
        `${version} (${where}): ${counts.pages} ${counts.pages === 1 ? 'page' : 'pages'}; ${counts.typeChecked} type-checked, ${counts.syntaxOnly} syntax-only, ` +
          `${counts.optedOut} opted out, ${counts.failed} failed`,
      );
    }
    total.typeChecked += counts.typeChecked;
    total.syntaxOnly += counts.syntaxOnly;
    total.optedOut += counts.optedOut;
    total.failed += counts.failed;
  }
  for (const line of newestLines) console.log(line);
  console.log(
    `samples: ${total.typeChecked} type-checked, ${total.syntaxOnly} syntax-only, ${total.optedOut} opted out, ${total.failed} failed`,
  );
  const typeCheckCode = total.failed > 0 || environment.length > 0 ? 1 : 0;
  if (!classifying) return typeCheckCode;
  const {BROWSER_VERSIONS, DEFAULT_RUN_VERSIONS, RUN_CONCURRENCY, RUNNABLE_VERSIONS, WAITING_SLOTS} = await import('./run.ts');
  const {runSamplesInProcess} = await import('./run-process.ts');

  // The run: decide for every block, list those not run, run the others.
  const decisions = new Map<Plan, RunDecision>();
  for (const plan of plans) {
    const parsed = typeOnly.has(plan.block)
      ? typeOnly.get(plan.block)!
      : isTypeOnly(ts.createSourceFile(`sample.${SAMPLE_LANGS[plan.block.lang]}`, plan.block.code, ts.ScriptTarget.ES2022, true));
    decisions.set(
      plan,
      decideRun({
        block: plan.block,
        meta: plan.meta,
        version: plan.version,
        target: plan.kind === 'types' || plan.kind === 'syntax' ? plan.target : (plan.meta.version ?? plan.version),
        runnable: options.version === undefined ? DEFAULT_RUN_VERSIONS : RUNNABLE_VERSIONS,
        browserRunnable: BROWSER_VERSIONS,
        invalid: plan.kind === 'invalid',
        failedTypeCheck: failedBlocks.has(plan.block),
        typeOnly: parsed,
        browser: browser.get(plan.block) ?? [],
      }),
    );
  }
  if (options.listNotRun) {
    for (const [plan, decision] of decisions) {
      if (!decision.run)
        console.log(`${plan.block.file}:${plan.block.line} ${plan.name}: not run (${NOT_RUN_LABELS[decision.kind]}): ${decision.reason}`);
    }
  }
  if (!running) return typeCheckCode;

  const partOfRun = onlyPages !== undefined || Boolean(options.browserOnly);
  const selected = (plan: Plan) => {
    if (onlyPages !== undefined && !onlyPages.some((text) => plan.block.file.includes(text))) return false;
    if (!options.browserOnly) return true;
    const decision = decisions.get(plan);
    return decision?.run === true && decision.platform === 'browser';
  };
  const jobs: RunJob[] = [];
  const jobPlans = new Map<RunJob, Plan>();
  const poolOf = (version: string) => companionPools.get(version) ?? [];
  const programOf = (plan: Plan) =>
    relativeImports(plan.block.code).length > 0 ? sampleProgram(plan.block, poolOf(plan.version)).files.slice(1) : undefined;
  // A module that a running sample imports by a relative path (mock-socket.ts, imported by
  // usage.ts) runs inside that sample's program, not on its own, where it would print nothing:
  // it passes when every sample that imports it passes, and has no recording of its own. Only
  // importers that this run selects count (with --only, a module whose importer is left out runs
  // alone).
  const runBlocks = new Map([...decisions].filter(([, decision]) => decision.run).map(([plan]) => [plan.block, plan]));
  const importersOf = new Map<Plan, Plan[]>();
  for (const plan of runBlocks.values()) {
    if (!selected(plan)) continue;
    for (const file of programOf(plan) ?? []) {
      const imported = runBlocks.get(file.block);
      if (imported && imported !== plan) importersOf.set(imported, [...(importersOf.get(imported) ?? []), plan]);
    }
  }
  for (const [plan, decision] of decisions) {
    if (!decision.run || !selected(plan) || importersOf.has(plan)) continue;
    const library = LIBRARIES[plan.version]!;
    const job: RunJob = {
      block: plan.block,
      version: plan.version,
      library,
      preludes: decision.preludes,
      server: decision.server,
      platform: decision.platform,
      events: decision.events,
      actions: decision.actions,
      varies: decision.varies,
      record: recordPath(plan.version, plan.pageInFolder, plan.name),
      label: `${plan.block.file}:${plan.block.line} ${plan.name}`,
      companions: programOf(plan),
    };
    jobs.push(job);
    jobPlans.set(job, plan);
  }
  const started = performance.now();
  // In a process of its own: this one holds TypeScript's programs, which make every process the
  // run starts slow to fork (run-process.ts).
  const {outcomes, environment: runEnvironment} = await runSamplesInProcess(jobs, {root, record: Boolean(options.record)});
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const versionsRun = [...new Set(jobs.map((job) => job.version))];
  const inBrowser = jobs.filter((job) => job.platform === 'browser').length;
  console.log(
    `run: ${jobs.length} ${jobs.length === 1 ? 'sample' : 'samples'} of ${versionsRun.join(', ') || 'no version'} ` +
      `(${jobs.length - inBrowser} in Node.js, ${inBrowser} in Chromium), ${RUN_CONCURRENCY} at a time (${WAITING_SLOTS} more for those waiting on a timer), in ${seconds} s`,
  );
  for (const message of runEnvironment) console.log(`check-samples: ${message}`);

  const failed = outcomes.filter((outcome) => !outcome.passed);
  failed.sort((a, b) => a.job.block.file.localeCompare(b.job.block.file) || a.job.block.line - b.job.block.line);
  for (const outcome of failed) printFailure(outcome);

  // Recordings no sample runs with any more: reported, or deleted with --record.
  let stale: string[] = [];
  if (!partOfRun) {
    const expected = new Set<string>();
    for (const [plan, decision] of decisions) {
      if (decision.run && !importersOf.has(plan)) expected.add(recordPath(plan.version, plan.pageInFolder, plan.name));
    }
    const ran = options.version === undefined ? DEFAULT_RUN_VERSIONS : RUNNABLE_VERSIONS;
    const versions = [...new Set(folders.map(({version}) => version))].filter((version) => ran.includes(version));
    stale = versions
      .flatMap((version) => listFiles(path.join(root, RECORD_FOLDER, version)))
      .map((file) => path.relative(root, file).split(path.sep).join('/'));
    stale = stale.filter((file) => !expected.has(file)).sort();
    for (const file of stale) {
      if (options.record) {
        fs.rmSync(path.join(root, file));
        console.log(`${file}: deleted (no sample runs with it)`);
      } else {
        console.log(`${file}: stale recording, no sample runs with it (npm run check:samples -- --record deletes it)`);
      }
    }
    if (options.record) for (const version of versions) removeEmptyFolders(path.join(root, RECORD_FOLDER, version));
  }

  const runTotal = {passed: 0, failed: 0, notRun: 0};
  const outcomeOf = new Map(outcomes.map((outcome) => [jobPlans.get(outcome.job)!, outcome]));
  // (Modules that import each other, none run by a sample of its own, count as failed.)
  const passedOf = (plan: Plan, seen = new Set<Plan>()): boolean => {
    if (!importersOf.has(plan)) return Boolean(outcomeOf.get(plan)?.passed);
    if (seen.has(plan)) return false;
    seen.add(plan);
    return importersOf.get(plan)!.every((importer) => passedOf(importer, seen));
  };
  for (const {version, dir} of folders) {
    const mine = plans.filter((plan) => plan.folder === dir && selected(plan));
    const counts = {passed: 0, failed: 0, notRun: 0, standIn: 0, browserPassed: 0, browserFailed: 0};
    const reasons = new Map<NotRunKind, number>();
    for (const plan of mine) {
      const decision = decisions.get(plan)!;
      if (!decision.run) {
        counts.notRun += 1;
        reasons.set(decision.kind, (reasons.get(decision.kind) ?? 0) + 1);
        continue;
      }
      if (decision.standIn) counts.standIn += 1;
      const passed = passedOf(plan);
      if (passed) counts.passed += 1;
      else counts.failed += 1;
      if (decision.platform === 'browser') {
        if (passed) counts.browserPassed += 1;
        else counts.browserFailed += 1;
      }
    }
    const why = (Object.keys(NOT_RUN_LABELS) as NotRunKind[])
      .filter((kind) => reasons.has(kind))
      .map((kind) => `${NOT_RUN_LABELS[kind]} ${reasons.get(kind)}`)
      .join(', ');
    const standIn = counts.standIn > 0 ? `; ${counts.standIn} get adb from their own "declare const adb: Adb;" (run as prelude="adb")` : '';
    const browserRun = counts.browserPassed + counts.browserFailed;
    const inBrowser = browserRun > 0 ? ` (in Chromium: ${counts.browserPassed} passed, ${counts.browserFailed} failed)` : '';
    console.log(
      `${version} (${display(dir)}/): run ${counts.passed + counts.failed}: ${counts.passed} passed, ${counts.failed} failed${inBrowser}; ` +
        `${counts.notRun} not run${why ? ` (${why})` : ''}${standIn}`,
    );
    runTotal.passed += counts.passed;
    runTotal.failed += counts.failed;
    runTotal.notRun += counts.notRun;
  }
  console.log(`samples run: ${runTotal.passed} passed, ${runTotal.failed} failed, ${runTotal.notRun} not run`);
  return typeCheckCode || runTotal.failed > 0 || (stale.length > 0 && !options.record) ? 1 : 0;
}

/**
 * Prints a failing sample: `page:line title: problem`, with the page line of the error when its
 * output names one, then the last TAIL_LINES lines of its output (first stack frames kept), each
 * after `    | `.
 */
function printFailure(outcome: RunOutcome): void {
  const {job} = outcome;
  const mark = `${job.block.file}:`;
  const index = outcome.detail.indexOf(mark);
  const at = index === -1 ? undefined : /^\d+/.exec(outcome.detail.slice(index + mark.length))?.[0];
  const where = at && Number(at) !== job.block.line ? ` (error at line ${at})` : '';
  console.log(`${job.label}: ${outcome.problem}${where}`);
  const lines = outcome.detail.replace(/\n+$/, '').split('\n');
  if (lines.length === 1 && lines[0] === '') return;
  if (lines.length > TAIL_LINES) console.log(`    | … ${lines.length - TAIL_LINES} more lines`);
  for (const line of lines.slice(-TAIL_LINES)) console.log(`    | ${line}`.trimEnd());
}

/** Every file under a folder, recursively; none for a missing folder. */
function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, {withFileTypes: true}).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

/** Removes the empty folders under `dir` (and `dir` itself when it ends up empty). */
function removeEmptyFolders(dir: string): void {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, {withFileTypes: true})) {
    if (entry.isDirectory()) removeEmptyFolders(path.join(dir, entry.name));
  }
  if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
}

/**
 * Command-line entry: parses the arguments and runs the checker.
 *
 * @param argv The arguments after the script name.
 * @returns The exit code: that of `run`, 0 for `--help`, 2 for bad usage (usage on stderr).
 */
export async function main(argv: readonly string[]): Promise<number> {
  let values: {
    root?: string;
    version?: string;
    help?: boolean;
    run?: boolean;
    record?: boolean;
    'list-not-run'?: boolean;
    'no-newest'?: boolean;
    only?: string[];
    browser?: boolean;
  };
  try {
    ({values} = parseArgs({
      args: [...argv],
      options: {
        root: {type: 'string'},
        version: {type: 'string'},
        run: {type: 'boolean'},
        record: {type: 'boolean'},
        'list-not-run': {type: 'boolean'},
        'no-newest': {type: 'boolean'},
        only: {type: 'string', multiple: true},
        browser: {type: 'boolean'},
        help: {type: 'boolean', short: 'h'},
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const root = path.resolve(values.root ?? PACKAGE_ROOT);
  if (!fs.statSync(root, {throwIfNoEntry: false})?.isDirectory()) {
    console.error(`--root: ${root} is not a directory\n${USAGE}`);
    return 2;
  }
  return run(root, {
    version: values.version,
    run: values.run,
    record: values.record,
    listNotRun: values['list-not-run'],
    skipNewest: values['no-newest'],
    onlyPages: values.only,
    browserOnly: values.browser,
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(`check-samples: ${(error as Error).message}`);
      process.exitCode = 1;
    },
  );
}
