/**
 * Python's `tomllib` as a reference reader for TOML: `tomllib_values.py` reads a batch of texts in
 * one process and encodes each value exactly (see there).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TOMLLIB_SCRIPT = fileURLToPath(new URL('./tomllib_values.py', import.meta.url));

/** A reference reader's answer for one text: its value (tomllib's exact encoding), or why it refuses it. */
export type Reference = { value: unknown } | { error: string };

/** tomllib's reading of each text, one Python process for the batch. */
export function tomlReferences(texts: readonly string[]): Reference[] {
  const input = texts.map((text) => JSON.stringify(text)).join('\n') + '\n';
  const result = spawnSync('python3', [TOMLLIB_SCRIPT], { input, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  if (result.error || result.status !== 0)
    throw new Error(`python3 ${TOMLLIB_SCRIPT} failed: ${result.error?.message ?? result.stderr}`);
  const lines = result.stdout.split('\n').filter((line) => line !== '');
  if (lines.length !== texts.length) throw new Error(`tomllib answered ${lines.length} texts of ${texts.length}`);
  return lines.map((line) => JSON.parse(line) as Reference);
}
