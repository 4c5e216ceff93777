/**
 * Type test: the generated TypeScript types (`packages/schema/src/generated/types.ts`,
 * made by json-schema-to-typescript) accept every valid fixture and reject wrong shapes.
 *
 * Each parsed fixture becomes an in-memory module `export const manifest: Manifest = <json>;`
 * next to types.ts; one `ts.createProgram` compiles them all (strict, no emit). An object
 * literal assigned to a declared type gets excess-property checks, so closed objects
 * (v2 agents, templates, …) are checked as closed.
 */
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  REPO_ROOT,
  declaredVersion,
  loadExamples,
  loadFixtures,
  parseFixture,
  type Fixture,
} from './support/fixtures.js';

const TYPES_FILE = join(REPO_ROOT, 'packages/schema/src/generated/types.ts');
const VIRTUAL_DIR = join(dirname(TYPES_FILE), '__typecheck__');

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts'],
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: false,
  noEmit: true,
  skipLibCheck: true,
  types: [],
};

interface Case {
  name: string;
  source: string;
}

/**
 * A module assigning the value to `Manifest`; for a document of a known version also to
 * `ManifestV1`/`ManifestV2`, whose errors name the real culprit (errors against the union
 * are elaborated against whichever member TypeScript finds closest).
 */
function moduleFor(value: unknown): string {
  const literal = JSON.stringify(value, null, 2);
  const version = declaredVersion(value);
  const exact = version ? `export const asVersion${version}: ManifestV${version} = ${literal};\n` : '';
  return `import type { Manifest, ManifestV1, ManifestV2 } from '../types';\nexport const manifest: Manifest = ${literal};\n${exact}`;
}

/** Compiles in-memory modules against the generated types; returns each module's diagnostics. */
function compile(cases: Case[]): Map<string, ts.Diagnostic[]> {
  const virtual = new Map(cases.map((c, index) => [join(VIRTUAL_DIR, `case${index}.ts`), c]));
  const host = ts.createCompilerHost(OPTIONS, true);
  // The host's own methods, wrapped below and called with the host as `this`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const entry = virtual.get(fileName);
    if (entry) return ts.createSourceFile(fileName, entry.source, languageVersion, true);
    return getSourceFile.call(host, fileName, languageVersion, onError, shouldCreate);
  };
  host.fileExists = (fileName) => virtual.has(fileName) || fileExists.call(host, fileName);
  host.readFile = (fileName) => virtual.get(fileName)?.source ?? readFile.call(host, fileName);
  const program = ts.createProgram([...virtual.keys()], OPTIONS, host);
  const global = [...program.getGlobalDiagnostics(), ...program.getOptionsDiagnostics()];
  if (global.length) throw new Error(`compiler setup failed:\n${format(global)}`);
  const types = program.getSourceFile(TYPES_FILE);
  if (!types) throw new Error(`${TYPES_FILE} was not part of the program (import did not resolve)`);
  const typeErrors = program.getSemanticDiagnostics(types);
  if (typeErrors.length) throw new Error(`generated types do not compile:\n${format(typeErrors)}`);
  const result = new Map<string, ts.Diagnostic[]>();
  for (const [fileName, entry] of virtual) {
    const sourceFile = program.getSourceFile(fileName)!;
    result.set(entry.name, [
      ...program.getSyntacticDiagnostics(sourceFile),
      ...program.getSemanticDiagnostics(sourceFile),
    ]);
  }
  return result;
}

function format(diagnostics: readonly ts.Diagnostic[]): string {
  return diagnostics
    .map((d) => {
      const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
      return `TS${d.code}${where ? ` (${where.line + 1}:${where.character + 1})` : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    })
    .join('\n');
}

/** Every fixture under a valid/ folder, plus examples/. */
const validFixtures: Fixture[] = [...loadFixtures().filter((f) => f.folder === 'valid'), ...loadExamples()];

/**
 * Wrong shapes, taken from invalid fixtures: the diagnostic code and a fragment of the
 * message the compiler must give.
 */
const WRONG_SHAPES: { fixture: string; code: number; message: RegExp }[] = [
  // v2 `agents` as an array instead of a map.
  {
    fixture: 'fixtures/wrong-type/invalid/v2-agents-array.yaml',
    code: 2322,
    message: /is not assignable to type '\{ \[k: string\]: AgentV2; \}'/,
  },
  // svc_version 3: neither shape.
  {
    fixture: 'fixtures/svc-version/invalid/three.yaml',
    code: 2322,
    message: /Type '3' is not assignable to type '1 \| 2'|Type '3' is not assignable to type '2'/,
  },
  // An unknown key in a (closed) v2 agent.
  {
    fixture: 'fixtures/unknown-key/invalid/v2-agent-extra-key.yaml',
    code: 2322,
    message: /'"model"' does not exist in type 'AgentV2'/,
  },
  // v2 `credential` other than `shared`.
  {
    fixture: 'fixtures/invalid-value/invalid/v2-credential-personal.yaml',
    code: 2322,
    message: /Type '"personal"' is not assignable to type '"shared"'/,
  },
  // v2 without `default_agent`.
  {
    fixture: 'fixtures/missing-key/invalid/v2-no-default-agent.yaml',
    code: 2322,
    message: /Property 'default_agent' is missing/,
  },
  // A trigger type outside the enum.
  {
    fixture: 'fixtures/invalid-value/invalid/v2-trigger-type.toml',
    code: 2322,
    message: /Type '"interval"' is not assignable to type '"cron" \| "webhook" \| "monitor"'/,
  },
  // `apps` in version 1 is `never`.
  {
    fixture: 'fixtures/forbidden-key/invalid/v1-apps.yaml',
    code: 2322,
    message: /is not assignable to type 'undefined'|is not assignable to type 'never'/,
  },
];

let results: Map<string, ts.Diagnostic[]>;

beforeAll(() => {
  const all = loadFixtures();
  const byName = new Map(all.map((f) => [f.name, f]));
  const cases: Case[] = validFixtures.map((f) => ({ name: f.name, source: moduleFor(parseFixture(f)) }));
  for (const wrong of WRONG_SHAPES) {
    const fixture = byName.get(wrong.fixture);
    if (!fixture) throw new Error(`missing fixture ${wrong.fixture}`);
    cases.push({ name: `wrong:${wrong.fixture}`, source: moduleFor(parseFixture(fixture)) });
  }
  results = compile(cases);
}, 120_000);

describe('generated types accept every valid fixture', () => {
  it('covers the realistic manifests and the example', () => {
    const names = validFixtures.map((f) => f.name);
    expect(names.filter((n) => n.startsWith('fixtures/realistic/')).length).toBeGreaterThanOrEqual(4);
    expect(names).toContain('examples/svc.yaml');
  });

  for (const fixture of validFixtures) {
    it(`${fixture.name} compiles as Manifest`, () => {
      expect(format(results.get(fixture.name)!)).toBe('');
    });
  }
});

describe('generated types reject wrong shapes', () => {
  for (const wrong of WRONG_SHAPES) {
    it(`${wrong.fixture} → TS${wrong.code}`, () => {
      const diagnostics = results.get(`wrong:${wrong.fixture}`)!;
      const text = format(diagnostics);
      expect(diagnostics.length, 'expected a compile error').toBeGreaterThan(0);
      expect(
        diagnostics.map((d) => d.code),
        text,
      ).toContain(wrong.code);
      expect(text).toMatch(wrong.message);
    });
  }
});
