/**
 * The server's state: one {@link DocumentState} per open YAML/TOML file, the settings, and which
 * files are ours (a manifest by name, or a YAML/TOML file pinning our schema). An edit only
 * records the new text; the parse is brought up to date (with `ManifestDocument.update`) when
 * something needs it, so a burst of keystrokes costs one incremental parse, not one per keystroke.
 */
import { mergeTextChanges, type TextChange, type TextSource } from '@svc-manifest/validator/library';
import { createState, updateState, type DocumentState } from './document-state.js';
import { pinsOurSchema } from './schema-pinning.js';
import { DEFAULT_SETTINGS, isManifestName, isYamlOrToml, type Settings } from './settings.js';

/** An open file as the client sends it. */
export interface OpenFile {
  uri: string;
  version: number;
  /** The text: a string, or the server's PieceText (read by ranges on the edit path). */
  text: TextSource;
  languageId?: string;
  /**
   * The replacements that made `text` from the file's previous text (UTF-16 offsets, in order),
   * when the client sent ranges; absent for a full-text change.
   */
  changes?: readonly TextChange[];
}

interface Entry {
  state: DocumentState;
  languageId?: string;
  /** The newest text, not parsed yet, with one change that makes it from the parsed text (when known). */
  pending?: { version: number; text: TextSource; change?: TextChange };
}

export class DocumentStore {
  private readonly entries = new Map<string, Entry>();
  settings: Settings = { ...DEFAULT_SETTINGS };

  constructor(private readonly log: (message: string, error?: unknown) => void) {}

  /** The file's state with its newest text parsed, or undefined when the file is not tracked. */
  state(uri: string): DocumentState | undefined {
    const entry = this.entries.get(uri);
    if (!entry) return undefined;
    if (entry.pending) {
      const { version, text, change } = entry.pending;
      entry.pending = undefined;
      try {
        entry.state = updateState(entry.state, version, text, change && [change]);
      } catch (error) {
        // The incremental parse must not wedge the file: start over from the whole text.
        this.log(`incremental parse failed for ${uri}; parsing the whole file`, error);
        entry.state = this.create({ uri, version, text, languageId: entry.languageId });
      }
    }
    return entry.state;
  }

  /** The state of a file that is ours, else undefined. */
  managed(uri: string): DocumentState | undefined {
    const state = this.state(uri);
    if (!state) return undefined;
    return this.isManaged(state) ? state : undefined;
  }

  /** For completion: the last parsed state with the newest text, without parsing it first. */
  typing(uri: string): DocumentState | undefined {
    const entry = this.entries.get(uri);
    if (!entry?.pending || !this.settings.enable || !isManifestName(uri, this.settings)) return this.managed(uri);
    return { ...entry.state, version: entry.pending.version, text: entry.pending.text };
  }

  /** Whether the file is ours under the current settings. */
  isManaged(state: DocumentState): boolean {
    const languageId = this.entries.get(state.uri)?.languageId;
    return (
      this.settings.enable &&
      (isManifestName(state.uri, this.settings) || (isYamlOrToml(state.uri, languageId) && pinsOurSchema(state)))
    );
  }

  /**
   * Records a file's new text. Answers whether the file is ours now (its diagnostics are due) or
   * not (any shown must go), or undefined for a file the server does not look at.
   */
  change(file: OpenFile): boolean | undefined {
    const entry = this.entries.get(file.uri);
    if (!entry) {
      if (!isManifestName(file.uri, this.settings) && !isYamlOrToml(file.uri, file.languageId)) return undefined;
      this.entries.set(file.uri, { state: this.create(file), languageId: file.languageId });
    } else {
      // Changes since the last parse compose: the span from the first changed character to the last.
      const before = entry.pending;
      const changes = file.changes && (before ? before.change && [before.change, ...file.changes] : file.changes);
      const change = changes ? mergeTextChanges(entry.state.doc.source.length, changes) : null;
      // `ManifestDocument.update` checks the change against the texts (and compares them when it does not fit).
      entry.pending = { version: file.version, text: file.text, ...(change ? { change } : {}) };
      entry.languageId = file.languageId;
    }
    // A manifest by name needs no parse to be decided; any other file is ours only if it pins our schema.
    return this.settings.enable && (isManifestName(file.uri, this.settings) || this.isManaged(this.state(file.uri)!));
  }

  close(uri: string): void {
    this.entries.delete(uri);
  }

  /**
   * New settings: every tracked file is parsed again (the size limit is part of the parse).
   * Answers each with whether it is ours under the new settings.
   */
  applySettings(settings: Settings, open: readonly OpenFile[]): { uri: string; managed: boolean }[] {
    this.settings = settings;
    const outcome: { uri: string; managed: boolean }[] = [];
    for (const file of open) {
      if (!this.entries.has(file.uri)) continue;
      const state = this.create(file);
      this.entries.set(file.uri, { state, languageId: file.languageId });
      outcome.push({ uri: file.uri, managed: this.isManaged(state) });
    }
    return outcome;
  }

  private create(file: OpenFile): DocumentState {
    return createState(file.uri, file.version, file.text.toString(), {
      maxFileSizeBytes: this.settings.maxFileSizeBytes,
      languageId: file.languageId,
    });
  }
}
