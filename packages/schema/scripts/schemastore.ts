/**
 * Our entry for SchemaStore's catalog (src/api/json/catalog.json there) and the positive and
 * negative test files SchemaStore asks a schema to ship, taken from our fixtures, laid out as in
 * SchemaStore's repository: submitting is copying `generated/schemastore/src` over theirs and
 * adding the entry to the catalog. Written by `npm run gen` (gen.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PublishedSchemas } from '../src/build.js';

/** The manifest's file names, as the platform looks for them. */
export const MANIFEST_FILE_NAMES = ['svc.yaml', 'svc.yml', 'svc.toml'] as const;

/** The name of our folder under SchemaStore's src/test and src/negative_test. */
export const SCHEMASTORE_NAME = 'svc';

export interface CatalogEntry {
  name: string;
  description: string;
  fileMatch: string[];
  url: string;
  versions: Record<string, string>;
}

export function catalogEntry(urls: PublishedSchemas['urls']): CatalogEntry {
  return {
    name: 'svc manifest',
    description: 'svc project manifest (svc.yaml, svc.toml): agents, triggers, connectors, sandbox templates and apps',
    fileMatch: [...MANIFEST_FILE_NAMES],
    url: urls.combined,
    versions: { '1': urls.v1, '2': urls.v2 },
  };
}

export interface TestFile {
  /** Relative to generated/schemastore/, e.g. `src/test/svc/trigger-cron-schedule-v2-schedule.yaml`. */
  path: string;
  text: string;
}

const VERDICT_LINE = /^#\s*verdict:\s*(valid|invalid|unparseable)\b/m;

/**
 * The fixtures whose verdict holds for any conforming YAML or TOML parser and JSON Schema validator:
 * valid ones become positive tests, schema-invalid ones negative tests. Left out: unparseable
 * files (nothing to validate), YAML merge keys (`<<`, which YAML 1.2 parsers need not apply) and
 * files starting with a byte-order mark.
 */
export function schemastoreTests(fixturesDir: string, examplesDir: string): TestFile[] {
  const files: TestFile[] = [];
  const add = (folder: 'test' | 'negative_test', name: string, text: string) =>
    files.push({ path: `src/${folder}/${SCHEMASTORE_NAME}/${name}`, text });
  const portable = (text: string) => !text.startsWith('\uFEFF') && !/^\s*<<\s*:/m.test(text);
  for (const rule of readdirSync(fixturesDir, { withFileTypes: true })) {
    if (!rule.isDirectory()) continue;
    for (const folder of ['valid', 'invalid'] as const) {
      let entries: string[];
      try {
        entries = readdirSync(join(fixturesDir, rule.name, folder));
      } catch {
        continue;
      }
      for (const file of entries.sort()) {
        if (!/\.(yaml|toml)$/.test(file)) continue;
        const text = readFileSync(join(fixturesDir, rule.name, folder, file), 'utf8');
        const verdict = VERDICT_LINE.exec(text.slice(0, 4096))?.[1] ?? folder;
        if (!portable(text) || verdict === 'unparseable') continue;
        add(verdict === 'valid' ? 'test' : 'negative_test', `${rule.name}-${folder}-${file}`, text);
      }
    }
  }
  for (const file of readdirSync(examplesDir).sort()) {
    if (!/\.(yaml|toml)$/.test(file)) continue;
    const text = readFileSync(join(examplesDir, file), 'utf8');
    if (portable(text)) add('test', `example-${file}`, text);
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}
