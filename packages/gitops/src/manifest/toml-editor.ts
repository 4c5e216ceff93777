/**
 * Minimal edits of legacy `svc.toml`. Values inside existing tables are changed with
 * `@decimalturn/toml-patch`, which rewrites only the values that differ and keeps
 * comments, spacing and line ends. A new key of a `[table]` goes right after the
 * table's last value line (the library would put it after the next table's comments).
 * Whole new tables (`[agents.x]`) and array-of-tables
 * elements (`[[triggers]]`) are appended as new sections at the end of the file, which
 * TOML allows and which leaves every existing line alone; the library would otherwise
 * place them as dotted keys among the root keys, or fail on a new array of tables.
 */
import { parse as parseTomlText, patch as patchToml, TomlFormat } from '@decimalturn/toml-patch';
import { EditError } from '../errors.js';
import { deepEqual, isPlainObject } from '../json.js';
import { applyChanges, type ManifestChange, type PathSegment } from './changes.js';
import { scanTomlLines, tableInsertionPoint } from './toml-lines.js';

export function tomlValue(text: string): unknown {
  try {
    return parseTomlText(text);
  } catch (error) {
    throw new EditError(`TOML does not parse: ${(error as Error).message}`);
  }
}

/** Carries `changes` onto `text`; throws {@link EditError} when no strategy yields exactly the intended document. */
export function editToml(text: string, changes: readonly ManifestChange[]): string {
  const original = tomlValue(text);
  const intended = applyChanges(original, changes);
  const attempts = [() => patchThenAppend(text, original, changes), () => patchAll(text, intended)];
  let lastError: unknown;
  for (const attempt of attempts) {
    try {
      const result = attempt();
      if (deepEqual(tomlValue(result), intended)) return result;
      lastError = new EditError('the edited TOML does not mean the intended document');
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError instanceof EditError ? lastError : new EditError(`cannot edit svc.toml: ${(lastError as Error).message}`);
}

function format(text: string): TomlFormat {
  return TomlFormat.autoDetectFormat(text);
}

function patchAll(text: string, intended: unknown): string {
  return patchToml(text, intended, format(text));
}

/** A change that adds a whole table or array-of-tables element, written as a new section. */
function asSection(change: ManifestChange, document: unknown): { header: string; body: Record<string, unknown> } | undefined {
  if (change.op === 'delete' || !isPlainObject(change.value) || Object.keys(change.value).length === 0) return undefined;
  if (change.path.some((segment) => typeof segment !== 'string')) return undefined;
  const keys = change.path as string[];
  if (change.op === 'append' && keys.length === 1) {
    const existing = lookup(document, keys);
    if (existing !== undefined && !Array.isArray(existing)) return undefined;
    return { header: `[[${keys.map(renderKey).join('.')}]]`, body: change.value };
  }
  if (change.op === 'set' && keys.length >= 2) {
    const parent = lookup(document, keys.slice(0, -1));
    if (!isPlainObject(parent) || keys[keys.length - 1]! in parent) return undefined;
    return { header: `[${keys.map(renderKey).join('.')}]`, body: change.value };
  }
  return undefined;
}

function lookup(document: unknown, path: readonly PathSegment[]): unknown {
  let node = document;
  for (const segment of path) {
    if (!isPlainObject(node) || !(String(segment) in node)) return undefined;
    node = node[String(segment)];
  }
  return node;
}

/** A new key in a table that has its own `[header]` (or in the root table). */
function asNewKey(change: ManifestChange, document: unknown, text: string): { table: string[]; key: string; value: unknown } | undefined {
  if (change.op !== 'set' || change.path.some((segment) => typeof segment !== 'string')) return undefined;
  const keys = change.path as string[];
  const table = keys.slice(0, -1);
  const key = keys[keys.length - 1]!;
  const parent = table.length === 0 ? document : lookup(document, table);
  if (!isPlainObject(parent) || key in parent) return undefined;
  if (tableInsertionPoint(scanTomlLines(text), table) === undefined) return undefined;
  return { table, key, value: change.value };
}

/** True when one path is a prefix of the other (the changes touch the same value). */
function overlaps(a: readonly PathSegment[], b: readonly PathSegment[]): boolean {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function patchThenAppend(text: string, original: unknown, changes: readonly ManifestChange[]): string {
  const inPlace: ManifestChange[] = [];
  const newKeys: { table: string[]; key: string; value: unknown }[] = [];
  const sections: { header: string; body: Record<string, unknown> }[] = [];
  let current = original;
  for (const change of changes) {
    const section = sections.length === 0 || change.op !== 'delete' ? asSection(change, current) : undefined;
    const newKey = section ? undefined : asNewKey(change, current, text);
    if (section) sections.push(section);
    else if (sections.length > 0) throw new EditError('a change after a new section cannot be patched in place');
    else if (newKey) newKeys.push(newKey);
    else if (newKeys.some((k) => overlaps(change.path, [...k.table, k.key]))) {
      throw new EditError('a change of a newly added key cannot be patched in place');
    } else inPlace.push(change);
    current = applyChanges(current, [change]);
  }
  let result = text;
  if (inPlace.length > 0) {
    const target = applyChanges(original, inPlace);
    if (!deepEqual(target, original)) result = patchToml(text, target, format(text));
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  // Arrays look like the file's own (and like the values toml-patch writes): `[ "a" ]` or `["a"]`.
  const spaced = format(text).bracketSpacing;
  for (const { table, key, value } of newKeys) {
    // After the table's last value line, so the comments of the next table stay with it.
    const at = tableInsertionPoint(scanTomlLines(result), table);
    if (at === undefined) throw new EditError(`cannot find the table ${table.join('.')}`);
    result = `${result.slice(0, at)}${eol}${renderKey(key)} = ${renderValue(value, spaced)}${result.slice(at)}`;
  }
  if (sections.length === 0) return result;
  const blocks = sections.map(({ header, body }) =>
    [header, ...Object.entries(body).map(([key, value]) => `${renderKey(key)} = ${renderValue(value, spaced)}`)].join(eol),
  );
  const separator = result.length === 0 ? '' : result.endsWith('\n') ? eol : eol + eol;
  return result + separator + blocks.join(eol + eol) + eol;
}

function renderKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

/** A TOML value on one line: strings as basic strings, tables inline. */
function renderValue(value: unknown, spaced: boolean): string {
  if (value === null || value === undefined) throw new EditError('TOML has no null value');
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new EditError(`cannot write ${value} in TOML`);
    return String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item) => renderValue(item, spaced)).join(', ');
    return spaced ? `[ ${items} ]` : `[${items}]`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value).map(([key, child]) => `${renderKey(key)} = ${renderValue(child, spaced)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  }
  throw new EditError(`cannot write a ${typeof value} in TOML`);
}
