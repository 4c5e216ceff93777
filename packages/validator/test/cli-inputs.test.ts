/**
 * What `svc-manifest validate` checks, from its arguments: files, folders, quoted globs, `-`,
 * ignore files; through the built command (`node dist/svc-manifest.cjs`), asserting exit codes
 * and the exact bytes printed.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findManifestFiles } from '../src/inputs/manifest-files.js';
import { ensureBundle, runBundle } from './support/child.js';

const VALID = 'svc_version: 2\ndefault_agent: writer\nagents:\n  writer:\n    connectors: none\n';
const VALID_TOML = 'svc_version = 1\n';
/** One error, at 5:17 (a number where a list or a keyword belongs). */
const INVALID = 'svc_version: 2\ndefault_agent: writer\nagents:\n  writer:\n    connectors: 7\n';

let work: string;

/** A folder with these files (and `.git`, so that it is a repository root, unless `git: false`). */
function tree(name: string, files: Record<string, string>, options: { git?: boolean } = {}): string {
  const root = join(work, name);
  mkdirSync(root, { recursive: true });
  if (options.git !== false) mkdirSync(join(root, '.git'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/** The files a JSON report names, relative to `root`. */
function reportedFiles(stdout: string, root: string): string[] {
  return (JSON.parse(stdout) as { filePath: string }[]).map((file) => file.filePath.slice(root.length + 1));
}

let monorepo: string;

beforeAll(() => {
  ensureBundle();
  work = mkdtempSync(join(tmpdir(), 'svc-cli-inputs-'));
  monorepo = tree('monorepo', {
    '.gitignore': 'build/\n*.generated.yaml\n',
    // Written out of order: the report is in path order, whatever order the folder lists them in.
    'services/worker/svc.toml': VALID_TOML,
    'services/web/svc.yml': INVALID,
    'services/api/svc.yaml': VALID,
    'services/worker/svc.generated.yaml': INVALID,
    'services/worker/README.md': '# not a manifest\n',
    'services/legacy/.gitignore': 'svc.yaml\n',
    'services/legacy/svc.yaml': INVALID,
    'build/svc.yaml': INVALID,
    'node_modules/some-package/svc.yaml': INVALID,
    'vendor/.git/svc.yaml': INVALID,
    'svc.yaml': VALID,
  });
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('folders', () => {
  it('are walked for svc.yaml, svc.yml and svc.toml, in path order, leaving out what .gitignore, node_modules and .git hold', () => {
    const result = runBundle(['validate', '.', '--format', 'json'], { cwd: monorepo });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    expect(reportedFiles(result.stdout, monorepo)).toEqual([
      'services/api/svc.yaml',
      'services/web/svc.yml',
      'services/worker/svc.toml',
      'svc.yaml',
    ]);
  });

  it('show the path as the folder was named, joined with the path found under it', () => {
    const result = runBundle(['validate', 'services'], { cwd: monorepo });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        'services/web/svc.yml',
        "  5:17    error   'connectors': expected an array of names, 'all' or 'none', got 7  wrong-type",
        '      4 |   writer:',
        '    > 5 |     connectors: 7',
        '        |                 ^',
        '',
        '✖ 1 problem (1 error, 0 warnings)',
        '',
      ].join('\n'),
    );
  });

  it('--no-ignore walks ignored files, node_modules and .git too', () => {
    const result = runBundle(['validate', '--no-ignore', '.', '--format', 'json'], { cwd: monorepo });
    expect(result.status).toBe(1);
    expect(reportedFiles(result.stdout, monorepo)).toEqual([
      'build/svc.yaml',
      'node_modules/some-package/svc.yaml',
      'services/api/svc.yaml',
      'services/legacy/svc.yaml',
      'services/web/svc.yml',
      'services/worker/svc.toml',
      'svc.yaml',
      'vendor/.git/svc.yaml',
    ]);
  });

  it('from a subfolder, the ignore files of the folders above still apply', () => {
    const result = runBundle(['validate', '.', '--format', 'json'], { cwd: join(monorepo, 'services', 'legacy') });
    expect(result.status).toBe(2);
    expect(result.stdout).toContain('"fatalErrorCount":1');
    expect(result.stderr).toBe(
      'svc-manifest: .: holds no svc.yaml, svc.yml, svc.toml outside ignored paths (--no-ignore looks there too)\n',
    );
  });

  it('outside a git repository, .gitignore files are not read (as git does not), but node_modules is still skipped', () => {
    const loose = tree(
      'loose',
      { '.gitignore': 'a/\n', 'a/svc.yaml': VALID, 'node_modules/b/svc.yaml': VALID },
      { git: false },
    );
    const result = runBundle(['validate', loose, '--format', 'json']);
    expect(reportedFiles(result.stdout, loose)).toEqual(['a/svc.yaml']);
  });

  it('do not follow symbolic links met on the way (a link to a parent does not loop)', () => {
    const linked = tree('linked', { 'svc.yaml': VALID });
    symlinkSync(linked, join(linked, 'loop'));
    symlinkSync(join(linked, 'svc.yaml'), join(linked, 'other.svc.yaml'));
    const result = runBundle(['validate', 'linked'], { cwd: work });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('✔ linked/svc.yaml: no problems\n');
  });
});

describe("a bounded walk (maxEntries, the language server's walk of a workspace)", () => {
  it('stops after that many entries listed, skipped ones included, keeping what it found in path order', () => {
    const found = (maxEntries?: number) =>
      findManifestFiles([monorepo], { cwd: monorepo, maxEntries }).files.map((file) =>
        file.absolutePath.slice(monorepo.length + 1),
      );
    expect(found()).toEqual(['services/api/svc.yaml', 'services/web/svc.yml', 'services/worker/svc.toml', 'svc.yaml']);
    // .git, .gitignore, build, node_modules, services, services/api, services/api/svc.yaml; then services/legacy is the 8th.
    expect(found(7)).toEqual(['services/api/svc.yaml']);
    expect(found(6)).toEqual([]);
  });
});

describe('globs (quoted, so that the shell does not expand them)', () => {
  it('select the YAML and TOML files they match, honouring .gitignore', () => {
    const result = runBundle(['validate', 'services/**/svc.*', '--format', 'json'], { cwd: monorepo });
    expect(result.stderr).toBe('');
    expect(reportedFiles(result.stdout, monorepo)).toEqual([
      'services/api/svc.yaml',
      'services/web/svc.yml',
      'services/worker/svc.toml',
    ]);
    const braces = runBundle(['validate', './services/{api,worker}/*', '--format', 'json'], { cwd: monorepo });
    expect(reportedFiles(braces.stdout, monorepo)).toEqual(['services/api/svc.yaml', 'services/worker/svc.toml']);
  });

  it('check a file once however often it is named', () => {
    const result = runBundle(
      [
        'validate',
        'services/*/svc.yaml',
        'services/api/svc.yaml',
        './services/api/svc.yaml',
        'services',
        '--format',
        'json',
      ],
      {
        cwd: monorepo,
      },
    );
    expect(reportedFiles(result.stdout, monorepo)).toEqual([
      'services/api/svc.yaml',
      'services/web/svc.yml',
      'services/worker/svc.toml',
    ]);
  });
});

describe('an argument that selects nothing', () => {
  it('is an error naming it (exit 2), never an all-clear, whatever else was checked', () => {
    const result = runBundle(
      ['validate', 'svc.yaml', 'nope/svc.yaml', 'services/**/svc.json', 'build', 'services/worker/README.md/x'],
      { cwd: monorepo },
    );
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      [
        'svc-manifest: nope/svc.yaml: no such file',
        'svc-manifest: services/**/svc.json: matches no file',
        'svc-manifest: build: holds no svc.yaml, svc.yml, svc.toml outside ignored paths (--no-ignore looks there too)',
        'svc-manifest: services/worker/README.md/x: no such file (a part of the path is not a folder)',
        '',
      ].join('\n'),
    );
  });

  it('is reported in JSON (a fatal message) and SARIF (executionSuccessful false, a notification)', () => {
    const json = runBundle(['validate', 'svc.yaml', 'nope.yaml', '--format', 'json'], { cwd: monorepo });
    expect(json.status).toBe(2);
    expect(JSON.parse(json.stdout)[1]).toEqual({
      filePath: join(monorepo, 'nope.yaml'),
      messages: [
        { ruleId: null, fatal: true, severity: 2, message: 'cannot read the file: no such file', line: 0, column: 0 },
      ],
      errorCount: 1,
      fatalErrorCount: 1,
      warningCount: 0,
      fixableErrorCount: 0,
      fixableWarningCount: 0,
    });
    const sarif = runBundle(['validate', 'svc.yaml', 'nope.yaml', '--format', 'sarif'], { cwd: monorepo });
    expect(sarif.status).toBe(2);
    expect(JSON.parse(sarif.stdout).runs[0].invocations).toEqual([
      {
        executionSuccessful: false,
        toolExecutionNotifications: [
          {
            level: 'error',
            message: { text: 'cannot read nope.yaml: no such file' },
            locations: [{ physicalLocation: { artifactLocation: { uri: 'nope.yaml', uriBaseId: '%SRCROOT%' } } }],
          },
        ],
      },
    ]);
    const github = runBundle(['validate', 'nope.yaml', '--format', 'github'], { cwd: monorepo });
    expect(github.stdout).toBe('::error title=svc-manifest (unreadable)::cannot read nope.yaml: no such file\n');
  });
});

describe('no argument', () => {
  it('checks the manifest in the current folder', () => {
    const result = runBundle(['validate'], { cwd: join(monorepo, 'services', 'api') });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('✔ svc.yaml: no problems\n');
  });

  it('in a folder without one, says so in one line with a hint, exit 2', () => {
    const result = runBundle(['validate'], { cwd: join(monorepo, 'services') });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('svc-manifest: no manifest here; pass a folder, e.g. `svc-manifest validate .`\n');
  });
});

describe("'-' (standard input)", () => {
  it('is read as YAML named <stdin>, or as --stdin-filename says (its name and format)', () => {
    const yaml = runBundle(['validate', '-'], { input: INVALID });
    expect(yaml.status).toBe(1);
    expect(yaml.stdout.split('\n')[0]).toBe('<stdin>');
    const toml = runBundle(['validate', '-', '--stdin-filename', 'services/worker/svc.toml'], {
      input: 'svc_version = 1\nbogus = [',
    });
    expect(toml.status).toBe(1);
    expect(toml.stdout.split('\n').slice(0, 2)).toEqual([
      'services/worker/svc.toml',
      '  2:10    error   unspecified values are invalid  toml-syntax',
    ]);
    const valid = runBundle(['validate', '-', 'svc.yaml', '--stdin-filename=svc.toml'], {
      cwd: monorepo,
      input: VALID_TOML,
    });
    expect(valid.stdout).toBe('✔ 2 files: no problems\n');
  });

  it('refuses --fix (it cannot be written back) and --stdin-filename without -', () => {
    const fix = runBundle(['validate', '-', '--fix'], { input: VALID });
    expect(fix.status).toBe(2);
    expect(fix.stderr).toBe(
      "svc-manifest: --fix cannot write to standard input; --fix-dry-run prints the fixes as a diff (see 'svc-manifest validate --help')\n",
    );
    const name = runBundle(['validate', 'svc.yaml', '--stdin-filename', 'x.yaml'], { cwd: monorepo });
    expect(name.status).toBe(2);
    expect(name.stderr).toBe(
      "svc-manifest: --stdin-filename names standard input: pass '-' too (see 'svc-manifest validate --help')\n",
    );
  });
});
