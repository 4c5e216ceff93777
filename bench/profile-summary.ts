/**
 * Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and inclusive time
 * by function (each function counted once per stack), top N.
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile> [top=25] [filter-regexp]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg, filter] = process.argv.slice(2);
if (!file) {
  console.error('usage: profile-summary <file.cpuprofile> [top] [filter]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const label = (n: Node) => {
  const url = n.callFrame.url.replace(/^.*\/(packages|node_modules)\//, '$1/').replace(/^file:\/\//, '');
  return `${n.callFrame.functionName || '(anonymous)'} ${url ? `${url}:${n.callFrame.lineNumber + 1}` : ''}`.trim();
};

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const dt = (profile.timeDeltas[i] ?? 0) / 1000;
  total += dt;
  let node = byId.get(profile.samples[i]!);
  if (!node) continue;
  self.set(label(node), (self.get(label(node)) ?? 0) + dt);
  const seen = new Set<string>();
  while (node) {
    const l = label(node);
    if (!seen.has(l)) {
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
    }
    const p = parent.get(node.id);
    node = p === undefined ? undefined : byId.get(p);
  }
}
const re = filter ? new RegExp(filter) : undefined;
const show = (title: string, map: Map<string, number>) => {
  console.log(`\n${title} (total ${total.toFixed(0)} ms sampled)`);
  [...map.entries()]
    .filter(([l]) => !re || re.test(l))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([l, ms]) =>
      console.log(`${ms.toFixed(1).padStart(9)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${l}`),
    );
};
show('self time', self);
show('inclusive time', inclusive);
