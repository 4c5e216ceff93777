/**
 * The project manifest as stored in the repository: `svc.yaml` (or `svc.yml`), or legacy
 * `svc.toml`. Reading and editing are the validator's: the text is parsed once with the
 * validator's limits (an alias bomb, an oversized or too-deep file is refused before
 * anything else looks at it), edits are planned by its editing engine and the result is
 * re-parsed and compared with the intended value.
 */
import {
  declarationsOf,
  editManifest,
  MANIFEST_FILES,
  ManifestEditError,
  manifestVersion,
  openForEdit,
  type ManifestDeclarations,
  type ManifestDocument,
  type ManifestFormat,
  type SvcVersion,
} from '@svc-manifest/validator';
import { EditError } from '../errors.js';
import type { ManifestChange } from './changes.js';

export type { ManifestFormat };

/** Where a manifest may live, in order of preference (the validator's list of manifest file names). */
export const MANIFEST_CANDIDATES: readonly { path: string; format: ManifestFormat }[] = MANIFEST_FILES.map((file) => ({
  path: file.name,
  format: file.format,
}));

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Why a manifest cannot be read: the validator's findings (code, message, offsets). */
export class UnreadableManifestError extends EditError {
  constructor(
    message: string,
    readonly diagnostics: ManifestEditError['diagnostics'],
  ) {
    super(message);
  }
}

export class ManifestFile {
  private cachedDocument?: ManifestDocument;

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
      throw new UnreadableManifestError(`${path} is not valid UTF-8`, []);
    }
    return new ManifestFile(path, format, text);
  }

  /** The located document, read with the validator's limits. Throws {@link UnreadableManifestError} when the validator refuses the text. */
  get document(): ManifestDocument {
    if (!this.cachedDocument) {
      try {
        this.cachedDocument = openForEdit(this.text, { format: this.format, filename: this.path });
      } catch (error) {
        if (error instanceof ManifestEditError) throw new UnreadableManifestError(error.message, error.diagnostics);
        throw error;
      }
    }
    return this.cachedDocument;
  }

  /** The parsed document (YAML merge keys applied). Throws {@link EditError} when the file cannot be read. */
  get value(): unknown {
    return this.document.value;
  }

  /** `svc_version` when it is a supported one. */
  get version(): SvcVersion | null {
    return manifestVersion(this.value);
  }

  /** What the manifest declares (agents, connectors, templates, triggers), read for its version. */
  get declarations(): ManifestDeclarations {
    return declarationsOf(this.document, this.version);
  }

  /**
   * The text after `changes`, touching only what they need. Throws {@link EditError} when
   * the result would not mean exactly the intended document.
   */
  edit(changes: readonly ManifestChange[]): string {
    return this.editDocument(changes).text;
  }

  /**
   * {@link edit}, answering the document the editing engine parsed from the new text to prove
   * the edit (so validating that text needs no other parse).
   */
  editDocument(changes: readonly ManifestChange[]): ManifestDocument {
    if (changes.length === 0) return this.document;
    try {
      return editManifest(this.document, changes).document;
    } catch (error) {
      if (error instanceof ManifestEditError) throw new EditError(`${error.message}`);
      throw error;
    }
  }
}
