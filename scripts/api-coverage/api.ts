/**
 * The public API of a library version, read from the typings of its installed packages: every
 * exported name and every public member of an exported class or namespace (see readApi).
 */
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';
import type TypeScript from 'typescript';

// `require`, not `import`: Node.js would otherwise scan all of typescript.js (9 MB of CommonJS) for
// its export names before loading it, about two seconds of CPU time.
const ts: typeof TypeScript = createRequire(import.meta.url)('typescript');

/** What an API name is, as its declarations say (a merged name has several kinds). */
export type ApiKind =
  | 'class'
  | 'function'
  | 'variable'
  | 'enum'
  | 'interface'
  | 'type'
  | 'namespace'
  | 'method'
  | 'property'
  | 'accessor'
  | 'static method'
  | 'static property'
  | 'static accessor';

/** One name of the API: an export of a package, or a member of one. */
export interface ApiName {
  /** The package, without scope: `adb`, `scrcpy`, … */
  pkg: string;
  /** `Name` for an export, `Owner.member` for a member (`Owner.Inner.member` inside nested namespaces). */
  name: string;
  /** For a member: the export it belongs to (`AdbServerClient`); undefined for an export. */
  owner?: string;
  /** For a member: its own name (`getDevices`); for an export, the export's name. */
  member: string;
  /** What it is, sorted. */
  kinds: ApiKind[];
  /**
   * For a class member: the other exports it is reached or described by, sorted: the exported
   * classes that inherit it, and the exported interfaces of its class that declare it
   * (`AdbTransport` for `AdbDaemonTransport.banner`). A page that explains `Other.member` explains it.
   */
  alsoOwners?: string[];
}

/** The key of a name in the report, the exclusions and the known gaps: `package:name`. */
export function apiId(name: Pick<ApiName, 'pkg' | 'name'>): string {
  return `${name.pkg}:${name.name}`;
}

/**
 * Reads the public API of packages from their typings, with the TypeScript compiler (one program,
 * no default library, only `.d.ts` files): each package's entry (`types` in its package.json),
 * the files it re-exports, and the entries of other packages of the same scope it re-exports from.
 *
 * What counts:
 * - every export of the entry, whatever it is: class, function, variable, enum, interface, type
 *   alias or namespace (`export * as X` too); a default export under its declaration's name. Types count: a reader writes them (a device
 *   descriptor, an options bag, an interface a custom transport implements) and meets them in
 *   every signature. A name that is both a value and a type (a `const` object and its type of
 *   values) is one name;
 * - every public member declared by an exported class (instance and static methods, properties
 *   and accessors; not the constructor, which is the class's own, nor `private`/`protected`
 *   members, `#names`, computed names such as `[Symbol.asyncDispose]` or index signatures).
 *   Inherited members count once, on the class that declares them (see ApiName.alsoOwners);
 * - every declaration inside an exported namespace (`AdbServerClient.Device`), nested ones too
 *   (`DumpSys.Battery.Info`).
 * Members of interfaces, type literals, enums and `const` objects don't count: they are the fields
 * and values of one type, documented with it.
 *
 * @param scopeDir The folder holding the scope's packages (`node_modules/@tango-v2`).
 * @param packages The packages to read, without scope.
 * @returns The names of each package, sorted by package and then by name.
 * @throws Error when a package has no package.json or its typings entry is missing.
 */
export function readApi(scopeDir: string, packages: readonly string[]): ApiName[] {
  const entries = new Map<string, string>();
  const entryOf = (pkg: string): string | undefined => {
    if (!entries.has(pkg)) {
      const manifest = path.join(scopeDir, pkg, 'package.json');
      if (!fs.existsSync(manifest)) return undefined;
      const json = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {types?: string; typings?: string};
      const types = json.types ?? json.typings;
      if (types === undefined) return undefined;
      entries.set(pkg, path.join(scopeDir, pkg, types));
    }
    return entries.get(pkg);
  };
  for (const pkg of packages) {
    const entry = entryOf(pkg);
    if (entry === undefined || !fs.existsSync(entry)) throw new Error(`${path.join(scopeDir, pkg)} has no typings entry; run npm install`);
  }

  const options: TypeScript.CompilerOptions = {noLib: true, types: [], noEmit: true, target: ts.ScriptTarget.ES2022};
  const host = ts.createCompilerHost(options);
  // Relative imports lead to the `.d.ts` beside the `.js` they name; `@yume-chan/x` to the entry
  // of the scope's package x; anything else is left unresolved (its names are not the library's).
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map(({text}) => {
      let file: string | undefined;
      if (text.startsWith('.')) file = path.resolve(path.dirname(containingFile), text.replace(/\.js$/, '.d.ts'));
      else if (text.startsWith('@yume-chan/')) file = entryOf(text.slice('@yume-chan/'.length));
      if (file === undefined || !fs.existsSync(file)) return {resolvedModule: undefined};
      return {resolvedModule: {resolvedFileName: file, extension: ts.Extension.Dts}};
    });
  const program = ts.createProgram({rootNames: packages.map((pkg) => entryOf(pkg)!), options, host});
  const checker = program.getTypeChecker();

  // The exports of each package, resolved, and the export name of each exported class or interface
  // declaration (to name the classes a class extends and the interfaces it implements).
  const exportsOf = new Map<string, {name: string; symbol: TypeScript.Symbol}[]>();
  const exportName = new Map<TypeScript.Declaration, string>();
  for (const pkg of [...packages].sort()) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entryOf(pkg)!)!);
    const list = (module ? checker.getExportsOfModule(module) : []).map((exported) => {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const name = exported.name === 'default' ? defaultName(symbol.declarations ?? []) : exported.name;
      for (const declaration of symbol.declarations ?? []) {
        if ((ts.isClassDeclaration(declaration) || ts.isInterfaceDeclaration(declaration)) && !exportName.has(declaration)) {
          exportName.set(declaration, name);
        }
      }
      return {name, symbol};
    });
    exportsOf.set(pkg, list);
  }
  const heritage = new Map<string, {extends: string[]; implements: TypeScript.InterfaceDeclaration[]}>();
  for (const [declaration, name] of exportName) {
    if (!ts.isClassDeclaration(declaration)) continue;
    const entry = {extends: [] as string[], implements: [] as TypeScript.InterfaceDeclaration[]};
    for (const clause of declaration.heritageClauses ?? []) {
      for (const type of clause.types) {
        let symbol = checker.getSymbolAtLocation(type.expression);
        if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
        for (const base of symbol?.declarations ?? []) {
          if (clause.token === ts.SyntaxKind.ExtendsKeyword && ts.isClassDeclaration(base) && exportName.has(base)) {
            entry.extends.push(exportName.get(base)!);
          }
          if (clause.token === ts.SyntaxKind.ImplementsKeyword && ts.isInterfaceDeclaration(base) && exportName.has(base)) {
            entry.implements.push(base);
          }
        }
      }
    }
    heritage.set(name, entry);
  }
  const classMembers = new Map<string, Set<string>>();

  const names: ApiName[] = [];
  for (const [pkg, list] of exportsOf) {
    const found = new Map<string, ApiName>();
    const add = (name: string, owner: string | undefined, member: string, kinds: ApiKind[]) => {
      const known = found.get(name);
      if (known) known.kinds = [...new Set([...known.kinds, ...kinds])].sort();
      else found.set(name, {pkg, name, ...(owner === undefined ? {} : {owner}), member, kinds: [...new Set(kinds)].sort()});
    };
    for (const {name, symbol} of list) {
      const declarations = symbol.declarations ?? [];
      add(name, undefined, name, declarations.flatMap(declarationKinds));
      for (const declaration of declarations) {
        if (!ts.isClassDeclaration(declaration)) continue;
        const own = classMembers.get(name) ?? new Set<string>();
        classMembers.set(name, own);
        for (const element of declaration.members) {
          const member = classMember(element);
          if (!member) continue;
          own.add(member.name);
          add(`${name}.${member.name}`, name, member.name, [member.kind]);
        }
      }
      if (symbol.flags & ts.SymbolFlags.Module) addNamespaceMembers(checker, symbol, name, name, add);
    }
    names.push(...[...found.values()].sort((a, b) => a.name.localeCompare(b.name)));
  }

  // Other names a class member is reached or described by: the exported subclasses that inherit it
  // (down to one that declares the member again), and the exported interfaces of the class that
  // declare it.
  const subclasses = new Map<string, string[]>();
  for (const [name, entry] of heritage) for (const base of entry.extends) subclasses.set(base, [...(subclasses.get(base) ?? []), name]);
  for (const name of names) {
    if (name.owner === undefined || name.name !== `${name.owner}.${name.member}` || !classMembers.get(name.owner)?.has(name.member)) {
      continue;
    }
    const also: string[] = [];
    const descend = (owner: string) => {
      for (const sub of subclasses.get(owner) ?? []) {
        if (classMembers.get(sub)?.has(name.member)) continue;
        also.push(sub);
        descend(sub);
      }
    };
    descend(name.owner);
    for (const contract of heritage.get(name.owner)?.implements ?? []) {
      if (contract.members.some((member) => member.name && ts.isIdentifier(member.name) && member.name.text === name.member)) {
        also.push(exportName.get(contract)!);
      }
    }
    if (also.length > 0) name.alsoOwners = [...new Set(also)].sort();
  }
  return names;
}

/** The name a default export is known by: its declaration's own name (`AdbWebCredentialStore`), else `default`. */
function defaultName(declarations: readonly TypeScript.Declaration[]): string {
  for (const declaration of declarations) {
    const name = ts.getNameOfDeclaration(declaration);
    if (name && ts.isIdentifier(name)) return name.text;
  }
  return 'default';
}

/** The kinds a declaration gives its name (none for declarations that add no kind, such as an export specifier). */
function declarationKinds(declaration: TypeScript.Declaration): ApiKind[] {
  if (ts.isClassDeclaration(declaration)) return ['class'];
  if (ts.isFunctionDeclaration(declaration)) return ['function'];
  if (ts.isVariableDeclaration(declaration)) return ['variable'];
  if (ts.isEnumDeclaration(declaration)) return ['enum'];
  if (ts.isInterfaceDeclaration(declaration)) return ['interface'];
  if (ts.isTypeAliasDeclaration(declaration)) return ['type'];
  if (ts.isModuleDeclaration(declaration) || ts.isSourceFile(declaration)) return ['namespace'];
  return [];
}

/** A class element's name and kind when it is a public, named member (see readApi); otherwise undefined. */
function classMember(element: TypeScript.ClassElement): {name: string; kind: ApiKind} | undefined {
  if (!element.name || !(ts.isIdentifier(element.name) || ts.isStringLiteral(element.name))) return undefined;
  const flags = ts.getCombinedModifierFlags(element as TypeScript.Declaration);
  if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return undefined;
  let kind: 'method' | 'property' | 'accessor';
  if (ts.isMethodDeclaration(element)) kind = 'method';
  else if (ts.isPropertyDeclaration(element)) kind = 'property';
  else if (ts.isGetAccessorDeclaration(element) || ts.isSetAccessorDeclaration(element)) kind = 'accessor';
  else return undefined;
  return {name: element.name.text, kind: flags & ts.ModifierFlags.Static ? `static ${kind}` : kind};
}

/**
 * Adds the declarations of a namespace (a `declare namespace`, or a module re-exported with
 * `export * as X`) as members `prefix.name`, and the members of namespaces nested in it.
 */
function addNamespaceMembers(
  checker: TypeScript.TypeChecker,
  namespace: TypeScript.Symbol,
  owner: string,
  prefix: string,
  add: (name: string, owner: string, member: string, kinds: ApiKind[]) => void,
): void {
  for (const exported of checker.getExportsOfModule(namespace)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    // A class merged with a namespace has its static members among the namespace's exports: those
    // are the class's (readApi), not the namespace's.
    const declarations = (symbol.declarations ?? []).filter((declaration) => !ts.isClassElement(declaration));
    if (declarations.length === 0) continue;
    const name = `${prefix}.${exported.name}`;
    add(name, owner, exported.name, declarations.flatMap(declarationKinds));
    if (symbol.flags & ts.SymbolFlags.Module) addNamespaceMembers(checker, symbol, owner, name, add);
  }
}
