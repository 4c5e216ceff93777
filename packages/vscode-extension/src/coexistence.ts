/**
 * Living next to redhat's YAML extension (redhat.vscode-yaml) without double
 * squiggles. See the README section "Next to Red Hat's YAML extension".
 *
 * - Semantic diagnostics for svc manifests (unknown keys, bad values,
 *   references, rules) are ours alone: this extension contributes no
 *   `yamlValidation` and no `yaml.schemas` default, so redhat's extension
 *   has no schema for `svc.yaml` and reports nothing about its content.
 * - Plain YAML syntax is the one thing both servers check. When redhat's
 *   extension is active and validating, our YAML syntax diagnostics are
 *   dropped on the client side, so a syntax error is underlined once, by it.
 *   TOML files are unaffected.
 */

/** Diagnostic codes both servers would report for the same YAML text. */
export const YAML_SYNTAX_CODES: ReadonlySet<string> = new Set(['yaml-syntax', 'duplicate-key']);

/** The marketplace id of Red Hat's YAML extension. */
export const REDHAT_YAML_EXTENSION_ID = 'redhat.vscode-yaml';

/** A diagnostic's code as VS Code exposes it: a string/number, or `{ value, target }`. */
export type DiagnosticCode = string | number | { value: string | number } | undefined;

export function codeOf(code: DiagnosticCode): string | undefined {
  if (code === undefined) return undefined;
  if (typeof code === 'object') return String(code.value);
  return String(code);
}

/**
 * Whether to show one of our diagnostics. `redhatValidatesYaml` is true when
 * redhat's YAML extension is installed and `yaml.validate` is not false for
 * the document.
 */
export function keepDiagnostic(path: string, code: DiagnosticCode, redhatValidatesYaml: boolean): boolean {
  if (!redhatValidatesYaml) return true;
  if (!/\.ya?ml$/i.test(path)) return true;
  const c = codeOf(code);
  return c === undefined || !YAML_SYNTAX_CODES.has(c);
}
