/**
 * `path-not-found`: the paths a manifest names, looked up by the CLI relative to the manifest on
 * disk (`nodeManifestFiles`), never followed out of the repository; `validateManifest` without a
 * file system skips the check.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  nodeManifestFiles,
  runCli,
  sourcePaths,
  ManifestDocument,
  validateManifest,
  type CliIo,
} from '@svc-manifest/validator';

const MANIFEST = `svc_version: 2
default_agent: main
agents:
  main: {}
agent_runtime:
  config_dir: .svc
sandbox:
  templates:
    - slug: base
      dockerfile: "docker/Dockerfile"
    - slug: escape
      dockerfile: outside/Dockerfile
apps:
  web:
    path: web
    root: web/src
    output_dir: web/dist
    dockerfile: web/Dockerfile
`;

let work: string;
let repo: string;
let secret: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'svc-paths-'));
  repo = join(work, 'repo');
  secret = join(work, 'secret');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(join(repo, 'project', 'docker'), { recursive: true });
  mkdirSync(join(repo, 'project', 'web'), { recursive: true });
  mkdirSync(secret, { recursive: true });
  writeFileSync(join(secret, 'Dockerfile'), 'FROM scratch\n');
  writeFileSync(join(repo, 'project', 'docker', 'Dockerfile'), 'FROM scratch\n');
  writeFileSync(join(repo, 'project', 'svc.yaml'), MANIFEST);
  // A link out of the repository: the file behind it exists, but is never looked at.
  symlinkSync(secret, join(repo, 'project', 'outside'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function cli(argv: string[], cwd: string): Promise<{ code: number; stdout: string }> {
  let stdout = '';
  const io: CliIo = { stdout: (t) => (stdout += t), stderr: () => {}, cwd, env: {}, isTty: false };
  return { code: await runCli(argv, io), stdout };
}

describe('sourcePaths', () => {
  it('finds config_dir, template dockerfiles and app paths, with the written characters', () => {
    const document = ManifestDocument.parse(MANIFEST, { format: 'yaml' });
    const paths = sourcePaths(document.root, document.source).map((p) => [
      p.pointer,
      p.value,
      MANIFEST.slice(p.nameStart, p.nameEnd),
      p.output,
    ]);
    expect(paths).toEqual([
      ['/agent_runtime/config_dir', '.svc', '.svc', false],
      ['/sandbox/templates/0/dockerfile', 'docker/Dockerfile', 'docker/Dockerfile', false],
      ['/sandbox/templates/1/dockerfile', 'outside/Dockerfile', 'outside/Dockerfile', false],
      ['/apps/web/path', 'web', 'web', false],
      ['/apps/web/root', 'web/src', 'web/src', false],
      ['/apps/web/output_dir', 'web/dist', 'web/dist', true],
      ['/apps/web/dockerfile', 'web/Dockerfile', 'web/Dockerfile', false],
    ]);
  });

  it("escapes an app's name in the pointer (RFC 6901: ~ as ~0, / as ~1)", () => {
    const text = 'svc_version = 2\n[apps."a/b~c"]\npath = "x"\n';
    const document = ManifestDocument.parse(text, { format: 'toml' });
    expect(sourcePaths(document.root, document.source).map((p) => p.pointer)).toEqual(['/apps/a~1b~0c/path']);
  });
});

describe('nodeManifestFiles', () => {
  it('answers file, folder, missing, and outside for what leaves the repository', () => {
    const files = nodeManifestFiles(join(repo, 'project', 'svc.yaml'));
    expect(
      [
        'docker/Dockerfile',
        'web',
        'web/src',
        'outside',
        'outside/Dockerfile',
        'outside/none',
        '../svc.yaml',
        '/etc/passwd',
        'a\0b',
      ].map((p) => files.stat(p)),
    ).toEqual(['file', 'folder', 'missing', 'outside', 'outside', 'outside', 'outside', 'outside', 'outside']);
  });
});

describe('the CLI', () => {
  it('warns on each missing source path, never on output_dir or a path through a link out of the repository', async () => {
    const result = await cli(['validate', '--format', 'json', 'svc.yaml'], join(repo, 'project'));
    const found = (
      JSON.parse(result.stdout) as { messages: { ruleId: string; line: number; column: number; endColumn: number }[] }[]
    )[0]!.messages;
    expect(found.map((m) => [m.ruleId, m.line, m.column, m.endColumn])).toEqual([
      ['path-not-found', 6, 15, 19],
      ['path-not-found', 16, 11, 18],
      ['path-not-found', 18, 17, 31],
    ]);
    expect(result.code).toBe(0);
  });

  it('clears a warning once the file exists, and checks nothing with --no-path-checks', async () => {
    mkdirSync(join(repo, 'project', '.svc'));
    const result = await cli(['validate', '--format', 'json', 'svc.yaml'], join(repo, 'project'));
    expect(result.stdout).not.toContain('"line":6,');
    expect((await cli(['validate', '--no-path-checks', 'svc.yaml'], join(repo, 'project'))).stdout).toBe(
      '✔ svc.yaml: no problems\n',
    );
  });

  it('validateManifest without a file system does not check paths', () => {
    expect(validateManifest(MANIFEST, { format: 'yaml' }).diagnostics).toEqual([]);
  });
});
