/**
 * Drives any LSP server over stdio with vscode-languageserver-protocol's connection and
 * measures, per spawn: startup (spawn → initialize result, then `initialized`), open → first
 * publishDiagnostics, one-character edits → the next publishDiagnostics for that version,
 * completion and hover round trips, and the server's peak RSS (/proc/<pid>/status VmHWM).
 *
 * It answers `workspace/configuration` with whatever the server spec says per section, and
 * every other server→client request with null.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import type { GeneratedManifest, InjectedError, Spot } from './generate.ts';

export interface ServerSpec {
  /** Short name used in tables: `ours`, `yls-patched`, `yls-stock`, `taplo`. */
  name: string;
  command: string;
  args: string[];
  /** How the client talks to it: stdio (`--stdio`), or node's IPC channel (how VS Code runs Even Better TOML's bundled Taplo). */
  transport?: 'stdio' | 'ipc';
  /**
   * Whether it checks references between entries (an agent or connector that is not declared).
   * A server driven only by the JSON Schema cannot, so those injected mistakes are not asked of it.
   */
  crossReferences: boolean;
  /**
   * Whether the `count`-th publication after a change ends that validation (default: the first
   * does). Taplo publishes up to three times per change: syntax errors, then structure errors,
   * then schema errors, each time only if the previous step found nothing.
   */
  validationDone?: (diagnostics: unknown[], count: number) => boolean;
  /** The value for one `workspace/configuration` item (by section; null when unknown). */
  configuration(section: string | undefined, documentUri: string): unknown;
  /** Sent as initializationOptions. */
  initializationOptions?: unknown;
}

export interface SpawnSample {
  startupMs: number;
  openToDiagnosticsMs: number;
  openDiagnostics: number;
  editToDiagnosticsMs: number[];
  editDiagnostics: number[];
  completionKeyMs: number[];
  completionKeyItems: number;
  completionValueMs: number[];
  completionValueItems: number;
  hoverMs: number[];
  hoverFound: boolean;
  peakRssMb: number;
  syncKind: number;
  /** Whether publishDiagnostics carried the document version. */
  versionedDiagnostics: boolean;
  /** How many error-severity diagnostics the server published on open. */
  openErrors: number;
}

export interface RunOptions {
  /** Measured edits / completions / hovers per spawn. */
  inner: number;
  /**
   * Where the documents are written (the file name is always svc.yaml). Not inside a
   * dot-folder: YLS's `yaml.schemas` globs (picomatch, dot: false) never match a path
   * through one such as .bench-work/, and the schema would silently not apply.
   */
  workDir: string;
  /** Give up on one wait after this long. */
  timeoutMs?: number;
  log?: (line: string) => void;
}

const now = () => performance.now();

function readPeakRss(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status) ?? /VmRSS:\s+(\d+) kB/.exec(status);
    return hwm ? Number(hwm[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

interface Pending {
  uri: string;
  version: number | null;
  /** Publications seen for this wait so far. */
  count: number;
  resolve: (diagnostics: unknown[]) => void;
}

/** The part of an LSP diagnostic the checks read. */
export interface Diagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  message: string;
}

class Session {
  readonly child: ChildProcess;
  readonly connection: ProtocolConnection;
  private waiters: Pending[] = [];
  configurationPulled!: Promise<void>;
  versionedDiagnostics = false;
  stderr = '';
  private peak = 0;
  private poll?: NodeJS.Timeout;

  constructor(
    readonly spec: ServerSpec,
    readonly documentUri: string,
  ) {
    const ipc = spec.transport === 'ipc';
    this.child = spawn(spec.command, spec.args, {
      stdio: ['pipe', 'pipe', 'pipe', ...(ipc ? (['ipc'] as const) : [])],
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      if (this.stderr.length < 20000) this.stderr += chunk.toString();
    });
    this.connection = ipc
      ? createProtocolConnection(new IPCMessageReader(this.child), new IPCMessageWriter(this.child))
      : createProtocolConnection(
          new StreamMessageReader(this.child.stdout!),
          new StreamMessageWriter(this.child.stdin!),
        );
    let pulled!: () => void;
    this.configurationPulled = new Promise((resolve) => (pulled = resolve));
    // Star handlers (every method): typed on MessageConnection, not on ProtocolConnection.
    const raw = this.connection as unknown as MessageConnection;
    raw.onRequest((method: string, params: unknown) => {
      if (process.env.BENCH_DEBUG) console.error('[req]', method, JSON.stringify(params).slice(0, 300));
      if (method === 'workspace/configuration') {
        const items = (params as { items: { section?: string }[] }).items;
        const answer = items.map((item) => spec.configuration(item.section, documentUri));
        pulled();
        return answer;
      }
      return null;
    });
    raw.onNotification((method: string, params: unknown) => {
      if (process.env.BENCH_DEBUG && method !== 'textDocument/publishDiagnostics')
        console.error('[notif]', method, JSON.stringify(params).slice(0, 400));
      if (method !== 'textDocument/publishDiagnostics') return;
      const p = params as { uri: string; version?: number; diagnostics: unknown[] };
      if (typeof p.version === 'number') this.versionedDiagnostics = true;
      const index = this.waiters.findIndex(
        (w) => w.uri === p.uri && (w.version === null || typeof p.version !== 'number' || p.version === w.version),
      );
      if (index >= 0) {
        const waiter = this.waiters[index]!;
        waiter.count += 1;
        if (spec.validationDone && !spec.validationDone(p.diagnostics, waiter.count)) return;
        this.waiters.splice(index, 1);
        waiter.resolve(p.diagnostics);
      }
    });
    this.connection.listen();
    // Sample RSS too, in case VmHWM is unavailable.
    this.poll = setInterval(() => {
      const rss = readPeakRss(this.child.pid!);
      if (rss > this.peak) this.peak = rss;
    }, 50);
  }

  diagnosticsFor(uri: string, version: number | null, timeoutMs: number): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${this.spec.name}: no diagnostics for ${uri} v${version} in ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        uri,
        version,
        count: 0,
        resolve: (d) => {
          clearTimeout(timer);
          resolve(d);
        },
      });
    });
  }

  peakRssMb(): number {
    return Math.max(this.peak, readPeakRss(this.child.pid!));
  }

  async close(): Promise<void> {
    clearInterval(this.poll);
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification('exit');
    } catch {
      // already gone
    }
    await new Promise<void>((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      const timer = setTimeout(() => {
        this.child.kill('SIGKILL');
        resolve();
      }, 2000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    this.connection.dispose();
  }
}

/** The offset of a spot (line, UTF-16 character) in `text`. */
export function offsetAt(text: string, spot: Spot): number {
  let line = 0;
  let offset = 0;
  while (line < spot.line) {
    offset = text.indexOf('\n', offset) + 1;
    line += 1;
  }
  return offset + spot.character;
}

/** One spawn: start, open, edit, complete, hover, RSS. */
export async function runOnce(
  spec: ServerSpec,
  manifest: GeneratedManifest,
  options: RunOptions,
): Promise<SpawnSample> {
  const timeout = options.timeoutMs ?? 60_000;
  const dir = join(options.workDir, `${spec.name}-${manifest.name}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, manifest.format === 'toml' ? 'svc.toml' : 'svc.yaml');
  writeFileSync(file, manifest.text);
  const uri = pathToFileURL(file).href;

  const t0 = now();
  const session = new Session(spec, uri);
  let initTimer: NodeJS.Timeout | undefined;
  try {
    const init = (await Promise.race([
      session.connection.sendRequest('initialize', {
        processId: process.pid,
        rootUri: pathToFileURL(dir).href,
        workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'bench' }],
        initializationOptions: spec.initializationOptions,
        capabilities: {
          workspace: {
            configuration: true,
            didChangeConfiguration: { dynamicRegistration: true },
            // As VS Code says it: a server that reads files is told when they are created or deleted.
            didChangeWatchedFiles: { dynamicRegistration: true },
            workspaceFolders: true,
          },
          textDocument: {
            synchronization: { didSave: true, dynamicRegistration: false },
            publishDiagnostics: { relatedInformation: true, versionSupport: true },
            completion: {
              completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] },
              contextSupport: true,
            },
            hover: { contentFormat: ['markdown', 'plaintext'] },
          },
        },
      }),
      new Promise((_, reject) => {
        // Cleared once answered: a pending timer would keep the benchmark's process alive after its last run.
        initTimer = setTimeout(() => reject(new Error(`${spec.name}: initialize timed out`)), timeout);
      }),
    ])) as { capabilities: { textDocumentSync?: number | { change?: number } } };
    clearTimeout(initTimer);
    const startupMs = now() - t0;
    await session.connection.sendNotification('initialized', {});
    const sync = init.capabilities.textDocumentSync;
    const syncKind = typeof sync === 'number' ? sync : (sync?.change ?? 1);
    // Let the server pull its settings before the document arrives (not timed).
    await Promise.race([session.configurationPulled, new Promise((r) => setTimeout(r, 3000))]);
    await new Promise((r) => setTimeout(r, 300));

    let text = manifest.text;
    let version = 1;
    const tOpen = now();
    const openWait = session.diagnosticsFor(uri, version, timeout);
    await session.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: manifest.format, version, text },
    });
    const openDiags = (await openWait) as Diagnostic[];
    const openToDiagnosticsMs = now() - tOpen;
    // Not a measurement unless the server really validated the file (see checkDiagnostics).
    checkDiagnostics(spec, manifest, openDiags);
    // Quiet period: let any follow-up publication (e.g. a settings refresh) pass.
    await new Promise((r) => setTimeout(r, 250));

    const editOffset = offsetAt(text, manifest.spots.edit);
    const editToDiagnosticsMs: number[] = [];
    const editDiagnostics: number[] = [];
    for (let i = 0; i < options.inner * 2; i++) {
      // Alternate: insert one character, then delete it again.
      const insert = i % 2 === 0;
      const change = insert
        ? { range: { start: manifest.spots.edit, end: manifest.spots.edit }, text: 'x' }
        : {
            range: {
              start: manifest.spots.edit,
              end: { line: manifest.spots.edit.line, character: manifest.spots.edit.character + 1 },
            },
            text: '',
          };
      text = insert
        ? text.slice(0, editOffset) + 'x' + text.slice(editOffset)
        : text.slice(0, editOffset) + text.slice(editOffset + 1);
      version += 1;
      const wait = session.diagnosticsFor(uri, version, timeout);
      const t = now();
      await session.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [syncKind === 2 ? change : { text }],
      });
      const diags = await wait;
      const ms = now() - t;
      // The edit (inside a prompt's text) changes no finding: a different count means the
      // publication timed was not the whole validation of this version.
      if (diags.length !== openDiags.length)
        throw new Error(
          `${spec.name} ${manifest.name}: ${diags.length} diagnostics after edit ${i + 1}, ${openDiags.length} on open`,
        );
      // The first edit after open is a warm-up for the incremental path (and JIT); keep
      // every measurement after it.
      if (i > 0) {
        editToDiagnosticsMs.push(ms);
        editDiagnostics.push(diags.length);
      }
      await new Promise((r) => setTimeout(r, 30));
    }

    const completionKeyMs: number[] = [];
    const completionValueMs: number[] = [];
    let completionKeyItems = 0;
    let completionValueItems = 0;
    const hoverMs: number[] = [];
    let hoverFound = false;
    const count = (result: unknown): number =>
      Array.isArray(result) ? result.length : ((result as { items?: unknown[] } | null)?.items?.length ?? 0);
    for (let i = 0; i < options.inner + 1; i++) {
      let t = now();
      const key = await session.connection.sendRequest('textDocument/completion', {
        textDocument: { uri },
        position: manifest.spots.completionKey,
        context: { triggerKind: 1 },
      });
      if (i > 0) completionKeyMs.push(now() - t);
      completionKeyItems = count(key);
      t = now();
      const value = await session.connection.sendRequest('textDocument/completion', {
        textDocument: { uri },
        position: manifest.spots.completionValue,
        context: { triggerKind: 1 },
      });
      if (i > 0) completionValueMs.push(now() - t);
      completionValueItems = count(value);
      t = now();
      const hover = await session.connection.sendRequest('textDocument/hover', {
        textDocument: { uri },
        position: manifest.spots.hoverKey,
      });
      if (i > 0) hoverMs.push(now() - t);
      hoverFound = hover !== null && hover !== undefined;
    }
    const peakRssMb = session.peakRssMb();
    return {
      startupMs,
      openToDiagnosticsMs,
      openDiagnostics: openDiags.length,
      editToDiagnosticsMs,
      editDiagnostics,
      completionKeyMs,
      completionKeyItems,
      completionValueMs,
      completionValueItems,
      hoverMs,
      hoverFound,
      peakRssMb,
      syncKind,
      versionedDiagnostics: session.versionedDiagnostics,
      openErrors: openDiags.filter((d) => d.severity === 1).length,
    };
  } catch (error) {
    options.log?.(`${spec.name} stderr: ${session.stderr.slice(0, 2000)}`);
    throw error;
  } finally {
    clearTimeout(initTimer);
    await session.close();
  }
}

/** The first line of the entry holding `line`: a list item or an agent/app (YAML), the last `[table]` header (TOML). */
function entryStart(lines: string[], line: number, format: GeneratedManifest['format']): number {
  const start = format === 'toml' ? /^\[/ : /^ {2}(- |[A-Za-z0-9_-]+:\s*$)/;
  for (let i = line; i >= 0; i--) if (start.test(lines[i]!)) return i;
  return 0;
}

/** Whether the server is expected to see this mistake. */
export const expected = (spec: ServerSpec, error: InjectedError) => spec.crossReferences || !error.crossReference;

/**
 * Throws unless the diagnostics show that the server validated the whole document (a server that
 * answers "file too large", or nothing, is not a measurement): no diagnostic may speak of the
 * file's size; a manifest without mistakes gets no error; and every injected mistake the server
 * can see (all of them when it checks references, else those a JSON Schema describes) has a
 * diagnostic on its line, or, for a misspelt key, anywhere from its entry's first line to it (a
 * schema reports the required key that is now missing on the entry).
 */
export function checkDiagnostics(spec: ServerSpec, manifest: GeneratedManifest, diagnostics: Diagnostic[]): void {
  const where = `${spec.name} on ${manifest.name} (${manifest.lines} lines, ${manifest.bytes} bytes)`;
  const size = diagnostics.find((d) => /too (large|big)|larger than|file size|maxFileSize|exceeds/i.test(d.message));
  if (size) throw new Error(`${where}: not validated: "${size.message}"`);
  if (manifest.injected.length === 0) {
    const errors = diagnostics.filter((d) => d.severity === 1);
    if (errors.length)
      throw new Error(
        `${where}: ${errors.length} error(s) on a manifest without mistakes, first at line ${errors[0]!.range.start.line + 1}: ${errors[0]!.message}`,
      );
    return;
  }
  const lines = manifest.text.split('\n');
  const missed = manifest.injected.filter((error) => {
    if (!expected(spec, error)) return false;
    const from = error.kind === 'typo-key' ? entryStart(lines, error.line, manifest.format) : error.line;
    return !diagnostics.some((d) => d.range.start.line >= from && d.range.start.line <= error.line);
  });
  if (missed.length) {
    const list = missed.slice(0, 5).map((e) => `line ${e.line + 1} (${e.kind}: ${lines[e.line]!.trim()})`);
    const seen = manifest.injected.filter((e) => expected(spec, e)).length;
    throw new Error(
      `${where}: ${missed.length} of the ${seen} injected mistakes it should see have no diagnostic (${diagnostics.length} published): ${list.join('; ')}`,
    );
  }
}

export interface Stat {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function stat(values: number[]): Stat {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return { median: NaN, min: NaN, max: NaN, n: 0 };
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, n: sorted.length };
}

export interface ServerResult {
  server: string;
  manifest: string;
  format: GeneratedManifest['format'];
  lines: number;
  bytes: number;
  startupMs: Stat;
  openToDiagnosticsMs: Stat;
  editToDiagnosticsMs: Stat;
  completionKeyMs: Stat;
  completionValueMs: Stat;
  hoverMs: Stat;
  peakRssMb: Stat;
  openDiagnostics: number;
  editDiagnostics: number;
  completionKeyItems: number;
  completionValueItems: number;
  hoverFound: boolean;
  syncKind: number;
  versionedDiagnostics: boolean;
  /** Injected mistakes, and how many of them this server is expected to report (and did: checked). */
  injectedErrors: number;
  injectedErrorsChecked: number;
  openErrors: number;
}

/** One server's spawns on one manifest (at least one), every figure as median/min/max. */
export function summarizeSpawns(
  spec: ServerSpec,
  manifest: GeneratedManifest,
  samples: readonly SpawnSample[],
): ServerResult {
  const last = samples[samples.length - 1]!;
  return {
    server: spec.name,
    manifest: manifest.name,
    format: manifest.format,
    lines: manifest.lines,
    bytes: manifest.bytes,
    startupMs: stat(samples.map((s) => s.startupMs)),
    openToDiagnosticsMs: stat(samples.map((s) => s.openToDiagnosticsMs)),
    editToDiagnosticsMs: stat(samples.flatMap((s) => s.editToDiagnosticsMs)),
    completionKeyMs: stat(samples.flatMap((s) => s.completionKeyMs)),
    completionValueMs: stat(samples.flatMap((s) => s.completionValueMs)),
    hoverMs: stat(samples.flatMap((s) => s.hoverMs)),
    peakRssMb: stat(samples.map((s) => s.peakRssMb)),
    openDiagnostics: last.openDiagnostics,
    editDiagnostics: last.editDiagnostics[last.editDiagnostics.length - 1] ?? -1,
    completionKeyItems: last.completionKeyItems,
    completionValueItems: last.completionValueItems,
    hoverFound: last.hoverFound,
    syncKind: last.syncKind,
    versionedDiagnostics: last.versionedDiagnostics,
    injectedErrors: manifest.injected.length,
    injectedErrorsChecked: manifest.injected.filter((e) => expected(spec, e)).length,
    openErrors: last.openErrors,
  };
}
