/**
 * Keys named `__proto__`, `constructor` and `prototype` are data everywhere, not only in the
 * validator (packages/validator/test/prototype-keys.test.ts): every language-server request
 * the feature table answers, the pushed diagnostics, fix/migrate/convert, and every applier
 * operation run on manifests and catalog items that use the three names, give the right
 * answers, and leave `Object.prototype`, `Array.prototype` and the other built-in prototypes
 * exactly as they were.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CodeAction, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { fixManifest, ManifestDocument, migrateManifest, tomlToYaml, validateManifest } from '@svc-manifest/validator';
import { createState, textOf, type DocumentState } from '../packages/lsp/src/document-state.js';
import type { FeatureContext } from '../packages/lsp/src/feature-context.js';
import { computeDiagnostics } from '../packages/lsp/src/features/diagnostics.js';
import { FEATURES } from '../packages/lsp/src/features/index.js';
import { RenameRefused } from '../packages/lsp/src/features/rename.js';
import { lspLines } from '../packages/lsp/src/positions.js';
import { readSettings } from '../packages/lsp/src/settings.js';
import { applyEdits, positionOf, rangeOf } from '../packages/lsp/test/helpers.js';
import {
  install,
  list,
  LOCK_PATH,
  RefusedError,
  remove,
  setAgentScope,
  setDefaultAgent,
  update,
  updateAll,
  updates,
  type LockFile,
} from '../packages/gitops/src/index.js';
import { writeCatalogItem, type ItemVersion } from '../packages/gitops/test/support/fixtures.js';
import {
  applyOptions,
  cleanupTempDirs,
  git,
  head,
  makeRepo,
  show,
  subjects,
  tempDir,
  writeFiles,
} from '../packages/gitops/test/support/repos.js';
import {
  expectPrototypesUnchanged,
  ownValueAt,
  PROTOTYPE_KEY_MANIFESTS,
  snapshotPrototypes,
  type PrototypeKeyManifest,
} from './support/prototype-keys.js';

const NAMES = ['__proto__', 'constructor', 'prototype'] as const;
const CONTEXT: FeatureContext = { settings: readSettings({}), client: { resourceOperations: true } };

function uriOf(manifest: Pick<PrototypeKeyManifest, 'format'>): string {
  return manifest.format === 'toml' ? 'file:///work/proto/svc.toml' : 'file:///work/proto/svc.yaml';
}

/** Offsets on and around every occurrence of the three names: before, first character, middle, last, just after. */
function offsetsAround(text: string): number[] {
  const offsets = new Set<number>();
  for (const name of NAMES) {
    for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
      for (const offset of [at - 1, at, at + 1, at + (name.length >> 1), at + name.length - 1, at + name.length])
        offsets.add(offset);
    }
  }
  return [...offsets].filter((offset) => offset >= 0 && offset <= text.length).sort((a, b) => a - b);
}

function inside(state: DocumentState, range: Range): boolean {
  const lines = lspLines(state).lineCount;
  const ok = (p: { line: number; character: number }) => p.line >= 0 && p.line < lines && p.character >= 0;
  return ok(range.start) && ok(range.end);
}

/** Every `range`-like object in a result, and a check that no function (an inherited `constructor`) leaked into it. */
function checkResult(state: DocumentState, method: string, result: unknown): void {
  const stack: unknown[] = [result];
  while (stack.length > 0) {
    const value = stack.pop();
    expect(typeof value, `${method} returned a function`).not.toBe('function');
    if (typeof value === 'string') expect(value, method).not.toMatch(/\[native code\]|function Object\(/);
    if (value === null || typeof value !== 'object') continue;
    const record = value as Record<string, unknown>;
    for (const key of ['range', 'selectionRange'] as const) {
      if (Object.hasOwn(record, key)) expect(inside(state, record[key] as Range), `${method} ${key}`).toBe(true);
    }
    stack.push(...Object.values(record));
  }
}

/** The parameters of each request the feature table answers (the method names are the LSP's). */
function paramsFor(method: string, state: DocumentState, offset: number): unknown[] {
  const textDocument = { uri: state.uri };
  const position = positionOf(textOf(state).toString(), offset);
  const whole = { start: { line: 0, character: 0 }, end: { line: lspLines(state).lineCount, character: 0 } };
  const diagnostics = computeDiagnostics(state);
  switch (method) {
    case 'textDocument/completion':
      return [{ textDocument, position }];
    case 'textDocument/hover':
    case 'textDocument/definition':
    case 'textDocument/documentHighlight':
    case 'textDocument/prepareRename':
      return [{ textDocument, position }];
    case 'textDocument/references':
      return [
        { textDocument, position, context: { includeDeclaration: true } },
        { textDocument, position, context: { includeDeclaration: false } },
      ];
    case 'textDocument/rename':
      return [
        { textDocument, position, newName: 'renamed' },
        { textDocument, position, newName: 'constructor' },
        { textDocument, position, newName: '__proto__' },
      ];
    case 'textDocument/documentSymbol':
    case 'textDocument/foldingRange':
      return [{ textDocument }];
    case 'textDocument/codeAction':
      return [
        { textDocument, range: { start: position, end: position }, context: { diagnostics } },
        { textDocument, range: whole, context: { diagnostics, only: ['source.fixAll'] } },
        { textDocument, range: whole, context: { diagnostics, only: ['refactor'] } },
      ];
    case 'textDocument/inlayHint':
      return [
        { textDocument, range: whole },
        { textDocument, range: { start: position, end: position } },
      ];
    case 'textDocument/formatting':
      return [{ textDocument, options: { tabSize: 2, insertSpaces: true } }];
    case 'textDocument/rangeFormatting':
      return [
        { textDocument, range: whole, options: { tabSize: 2, insertSpaces: true } },
        { textDocument, range: { start: position, end: position }, options: { tabSize: 4, insertSpaces: true } },
      ];
    case 'textDocument/selectionRange':
      return [{ textDocument, positions: [position] }];
    case 'textDocument/documentLink':
    case 'textDocument/diagnostic':
      return [{ textDocument }];
    default:
      throw new Error(`no parameters for ${method}: add the new feature's request here`);
  }
}

const HANDLERS = FEATURES.flatMap((feature) => feature.handlers);

/** Runs one request through its handler as the server does; a refused rename is an answer too. */
function request(state: DocumentState, method: string, params: unknown): unknown {
  const handler = HANDLERS.find((h) => h.method === method);
  if (!handler) throw new Error(`no handler for ${method}`);
  try {
    return handler.run(state, params, CONTEXT);
  } catch (error) {
    expect(error, method).toBeInstanceOf(RenameRefused);
    return null;
  }
}

function editsOf(edit: WorkspaceEdit | null | undefined, uri: string): TextEdit[] {
  return edit?.changes?.[uri] ?? [];
}

describe('language-server features on keys named __proto__, constructor and prototype', () => {
  it('the feature table is covered: every handler has parameters here', () => {
    const methods = HANDLERS.map((h) => h.method).sort();
    expect(methods).toEqual([
      'textDocument/codeAction',
      'textDocument/completion',
      'textDocument/definition',
      'textDocument/diagnostic',
      'textDocument/documentHighlight',
      'textDocument/documentLink',
      'textDocument/documentSymbol',
      'textDocument/foldingRange',
      'textDocument/formatting',
      'textDocument/hover',
      'textDocument/inlayHint',
      'textDocument/prepareRename',
      'textDocument/rangeFormatting',
      'textDocument/references',
      'textDocument/rename',
      'textDocument/selectionRange',
    ]);
  });

  for (const manifest of PROTOTYPE_KEY_MANIFESTS) {
    it(`every request at every position on and around the names, and the pushed diagnostics (${manifest.name})`, () => {
      const before = snapshotPrototypes();
      const state = createState(uriOf(manifest), 1, manifest.text);
      expect(computeDiagnostics(state, {}, CONTEXT).filter((d) => d.severity === 1 || d.severity === 2)).toEqual([]);
      const offsets = offsetsAround(manifest.text);
      expect(offsets.length).toBeGreaterThan(40);
      let answered = 0;
      for (const handler of HANDLERS) {
        for (const offset of offsets) {
          for (const params of paramsFor(handler.method, state, offset)) {
            const result = request(state, handler.method, params);
            checkResult(state, handler.method, result);
            if (result !== null && !(Array.isArray(result) && result.length === 0)) answered++;
          }
        }
      }
      expect(answered).toBeGreaterThan(offsets.length);
      expectPrototypesUnchanged(before);
    });
  }

  // Where a name is not allowed (`__proto__` is not a slug), the diagnostic and its quick fixes go through the same handlers.
  for (const [name, format, text, line] of [
    [
      'YAML',
      'yaml',
      'svc_version: 2\ndefault_agent: main\nagents:\n  main: {}\n  __proto__:\n    connectors: [constructor]\nconnectors:\n  - slug: constructor\n    provider: mcp\n    url: https://x.example/mcp\n',
      4,
    ],
    [
      'TOML',
      'toml',
      'svc_version = 2\ndefault_agent = "main"\n[agents.main]\n[agents.__proto__]\nconnectors = ["prototype"]\n[[connectors]]\nslug = "prototype"\nprovider = "mcp"\nurl = "https://x.example/mcp"\n',
      3,
    ],
  ] as const) {
    it(`every request on a manifest that declares an agent \`__proto__\` (${name}): refused at the key, nothing polluted`, () => {
      const before = snapshotPrototypes();
      const state = createState(uriOf({ format }), 1, text);
      const diagnostics = computeDiagnostics(state, {}, CONTEXT);
      expect(diagnostics.filter((d) => d.severity === 1).map((d) => [d.code, d.range.start.line])).toEqual([
        ['invalid-key-name', line],
      ]);
      for (const handler of HANDLERS) {
        for (const offset of offsetsAround(text)) {
          for (const params of paramsFor(handler.method, state, offset))
            checkResult(state, handler.method, request(state, handler.method, params));
        }
      }
      expectPrototypesUnchanged(before);
    });
  }
});

describe('answers about the names are right', () => {
  const [v2Yaml, v2Toml] = PROTOTYPE_KEY_MANIFESTS as [
    PrototypeKeyManifest,
    PrototypeKeyManifest,
    PrototypeKeyManifest,
  ];
  const text = v2Yaml.text;
  const uri = uriOf(v2Yaml);
  /** The position `delta` characters into the `occurrence`-th `needle`. */
  const at = (needle: string, delta: number, occurrence = 0) => {
    const range = rangeOf(text, needle, occurrence);
    return { line: range.start.line, character: range.start.character + delta };
  };
  const DEFAULT_AGENT = at('default_agent: constructor', 16);

  it('hover: on the agent `constructor` (declaration and reference), and on header and filter keys named like prototypes', () => {
    const before = snapshotPrototypes();
    const state = createState(uri, 1, text);
    const agentHover =
      '**agent** `constructor` — declared on line 7, 2 references\n\n```yaml\nconstructor:\n  connectors: [prototype]\n```';
    expect(request(state, 'textDocument/hover', { position: at('  constructor:\n    connectors', 4) })).toEqual({
      contents: { kind: 'markdown', value: agentHover },
      range: rangeOf(text, 'constructor', 2),
    });
    expect(request(state, 'textDocument/hover', { position: at('    agent: constructor', 13) })).toEqual({
      contents: { kind: 'markdown', value: agentHover },
      range: rangeOf(text, 'constructor', 5),
    });
    const headers = (name: string) =>
      `**${name}**\n\nExtra HTTP headers: at most 32; names of 1–128 HTTP token characters; values of at most 2048 characters with no line breaks.`;
    expect(request(state, 'textDocument/hover', { position: at('__proto__: a', 2) })).toEqual({
      // A made-up key's title is Markdown-escaped: `__proto__` bare would read as emphasis.
      contents: { kind: 'markdown', value: headers('\\_\\_proto\\_\\_') },
      range: rangeOf(text, '__proto__', 2),
    });
    expect(request(state, 'textDocument/hover', { position: at('constructor: b', 2) })).toEqual({
      contents: { kind: 'markdown', value: headers('constructor') },
      range: rangeOf(text, 'constructor', 3),
    });
    expect(request(state, 'textDocument/hover', { position: at('constructor: y', 2) })).toEqual({
      contents: {
        kind: 'markdown',
        value: '**constructor**\n\nOnly events whose fields match: a map of string to string.',
      },
      range: rangeOf(text, 'constructor', 6),
    });
    expectPrototypesUnchanged(before);
  });

  it('definition, references and highlights of agent `constructor`; completion offers both agents', () => {
    const state = createState(uri, 1, text);
    // Occurrences of `constructor`: 0 the comment, 1 default_agent, 2 the agents key, 3 a header, 4 the trigger's slug, 5 its agent.
    expect(rangeOf(text, 'constructor', 1)).toEqual({
      start: { line: 2, character: 15 },
      end: { line: 2, character: 26 },
    });
    expect(request(state, 'textDocument/definition', { position: DEFAULT_AGENT })).toEqual({
      uri,
      range: rangeOf(text, 'constructor', 2),
    });
    expect(
      request(state, 'textDocument/references', { position: DEFAULT_AGENT, context: { includeDeclaration: true } }),
    ).toEqual(
      [rangeOf(text, 'constructor', 1), rangeOf(text, 'constructor', 2), rangeOf(text, 'constructor', 5)].map(
        (range) => ({ uri, range }),
      ),
    );
    expect(
      (request(state, 'textDocument/documentHighlight', { position: DEFAULT_AGENT }) as { range: Range }[]).map(
        (h) => h.range,
      ),
    ).toEqual([rangeOf(text, 'constructor', 1), rangeOf(text, 'constructor', 2), rangeOf(text, 'constructor', 5)]);
    const items = (
      request(state, 'textDocument/completion', { position: at('    agent: constructor', 11) }) as {
        items: { label: string }[];
      }
    ).items;
    expect(items.map((item) => item.label)).toEqual(['constructor', 'prototype']);
  });

  it('rename: agent `constructor` and connector `prototype` with every reference; renaming to `constructor` is refused (exists), to `__proto__` refused (not a slug)', () => {
    const before = snapshotPrototypes();
    const state = createState(uri, 1, text);
    expect(request(state, 'textDocument/prepareRename', { position: DEFAULT_AGENT })).toEqual({
      range: rangeOf(text, 'constructor', 1),
      placeholder: 'constructor',
    });
    const renamed = applyEdits(
      text,
      editsOf(
        request(state, 'textDocument/rename', { position: DEFAULT_AGENT, newName: 'builder' }) as WorkspaceEdit,
        uri,
      ),
    );
    expect(renamed).toBe(
      text
        .replace('default_agent: constructor', 'default_agent: builder')
        .replace('  constructor:\n    connectors', '  builder:\n    connectors')
        .replace('agent: constructor\n    filter', 'agent: builder\n    filter'),
    );
    expect(validateManifest(renamed).ok).toBe(true);
    const connector = at('slug: prototype', 7);
    const connectorRenamed = applyEdits(
      text,
      editsOf(request(state, 'textDocument/rename', { position: connector, newName: 'api' }) as WorkspaceEdit, uri),
    );
    expect(connectorRenamed).toBe(
      text.replace('connectors: [prototype]', 'connectors: [api]').replace('slug: prototype', 'slug: api'),
    );
    expect(() =>
      HANDLERS.find((h) => h.method === 'textDocument/rename')!.run(
        state,
        { position: at('  prototype:\n    enabled', 4), newName: 'constructor' },
        CONTEXT,
      ),
    ).toThrow(new RenameRefused("a agent named 'constructor' already exists"));
    expect(() =>
      HANDLERS.find((h) => h.method === 'textDocument/rename')!.run(
        state,
        { position: DEFAULT_AGENT, newName: '__proto__' },
        CONTEXT,
      ),
    ).toThrow(RenameRefused);
    expectPrototypesUnchanged(before);
  });

  it('document symbols and folding show the keys as written', () => {
    const state = createState(uri, 1, text);
    const symbols = request(state, 'textDocument/documentSymbol', {}) as {
      name: string;
      children?: { name: string }[];
    }[];
    expect(symbols.map((s) => [s.name, (s.children ?? []).map((c) => c.name)])).toEqual([
      ['svc_version', []],
      ['default_agent', []],
      ['__proto__', ['polluted']],
      ['agents', ['constructor', 'prototype']],
      ['connectors', ['prototype']],
      ['triggers', ['constructor']],
      ['apps', ['constructor']],
    ]);
    const folds = (request(state, 'textDocument/foldingRange', {}) as { startLine: number }[]).map((f) => f.startLine);
    expect(folds).toContain(rangeOf(text, '__proto__:\n').start.line);
  });

  it('fix-all, convert and inlay hints through the code-action and inlay-hint handlers', () => {
    const before = snapshotPrototypes();
    const unusual = text
      .replace('svc_version: 2', 'svc_version: 2.0')
      .replace('    prompt: Run the report.\n', '    prompt: Run the report.\n    enabled: "Yes"\n');
    const state = createState(uri, 1, unusual);
    const [fixAll] = request(state, 'textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll'] },
    }) as CodeAction[];
    expect(applyEdits(unusual, editsOf(fixAll!.edit, uri))).toBe(unusual.replace('svc_version: 2.0', 'svc_version: 2'));
    const hints = request(state, 'textDocument/inlayHint', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } },
    }) as { position: { line: number }; label: string }[];
    expect(hints.map((h) => [h.position.line, h.label])).toEqual([
      [1, '→ 2'],
      [rangeOf(unusual, 'enabled: "Yes"').start.line, '→ true'],
    ]);

    const toml = createState(uriOf(v2Toml), 1, v2Toml.text);
    const [convert] = request(toml, 'textDocument/codeAction', {
      textDocument: { uri: toml.uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['refactor'] },
    }) as CodeAction[];
    expect(convert!.title).toBe('Convert to svc.yaml');
    const created = (convert!.edit!.documentChanges![1] as { edits: TextEdit[] }).edits[0]!.newText;
    const yaml = validateManifest(created);
    expect(yaml.ok).toBe(true);
    expect(yaml.manifest).toEqual(validateManifest(v2Yaml.text).manifest);
    expect(created).toContain('    headers: {__proto__: a, constructor: b, prototype: c}\n');
    expectPrototypesUnchanged(before);
  });
});

/** A version 1 manifest that migrates: agents `constructor` and `prototype`, a connector's headers and open `project` keys named like prototypes. */
const V1_MIGRATABLE = `svc_version: 1
agents:
  - name: constructor   # the builder
    connectors: [prototype]
  - name: prototype
connectors:
  - slug: prototype
    provider: http
    base_url: https://api.example.com
    headers:
      __proto__: a
      constructor: b
project:
  constructor:
    prototype:
      polluted: true
`;

describe('fix, migrate and convert on the names', () => {
  const [v2Yaml, v2Toml] = PROTOTYPE_KEY_MANIFESTS as [
    PrototypeKeyManifest,
    PrototypeKeyManifest,
    PrototypeKeyManifest,
  ];

  it('fixManifest rewrites what it fixes and keeps every key named like a prototype', () => {
    const before = snapshotPrototypes();
    const withScope = (workspace: string) =>
      v2Yaml.text.replace(
        '    connectors: [prototype]\n',
        `    connectors: [prototype]\n    workspace: ${workspace}\n`,
      );
    const fixed = fixManifest(ManifestDocument.parse(withScope('reed').replace('svc_version: 2', 'svc_version: 2.0')));
    expect(fixed.fixes.map((f) => [f.code, f.path])).toEqual([
      ['svc-version-format', '/svc_version'],
      ['invalid-value', '/agents/constructor/workspace'],
    ]);
    expect(fixed.text).toBe(withScope('read'));
    expect(fixed.diagnostics).toEqual([]);
    for (const path of v2Yaml.paths) expect(ownValueAt(fixed.document.value, path).found, path.join('/')).toBe(true);
    expectPrototypesUnchanged(before);
  });

  it('migrateManifest keys the agents by name, `constructor` included', () => {
    const before = snapshotPrototypes();
    const migrated = migrateManifest(ManifestDocument.parse(V1_MIGRATABLE), { to: 2, defaultAgent: 'constructor' });
    const expected =
      'svc_version: 2\ndefault_agent: constructor\nagents:\n  constructor:   # the builder\n    connectors: [prototype]\n  prototype: {}\n' +
      V1_MIGRATABLE.slice(V1_MIGRATABLE.indexOf('connectors:\n  - slug'));
    expect(migrated).toEqual({ ok: true, changed: true, text: expected, diagnostics: [] });
    expect(validateManifest(expected).ok).toBe(true);
    // The editor's action, one per agent that could be the default.
    const state = createState('file:///work/proto/svc.yaml', 1, V1_MIGRATABLE);
    const whole = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const actions = request(state, 'textDocument/codeAction', {
      textDocument: { uri: state.uri },
      range: whole,
      context: { diagnostics: [], only: ['refactor'] },
    }) as CodeAction[];
    expect(actions.map((a) => a.title)).toEqual([
      "Migrate to svc_version 2 (default agent 'constructor')",
      "Migrate to svc_version 2 (default agent 'prototype')",
    ]);
    expect(applyEdits(V1_MIGRATABLE, editsOf(actions[0]!.edit, state.uri))).toBe(expected);
    expectPrototypesUnchanged(before);
  });

  it('tomlToYaml converts the TOML manifest to YAML meaning the same', () => {
    const before = snapshotPrototypes();
    const converted = tomlToYaml(v2Toml.text);
    expect(converted.text).toContain('\n__proto__:\n  polluted: true\n');
    expect(converted.text).toContain('\n    headers: {__proto__: a, constructor: b, prototype: c}\n');
    expect(converted.text).toContain('\n    filter:\n      __proto__: x\n      constructor: "y"\n');
    const yaml = validateManifest(converted.text);
    expect(yaml.diagnostics).toEqual([]);
    expect(yaml.manifest).toEqual(validateManifest(v2Yaml.text).manifest);
    for (const path of v2Toml.paths) expect(ownValueAt(yaml.manifest, path).found, path.join('/')).toBe(true);
    expectPrototypesUnchanged(before);
  });
});

describe('applier operations on the names (real repositories and a folder catalog)', () => {
  afterAll(cleanupTempDirs);
  const [v2Yaml, v2Toml, v1Yaml] = PROTOTYPE_KEY_MANIFESTS as [
    PrototypeKeyManifest,
    PrototypeKeyManifest,
    PrototypeKeyManifest,
  ];
  const manifestAt = (repo: string, path: string) => show(repo, 'main', path).toString('utf8');
  const refusal = async (promise: Promise<unknown>): Promise<RefusedError> => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RefusedError);
    return error as RefusedError;
  };

  it('setDefaultAgent and setAgentScope on agents `constructor` and `prototype` (YAML, TOML, version 1)', async () => {
    const before = snapshotPrototypes();
    const options = await applyOptions();
    const yaml = makeRepo({ 'svc.yaml': v2Yaml.text }, { bare: true });
    const toDefault = await setDefaultAgent(yaml, 'prototype', options);
    expect(toDefault).toMatchObject({ status: 'committed', info: { agent: 'prototype', manifest: 'svc.yaml' } });
    expect(manifestAt(yaml, 'svc.yaml')).toBe(
      v2Yaml.text.replace('default_agent: constructor', 'default_agent: prototype'),
    );
    await setDefaultAgent(yaml, 'constructor', options);
    expect(manifestAt(yaml, 'svc.yaml')).toBe(v2Yaml.text);
    expect(subjects(yaml)).toHaveLength(3);
    const scoped = await setAgentScope(yaml, 'constructor', { secrets: ['API_KEY'], connectors: 'none' }, options);
    expect(scoped.status).toBe('committed');
    expect(manifestAt(yaml, 'svc.yaml')).toBe(
      v2Yaml.text.replace(
        '  constructor:\n    connectors: [prototype]\n',
        '  constructor:\n    connectors: none\n    secrets: [API_KEY]\n',
      ),
    );

    const toml = makeRepo({ 'svc.toml': v2Toml.text }, { bare: true });
    await setDefaultAgent(toml, 'prototype', options);
    expect(manifestAt(toml, 'svc.toml')).toBe(
      v2Toml.text.replace('default_agent = "constructor"', 'default_agent = "prototype"'),
    );
    await setAgentScope(toml, 'constructor', { secrets: 'all' }, options);
    expect(manifestAt(toml, 'svc.toml')).toBe(
      v2Toml.text
        .replace('default_agent = "constructor"', 'default_agent = "prototype"')
        .replace('connectors = ["prototype"]\n', 'connectors = ["prototype"]\nsecrets = "all"\n'),
    );

    const v1 = makeRepo({ 'svc.yaml': v1Yaml.text }, { bare: true });
    await setAgentScope(v1, 'constructor', { connectors: ['github'] }, options);
    expect(manifestAt(v1, 'svc.yaml')).toBe(
      v1Yaml.text.replace('      prototype: c\n', '      prototype: c\n    connectors: [github]\n'),
    );
    expect(validateManifest(manifestAt(v1, 'svc.yaml')).ok).toBe(true);

    // `constructor` is found only when declared; `__proto__` is not an agent name at all.
    const plain = makeRepo(
      { 'svc.yaml': 'svc_version: 2\ndefault_agent: main\nagents:\n  main: {}\n' },
      { bare: true },
    );
    const start = head(plain);
    expect(await refusal(setDefaultAgent(plain, 'constructor', options))).toMatchObject({
      code: 'unknown-agent',
      message: "agent 'constructor' is not declared in svc.yaml (declared: main)",
    });
    expect(await refusal(setAgentScope(plain, 'constructor', { secrets: 'none' }, options))).toMatchObject({
      code: 'unknown-agent',
    });
    expect((await refusal(setDefaultAgent(yaml, '__proto__', options))).code).toBe('invalid-name');
    expect(head(plain)).toBe(start);
    expectPrototypesUnchanged(before);
  });

  /**
   * An item named `constructor`: files named like prototypes (version 1.1.0 adds one called
   * `constructor`), and manifest entries using the names (parsed from JSON, so `__proto__` is
   * an own key, as a catalog's item.json gives it).
   */
  const item = (version: string, header: string, extra: Record<string, string> = {}): ItemVersion => ({
    version,
    files: Object.fromEntries([
      ['__proto__', 'not a prototype\n'],
      ['prototype/constructor.md', `# constructor ${version}\n`],
      ...Object.entries(extra),
    ]),
    manifest: JSON.parse(
      `{"agents":{"constructor":{"connectors":["prototype"]}},` +
        `"connectors":[{"slug":"prototype","provider":"http","base_url":"https://api.example.com","headers":{"__proto__":"${header}","constructor":"b","prototype":"c"}}],` +
        `"triggers":[{"slug":"constructor","type":"cron","cron":"0 * * * *","prompt":"Run the report.","agent":"constructor","filter":{"__proto__":"x","constructor":"y"}}]}`,
    ) as Record<string, unknown>,
  });
  const MANIFEST = 'svc_version: 2\ndefault_agent: main\nagents:\n  main: {}\n';
  const installedManifest = (header: string) =>
    `${MANIFEST}  constructor:\n    connectors: [prototype]\nconnectors:\n  - slug: prototype\n    provider: http\n    base_url: "https://api.example.com"\n` +
    `    headers:\n      __proto__: ${header}\n      constructor: b\n      prototype: c\ntriggers:\n  - slug: constructor\n    type: cron\n    cron: "0 * * * *"\n` +
    `    prompt: "Run the report."\n    agent: constructor\n    filter:\n      __proto__: x\n      constructor: "y"\n`;
  const lockAt = (repo: string) => JSON.parse(manifestAt(repo, LOCK_PATH)) as LockFile;
  const blob = (repo: string, path: string) => git(repo, ['rev-parse', `main:${path}`]).trim();
  const tree = (repo: string) => git(repo, ['ls-tree', '-r', '--name-only', 'main']).trim().split('\n');

  it('list, install, updates, update, updateAll and remove of an item named `constructor`', async () => {
    const before = snapshotPrototypes();
    const repo = makeRepo({ 'svc.yaml': MANIFEST }, { bare: true });
    const catalog = tempDir();
    writeCatalogItem(catalog, 'constructor', item('1.0.0', 'a'));
    const options = { ...(await applyOptions()), catalog };
    const start = head(repo);

    // Nothing installed: no inherited `constructor` or `prototype` is found in the (absent) lock.
    expect(await list(repo)).toEqual([]);
    expect(await updates(repo, { catalog })).toEqual([]);
    for (const name of ['constructor', 'prototype']) {
      expect((await refusal(update(repo, name, options))).code).toBe('not-installed');
      expect((await refusal(remove(repo, name, options))).code).toBe('not-installed');
    }
    expect(head(repo)).toBe(start);

    // install: the file `__proto__` is placed and owned like any other; the entries keep their keys.
    expect(await install(repo, 'constructor', options)).toMatchObject({
      status: 'committed',
      info: { name: 'constructor', version: '1.0.0', action: 'installed' },
    });
    expect(manifestAt(repo, 'svc.yaml')).toBe(installedManifest('a'));
    expect(validateManifest(manifestAt(repo, 'svc.yaml')).ok).toBe(true);
    expect(tree(repo)).toEqual(['__proto__', 'prototype/constructor.md', LOCK_PATH, 'svc.yaml'].sort());
    expect(manifestAt(repo, '__proto__')).toBe('not a prototype\n');
    const lock = lockAt(repo).items['constructor']!;
    expect(Object.entries(lock.files)).toEqual([
      ['__proto__', blob(repo, '__proto__')],
      ['prototype/constructor.md', blob(repo, 'prototype/constructor.md')],
    ]);
    expect(lock.manifest.map((e) => [e.section, e.name])).toEqual([
      ['agents', 'constructor'],
      ['connectors', 'prototype'],
      ['triggers', 'constructor'],
    ]);
    expect(Object.entries((lock.manifest[1]!.value as { headers: object }).headers)).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
      ['prototype', 'c'],
    ]);
    expect(await list(repo)).toEqual([
      {
        name: 'constructor',
        version: '1.0.0',
        id: 'constructor',
        source: lock.source,
        files: ['__proto__', 'prototype/constructor.md'],
      },
    ]);

    // update: upstream changes the `__proto__` header and adds a file called `constructor` (no base: new, not inherited).
    writeCatalogItem(catalog, 'constructor', item('1.1.0', 'changed', { constructor: 'a new file\n' }));
    expect(await updates(repo, { catalog })).toEqual([
      { name: 'constructor', id: 'constructor', installed: '1.0.0', available: '1.1.0' },
    ]);
    expect(await update(repo, 'constructor', options)).toMatchObject({
      status: 'committed',
      info: { from: '1.0.0', to: '1.1.0', action: 'updated', kept: [], merged: [] },
    });
    expect(manifestAt(repo, 'svc.yaml')).toBe(installedManifest('changed'));
    expect(manifestAt(repo, 'constructor')).toBe('a new file\n');
    expect(manifestAt(repo, 'prototype/constructor.md')).toBe('# constructor 1.1.0\n');
    expect(Object.keys(lockAt(repo).items['constructor']!.files)).toEqual([
      '__proto__',
      'constructor',
      'prototype/constructor.md',
    ]);
    const updatedHead = head(repo);
    expect(await updateAll(repo, options)).toMatchObject({ status: 'unchanged', info: { updated: [], refused: [] } });
    expect(head(repo)).toBe(updatedHead);

    // A local edit of the `__proto__` header counts as one: remove refuses it unless forced.
    const clone = `${tempDir()}/clone`;
    git(tempDir(), ['clone', '-q', repo, clone]);
    writeFiles(clone, { 'svc.yaml': installedManifest('local') });
    git(clone, ['commit', '-q', '-am', 'local: header']);
    git(clone, ['push', '-q', 'origin', 'main']);
    const edited = head(repo);
    const refused = await refusal(remove(repo, 'constructor', options));
    expect(refused.code).toBe('locally-modified');
    expect(refused.message).toContain("connector 'prototype'");
    expect(head(repo)).toBe(edited);

    // remove --force: every file it placed goes, `__proto__` and `constructor` included, and the entries and the lock with them.
    expect(await remove(repo, 'constructor', { ...options, force: true })).toMatchObject({
      status: 'committed',
      info: {
        name: 'constructor',
        version: '1.1.0',
        removedFiles: ['__proto__', 'constructor', 'prototype/constructor.md'],
      },
    });
    expect(tree(repo)).toEqual(['svc.yaml']);
    expect(manifestAt(repo, 'svc.yaml')).toBe(MANIFEST);
    expect(await list(repo)).toEqual([]);
    expectPrototypesUnchanged(before);
  });
});
