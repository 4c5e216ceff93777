/** Wording shared by many rules: how to name a place and a value in a message. */
import {
  ENV_NAME_PATTERN,
  SECRET_ENV_PATTERN,
  SLUG_PATTERN,
  RELATIVE_PATH_PATTERN,
  DURATION_PATTERN,
  HEADER_NAME_PATTERN,
  HEADER_VALUE_PATTERN,
  ABSOLUTE_URL_PATH_PATTERN,
  ENABLED_STRING_PATTERN,
} from '@svc-manifest/schema';
import { pointerSegments } from './document/nodes.js';
import { TomlDateTime } from './document/value.js';
import type { ManifestLocator } from './locator.js';

/** The key (or `item N`) a pointer ends in, quoted. */
export function keyLabel(pointer: string): string {
  const segments = pointerSegments(pointer);
  const last = segments[segments.length - 1];
  if (last === undefined) return 'the manifest';
  if (/^\d+$/.test(last)) {
    const parent = segments[segments.length - 2];
    return parent ? `'${parent}' item ${Number(last) + 1}` : `item ${Number(last) + 1}`;
  }
  return `'${last}'`;
}

const KIND_NAMES: Record<string, string> = {
  triggers: 'trigger',
  connectors: 'connector',
  templates: 'template',
  agents: 'agent',
  apps: 'app',
  channels: 'channel',
  policies: 'policy',
};

/** Names the object a pointer points at the way a person would: `trigger 'nightly'`, `agent 'reviewer'`, `'sandbox'`. */
export function objectLabel(pointer: string, locator?: ManifestLocator): string {
  const segments = pointerSegments(pointer);
  if (segments.length === 0) return 'the manifest';
  const last = segments[segments.length - 1]!;
  const parent = segments[segments.length - 2];
  const kind = parent ? KIND_NAMES[parent] : undefined;
  if (kind && /^\d+$/.test(last)) {
    const name =
      locator?.scalarAt(`${pointer}/slug`) ??
      locator?.scalarAt(`${pointer}/name`) ??
      locator?.scalarAt(`${pointer}/match`);
    return typeof name === 'string' && name ? `${kind} '${name}'` : `${kind} ${Number(last) + 1}`;
  }
  if (kind && (parent === 'agents' || parent === 'apps')) return `${kind} '${last}'`;
  if (last === 'auth' || last === 'headers' || last === 'resources')
    return `'${last}' of ${objectLabel(
      segments
        .slice(0, -1)
        .map((s) => '/' + s)
        .join(''),
      locator,
    )}`;
  return `'${last}'`;
}

/** A value as a message shows it: strings quoted, long ones cut. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (value instanceof TomlDateTime) return `${value.description} (${value.text})`;
  if (typeof value === 'string') {
    const shown = value.length > 60 ? value.slice(0, 57) + '...' : value;
    // Messages are one line: show line breaks and other controls escaped.
    return `'${shown.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))}'`;
  }
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return String(value);
}

export function typeName(type: unknown): string {
  const names: Record<string, string> = {
    string: 'a string',
    integer: 'a whole number',
    number: 'a number',
    boolean: 'true or false',
    array: 'a list',
    object: 'a map',
    null: 'nothing',
    // What jsonType says of YAML `.inf`/`.nan` and TOML `inf`/`nan`, and of a TOML date or time (never expected types).
    infinity: 'an infinite number',
    nan: 'a NaN value',
    'toml offset date-time': 'a TOML offset date-time',
    'toml local date-time': 'a TOML local date-time',
    'toml local date': 'a TOML local date',
    'toml local time': 'a TOML local time',
  };
  if (Array.isArray(type)) return type.map(typeName).join(' or ');
  return names[String(type)] ?? String(type);
}

/** The JSON type of a value; for a TOML date or time, `toml <its type>` (no JSON type accepts it). */
export function jsonType(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof TomlDateTime) return `toml ${value.type}`;
  // JSON has no infinities or NaN (JSON.stringify writes null): no JSON Schema type accepts them.
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : 'infinity';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** What a pattern means, in words, for the patterns the spec defines. */
export const PATTERN_PHRASES: Record<string, string> = {
  [SLUG_PATTERN]: "use lowercase letters, digits, '_' and '-', starting with a letter or digit, at most 128 characters",
  [ENV_NAME_PATTERN]: "use letters, digits and '_', not starting with a digit",
  [SECRET_ENV_PATTERN]: "use uppercase letters, digits and '_', not starting with a digit",
  [RELATIVE_PATH_PATTERN]: "give a relative path: no leading '/' and no '..' segment",
  [DURATION_PATTERN]: "give a positive whole number followed by s, m, h or d, e.g. '30s', '5m', '1h'",
  [HEADER_NAME_PATTERN]: 'a header name is 1 to 128 HTTP token characters',
  [HEADER_VALUE_PATTERN]: 'a header value may not contain a carriage return or line feed',
  [ABSOLUTE_URL_PATH_PATTERN]: "it must start with '/'",
  [ENABLED_STRING_PATTERN]: 'use true, false, 1, 0, yes, no, on or off',
};
