/**
 * Bursts of edits against our language server (issue #17): how long a request sent right after
 * a burst waits, and how a long random storm of edits and requests is answered.
 *
 *  - Burst: a ~13 KB manifest with about 1,000 diagnostics (one agent naming 1,000 undeclared
 *    connectors) is opened; then 200 edits are sent at once (each renames one reference, so every
 *    version has its own diagnostics) and a hover right behind them. Measured: the hover's latency
 *    (send → answer), the time to the final version's diagnostics, and the validations and
 *    publications the burst cost (the server's `svc/stats` request). Fresh server per repetition.
 *  - Storm: 5,000 random single-range edits on the same manifest, a request every 5th edit
 *    (hover, documentSymbol, foldingRange, definition), sent without waiting; measured: every
 *    request's wait (send → answer), how many waited over a second, the validations, and whether
 *    the last publication equals the diagnostics of a fresh validation of the final text (the
 *    server's own `computeDiagnostics`, run here on the same text).
 *
 * Counts assert the behaviour; times are reported, never asserted.
 */
import { spawn } from 'node:child_process';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { createState } from '../packages/lsp/src/document-state.ts';
import { computeDiagnostics } from '../packages/lsp/src/features/diagnostics.ts';
import { rng } from './generate.ts';
import { stat, type Stat } from './lsp-harness.ts';
import { OUR_SERVER, OUR_SETTINGS } from './servers.ts';

export interface BurstResult {
  manifestBytes: number;
  diagnostics: number;
  edits: number;
  repetitions: number;
  /** Send → answer of a hover sent right after the burst. */
  hoverAfterBurstMs: Stat;
  /** Send of the hover → diagnostics of the burst's last version. */
  finalDiagnosticsMs: Stat;
  /** Validations and publications per burst (from `svc/stats`). */
  validationsPerBurst: Stat;
  publicationsPerBurst: Stat;
  storm: {
    edits: number;
    requests: number;
    waitMs: Stat;
    /** Requests answered more than a second after they were sent. */
    overOneSecond: number;
    validations: number;
    publications: number;
    lastPublicationIsFresh: boolean;
  };
}

interface Stats {
  validations: number;
  publications: number;
  dropped: number;
}

/** The manifest: ~13 KB, one diagnostic per undeclared connector reference. */
export function burstManifest(references = 1000): string {
  let text = 'svc_version: 2\ndefault_agent: a0\nagents:\n  a0:\n    sandbox: base\n    connectors: [\n';
  for (let i = 0; i < references; i++) text += `      cx${i},\n`;
  return text + '    ]\n';
}

interface Session {
  connection: ProtocolConnection;
  publications: { version: number; diagnostics: unknown[]; at: number }[];
  close(): void;
}

async function startOurs(): Promise<Session> {
  const child = spawn(process.execPath, [OUR_SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const publications: Session['publications'] = [];
  connection.onNotification(
    'textDocument/publishDiagnostics',
    (params: { version: number; diagnostics: unknown[] }) => {
      publications.push({ version: params.version, diagnostics: params.diagnostics, at: performance.now() });
    },
  );
  connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
    params.items.map((item) => (item.section === 'svc' ? OUR_SETTINGS : null)),
  );
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: {
      workspace: { configuration: true },
      textDocument: { publishDiagnostics: { versionSupport: true } },
    },
  });
  await connection.sendNotification('initialized', {});
  return {
    connection,
    publications,
    close() {
      connection.dispose();
      child.kill();
    },
  };
}

async function until<T>(predicate: () => T | undefined, what: string, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = predicate();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const URI = 'file:///tmp/svc-manifest-bench/burst/svc.yaml';

async function open(session: Session, text: string): Promise<void> {
  await session.connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri: URI, languageId: 'yaml', version: 1, text },
  });
  await until(() => session.publications.find((p) => p.version === 1), 'the first diagnostics');
}

/** One burst of `edits` renames in a fresh server, and a hover right behind it. */
async function oneBurst(
  edits: number,
): Promise<{ hoverMs: number; finalMs: number; validations: number; publications: number; diagnostics: number }> {
  const session = await startOurs();
  try {
    const text = burstManifest();
    await open(session, text);
    const diagnostics = session.publications[0]!.diagnostics.length;
    const before = await session.connection.sendRequest<Stats>('svc/stats');
    let version = 1;
    for (let i = 0; i < edits; i++) {
      const line = 6 + (i % 1000);
      const character = `      cx${i}`.length;
      version += 1;
      void session.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: URI, version },
        contentChanges: [{ range: { start: { line, character }, end: { line, character } }, text: 'z' }],
      });
    }
    const sent = performance.now();
    await session.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: URI },
      position: { line: 6 + (edits >> 1), character: 8 },
    });
    const hoverMs = performance.now() - sent;
    const final = await until(
      () => session.publications.find((p) => p.version === version),
      `diagnostics for version ${version}`,
    );
    const after = await session.connection.sendRequest<Stats>('svc/stats');
    return {
      hoverMs,
      finalMs: final.at - sent,
      validations: after.validations - before.validations,
      publications: after.publications - before.publications,
      diagnostics,
    };
  } finally {
    session.close();
  }
}

function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    start = i + 1;
  }
  return { line, character: offset - start };
}

const STORM_REQUESTS = [
  'textDocument/hover',
  'textDocument/documentSymbol',
  'textDocument/foldingRange',
  'textDocument/definition',
];
const STORM_INSERTS = ['z', 'cx1', ', ', '\n      cx9', 'a', ' ', '#'];

async function storm(edits: number): Promise<BurstResult['storm']> {
  const session = await startOurs();
  try {
    let text = burstManifest();
    await open(session, text);
    const before = await session.connection.sendRequest<Stats>('svc/stats');
    const next = rng(17); // seeded: the same storm every run
    const waits: Promise<number>[] = [];
    let version = 1;
    for (let i = 0; i < edits; i++) {
      // Edits stay inside the list of references, so the manifest keeps its thousand diagnostics.
      const listStart = text.indexOf('[') + 1;
      const listEnd = text.lastIndexOf(']');
      const from = listStart + Math.floor(next() * (listEnd - listStart));
      const remove = next() < 0.4 ? Math.min(listEnd - from, Math.floor(next() * 4)) : 0;
      const insert = remove > 0 && next() < 0.5 ? '' : STORM_INSERTS[Math.floor(next() * STORM_INSERTS.length)]!;
      const range = { start: positionAt(text, from), end: positionAt(text, from + remove) };
      text = text.slice(0, from) + insert + text.slice(from + remove);
      version += 1;
      void session.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: URI, version },
        contentChanges: [{ range, text: insert }],
      });
      if (i % 5 === 4) {
        const method = STORM_REQUESTS[Math.floor(next() * STORM_REQUESTS.length)]!;
        const sent = performance.now();
        const params = { textDocument: { uri: URI }, position: { line: 6 + Math.floor(next() * 900), character: 8 } };
        waits.push(session.connection.sendRequest(method, params).then(() => performance.now() - sent));
      }
      // Typing-like pauses now and then, so validations start mid-storm.
      if (i % 250 === 249) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const answered = await Promise.all(waits);
    const final = await until(
      () => session.publications.find((p) => p.version === version),
      `diagnostics for version ${version}`,
    );
    const after = await session.connection.sendRequest<Stats>('svc/stats');
    const fresh = JSON.parse(JSON.stringify(computeDiagnostics(createState(URI, version, text))));
    const last = session.publications.at(-1)!;
    return {
      edits,
      requests: answered.length,
      waitMs: stat(answered),
      overOneSecond: answered.filter((ms) => ms > 1000).length,
      validations: after.validations - before.validations,
      publications: after.publications - before.publications,
      lastPublicationIsFresh: last === final && JSON.stringify(final.diagnostics) === JSON.stringify(fresh),
    };
  } finally {
    session.close();
  }
}

export async function benchBurst(options: {
  repetitions: number;
  edits?: number;
  stormEdits?: number;
}): Promise<BurstResult> {
  const edits = options.edits ?? 200;
  const runs: Awaited<ReturnType<typeof oneBurst>>[] = [];
  for (let i = 0; i < options.repetitions; i++) runs.push(await oneBurst(edits));
  const text = burstManifest();
  return {
    manifestBytes: Buffer.byteLength(text),
    diagnostics: runs[0]!.diagnostics,
    edits,
    repetitions: runs.length,
    hoverAfterBurstMs: stat(runs.map((r) => r.hoverMs)),
    finalDiagnosticsMs: stat(runs.map((r) => r.finalMs)),
    validationsPerBurst: stat(runs.map((r) => r.validations)),
    publicationsPerBurst: stat(runs.map((r) => r.publications)),
    storm: await storm(options.stormEdits ?? 5000),
  };
}
