/** The TOML editor on its own. */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { ManifestFile } from '../src/index.js';
import { crlf, TOML_LINES } from './support/fixtures.js';

const original = crlf(TOML_LINES);
const lines = original.split('\r\n');
/** First and last line index of each agent's table body (the lines a scope change may touch). */
const body: Record<string, [number, number]> = { main: [10, 12], helper: [15, 16], reviewer: [20, 21] };
const allowlist = fc.oneof(
  fc.constant('all'),
  fc.constant('none'),
  fc.uniqueArray(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,8}$/), { maxLength: 4 }),
);

test('property: a scope change only touches its agent’s table; CRLF everywhere', () => {
  fc.assert(
    fc.property(fc.constantFrom('main', 'helper', 'reviewer'), allowlist, allowlist, (agent, secrets, connectors) => {
      const result = new ManifestFile('svc.toml', 'toml', original).edit([
        { op: 'set', path: ['agents', agent, 'secrets'], value: secrets },
        { op: 'set', path: ['agents', agent, 'connectors'], value: connectors },
      ]);
      expect(result.replace(/\r\n/g, '')).not.toContain('\n');
      const after = result.split('\r\n');
      const [first, last] = body[agent]!;
      expect(after.slice(0, first)).toEqual(lines.slice(0, first));
      const tail = lines.length - 1 - last;
      expect(after.slice(after.length - tail)).toEqual(lines.slice(lines.length - tail));
    }),
    { numRuns: 100 },
  );
});

test('a table written inline is extended inline (fallback to the format-preserving patcher)', () => {
  const text = 'svc_version = 2\ndefault_agent = "main"\nagents = { main = { enabled = true } } # inline\n';
  expect(
    new ManifestFile('svc.toml', 'toml', text).edit([{ op: 'set', path: ['agents', 'pdf'], value: { enabled: true } }]),
  ).toBe(
    'svc_version = 2\ndefault_agent = "main"\nagents = { main = { enabled = true }, pdf = { enabled = true } } # inline\n',
  );
});

/** The value as the engine writes it: basic strings; arrays padded like the file's first array unless replacing an unpadded one. */
function render(value: string | string[], padded: boolean): string {
  if (!Array.isArray(value)) return JSON.stringify(value);
  if (value.length === 0) return '[]';
  const items = value.map((item) => JSON.stringify(item)).join(', ');
  return padded ? `[ ${items} ]` : `[${items}]`;
}

test('property: only the changed values’ characters change; comments keep their place; a new key is one new line', () => {
  fc.assert(
    fc.property(fc.constantFrom('main', 'helper', 'reviewer'), allowlist, allowlist, (agent, secrets, connectors) => {
      const result = new ManifestFile('svc.toml', 'toml', original).edit([
        { op: 'set', path: ['agents', agent, 'secrets'], value: secrets },
        { op: 'set', path: ['agents', agent, 'connectors'], value: connectors },
      ]);
      const expected = [...lines];
      const [first, last] = body[agent]!;
      let end = last;
      for (const [field, value] of [
        ['secrets', secrets],
        ['connectors', connectors],
      ] as const) {
        const index = expected.findIndex((line, i) => i >= first && i <= end && line.startsWith(`${field} = `));
        if (index < 0) {
          expected.splice(end + 1, 0, `${field} = ${render(value, true)}`);
          end += 1;
          continue;
        }
        const old = expected[index]!;
        const match = /^(\w+ = )("[^"]*"|\[[^\]]*\])(.*)$/.exec(old)!;
        const padded = match[2]!.startsWith('"') || match[2]!.startsWith('[ ');
        expected[index] = `${match[1]}${render(value, padded)}${match[3]}`;
      }
      expect(result).toBe(expected.join('\r\n'));
    }),
    { numRuns: 100 },
  );
});
