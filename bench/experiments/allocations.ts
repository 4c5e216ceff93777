/**
 * How many bytes one small manifest's parse and validation allocate, and where: V8's sampling heap
 * profiler with collected objects kept in the count (so short-lived garbage shows, which is what
 * the collector pays for), over the throughput tree's files read into memory first, after one
 * pass that warms the code up. Prints bytes per file and the top allocating call sites (a
 * function and its two callers). Names are readable in a bundle built with SVC_BUNDLE_MINIFY=0.
 *
 *   (cd packages/validator && SVC_BUNDLE_MINIFY=0 node scripts/bundle.mjs)
 *   npx tsx bench/experiments/allocations.ts [parse|validate] [files=10000]
 *
 * `BUNDLE=<another build's svc-manifest-main.cjs>` measures that build instead.
 */
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../servers.ts';
import { generateTree, readTree } from '../throughput-bench.ts';

interface SamplingNode {
  callFrame: { functionName: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

const stage = process.argv[2] ?? 'validate';
const count = Number(process.argv[3] ?? 10000);
const tree = join(ROOT, '.bench-work', 'throughput-tree');
generateTree(tree, count);
const { ManifestDocument, validateDocument } = createRequire(import.meta.url)(
  process.env.BUNDLE ?? join(ROOT, 'packages', 'validator', 'dist', 'svc-manifest-main.cjs'),
) as typeof import('../../packages/validator/src/index.ts');

const files = readTree(tree);
const pass = () => {
  for (const file of files) {
    const document = ManifestDocument.parse(file.bytes, { filename: file.path });
    if (stage === 'validate') validateDocument(document, { once: true });
  }
};

pass();
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 1024,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
pass();
const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: SamplingNode } };
const bySite = new Map<string, number>();
const name = (node: SamplingNode) => `${node.callFrame.functionName || '(anonymous)'}:${node.callFrame.lineNumber + 1}`;
(function visit(node: SamplingNode, callers: string[]) {
  const here = [...callers.slice(-2), name(node)];
  if (node.selfSize) bySite.set(here.join(' > '), (bySite.get(here.join(' > ')) ?? 0) + node.selfSize);
  for (const child of node.children) visit(child, here);
})(profile.head, []);
const total = [...bySite.values()].reduce((sum, bytes) => sum + bytes, 0);
console.log(`${stage}: ${Math.round(total / files.length)} bytes allocated per file (${files.length} files)`);
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(
    `${String(Math.round(bytes / files.length)).padStart(7)}  ${((100 * bytes) / total).toFixed(1).padStart(5)}%  ${site}`,
  );
