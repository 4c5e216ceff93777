/**
 * The file names a project manifest may have, once for every tool: the applier looks for
 * them at a repository's root, the CLI checks them by default, the language server and the
 * editor extension treat them as manifests.
 */
import type { ManifestFormat } from '../document/manifest-document.js';

export interface ManifestFileName {
  name: string;
  format: ManifestFormat;
}

/** In order of preference: `svc.yaml`, `svc.yml`, then the legacy `svc.toml`. */
export const MANIFEST_FILES: readonly ManifestFileName[] = Object.freeze([
  Object.freeze({ name: 'svc.yaml', format: 'yaml' as const }),
  Object.freeze({ name: 'svc.yml', format: 'yaml' as const }),
  Object.freeze({ name: 'svc.toml', format: 'toml' as const }),
]);

export const MANIFEST_FILE_NAMES: readonly string[] = Object.freeze(MANIFEST_FILES.map((file) => file.name));

/**
 * The manifest file a base name is: exact spelling by default (`svc.yaml` is one, `SVC.yaml`
 * and `a/svc.yaml` are not); `ignoreCase` for editors on case-insensitive file systems.
 */
export function manifestFileNamed(name: string, options: { ignoreCase?: boolean } = {}): ManifestFileName | undefined {
  const wanted = options.ignoreCase ? name.toLowerCase() : name;
  return MANIFEST_FILES.find((file) => file.name === wanted);
}
