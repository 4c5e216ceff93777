import { describe, expect, it } from 'vitest';
import { codeOf, keepDiagnostic } from '../src/coexistence';

describe("next to Red Hat's YAML extension", () => {
  it('keeps every diagnostic when the YAML extension is not validating', () => {
    for (const code of ['yaml-syntax', 'duplicate-key', 'unknown-key', undefined]) {
      expect(keepDiagnostic('/w/svc.yaml', code, false)).toBe(true);
    }
  });

  it('leaves plain YAML syntax errors to it, and keeps everything about the manifest', () => {
    expect(keepDiagnostic('/w/svc.yaml', 'yaml-syntax', true)).toBe(false);
    expect(keepDiagnostic('/w/svc.yml', { value: 'duplicate-key' }, true)).toBe(false);
    expect(keepDiagnostic('/w/svc.yaml', 'unknown-key', true)).toBe(true);
    expect(keepDiagnostic('/w/svc.yaml', 'trigger-webhook-secret', true)).toBe(true);
    expect(keepDiagnostic('/w/svc.yaml', undefined, true)).toBe(true);
  });

  it('never touches TOML files', () => {
    expect(keepDiagnostic('/w/svc.toml', 'toml-syntax', true)).toBe(true);
    expect(keepDiagnostic('/w/svc.toml', 'duplicate-key', true)).toBe(true);
  });

  it('reads codes in every shape VS Code uses', () => {
    expect(codeOf('a')).toBe('a');
    expect(codeOf(3)).toBe('3');
    expect(codeOf({ value: 'b' })).toBe('b');
    expect(codeOf(undefined)).toBeUndefined();
  });
});
