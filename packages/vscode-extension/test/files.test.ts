import { describe, expect, it } from 'vitest';
import { baseName, documentSelector, isYamlPath, normalizeExtraPatterns, selectorPatterns } from '../src/files';

describe('document selection', () => {
  it('serves the three manifest names in any folder, by pattern and never by language', () => {
    const selector = documentSelector([]);
    expect(selector).toEqual([
      { scheme: 'file', pattern: '**/svc.yaml' },
      { scheme: 'file', pattern: '**/svc.yml' },
      { scheme: 'file', pattern: '**/svc.toml' },
    ]);
    for (const filter of selector) expect(filter).not.toHaveProperty('language');
  });

  it('adds extra patterns, matched like the server does: in any folder unless absolute', () => {
    expect(selectorPatterns(['*.svc.yaml', 'deploy/**/manifest.toml', '**/x.yml', '/srv/app/m.yaml'])).toEqual([
      '**/svc.yaml',
      '**/svc.yml',
      '**/svc.toml',
      '**/*.svc.yaml',
      '**/deploy/**/manifest.toml',
      '**/x.yml',
      '/srv/app/m.yaml',
    ]);
  });

  it('does not repeat a pattern', () => {
    expect(selectorPatterns(['svc.yaml', '**/svc.toml', 'a.yaml', 'a.yaml'])).toEqual([
      '**/svc.yaml',
      '**/svc.yml',
      '**/svc.toml',
      '**/a.yaml',
    ]);
  });

  it('ignores settings values that are not string arrays', () => {
    expect(normalizeExtraPatterns(undefined)).toEqual([]);
    expect(normalizeExtraPatterns('*.yaml')).toEqual([]);
    expect(normalizeExtraPatterns([' *.svc.yaml ', 3, null, '', '*.svc.yaml', 'x.toml'])).toEqual([
      '*.svc.yaml',
      'x.toml',
    ]);
  });

  it('knows base names and YAML paths', () => {
    expect(baseName('/a/b/svc.yaml')).toBe('svc.yaml');
    expect(baseName('c:\\a\\svc.toml')).toBe('svc.toml');
    expect(isYamlPath('/a/svc.yml')).toBe(true);
    expect(isYamlPath('/a/svc.YAML')).toBe(true);
    expect(isYamlPath('/a/svc.toml')).toBe(false);
  });
});
