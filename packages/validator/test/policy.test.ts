/**
 * The policy in the library (browser-safe: no file system): `parsePolicy` reads a policy file's
 * text, `validateManifest`'s `policy` option applies severities and the manifest's suppression
 * comments, whose problems are diagnostics located on the comment; `fixManifest` fixes only what
 * the policy reports. The CLI's use of the same code, through the built command, is in
 * cli-policy.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  fixManifest,
  ManifestDocument,
  parsePolicy,
  PolicyError,
  validateDocument,
  validateManifest,
  withPolicy,
  type Diagnostic,
  type ManifestPolicy,
} from '@svc-manifest/validator/library';
import { diagnosticLine } from './support/diagnostic-lines.js';
import { largeManifest } from './support/manifest-arbitraries.js';

const line = diagnosticLine;

/** One warning (`default-agent-declared`, line 2) and one typo (`possible-typo`, line 5). */
const WARNED = 'svc_version: 2\ndefault_agent: nobody\nagents:\n  writer: {}\ntrigers: []\n';
/** The same, the warning suppressed by a comment. */
const SUPPRESSED =
  'svc_version: 2\n# svc-manifest-disable-next-line default-agent-declared\ndefault_agent: nobody\nagents:\n  writer: {}\ntrigers: []\n';

describe('parsePolicy', () => {
  it("reads a policy file's rules and ignore globs", () => {
    expect(
      parsePolicy('# ours\nrules:\n  possible-typo: error\n  deprecated-key: off\nignore:\n  - legacy/**\n'),
    ).toEqual({
      rules: { 'possible-typo': 'error', 'deprecated-key': 'off' },
      ignore: ['legacy/**'],
    });
    expect(parsePolicy(new TextEncoder().encode('\uFEFFrules: {path-not-found: info}\n'))).toEqual({
      rules: { 'path-not-found': 'info' },
      ignore: [],
    });
    expect(parsePolicy('format:\n  quotes: preserve\n')).toStrictEqual({
      rules: {},
      ignore: [],
      format: { quotes: 'preserve' },
    });
    expect(parsePolicy('format: {quotes: double}\n').format).toEqual({ quotes: 'double' });
    expect(parsePolicy('format:\n  indent: 4\n  sequences: flush\n').format).toStrictEqual({
      indent: 4,
      sequences: 'flush',
    });
    expect(parsePolicy('')).toEqual({ rules: {}, ignore: [] });
    expect(parsePolicy('# nothing yet\n')).toEqual({ rules: {}, ignore: [] });
  });

  it('refuses a text that is not a policy, saying why (the CLI prefixes the file)', () => {
    const refused: [string, string][] = [
      [
        'rules:\n  wrong-type: off\n',
        "'wrong-type' decides whether the published schema accepts a manifest; it cannot be changed or turned off",
      ],
      ['rules:\n  posible-typo: off\n', "no rule 'posible-typo' (did you mean 'possible-typo'?)"],
      [
        'rules:\n  possible-typo: silent\n',
        'rule \'possible-typo\' is set to "silent"; use error, warning, info or off',
      ],
      ['rule: {}\n', "unknown key 'rule' (did you mean 'rules'?); it takes 'rules', 'ignore' and 'format'"],
      ['ignore: legacy\n', "'ignore' is a list of globs, relative to the folder of the file"],
      ['- a\n', "must be a mapping with 'rules', 'ignore' and/or 'format'"],
      ['rules: [\n', 'not readable YAML'],
      ['rules:\n  __proto__: off\n', "no rule '__proto__'"],
      ['format: preserve\n', "'format' is a mapping; it takes 'indent', 'sequences' and 'quotes'"],
      [
        'format:\n  quote: preserve\n',
        "unknown key 'format.quote' (did you mean 'quotes'?); 'format' takes 'indent', 'sequences' and 'quotes'",
      ],
      ['format:\n  quotes: single\n', '\'format.quotes\' is set to "single"; use double or preserve'],
      ['format:\n  indent: 0\n', "'format.indent' is set to 0; use a whole number of spaces from 1 to 8"],
      ['format:\n  indent: 2.5\n', "'format.indent' is set to 2.5; use a whole number of spaces from 1 to 8"],
      ['format:\n  indent: "4"\n', '\'format.indent\' is set to "4"; use a whole number of spaces from 1 to 8'],
      ['format:\n  sequences: flat\n', '\'format.sequences\' is set to "flat"; use indented or flush'],
    ];
    for (const [text, message] of refused) {
      expect(() => parsePolicy(text), text).toThrow(PolicyError);
      expect(() => parsePolicy(text), text).toThrow(message);
    }
    expect(() => parsePolicy(`# ${'x'.repeat(70_000)}\n`)).toThrow('larger than 65536 bytes');
  });
});

describe("validateManifest's policy option", () => {
  it('is off by default: every rule has its own severity, and comments are only comments', () => {
    const text = `# svc-manifest-disable-next-line default-agent-declared\n${WARNED}`;
    expect(validateManifest(text).diagnostics.map((d) => d.code)).toEqual(['default-agent-declared', 'possible-typo']);
    expect(validateManifest(text, { policy: { inlineSuppressions: false } }).diagnostics.map((d) => d.code)).toEqual([
      'default-agent-declared',
      'possible-typo',
    ]);
  });

  it("sets our rules' severities and leaves out what is off; a rule set to error makes the result not ok", () => {
    const result = validateManifest(WARNED, {
      policy: { rules: { 'default-agent-declared': 'error', 'possible-typo': 'off' }, inlineSuppressions: false },
    });
    expect(result.diagnostics.map(line)).toEqual([
      "2:16-2:22 error default-agent-declared | default_agent 'nobody' is not a declared agent (declared agents: 'writer')",
    ]);
    expect(result.ok).toBe(false);
    const quiet = validateManifest(WARNED, {
      policy: { rules: { 'default-agent-declared': 'info' }, inlineSuppressions: false },
    });
    expect(quiet.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['default-agent-declared', 'info'],
      ['possible-typo', 'warning'],
    ]);
    expect(quiet.ok).toBe(true);
  });

  it('refuses settings a policy file could not hold (a programming error, thrown as PolicyError)', () => {
    expect(() =>
      validateManifest(WARNED, { policy: { rules: { 'wrong-type': 'off' }, inlineSuppressions: true } }),
    ).toThrow(PolicyError);
    expect(() =>
      validateManifest(WARNED, { policy: { rules: { 'possible-typo': 'loud' } as never, inlineSuppressions: true } }),
    ).toThrow('rule \'possible-typo\' is set to "loud"');
  });

  it('honours the comments when asked: next line, disable/enable ranges, several rules; their problems are located on the comment', () => {
    const text = [
      'svc_version: 2',
      '# svc-manifest-disable-next-line default-agent-declared, possible-typo -- the platform declares it',
      'default_agent: nobody',
      'agents:',
      '  writer: {}',
      '# svc-manifest-disable possible-typo',
      'trigers: []',
      'projct: {}',
      '# svc-manifest-enable possible-typo',
      'conectors: []   # svc-manifest-enable possible-typo',
      '# svc-manifest-disable-next-line posible-typo, wrong-type, unused-suppression',
      '# svc-manifest-disable',
      '',
    ].join('\n');
    const result = validateManifest(text, { policy: { inlineSuppressions: true } });
    expect(result.diagnostics.map(line)).toEqual([
      '2:1-2:99 warning unused-suppression | unused suppression: no possible-typo problem on the next line',
      "10:1-10:10 warning possible-typo | unknown key 'conectors'; did you mean 'connectors'? (extra keys are allowed here, so this is only a warning)",
      '10:17-10:52 warning unused-suppression | svc-manifest-enable possible-typo has no svc-manifest-disable possible-typo above it',
      "11:1-11:78 warning invalid-suppression | svc-manifest-disable-next-line names 'posible-typo', which is no rule (did you mean 'possible-typo'?)",
      "11:1-11:78 warning unsuppressible-rule | svc-manifest-disable-next-line names 'wrong-type', which cannot be suppressed: the published schema's verdict rests on it",
      "11:1-11:78 warning unsuppressible-rule | svc-manifest-disable-next-line names 'unused-suppression', which no comment can suppress; the policy file sets it",
      '12:1-12:23 warning invalid-suppression | svc-manifest-disable names no rule; write the rule ids it is for',
    ]);
    expect(result.ok).toBe(true);
  });

  it('reads a directive only in a comment: not in a quoted or block string, not after a character other than a space', () => {
    const text = [
      'svc_version: 2',
      'default_agent: nobody',
      'agents:',
      '  writer:',
      '    description: "# svc-manifest-disable-next-line possible-typo"',
      '    model: |',
      '      # svc-manifest-disable default-agent-declared',
      "'# svc-manifest-disable possible-typo': 1",
      'homepage: https://example.com/#svc-manifest-disable possible-typo',
      'trigers: []',
      '',
    ].join('\n');
    const codes = validateManifest(text, { policy: { inlineSuppressions: true } }).diagnostics.map((d) => d.code);
    expect(codes).not.toContain('unused-suppression');
    expect(codes).toContain('default-agent-declared');
    expect(codes).toContain('possible-typo');
    // In TOML, inside a multi-line string of a table between two parts of another ([agents.…]).
    const toml = [
      'svc_version = 2',
      'default_agent = "nobody"',
      '[agents.writer]',
      '[project]',
      'name = "billing"',
      'description = """',
      '# svc-manifest-disable default-agent-declared',
      '"""',
      '[agents.reader]',
      '',
    ].join('\n');
    expect(
      validateManifest(toml, { format: 'toml', policy: { inlineSuppressions: true } }).diagnostics.map(line),
    ).toEqual([
      "2:17-2:25 warning default-agent-declared | default_agent 'nobody' is not a declared agent (declared agents: 'writer' and 'reader')",
    ]);
  });

  it('reads TOML comments, a first line after a byte-order mark, and CRLF lines', () => {
    const toml =
      'svc_version = 2\ndefault_agent = "nobody"  # svc-manifest-disable-next-line possible-typo\ntrigers = []\n\n[agents.writer]\n';
    expect(
      validateManifest(toml, { format: 'toml', policy: { inlineSuppressions: true } }).diagnostics.map((d) => d.code),
    ).toEqual(['default-agent-declared']);
    const bom =
      '\uFEFF# svc-manifest-disable default-agent-declared\r\nsvc_version: 2\r\ndefault_agent: nobody\r\nagents:\r\n  writer: {}\r\n';
    expect(validateManifest(bom, { policy: { inlineSuppressions: true } }).diagnostics.map(line)).toEqual([
      '1:1-1:1 info byte-order-mark | the file starts with a byte-order mark; it is ignored (UTF-8 needs none)',
    ]);
    const stale = bom.replace('default_agent: nobody', 'default_agent: writer');
    expect(validateManifest(stale, { policy: { inlineSuppressions: true } }).diagnostics.map(line)).toEqual([
      '1:1-1:1 info byte-order-mark | the file starts with a byte-order mark; it is ignored (UTF-8 needs none)',
      '1:1-1:46 warning unused-suppression | unused suppression: no default-agent-declared problem in its range',
    ]);
  });

  it('lets the policy set the severity of the comments’ own problems, or turn them off', () => {
    const text = `# svc-manifest-disable-next-line deprecated-key\n${WARNED}`;
    const strict: ManifestPolicy = { rules: { 'unused-suppression': 'error' }, inlineSuppressions: true };
    const result = validateManifest(text, { policy: strict });
    expect(result.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['unused-suppression', 'error'],
      ['default-agent-declared', 'warning'],
      ['possible-typo', 'warning'],
    ]);
    expect(result.ok).toBe(false);
    expect(
      validateManifest(text, {
        policy: { rules: { 'unused-suppression': 'off' }, inlineSuppressions: true },
      }).diagnostics.map((d) => d.code),
    ).toEqual(['default-agent-declared', 'possible-typo']);
    // A suppression of a rule the policy turns off suppresses nothing: it is unused.
    const off = validateManifest(SUPPRESSED, {
      policy: { rules: { 'default-agent-declared': 'off' }, inlineSuppressions: true },
    });
    expect(off.diagnostics.map((d) => d.code)).toEqual(['unused-suppression', 'possible-typo']);
  });
});

describe('withPolicy', () => {
  it('copies a diagnostic whose severity it changes, and gives the same result when it changes nothing', () => {
    const document = ManifestDocument.parse(WARNED);
    const result = validateDocument(document);
    const changed = withPolicy(document, result, { rules: { 'possible-typo': 'error' }, inlineSuppressions: true });
    expect(changed.diagnostics.map((d) => d.severity)).toEqual(['warning', 'error']);
    expect(changed.diagnostics[0]).toBe(result.diagnostics[0]);
    expect(result.diagnostics[1]!.severity).toBe('warning');
    expect(withPolicy(document, result, { inlineSuppressions: true })).toBe(result);
  });

  it("lines up movedFrom with its list: a moved diagnostic's earlier form is the earlier list's object", () => {
    const text = largeManifest(2, 40, 10, 1).replace(/( {2}- slug: trigger-30\n {4})type:/, '$1tpye:');
    const typo = (diagnostics: readonly Diagnostic[]) => diagnostics.find((d) => d.code === 'possible-typo')!;
    for (const setting of ['warning', 'error'] as const) {
      const policy: ManifestPolicy = { rules: { 'possible-typo': setting }, inlineSuppressions: true };
      const before = ManifestDocument.parse(text);
      const earlier = withPolicy(before, validateDocument(before), policy);
      // A line added in trigger 20: the typo moves a line down.
      const after = before.update(text.replace(/(- slug: trigger-20\n)/, '$1    # a note\n'));
      const later = withPolicy(after, validateDocument(after), policy);
      const moved = typo(later.diagnostics);
      expect([moved.severity, moved.range.start.line]).toEqual([
        setting,
        typo(earlier.diagnostics).range.start.line + 1,
      ]);
      expect(later.movedFrom).toHaveLength(later.diagnostics.length);
      // The earlier list's own object (a copy the policy made, for `error`), never a form with another severity.
      const former = later.movedFrom![later.diagnostics.indexOf(moved)];
      expect(former, setting).toBe(typo(earlier.diagnostics));
      expect(former!.severity).toBe(setting);
    }
  });
});

describe("fixManifest's policy option", () => {
  it('fixes nothing the policy turns off or a comment suppresses', () => {
    const text =
      'svc_version: 2\ndefault_agent: writer\nagents:\n  writer:\n    connectors_personal: []\n# svc-manifest-disable-next-line possible-typo\ntrigers: []\nprojct: {}\n';
    const document = () => ManifestDocument.parse(text);
    expect(fixManifest(document()).text).toBe(
      text
        .replace('connectors_personal', 'connectors_required')
        .replace('trigers', 'triggers')
        .replace('projct', 'project'),
    );
    const fixed = fixManifest(document(), { policy: { rules: { 'deprecated-key': 'off' }, inlineSuppressions: true } });
    expect(fixed.text).toBe(text.replace('projct', 'project'));
    expect(fixed.fixes.map((fix) => fix.code)).toEqual(['possible-typo']);
    expect(fixed.diagnostics).toEqual([]);
  });
});
