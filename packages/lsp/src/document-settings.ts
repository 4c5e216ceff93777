/**
 * The settings of each document: what the client answers to `workspace/configuration` for
 * section `svc` with the document's URI as `scopeUri`, so each folder of a multi-root workspace
 * (VS Code's resource-scoped `svc.hover.enable` and the other switches) gets its own. Each answer
 * is kept as a value per URI until the settings change; a client that cannot be asked gets the
 * one value it sent (initializationOptions, didChangeConfiguration) for every document.
 */
import { readSettings, type Settings } from './settings.js';

/** Asks the client for section `svc` once per scope URI, in one request; answers in the same order. */
export type ReadScoped = (scopeUris: readonly string[]) => Promise<unknown[]>;

interface Known {
  settings: Settings;
  /** Which request it came from: a later request's answer replaces an earlier one's, never the reverse. */
  request: number;
}

export class DocumentSettings {
  private readonly known = new Map<string, Known>();
  /** Requests under way, by URI: a second ask waits for the same answer. */
  private readonly asking = new Map<string, Promise<void>>();
  private requests = 0;

  /**
   * @param reader  how to ask the client, read when it is needed (undefined while it cannot be asked,
   *   as before initialize or for a client without workspace/configuration: every document gets `unscoped()`)
   * @param unscoped  the settings read without a scope (or sent by the client): what a document gets before its own are known
   */
  constructor(
    private readonly reader: () => ReadScoped | undefined,
    private readonly unscoped: () => Settings,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  /** The settings of `uri` as known now: its own once read, else the unscoped ones. */
  of(uri: string): Settings {
    return this.known.get(uri)?.settings ?? this.unscoped();
  }

  /** Whether `uri`'s own settings are known (or there are none to ask for). */
  has(uri: string): boolean {
    return !this.reader() || this.known.has(uri);
  }

  /** Resolves once every URI's settings are known (those not known yet are asked for in one request). */
  load(uris: readonly string[]): Promise<void> {
    const read = this.reader();
    if (!read) return Promise.resolve();
    const missing = [...new Set(uris)].filter((uri) => !this.known.has(uri) && !this.asking.has(uri));
    const waits = [...new Set(uris)].flatMap((uri) => this.asking.get(uri) ?? []);
    if (missing.length > 0) waits.push(this.ask(read, missing));
    return Promise.all(waits).then(() => undefined);
  }

  /** Runs `callback` now when `uri`'s settings are known, else once they are. */
  whenKnown(uri: string, callback: () => void): void {
    if (this.has(uri)) callback();
    else
      void this.load([uri]).then(callback, (error) => {
        this.log(`settings for ${uri}`, error);
      });
  }

  /**
   * The settings changed: every URI known or being asked for is asked again, in one request. The
   * old values stay in use until the new ones arrive, so no document falls back to the unscoped
   * settings in between.
   */
  refresh(): Promise<void> {
    const read = this.reader();
    if (!read) return Promise.resolve();
    const uris = [...new Set([...this.known.keys(), ...this.asking.keys()])];
    return uris.length > 0 ? this.ask(read, uris) : Promise.resolve();
  }

  /** A document was closed (or a file left the workspace): its settings are asked again if it comes back. */
  forget(uri: string): void {
    this.known.delete(uri);
    this.asking.delete(uri);
  }

  /** Keeps only the settings of these URIs (the open documents and the workspace's manifests). */
  retain(uris: ReadonlySet<string>): void {
    for (const uri of this.known.keys()) if (!uris.has(uri)) this.known.delete(uri);
  }

  private ask(read: ReadScoped, uris: readonly string[]): Promise<void> {
    const request = ++this.requests;
    const done = read(uris)
      .then(
        (answers) => answers,
        (error: unknown) => {
          // A client that fails to answer: the unscoped settings, once (asking on every request would fail every request).
          this.log('reading the svc settings failed', error);
          return [] as unknown[];
        },
      )
      .then((answers) => {
        uris.forEach((uri, i) => {
          // Forgotten meanwhile (the document was closed).
          if (!this.asking.has(uri)) return;
          const before = this.known.get(uri);
          // A later request answered already (a refresh that overtook the first ask).
          if (before && before.request > request) return;
          this.known.set(uri, { settings: i < answers.length ? readSettings(answers[i]) : this.unscoped(), request });
        });
      })
      .finally(() => {
        for (const uri of uris) if (this.asking.get(uri) === done) this.asking.delete(uri);
      });
    for (const uri of uris) this.asking.set(uri, done);
    return done;
  }
}
