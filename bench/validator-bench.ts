/**
 * The validator against the floor: the same text through `yaml` parseDocument + toJS and a
 * compiled ajv validate of the published v2 schema.
 *
 * - cold: a fresh process per measurement (bench/cold-child.mjs), modules loaded before the
 *   clock starts; the first whole-document check of the process is timed. Ours and the floor
 *   alternate, paired run by run.
 * - fresh document (in-process): the modules and JIT are warm, but every iteration parses a
 *   new document (no chunk or result cache can help). Paired, alternating order.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as YAML from 'yaml';
import { ManifestDocument, validateDocument } from '@svc-manifest/validator';
import { stat, type Stat } from './lsp-harness.ts';
import { ROOT, SCHEMA_V2 } from './servers.ts';

const require = createRequire(import.meta.url);

export interface PairedResult {
  ours: Stat;
  floor: Stat;
  /** Median of the per-pair ratios ours/floor. */
  ratio: Stat;
}

export interface ValidatorResult {
  manifest: string;
  lines: number;
  bytes: number;
  cold: PairedResult;
  freshDocument: PairedResult;
  ourDiagnostics: number;
  floorErrors: number;
}

function paired(ours: number[], floor: number[]): PairedResult {
  return { ours: stat(ours), floor: stat(floor), ratio: stat(ours.map((o, i) => o / floor[i]!)) };
}

function coldOnce(mode: 'ours' | 'floor', file: string): number {
  const out = execFileSync(process.execPath, [join(ROOT, 'bench', 'cold-child.mjs'), mode, file, SCHEMA_V2], {
    encoding: 'utf8',
  });
  return (JSON.parse(out) as { ms: number }).ms;
}

let floorValidate: ((value: unknown) => boolean) & { errors?: unknown[] | null };
function floor(text: string): number {
  if (!floorValidate) {
    const Ajv = require('ajv').default;
    floorValidate = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(SCHEMA_V2, 'utf8')));
  }
  const doc = YAML.parseDocument(text);
  floorValidate(doc.toJS());
  return doc.errors.length + (floorValidate.errors?.length ?? 0);
}

function ours(text: string): number {
  return validateDocument(ManifestDocument.parse(text, { format: 'yaml', limits: { maxBytes: 64 * 1024 * 1024 } }))
    .diagnostics.length;
}

export function benchValidator(
  manifest: { name: string; lines: number; bytes: number; text: string },
  file: string,
  reps: { cold: number; warm: number },
): ValidatorResult {
  const coldOurs: number[] = [];
  const coldFloor: number[] = [];
  for (let i = 0; i < reps.cold; i++) {
    if (i % 2 === 0) {
      coldOurs.push(coldOnce('ours', file));
      coldFloor.push(coldOnce('floor', file));
    } else {
      coldFloor.push(coldOnce('floor', file));
      coldOurs.push(coldOnce('ours', file));
    }
  }
  // Warm-up, then paired fresh-document runs.
  const ourDiagnostics = ours(manifest.text);
  const floorErrors = floor(manifest.text);
  ours(manifest.text);
  floor(manifest.text);
  const warmOurs: number[] = [];
  const warmFloor: number[] = [];
  const time = (f: () => unknown) => {
    const t = performance.now();
    f();
    return performance.now() - t;
  };
  for (let i = 0; i < reps.warm; i++) {
    if (i % 2 === 0) {
      warmOurs.push(time(() => ours(manifest.text)));
      warmFloor.push(time(() => floor(manifest.text)));
    } else {
      warmFloor.push(time(() => floor(manifest.text)));
      warmOurs.push(time(() => ours(manifest.text)));
    }
  }
  return {
    manifest: manifest.name,
    lines: manifest.lines,
    bytes: manifest.bytes,
    cold: paired(coldOurs, coldFloor),
    freshDocument: paired(warmOurs, warmFloor),
    ourDiagnostics,
    floorErrors,
  };
}
