/**
 * The "documented" rule: where a docs page explains an API name, found mechanically in the page's
 * Markdown (see findEvidence for the rule itself).
 */
import {createRequire} from 'node:module';
import type TypeScript from 'typescript';

// `require`, not `import`: Node.js would otherwise scan all of typescript.js (9 MB of CommonJS) for
// its export names before loading it, about two seconds of CPU time.
const ts: typeof TypeScript = createRequire(import.meta.url)('typescript');

/**
 * The code-block languages that are TypeScript, and whether each is TSX: the languages the
 * code-sample checker type-checks (SAMPLE_LANGS in scripts/samples/extract.ts, which is not
 * imported here because it loads the MDX parser, a second and a half of CPU time).
 */
const TS_LANGS: Readonly<Record<string, boolean>> = {ts: false, typescript: false, tsx: true};

/**
 * The docs version a code block's meta says it is written for (`version="0.0.24"`, as
 * scripts/samples/extract.ts parseMeta reads it), or undefined.
 */
export function metaVersion(meta: string): string | undefined {
  const match = /(?:^|\s)version=(?:"([^"]*)"|'([^']*)'|([^\s"']\S*))/.exec(meta);
  const value = (match?.[1] ?? match?.[2] ?? match?.[3])?.trim();
  return value === '' ? undefined : value;
}

/** Why a page counts as explaining a name (see findEvidence). */
export type Rule = 'heading' | 'declaration' | 'table' | 'sample+prose';

/** One place where a page explains a name. */
export interface Evidence {
  /** The page, as given to findEvidence. */
  page: string;
  /** 1-based line in the page: the heading, the declaring line, the table row, or the sample's fence. */
  line: number;
  rule: Rule;
}

/** A name to look for: an export (`Adb`), or a member of one (`Adb.tcpip`, `DumpSys.Battery.Info`). */
export interface TargetName {
  /** The full name, as the report prints it. */
  name: string;
  /** For a member: the export it belongs to; undefined for an export. */
  owner?: string;
  /** For a member: its own name (the last part); for an export, the name itself. */
  member: string;
  /** For a class member: other exports it is reached or described by (ApiName.alsoOwners in api.ts). */
  alsoOwners?: readonly string[];
}

/** What a heading (the page title too) or a table row's first cell says, as identifiers. */
export interface Label {
  line: number;
  rule: 'heading' | 'table';
  /** Its text, without MDX comments, heading IDs and backticks, trimmed. */
  text: string;
  /** The identifiers of the whole text. */
  words: Words;
  /** The identifiers inside its inline code spans. */
  code: Words;
}

/** The identifiers of a text: alone, as the last of a dotted chain, and as dotted chains. */
export interface Words {
  /** Every identifier. */
  all: Set<string>;
  /** Identifiers not followed by `.identifier` (`Adb` in `Adb and` or `x.Adb`, not in `Adb.close`). */
  tails: Set<string>;
  /** Every run of two or more identifiers joined by dots, inside longer runs too (`Adb.close`). */
  dotted: Set<string>;
}

/** A TypeScript code block, with what it declares and uses. */
export interface Sample {
  line: number;
  section: number;
  /** Declared names (`Foo`, `Foo.bar`) and the page line that declares each. */
  declared: Map<string, number>;
  /** Every identifier the code contains. */
  identifiers: Set<string>;
  /** Every name written after a dot: property accesses (`a.b.member`) and qualified type names (`Owner.Member`). */
  properties: Set<string>;
}

/** What findEvidence reads of a page. */
export interface PageParts {
  labels: Label[];
  samples: Sample[];
  /** The identifiers inside inline code spans outside headings and code blocks (paragraphs, lists, table cells, admonitions), by section. */
  prose: Map<number, Words>;
  /** The heading IDs of the page (`signature` for `## Signature {/* #signature *\/}`), skipped sections' too. */
  headingIds: string[];
}

/** Finds the identifiers of a text (see Words). */
function readWords(text: string): Words {
  const words: Words = {all: new Set(), tails: new Set(), dotted: new Set()};
  for (const [chain] of text.matchAll(/(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g)) {
    const parts = chain.split('.');
    for (const part of parts) words.all.add(part);
    words.tails.add(parts.at(-1)!);
    for (let from = 0; from < parts.length; from++) {
      for (let to = from + 2; to <= parts.length; to++) words.dotted.add(parts.slice(from, to).join('.'));
    }
  }
  return words;
}

/** The contents of the inline code spans of a line (a backtick run, up to the next run of the same length). */
function codeSpans(line: string): string[] {
  return [...line.matchAll(/(?<!`)(`+)(?!`)(.*?[^`])\1(?!`)/g)].map((match) => match[2]!.trim());
}

/** A label's text without MDX comments (`{/* #id *\/}`) and heading IDs (`{#id}`), trimmed. */
function cleanLabel(text: string): string {
  return text.replace(/\{\/\*.*?\*\/\}|\{#[\w-]+\}/g, '').trim();
}

/**
 * Whether a name reads as a word of English when written outside code (`Format`, `Settings`,
 * `Adb`, `p`): one letter, or one capital followed by lower-case letters only. Such a name counts
 * in a heading or a table cell only inside an inline code span; `AdbSync` or `ScrcpyOptions1_15`
 * count in plain text too.
 */
export function readsAsWord(name: string): boolean {
  return /^[A-Za-z]?[a-z]*$/.test(name);
}

/** Splits a table row into its cells (at `|` outside inline code and not escaped). */
function tableCells(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let ticks = 0;
  const body = row.trim().replace(/^\|/, '').replace(/\|$/, '');
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char === '`') {
      let run = 1;
      while (body[i + run] === '`') run++;
      ticks = ticks === 0 ? run : ticks === run ? 0 : ticks;
      cell += '`'.repeat(run);
      i += run - 1;
    } else if (char === '\\' && body[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (char === '|' && ticks === 0) {
      cells.push(cell.trim());
      cell = '';
    } else {
      cell += char;
    }
  }
  cells.push(cell.trim());
  return cells;
}

/**
 * Reads a TypeScript code block: the names it declares, its identifiers and the names it writes after a dot.
 *
 * Declared: each top-level class, interface, type alias, enum, function, variable or namespace
 * (`declare` and `export` or not); each named member of a top-level class or interface
 * (`Foo.bar`); each declaration inside a top-level namespace (`Foo.Bar`, `Foo.Bar.Baz`).
 */
function readSample(code: string, tsx: boolean, fenceLine: number, section: number): Sample {
  const source = ts.createSourceFile(
    tsx ? 'block.tsx' : 'block.ts',
    code,
    ts.ScriptTarget.Latest,
    false,
    tsx ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const lineOf = (node: TypeScript.Node) => fenceLine + 1 + source.getLineAndCharacterOfPosition(node.getStart(source)).line;
  const declared = new Map<string, number>();
  const declare = (name: string, node: TypeScript.Node) => {
    if (!declared.has(name)) declared.set(name, lineOf(node));
  };
  const declareStatements = (statements: readonly TypeScript.Statement[], prefix: string) => {
    for (const statement of statements) {
      if (ts.isVariableStatement(statement)) {
        for (const variable of statement.declarationList.declarations) {
          if (ts.isIdentifier(variable.name)) declare(prefix + variable.name.text, variable);
        }
        continue;
      }
      if (
        !(
          ts.isClassDeclaration(statement) ||
          ts.isInterfaceDeclaration(statement) ||
          ts.isTypeAliasDeclaration(statement) ||
          ts.isEnumDeclaration(statement) ||
          ts.isFunctionDeclaration(statement) ||
          ts.isModuleDeclaration(statement)
        ) ||
        !statement.name ||
        !ts.isIdentifier(statement.name)
      ) {
        continue;
      }
      const name = prefix + statement.name.text;
      declare(name, statement);
      if (ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement)) {
        for (const member of statement.members) {
          if (member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))) {
            declare(`${name}.${member.name.text}`, member);
          }
        }
      } else if (ts.isModuleDeclaration(statement) && statement.body && ts.isModuleBlock(statement.body)) {
        declareStatements(statement.body.statements, `${name}.`);
      }
    }
  };
  declareStatements(source.statements, '');

  const identifiers = new Set<string>();
  const properties = new Set<string>();
  const visit = (node: TypeScript.Node) => {
    if (ts.isIdentifier(node)) identifiers.add(node.text);
    if (ts.isPropertyAccessExpression(node)) properties.add(node.name.text);
    if (ts.isQualifiedName(node)) properties.add(node.right.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return {line: fenceLine, section, declared, identifiers, properties};
}

/**
 * Splits a page into what findEvidence reads, line by line, for the Markdown the docs use: front
 * matter (its `title`), ATX headings (`#` to `######`), fenced code blocks (backticks or tildes,
 * indented or not, as inside `<TabItem>`), GFM tables (a row, a delimiter row, body rows) and
 * inline code spans (within one line; the docs have none across lines). Sections are the parts
 * between headings below the title; section 0 is the lead. TypeScript blocks (`ts`, `tsx`,
 * `typescript`) with `version="X"` for another version than `version` are left out; `partial`
 * ones count (a reader sees them as any other). A line scanner rather than the MDX parser: the
 * docs' 100 pages take a tenth of the time (the MDX parser needs two seconds of CPU for them).
 *
 * @param text The page source.
 * @param version The library version the page documents.
 * @param skipSections Heading IDs of sections to leave out (summaries, see exclusions.json).
 * @returns The page's labels, TypeScript samples, prose code spans and heading IDs. Errors: none;
 *   a TypeScript block with syntax errors still yields what it declares and uses.
 */
export function readPage(text: string, version: string, skipSections: readonly string[] = []): PageParts {
  const lines = text.split(/\r?\n/);
  const parts: PageParts = {labels: [], samples: [], prose: new Map(), headingIds: []};
  let section = 0;
  // The depth of the skipped heading whose section (subsections included) the scanner is in.
  let skipping: number | undefined;
  const addProse = (codes: string[]) => {
    if (skipping !== undefined) return;
    const words = parts.prose.get(section) ?? {all: new Set<string>(), tails: new Set<string>(), dotted: new Set<string>()};
    for (const code of codes) {
      const found = readWords(code);
      for (const key of ['all', 'tails', 'dotted'] as const) for (const word of found[key]) words[key].add(word);
    }
    parts.prose.set(section, words);
  };
  const addLabel = (line: number, rule: Label['rule'], raw: string) => {
    if (skipping !== undefined) return;
    const clean = cleanLabel(raw);
    parts.labels.push({line, rule, text: clean.replace(/`+/g, ''), words: readWords(clean), code: readWords(codeSpans(clean).join(' '))});
  };

  let index = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.indexOf('---', 1);
    if (end > 0) {
      for (let line = 1; line < end; line++) {
        const title = /^title:\s*(.*?)\s*$/.exec(lines[line]!)?.[1];
        if (title) addLabel(line + 1, 'heading', title.replace(/^(["'])(.*)\1$/, '$2'));
      }
      index = end + 1;
    }
  }
  const isRow = (line: string | undefined) => line !== undefined && line.trim().startsWith('|');
  const isDelimiter = (line: string | undefined) => line !== undefined && /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(line);
  while (index < lines.length) {
    const line = lines[index]!;
    const fence = /^\s*(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$/.exec(line);
    if (fence) {
      const [, marks, lang = '', metaText] = fence;
      const close = new RegExp(`^\\s*${marks![0] === '`' ? '`' : '~'}{${marks!.length},}\\s*$`);
      let end = index + 1;
      while (end < lines.length && !close.test(lines[end]!)) end++;
      if (skipping === undefined && Object.hasOwn(TS_LANGS, lang) && (metaVersion(metaText ?? '') ?? version) === version) {
        const indent = /^\s*/.exec(line)![0].length;
        const code = lines
          .slice(index + 1, end)
          .map((codeLine) => codeLine.replace(new RegExp(`^ {0,${indent}}`), ''))
          .join('\n');
        parts.samples.push(readSample(code, TS_LANGS[lang]!, index + 1, section));
      }
      index = end + 1;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (heading) {
      const depth = heading[1]!.length;
      const id = /\{\/\*\s*#([\w-]+)\s*\*\/\}|\{#([\w-]+)\}/.exec(heading[2]!);
      const headingId = id?.[1] ?? id?.[2];
      if (headingId !== undefined) parts.headingIds.push(headingId);
      if (skipping !== undefined && depth <= skipping) skipping = undefined;
      if (headingId !== undefined && skipSections.includes(headingId)) skipping = depth;
      if (depth > 1) section += 1;
      addLabel(index + 1, 'heading', heading[2]!);
      index += 1;
      continue;
    }
    if (isRow(line) && isDelimiter(lines[index + 1])) {
      addProse(tableCells(line).flatMap(codeSpans));
      index += 2;
      while (isRow(lines[index])) {
        const cells = tableCells(lines[index]!);
        addLabel(index + 1, 'table', cells[0] ?? '');
        addProse(cells.flatMap(codeSpans));
        index += 1;
      }
      continue;
    }
    addProse(codeSpans(line));
    index += 1;
  }
  return parts;
}

/**
 * Finds where one page explains each of `targets`.
 *
 * The rule. A page explains an export `Name` where:
 * - heading: the page title or a heading contains `Name` as a whole identifier, not followed by
 *   `.member` (a heading on `Name.member` is about the member); a name that reads as an English
 *   word (`Format`, `Settings`, see readsAsWord) only inside an inline code span;
 * - declaration: a TypeScript block declares `Name` (class, interface, type, enum, function,
 *   variable or namespace, with or without `declare`), as a signature block does;
 * - table: the first cell of a table's body row contains `Name` as for a heading;
 * - sample+prose: a TypeScript block uses the identifier `Name`, and the same section (the text
 *   between the block's heading and the next) has an inline code span, outside headings and code
 *   blocks, that contains `Name` as for a heading.
 * A member `Owner.member` (a class member or a namespace declaration) is explained where the
 * following holds for `Owner`, or for one of the other exports the member is reached or described
 * by (a subclass that inherits it, an interface of its class that declares it: `alsoOwners`):
 * - heading, table: the label contains `Owner.member`; or `Owner` is a subject of the page and one
 *   of the label's inline code spans contains `member` as a whole identifier (`setPort`,
 *   `adb.tcpip`, `getDevices()`), or the label is `member` alone (a title such as `tcpip`);
 * - declaration: a TypeScript block declares `member` inside a top-level `class Owner`,
 *   `interface Owner` or `namespace Owner`;
 * - sample+prose: a TypeScript block writes `.member` (a property access or a qualified type name)
 *   and names `Owner` (or `Owner` is a subject of the page), and the section's prose has an inline
 *   code span that contains `member` as a whole identifier.
 * The subjects of a page are the exports that its title or a heading names (as for the heading
 * rule, followed by `.member` or not), that one of its TypeScript blocks declares, or that an
 * inline code span of its lead names.
 * Not counted: a name in running prose alone (however often), a name only imported or used in a
 * sample without a word about it in the same section, blocks of another version
 * (`version="0.0.24"` on upgrade pages), other languages' blocks, a table's header row.
 *
 * @param parts The page, as readPage reads it (which leaves out other versions' blocks and skipped sections).
 * @param page The page's name, copied into each evidence (e.g. `docs/api/adb/tcpip.mdx`).
 * @param targets The names to look for (indexTargets).
 * @returns For each explained name (TargetName.name), its evidences on this page in page order.
 * Errors: none.
 */
export function findEvidence(parts: PageParts, page: string, targets: TargetIndex): Map<string, Evidence[]> {
  const found = new Map<string, Evidence[]>();
  const record = (name: string, line: number, rule: Rule) => {
    const list = found.get(name) ?? [];
    if (!list.some((evidence) => evidence.line === line && evidence.rule === rule)) list.push({page, line, rule});
    found.set(name, list);
  };

  const subjects = new Set(parts.prose.get(0)?.all);
  for (const label of parts.labels) {
    if (label.rule !== 'heading') continue;
    for (const word of label.words.all) if (!readsAsWord(word) || label.code.all.has(word)) subjects.add(word);
  }
  for (const sample of parts.samples) for (const name of sample.declared.keys()) subjects.add(name);
  const ownerIn = (target: TargetName, names: ReadonlySet<string>) => ownersOf(target).some((owner) => names.has(owner));

  for (const label of parts.labels) {
    for (const word of label.words.tails) {
      const target = targets.exports.get(word);
      if (target && (!readsAsWord(word) || label.code.tails.has(word))) record(word, label.line, label.rule);
    }
    for (const chain of label.words.dotted)
      for (const target of targets.byFullName.get(chain) ?? []) record(target.name, label.line, label.rule);
    for (const member of new Set([...label.code.all, label.text.replace(/\(\)$/, '')])) {
      for (const target of targets.byMember.get(member) ?? []) if (ownerIn(target, subjects)) record(target.name, label.line, label.rule);
    }
  }
  for (const sample of parts.samples) {
    for (const [name, line] of sample.declared) {
      if (targets.exports.has(name)) record(name, line, 'declaration');
      for (const target of targets.byFullName.get(name) ?? []) record(target.name, line, 'declaration');
    }
    const prose = parts.prose.get(sample.section);
    if (!prose) continue;
    for (const name of sample.identifiers)
      if (prose.tails.has(name) && targets.exports.has(name)) record(name, sample.line, 'sample+prose');
    for (const member of sample.properties) {
      if (!prose.all.has(member)) continue;
      for (const target of targets.byMember.get(member) ?? []) {
        if (ownerIn(target, subjects) || ownerIn(target, sample.identifiers)) record(target.name, sample.line, 'sample+prose');
      }
    }
  }
  for (const list of found.values()) list.sort((a, b) => a.line - b.line);
  return found;
}

/** The names to look for, indexed the ways findEvidence looks them up. */
export interface TargetIndex {
  /** The exports, by name. */
  exports: Map<string, TargetName>;
  /** The members, by each full name they go by (`Owner.member`, and `Other.member` for each of alsoOwners). */
  byFullName: Map<string, TargetName[]>;
  /** The members, by their own name. */
  byMember: Map<string, TargetName[]>;
}

/** The owner of a member and the other exports it goes by; none for an export. */
function ownersOf(target: TargetName): string[] {
  return target.owner === undefined ? [] : [target.owner, ...(target.alsoOwners ?? [])];
}

/**
 * Indexes the names to look for (see TargetIndex).
 *
 * @param targets The names; a name given twice is indexed once.
 * @returns The index for findEvidence.
 */
export function indexTargets(targets: Iterable<TargetName>): TargetIndex {
  const index: TargetIndex = {exports: new Map(), byFullName: new Map(), byMember: new Map()};
  const push = (map: Map<string, TargetName[]>, key: string, target: TargetName) => map.set(key, [...(map.get(key) ?? []), target]);
  for (const target of targets) {
    if (target.owner === undefined) {
      index.exports.set(target.name, target);
      continue;
    }
    if (index.byFullName.get(target.name)?.some((known) => known.name === target.name)) continue;
    push(index.byFullName, target.name, target);
    for (const owner of target.alsoOwners ?? []) push(index.byFullName, `${owner}.${target.member}`, target);
    push(index.byMember, target.member, target);
  }
  return index;
}
