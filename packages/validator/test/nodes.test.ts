/**
 * Node offsets kept from their unit's frame (nodes.ts): a parser's nodes read as file offsets,
 * move all at once when their frame moves, and serialise and copy as the file offsets they read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  copyTree,
  detachedCollection,
  detachedEntry,
  Frame,
  FrameGroup,
  type MapNode,
  type ValueNode,
} from '../src/document/nodes.js';
import { parseYamlFragment } from '../src/document/parse-yaml.js';
import { parseTomlFragment } from '../src/document/parse-toml.js';

/** Every offset of a tree, in document order. */
function offsets(node: ValueNode): number[] {
  const out = [node.start, node.end];
  if (node.kind === 'map')
    for (const entry of node.entries)
      out.push(entry.keyStart, entry.keyEnd, entry.start, entry.end, ...offsets(entry.value));
  if (node.kind === 'seq') for (const item of node.items) out.push(...offsets(item));
  return out;
}

describe('nodes kept from a frame', () => {
  const text = 'agents:\n  main:\n    connectors: [github, "slack"]\n    prompt: |\n      hi\n';

  it('read as file offsets, and move all at once with their frame', () => {
    const fragment = parseYamlFragment(text, 100);
    const root = fragment.root!;
    const before = offsets(root);
    expect(before[0]).toBe(100);
    const main = (root as MapNode).entries[0]!.value as MapNode;
    expect(text.slice(main.entries[0]!.keyStart - 100, main.entries[0]!.keyEnd - 100)).toBe('main');
    fragment.frame.base += 37;
    expect(offsets(root)).toEqual(before.map((offset) => offset + 37));
  });

  it('serialise as file offsets, so a tree prints the same whatever its frame', () => {
    const near = parseYamlFragment(text, 0).root!;
    const far = parseYamlFragment(text, 500);
    far.frame.base = 0;
    expect(JSON.stringify(far.root)).toBe(JSON.stringify(near));
    expect(JSON.parse(JSON.stringify(near))).toMatchObject({ kind: 'map', start: 0, end: text.length });
  });

  it('take a written offset as a file offset, which then moves with the frame (a join that widens a table)', () => {
    const fragment = parseYamlFragment(text, 10);
    const root = fragment.root as MapNode;
    root.end = 90;
    expect(root.end).toBe(90);
    fragment.frame.base += 5;
    expect(root.end).toBe(95);
  });

  it('have detached copies that keep the file offsets and stay put when the frame moves', () => {
    const fragment = parseTomlFragment('[a]\nb = 1\nc = [1, 2]\n', 40);
    const a = (fragment.root as MapNode).entries[0]!;
    const entry = detachedEntry(a);
    const table = detachedCollection(a.value as MapNode);
    expect([entry.keyStart, entry.keyEnd, entry.start, entry.end]).toEqual([a.keyStart, a.keyEnd, a.start, a.end]);
    expect(table.entries).toEqual((a.value as MapNode).entries);
    expect(table.entries).not.toBe((a.value as MapNode).entries);
    const tableStart = table.start;
    fragment.frame!.base += 1000;
    expect([entry.keyStart, table.start]).toEqual([a.keyStart - 1000, tableStart]);
    expect(a.keyStart).toBe(entry.keyStart + 1000);
  });

  it('copy into a new frame, moved, leaving the original alone', () => {
    const original = parseTomlFragment('x = { y = [1, "two"] }\n', 0).root!;
    const before = offsets(original);
    const frame = new Frame(0);
    const copy = copyTree(original, 12, frame);
    expect(offsets(copy)).toEqual(before.map((offset) => offset + 12));
    frame.base += 3;
    expect(offsets(copy)).toEqual(before.map((offset) => offset + 15));
    expect(offsets(original)).toEqual(before);
  });

  it('move with their frame’s group, and keep their offsets when the frame changes group', () => {
    const original = parseTomlFragment('x = { y = [1, "two"] }\n', 0).root!;
    const before = offsets(original);
    const [a, b] = [new Frame(0), new Frame(0)];
    const [copyA, copyB] = [copyTree(original, 10, a), copyTree(original, 40, b)];
    const group = new FrameGroup(5);
    a.joinGroup(group);
    b.joinGroup(group);
    expect([a.base, b.base]).toEqual([0, 0]);
    expect(offsets(copyA)).toEqual(before.map((offset) => offset + 10));
    // One write moves every frame of the group.
    group.base += 7;
    expect(offsets(copyA)).toEqual(before.map((offset) => offset + 17));
    expect(offsets(copyB)).toEqual(before.map((offset) => offset + 47));
    // A frame's own base moves it alone, in its group.
    b.base += 1;
    expect(offsets(copyB)).toEqual(before.map((offset) => offset + 48));
    expect(offsets(copyA)).toEqual(before.map((offset) => offset + 17));
    // Changing group keeps where the frame is; the old group then moves it no more.
    b.joinGroup(new FrameGroup(-3));
    group.base += 100;
    expect(offsets(copyB)).toEqual(before.map((offset) => offset + 48));
    expect(offsets(copyA)).toEqual(before.map((offset) => offset + 117));
  });

  it('are never copied by spreading them in the packages that read trees (a spread loses the accessors)', () => {
    // Names the code gives to nodes, entries and header keys; a spread of one would copy offsets kept from a frame as if they were file offsets.
    const spread = /\{\s*\.\.\.(?:node|entry|headerEntry|key|item|child|existing|root|table|value|copy)\s*[,}]/;
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, name.name);
        if (name.isDirectory()) walk(path);
        else if (name.name.endsWith('.ts') && !path.includes('generated'))
          readFileSync(path, 'utf8')
            .split('\n')
            .forEach(
              (line, i) =>
                !/^\s*(\*|\/\/)/.test(line) && spread.test(line) && found.push(`${path}:${i + 1}: ${line.trim()}`),
            );
      }
    };
    for (const pkg of ['validator', 'lsp', 'gitops']) walk(join(import.meta.dirname, '..', '..', pkg, 'src'));
    expect(found).toEqual([]);
  });
});
