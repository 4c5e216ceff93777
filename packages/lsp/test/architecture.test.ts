/** Architecture invariants of the package, checked on the sources. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

  it('main.ts only starts the server (through command.ts, which the bin calls from the bundle)', () => {
    expect(imports(read('main.ts'))).toEqual(['./command.js']);
    expect(imports(read('command.ts')).sort()).toEqual(['./server.js', 'vscode-languageserver/node']);
  });
});
