/** What the status bar says about a manifest. */
import { describe, expect, it } from 'vitest';
import { describeManifest } from '../src/manifest-status';

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
