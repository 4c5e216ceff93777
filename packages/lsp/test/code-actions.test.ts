import { describe, expect, it } from 'vitest';
import { codeActions } from '../src/features/code-actions.js';
import { applyEdits, doc, rangeOf, tomlUri } from './helpers.js';

function fixesAt(text: string, needle: string, uri?: string) {
  const state = doc(text, uri);
  const range = rangeOf(text, needle);
  return codeActions(state, { range: { start: range.start, end: range.start }, context: { diagnostics: [] } }).map(
    (action) => ({
      title: action.title,
      kind: action.kind,
      code: action.diagnostics?.[0]?.code,
      result: applyEdits(text, action.edit!.changes![state.uri]!),
    }),
  );
}

describe('quick fixes from the validator', () => {
  it('"did you mean" for an unknown key, and removing it', () => {
    const text = 'svc_version: 2\ndefault_agent: coder\nagents:\n  coder:\n    sandbx: base\n';
    const fixes = fixesAt(text, 'sandbx');
    // Codes and results, not the validator's wording of the titles.
    expect(fixes.map(({ kind, code, result }) => ({ kind, code, result }))).toEqual([
      { kind: 'quickfix', code: 'unknown-key', result: text.replace('sandbx', 'sandbox') },
      { kind: 'quickfix', code: 'unknown-key', result: text.replace('    sandbx: base\n', '') },
    ]);
    expect(fixes.every((f) => f.title.length > 0)).toBe(true);
  });

  it('"did you mean" for an enum value', () => {
    const text = 'svc_version: 2\ndefault_agent: coder\nagents:\n  coder:\n    workspace: reed\n';
    expect(fixesAt(text, 'reed').map((f) => f.result)).toEqual([text.replace('reed', 'read')]);
  });

  it('inserts a missing required key (secret_env on a webhook trigger)', () => {
    const text =
      'svc_version: 2\ndefault_agent: a\nagents:\n  a: {}\ntriggers:\n  - slug: hook\n    type: webhook\n    prompt: go\n';
    const [fix] = fixesAt(text, 'webhook');
    expect(fix!.code).toBe('trigger-webhook-secret');
    expect(fix!.result).toContain('    prompt: go\n    secret_env: ');
  });

  it('inserts interval on a polling monitor', () => {
    const text =
      'svc_version: 2\ndefault_agent: a\nagents:\n  a: {}\ntriggers:\n  - slug: mon\n    type: monitor\n    prompt: go\n    run: ./check\n    mode: poll\n';
    const fixes = fixesAt(text, 'poll');
    expect(fixes.map((f) => f.code)).toContain('trigger-monitor-interval');
    expect(fixes.find((f) => f.code === 'trigger-monitor-interval')!.result).toMatch(/\n {4}interval: \S+/);
  });

  it('removes a forbidden key', () => {
    const text = 'svc_version: 2\ndefault_agent: a\nagents:\n  a: {}\nsandboxes: []\n';
    expect(fixesAt(text, 'sandboxes').map(({ code, result }) => ({ code, result }))).toEqual([
      { code: 'forbidden-key', result: 'svc_version: 2\ndefault_agent: a\nagents:\n  a: {}\n' },
    ]);
  });

  it('works on TOML', () => {
    const text = 'svc_version = 2\ndefault_agent = "a"\n[agents.a]\nworkspace = "reed"\n';
    expect(fixesAt(text, 'reed', tomlUri).map((f) => f.result)).toEqual([text.replace('"reed"', '"read"')]);
  });

  it('offers nothing away from a diagnostic, or when only other kinds are asked for', () => {
    const text = 'svc_version: 2\ndefault_agent: coder\nagents:\n  coder:\n    sandbx: base\n';
    expect(fixesAt(text, 'default_agent')).toEqual([]);
    const state = doc(text);
    const range = rangeOf(text, 'sandbx');
    expect(codeActions(state, { range, context: { diagnostics: [], only: ['refactor'] } })).toEqual([]);
  });
});
