/**
 * API coverage: which names of the current docs version's library the pages explain.
 *
 * Usage: tsx scripts/api-coverage/index.ts [--list] [--documented] [--excluded] [--write-gaps]
 *   --list        list the undocumented names, by package.
 *   --documented  list the documented names, each with where (page:line and the rule that counts it).
 *   --excluded    list the excluded names, by reason.
 *   --write-gaps  rewrite known-gaps.json with today's undocumented names.
 *
 * What it reads: the typings of every package of the library of CURRENT_VERSION (LIBRARIES in
 * src/versions/index.ts: the `@tango-v2` scope for 2.0.0) except the packages exclusions.json
 * leaves out (api.ts says which names count), and every page of that version's docs folder
 * (`docs/`), once. Which names a page explains: evidence.ts (findEvidence states the rule).
 * What is not counted: exclusions.json, each pattern under its reason.
 *
 * Output: the documented share per package and overall, what the lists ask for, and the time taken.
 * Exit code: 0 when the known gaps (known-gaps.json) are the undocumented names and the exclusion
 * list has no stale entry; 1 otherwise (with what to do), or when the packages are missing; 2 on
 * bad usage.
 */
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {CURRENT_VERSION, docsVersions, LIBRARIES} from '../../src/versions/index.ts';
import {listPages} from '../pages.ts';
import {libraryFiles, PACKAGE_ROOT} from '../samples/libraries.ts';
import {readApi} from './api.ts';
import {
  classify,
  diffGaps,
  figures,
  parseExclusions,
  parseKnownGaps,
  type Entry,
  type ExclusionProblem,
  type Exclusions,
  type GapDiff,
} from './coverage.ts';
import {findEvidence, indexTargets, readPage, type Evidence} from './evidence.ts';

/** The usage line, printed for `--help` and (on stderr) after bad arguments. */
export const USAGE = 'Usage: tsx scripts/api-coverage/index.ts [--list] [--documented] [--excluded] [--write-gaps]';

/** This folder: exclusions.json and known-gaps.json live here. */
const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The reviewed exclusion list. */
export const EXCLUSIONS_FILE = path.join(HERE, 'exclusions.json');

/** The checked-in undocumented names. */
export const KNOWN_GAPS_FILE = path.join(HERE, 'known-gaps.json');

/** The command that rewrites the known gaps. */
export const WRITE_GAPS = 'npm run api-coverage -- --write-gaps';

/** Everything a run finds. */
export interface Coverage {
  version: string;
  scope: string;
  /** The docs folder, relative to the site root. */
  folder: string;
  pages: number;
  exclusions: Exclusions;
  entries: Entry[];
  /** Stale exclusion patterns, and summary sections that no longer exist. */
  problems: ExclusionProblem[];
  knownGaps: string[];
  gaps: GapDiff;
  /** Milliseconds spent reading the typings and the pages. */
  timings: {typings: number; pages: number};
}

/**
 * Runs the coverage of the current docs version against its library.
 *
 * @returns What the run finds (see Coverage).
 * @throws Error when the version's library is not an installed scope, its packages are missing,
 *   or exclusions.json / known-gaps.json are malformed.
 */
export function computeCoverage(): Coverage {
  const root = PACKAGE_ROOT;
  const library = LIBRARIES[CURRENT_VERSION];
  if (library?.kind !== 'scope') {
    throw new Error(`the library of ${CURRENT_VERSION} is not an installed scope in LIBRARIES (src/versions/index.ts)`);
  }
  const exclusions = parseExclusions(JSON.parse(fs.readFileSync(EXCLUSIONS_FILE, 'utf8')));
  const knownGaps = fs.existsSync(KNOWN_GAPS_FILE) ? parseKnownGaps(JSON.parse(fs.readFileSync(KNOWN_GAPS_FILE, 'utf8'))) : [];
  const problems: ExclusionProblem[] = [];

  const started = performance.now();
  const installed = libraryFiles(library).packages;
  for (const pkg of Object.keys(exclusions.packages)) {
    if (!installed.includes(pkg)) {
      problems.push({pattern: pkg, reason: 'packages', problem: `is not a package of ${library.scope}: remove it`});
    }
  }
  const packages = installed.filter((pkg) => !Object.hasOwn(exclusions.packages, pkg));
  const api = readApi(path.join(root, 'node_modules', library.scope), packages);
  const typingsDone = performance.now();

  const targets = indexTargets(api.map(({name, owner, member, alsoOwners}) => ({name, owner, member, alsoOwners})));
  const folder = docsVersions().find((version) => version.name === 'current')!.folder;
  const pages = listPages(path.join(root, folder));
  const evidence = new Map<string, Evidence[]>();
  const pageNames = new Set<string>();
  for (const file of pages) {
    const page = path.relative(root, file).split(path.sep).join('/');
    pageNames.add(page);
    const summaries = exclusions.summaries.filter((summary) => summary.page === page);
    if (summaries.some((summary) => summary.section === undefined)) continue;
    const parts = readPage(
      fs.readFileSync(file, 'utf8'),
      CURRENT_VERSION,
      summaries.map((summary) => summary.section!),
    );
    for (const summary of summaries) {
      if (!parts.headingIds.includes(summary.section!)) {
        problems.push({
          pattern: `${page}#${summary.section}`,
          reason: 'summaries',
          problem: 'has no such heading ID: fix or remove the summary',
        });
      }
    }
    for (const [name, found] of findEvidence(parts, page, targets)) evidence.set(name, [...(evidence.get(name) ?? []), ...found]);
  }
  for (const summary of exclusions.summaries) {
    if (!pageNames.has(summary.page)) {
      problems.push({pattern: summary.page, reason: 'summaries', problem: 'is not a page of the docs: fix or remove the summary'});
    }
  }

  const classified = classify(api, evidence, exclusions);
  problems.push(...classified.problems);
  return {
    version: CURRENT_VERSION,
    scope: library.scope,
    folder,
    pages: pages.length,
    exclusions,
    entries: classified.entries,
    problems,
    knownGaps,
    gaps: diffGaps(classified.entries, knownGaps),
    timings: {typings: typingsDone - started, pages: performance.now() - typingsDone},
  };
}

/** Where a documented name is explained, as `page:line rule`, the first `max` places. */
function where(evidence: readonly Evidence[], max = 3): string {
  const shown = evidence.slice(0, max).map((e) => `${e.page}:${e.line} ${e.rule}`);
  return shown.join('; ') + (evidence.length > max ? `; +${evidence.length - max} more` : '');
}

/**
 * Says what to do when the known gaps differ from the undocumented names.
 *
 * @returns The lines to print; none when they are the same.
 */
export function gapMessages(gaps: GapDiff): string[] {
  const lines: string[] = [];
  if (gaps.added.length > 0) {
    lines.push(
      `${gaps.added.length} name(s) are neither documented, excluded nor known gaps:`,
      ...gaps.added.map((id) => `  ${id}`),
      'Document each on a page (a heading, a signature block that declares it, the first cell of a reference table, or a sample plus a',
      'code span in the same section; see scripts/api-coverage/README.md), or add a pattern under a reason to',
      `scripts/api-coverage/exclusions.json if readers never need it; or, if its page is on the way, run \`${WRITE_GAPS}\``,
      'and commit scripts/api-coverage/known-gaps.json.',
    );
  }
  if (gaps.removed.length > 0) {
    lines.push(
      `${gaps.removed.length} known gap(s) are no longer undocumented (documented now, excluded, or gone from the library):`,
      ...gaps.removed.map((id) => `  ${id}`),
      `Run \`${WRITE_GAPS}\` to take them off scripts/api-coverage/known-gaps.json, and commit it.`,
    );
  }
  return lines;
}

/** The report's lines: the table of figures, then the lists `options` asks for. */
function report(coverage: Coverage, options: {list: boolean; documented: boolean; excluded: boolean}): string[] {
  const {byPackage, total} = figures(coverage.entries);
  const lines = [
    `API coverage of the ${coverage.version} docs (${coverage.folder}/, ${coverage.pages} pages) against ${coverage.scope}/*`,
    '',
    `${'package'.padEnd(26)}${'names'.padStart(7)}${'documented'.padStart(12)}${'excluded'.padStart(10)}${'undocumented'.padStart(14)}${'share'.padStart(8)}`,
  ];
  const row = (label: string, f: ReturnType<typeof figures>['total']) =>
    `${label.padEnd(26)}${String(f.names).padStart(7)}${String(f.documented).padStart(12)}${String(f.excluded).padStart(10)}${String(f.undocumented).padStart(14)}${`${f.share.toFixed(1)}%`.padStart(8)}`;
  for (const [pkg, f] of byPackage) lines.push(row(pkg, f));
  lines.push(row('all', total), '', 'share = documented / (documented + undocumented); excluded names are left out of it.');
  lines.push(`Packages not counted: ${Object.keys(coverage.exclusions.packages).join(', ')} (exclusions.json says why).`);

  const byKind = (kind: Entry['status']['kind']) => coverage.entries.filter((entry) => entry.status.kind === kind);
  if (options.list) {
    lines.push('', `Undocumented (${byKind('undocumented').length}):`);
    for (const entry of byKind('undocumented')) lines.push(`  ${entry.id}  (${entry.kinds.join(', ')})`);
  }
  if (options.documented) {
    lines.push('', `Documented (${byKind('documented').length}):`);
    for (const entry of byKind('documented'))
      if (entry.status.kind === 'documented') lines.push(`  ${entry.id}  ${where(entry.status.evidence)}`);
  }
  if (options.excluded) {
    lines.push('', `Excluded (${byKind('excluded').length}):`);
    for (const [reason, text] of Object.entries(coverage.exclusions.reasons)) {
      const entries = byKind('excluded').filter((entry) => entry.status.kind === 'excluded' && entry.status.reason === reason);
      const patterns = coverage.exclusions.names[reason]?.length ?? 0;
      lines.push(`  ${reason} (${entries.length} names, ${patterns} patterns): ${text}`, ...entries.map((entry) => `    ${entry.id}`));
    }
  }
  return lines;
}

/**
 * The command line (see the file's docstring).
 *
 * @param argv The arguments after the script.
 * @returns The exit code.
 */
export function main(argv: readonly string[]): number {
  let values;
  try {
    ({values} = parseArgs({
      args: [...argv],
      options: {
        list: {type: 'boolean', default: false},
        documented: {type: 'boolean', default: false},
        excluded: {type: 'boolean', default: false},
        'write-gaps': {type: 'boolean', default: false},
        help: {type: 'boolean', default: false},
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  let coverage: Coverage;
  try {
    coverage = computeCoverage();
  } catch (error) {
    console.error(`api-coverage: ${(error as Error).message}`);
    return 1;
  }
  for (const line of report(coverage, {list: values.list, documented: values.documented, excluded: values.excluded})) console.log(line);

  let status = 0;
  console.log('');
  if (coverage.problems.length > 0) {
    console.log(`exclusions.json has ${coverage.problems.length} stale entr${coverage.problems.length === 1 ? 'y' : 'ies'}:`);
    for (const problem of coverage.problems) console.log(`  ${problem.reason}: ${problem.pattern} ${problem.problem}`);
    status = 1;
  }
  if (values['write-gaps']) {
    const gaps = coverage.entries.filter((entry) => entry.status.kind === 'undocumented').map((entry) => entry.id);
    const about = `The names of the ${coverage.scope} packages that no page documents yet, and that exclusions.json doesn't exclude. Written by ${WRITE_GAPS}; tests/unit/api-coverage.test.ts fails when this list and the docs disagree.`;
    fs.writeFileSync(KNOWN_GAPS_FILE, `${JSON.stringify({about, gaps}, null, 2)}\n`);
    console.log(
      `Wrote ${gaps.length} known gaps to ${path.relative(process.cwd(), KNOWN_GAPS_FILE)} (${coverage.gaps.added.length} added, ${coverage.gaps.removed.length} removed).`,
    );
  } else {
    const messages = gapMessages(coverage.gaps);
    if (messages.length > 0) status = 1;
    else console.log(`Known gaps: ${coverage.knownGaps.length}, the same as the undocumented names.`);
    for (const line of messages) console.log(line);
  }
  const {typings, pages} = coverage.timings;
  console.log(
    `Took ${(performance.now() / 1000).toFixed(1)} s, ${(process.cpuUsage().user / 1e6).toFixed(1)} s of CPU (typings ${(typings / 1000).toFixed(1)} s, pages ${(pages / 1000).toFixed(1)} s).`,
  );
  return status;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
