/**
 * The formatter (`formatManifest`) and `svc-manifest fmt`: exact bytes after formatting, and on
 * every fixture and example: idempotent, the same value, only whitespace and the quotes of
 * single-quoted YAML scalars changed (found by the `yaml` library, not by us), and the same
 * result for the file with extra blank lines and trailing spaces, or with a byte-order mark
 * (kept); and `fmt` through the built bundle on files with one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, Scalar, visit } from 'yaml';
import {
  formatManifest,
  formatManifestRange,
  ManifestDocument,
  ManifestEditError,
  runCli,
  type CliIo,
} from '@svc-manifest/validator';
import { editorConfigIndent } from '../src/edit/editorconfig.js';
import { formatManifestCheckedBy, formattingProblem } from '../src/edit/format.js';
import { manifestPaths } from '../../../test/support/fixtures.js';
import { ensureBundle, runBundle } from './support/child.js';

const MESSY_YAML = `# head


svc_version:    2   
default_agent: main
agents:
    main:
        model: x   # c
        # inner comment
        secrets:
        -   A
        -   B
triggers:
    -   slug: t
        type: cron
        prompt: |
            line one
              indented

            after blank
        cron: "0 9 * * *"   


# end comment


`;

const FORMATTED_YAML = `# head

svc_version: 2
default_agent: main
agents:
  main:
    model: x   # c
    # inner comment
    secrets:
      - A
      - B
triggers:
  - slug: t
    type: cron
    prompt: |
      line one
        indented

      after blank
    cron: "0 9 * * *"

# end comment
`;

describe('formatManifest', () => {
  it('formats YAML: indentation, spacing, trailing whitespace, blank lines, final newline', () => {
    const result = formatManifest(MESSY_YAML, { format: 'yaml' });
    expect(result.text).toBe(FORMATTED_YAML);
    expect([result.changed, result.indentKept]).toEqual([true, false]);
    expect(formatManifest(result.text, { format: 'yaml' }).changed).toBe(false);
  });

  it('takes the indent width, and keeps sequences flush with their key when the file does', () => {
    const text = 'svc_version: 2\nagents:\n  main:\n    tools:\n    - a\n    - b\n';
    expect(formatManifest(text, { format: 'yaml', indentWidth: 4 }).text).toBe(
      'svc_version: 2\nagents:\n    main:\n        tools:\n        - a\n        - b\n',
    );
    expect(formatManifest(text, { format: 'yaml', sequences: 'indented' }).text).toBe(
      'svc_version: 2\nagents:\n  main:\n    tools:\n      - a\n      - b\n',
    );
  });

  it('formats TOML: no indentation outside arrays, one space around =, strings untouched', () => {
    const text =
      'svc_version   =   2\n  default_agent="main"\n\n\n   [agents.main]\n     model =  "x"   \n  arr = [\n      1,\n      2,\n  ]\n  s = """\n  keep   \n     this"""\n\n[[triggers]]\nslug="t"';
    expect(formatManifest(text, { format: 'toml' }).text).toBe(
      'svc_version = 2\ndefault_agent = "main"\n\n[agents.main]\nmodel = "x"\narr = [\n      1,\n      2,\n  ]\ns = """\n  keep   \n     this"""\n\n[[triggers]]\nslug = "t"\n',
    );
  });

  it('keeps CRLF line ends, anchors, aliases and flow collections', () => {
    const text =
      'svc_version: 2\r\nproject:  &p\r\n    name:   x\r\nagents:\r\n    main:\r\n        connectors: [ a,  b ]\r\n        sandbox: *p\r\n';
    expect(formatManifest(text, { format: 'yaml' }).text).toBe(
      'svc_version: 2\r\nproject:  &p\r\n  name: x\r\nagents:\r\n  main:\r\n    connectors: [ a,  b ]\r\n    sandbox: *p\r\n',
    );
  });

  it('moves a block scalar with an explicit indent with its key', () => {
    const text = 'svc_version: 2\nproject:\n    description: |2\n        two more\n    name: x   \n';
    expect(formatManifest(text, { format: 'yaml' }).text).toBe(
      'svc_version: 2\nproject:\n  description: |2\n      two more\n  name: x\n',
    );
  });

  it('keeps the indentation of a construct it does not re-indent (a sequence in a sequence), and still trims', () => {
    const text = 'svc_version: 2\nextra:\n    - - a\n      - b\nproject:\n    name:   x   \n';
    const result = formatManifest(text, { format: 'yaml' });
    expect(result.text).toBe('svc_version: 2\nextra:\n    - - a\n      - b\nproject:\n    name: x\n');
    expect(result.indentKept).toBe(true);
    // The spaces after the outer dash stay too: the inner items' lines align with them.
    const spaced = formatManifest('svc_version: 2\nextra:\n-   - a\n    - b\nproject:\n    name:   x   \n', {
      format: 'yaml',
    });
    expect([spaced.text, spaced.indentKept]).toEqual([
      'svc_version: 2\nextra:\n-   - a\n    - b\nproject:\n    name: x\n',
      true,
    ]);
  });

  it('writes single-quoted YAML keys and values in double quotes when that needs no escape', () => {
    const text = [
      "'svc_version': 2",
      'project:',
      "  name: 'web'   # 'a comment' stays",
      "  description: 'it''s'",
      '  quoted: \'say "hi"\'',
      "  path: 'C:\\dir'",
      "  tabbed: 'a\tb'",
      "  both: '''x'''",
      "  empty: ''",
      "  flag: 'yes'",
      '  plain: yes',
      '  double: "kept"',
      "  flow: [ 'a', 'b', {'k':'v'} ]",
      "  anchored: &name 'x'",
      '  alias: *name',
      "  multi: 'one",
      "    two'",
      "  emoji: 'héllo 🎉'",
      '  block: |',
      "    'not a scalar'",
      '',
    ].join('\n');
    const expected = [
      '"svc_version": 2',
      'project:',
      '  name: "web"   # \'a comment\' stays',
      '  description: "it\'s"',
      '  quoted: \'say "hi"\'',
      "  path: 'C:\\dir'",
      "  tabbed: 'a\tb'",
      '  both: "\'x\'"',
      '  empty: ""',
      '  flag: "yes"',
      '  plain: yes',
      '  double: "kept"',
      '  flow: [ "a", "b", {"k":"v"} ]',
      '  anchored: &name "x"',
      '  alias: *name',
      "  multi: 'one",
      "    two'",
      '  emoji: "héllo 🎉"',
      '  block: |',
      "    'not a scalar'",
      '',
    ].join('\n');
    const result = formatManifest(text, { format: 'yaml' });
    expect(result.text).toBe(expected);
    expect(result.edits.map((edit) => text.slice(edit.start, edit.end))).toEqual([
      "'svc_version'",
      "'web'",
      "'it''s'",
      "'''x'''",
      "''",
      "'yes'",
      "'a'",
      "'b'",
      "'k'",
      "'v'",
      "'x'",
      "'héllo 🎉'",
    ]);
    expect(formatManifestCheckedBy('reparse', text, { format: 'yaml' })).toEqual(result);
    expect(formatManifest(expected, { format: 'yaml' }).changed).toBe(false);
    expect(formatManifest(text, { format: 'yaml', quotes: 'preserve' }).changed).toBe(false);
    expect(ManifestDocument.parse(expected, { format: 'yaml' }).value).toEqual(
      ManifestDocument.parse(text, { format: 'yaml' }).value,
    );
  });

  it('changes quotes along with whitespace, and only those in a range', () => {
    const text = "svc_version: 2\nproject:\n    name:   'web'\n    description: 'x'\n";
    expect(formatManifest(text, { format: 'yaml' }).text).toBe(
      'svc_version: 2\nproject:\n  name: "web"\n  description: "x"\n',
    );
    expect(formatManifest(text, { format: 'yaml', quotes: 'preserve' }).text).toBe(
      "svc_version: 2\nproject:\n  name: 'web'\n  description: 'x'\n",
    );
    // The second entry's line only: its quotes, not the first's; no re-indentation of one entry of two.
    const start = text.indexOf('    description');
    const edits = formatManifestRange(text, { start, end: text.length }, { format: 'yaml' });
    expect(applyEdits(text, edits)).toBe('svc_version: 2\nproject:\n    name:   \'web\'\n    description: "x"\n');
  });

  it('checks that every edit besides whitespace is a quote change the formatter may make, by both checks', () => {
    const text = "svc_version: 2\nproject:\n  name: 'web'   # 'c'\n  description: 'say \"hi\"'\n";
    const at = (needle: string, newText: string) => ({
      start: text.indexOf(needle),
      end: text.indexOf(needle) + needle.length,
      newText,
    });
    for (const check of ['shortcut', 'reparse'] as const) {
      const problem = (...edits: { start: number; end: number; newText: string }[]) =>
        formattingProblem(check, text, edits, { format: 'yaml' });
      expect(problem(at("'web'", '"web"')), check).toBeUndefined();
      expect(problem(at("'web'", '"web"'), at('   #', ' #')), check).toBeUndefined();
      // One edit over the scalar and the spaces after it is no quote change as planned.
      expect(problem(at("'web'   ", '"web" ')), check).toBe('would change more than whitespace and quotes');
      // In a comment: the value is the same, but it is no scalar.
      expect(problem(at("'c'", '"c"')), check).toBe('would change more than whitespace and quotes');
      // A value changed, or quotes that would need an escape.
      expect(problem(at("'web'", '"wab"')), check).toBe('would change more than whitespace and quotes');
      expect(problem(at('\'say "hi"\'', '"say \\"hi\\""')), check).toBe('would change more than whitespace and quotes');
      // A TOML literal string is never changed, though the value would be the same.
      expect(formattingProblem(check, "a = 'x'\n", [{ start: 4, end: 7, newText: '"x"' }], { format: 'toml' })).toBe(
        'would change more than whitespace and quotes',
      );
    }
  });

  it('keeps the quotes of TOML strings and keys: literal strings stay literal', () => {
    const text = "svc_version = 2\n'project' = { name = 'web' }\n[agents.'main']\nmodel='x'\ns = '''\nraw'''\n";
    expect(formatManifest(text, { format: 'toml' }).text).toBe(
      "svc_version = 2\n'project' = { name = 'web' }\n[agents.'main']\nmodel = 'x'\ns = '''\nraw'''\n",
    );
    expect(formatManifest("a = 'x'\n", { format: 'toml', quotes: 'double' }).changed).toBe(false);
  });

  it('refuses a file the document layer cannot read, and says nothing changed on an empty one', () => {
    expect(() => formatManifest('a: [', { format: 'yaml' })).toThrow(
      expect.objectContaining({ reason: 'unreadable' }) as ManifestEditError,
    );
    expect(formatManifest('', { format: 'yaml' })).toMatchObject({ text: '', changed: false });
    expect(formatManifest('\n\n  \n', { format: 'yaml' })).toMatchObject({ text: '', changed: true });
  });

  // The mark is no part of line 1: the file is formatted as it would be without it, and keeps it.
  it('keeps a byte-order mark and formats a YAML file as without it: indentation, quotes, blank lines', () => {
    const bom = '\uFEFF';
    const text = `${bom}\n\nsvc_version:   2   \ndefault_agent: 'main'\nagents:\n    main:\n        connectors: none`;
    const expected = `${bom}svc_version: 2\ndefault_agent: "main"\nagents:\n  main:\n    connectors: none\n`;
    for (const check of ['shortcut', 'reparse'] as const) {
      const result = formatManifestCheckedBy(check, text, { format: 'yaml' });
      expect([result.text, result.indentKept], check).toEqual([expected, false]);
    }
    expect(formatManifest(expected, { format: 'yaml' }).changed).toBe(false);
    // The first line's own indentation, and a file of nothing but the mark and blank lines.
    expect(
      formatManifest(`${bom}  svc_version: 2\n  agents:\n      main:\n          model: x\n`, { format: 'yaml' }).text,
    ).toBe(`${bom}svc_version: 2\nagents:\n  main:\n    model: x\n`);
    expect(formatManifest(`${bom}\n\n  \n`, { format: 'yaml' })).toMatchObject({ text: bom, changed: true });
    expect(formatManifest(bom, { format: 'yaml' })).toMatchObject({ text: bom, changed: false });
  });

  it('keeps a byte-order mark and formats a TOML file as without it', () => {
    const text = '\uFEFF  svc_version   =   2\n\n\n[agents.main]\n   model = "x"   ';
    for (const check of ['shortcut', 'reparse'] as const)
      expect(formatManifestCheckedBy(check, text, { format: 'toml' }).text, check).toBe(
        '\uFEFFsvc_version = 2\n\n[agents.main]\nmodel = "x"\n',
      );
  });

  it('formats a range of a file with a byte-order mark as without it', () => {
    const text = '\uFEFFsvc_version:   2\nagents:\n    main:\n        model: x   \n';
    const fromAgents = formatManifestRange(
      text,
      { start: text.indexOf('agents'), end: text.length },
      { format: 'yaml' },
    );
    expect(applyEdits(text, fromAgents)).toBe('\uFEFFsvc_version:   2\nagents:\n  main:\n    model: x\n');
    expect(formatManifestRange(text, { start: 0, end: text.length }, { format: 'yaml' })).toEqual(
      formatManifest(text, { format: 'yaml' }).edits,
    );
    // The first line alone, indented with the rest: its indentation cannot move by itself, its spacing can.
    const indented = '\uFEFF  svc_version:   2\n  agents: {}\n';
    expect(formatManifestRange(indented, { start: 0, end: indented.indexOf('\n') }, { format: 'yaml' })).toEqual([
      { start: 14, end: 18, newText: ': ' },
    ]);
  });

  it('formats a range over the whole file as the whole file, and reads a parsed document', () => {
    const whole = formatManifest(MESSY_YAML, { format: 'yaml' });
    expect(formatManifestRange(MESSY_YAML, { start: 0, end: MESSY_YAML.length }, { format: 'yaml' })).toEqual(
      whole.edits,
    );
    expect(formatManifest(ManifestDocument.parse(MESSY_YAML, { format: 'yaml' }))).toEqual(whole);
  });

  // A range from offset 0 starts on line 1, also when the file's first character is a line end.
  it('formats a range from offset 0 of a file that starts with a blank line from line 1', () => {
    const text = '\n\nsvc_version:   2\n';
    const whole = formatManifest(text, { format: 'yaml' });
    expect(applyEdits(text, whole.edits)).toBe('svc_version: 2\n');
    expect(formatManifestRange(text, { start: 0, end: text.length }, { format: 'yaml' })).toEqual(whole.edits);
    expect(formatManifestRange(text, { start: 0, end: 1 }, { format: 'yaml' })).toEqual([
      { start: 0, end: 1, newText: '' },
    ]);
  });
});

const files = manifestPaths();

function applyEdits(text: string, edits: readonly { start: number; end: number; newText: string }[]): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.newText + out.slice(edit.end);
  return out;
}

/**
 * `text` with every one-line single-quoted YAML key and value written in double quotes where that
 * needs no escape, as the `yaml` library finds them: the text the formatter may give, but for
 * whitespace. Also how many it rewrote.
 */
function withDoubleQuotes(text: string): { text: string; rewritten: number } {
  const spans: [number, number, string][] = [];
  visit(parseDocument(text, { merge: true }), {
    Scalar(_, node: Scalar) {
      if (node.type !== Scalar.QUOTE_SINGLE || !node.range || typeof node.value !== 'string') return;
      const [start, end] = node.range;
      if (
        text.slice(start, end).includes('\n') ||
        !/^[^"\\\u0000-\u001f\u007f-\u009f\ufeff\u2028\u2029]*$/.test(node.value)
      )
        return;
      spans.push([start, end, `"${node.value}"`]);
    },
  });
  spans.sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [start, end, quoted] of spans) out = out.slice(0, start) + quoted + out.slice(end);
  return { text: out, rewritten: spans.length };
}

describe('on every fixture and example', () => {
  const formatted: { file: string; text: string; result: string }[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    try {
      formatted.push({ file, text, result: formatManifest(text, { filename: file }).text });
    } catch (error) {
      if (!(error instanceof ManifestEditError) || error.reason !== 'unreadable') throw error;
    }
  }

  it('formats most of them', () => {
    expect(formatted.length).toBeGreaterThan(350);
  });

  it('is idempotent, keeps the value and changes only whitespace and single quotes', () => {
    let rewritten = 0;
    for (const { file, text, result } of formatted) {
      expect(formatManifest(result, { filename: file }).changed, file).toBe(false);
      const format = file.endsWith('.toml') ? 'toml' : 'yaml';
      expect(ManifestDocument.parse(result, { format }).value, file).toEqual(
        ManifestDocument.parse(text, { format }).value,
      );
      const expected = format === 'yaml' ? withDoubleQuotes(text) : { text, rewritten: 0 };
      rewritten += expected.rewritten;
      expect(result.replace(/\s+/g, ''), file).toBe(expected.text.replace(/\s+/g, ''));
      // With quotes kept, nothing but whitespace changes.
      const kept = formatManifest(text, { filename: file, quotes: 'preserve' }).text;
      expect(kept.replace(/\s+/g, ''), file).toBe(text.replace(/\s+/g, ''));
    }
    // Not vacuous: some fixtures have single-quoted values.
    expect(rewritten).toBeGreaterThan(2);
  });

  it('gives the same text, after the mark, for the file with a byte-order mark, at the width it has and another', () => {
    let reindented = 0;
    for (const { file, text } of formatted) {
      if (text.startsWith('\uFEFF')) continue;
      // Without the comment lines the fixtures start with: the mark is then on the line of the first key.
      const body = text.replace(/^(?:#[^\n]*\n)+/, '');
      for (const indentWidth of [2, 4]) {
        const expected = formatManifest(body, { filename: file, indentWidth }).text;
        expect(formatManifest(`\uFEFF${body}`, { filename: file, indentWidth }).text, file).toBe(`\uFEFF${expected}`);
        if (indentWidth === 4 && expected !== formatManifest(body, { filename: file }).text) reindented++;
      }
    }
    expect(reindented).toBeGreaterThan(150);
  });

  it('gives the same text for the file with its simple double-quoted values in single quotes', () => {
    let compared = 0;
    for (const { file, text, result } of formatted) {
      if (file.endsWith('.toml')) continue;
      // On lines without a comment, `key: "x"` and `- "x"` → `'x'`; a file where that changes a value (a block scalar's text) is left out.
      const single = text.replace(/^([^#\n]*?(?:: |- ))"([\w .:/*-]*)"(?=[^#\n]*$)/gm, "$1'$2'");
      if (single === text) continue;
      const format = 'yaml';
      if (
        !isDeepStrictEqual(
          ManifestDocument.parse(single, { format }).value,
          ManifestDocument.parse(text, { format }).value,
        )
      )
        continue;
      expect(formatManifest(single, { filename: file }).text, file).toBe(result);
      compared++;
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('gives the same text for the file with more blank lines and trailing spaces between top-level entries', () => {
    let compared = 0;
    for (const { file, text, result } of formatted) {
      if (!file.endsWith('.yaml') || text.includes('\r')) continue;
      // More blank lines (some with spaces) where there is one before a top-level key, and spaces after every top-level `key: value` line.
      const messy = text.replace(/\n\n(?=[a-z_]+:)/g, '\n  \n\n\n').replace(/^([a-z_]+: [^\n#|>&*'"]+)$/gm, '$1   ');
      if (messy === text) continue;
      expect(formatManifest(messy, { filename: file }).text, file).toBe(result);
      compared++;
    }
    expect(compared).toBeGreaterThan(150);
  });
});

describe('editorConfigIndent', () => {
  const files = [
    { folder: '/repo/sub', text: '[*.toml]\nindent_size = 8\n' },
    {
      folder: '/repo',
      text: 'root = true\n\n[*]\nindent_size = 2\n\n[*.{yaml,yml}]\nindent_size = 4\n\n[legacy/**]\nindent_style = tab\nindent_size = tab\ntab_width = 3\n',
    },
    { folder: '', text: '[*]\nindent_size = 6\n' },
  ];
  it.each([
    ['/repo/svc.yaml', 4],
    ['/repo/a/b/svc.yml', 4],
    ['/repo/svc.toml', 2],
    ['/repo/sub/svc.toml', 8],
    ['/repo/legacy/x/svc.yaml', 3],
    ['/elsewhere/svc.yaml', undefined],
  ])('%s: %s', (path, width) => {
    expect(editorConfigIndent(path, files)).toBe(width);
  });
});

describe('svc-manifest fmt', () => {
  let work: string;
  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'svc-fmt-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  async function fmt(argv: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const io: CliIo = { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), cwd, env: {}, isTty: false };
    const code = await runCli(argv, io);
    return { code, stdout, stderr };
  }

  it('--check lists the files that would change, writes nothing and exits 1; fmt writes them; then --check passes', async () => {
    const dir = join(work, 'project');
    mkdirSync(join(dir, 'other'), { recursive: true });
    writeFileSync(join(dir, 'svc.yaml'), MESSY_YAML);
    writeFileSync(join(dir, 'other', 'svc.toml'), 'svc_version = 1\n');
    const check = await fmt(['fmt', '--check', 'svc.yaml', 'other'], dir);
    expect(check).toEqual({
      code: 1,
      stdout: 'svc.yaml\n',
      stderr: "svc-manifest: 1 file would be reformatted; run 'svc-manifest fmt'\n",
    });
    expect(readFileSync(join(dir, 'svc.yaml'), 'utf8')).toBe(MESSY_YAML);
    expect(await fmt(['fmt'], dir)).toEqual({ code: 0, stdout: 'formatted svc.yaml\n', stderr: '' });
    expect(readFileSync(join(dir, 'svc.yaml'), 'utf8')).toBe(FORMATTED_YAML);
    expect(await fmt(['fmt', '--check', '.', 'other/svc.toml'], dir)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('takes folders and globs as validate does: walked below, .gitignore honoured, an argument that selects nothing is exit 2', async () => {
    const dir = join(work, 'monorepo');
    mkdirSync(join(dir, 'services', 'api'), { recursive: true });
    mkdirSync(join(dir, 'services', 'old'), { recursive: true });
    mkdirSync(join(dir, '.git'), { recursive: true });
    writeFileSync(join(dir, '.gitignore'), 'services/old/\n');
    writeFileSync(join(dir, 'services', 'api', 'svc.yaml'), MESSY_YAML);
    writeFileSync(join(dir, 'services', 'old', 'svc.yaml'), MESSY_YAML);
    expect(await fmt(['fmt', '--check', '.'], dir)).toEqual({
      code: 1,
      stdout: 'services/api/svc.yaml\n',
      stderr: "svc-manifest: 1 file would be reformatted; run 'svc-manifest fmt'\n",
    });
    expect((await fmt(['fmt', '--check', 'services/**/svc.yaml'], dir)).stdout).toBe('services/api/svc.yaml\n');
    expect((await fmt(['fmt', '--check', '--no-ignore', 'services'], dir)).stdout).toBe(
      'services/api/svc.yaml\nservices/old/svc.yaml\n',
    );
    expect(await fmt(['fmt', '--check', 'nowhere'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'svc-manifest: nowhere: no such file\n',
    });
    expect(readFileSync(join(dir, 'services', 'api', 'svc.yaml'), 'utf8')).toBe(MESSY_YAML);
  });

  it("leaves out of walks what a policy file's ignore globs leave out of validate's, never a file named as an argument", async () => {
    const dir = join(work, 'policy');
    mkdirSync(join(dir, 'legacy'), { recursive: true });
    mkdirSync(join(dir, 'app'), { recursive: true });
    mkdirSync(join(dir, '.git'), { recursive: true });
    writeFileSync(join(dir, '.svc-manifest.yaml'), 'ignore:\n  - legacy\n');
    writeFileSync(join(dir, 'legacy', 'svc.yaml'), MESSY_YAML);
    writeFileSync(join(dir, 'app', 'svc.yaml'), MESSY_YAML);
    expect(await fmt(['fmt', '--check', '.'], dir)).toEqual({
      code: 1,
      stdout: 'app/svc.yaml\n',
      stderr: "svc-manifest: 1 file would be reformatted; run 'svc-manifest fmt'\n",
    });
    expect((await fmt(['fmt', '--check', '*/svc.yaml'], dir)).stdout).toBe('app/svc.yaml\n');
    expect((await fmt(['fmt', '--check', '.', 'legacy/svc.yaml'], dir)).stdout).toBe('app/svc.yaml\nlegacy/svc.yaml\n');
    // A policy file that cannot be used stops fmt as it stops validate: named, exit 2, nothing written.
    writeFileSync(join(dir, '.svc-manifest.yaml'), 'ignore: legacy\n');
    expect(await fmt(['fmt', '.'], dir)).toEqual({
      code: 2,
      stdout: '',
      stderr: `svc-manifest: ${join(dir, '.svc-manifest.yaml')}: 'ignore' is a list of globs, relative to the folder of the file\n`,
    });
    expect(readFileSync(join(dir, 'app', 'svc.yaml'), 'utf8')).toBe(MESSY_YAML);
  });

  it('--check lists a file whose only change would be its quotes, and fmt writes them', async () => {
    const dir = join(work, 'quotes');
    mkdirSync(dir, { recursive: true });
    const text = "svc_version: 2\nproject:\n  name: 'web'\n";
    writeFileSync(join(dir, 'svc.yaml'), text);
    expect(await fmt(['fmt', '--check', '.'], dir)).toEqual({
      code: 1,
      stdout: 'svc.yaml\n',
      stderr: "svc-manifest: 1 file would be reformatted; run 'svc-manifest fmt'\n",
    });
    expect(readFileSync(join(dir, 'svc.yaml'), 'utf8')).toBe(text);
    expect(await fmt(['fmt', '.'], dir)).toEqual({ code: 0, stdout: 'formatted svc.yaml\n', stderr: '' });
    expect(readFileSync(join(dir, 'svc.yaml'), 'utf8')).toBe('svc_version: 2\nproject:\n  name: "web"\n');
    expect(await fmt(['fmt', '--check', '.'], dir)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it("keeps quotes where the policy file's format.quotes says preserve", async () => {
    const dir = join(work, 'quotes-policy');
    mkdirSync(join(dir, 'kept'), { recursive: true });
    mkdirSync(join(dir, '.git'), { recursive: true });
    writeFileSync(join(dir, 'kept', '.svc-manifest.yaml'), 'format:\n  quotes: preserve\n');
    const text = "svc_version: 2\nproject:\n  name: 'web'\n";
    writeFileSync(join(dir, 'kept', 'svc.yaml'), text);
    writeFileSync(join(dir, 'svc.yaml'), text);
    expect(await fmt(['fmt', '--check', '.'], dir)).toEqual({
      code: 1,
      stdout: 'svc.yaml\n',
      stderr: "svc-manifest: 1 file would be reformatted; run 'svc-manifest fmt'\n",
    });
    expect(await fmt(['fmt', '--check', 'kept/svc.yaml'], dir)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await fmt(['fmt', '.'], dir)).toMatchObject({ code: 0, stdout: 'formatted svc.yaml\n' });
    expect(readFileSync(join(dir, 'kept', 'svc.yaml'), 'utf8')).toBe(text);
  });

  it("puts the policy file's format.indent and format.sequences over .editorconfig and the file's own style", async () => {
    const dir = join(work, 'format-policy');
    mkdirSync(join(dir, 'svc'), { recursive: true });
    mkdirSync(join(dir, '.git'), { recursive: true });
    writeFileSync(join(dir, '.editorconfig'), 'root = true\n[*.yaml]\nindent_size = 2\n');
    writeFileSync(join(dir, '.svc-manifest.yaml'), 'format:\n  indent: 4\n  sequences: flush\n');
    writeFileSync(
      join(dir, 'svc', 'svc.yaml'),
      'svc_version: 2\nagents:\n  main:\n    model: x\ntriggers:\n  - slug: t\n    type: cron\n',
    );
    expect(await fmt(['fmt', 'svc'], dir)).toEqual({ code: 0, stdout: 'formatted svc/svc.yaml\n', stderr: '' });
    expect(readFileSync(join(dir, 'svc', 'svc.yaml'), 'utf8')).toBe(
      'svc_version: 2\nagents:\n    main:\n        model: x\ntriggers:\n- slug: t\n  type: cron\n',
    );
  });

  it('takes the indent width from .editorconfig', async () => {
    const dir = join(work, 'editorconfig');
    mkdirSync(join(dir, 'deep'), { recursive: true });
    writeFileSync(join(dir, '.editorconfig'), 'root = true\n[*.yaml]\nindent_size = 4\n');
    writeFileSync(join(dir, 'deep', 'svc.yaml'), 'svc_version: 2\nagents:\n  main:\n    model: x\n');
    expect((await fmt(['fmt', 'deep/svc.yaml'], dir)).code).toBe(0);
    expect(readFileSync(join(dir, 'deep', 'svc.yaml'), 'utf8')).toBe(
      'svc_version: 2\nagents:\n    main:\n        model: x\n',
    );
  });

  it('exits 2 on a file it cannot read or format, and leaves it as it is', async () => {
    const dir = join(work, 'broken');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'svc.yaml'), 'svc_version: [\n');
    const result = await fmt(['fmt', 'svc.yaml', 'missing.yaml'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('svc.yaml');
    expect(result.stderr).toContain('missing.yaml');
    expect(readFileSync(join(dir, 'svc.yaml'), 'utf8')).toBe('svc_version: [\n');
  });
});

describe('svc-manifest fmt through the built bundle (node dist/svc-manifest.cjs)', () => {
  let work: string;
  beforeAll(() => {
    ensureBundle();
    work = mkdtempSync(join(tmpdir(), 'svc-fmt-bundle-'));
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

  it('lists a file with a byte-order mark that needs formatting, and writes it with the mark kept', () => {
    const dir = join(work, 'bom');
    mkdirSync(join(dir, 'b'), { recursive: true });
    mkdirSync(join(dir, 't'), { recursive: true });
    const yaml = 'svc_version: 2\nagents:\n    main:\n        connectors: none\n';
    writeFileSync(join(dir, 'svc.yaml'), Buffer.concat([BOM, Buffer.from(yaml)]));
    writeFileSync(join(dir, 'b', 'svc.yaml'), yaml);
    writeFileSync(join(dir, 't', 'svc.toml'), Buffer.concat([BOM, Buffer.from('  svc_version   =   2\n')]));
    const check = runBundle(['fmt', '--check', 'svc.yaml', 'b/svc.yaml', 't/svc.toml'], { cwd: dir });
    expect([check.status, check.stdout, check.stderr]).toEqual([
      1,
      'svc.yaml\nb/svc.yaml\nt/svc.toml\n',
      "svc-manifest: 3 files would be reformatted; run 'svc-manifest fmt'\n",
    ]);
    expect(readFileSync(join(dir, 'svc.yaml'))).toEqual(Buffer.concat([BOM, Buffer.from(yaml)]));
    const written = runBundle(['fmt', 'svc.yaml', 't/svc.toml'], { cwd: dir });
    expect([written.status, written.stdout, written.stderr]).toEqual([
      0,
      'formatted svc.yaml\nformatted t/svc.toml\n',
      '',
    ]);
    expect(readFileSync(join(dir, 'svc.yaml'))).toEqual(
      Buffer.concat([BOM, Buffer.from('svc_version: 2\nagents:\n  main:\n    connectors: none\n')]),
    );
    expect(readFileSync(join(dir, 't', 'svc.toml'))).toEqual(Buffer.concat([BOM, Buffer.from('svc_version = 2\n')]));
    expect(runBundle(['fmt', '--check', 'svc.yaml', 't/svc.toml'], { cwd: dir }).status).toBe(0);
  });
});
