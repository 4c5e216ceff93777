/**
 * The formatter on a 10,000-line manifest (issue #37: at most 100 ms): `formatManifest` on the
 * generated manifest re-indented to four spaces, with trailing spaces added (so every nested line
 * is re-indented), in YAML and in its TOML rendering, warm, against the same text's parse alone
 * (`ManifestDocument.parse`, which the formatter does twice: before and to check its result).
 */
import { formatManifest, ManifestDocument } from '@svc-manifest/validator';
import { stat, type Stat } from './lsp-harness.ts';

export interface FormatBenchRow {
  manifest: string;
  format: 'yaml' | 'toml';
  lines: number;
  /** Whether the formatter changed the text (it must, or the row measures nothing). */
  changed: boolean;
  format_ms: Stat;
  parse_ms: Stat;
  /** Median of the per-run ratios format/parse. */
  ratio: Stat;
}

const LIMITS = { maxBytes: 64 * 1024 * 1024 };

/** The manifest as a formatter finds it: YAML re-indented to four spaces (by the formatter itself), TOML indented; spaces after every line. */
export function messUp(text: string, format: 'yaml' | 'toml'): string {
  const indented =
    format === 'toml'
      ? text.replace(/^(?=[a-z_"[])/gm, '  ').replace(/ = /g, '   =  ')
      : formatManifest(text, { format, indentWidth: 4, limits: LIMITS }).text;
  return indented.replace(/^([a-z_ -]+:(?: [a-z0-9_-]+)?)$/gm, '$1   ');
}

export function benchFormat(
  manifest: { name: string; text: string; format?: 'yaml' | 'toml' },
  runs: number,
): FormatBenchRow {
  const format = manifest.format ?? 'yaml';
  const text = messUp(manifest.text, format);
  const once = (): { formatMs: number; parseMs: number; changed: boolean } => {
    let start = performance.now();
    ManifestDocument.parse(text, { format, limits: LIMITS });
    const parseMs = performance.now() - start;
    start = performance.now();
    const result = formatManifest(text, { format, limits: LIMITS });
    return { formatMs: performance.now() - start, parseMs, changed: result.changed };
  };
  const first = once();
  for (let i = 0; i < 2; i++) once(); // warm-up
  const formatMs: number[] = [];
  const parseMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const run = once();
    formatMs.push(run.formatMs);
    parseMs.push(run.parseMs);
  }
  return {
    manifest: manifest.name,
    format,
    lines: text.split('\n').length,
    changed: first.changed,
    format_ms: stat(formatMs),
    parse_ms: stat(parseMs),
    ratio: stat(formatMs.map((ms, i) => ms / parseMs[i]!)),
  };
}
