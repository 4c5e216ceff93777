/**
 * Which documents the extension serves. Pure functions, no `vscode` import,
 * so they are unit-tested without an editor.
 *
 * Documents are selected by file pattern, never by language id: VS Code has
 * no built-in TOML language, so `svc.toml` is `plaintext` unless a TOML
 * extension is installed, in which case it is `toml`. A pattern works in both
 * cases and leaves the TOML extension's language, grammar and features alone.
 */

/** The manifest file names the language server always handles. */
export const MANIFEST_FILE_NAMES = ['svc.yaml', 'svc.yml', 'svc.toml'] as const;

/** A pattern-based document filter (the shape of vscode.DocumentFilter / LSP's). */
export interface PatternFilter {
  scheme: string;
  pattern: string;
}

/** URI schemes whose documents we hand to the server (it reads local files). */
export const SCHEMES = ['file'] as const;

/** Clean up the user's `svc.files.extraPatterns` value: strings only, trimmed, no duplicates. */
export function normalizeExtraPatterns(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string') continue;
    const p = item.trim();
    if (p.length === 0 || out.includes(p)) continue;
    out.push(p);
  }
  return out;
}

/**
 * Glob patterns for the document selector (VS Code matches them against the
 * file's absolute path). Built-in names match in any folder (`**\/svc.yaml`).
 * Extra patterns mean what the language server makes of them: without a `/`
 * a pattern matches the file name in any folder; with one it matches the end
 * of the path (`deploy/*.yaml` = `**\/deploy/*.yaml`); one starting with `/`
 * is absolute.
 */
export function selectorPatterns(extraPatterns: readonly string[]): string[] {
  const patterns: string[] = MANIFEST_FILE_NAMES.map((name) => `**/${name}`);
  for (const p of extraPatterns) {
    const glob = p.startsWith('/') || p.startsWith('**/') ? p : `**/${p}`;
    if (!patterns.includes(glob)) patterns.push(glob);
  }
  return patterns;
}

/** The document selector handed to the language client. */
export function documentSelector(extraPatterns: readonly string[]): PatternFilter[] {
  const filters: PatternFilter[] = [];
  for (const scheme of SCHEMES) {
    for (const pattern of selectorPatterns(extraPatterns)) filters.push({ scheme, pattern });
  }
  return filters;
}

/** The base name of a path or URI path (`/a/b/svc.yaml` -> `svc.yaml`). */
export function baseName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i >= 0 ? path.slice(i + 1) : path;
}

/** Whether a file is YAML by its extension (used for the redhat YAML coexistence rule). */
export function isYamlPath(path: string): boolean {
  return /\.ya?ml$/i.test(baseName(path));
}
