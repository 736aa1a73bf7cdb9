import fs from 'node:fs';
import path from 'node:path';

import type {Root} from 'mdast';
import type ts from 'typescript';
import type {Plugin} from 'unified';
import {visit} from 'unist-util-visit';
import {setDataAttribute} from './mdx-data-attribute';
import {dataPackageFor, packageDirOf} from './docs-version';
import {compareVersions} from '../utils/versions';
import {loadTypeScript} from '../utils/lazy-modules';

/** Where one version class gets one member from. */
export interface InheritanceCell {
  /**
   * The server version whose implementation the member runs, e.g. `"1.15"`:
   * the earliest version class whose member has the same body and calls the
   * same declarations.
   */
  from: string;
  /**
   * `true` when the class does not declare the member and gets it from its base: the class
   * it `extends` (the patch-version classes such as `ScrcpyOptions1_15_1`), or, in the 0.0.24
   * layout, the older class it forwards undeclared members to (see
   * {@link InheritanceVersion.delegatesTo}).
   */
  inherited: boolean;
}

/** One row of the grid: one `ScrcpyOptionsX_YY` class. */
export interface InheritanceVersion {
  /** Server version, dotted, e.g. `"2.1.1"`. */
  version: string;
  /** Class name, e.g. `"ScrcpyOptions2_1_1"`. */
  className: string;
  /** The version class named in its `extends` clause, when it has one. */
  extends?: string;
  /**
   * 0.0.24 layout: the version class whose instance the constructor creates with
   * `super(Base, value, defaults)`, and to which the class forwards, at run time,
   * every member it does not declare. Such a class extends no version class.
   */
  delegatesTo?: string;
  /** One entry per member in {@link OptionsInheritanceData.methods}; `null` when the class lacks it. */
  cells: (InheritanceCell | null)[];
}

/** The serialisable object the plugin passes to `<OptionsInheritance data={…}>`. */
export interface OptionsInheritanceData {
  /** npm package the grid was read from, e.g. `"@yume-chan/scrcpy"`. */
  packageName: string;
  /** Its version, e.g. `"2.0.1"`. */
  packageVersion: string;
  /** Member names, in the order they first appear from the oldest class on. */
  methods: string[];
  /** Members that some class declares as a `get` accessor (subset of `methods`). */
  getters: string[];
  /** Version classes, oldest first. */
  versions: InheritanceVersion[];
}

/** A version class name: `ScrcpyOptions` then two or three underscore-separated numbers. */
const CLASS_PATTERN = /^ScrcpyOptions(\d+)_(\d+)(?:_(\d+))?$/;

/** Members every options class must have; their absence means the source layout changed. */
const REQUIRED_MEMBERS = ['serialize', 'parseVideoStreamMetadata', 'createMediaStreamTransformer'];

/**
 * Turns an options class name into its server version.
 *
 * Input: a class name such as `"ScrcpyOptions2_1_1"`.
 * Output: the dotted version (`"2.1.1"`), or `undefined` when the name is not a
 * version class (`"ScrcpyOptionsLatest"`, `"ScrcpyOptions"`).
 * Errors: none. Facts: the naming used by `@yume-chan/scrcpy`.
 */
export function versionOfClassName(className: string): string | undefined {
  const match = CLASS_PATTERN.exec(className);
  if (match === null) {
    return undefined;
  }
  return match
    .slice(1)
    .filter((part) => part !== undefined)
    .join('.');
}

interface MemberInfo {
  name: string;
  getter: boolean;
  /** Identity of the implementation: body text plus the declarations it reaches. */
  key: string;
}

interface ClassInfo {
  version: string;
  className: string;
  /** The version class whose members this class gets when it does not declare them. */
  baseName?: string;
  /** How it gets them: through `extends`, or by forwarding to a base instance (0.0.24). */
  baseKind?: 'extends' | 'delegation';
  members: MemberInfo[];
}

/**
 * A member the grid shows: a public instance method or getter with a body, or a public
 * instance property with an initializer (0.0.24's `ScrcpyOptions1_16` declares `defaults`,
 * a getter in the other classes, as `readonly defaults = …`).
 */
type GridMember = ts.MethodDeclaration | ts.GetAccessorDeclaration | ts.PropertyDeclaration;

function isPublicInstanceMember(member: ts.ClassElement): member is GridMember {
  const ts = loadTypeScript();
  if (!ts.isMethodDeclaration(member) && !ts.isGetAccessorDeclaration(member) && !ts.isPropertyDeclaration(member)) {
    return false;
  }
  if (!ts.isIdentifier(member.name)) {
    return false;
  }
  const modifiers = ts.getModifiers(member) ?? [];
  return !modifiers.some(
    (modifier) =>
      modifier.kind === ts.SyntaxKind.StaticKeyword ||
      modifier.kind === ts.SyntaxKind.PrivateKeyword ||
      modifier.kind === ts.SyntaxKind.ProtectedKeyword ||
      modifier.kind === ts.SyntaxKind.DeclareKeyword,
  );
}

/** What runs for a member: a method's or getter's body, a property's initializer. */
function memberCode(member: GridMember): ts.Node | undefined {
  const ts = loadTypeScript();
  return ts.isPropertyDeclaration(member) ? member.initializer : member.body;
}

/**
 * Lists the declarations outside the class's own file that a member body reaches:
 * imported functions and constants (followed through every re-export to the file
 * that declares them), methods of helper classes, and the types of the private
 * fields it uses (other type positions are skipped: they do not change what runs).
 * Each is written `name@file` with the file relative to `srcDir`.
 */
function externalReferences(body: ts.Node, checker: ts.TypeChecker, ownFile: ts.SourceFile, srcDir: string): string[] {
  const ts = loadTypeScript();
  const found = new Set<string>();
  const seenTypeNodes = new Set<ts.Node>();
  const visitNode = (node: ts.Node, inType = false): void => {
    if (!inType && ts.isTypeNode(node)) {
      // Type arguments and assertions do not change what runs.
      return;
    }
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias) {
        symbol = checker.getAliasedSymbol(symbol);
      }
      for (const declaration of symbol?.declarations ?? []) {
        const file = declaration.getSourceFile();
        if (file === ownFile) {
          // A private field: its type names the helper class that does the work.
          if (
            ts.isPropertyDeclaration(declaration) &&
            ts.isPrivateIdentifier(declaration.name) &&
            declaration.type !== undefined &&
            !seenTypeNodes.has(declaration.type)
          ) {
            seenTypeNodes.add(declaration.type);
            visitNode(declaration.type, true);
          }
          continue;
        }
        const relative = path.relative(srcDir, file.fileName);
        if (!relative.startsWith('..') && !path.isAbsolute(relative)) {
          found.add(`${node.text}@${relative.split(path.sep).join('/')}`);
        }
      }
    }
    ts.forEachChild(node, (child) => visitNode(child, inType));
  };
  visitNode(body);
  return [...found].sort();
}

/**
 * The class a 0.0.24-style options class delegates to: the first argument of the `super(...)` call
 * in its constructor when that is a version class name; `null` when it passes none (`undefined`,
 * for the oldest class) or has no such call; `undefined` when the class has no constructor.
 */
function delegationBase(declaration: ts.ClassDeclaration, file: ts.SourceFile): string | null | undefined {
  const ts = loadTypeScript();
  const constructor = declaration.members.find(ts.isConstructorDeclaration);
  if (constructor?.body === undefined) {
    return undefined;
  }
  let found: string | null = null;
  const visitNode = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword) {
      const first = node.arguments[0];
      if (first !== undefined && ts.isIdentifier(first) && versionOfClassName(first.getText(file)) !== undefined) {
        found = first.getText(file);
      }
      return;
    }
    ts.forEachChild(node, visitNode);
  };
  visitNode(constructor.body);
  return found;
}

function collectClasses(program: ts.Program, srcDir: string): ClassInfo[] {
  const ts = loadTypeScript();
  const checker = program.getTypeChecker();
  const classes: ClassInfo[] = [];
  for (const file of program.getSourceFiles()) {
    const relative = path.relative(srcDir, file.fileName);
    if (relative.startsWith('..') || path.isAbsolute(relative) || file.isDeclarationFile) {
      continue;
    }
    for (const statement of file.statements) {
      if (!ts.isClassDeclaration(statement) || statement.name === undefined) {
        continue;
      }
      const version = versionOfClassName(statement.name.text);
      if (version === undefined) {
        continue;
      }
      const heritage = statement.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword);
      const extendsExpression = heritage?.types[0]?.expression;
      const members: MemberInfo[] = [];
      for (const member of statement.members) {
        const code = isPublicInstanceMember(member) ? memberCode(member) : undefined;
        if (code === undefined) {
          continue;
        }
        const body = code.getText(file).replace(/\s+/g, ' ');
        const references = externalReferences(code, checker, file, srcDir);
        members.push({
          name: ((member as GridMember).name as ts.Identifier).text,
          getter: ts.isGetAccessorDeclaration(member),
          key: `${body}\n${references.join('\n')}`,
        });
      }
      const info: ClassInfo = {version, className: statement.name.text, members};
      if (extendsExpression !== undefined) {
        info.baseName = extendsExpression.getText(file);
        info.baseKind = 'extends';
      }
      if (info.baseName !== undefined && versionOfClassName(info.baseName) === undefined) {
        // 0.0.24 layout: every class extends the abstract `ScrcpyOptions` and passes the
        // previous version's class as the first argument of `super(Base, value, defaults)`;
        // members it does not declare are forwarded to an instance of that class.
        const base = delegationBase(statement, file);
        if (typeof base === 'string') {
          info.baseName = base;
          info.baseKind = 'delegation';
        } else if (base === null) {
          // The oldest class: `super(undefined, …)`, it implements every member itself.
          delete info.baseName;
          delete info.baseKind;
        }
      }
      classes.push(info);
    }
  }
  return classes.sort((a, b) => compareVersions(a.version, b.version));
}

/**
 * Builds the inheritance grid from a program that contains the package's source.
 *
 * Input: a TypeScript program whose files include `srcDir` (the package's
 * `src/` folder), plus the package name and version for the caption.
 * Output: an {@link OptionsInheritanceData}: every `ScrcpyOptionsX_YY` class,
 * oldest first, and for each public method, getter or initialized property
 * (constructor and static members excluded) which version's implementation it
 * runs. Two classes share an implementation when the member bodies (a
 * property's initializer) read the same and reach the same
 * declarations (the per-version `impl/` functions, followed through re-exports,
 * the helper classes behind private fields); a member a class does not declare
 * comes from the class it extends (`extends` on the row), or, in the 0.0.24 layout
 * where every class extends the abstract `ScrcpyOptions`, from the class its
 * constructor passes to `super(Base, …)`, to which it forwards at run time
 * (`delegatesTo` on the row).
 * Errors: throws an Error when no version class is found, when a class extends
 * a class that is not a version class of the package, or when the oldest class
 * lacks one of `serialize`, `parseVideoStreamMetadata`,
 * `createMediaStreamTransformer`: each means the package's layout changed and the
 * analysis needs updating.
 * Facts: the package source itself.
 */
export function inheritanceFromProgram(
  program: ts.Program,
  srcDir: string,
  packageName: string,
  packageVersion: string,
): OptionsInheritanceData {
  const classes = collectClasses(program, srcDir);
  if (classes.length === 0) {
    throw new Error(
      `No ScrcpyOptionsX_YY class found in ${srcDir}; the layout of ${packageName} changed (see src/remark/scrcpy-inheritance.ts).`,
    );
  }
  const byName = new Map(classes.map((info) => [info.className, info]));
  const oldest = classes[0];
  const missing = REQUIRED_MEMBERS.filter((name) => !oldest.members.some((member) => member.name === name));
  if (missing.length > 0) {
    throw new Error(
      `${oldest.className} in ${srcDir} has no ${missing.join(', ')}; the layout of ${packageName} changed (see src/remark/scrcpy-inheritance.ts).`,
    );
  }

  const resolved = new Map<string, Map<string, {member: MemberInfo; inherited: boolean}>>();
  const resolve = (info: ClassInfo, trail: string[]): Map<string, {member: MemberInfo; inherited: boolean}> => {
    const cached = resolved.get(info.className);
    if (cached !== undefined) {
      return cached;
    }
    if (trail.includes(info.className)) {
      throw new Error(`Circular extends chain: ${[...trail, info.className].join(' → ')}.`);
    }
    const result = new Map<string, {member: MemberInfo; inherited: boolean}>();
    if (info.baseName !== undefined) {
      const parent = byName.get(info.baseName);
      if (parent === undefined) {
        throw new Error(
          `${info.className} extends ${info.baseName}, which is not a ScrcpyOptionsX_YY class of ${packageName}; the layout changed (see src/remark/scrcpy-inheritance.ts).`,
        );
      }
      for (const [name, entry] of resolve(parent, [...trail, info.className])) {
        result.set(name, {member: entry.member, inherited: true});
      }
    }
    for (const member of info.members) {
      result.set(member.name, {member, inherited: false});
    }
    resolved.set(info.className, result);
    return result;
  };

  const methods: string[] = [];
  const getters: string[] = [];
  for (const info of classes) {
    for (const [name, {member}] of resolve(info, [])) {
      if (!methods.includes(name)) {
        methods.push(name);
      }
      if (member.getter && !getters.includes(name)) {
        getters.push(name);
      }
    }
  }
  getters.sort((a, b) => methods.indexOf(a) - methods.indexOf(b));

  const firstVersionOfKey = new Map<string, string>();
  const versions: InheritanceVersion[] = classes.map((info) => {
    const members = resolve(info, []);
    const cells = methods.map((name) => {
      const entry = members.get(name);
      if (entry === undefined) {
        return null;
      }
      const memberKey = `${name}\n${entry.member.key}`;
      if (!firstVersionOfKey.has(memberKey)) {
        firstVersionOfKey.set(memberKey, info.version);
      }
      return {from: firstVersionOfKey.get(memberKey)!, inherited: entry.inherited};
    });
    const row: InheritanceVersion = {version: info.version, className: info.className, cells};
    if (info.baseName !== undefined) {
      row[info.baseKind === 'delegation' ? 'delegatesTo' : 'extends'] = info.baseName;
    }
    return row;
  });

  return {packageName, packageVersion, methods, getters, versions};
}

/**
 * Finds the installed `@yume-chan/scrcpy` 2.0.x source folder of this site.
 *
 * Input: none. Output: the absolute path of `node_modules/@tango-v2/scrcpy`
 * (the npm alias package.json gives it). Errors: throws when it is not installed.
 */
export function defaultPackageDir(): string {
  return path.dirname(require.resolve('@tango-v2/scrcpy/package.json'));
}

const cache = new Map<string, OptionsInheritanceData>();

/**
 * Reads the inheritance grid from an installed `@yume-chan/scrcpy` package.
 *
 * Input: the package folder (holding `package.json` and `src/index.ts`);
 * default {@link defaultPackageDir}. Results are cached per folder.
 * Output: {@link OptionsInheritanceData} (see {@link inheritanceFromProgram}).
 * Errors: throws an Error when the folder has no `package.json` or
 * `src/index.ts` (the package ships its TypeScript source in `src/`), or when
 * {@link inheritanceFromProgram} throws.
 * Facts: the package's own TypeScript source, read with the TypeScript compiler API.
 */
export function scrcpyInheritanceData(packageDir: string = defaultPackageDir()): OptionsInheritanceData {
  const ts = loadTypeScript();
  const cached = cache.get(packageDir);
  if (cached !== undefined) {
    return cached;
  }
  const packageJsonPath = path.join(packageDir, 'package.json');
  const entry = path.join(packageDir, 'src', 'index.ts');
  if (!fs.existsSync(packageJsonPath) || !fs.existsSync(entry)) {
    throw new Error(
      `${packageDir} has no package.json or src/index.ts; the options-inheritance grid needs the TypeScript source of @yume-chan/scrcpy.`,
    );
  }
  const packageJson = JSON.parse(fs.readFileSync(packageJsonPath, 'utf8')) as {name?: string; version?: string};
  const program = ts.createProgram({
    rootNames: [entry],
    options: {
      noEmit: true,
      noLib: true,
      types: [],
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
    },
  });
  const data = inheritanceFromProgram(
    program,
    path.join(packageDir, 'src'),
    packageJson.name ?? '@yume-chan/scrcpy',
    packageJson.version ?? 'unknown',
  );
  cache.set(packageDir, data);
  return data;
}

/** Options of {@link remarkScrcpyInheritance}. */
export interface ScrcpyInheritanceOptions {
  /**
   * Folder of the `@yume-chan/scrcpy` package to read; default: the package of the page's docs
   * version (see DATA_PACKAGES in ./docs-version.ts).
   */
  packageDir?: string;
}

/**
 * Remark plugin: fills in the `data` prop of every `<OptionsInheritance />`.
 *
 * Input: an mdast tree parsed with remark-mdx; options `{packageDir?}`.
 * Output: the same tree; each MDX JSX element named `OptionsInheritance` gets a
 * `data` attribute (an MDX expression whose estree is built by `valueToEstree`)
 * holding {@link scrcpyInheritanceData}, replacing any `data` it had. Pages
 * without the element are left alone and the package is not read.
 * Errors: throws an Error naming the file and line:column when the page's docs
 * version has no published `@yume-chan/scrcpy` (1.0.0), or when the package
 * cannot be read or analysed (a layout that is neither 0.0.24's delegation nor
 * 1.x/2.x's class inheritance), which fails the build.
 * Facts: the `@yume-chan/scrcpy` source of the page's docs version, via
 * {@link scrcpyInheritanceData}.
 */
const remarkScrcpyInheritance: Plugin<[ScrcpyInheritanceOptions?], Root> = function remarkScrcpyInheritance(options = {}) {
  return (tree, file) => {
    visit(tree, (node) => {
      if ((node.type !== 'mdxJsxFlowElement' && node.type !== 'mdxJsxTextElement') || node.name !== 'OptionsInheritance') {
        return;
      }
      const start = node.position?.start;
      const place = `${file.path ?? '<unknown file>'}${start === undefined ? '' : `:${start.line}:${start.column}`}`;
      let data: OptionsInheritanceData;
      try {
        data = scrcpyInheritanceData(options.packageDir ?? packageDirOf(dataPackageFor(file.path, 'scrcpy')));
      } catch (error) {
        throw new Error(`${place}: <OptionsInheritance>: ${(error as Error).message}`, {cause: error});
      }
      setDataAttribute(node, data);
    });
  };
};

export default remarkScrcpyInheritance;
