/**
 * What one small manifest costs each stage, in process: our located parse (`ManifestDocument.parse`)
 * and validation (`validateDocument`, once) against js-yaml's value-only parse (ajv-cli's own copy),
 * over the throughput tree's files read into memory first. Three passes: the first is what a CLI
 * run gets (cold JIT), the later ones a warmed-up process.
 *
 *   npm run build && npx tsx bench/experiments/per-file-stages.ts [files=10000]
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../servers.ts';
import { generateTree, readTree } from '../throughput-bench.ts';

const count = Number(process.argv[2] ?? 10000);
const tree = join(ROOT, '.bench-work', 'throughput-tree');
generateTree(tree, count);
const requireHere = createRequire(import.meta.url);
const { ManifestDocument, validateDocument } = requireHere(
  join(ROOT, 'packages', 'validator', 'dist', 'svc-manifest-main.cjs'),
) as typeof import('../../packages/validator/src/index.ts');
const jsYaml = createRequire(join(ROOT, 'node_modules', 'ajv-cli', 'package.json'))('js-yaml') as {
  load(text: string): unknown;
};

const files = readTree(tree).map((file) => ({ ...file, yaml: !file.path.endsWith('.toml') }));
const yamlTexts = files.filter((file) => file.yaml).map((file) => file.bytes.toString('utf8'));

const microsPerFile = (ns: bigint, n: number) => (Number(ns) / n / 1000).toFixed(1);
for (let pass = 0; pass < 3; pass++) {
  let parse = 0n;
  let validate = 0n;
  let diagnostics = 0;
  for (const file of files) {
    const t0 = process.hrtime.bigint();
    const document = ManifestDocument.parse(file.bytes, { filename: file.path });
    const t1 = process.hrtime.bigint();
    diagnostics += validateDocument(document, { once: true }).diagnostics.length;
    parse += t1 - t0;
    validate += process.hrtime.bigint() - t1;
  }
  const t = process.hrtime.bigint();
  for (const text of yamlTexts) jsYaml.load(text);
  const js = process.hrtime.bigint() - t;
  console.log(
    `pass ${pass}: ours parse ${microsPerFile(parse, files.length)} µs/file, validate ${microsPerFile(validate, files.length)} µs/file (${diagnostics} diagnostics); js-yaml load ${microsPerFile(js, yamlTexts.length)} µs/file`,
  );
}
