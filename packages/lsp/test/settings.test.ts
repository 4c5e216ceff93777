import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './built-server.js';
import { DEFAULT_SETTINGS, globMatches, isManifestName, readSettings } from '../src/settings.js';

describe('settings', () => {
  it('has documented defaults', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      enable: true,
      extraPatterns: [],
      maxFileSizeBytes: 1048576,
      inlayHints: true,
      pathChecks: true,
      validation: true,
      hover: true,
      completion: true,
      format: true,
    });
    expect(readSettings(null)).toEqual(DEFAULT_SETTINGS);
    expect(
      readSettings({ enable: 'yes', files: { extraPatterns: 'x' }, validation: { maxFileSizeBytes: -1 } }),
    ).toEqual(DEFAULT_SETTINGS);
  });

  it('reads nested and dotted forms', () => {
    expect(
      readSettings({
        enable: false,
        files: { extraPatterns: ['**/*.svc.yaml'] },
        validation: { maxFileSizeBytes: 2048 },
        pathChecks: { enable: false },
      }),
    ).toEqual({
      ...DEFAULT_SETTINGS,
      enable: false,
      extraPatterns: ['**/*.svc.yaml'],
      maxFileSizeBytes: 2048,
      pathChecks: false,
    });
    // The switches the extension sets per folder, in both forms.
    expect(
      readSettings({
        validation: { enable: false },
        hover: { enable: false },
        'completion.enable': false,
        format: { enable: false },
      }),
    ).toEqual({
      ...DEFAULT_SETTINGS,
      validation: false,
      hover: false,
      completion: false,
      format: false,
    });
    expect(
      readSettings({
        'files.extraPatterns': ['a.yaml'],
        'validation.maxFileSizeBytes': 10,
        'pathChecks.enable': false,
      }),
    ).toMatchObject({
      extraPatterns: ['a.yaml'],
      maxFileSizeBytes: 10,
      pathChecks: false,
    });
  });

  it('knows manifests by name and by extra pattern', () => {
    const settings = readSettings({ files: { extraPatterns: ['*.svc.yaml', 'deploy/**/manifest.toml'] } });
    expect(isManifestName('file:///w/svc.yaml', DEFAULT_SETTINGS)).toBe(true);
    expect(isManifestName('file:///w/sub/svc.yml', DEFAULT_SETTINGS)).toBe(true);
    expect(isManifestName('file:///w/svc.toml', DEFAULT_SETTINGS)).toBe(true);
    expect(isManifestName('file:///w/other.yaml', DEFAULT_SETTINGS)).toBe(false);
    expect(isManifestName('file:///w/prod.svc.yaml', settings)).toBe(true);
    expect(isManifestName('file:///w/deploy/eu/manifest.toml', settings)).toBe(true);
    expect(isManifestName('file:///w/deploy/manifest.toml', settings)).toBe(true);
    expect(isManifestName('file:///w/other/manifest.toml', settings)).toBe(false);
  });

  it('matches globs', () => {
    expect(globMatches('*.{yaml,yml}', '/a/b/x.yml')).toBe(true);
    expect(globMatches('src/?.yaml', '/w/src/a.yaml')).toBe(true);
    expect(globMatches('src/?.yaml', '/w/src/ab.yaml')).toBe(false);
  });
});

describe('README', () => {
  it('documents every setting with its real default', () => {
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `svc\.([\w.]+)` \| [^|]+ \| `([^`]+)` \|/gm)].map((m) => [
      m[1],
      JSON.parse(m[2]!),
    ]);
    expect(Object.fromEntries(rows)).toEqual({
      enable: DEFAULT_SETTINGS.enable,
      'files.extraPatterns': DEFAULT_SETTINGS.extraPatterns,
      'validation.maxFileSizeBytes': DEFAULT_SETTINGS.maxFileSizeBytes,
      'inlayHints.enable': DEFAULT_SETTINGS.inlayHints,
      'pathChecks.enable': DEFAULT_SETTINGS.pathChecks,
      'validation.enable': DEFAULT_SETTINGS.validation,
      'hover.enable': DEFAULT_SETTINGS.hover,
      'completion.enable': DEFAULT_SETTINGS.completion,
      'format.enable': DEFAULT_SETTINGS.format,
    });
  });
});
