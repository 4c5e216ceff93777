/** Architecture invariants of the package, checked on the sources. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEATURES } from '../src/features/index.js';
import { PACKAGE_ROOT } from './built-server.js';

const src = join(PACKAGE_ROOT, 'src');
const read = (path: string) => readFileSync(join(src, path), 'utf8');
const imports = (text: string) => [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);

describe('architecture', () => {
  it('features never touch the connection: they import LSP types only', () => {
    for (const file of readdirSync(join(src, 'features'))) {
      const text = read(join('features', file));
      expect(imports(text), file).not.toContain('vscode-languageserver/node');
      expect(text, file).not.toMatch(/\bconnection\b/);
    }
  });

  it('server.ts wires features and knows nothing about manifests', () => {
    const used = imports(read('server.ts'));
    expect(used.filter((m) => m.startsWith('@svc-manifest/'))).toEqual([]);
  });

  it('every feature file exports a Feature listed in the table, and server.ts names none of them', async () => {
    const files = readdirSync(join(src, 'features')).filter((file) => file !== 'index.ts' && file !== 'diagnostics.ts');
    expect(files.length).toBe(FEATURES.length);
    for (const file of files) {
      const module = (await import(`../src/features/${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>;
      const exported = Object.values(module).filter((value) => FEATURES.includes(value as (typeof FEATURES)[number]));
      expect(exported, file).toHaveLength(1);
    }
    const methods = FEATURES.flatMap((feature) => feature.handlers.map((handler) => handler.method));
    expect(new Set(methods).size).toBe(methods.length);
    expect(
      imports(read('server.ts'))
        .filter((m) => m.startsWith('./features/'))
        .sort(),
    ).toEqual(['./features/diagnostics.js', './features/index.js']);
  });

  it('features/ holds features only: every file but the table is a feature or the pushed diagnostics', () => {
    for (const file of readdirSync(join(src, 'features'))) {
      if (file === 'index.ts' || file === 'diagnostics.ts') continue;
      expect(read(join('features', file)), file).toMatch(/export const \w+Feature: Feature = \{/);
    }
  });

  it('only what wires the features imports features/: the modules features build on never do', () => {
    const importers = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.startsWith('features'))
      .filter((file) => imports(read(file)).some((m) => /(^|\/)features\//.test(m)))
      .sort();
    expect(importers).toEqual(['index.ts', 'server.ts', 'workspace.ts']);
  });

  it('main.ts only starts the server (through command.ts, which the bin calls from the bundle)', () => {
    expect(imports(read('main.ts'))).toEqual(['./command.js']);
    // workspace-files.js: the files around a document on Node, injected for path checks (none in a browser).
    expect(imports(read('command.ts')).sort()).toEqual([
      './server.js',
      './workspace-files.js',
      'vscode-languageserver/node',
    ]);
  });
});
