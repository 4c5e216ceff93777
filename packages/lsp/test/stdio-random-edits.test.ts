/**
 * Drives the built server over a real stdio connection with thousands of random edits
 * (insertions, deletions, pasted garbage) and asserts it answers every request, never
 * publishes diagnostics for an old version, and ends up agreeing with a fresh parse.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic, Range } from 'vscode-languageserver';
import { createState } from '../src/document-state.js';
import { computeDiagnostics } from '../src/features/diagnostics.js';
import { documentSymbols } from '../src/features/document-symbols.js';
import { FEATURES } from '../src/features/index.js';
import { ensureBuiltServer, startStdioClient, type StdioClient } from './built-server.js';

/** mulberry32: a small seeded generator, so a failure can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const YAML_START = `svc_version: 2
default_agent: coder
agents:
  coder:
    sandbox: base
    connectors: [github]
  reviewer:
    enabled: true
sandbox:
  default: base
  templates:
    - slug: base
      image: node:20
connectors:
  - slug: github
    provider: managed_a
    app: github
triggers:
  - slug: nightly
    type: cron
    cron: "0 9 * * *"
    agent: coder
    prompt: go
`;

const TOML_START = `svc_version = 2
default_agent = "coder"

[agents.coder]
sandbox = "base"
connectors = ["github"]

[sandbox]
default = "base"
templates = [{ slug = "base", image = "node:20" }]

[[connectors]]
slug = "github"
provider = "managed_a"
app = "gh"
`;

const FRAGMENTS = [
  '\n',
  '\n  ',
  '\n    - ',
  ': ',
  ' = ',
  '- ',
  '  ',
  '\t',
  '#',
  '"',
  "'",
  '[',
  ']',
  '{',
  '}',
  ',',
  '&a ',
  '*a',
  '|',
  '>',
  '!!str ',
  '---\n',
  '...\n',
  'agents',
  'slug: x',
  'type: monitor',
  'provider',
  'svc_version: 1',
  'svc_version = 1',
  '[[triggers]]\n',
  '[agents.x]\n',
  'connectors = ["',
  'mode: poll',
  '😀',
  '名前',
  '🎉x',
  '\r\n',
  '\u00a0',
  'é',
  '\\',
  '%',
  '@',
  '`',
  '<<: *a\n',
  '~',
  'null',
  '0x1F',
  '1e99',
  '-',
  '?',
  '__proto__: 1\n',
];

/** An LSP position: `\n`, `\r\n` and a lone `\r` each end a line. */
function positionAt(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || (code === 13 && text.charCodeAt(i + 1) !== 10)) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, character: offset - lineStart };
}

const REQUESTS = [
  'textDocument/completion',
  'textDocument/hover',
  'textDocument/definition',
  'textDocument/references',
  'textDocument/documentSymbol',
  'textDocument/foldingRange',
  'textDocument/codeAction',
  'textDocument/prepareRename',
] as const;

/** What the server should answer a request on `state`: the feature's handler run directly, as JSON. */
function expectedAnswer(method: string, state: ReturnType<typeof createState>, params: unknown): unknown {
  const handler = FEATURES.flatMap((feature) => feature.handlers).find((h) => h.method === method);
  if (!handler) throw new Error(`no handler for ${method}`);
  try {
    return JSON.parse(JSON.stringify(handler.run(state, params, {}) ?? null));
  } catch {
    // The server logs a throw and answers the fallback (the test then fails on the log).
    return JSON.parse(JSON.stringify(handler.fallback ?? null));
  }
}

async function fuzz(
  client: StdioClient,
  uri: string,
  languageId: string,
  start: string,
  edits: number,
  seed: number,
): Promise<void> {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  let text = start;
  let version = 1;
  await client.connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId, version, text },
  });
  const pending: Promise<{ method: string; error?: unknown; answer?: unknown; sentAt?: number; params?: unknown }>[] =
    [];
  /** The text of every version, to check answers against. */
  const texts = [start];
  for (let i = 0; i < edits; i++) {
    const roll = next();
    let from = Math.floor(next() * (text.length + 1));
    let to = from;
    let insert = '';
    if (roll < 0.45) {
      insert = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(FRAGMENTS)).join('');
    } else if (roll < 0.8 || text.length > 6000) {
      to = Math.min(text.length, from + Math.floor(next() * 25));
    } else if (roll < 0.9) {
      // Paste a copy of another part of the document.
      const a = Math.floor(next() * text.length);
      insert = text.slice(a, a + Math.floor(next() * 120));
    } else {
      // Paste garbage: random code units, including lone surrogates and control characters.
      insert = Array.from({ length: Math.floor(next() * 40) }, () =>
        String.fromCharCode(Math.floor(next() * 0xffff)),
      ).join('');
      to = Math.min(text.length, from + Math.floor(next() * 10));
    }
    if (from > to) [from, to] = [to, from];
    // LSP positions cannot point between a \r and its \n.
    const between = (at: number) => at > 0 && text.charCodeAt(at - 1) === 13 && text.charCodeAt(at) === 10;
    if (between(from)) from -= 1;
    if (between(to)) to -= 1;
    const range: Range = { start: positionAt(text, from), end: positionAt(text, to) };
    text = text.slice(0, from) + insert + text.slice(to);
    version += 1;
    texts[version - 1] = text;
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ range, text: insert }],
    });
    // Now and then the client waits for this version's diagnostics, so validations run mid-stream.
    if (i % 200 === 199) {
      const current = version;
      await client.until(
        () =>
          client.notifications.some(
            (n) =>
              n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === current,
          ),
        `diagnostics for version ${current}`,
        60_000,
      );
    }
    if (i % 5 === 0) {
      const method = pick(REQUESTS);
      const position = { line: Math.floor(next() * (text.split('\n').length + 1)), character: Math.floor(next() * 40) };
      const params: Record<string, unknown> = { textDocument: { uri }, position };
      if (method === 'textDocument/references') params.context = { includeDeclaration: true };
      if (method === 'textDocument/codeAction') {
        delete params.position;
        params.range = { start: position, end: position };
        params.context = { diagnostics: [] };
      }
      const sentAt = version;
      pending.push(
        client.connection.sendRequest(method, params).then(
          (answer: unknown) => ({ method, answer: JSON.parse(JSON.stringify(answer ?? null)), sentAt, params }),
          (error: unknown) => ({ method, error }),
        ),
      );
    }
  }
  const answers = await Promise.all(pending);
  expect(answers.filter((a) => a.error)).toEqual([]);
  // No handler threw (a throw would be answered with an empty result, and logged).
  expect(
    client.notifications
      .filter((n) => n.method === 'window/logMessage' && /failed/.test(n.params.message))
      .map((n) => n.params.message),
  ).toEqual([]);
  expect(answers.length).toBe(Math.ceil(edits / 5));
  // Every answer is computed from the newest text the server had when it answered: the text the
  // request was sent after, or a later one (requests wait until the edits already received are
  // applied). So it equals the same feature run on a fresh parse of one of those versions.
  // (Completion is left out: while the text does not parse, it reads names from the last tree that did.)
  const parsed = new Map<number, ReturnType<typeof createState>>();
  const stateAt = (v: number) => parsed.get(v) ?? parsed.set(v, createState(uri, v, texts[v - 1]!)).get(v)!;
  const checked = answers.filter((a) => a.method !== 'textDocument/completion');
  expect(checked.length).toBeGreaterThan(answers.length / 2);
  const unmatched = checked.filter((a) => {
    const got = JSON.stringify(a.answer);
    for (let v = a.sentAt!; v <= version; v++)
      if (JSON.stringify(expectedAnswer(a.method, stateAt(v), a.params)) === got) return false;
    return true;
  });
  expect(unmatched.map((a) => ({ method: a.method, sentAt: a.sentAt }))).toEqual([]);

  // The server's view of the text is ours: its outline and diagnostics equal a fresh parse's.
  const fresh = createState(uri, version, text);
  const symbols = await client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
  expect(symbols).toEqual(JSON.parse(JSON.stringify(documentSymbols(fresh))));
  const published = await client.until(
    () =>
      client.notifications.find(
        (n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri && n.params.version === version,
      ),
    `diagnostics for version ${version}`,
    60_000,
  );
  const expected: Diagnostic[] = JSON.parse(JSON.stringify(computeDiagnostics(fresh)));
  expect(published.params.diagnostics).toEqual(expected);

  // Never stale: published versions only go up, and diagnostics were published along the way.
  const versions = client.notifications
    .filter((n) => n.method === 'textDocument/publishDiagnostics' && n.params.uri === uri)
    .map((n) => n.params.version as number);
  expect(versions).toEqual([...versions].sort((a, b) => a - b));
  expect(versions.length).toBeGreaterThan(3);
  expect(client.process.exitCode).toBeNull();
}

describe('the built server under thousands of random edits over stdio', () => {
  let client: StdioClient;
  beforeAll(async () => {
    ensureBuiltServer();
    client = await startStdioClient();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('keeps answering every request (YAML)', async () => {
    await fuzz(client, 'file:///work/fuzz/svc.yaml', 'yaml', YAML_START, 3000, 0x5eed);
  }, 180_000);

  it('keeps answering every request (TOML)', async () => {
    await fuzz(client, 'file:///work/fuzz/svc.toml', 'toml', TOML_START, 2000, 0xbeef);
  }, 180_000);

  it('answers a request whose handler throws with an empty result, logs it, and keeps going', async () => {
    const uri = 'file:///work/fuzz/broken/svc.yaml';
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text: 'svc_version: 2\n' },
    });
    // A position of null makes the hover handler throw inside.
    const answer = await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: null });
    expect(answer).toBeNull();
    await client.until(
      () => client.notifications.find((n) => n.method === 'window/logMessage' && /hover failed/.test(n.params.message)),
      'the logged failure',
    );
    const symbols = await client.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    expect(symbols).toMatchObject([{ name: 'svc_version' }]);
    expect(client.stderr()).not.toMatch(/uncaught/);
  });
});
