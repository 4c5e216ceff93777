/**
 * The paths a manifest names on disk: `agent_runtime.config_dir`, a sandbox template's
 * `dockerfile`, and an app's `path`, `root`, `dockerfile` (sources) and `output_dir` (a build
 * output). Each is relative to the manifest's folder (docs/decisions.md, "(#37) Paths"). The
 * language server links them; the path check (`path-not-found`) looks the sources up.
 */
import { escapePointerSegment, findEntry, resolveAlias, type ValueNode } from '../document/nodes.js';
import type { TextSource } from '../document/piece-text.js';
import { unquoted } from './declarations.js';

export interface SourcePath {
  /** The key that names it (`config_dir`, `dockerfile`, `path`, `root`, `output_dir`). */
  key: string;
  /** JSON pointer to the value. */
  pointer: string;
  /** The path as written (the scalar's value). */
  value: string;
  /** The value's characters, quotes included, and without its quotes. */
  start: number;
  end: number;
  nameStart: number;
  nameEnd: number;
  /** A build output (`output_dir`): usually absent before a build, never checked. */
  output: boolean;
}

const APP_KEYS = ['path', 'root', 'dockerfile', 'output_dir'];

/** Every path value of the manifest, in document order. Only strings written in the file count (not through an alias). */
export function sourcePaths(root: ValueNode | null, text: TextSource): SourcePath[] {
  const found: SourcePath[] = [];
  const top = resolveAlias(root);
  if (top?.kind !== 'map') return found;
  const add = (map: ValueNode | null | undefined, key: string, pointer: string): void => {
    const container = resolveAlias(map);
    if (container?.kind !== 'map') return;
    const node = findEntry(container, key)?.value;
    if (node?.kind !== 'scalar' || typeof node.value !== 'string' || node.value === '' || node.tomlType) return;
    const [nameStart, nameEnd] = unquoted(text, node.start, node.end);
    found.push({
      key,
      pointer: `${pointer}/${key}`,
      value: node.value,
      start: node.start,
      end: node.end,
      nameStart,
      nameEnd,
      output: key === 'output_dir',
    });
  };
  add(findEntry(top, 'agent_runtime')?.value, 'config_dir', '/agent_runtime');
  const sandbox = resolveAlias(findEntry(top, 'sandbox')?.value);
  const templates = sandbox?.kind === 'map' ? resolveAlias(findEntry(sandbox, 'templates')?.value) : null;
  if (templates?.kind === 'seq')
    templates.items.forEach((item, index) => add(item, 'dockerfile', `/sandbox/templates/${index}`));
  const apps = resolveAlias(findEntry(top, 'apps')?.value);
  if (apps?.kind === 'map') {
    for (const entry of apps.entries) {
      const pointer = `/apps/${escapePointerSegment(entry.key)}`;
      for (const key of APP_KEYS) add(entry.value, key, pointer);
    }
  }
  return found.sort((a, b) => a.start - b.start);
}
