/**
 * Schema pinning: a manifest (or any YAML/TOML file) may name the schema it follows with a
 * top-level `$schema` key, a `# yaml-language-server: $schema=<url>` modeline, or Taplo's
 * `#:schema <url>` directive in TOML. Ours are resolved offline from the bundled schemas.
 */
import { schemaVersionForUrl } from '@svc-manifest/schema';
import { severityOf, type Diagnostic } from '@svc-manifest/validator/library';
import type { DirectiveRule } from './directive-search.js';
import { declaredVersion, type DocumentState } from './document-state.js';
import type { SvcVersion } from './schema-model.js';

export interface SchemaPin {
  url: string;
  /** Offsets of the URL text. */
  start: number;
  end: number;
  how: '$schema' | 'modeline' | 'taplo';
  /** Set when the URL names one of our published schemas. */
  known?: { version: SvcVersion | null };
}

const pinCache = new WeakMap<object, SchemaPin | null>();

/** yaml-language-server's modeline: `# yaml-language-server: $schema=<url>`. */
const MODELINE: DirectiveRule = {
  marker: 'yaml-language-server',
  lineRule: /^[ \t]*#[ \t]*yaml-language-server[ \t]*:[ \t]*\$schema=(\S+)/,
};
/** Taplo's directive: `#:schema <url>`. */
const TAPLO_DIRECTIVE: DirectiveRule = { marker: '#:schema', lineRule: /^[ \t]*#:schema[ \t]+(\S+)/ };

/** The schema the document pins, if any. */
export function findSchemaPin(state: DocumentState): SchemaPin | null {
  const cached = pinCache.get(state.doc);
  if (cached !== undefined) return cached;
  const pin = locatePin(state);
  if (pin) {
    // Only which of ours it names: building the schema would cost the first pinned file tens of milliseconds for nothing.
    const version = schemaVersionForUrl(pin.url);
    if (version !== undefined) pin.known = { version };
  }
  pinCache.set(state.doc, pin);
  return pin;
}

function locatePin(state: DocumentState): SchemaPin | null {
  if (state.format === 'yaml') {
    const modeline = state.directives.find(MODELINE);
    if (modeline) return { ...modeline, how: 'modeline' };
  } else {
    const taplo = state.directives.find(TAPLO_DIRECTIVE);
    if (taplo) return { ...taplo, how: 'taplo' };
  }
  const root = state.doc.root;
  if (root?.kind === 'map') {
    const entry = root.entries.find((e) => e.key === '$schema');
    if (entry?.value.kind === 'scalar' && typeof entry.value.value === 'string') {
      const quoted = /["']/.test(state.doc.source.slice(entry.value.start, entry.value.start + 1));
      const start = entry.value.start + (quoted ? 1 : 0);
      const end = entry.value.end - (quoted ? 1 : 0);
      return { url: entry.value.value, start, end: Math.max(start, end), how: '$schema' };
    }
  } else if (!root) {
    // A file that does not parse still says what it pins.
    const key =
      state.format === 'yaml'
        ? /^["']?\$schema["']?[ \t]*:[ \t]*["']?([^"'\s#]+)/m
        : /^["']?\$schema["']?[ \t]*=[ \t]*["']([^"']+)/m;
    const match = key.exec(state.doc.topLevelText());
    if (match) {
      const start = match.index + match[0].length - match[1]!.length;
      return { url: match[1]!, start, end: start + match[1]!.length, how: '$schema' };
    }
  }
  return null;
}

/** Whether the document pins one of our schemas (so it is a manifest whatever its name). */
export function pinsOurSchema(state: DocumentState): boolean {
  return !!findSchemaPin(state)?.known;
}

/** The version features should assume: `svc_version`, else the pinned schema's, else 2 (the current shape). */
export function effectiveVersion(state: DocumentState): SvcVersion {
  return declaredVersion(state) ?? findSchemaPin(state)?.known?.version ?? 2;
}

/**
 * Diagnostics about the pin itself: a pinned version that disagrees with `svc_version`, and
 * (as information, one diagnostic) a pinned URL that is not one of our schemas.
 */
export function schemaPinDiagnostics(state: DocumentState): Diagnostic[] {
  const pin = findSchemaPin(state);
  if (!pin) return [];
  const lines = state.doc.lines;
  const range = lines.range(pin.start, pin.end);
  if (!pin.known) {
    return [
      {
        code: 'unknown-schema',
        severity: severityOf('unknown-schema'),
        message: `the pinned schema '${pin.url}' is not one of the svc manifest schemas (svc.schema.json, svc.v1.schema.json, svc.v2.schema.json); the file is checked against the svc manifest schema for its svc_version`,
        path: '',
        range,
      },
    ];
  }
  const declared = declaredVersion(state);
  if (pin.known.version !== null && declared !== null && pin.known.version !== declared) {
    const fixedUrl = pin.url.replace(/svc\.v[12]\.schema\.json/, `svc.v${declared}.schema.json`);
    return [
      {
        code: 'schema-version-mismatch',
        severity: severityOf('schema-version-mismatch'),
        message: `the pinned schema is for svc_version ${pin.known.version} but the file says svc_version ${declared}`,
        path: '',
        range,
        fixes: [{ title: `Pin the svc_version ${declared} schema`, edits: [{ range, newText: fixedUrl }] }],
      },
    ];
  }
  return [];
}
