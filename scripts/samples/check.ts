/**
 * Code-sample checker: type-checks every TypeScript code block of the docs against the library
 * version its page documents. This file is the command line: it reads the arguments, plans each
 * block, runs the checks and prints the report. The steps it runs are in the files beside it:
 * extract.ts finds the pages and their blocks, libraries.ts finds each version's library, and
 * typecheck.ts type-checks the blocks.
 *
 * Usage: tsx scripts/samples/check.ts [--root DIR] [--version X]
 *   --root DIR  the site to check (the folder holding docs/, versioned_docs/ and versions.json);
 *               default: the repository this script lives in.
 *   --version X check only the pages of docs version X (default: every version).
 *
 * Every fenced block whose language is `ts`, `tsx` or `typescript` in every `.md`/`.mdx` file of a
 * docs version is type-checked against that version's library (LIBRARIES in src/versions/index.ts): one module per
 * block, all blocks of a version in one TypeScript program, `@yume-chan/*` mapped to the version's
 * installed packages (2.0.0, 0.0.24) or to its TypeScript sources in ../shared/sources/ (1.1.0,
 * 1.0.0, whose `@yume-chan/adb` was never published). A version with no library there is checked
 * for syntax only, and counted as such.
 * A block that only declares types (a signature) must declare only names that a `@yume-chan`
 * package of its version exports, or global types (see signatureNames in typecheck.ts).
 * Meta words: `partial="reason"` opts a block out; `version="X"` checks it as docs version X.
 *
 * Output: one line per problem (`file:line:col message`, paths relative to the working directory),
 * one line per docs version, and last `samples: N type-checked, M syntax-only, K opted out, F failed`.
 * Exit code: 0 when nothing failed, 1 when a block or file failed (or the packages are missing),
 * 2 on bad usage.
 */
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {listPages} from '../pages.ts';
import {LIBRARIES} from '../../src/versions/index.ts';
import {extractBlocks, MdxParseError, parseMeta, siteFolders, type SampleBlock} from './extract.ts';
import {PACKAGE_ROOT} from './libraries.ts';
import {checkSyntax, checkTypes, type Failure} from './typecheck.ts';

/** The usage line, printed for `--help` and (on stderr) after bad arguments. */
export const USAGE = 'Usage: tsx scripts/samples/check.ts [--root DIR] [--version X]';

/** Why a version without an entry in LIBRARIES is checked for syntax only. */
const SYNTAX_ONLY_REASON = 'no library to type-check against (add the version to LIBRARIES in src/versions/index.ts)';

/** Counts of one docs version (or of all), as printed. */
interface Counts {
  typeChecked: number;
  syntaxOnly: number;
  optedOut: number;
  failed: number;
}

/** How a block is handled: checked against `target`, opted out, or failed on its meta. */
type Plan =
  | {block: SampleBlock; folder: string; version: string; kind: 'types' | 'syntax'; target: string}
  | {block: SampleBlock; folder: string; version: string; kind: 'opted-out'}
  | {block: SampleBlock; folder: string; version: string; kind: 'invalid'; problems: string[]};

/**
 * Runs the checker on a site and prints the report to stdout. Counting: every block is exactly one
 * of type-checked, syntax-only, opted out, or invalid (bad `partial`/`version` meta; then not
 * checked). "failed" counts type-checked and syntax-only blocks with at least one error, invalid
 * blocks, and pages that do not parse (one each, however many diagnostics). Blocks are counted
 * under the docs version of their page, even when `version="X"` checks them as X.
 *
 * @param root The site folder (docs/, versioned_docs/, versions.json).
 * @param only When given, only the pages of this docs version are checked.
 * @returns The exit code: 0 when every block passed, 1 when a block or page failed or the setup is
 *   broken (packages missing, an `@yume-chan` import escaping its alias folder).
 * @throws Error when versions.json is malformed or the alias packages are missing.
 */
export function run(root: string, only?: string): number {
  const display = (file: string) => path.relative(process.cwd(), file).split(path.sep).join('/') || '.';
  const allFolders = siteFolders(root);
  const known = [...new Set(allFolders.map(({version}) => version))];
  if (only !== undefined && !known.includes(only)) throw new Error(`--version ${only} is not a docs version (${known.join(', ')})`);
  const folders = only === undefined ? allFolders : allFolders.filter(({version}) => version === only);
  const failures: Failure[] = [];
  const plans: Plan[] = [];
  const perFolder = new Map<string, Counts & {pages: number; missing: boolean}>();

  for (const {version, dir} of folders) {
    const pages = listPages(dir);
    const counts = {typeChecked: 0, syntaxOnly: 0, optedOut: 0, failed: 0, pages: pages.length, missing: !fs.existsSync(dir)};
    perFolder.set(dir, counts);
    for (const page of pages) {
      let blocks: SampleBlock[];
      try {
        blocks = extractBlocks(fs.readFileSync(page, 'utf8'), display(page));
      } catch (error) {
        if (!(error instanceof MdxParseError)) throw error;
        failures.push({file: error.file, line: error.line, column: error.column, message: `cannot parse as MDX: ${error.reason}`});
        counts.failed += 1;
        continue;
      }
      for (const block of blocks) {
        const meta = parseMeta(block.meta);
        const problems = [...meta.problems];
        if (meta.version !== undefined && !known.includes(meta.version)) {
          problems.push(`version="${meta.version}" is not a docs version (${known.join(', ')})`);
        }
        const target = meta.version ?? version;
        if (problems.length > 0) plans.push({block, folder: dir, version, kind: 'invalid', problems});
        else if (meta.partial !== undefined) plans.push({block, folder: dir, version, kind: 'opted-out'});
        else plans.push({block, folder: dir, version, kind: Object.hasOwn(LIBRARIES, target) ? 'types' : 'syntax', target});
      }
    }
  }

  const failedBlocks = new Set<SampleBlock>();
  const versionOf = new Map(plans.map((plan) => [plan.block, plan.version]));
  const environment: string[] = [];
  for (const plan of plans) {
    if (plan.kind !== 'invalid') continue;
    failedBlocks.add(plan.block);
    for (const message of plan.problems) {
      failures.push({file: plan.block.file, line: plan.block.line, column: plan.block.column, message, block: plan.block});
    }
  }

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
        const result = checkTypes(blocks, LIBRARIES[target]!, dir);
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
  console.log(
    `samples: ${total.typeChecked} type-checked, ${total.syntaxOnly} syntax-only, ${total.optedOut} opted out, ${total.failed} failed`,
  );
  return total.failed > 0 || environment.length > 0 ? 1 : 0;
}

/**
 * Command-line entry: parses the arguments and runs the checker.
 *
 * @param argv The arguments after the script name.
 * @returns The exit code: that of `run`, 0 for `--help`, 2 for bad usage (usage on stderr).
 */
export function main(argv: readonly string[]): number {
  let values: {root?: string; version?: string; help?: boolean};
  try {
    ({values} = parseArgs({
      args: [...argv],
      options: {root: {type: 'string'}, version: {type: 'string'}, help: {type: 'boolean', short: 'h'}},
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
  return run(root, values.version);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error) {
    console.error(`check-samples: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
