/** Real git repositories and catalogs in temporary folders, for tests. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ApplyOptions, ValidateFn } from '../../src/index.js';

const made: string[] = [];

export function tempDir(prefix = 'svc-gitops-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function cleanupTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

const IDENTITY_ENV = {
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.test',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.test',
};

/** Runs git in `cwd` and returns stdout as text (no trimming). */
export function git(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', args, { cwd, input, env: { ...process.env, ...IDENTITY_ENV, LC_ALL: 'C' }, maxBuffer: 64 << 20 }).toString('utf8');
}

/** Raw bytes of `path` at `rev`. */
export function show(repo: string, rev: string, path: string): Buffer {
  return execFileSync('git', ['show', `${rev}:${path}`], { cwd: repo, maxBuffer: 64 << 20 });
}

export function writeFiles(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, ...path.split('/'));
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/**
 * A repository with one commit holding `files`. Non-bare: the work tree; bare: a bare
 * clone (the seed work tree is discarded).
 */
export function makeRepo(files: Record<string, string | Uint8Array>, options: { bare?: boolean } = {}): string {
  const dir = tempDir();
  const work = join(dir, 'work');
  git(dir, ['init', '-q', '-b', 'main', work]);
  git(work, ['config', 'core.autocrlf', 'false']);
  writeFiles(work, files);
  git(work, ['add', '-A']);
  git(work, ['commit', '-q', '-m', 'initial']);
  if (!options.bare) return work;
  const bare = join(dir, 'repo.git');
  git(dir, ['clone', '-q', '--bare', work, bare]);
  return bare;
}

export function head(repo: string, ref = 'main'): string {
  return git(repo, ['rev-parse', ref]).trim();
}

/** Subjects of the branch's history, newest first. */
export function subjects(repo: string, ref = 'main'): string[] {
  return git(repo, ['log', '--format=%s', ref]).trim().split('\n');
}

/** Lines `+…`/`-…` of the diff between two revisions of one file (no context). */
export function changedLines(repo: string, from: string, to: string, path: string): string[] {
  return git(repo, ['diff', '--no-color', '-U0', from, to, '--', path])
    .split('\n')
    .filter((line) => /^[+-]/.test(line) && !/^(\+\+\+|---) /.test(line));
}

let validator: Promise<ValidateFn | undefined> | undefined;

/**
 * The toolchain's validator when it is available. Tests pass it explicitly so a
 * missing validator shows up as a clear skip reason rather than an import error.
 */
export function realValidator(): Promise<ValidateFn | undefined> {
  validator ??= import('@svc-manifest/validator' as string)
    .then((module: { validateManifest?: ValidateFn }) => module.validateManifest)
    .catch(() => undefined);
  return validator;
}

export const AUTHOR = { name: 'Svc Bot', email: 'bot@example.test' };

/** Apply options used by the tests: a fixed identity and the real validator when present. */
export async function applyOptions(extra: ApplyOptions = {}): Promise<ApplyOptions> {
  const validate = await realValidator();
  return { author: AUTHOR, ...(validate ? { validate } : { validate: standInValidate }), ...extra };
}

/**
 * Used only while `@svc-manifest/validator` does not export `validateManifest` yet:
 * checks the few rules the tests rely on (see the README's note on validation).
 */
export const standInValidate: ValidateFn = async (text, { format }) => {
  const { yamlValue } = await import('../../src/manifest/yaml-editor.js');
  const { tomlValue } = await import('../../src/manifest/toml-editor.js');
  const doc = (format === 'yaml' ? yamlValue(text) : tomlValue(text)) as Record<string, unknown>;
  const diagnostics: { code: string; message: string; path: string }[] = [];
  const allowed = new Set(['enabled', 'sandbox', 'connectors', 'secrets', 'skills', 'svc_cli', 'connectors_required', 'connectors_personal', 'workspace']);
  if (doc.svc_version === 2) {
    for (const [name, agent] of Object.entries((doc.agents ?? {}) as Record<string, Record<string, unknown>>)) {
      for (const key of Object.keys(agent ?? {})) if (!allowed.has(key)) diagnostics.push({ code: 'unknown-key', message: `unknown key '${key}'`, path: `/agents/${name}/${key}` });
    }
  }
  for (const [i, trigger] of ((doc.triggers ?? []) as Record<string, unknown>[]).entries()) {
    if (trigger.type === 'webhook' && !trigger.secret_env && !trigger.secretEnv) diagnostics.push({ code: 'trigger-webhook-secret', message: 'webhook trigger needs secret_env', path: `/triggers/${i}` });
  }
  const at = { offset: 0, line: 1, column: 1 };
  return { ok: diagnostics.length === 0, diagnostics: diagnostics.map((d) => ({ ...d, severity: 'error' as const, range: { start: at, end: at } })) };
};
