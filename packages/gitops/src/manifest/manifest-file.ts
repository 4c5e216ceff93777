/**
 * The project manifest as stored in the repository: `svc.yaml` (or `svc.yml`), or
 * legacy `svc.toml`. Editing goes through the format's minimal editor and is then
 * verified: the edited text must parse to exactly the intended document.
 */
import { EditError } from '../errors.js';
import { canonicalJson, deepEqual } from '../json.js';
import { applyChanges, type ManifestChange } from './changes.js';
import { editToml, tomlValue } from './toml-editor.js';
import { editYaml, yamlValue } from './yaml-editor.js';

export type ManifestFormat = 'yaml' | 'toml';

/** Where a manifest may live, in order of preference. */
export const MANIFEST_CANDIDATES: readonly { path: string; format: ManifestFormat }[] = [
  { path: 'svc.yaml', format: 'yaml' },
  { path: 'svc.yml', format: 'yaml' },
  { path: 'svc.toml', format: 'toml' },
];

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class ManifestFile {
  private cachedValue: unknown;

  constructor(
    readonly path: string,
    readonly format: ManifestFormat,
    readonly text: string,
  ) {}

  static fromBytes(path: string, format: ManifestFormat, bytes: Uint8Array): ManifestFile {
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      throw new EditError(`${path} is not valid UTF-8`);
    }
    return new ManifestFile(path, format, text);
  }

  /** The parsed document (YAML merge keys applied). Throws {@link EditError} when the file does not parse. */
  get value(): unknown {
    if (this.cachedValue === undefined) this.cachedValue = parseText(this.format, this.text);
    return this.cachedValue;
  }

  /**
   * The text after `changes`, touching only the lines they need. Throws
   * {@link EditError} when the result would not mean exactly the intended document.
   */
  edit(changes: readonly ManifestChange[]): string {
    if (changes.length === 0) return this.text;
    const intended = applyChanges(this.value, changes);
    const edited = this.format === 'yaml' ? editYaml(this.text, changes) : editToml(this.text, changes);
    const actual = parseText(this.format, edited);
    if (!deepEqual(actual, intended)) {
      throw new EditError(
        `editing ${this.path} in place would change more than intended (got ${canonicalJson(actual).slice(0, 200)}…); nothing was written`,
      );
    }
    return edited;
  }
}

function parseText(format: ManifestFormat, text: string): unknown {
  return format === 'yaml' ? yamlValue(text) : tomlValue(text);
}
