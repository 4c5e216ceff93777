/**
 * The servers the benchmark drives: ours (the bundled svc-manifest-lsp), redhat's
 * yaml-language-server 1.25.0 as installed (stock, 200 ms validation delay), and a copy of it
 * with that delay set to 0 ("patched"). The copy lives in .bench-work/ (git-ignored);
 * node_modules is never modified.
 */
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { computeDiagnostics, createState } from '@svc-manifest/lsp';
import type { GeneratedManifest } from './generate.ts';
import type { ServerSpec } from './lsp-harness.ts';

export const ROOT = join(import.meta.dirname, '..');
export const WORK = join(ROOT, '.bench-work');
export const SCHEMA_V2 = join(ROOT, 'packages', 'schema', 'generated', 'svc.v2.schema.json');
export const OUR_SERVER = join(ROOT, 'packages', 'lsp', 'dist', 'svc-manifest-lsp.cjs');
const YLS_INSTALLED = join(ROOT, 'node_modules', 'yaml-language-server');
const YLS_PATCHED = join(WORK, 'yls-patched', 'yaml-language-server');

/** The file and the statement that fixes YLS's delay before every validation. */
const DELAY_FILE = join('out', 'server', 'src', 'yamlSettings.js');
const DELAY_STATEMENT = 'this.validationDelayMs = 200;';

export function ylsVersion(dir = YLS_INSTALLED): string {
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Copies the installed YLS into .bench-work/yls-patched and sets its validation delay to 0.
 * (`validationDelayMs` is read by ValidationHandler.validate's setTimeout on every change.)
 * Requires from the copy still resolve the root node_modules, since .bench-work is inside the repo.
 */
export function preparePatchedYls(): string {
  const stamp = join(YLS_PATCHED, '.bench-patched');
  const version = ylsVersion();
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== version) {
    rmSync(YLS_PATCHED, { recursive: true, force: true });
    cpSync(YLS_INSTALLED, YLS_PATCHED, { recursive: true, dereference: true });
    const file = join(YLS_PATCHED, DELAY_FILE);
    const source = readFileSync(file, 'utf8');
    if (!source.includes(DELAY_STATEMENT))
      throw new Error(`cannot find '${DELAY_STATEMENT}' in ${file}: YLS changed, update bench/servers.ts`);
    writeFileSync(
      file,
      source.replace(DELAY_STATEMENT, 'this.validationDelayMs = 0; /* patched by bench/servers.ts */'),
    );
    writeFileSync(stamp, version);
  }
  return YLS_PATCHED;
}

function ylsConfiguration(section: string | undefined): unknown {
  switch (section) {
    case 'yaml':
      return {
        schemas: { [pathToFileURL(SCHEMA_V2).href]: ['svc.yaml'] },
        schemaStore: { enable: false },
        kubernetesCRDStore: { enable: false },
        validate: true,
        completion: true,
        hover: true,
        format: { enable: false },
      };
    case 'http':
    case '[yaml]':
    case 'editor':
      return {};
    default:
      return null;
  }
}

export function ylsSpec(kind: 'stock' | 'patched'): ServerSpec {
  const dir = kind === 'stock' ? YLS_INSTALLED : preparePatchedYls();
  return {
    name: `yls-${kind}`,
    command: process.execPath,
    args: [join(dir, 'bin', 'yaml-language-server'), '--stdio'],
    crossReferences: false,
    configuration: ylsConfiguration,
  };
}

/**
 * Ours with its documented defaults for section `svc`, except the size limit: the default
 * (1 MiB) is below the 50k-line manifest (~1.5 MB), and a server that refuses the file would
 * not be measured at all.
 */
export const OUR_SETTINGS = {
  enable: true,
  files: { extraPatterns: [] },
  validation: { maxFileSizeBytes: 16 * 1024 * 1024 },
};

export function ourSpec(): ServerSpec {
  return {
    name: 'ours',
    command: process.execPath,
    args: [OUR_SERVER, '--stdio'],
    crossReferences: true,
    configuration: (section) => (section === 'svc' ? OUR_SETTINGS : null),
  };
}

const TAPLO_PACKAGE = join(ROOT, 'node_modules', '@taplo', 'lsp');
export const TAPLO_LAUNCHER = join(ROOT, 'bench', 'taplo-server.mjs');

export function taploVersion(): string {
  return existsSync(TAPLO_PACKAGE) ? ylsVersion(TAPLO_PACKAGE) : 'not installed';
}

/**
 * Taplo's settings (section `evenBetterToml`, as the extension sends them): our published
 * schema for every svc.toml, as a local file; no schema catalogs (they are fetched from the
 * network), no Taplo config file, no links.
 */
export const TAPLO_SETTINGS = {
  schema: {
    enabled: true,
    associations: { '.*/svc\\.toml$': pathToFileURL(SCHEMA_V2).href },
    catalogs: [],
    links: false,
  },
  taplo: { configFile: { enabled: false } },
  completion: { maxKeys: 5 },
  syntax: { semanticTokens: false },
};

/**
 * Taplo (@taplo/lsp 0.8, the engine Even Better TOML bundles), run as the extension runs it: a
 * node module over an IPC channel (bench/taplo-server.mjs), offline. Taplo has no file size
 * limit to raise. It publishes up to three times per change (syntax, structure, schema), each
 * only when the one before found nothing: the validation ends with the first non-empty one, or
 * the third.
 */
export function taploSpec(): ServerSpec {
  return {
    name: 'taplo',
    command: process.execPath,
    args: [TAPLO_LAUNCHER],
    transport: 'ipc',
    crossReferences: false,
    initializationOptions: { configurationSection: 'evenBetterToml', cachePath: join(WORK, 'taplo-cache') },
    configuration: (section) => (section === 'evenBetterToml' ? TAPLO_SETTINGS : null),
    validationDone: (diagnostics, count) => diagnostics.length > 0 || count >= 3,
  };
}

const FLOOR_SERVER = join(WORK, 'floor-server.cjs');

/**
 * Writes the list ours publishes for `manifest` as opened (computed in process, as the server
 * computes it) to a JSON file for {@link floorSpec}. The benchmark's edits change one character
 * of a prompt, so every version publishes a list as long.
 */
export function writeOurPublication(manifest: GeneratedManifest): { file: string; count: number } {
  const published = computeDiagnostics(
    createState(`file:///tmp/svc-manifest-bench/svc.${manifest.format}`, 1, manifest.text, {
      maxFileSizeBytes: 64 * 1024 * 1024,
    }),
  );
  mkdirSync(WORK, { recursive: true });
  const file = join(WORK, `published-${manifest.name}.json`);
  writeFileSync(file, JSON.stringify(published));
  return { file, count: published.length };
}

/**
 * The floor an edit costs over the protocol: bench/floor-server.ts, a vscode-languageserver server
 * that validates nothing. It keeps each file in the library's `TextDocuments` (one string per file;
 * ours holds PieceTexts) and, for every version, publishes the list in the JSON file named by
 * `published` (none: an empty list). Given the list ours publishes for a file, it pays what the client and
 * the pipe cost for a publication that long, and nothing else: with hundreds of diagnostics that
 * part grows with the file, whoever computes them. `readsText` also reads the text once per
 * edit (a server that checks anything must: V8 then copies the edited text into one flat string).
 */
export async function floorSpec(
  options: { name?: string; published?: string; readsText?: boolean } = {},
): Promise<ServerSpec> {
  await (floorBuilt ??= buildFloorServer());
  return {
    name: options.name ?? 'floor',
    command: process.execPath,
    args: [
      FLOOR_SERVER,
      '--stdio',
      ...(options.published ? [`--publishes=${options.published}`] : []),
      ...(options.readsText ? ['--reads-text'] : []),
    ],
    crossReferences: false,
    configuration: () => null,
  };
}

/** The floor server's bundle, built once per run from bench/floor-server.ts (never a stale one from an earlier run). */
let floorBuilt: Promise<void> | undefined;

async function buildFloorServer(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  const temporary = `${FLOOR_SERVER}.${process.pid}.tmp`;
  await build({
    entryPoints: [join(ROOT, 'bench', 'floor-server.ts')],
    outfile: temporary,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    logLevel: 'warning',
  });
  renameSync(temporary, FLOOR_SERVER);
}

/**
 * Builds a copy of our server from `entry` with the shipped bundle's esbuild settings
 * (packages/lsp/scripts/bundle.mjs: CommonJS, workspace sources), for experiments and profiles.
 */
export async function bundleServerCopy(entry: string, outfile: string, options: { minify: boolean }): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    conditions: ['source'],
    mainFields: ['module', 'main'],
    minify: options.minify,
    logLevel: 'warning',
  });
}
