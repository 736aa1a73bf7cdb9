/**
 * The API coverage of the docs, from its three inputs: the library's names (api.ts), where pages
 * explain them (evidence.ts), and the reviewed exclusion list (exclusions.json, read by
 * parseExclusions). Also compares the undocumented names with the checked-in known gaps.
 */
import type {ApiName} from './api.ts';
import {apiId} from './api.ts';
import type {Evidence} from './evidence.ts';

/** A docs section whose content is not counted as documentation: it summarises what other pages document. */
export interface Summary {
  /** The page, relative to the site root (`docs/api/index.mdx`). */
  page: string;
  /** The heading ID of the section (`messages` for `## Messages {/* #messages *\/}`); absent for the whole page. */
  section?: string;
  reason: string;
}

/** The content of exclusions.json, checked. */
export interface Exclusions {
  /** Packages of the library's scope that are not counted, and why. */
  packages: Record<string, string>;
  summaries: Summary[];
  /** Reason keys and what each means. */
  reasons: Record<string, string>;
  /** For each reason key, the patterns of the names it excludes (see matchesPattern). */
  names: Record<string, string[]>;
}

/**
 * Checks the content of exclusions.json.
 *
 * @param value The parsed JSON.
 * @returns The exclusions, as typed.
 * @throws Error naming the first problem: a missing or mistyped key, a reason key of `names`
 *   without its text in `reasons` (or the other way round), a pattern not of the form
 *   `package:Name` (`*` allowed), a pattern listed twice, a summary without a page or reason.
 */
export function parseExclusions(value: unknown): Exclusions {
  const fail = (problem: string): never => {
    throw new Error(`exclusions.json: ${problem}`);
  };
  const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  if (!isRecord(value)) fail('not a JSON object');
  const {packages, summaries, reasons, names} = value as Record<string, unknown>;
  const stringRecord = (x: unknown, key: string): Record<string, string> => {
    if (!isRecord(x) || !Object.values(x).every((v) => typeof v === 'string' && v.trim() !== '')) {
      fail(`"${key}" must be an object of non-empty strings`);
    }
    return x as Record<string, string>;
  };
  const checkedPackages = stringRecord(packages, 'packages');
  const checkedReasons = stringRecord(reasons, 'reasons');
  if (!Array.isArray(summaries)) fail('"summaries" must be an array');
  for (const summary of summaries as unknown[]) {
    if (!isRecord(summary) || typeof summary.page !== 'string' || typeof summary.reason !== 'string' || summary.reason.trim() === '') {
      fail(`each summary needs a "page" and a "reason": ${JSON.stringify(summary)}`);
    }
    const {section} = summary as Record<string, unknown>;
    if (section !== undefined && (typeof section !== 'string' || section === '')) {
      fail(`summary "section" must be a heading ID: ${JSON.stringify(summary)}`);
    }
  }
  if (!isRecord(names)) fail('"names" must be an object of reason keys to arrays of patterns');
  const seen = new Set<string>();
  for (const [reason, patterns] of Object.entries(names as Record<string, unknown>)) {
    if (!Object.hasOwn(checkedReasons, reason)) fail(`reason "${reason}" of "names" has no text in "reasons"`);
    if (!Array.isArray(patterns) || patterns.length === 0) fail(`"names.${reason}" must be a non-empty array of patterns`);
    for (const pattern of patterns as unknown[]) {
      if (typeof pattern !== 'string' || !/^[a-z0-9-]+:[A-Za-z_$*][\w$.*]*$/.test(pattern)) {
        fail(
          `"${String(pattern)}" in "names.${reason}" is not a pattern of the form package:Name, package:Owner.member (with * for any characters)`,
        );
      }
      if (seen.has(pattern as string)) fail(`pattern "${String(pattern)}" is listed twice`);
      seen.add(pattern as string);
    }
  }
  for (const reason of Object.keys(checkedReasons)) {
    if (!Object.hasOwn(names as object, reason)) fail(`reason "${reason}" has no patterns in "names"`);
  }
  return {packages: checkedPackages, summaries: summaries as Summary[], reasons: checkedReasons, names: names as Record<string, string[]>};
}

/**
 * Whether an exclusion pattern covers a name.
 *
 * A pattern is `package:Name`, where `*` stands for any characters (dots included) and everything
 * else is literal; it covers the names whose `package:name` it matches whole. A pattern without a
 * dot that covers an export also covers that export's members (`adb:AdbPacketDispatcher` covers
 * `adb:AdbPacketDispatcher.close`).
 *
 * @param pattern The pattern, e.g. `scrcpy:ScrcpyOptions1_*`.
 * @param name The name, with its package.
 * @returns Whether it is covered.
 */
export function matchesPattern(pattern: string, name: Pick<ApiName, 'pkg' | 'name' | 'owner'>): boolean {
  return patternMatcher(pattern)(name);
}

/** matchesPattern with the pattern compiled once. */
function patternMatcher(pattern: string): (name: Pick<ApiName, 'pkg' | 'name' | 'owner'>) => boolean {
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  const coversMembers = !pattern.includes('.');
  return (name) => regex.test(apiId(name)) || (coversMembers && name.owner !== undefined && regex.test(`${name.pkg}:${name.owner}`));
}

/** Where a name stands. */
export type Status =
  {kind: 'documented'; evidence: Evidence[]} | {kind: 'excluded'; reason: string; pattern: string} | {kind: 'undocumented'};

/** One name of the report. */
export interface Entry extends ApiName {
  id: string;
  status: Status;
}

/** The figures of one package, or of all. */
export interface Figures {
  names: number;
  documented: number;
  excluded: number;
  undocumented: number;
  /** documented / (documented + undocumented), as a percentage with one decimal; 100 when nothing is to document. */
  share: number;
}

/** A problem with the exclusion list that the run reports and the test fails on. */
export interface ExclusionProblem {
  pattern: string;
  reason: string;
  problem: string;
}

/**
 * Classifies every name: documented when some page explains it (whatever the exclusions say),
 * otherwise excluded when a pattern covers it (the first pattern in file order), otherwise undocumented.
 *
 * @param api The library's names.
 * @param evidence For each name (ApiName.name), where pages explain it.
 * @param exclusions The checked exclusion list.
 * @returns The entries in the order of `api`, and the problems of the list: a pattern that covers
 *   no name (a stale entry, e.g. after a library upgrade), and a pattern all of whose names are
 *   documented (the exclusion has become useless: remove it).
 */
export function classify(
  api: readonly ApiName[],
  evidence: ReadonlyMap<string, Evidence[]>,
  exclusions: Exclusions,
): {entries: Entry[]; problems: ExclusionProblem[]} {
  const patterns = Object.entries(exclusions.names).flatMap(([reason, list]) =>
    list.map((pattern) => ({reason, pattern, matches: patternMatcher(pattern), covered: 0, open: 0})),
  );
  const entries = api.map((name): Entry => {
    const found = evidence.get(name.name);
    const covering = patterns.filter((p) => p.matches(name));
    for (const p of covering) {
      p.covered += 1;
      if (!found) p.open += 1;
    }
    let status: Status = {kind: 'undocumented'};
    if (found && found.length > 0) status = {kind: 'documented', evidence: found};
    else if (covering[0]) status = {kind: 'excluded', reason: covering[0].reason, pattern: covering[0].pattern};
    return {...name, id: apiId(name), status};
  });
  const problems: ExclusionProblem[] = [];
  for (const p of patterns) {
    if (p.covered === 0) {
      problems.push({pattern: p.pattern, reason: p.reason, problem: 'covers no name of the library: remove it'});
    } else if (p.open === 0) {
      problems.push({pattern: p.pattern, reason: p.reason, problem: `every name it covers (${p.covered}) is documented: remove it`});
    }
  }
  return {entries, problems};
}

/**
 * Counts the entries of each package and of all.
 *
 * @returns The figures by package (sorted by name), and `total`.
 */
export function figures(entries: readonly Entry[]): {byPackage: Map<string, Figures>; total: Figures} {
  const count = (list: readonly Entry[]): Figures => {
    const documented = list.filter((e) => e.status.kind === 'documented').length;
    const excluded = list.filter((e) => e.status.kind === 'excluded').length;
    const undocumented = list.length - documented - excluded;
    const share = documented + undocumented === 0 ? 100 : Math.round((1000 * documented) / (documented + undocumented)) / 10;
    return {names: list.length, documented, excluded, undocumented, share};
  };
  const byPackage = new Map<string, Figures>();
  for (const pkg of [...new Set(entries.map((e) => e.pkg))].sort()) byPackage.set(pkg, count(entries.filter((e) => e.pkg === pkg)));
  return {byPackage, total: count(entries)};
}

/** How the undocumented names differ from the known gaps. */
export interface GapDiff {
  /** Undocumented, not excluded, and not in the known gaps: new API, or a page that lost its explanation. */
  added: string[];
  /** In the known gaps but no longer undocumented: documented now, excluded now, or gone from the library. */
  removed: string[];
}

/**
 * Compares the undocumented names with the known gaps.
 *
 * @param entries The classified names.
 * @param knownGaps The ids (`package:name`) of known-gaps.json.
 * @returns The ids each side has and the other lacks, sorted.
 */
export function diffGaps(entries: readonly Entry[], knownGaps: readonly string[]): GapDiff {
  const undocumented = new Set(entries.filter((e) => e.status.kind === 'undocumented').map((e) => e.id));
  const known = new Set(knownGaps);
  return {
    added: [...undocumented].filter((id) => !known.has(id)).sort(),
    removed: [...known].filter((id) => !undocumented.has(id)).sort(),
  };
}

/**
 * Checks the content of known-gaps.json.
 *
 * @param value The parsed JSON: an object whose `gaps` is an array of `package:name` strings.
 * @returns The ids.
 * @throws Error when it has another shape or lists an id twice.
 */
export function parseKnownGaps(value: unknown): string[] {
  const gaps = (value as {gaps?: unknown} | null)?.gaps;
  if (!Array.isArray(gaps) || !gaps.every((id) => typeof id === 'string' && /^[a-z0-9-]+:\S+$/.test(id))) {
    throw new Error('known-gaps.json: "gaps" must be an array of package:name strings');
  }
  const twice = gaps.find((id, i) => gaps.indexOf(id) !== i);
  if (twice !== undefined) throw new Error(`known-gaps.json lists ${twice} twice`);
  return gaps as string[];
}
