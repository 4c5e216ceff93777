/**
 * Manifest entries contributed by items: agents (by name), connectors and triggers (by
 * slug). {@link ManifestPlan} records changes against a running copy of the document so
 * several entries can be added, replaced or removed in one edit.
 */
import { isPlainObject, type Json } from '../json.js';
import { applyChanges, type ManifestChange, type PathSegment } from '../manifest/changes.js';
import type { ManifestFragment } from './item.js';
import type { FragmentSection, LockedManifestEntry } from './lockfile.js';

/** The entries of a fragment, in a stable order. */
export function fragmentEntries(fragment: ManifestFragment): LockedManifestEntry[] {
  const entries: LockedManifestEntry[] = [];
  for (const [name, value] of Object.entries(fragment.agents ?? {})) entries.push({ section: 'agents', name, value });
  for (const section of ['connectors', 'triggers'] as const) {
    for (const value of fragment[section] ?? []) entries.push({ section, name: String(value.slug), value });
  }
  return entries;
}

export function describeEntry(entry: { section: FragmentSection; name: string }): string {
  return `${entry.section === 'agents' ? 'agent' : entry.section.slice(0, -1)} '${entry.name}'`;
}

export class ManifestPlan {
  readonly changes: ManifestChange[] = [];

  constructor(private value: unknown) {}

  get document(): unknown {
    return this.value;
  }

  private get isV1(): boolean {
    return (this.value as { svc_version?: unknown })?.svc_version === 1;
  }

  /** The entry's path and value (a v1 agent without its `name`), or null when absent. */
  find(section: FragmentSection, name: string): { path: PathSegment[]; value: Json } | null {
    const list = (this.value as Record<string, unknown>)?.[section];
    if (section === 'agents' && isPlainObject(list)) {
      return Object.prototype.hasOwnProperty.call(list, name)
        ? { path: ['agents', name], value: list[name] as Json }
        : null;
    }
    if (!Array.isArray(list)) return null;
    const key = section === 'agents' ? 'name' : 'slug';
    const index = list.findIndex((item) => isPlainObject(item) && item[key] === name);
    if (index < 0) return null;
    const item = { ...(list[index] as Record<string, Json>) };
    if (section === 'agents') delete item.name;
    return { path: [section, index], value: item };
  }

  add(entry: LockedManifestEntry): void {
    const document = this.value as Record<string, unknown>;
    if (entry.section === 'agents' && !this.isV1) {
      if (isPlainObject(document.agents)) this.push({ op: 'set', path: ['agents', entry.name], value: entry.value });
      else this.push({ op: 'set', path: ['agents'], value: { [entry.name]: entry.value } });
      return;
    }
    this.push({ op: 'append', path: [entry.section], value: this.stored(entry.section, entry.name, entry.value) });
  }

  replace(section: FragmentSection, name: string, value: Json): void {
    const found = this.find(section, name);
    if (!found) return this.add({ section, name, value });
    this.push({ op: 'set', path: found.path, value: this.stored(section, name, value) });
  }

  /** Removes an entry; a list left empty is removed whole (no `connectors: []` left behind). */
  remove(section: FragmentSection, name: string): void {
    const found = this.find(section, name);
    if (!found) return;
    const list = (this.value as Record<string, unknown>)[section];
    if (Array.isArray(list) && list.length === 1) this.push({ op: 'delete', path: [section] });
    else this.push({ op: 'delete', path: found.path });
  }

  /** A v1 manifest lists agents as `{ name, ... }`. */
  private stored(section: FragmentSection, name: string, value: Json): Json {
    if (section === 'agents' && this.isV1 && isPlainObject(value)) return { name, ...value };
    return value;
  }

  private push(change: ManifestChange): void {
    this.changes.push(change);
    this.value = applyChanges(this.value, [change]);
  }
}
