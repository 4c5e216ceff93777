/**
 * The published schema in the editor tool most people already use: redhat's
 * yaml-language-server (1.25.0, from npm), started over stdio with
 * `generated/svc.schema.json` associated through `yaml.schemas`, must report an invalid
 * fixture's problem on the expected line, and nothing at all (no error, warning or hint) on
 * any valid YAML fixture: the way most people will consume the published schema.
 *
 * Lines are found by text (`lineContaining`), never by number. Waits are bounded and only
 * wait for `textDocument/publishDiagnostics`; nothing asserts on timing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { EditorServer, YAML_LANGUAGE_SERVER } from './support/editor-server.js';
import { REPO_ROOT, SCHEMA_DIR, loadExamples, loadFixtures } from './support/fixtures.js';

const SCHEMA_URI = pathToFileURL(join(SCHEMA_DIR, 'svc.schema.json')).href;
/** Upper bound for one document's diagnostics to arrive; generous for slow CI machines. */
const WAIT_MS = 30_000;
const ERROR = 1;

/** Settings answered to the server's `workspace/configuration` pull (sections yaml, http, [yaml], editor). */
const SETTINGS: Record<string, unknown> = {
  yaml: {
    validate: true,
    hover: true,
    completion: true,
    schemaStore: { enable: false },
    schemas: { [SCHEMA_URI]: ['*.yaml'] },
  },
  http: { proxy: '', proxyStrictSSL: false },
  '[yaml]': {},
  editor: {},
};

let server: EditorServer;
let configurationPulls = 0;
/** Resolves at the server's first workspace/configuration pull. */
let firstPull: () => void = () => {};
const pulled = new Promise<void>((resolve) => (firstPull = resolve));

function fixtureText(path: string): string {
  return readFileSync(join(REPO_ROOT, path), 'utf8');
}

/** 0-based line of the first line containing `needle` (fails the test when there is none). */
function lineContaining(text: string, needle: string): number {
  const line = text.split('\n').findIndex((l) => l.includes(needle));
  if (line < 0) throw new Error(`no line contains ${JSON.stringify(needle)}`);
  return line;
}

/** The newest diagnostics for `uri` once `accept` holds, or the newest ones after the wait (undefined if none). */
function diagnosticsFor(uri: string, accept: (d: Diagnostic[]) => boolean): Promise<Diagnostic[] | undefined> {
  return server.diagnostics(uri, accept).catch(() => undefined);
}

let version = 0;
function open(path: string): { uri: string; text: string } {
  const text = fixtureText(path);
  // A distinct URI per open, ending in .yaml so `yaml.schemas` associates the schema.
  const uri = pathToFileURL(join(REPO_ROOT, path)).href.replace(/\.yaml$/, `.open${++version}.yaml`);
  void server.open(uri, text, 'yaml');
  return { uri, text };
}

function describeDiagnostics(list: Diagnostic[] | undefined): string {
  if (!list) return 'no publishDiagnostics received';
  return (
    list.map((d) => `line ${d.range.start.line + 1} [${d.severity}] ${d.source ?? ''}: ${d.message}`).join('\n') ||
    '(empty)'
  );
}

beforeAll(async () => {
  server = await EditorServer.start({
    ...YAML_LANGUAGE_SERVER,
    cwd: REPO_ROOT,
    rootUri: pathToFileURL(REPO_ROOT).href,
    settings: (section) => {
      configurationPulls += 1;
      firstPull();
      return SETTINGS[section ?? ''] ?? null;
    },
  });
  expect(server.capabilities).toBeDefined();
  // The server pulls its settings after `initialized`; wait until it has (a guard: WAIT_MS at most).
  let guard: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([pulled, new Promise<void>((resolve) => (guard = setTimeout(resolve, WAIT_MS)))]);
  clearTimeout(guard);
  expect(configurationPulls, `the server never asked for workspace/configuration\n${server.stderr}`).toBeGreaterThan(0);
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

/** Invalid fixtures and the text of the line the schema problem must be reported on. */
const INVALID_CASES: { fixture: string; line: string; what: string }[] = [
  {
    fixture: 'fixtures/trigger-monitor-fields/invalid/v2-cron-key.yaml',
    line: 'cron: "*/5 * * * *"',
    what: 'a monitor trigger with `cron`',
  },
  {
    fixture: 'fixtures/unknown-key/invalid/v2-agent-extra-key.yaml',
    line: 'model: large',
    what: 'an unknown key in a v2 agent',
  },
  {
    fixture: 'fixtures/invalid-value/invalid/v2-credential-personal.yaml',
    line: 'credential: personal',
    what: 'v2 connector credential other than `shared`',
  },
  { fixture: 'fixtures/out-of-range/invalid/v2-port-8080.yaml', line: 'port: 8080', what: 'a reserved app port' },
];

/** Every valid YAML fixture (and the examples): the published schema must be silent on each. */
const VALID_CASES = [
  ...loadFixtures()
    .filter((fixture) => fixture.format === 'yaml' && fixture.verdict === 'valid' && fixture.folder === 'valid')
    .map((fixture) => fixture.name),
  ...loadExamples()
    .filter((example) => example.format === 'yaml')
    .map((example) => example.name),
];

// Sequential on purpose: the invalid cases prove the schema is loaded before a valid
// document's first (and only) publication is read as "no errors".
describe.sequential('yaml-language-server 1.25.0 with generated/svc.schema.json', () => {
  for (const { fixture, line, what } of INVALID_CASES) {
    it(`reports ${what} on its line (${fixture})`, async () => {
      const { uri, text } = open(fixture);
      const expected = lineContaining(text, line);
      const diagnostics = await diagnosticsFor(uri, (list) => list.some((d) => d.range.start.line === expected));
      expect(
        diagnostics?.some((d) => d.range.start.line === expected && d.severity === ERROR),
        `expected an error on line ${expected + 1} (${line}); got:\n${describeDiagnostics(diagnostics)}`,
      ).toBe(true);
    });
  }

  it('has the valid fixtures to check', () => {
    expect(VALID_CASES.length).toBeGreaterThan(30);
  });

  for (const fixture of VALID_CASES) {
    it(`reports no diagnostics on ${fixture}`, async () => {
      const { uri } = open(fixture);
      const diagnostics = await diagnosticsFor(uri, () => true);
      expect(diagnostics, 'no publishDiagnostics received').toBeDefined();
      expect(diagnostics, describeDiagnostics(diagnostics)).toEqual([]);
    });
  }
});
