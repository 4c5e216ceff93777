/** The per-folder switches applied to diagnostics, and what the status bar says about a manifest. */
import { describe, expect, it } from 'vitest';
import { filterBySwitches, type Switch } from '../src/switches';
import { describeManifest } from '../src/manifest-status';

const DIAGNOSTICS = [
  { code: 'unknown-key' },
  { code: 'path-not-found' },
  { code: { value: 'path-not-found', target: 'x' } },
  { code: 'cron-syntax' },
];
const with_ = (off: Switch[]) => (name: Switch) => !off.includes(name);

describe('filterBySwitches', () => {
  it('keeps everything by default, drops path checks where they are off, and everything where validation is off', () => {
    expect(filterBySwitches(DIAGNOSTICS, with_([]))).toEqual(DIAGNOSTICS);
    expect(filterBySwitches(DIAGNOSTICS, with_(['pathChecks'])).map((d) => d.code)).toEqual([
      'unknown-key',
      'cron-syntax',
    ]);
    expect(filterBySwitches(DIAGNOSTICS, with_(['validation']))).toEqual([]);
    expect(filterBySwitches(DIAGNOSTICS, with_(['hover', 'completion', 'format']))).toEqual(DIAGNOSTICS);
  });
});

describe('describeManifest', () => {
  it.each([
    ['svc_version: 2\n', 'yaml', 2, 'built-in svc manifest schema (version 2)'],
    ['# c\nsvc_version = 1\n', 'toml', 1, 'built-in svc manifest schema (version 1), TOML'],
    [
      '# yaml-language-server: $schema=https://example.com/s.json\nsvc_version: "2"\n',
      'yaml',
      2,
      'https://example.com/s.json',
    ],
    ['#:schema ./local.json\nsvc_version = 2\n', 'toml', 2, './local.json'],
    ['agents: {}\n', 'yaml', undefined, 'built-in svc manifest schema'],
  ])('%j', (text, language, version, schema) => {
    expect(describeManifest(text, language)).toEqual({ version, schema });
  });
});
