/**
 * Settings, read through `workspace/configuration` (section `svc`), and which files the
 * server treats as manifests.
 */
import { manifestFileNamed } from '@svc-manifest/validator/library';
import { fileNameOf } from './document-state.js';

export interface Settings {
  /** `svc.enable`: turn every feature on or off. */
  enable: boolean;
  /** `svc.files.extraPatterns`: globs of more files to treat as manifests (besides `svc.yaml`, `svc.yml`, `svc.toml`). */
  extraPatterns: string[];
  /** `svc.validation.maxFileSizeBytes`: larger files are not parsed past this size. */
  maxFileSizeBytes: number;
  /** `svc.inlayHints.enable`: hints where a value is read differently from how it looks. */
  inlayHints: boolean;
  /** `svc.pathChecks.enable`: warn on source paths that do not exist beside the manifest (`path-not-found`). */
  pathChecks: boolean;
  /** `svc.validation.enable`: diagnostics (pushed and pulled). */
  validation: boolean;
  /** `svc.hover.enable`: hover. */
  hover: boolean;
  /** `svc.completion.enable`: completion. */
  completion: boolean;
  /** `svc.format.enable`: document and range formatting. */
  format: boolean;
}

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  enable: true,
  extraPatterns: [],
  maxFileSizeBytes: 1024 * 1024,
  inlayHints: true,
  pathChecks: true,
  validation: true,
  hover: true,
  completion: true,
  format: true,
});

/** The on/off switches, each read from `svc.<name>.enable`. */
const SWITCHES = ['inlayHints', 'pathChecks', 'validation', 'hover', 'completion', 'format'] as const;

/**
 * Settings from what a client sent for section `svc`: either nested objects
 * (`{ files: { extraPatterns } }`) or dotted keys (`{ 'files.extraPatterns': … }`). Anything
 * missing or of the wrong type keeps its default.
 */
export function readSettings(raw: unknown): Settings {
  const settings: Settings = { ...DEFAULT_SETTINGS, extraPatterns: [] };
  if (!raw || typeof raw !== 'object') return settings;
  const object = raw as Record<string, unknown>;
  const pick = (dotted: string): unknown => {
    if (dotted in object) return object[dotted];
    let value: unknown = object;
    for (const part of dotted.split('.')) {
      if (!value || typeof value !== 'object') return undefined;
      value = (value as Record<string, unknown>)[part];
    }
    return value;
  };
  const enable = pick('enable');
  if (typeof enable === 'boolean') settings.enable = enable;
  const patterns = pick('files.extraPatterns');
  if (Array.isArray(patterns))
    settings.extraPatterns = patterns.filter((p): p is string => typeof p === 'string' && p.length > 0);
  for (const name of SWITCHES) {
    const value = pick(`${name}.enable`);
    if (typeof value === 'boolean') settings[name] = value;
  }
  const size = pick('validation.maxFileSizeBytes');
  if (typeof size === 'number' && Number.isFinite(size) && size > 0) settings.maxFileSizeBytes = Math.floor(size);
  return settings;
}

/** Whether a file is a manifest by its name or an extra pattern. (A file pinning our schema is one too: see schema-pinning.) */
export function isManifestName(uri: string, settings: Settings): boolean {
  if (manifestFileNamed(fileNameOf(uri), { ignoreCase: true })) return true;
  if (settings.extraPatterns.length === 0) return false;
  const path = uriPath(uri);
  return settings.extraPatterns.some((pattern) => globMatches(pattern, path));
}

/** Whether a file may be YAML or TOML at all (candidates for schema pinning). */
export function isYamlOrToml(uri: string, languageId?: string): boolean {
  return languageId === 'yaml' || languageId === 'toml' || /\.(ya?ml|toml)$/i.test(uri.replace(/[?#].*$/, ''));
}

function uriPath(uri: string): string {
  const path = uri.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const globCache = new Map<string, RegExp>();

/**
 * Matches a glob against a path: `**` any number of folders, `*` and `?` within one, `{a,b}`
 * alternatives. A pattern without `/` matches the file name; one with `/` matches the end of
 * the path (so `deploy/*.yaml` and `**​/deploy/*.yaml` mean the same).
 */
export function globMatches(pattern: string, path: string): boolean {
  let regex = globCache.get(pattern);
  if (!regex) {
    regex = globToRegExp(pattern);
    globCache.set(pattern, regex);
  }
  const subject = pattern.includes('/') ? path : path.slice(path.lastIndexOf('/') + 1);
  return regex.test(subject);
}

function globToRegExp(pattern: string): RegExp {
  let source = '';
  let inGroup = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*') {
      if (pattern[i + 1] === '*') {
        i += 1;
        if (pattern[i + 1] === '/') {
          i += 1;
          source += '(?:.*/)?';
        } else source += '.*';
      } else source += '[^/]*';
    } else if (char === '?') source += '[^/]';
    else if (char === '{') {
      inGroup = true;
      source += '(?:';
    } else if (char === '}' && inGroup) {
      inGroup = false;
      source += ')';
    } else if (char === ',' && inGroup) source += '|';
    else source += char.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  const anchored = pattern.includes('/')
    ? pattern.startsWith('/')
      ? `^${source}$`
      : `(?:^|/)${source}$`
    : `^${source}$`;
  return new RegExp(anchored);
}
