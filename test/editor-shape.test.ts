/**
 * The published schemas are in the shape other editors read (packages/schema/src/editor-shape.ts:
 * objects' rules beside their references, `$ref` siblings copied in, `allOf`s merged, `if`s that
 * test an object, editor-only hints); the validators are compiled from the source's shape without
 * the hints (`shape: 'validation'`). Both must give every document the same verdict, with the same
 * number of errors, under ajv and under python-jsonschema (an implementation that shares no code
 * with ajv): every fixture and example, the manifests of the conformance suite's wrong-shape cases,
 * and the first item of each collection of the examples and of a small manifest per version replaced
 * by the values the rewrites touch (an empty item, `{}`, a list, a number, a string, an item with
 * only the key a rule's `if` tests).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSchemas } from '@svc-manifest/schema';
import { SCHEMA_DIR, loadExamples, loadFixtures, parseYamlFixture, type Fixture } from './support/fixtures.js';
import { wrongShapeCases } from './support/string-keys.js';

const VERDICTS_SCRIPT = join(import.meta.dirname, 'support/jsonschema_verdicts.py');
const FILES = ['svc.schema.json', 'svc.v1.schema.json', 'svc.v2.schema.json'] as const;
type Schema = Record<string, unknown>;

const work = mkdtempSync(join(tmpdir(), 'svc-editor-shape-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const published = Object.fromEntries(
  FILES.map((file) => [file, JSON.parse(readFileSync(join(SCHEMA_DIR, file), 'utf8')) as Schema]),
);
const validation = buildSchemas(undefined, { shape: 'validation' });
const validationByFile: Record<(typeof FILES)[number], Schema> = {
  'svc.schema.json': validation.combined,
  'svc.v1.schema.json': validation.v1,
  'svc.v2.schema.json': validation.v2,
};

/** A manifest per version with one item in every collection. */
const SMALL_MANIFESTS: Record<string, unknown> = {
  'small v1': {
    svc_version: 1,
    agents: [{ name: 'main' }],
    channels: [{ platform: 'chat_a' }],
    triggers: [{ slug: 't', type: 'cron', cron: '0 * * * *', prompt: 'p' }],
    connectors: [{ slug: 'c', provider: 'mcp', url: 'https://x' }],
    sandbox: { templates: [{ slug: 'base', image: 'ubuntu' }] },
  },
  'small v2': {
    svc_version: 2,
    default_agent: 'main',
    agents: { main: { enabled: true } },
    apps: { web: { type: 'static', port: 3000 } },
    triggers: [{ slug: 't', type: 'monitor', mode: 'poll', interval: '5m', run: 'x', prompt: 'p' }],
    connectors: [{ slug: 'c', provider: 'http', base_url: 'https://x' }],
    sandbox: { templates: [{ slug: 'base', dockerfile: 'Dockerfile' }] },
  },
};

/** The documents: fixtures (YAML parsed here, TOML read by Python) and manifests made from the valid ones. */
type Input = { name: string; json: unknown } | { name: string; toml: string };

function variants(name: string, value: unknown): Input[] {
  const out: Input[] = [];
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  const manifest = value as Record<string, unknown>;
  for (const [key, collection] of Object.entries(manifest)) {
    const places: [string, (item: unknown) => unknown][] = [];
    if (Array.isArray(collection)) places.push([`${key}[0]`, (item) => [item, ...collection.slice(1)]]);
    else if (collection && typeof collection === 'object') {
      const first = Object.keys(collection)[0];
      if (first !== undefined) places.push([`${key}.${first}`, (item) => ({ ...collection, [first]: item })]);
    }
    for (const [where, replace] of places) {
      for (const item of [null, {}, [], 1, 'text', { type: 'monitor' }, { provider: 'channel' }]) {
        out.push({
          name: `${name} with ${where} = ${JSON.stringify(item)}`,
          json: { ...manifest, [key]: replace(item) },
        });
      }
    }
  }
  return out;
}

function inputs(): Input[] {
  const documents: Input[] = [];
  for (const fixture of [...loadFixtures(), ...loadExamples()] as Fixture[]) {
    if (fixture.format === 'toml') {
      documents.push({ name: fixture.name, toml: fixture.file });
      continue;
    }
    let value: unknown;
    try {
      value = parseYamlFixture(fixture);
    } catch {
      continue; // unparseable: nothing to give a schema
    }
    documents.push({ name: fixture.name, json: value });
    if (fixture.folder === 'valid' && fixture.name.startsWith('examples/'))
      documents.push(...variants(fixture.name, value));
  }
  for (const [name, manifest] of Object.entries(SMALL_MANIFESTS)) documents.push(...variants(name, manifest));
  for (const shape of wrongShapeCases())
    documents.push({ name: `wrong shape v${shape.version} ${shape.pointer}`, json: JSON.parse(shape.json) });
  return documents;
}

interface Verdict {
  valid: boolean;
  count: number;
}

function python(documents: Input[], schemaFiles: string[]): { verdicts: Record<string, Verdict> }[] {
  const input = join(work, `documents-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(input, JSON.stringify(documents.map((d) => ('toml' in d ? { toml: d.toml } : { json: d.json }))));
  const result = spawnSync('python3', [VERDICTS_SCRIPT, input, ...schemaFiles], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  if (result.status !== 0)
    throw new Error(`python3-jsonschema (npm run test:setup) failed: ${result.error?.message ?? result.stderr}`);
  return JSON.parse(result.stdout) as { verdicts: Record<string, Verdict> }[];
}

const documents = inputs();

describe('the published (editor) shape and the validators’ shape give the same verdicts', () => {
  it('has documents of every kind to compare', () => {
    expect(documents.filter((d) => 'toml' in d).length).toBeGreaterThan(20);
    expect(documents.filter((d) => d.name.includes(' = null')).length).toBeGreaterThan(10);
    expect(documents.length).toBeGreaterThan(500);
  });

  it('the shapes differ where the editors need it (else this test proves nothing)', () => {
    expect(JSON.stringify(published['svc.v2.schema.json'])).not.toEqual(JSON.stringify(validation.v2));
    expect(JSON.stringify(published['svc.v2.schema.json'])).toContain('"if":{"type":"object"');
  });

  // The bound only guards against a hang (python-jsonschema over every document, six schemas).
  it('under python-jsonschema (Draft7Validator): valid and error count', { timeout: 600_000 }, () => {
    const publishedFiles = FILES.map((file) => join(SCHEMA_DIR, file));
    const validationFiles = FILES.map((file) => {
      const path = join(work, `validation-${file}`);
      writeFileSync(path, JSON.stringify(validationByFile[file]));
      return path;
    });
    const before = python(documents, validationFiles);
    const after = python(documents, publishedFiles);
    const differences: string[] = [];
    documents.forEach((document, index) => {
      FILES.forEach((file, f) => {
        const a = before[index]!.verdicts[validationFiles[f]!];
        const b = after[index]!.verdicts[publishedFiles[f]!];
        if (!a && !b) return; // a TOML file Python could not read
        if (a?.valid !== b?.valid || a?.count !== b?.count)
          differences.push(`${document.name} (${file}): ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
      });
    });
    expect(differences).toEqual([]);
  });

  it('under ajv (allErrors): valid and error count, for every document given as JSON', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const differences: string[] = [];
    for (const file of FILES) {
      const before = ajv.compile({ ...validationByFile[file], $id: `validation-${file}` });
      const after = ajv.compile({ ...published[file], $id: `published-${file}` });
      for (const document of documents) {
        if (!('json' in document)) continue;
        const a = { valid: before(document.json), count: before.errors?.length ?? 0 };
        const b = { valid: after(document.json), count: after.errors?.length ?? 0 };
        if (a.valid !== b.valid || a.count !== b.count)
          differences.push(`${document.name} (${file}): ${JSON.stringify(a)} → ${JSON.stringify(b)}`);
      }
    }
    expect(differences).toEqual([]);
  });
});
