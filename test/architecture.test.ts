/**
 * The layering of the packages, checked on the imports the sources actually make (read with the
 * TypeScript parser: static imports and re-exports, `import()` and `require()`), and the
 * invariants ARCHITECTURE.md states that a reading of the sources can hold us to. Invariants
 * that need the code to run have their own tests; ARCHITECTURE.md names each.
 *
 *   schema ← validator ← lsp ← vscode-extension        validator ← gitops
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin as isNodeBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Each package, and the workspace packages it may import (directly). */
const LAYERS: Record<string, readonly string[]> = {
  schema: [],
  validator: ['schema'],
  lsp: ['schema', 'validator'],
  'vscode-extension': ['lsp'],
  gitops: ['schema', 'validator'],
};
const PACKAGES = Object.keys(LAYERS);
const PACKAGE_NAMES: Record<string, string> = {
  schema: '@svc-manifest/schema',
  validator: '@svc-manifest/validator',
  lsp: '@svc-manifest/lsp',
  'vscode-extension': 'svc-manifest-vscode',
  gitops: '@svc-manifest/gitops',
};

interface Import {
  file: string;
  specifier: string;
  /** `import type` / `export type`: erased, costs nothing at run time. */
  typeOnly: boolean;
  kind: 'static' | 'dynamic' | 'require';
}

interface SourceFile {
  file: string;
  pkg: string;
  text: string;
  imports: Import[];
  /** `import(x)` / `require(x)` whose argument is not a string literal. */
  computed: { file: string; line: number; code: string }[];
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return walk(path);
    return /\.(ts|mts|cts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function readSource(pkg: string, file: string): SourceFile {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const rel = relative(ROOT, file);
  const imports: Import[] = [];
  const computed: SourceFile['computed'] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly = ts.isImportDeclaration(node) ? !!node.importClause?.isTypeOnly : node.isTypeOnly;
      imports.push({ file: rel, specifier: node.moduleSpecifier.text, typeOnly, kind: 'static' });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      imports.push({ file: rel, specifier: node.argument.literal.text, typeOnly: true, kind: 'static' });
    } else if (ts.isCallExpression(node)) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isImport || isRequire) {
        const [argument] = node.arguments;
        if (argument && ts.isStringLiteralLike(argument)) {
          imports.push({
            file: rel,
            specifier: argument.text,
            typeOnly: false,
            kind: isImport ? 'dynamic' : 'require',
          });
        } else {
          const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          computed.push({ file: rel, line, code: node.getText() });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { file, pkg, text, imports, computed };
}

const SOURCES: SourceFile[] = PACKAGES.flatMap((pkg) =>
  walk(join(ROOT, 'packages', pkg, 'src')).map((file) => readSource(pkg, file)),
);
const sourcesOf = (pkg: string) => SOURCES.filter((s) => s.pkg === pkg);

/** The workspace package a specifier names, if any (`@svc-manifest/lsp/main` → `lsp`). */
function workspaceTarget(specifier: string): string | undefined {
  return PACKAGES.find((pkg) => specifier === PACKAGE_NAMES[pkg] || specifier.startsWith(`${PACKAGE_NAMES[pkg]}/`));
}

/** The bare package name of a specifier (`vscode-languageserver/node` → `vscode-languageserver`). */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const isRelative = (specifier: string) => specifier.startsWith('.');
const isBuiltin = (specifier: string) => specifier.startsWith('node:');

const SOURCE_PATHS = new Set(SOURCES.map((s) => s.file));
/**
 * The source files `s` imports by a relative path: a `.js` specifier names the `.ts` file, one
 * without an extension (the bundled extension's style) `<it>.ts`. A specifier that names no
 * source file is resolved to the path it spells.
 */
const relativeTargets = (s: SourceFile) =>
  s.imports
    .filter((i) => isRelative(i.specifier))
    .map((i) => {
      const named = resolve(dirname(s.file), i.specifier);
      const candidates = [named.replace(/\.js$/, '.ts'), `${named}.ts`];
      return { i, target: candidates.find((file) => SOURCE_PATHS.has(file)) ?? named };
    });

describe('the packages', () => {
  it('are all read (every package has sources and imports)', () => {
    for (const pkg of PACKAGES) {
      expect(sourcesOf(pkg).length, pkg).toBeGreaterThan(0);
      expect(readdirSync(join(ROOT, 'packages')).sort()).toEqual([...PACKAGES].sort());
    }
  });

  for (const pkg of PACKAGES) {
    describe(pkg, () => {
      it(`imports only the workspace packages below it (${LAYERS[pkg]!.join(', ') || 'none'})`, () => {
        const reached = sourcesOf(pkg)
          .flatMap((s) => s.imports)
          .map((i) => ({ ...i, target: workspaceTarget(i.specifier) }))
          .filter((i) => i.target && i.target !== pkg)
          .filter((i) => !LAYERS[pkg]!.includes(i.target!))
          .map((i) => `${i.file} → ${i.specifier}`);
        expect(reached).toEqual([]);
      });

      it('never reaches into another package by a relative path', () => {
        const own = join(ROOT, 'packages', pkg) + sep;
        const escapes = sourcesOf(pkg)
          .flatMap((s) =>
            s.imports
              .filter((i) => isRelative(i.specifier))
              .map((i) => ({ i, target: resolve(dirname(s.file), i.specifier) })),
          )
          .filter(({ target }) => !target.startsWith(own))
          .map(({ i }) => `${i.file} → ${i.specifier}`);
        expect(escapes).toEqual([]);
      });

      it('declares every package it imports at run time in its package.json dependencies', () => {
        const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', pkg, 'package.json'), 'utf8')) as {
          dependencies?: Record<string, string>;
          peerDependencies?: Record<string, string>;
          devDependencies?: Record<string, string>;
          scripts?: Record<string, string>;
        };
        // A package that ships a bundle (its `bundle` script) inlines what it imports: those
        // packages are build inputs, declared as devDependencies; the rest must be dependencies.
        const inlined = manifest.scripts?.bundle ? Object.keys(manifest.devDependencies ?? {}) : [];
        const declared = new Set([
          ...Object.keys(manifest.dependencies ?? {}),
          ...Object.keys(manifest.peerDependencies ?? {}),
          ...inlined,
        ]);
        // `vscode` is the editor's own API, provided by the extension host.
        if (pkg === 'vscode-extension') declared.add('vscode');
        const undeclared = sourcesOf(pkg)
          .flatMap((s) => s.imports)
          .filter((i) => !i.typeOnly && !isRelative(i.specifier) && !isBuiltin(i.specifier))
          .filter((i) => workspaceTarget(i.specifier) !== pkg && !declared.has(packageName(i.specifier)))
          .map((i) => `${i.file} → ${i.specifier}`);
        expect(undeclared).toEqual([]);
      });
    });
  }

  it('import nothing upward: no cycle between packages', () => {
    const edges = new Set(
      SOURCES.flatMap((s) =>
        s.imports.map((i) => [s.pkg, workspaceTarget(i.specifier)] as const).filter(([from, to]) => to && to !== from),
      ).map(([from, to]) => `${from}→${to}`),
    );
    for (const edge of edges) {
      const [from, to] = edge.split('→') as [string, string];
      expect(edges.has(`${to}→${from}`), edge).toBe(false);
    }
  });
});

describe('dynamic imports', () => {
  // A computed import() would let a package reach another behind the import graph's back (the
  // CLI once loaded the applier that way; it now runs the applier's own command).
  it('are all of a literal module name, so the layering above sees them (none computed)', () => {
    expect(SOURCES.flatMap((s) => s.computed.map((c) => `${c.file}:${c.line} ${c.code}`))).toEqual([]);
  });
});

describe('who may use what', () => {
  const importers = (predicate: (specifier: string) => boolean) =>
    [...new Set(SOURCES.filter((s) => s.imports.some((i) => predicate(i.specifier))).map((s) => s.pkg))].sort();

  it('only lsp imports vscode-languageserver (and so only lsp converts diagnostics to LSP types)', () => {
    expect(importers((specifier) => packageName(specifier).startsWith('vscode-languageserver'))).toEqual(['lsp']);
  });

  it('schema and validator import nothing from vscode-*', () => {
    const offenders = SOURCES.filter((s) => s.pkg === 'schema' || s.pkg === 'validator').flatMap((s) =>
      s.imports.filter((i) => /^vscode(-|$)/.test(packageName(i.specifier))).map((i) => `${i.file} → ${i.specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  it('only the extension imports the vscode API or its language client', () => {
    expect(
      importers((specifier) => specifier === 'vscode' || packageName(specifier) === 'vscode-languageclient'),
    ).toEqual(['vscode-extension']);
  });

  it('only gitops spawns git', () => {
    const spawnsGit = /\b(?:spawn|spawnSync|execFile|execFileSync|exec|execSync|fork)\s*\(\s*['"`]git\b/;
    const processUsers = SOURCES.filter((s) =>
      s.imports.some((i) => i.specifier === 'node:child_process' || i.specifier === 'child_process'),
    );
    expect(processUsers.filter((s) => s.pkg === 'gitops').length).toBeGreaterThan(0);
    const offenders = processUsers
      .filter((s) => s.pkg !== 'gitops' && spawnsGit.test(s.text))
      .map((s) => relative(ROOT, s.file));
    expect(offenders).toEqual([]);
    // In gitops, one module runs git: everything else goes through it.
    expect(
      processUsers
        .filter((s) => s.pkg === 'gitops')
        .map((s) => relative(ROOT, s.file))
        .sort(),
    ).toEqual([join('packages', 'gitops', 'src', 'git', 'exec.ts')]);
  });

  it('nothing in schema or validator evaluates code at run time (no eval, no new Function)', () => {
    const offenders = SOURCES.filter((s) => s.pkg === 'schema' || s.pkg === 'validator')
      .filter((s) =>
        /(^|[^.\w])eval\s*\(|\bnew\s+Function\s*\(/.test(s.text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '')),
      )
      .map((s) => relative(ROOT, s.file));
    expect(offenders).toEqual([]);
  });
});

describe('inside each package', () => {
  /** Module-level cycles among a package's own files, `import type` included. */
  function cycles(pkg: string): string[] {
    const files = new Map(sourcesOf(pkg).map((s) => [s.file, s]));
    const edges = (s: SourceFile) =>
      relativeTargets(s)
        .map(({ target }) => target)
        .filter((target) => files.has(target));
    const found: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of edges(files.get(file)!)) {
        if (state.get(next) === 'open')
          found.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(ROOT, f)).join(' → '));
        else if (!state.has(next)) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of files.keys()) if (!state.has(file)) visit(file);
    return found;
  }

  // A type import ties modules together for a reader as much as any other: each package's
  // modules form layers, each importing only those below it (the validator's diagnostic codes
  // in a leaf module, not in the rule list that the lowest modules would then sit above; a
  // type two git modules share in the lower one).
  for (const pkg of PACKAGES) {
    it(`${pkg}: no import cycle among its modules, type imports included`, () => {
      // Every relative import must name a source file, or its edge would be missing from the graph.
      const unresolved = sourcesOf(pkg)
        .flatMap((s) => relativeTargets(s))
        .filter(({ target }) => !SOURCE_PATHS.has(target))
        .map(({ i }) => `${i.file} → ${i.specifier}`);
      expect(unresolved).toEqual([]);
      expect(cycles(pkg)).toEqual([]);
    });
  }

  const VALIDATOR_SRC = join(ROOT, 'packages', 'validator', 'src');
  const inValidator = (...path: string[]) => join(VALIDATOR_SRC, ...path);

  /**
   * The validator's folders and top-level modules, lowest first, in named layers. Each imports,
   * type imports included, only what is listed before it: the file-level check above finds no
   * circle, and this one finds no arrow running back up between folders either (a rule helper
   * in model/ taking the rules' types, say, or the editing engine reading the rule list). A new
   * folder or top-level module takes its place here.
   */
  const VALIDATOR_LAYERS: readonly { layer: string; units: readonly string[] }[] = [
    { layer: 'leaves', units: ['rule-codes.ts', 'suggest.ts', 'schema-keys.ts', 'cli-io.ts'] },
    { layer: 'diagnostics', units: ['diagnostic.ts', 'rule-meta.ts', 'reported-elsewhere.ts', 'process-io.ts'] },
    { layer: 'the document', units: ['document/'] },
    { layer: 'reading and editing', units: ['model/', 'inputs/', 'edit/'] },
    { layer: 'locating', units: ['fixes.ts', 'locator.ts', 'messages.ts', 'incremental.ts'] },
    { layer: 'the rules', units: ['rules/'] },
    {
      layer: 'validation',
      units: ['schema-errors.ts', 'schema-parts.ts', 'generated/', 'paths.ts', 'policy/', 'validate.ts'],
    },
    { layer: 'operations', units: ['fix.ts', 'migrate.ts', 'fix-preview.ts'] },
    { layer: 'the library', units: ['formatters/', 'library.ts'] },
    {
      layer: 'the command line',
      units: ['node-files.ts', 'cli-workers.ts', 'cli-transform.ts', 'cli-fmt.ts', 'cli.ts', 'index.ts'],
    },
  ];

  it('validator: its folders and top-level modules form layers, each importing only those below it', () => {
    const order = VALIDATOR_LAYERS.flatMap(({ units }) => units);
    /** The folder (`edit/`) or top-level module (`cli.ts`) of src/ that holds a file. */
    const unitOf = (file: string) => {
      const [first, ...rest] = relative(VALIDATOR_SRC, file).split(sep);
      return rest.length > 0 ? `${first}/` : first!;
    };
    const validator = sourcesOf('validator');
    expect([...new Set(validator.map((s) => unitOf(s.file)))].sort()).toEqual([...order].sort());
    const upward = validator.flatMap((s) =>
      relativeTargets(s)
        .filter(({ target }) => target.startsWith(VALIDATOR_SRC + sep))
        .filter(({ target }) => order.indexOf(unitOf(target)) > order.indexOf(unitOf(s.file)))
        .map(({ i }) => `${i.file} → ${i.specifier}${i.typeOnly ? ' (type)' : ''}`),
    );
    expect(upward).toEqual([]);
  });

  it('validator: document/ imports nothing outside itself but the diagnostic types', () => {
    const documentDir = inValidator('document') + sep;
    const documentFiles = sourcesOf('validator').filter((s) => s.file.startsWith(documentDir));
    expect(documentFiles.length).toBeGreaterThan(10);
    const outside = documentFiles
      .flatMap((s) => relativeTargets(s))
      .filter(({ target }) => !target.startsWith(documentDir))
      .filter(({ i, target }) => !(target === inValidator('diagnostic.ts') && i.typeOnly))
      .map(({ i }) => `${i.file} → ${i.specifier}${i.typeOnly ? ' (type)' : ''}`);
    expect(outside).toEqual([]);
  });

  // The library runs in a browser as it does in Node (a playground, a web worker): what the
  // library entry reaches imports no Node built-in and reads none of Node's globals. Only the
  // command line (cli.ts and what only it imports) and the launchers are Node's.
  it('validator: the library (library.ts and all it imports) uses no Node built-in', () => {
    const files = new Map(sourcesOf('validator').map((s) => [s.file, s]));
    const reached = new Set<string>();
    const visit = (file: string): void => {
      if (reached.has(file) || !files.has(file)) return;
      reached.add(file);
      for (const { target } of relativeTargets(files.get(file)!)) visit(target);
    };
    visit(inValidator('library.ts'));
    for (const layer of ['document', 'edit', 'rules', 'model']) {
      expect(
        [...reached].some((file) => file.startsWith(inValidator(layer) + sep)),
        layer,
      ).toBe(true);
    }
    expect(reached.has(inValidator('validate.ts'))).toBe(true);
    const nodeGlobal = /(?<![.\w$])(?:Buffer|process|__dirname|__filename|require)\s*[.(]/;
    const offenders = [...reached].flatMap((file) => {
      const s = files.get(file)!;
      const imports = s.imports.filter((i) => isNodeBuiltin(i.specifier)).map((i) => `${i.file} → ${i.specifier}`);
      const code = s.text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
      return nodeGlobal.test(code) ? [...imports, `${relative(ROOT, file)} reads a Node global`] : imports;
    });
    expect(offenders).toEqual([]);
  });

  it('lsp: server.ts imports no manifest code (it only wires the store and the feature table)', () => {
    const server = SOURCES.find((s) => s.file.endsWith(join('lsp', 'src', 'server.ts')))!;
    expect(server.imports.filter((i) => workspaceTarget(i.specifier))).toEqual([]);
  });
});

describe('function length', () => {
  /**
   * A function longer than this is usually several steps that read better as functions named
   * after them (issue #32 asks for about 100). It counts every line from the signature to the
   * closing brace, comments and nested functions included.
   */
  const MAX_LINES = 100;
  /**
   * The functions allowed past the bound, by file and name (a nested function's name follows its
   * owners', `outer > inner`), each with the reason it reads best whole.
   */
  const LONG_FUNCTIONS: Record<string, string> = {
    'packages/schema/src/source.ts: definitions':
      "declarative data: the shared schema definitions as one object literal, each entry a named definition with the spec's wording; a split would only move entries",
    'packages/schema/src/source.ts: trigger':
      "declarative data: a trigger's schema as one object literal (its keys, then one rule per trigger type); a split would only move entries",
    'packages/schema/src/source.ts: connector':
      "declarative data: a connector's schema as one object literal (its keys and their per-version rules); a split would only move entries",
  };

  /** Every function with a body in a source file, named, with its length in lines. */
  function functionLengths(s: SourceFile): { name: string; lines: number }[] {
    const source = ts.createSourceFile(s.file, s.text, ts.ScriptTarget.Latest, true);
    const found: { name: string; lines: number }[] = [];
    const nameOf = (node: ts.SignatureDeclaration): string => {
      if (node.name) return node.name.getText(source);
      if (
        ts.isVariableDeclaration(node.parent) ||
        ts.isPropertyAssignment(node.parent) ||
        ts.isPropertyDeclaration(node.parent)
      )
        return node.parent.name.getText(source);
      return ts.isConstructorDeclaration(node) ? 'constructor' : '<anonymous>';
    };
    const visit = (node: ts.Node, owner: string | undefined): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const name = owner ? `${owner} > ${nameOf(node)}` : nameOf(node);
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.end).line;
        found.push({ name, lines: last - first + 1 });
        ts.forEachChild(node, (child) => visit(child, name));
      } else {
        ts.forEachChild(node, (child) => visit(child, owner));
      }
    };
    visit(source, undefined);
    return found;
  }

  const GENERATED = `${sep}generated${sep}`;
  const LENGTHS = SOURCES.filter((s) => !s.file.includes(GENERATED)).flatMap((s) =>
    functionLengths(s).map(({ name, lines }) => ({
      key: `${relative(ROOT, s.file).split(sep).join('/')}: ${name}`,
      lines,
    })),
  );

  it(`no hand-written function is longer than ${MAX_LINES} lines, but those listed with a reason`, () => {
    expect(LENGTHS.length).toBeGreaterThan(500);
    const tooLong = LENGTHS.filter(({ key, lines }) => lines > MAX_LINES && !(key in LONG_FUNCTIONS)).map(
      ({ key, lines }) => `${key} (${lines} lines)`,
    );
    expect(tooLong).toEqual([]);
  });

  it('lists only functions that are still past the bound', () => {
    const stale = Object.keys(LONG_FUNCTIONS).filter(
      (key) => !LENGTHS.some((found) => found.key === key && found.lines > MAX_LINES),
    );
    expect(stale).toEqual([]);
  });
});

describe('tests', () => {
  /** Every test file of the repository (not node_modules, not dist). */
  function testFiles(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) return [];
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return testFiles(path);
      return /\.test\.ts$/.test(name) ? [path] : [];
    });
  }

  /** Every TypeScript file under a test folder (tests and their helpers), not node_modules. */
  function testSources(dir: string): string[] {
    return readdirSync(dir).flatMap((name) => {
      if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) return [];
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return testSources(path);
      return /\.(ts|mts|cts)$/.test(name) ? [path] : [];
    });
  }
  const TEST_SOURCES = [
    ...readdirSync(join(ROOT, 'packages')).flatMap((pkg) => {
      const dir = join(ROOT, 'packages', pkg, 'test');
      return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? testSources(dir) : [];
    }),
    ...testSources(join(ROOT, 'test')),
  ];
  const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');

  /**
   * A sleep: a promise a timer resolves after a delay, awaited, or made by a helper. A test waits
   * for an event (a notification, a request's answer) or runs injected timers by hand; a timer
   * raced against an event as a guard, or one of 0 ms (the next turn of the loop), is no sleep.
   */
  const SLEEP = [
    /await\s+new\s+Promise(?:<[^>]*>)?\s*\(\s*\(?\s*(\w+)\s*\)?\s*=>\s*setTimeout\(\s*\1\s*,(?!\s*0\s*\))/,
    /=>\s*new\s+Promise(?:<[^>]*>)?\s*\(\s*\(?\s*(\w+)\s*\)?\s*=>\s*setTimeout\(\s*\1\s*,(?!\s*0\s*\))/,
  ];
  /** A busy-wait or a clock-driven polling loop: a loop whose condition reads the clock. */
  const BUSY_WAIT = /\b(?:while|for)\s*\([^{;]*(?:;[^{;]*)?\b(?:Date\.now|performance\.now|process\.hrtime)\s*\(/;

  /**
   * Helpers that wait for a third-party server to accept connections: neither `git daemon` nor
   * code-server says when it is ready, so they poll, bounded. Nothing of ours is timed there.
   */
  const THIRD_PARTY_READINESS = [
    join('packages', 'gitops', 'test', 'support', 'git-servers.ts'),
    join('packages', 'vscode-extension', 'test', 'support', 'code-server.ts'),
  ];

  it('never sleep or busy-wait (they wait for events, or run injected clocks and timers by hand)', () => {
    expect(TEST_SOURCES.length).toBeGreaterThan(40);
    const named = TEST_SOURCES.map((file) => relative(ROOT, file));
    for (const helper of THIRD_PARTY_READINESS) expect(named).toContain(helper);
    const offenders = TEST_SOURCES.filter((file) => !THIRD_PARTY_READINESS.includes(relative(ROOT, file))).flatMap(
      (file) => {
        const code = withoutComments(readFileSync(file, 'utf8'));
        const found = [
          ...SLEEP.filter((sleep) => sleep.test(code)).map(() => 'sleeps'),
          ...(BUSY_WAIT.test(code) ? ['busy-waits'] : []),
        ];
        return found.map((what) => `${relative(ROOT, file)} ${what}`);
      },
    );
    expect(offenders).toEqual([]);
  });

  it('make no timed assertions (speed is measured by npm run bench, as ratios)', () => {
    const files = [
      ...testFiles(join(ROOT, 'packages')),
      ...testFiles(join(ROOT, 'test')),
      ...testFiles(join(ROOT, 'site')),
    ];
    expect(files.length).toBeGreaterThan(20);
    // An expectation on a duration: a clock read and a bound on the difference, or a bound on a
    // value named after time.
    const timed = /expect\([^;]*\b(ms|elapsed|duration|took|seconds|millis\w*)\b[^;]*\)\s*\.\s*toBeLessThan/;
    const clock = /\b(performance\.now|Date\.now|process\.hrtime)\s*\(/;
    const offenders = files.filter((file) => {
      const text = readFileSync(file, 'utf8');
      return (
        timed.test(text) ||
        (clock.test(text) && /toBeLessThan(OrEqual)?\(/.test(text) && /\b(ms|elapsed|took)\b/.test(text))
      );
    });
    expect(offenders.map((file) => relative(ROOT, file))).toEqual([]);
  });
});
