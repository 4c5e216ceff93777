/**
 * `npm run bench`: everything in one run, side by side.
 *
 *  1. LSP: ours vs yaml-language-server (patched: 200 ms validation delay removed; stock
 *     beside it) on generated manifests of ~1k, 10k, 50k lines, valid and with ~1% errors.
 *  2. The validator vs the floor (`yaml` parseDocument + compiled ajv), cold and fresh-document.
 *  3. The bundled CLI on the example vs a bare `node -e 0`, paired.
 *  4. The applier: one setAgentScope commit vs bare git plumbing, on a big generated repository.
 *  5. Bursts (ours only): a request sent right after 200 edits of a 13 KB manifest with 1,000
 *     diagnostics, and a 5,000-edit random storm with requests (bench/burst-bench.ts).
 *  6. The applier's fixed cost: setDefaultAgent vs the plumbing floor at 1, 1,000 and 20,000
 *     files, and `svc-manifest-git set-default-agent` vs `node -e 0` at 1 and 20,000 files
 *     (bench/gitops-bench.ts).
 *
 * Writes bench/results.json, docs/performance.svg and docs/performance.md (figures from this
 * run + the hand-written analysis in bench/findings.md), and prints the ratio table.
 *
 * Knobs (environment): BENCH_SIZES=1000,10000,50000  BENCH_PARTS=lsp,validator,cli,applier,burst,gitops
 * BENCH_SERVERS=ours,yls-patched,yls-stock  BENCH_QUICK=1 (fewer repetitions)
 * BENCH_NO_DOCS=1 (do not rewrite docs/). Any of the first four makes a partial run: its results go to
 * .bench-work/results-partial.json, and bench/results.json and docs/ are left as they are.
 *
 * `tsx bench/run.ts --docs-only` re-renders docs/performance.{md,svg} from bench/results.json
 * (e.g. after editing bench/findings.md) without measuring anything.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { benchApplier, type ApplierResult } from './applier-bench.ts';
import { latencyPanels, renderChart } from './chart.ts';
import { benchBurst, type BurstResult } from './burst-bench.ts';
import { benchCli, type CliResult } from './cli-bench.ts';
import { generateManifest, type GeneratedManifest } from './generate.ts';
import { benchGitops, type GitopsResult } from './gitops-bench.ts';
import { runOnce, runServer, type ServerResult, type ServerSpec, type Stat } from './lsp-harness.ts';
import { OUR_SERVER, OUR_SETTINGS, ourSpec, ROOT, WORK, ylsSpec, ylsVersion } from './servers.ts';
import { benchValidator, type ValidatorResult } from './validator-bench.ts';

const env = process.env;
const QUICK = env.BENCH_QUICK === '1';
const SIZES = (env.BENCH_SIZES ?? '1000,10000,50000').split(',').map(Number);
const PARTS = new Set((env.BENCH_PARTS ?? 'lsp,validator,cli,applier,burst,gitops').split(','));
const SERVERS = new Set((env.BENCH_SERVERS ?? 'ours,yls-patched,yls-stock').split(','));
const DOCS_DIR = '/tmp/svc-manifest-bench';
/** A run restricted by a knob writes .bench-work/results-partial.json and leaves bench/results.json and docs/ alone. */
const PARTIAL = QUICK || !!env.BENCH_SIZES || !!env.BENCH_PARTS || !!env.BENCH_SERVERS;
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** Repetitions per server and size: fresh spawns × measured operations per spawn. */
function reps(server: string, manifest: GeneratedManifest): { spawns: number; inner: number } {
  const big = manifest.targetLines >= 50000;
  const errors = manifest.errorRate > 0;
  // Stock YLS is the patched one plus its fixed delay: a few samples beside it are enough.
  if (server === 'yls-stock') return { spawns: 1, inner: 2 };
  if (server === 'ours') return { spawns: QUICK ? 1 : big ? 2 : 3, inner: QUICK ? 3 : big ? 4 : 6 };
  // yls-patched
  if (QUICK) return { spawns: 1, inner: 2 };
  if (big) return { spawns: 1, inner: errors ? 3 : 4 };
  return { spawns: errors ? 2 : 3, inner: 4 };
}

function ourServerRuns(): boolean {
  if (!existsSync(OUR_SERVER)) return false;
  try {
    execFileSync(process.execPath, [OUR_SERVER, '--version'], { timeout: 10000 });
    return true;
  } catch {
    return false;
  }
}

const fmtMs = (s: Stat | undefined) => (!s || !Number.isFinite(s.median) ? 'n/a' : s.median >= 100 ? `${Math.round(s.median)}` : s.median.toFixed(1));
const fmtRange = (s: Stat | undefined) =>
  !s || !Number.isFinite(s.median) ? 'n/a' : `${fmtMs(s)} (${fmtMs({ ...s, median: s.min })}–${fmtMs({ ...s, median: s.max })})`;
/** "6.5× faster", or "1.4× slower" when below 1. */
const faster = (r: number) => (Number.isFinite(r) && r < 1 ? `${fmtRatio(1 / r)}× slower` : `${fmtRatio(r)}× faster`);
const fmtRatio = (r: number) => (Number.isFinite(r) ? (r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(1) : r.toFixed(2)) : 'n/a');

interface Target {
  name: string;
  measured: string;
  target: string;
  met: boolean | null;
}

function writeDocs(results: Results): void {
  const sizes = [...new Set(results.lsp.map((r) => r.manifest).filter((n) => !n.endsWith('-errors')))];
  const svg = renderChart(
    sizes,
    latencyPanels(sizes, results.lsp, [
      { name: 'ours', label: 'ours (svc-manifest-lsp)', color: '#1f77b4' },
      { name: 'yls-patched', label: 'YLS 1.25.0, delay removed', color: '#d62728' },
      { name: 'yls-stock', label: 'YLS 1.25.0 stock (200 ms delay)', color: '#ff9896', dashed: true },
    ]),
    `Latency by manifest size (valid manifests), ${results.machine.nproc} cores, node ${results.machine.node}`,
  );
  mkdirSync(join(ROOT, 'docs'), { recursive: true });
  writeFileSync(join(ROOT, 'docs', 'performance.svg'), svg);
  const table = ratioTable(results.lsp, results.validator, results.cli, results.applier, results.burst);
  writeFileSync(join(ROOT, 'docs', 'performance.md'), markdown(results, table, results.targets));
  log('wrote docs/performance.svg and docs/performance.md');
}

interface Results {
  started: string;
  finished: string;
  machine: Record<string, unknown> & { nproc: number; node: string };
  skipped: string[];
  settings?: unknown;
  manifests: unknown[];
  lsp: ServerResult[];
  validator: ValidatorResult[];
  cli?: CliResult;
  applier?: ApplierResult;
  burst?: BurstResult;
  gitops?: GitopsResult;
  targets: Target[];
}

async function main(): Promise<void> {
  if (process.argv.includes('--docs-only')) {
    const file = join(ROOT, 'bench', 'results.json');
    const results = JSON.parse(readFileSync(file, 'utf8')) as Results;
    results.targets = [...evaluate(results.lsp, results.validator, results.cli, results.burst), ...gitopsTargets(results.gitops)];
    writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
    writeDocs(results);
    return;
  }
  const started = new Date();
  mkdirSync(WORK, { recursive: true });
  mkdirSync(DOCS_DIR, { recursive: true });
  const machine = {
    nproc: Number(execFileSync('nproc').toString().trim()),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
    yamlLanguageServer: ylsVersion(),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim(),
    /** Files under packages/ modified but not committed when the run started (others work in the same checkout). */
    uncommittedInPackages: execFileSync('git', ['status', '--porcelain', '--', 'packages'], { cwd: ROOT })
      .toString()
      .split('\n')
      .filter((line) => line.trim() !== '').length,
  };
  log(`machine: ${JSON.stringify(machine)}`);

  const manifests: GeneratedManifest[] = [];
  for (const size of SIZES) for (const errorRate of [0, 0.01]) manifests.push(generateManifest({ targetLines: size, errorRate, seed: 42 }));
  for (const m of manifests) writeFileSync(join(DOCS_DIR, `${m.name}.yaml`), m.text);

  // 1. Language servers.
  const lsp: ServerResult[] = [];
  const skipped: string[] = [];
  if (PARTS.has('lsp')) {
    const specs: ServerSpec[] = [];
    if (SERVERS.has('ours')) {
      if (ourServerRuns()) specs.push(ourSpec());
      else skipped.push(`ours: ${OUR_SERVER} missing or not starting (build packages/lsp first)`);
    }
    if (SERVERS.has('yls-patched')) specs.push(ylsSpec('patched'));
    if (SERVERS.has('yls-stock')) specs.push(ylsSpec('stock'));
    // Warm-up, not recorded: one short session per server (OS file cache, the patched copy, code caches).
    const warm = manifests.reduce((a, b) => (b.lines < a.lines ? b : a));
    for (const spec of specs) {
      try {
        await runOnce(spec, warm, { spawns: 1, inner: 1, workDir: DOCS_DIR, timeoutMs: 60_000 });
      } catch (error) {
        log(`warm-up of ${spec.name} failed: ${(error as Error).message}`);
      }
    }
    for (const manifest of manifests) {
      for (const spec of specs) {
        const r = reps(spec.name, manifest);
        log(`lsp ${spec.name} ${manifest.name} (${manifest.lines} lines): ${r.spawns} spawn(s) × ${r.inner}`);
        try {
          const result = await runServer(spec, manifest, { ...r, workDir: DOCS_DIR, timeoutMs: 120_000, log });
          lsp.push(result);
          log(
            `  edit→diag ${fmtRange(result.editToDiagnosticsMs)} ms, completion ${fmtMs(result.completionKeyMs)} ms, hover ${fmtMs(result.hoverMs)} ms, rss ${fmtMs(result.peakRssMb)} MB, diagnostics ${result.openDiagnostics}`,
          );
        } catch (error) {
          skipped.push(`${spec.name} ${manifest.name}: ${(error as Error).message}`);
          log(`  FAILED: ${(error as Error).message}`);
        }
      }
    }
  }

  // 2. Validator vs floor.
  const validator: ValidatorResult[] = [];
  if (PARTS.has('validator')) {
    for (const manifest of manifests) {
      const big = manifest.targetLines >= 50000;
      log(`validator ${manifest.name}`);
      validator.push(benchValidator(manifest, join(DOCS_DIR, `${manifest.name}.yaml`), { cold: QUICK ? 2 : big ? 4 : 6, warm: QUICK ? 3 : big ? 5 : 9 }));
      const v = validator[validator.length - 1]!;
      log(
        `  cold ours ${fmtMs(v.cold.ours)} floor ${fmtMs(v.cold.floor)} ratio ${fmtRatio(v.cold.ratio.median)}; fresh-doc ours ${fmtMs(v.freshDocument.ours)} floor ${fmtMs(v.freshDocument.floor)}`,
      );
    }
  }

  // 3. CLI.
  let cli: CliResult | undefined;
  if (PARTS.has('cli')) {
    log('cli vs node -e 0');
    cli = benchCli(QUICK ? 6 : 20);
    log(`  cli ${fmtMs(cli.cli)} bare ${fmtMs(cli.bareNode)} ratio ${fmtRatio(cli.ratio.median)}`);
  }

  // 4. Applier.
  let applier: ApplierResult | undefined;
  if (PARTS.has('applier')) {
    log('applier: building a repository with thousands of commits and files');
    const manifest = manifests.find((m) => m.targetLines === SIZES[0] && m.errorRate === 0) ?? generateManifest({ targetLines: 1000 });
    const agent = /^agents:\n(?: {2}#.*\n)* {2}([a-z0-9-]+):/m.exec(manifest.text)![1]!;
    applier = await benchApplier({
      dir: join(WORK, 'applier-repo.git'),
      manifest: manifest.text,
      agent,
      secrets: [['BENCH_TOKEN_A'], ['BENCH_TOKEN_B', 'BENCH_TOKEN_C']],
      commits: 3000,
      files: 4000,
      runs: QUICK ? 3 : 9,
    });
    log(`  ours ${fmtMs(applier.ours)} bare ${fmtMs(applier.bareGit)} ratio ${fmtRatio(applier.ratio.median)}`);
  }

  // 5. Bursts of edits (ours only).
  let burst: BurstResult | undefined;
  if (PARTS.has('burst')) {
    if (ourServerRuns()) {
      log('burst: 200 edits then a hover, 13 KB manifest with 1,000 diagnostics; then a 5,000-edit storm');
      burst = await benchBurst({ repetitions: QUICK ? 3 : 7 });
      log(
        `  hover after the burst ${fmtRange(burst.hoverAfterBurstMs)} ms, ${fmtMs(burst.validationsPerBurst)} validation(s) per burst; storm: max wait ${fmtMs({ ...burst.storm.waitMs, median: burst.storm.waitMs.max })} ms, ${burst.storm.overOneSecond} over 1 s`,
      );
    } else skipped.push(`burst: ${OUR_SERVER} missing or not starting (build packages/lsp first)`);
  }

  // 6. The applier's fixed cost.
  let gitops: GitopsResult | undefined;
  if (PARTS.has('gitops')) {
    log('gitops: setDefaultAgent vs the plumbing floor at 1, 1,000 and 20,000 files; svc-manifest-git vs node -e 0');
    gitops = await benchGitops({ dir: join(WORK, 'gitops'), librarySizes: [1, 1000, 20000], cliSizes: [1, 20000], runs: QUICK ? 5 : 15 });
    for (const row of gitops.library)
      log(`  library ${row.files} files: ours ${fmtMs(row.ours)} floor ${fmtMs(row.floor)} ratio ${fmtRatio(row.ratio.median)}`);
    for (const row of [...gitops.cli, ...gitops.dispatch])
      log(
        `  ${row.command}, ${row.files} files: ${fmtMs(row.cli)} vs node ${fmtMs(row.bareNode)} ratio ${fmtRatio(row.ratio.median)} (cpu ${fmtRatio(row.cpuRatio?.median ?? NaN)})`,
      );
  }

  const finished = new Date();
  const targets = [...evaluate(lsp, validator, cli, burst), ...gitopsTargets(gitops)];
  const results: Results = {
    started: started.toISOString(),
    finished: finished.toISOString(),
    machine: { ...machine, loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100) },
    settings: { ours: OUR_SETTINGS, yls: 'yaml.schemas → published v2 schema for svc.yaml, schemaStore off, validate/completion/hover on' },
    manifests: manifests.map(({ text: _text, ...m }) => m),
    lsp,
    validator,
    cli,
    applier,
    burst,
    gitops,
    targets,
    skipped,
  };
  const resultsFile = PARTIAL ? join(WORK, 'results-partial.json') : join(ROOT, 'bench', 'results.json');
  writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n');
  log(`wrote ${resultsFile.slice(ROOT.length + 1)}`);
  const table = ratioTable(lsp, validator, cli, applier, burst) + (gitops ? `\n\n${gitopsTable(gitops)}` : '');
  process.stdout.write(
    table +
      '\n\nTargets:\n' +
      targets.map((t) => `  ${t.met === null ? '?' : t.met ? 'MET   ' : 'MISSED'}  ${t.name}: ${t.measured} (target ${t.target})`).join('\n') +
      '\n',
  );
  if (skipped.length) process.stdout.write(`\nSkipped: \n  ${skipped.join('\n  ')}\n`);

  if (env.BENCH_NO_DOCS !== '1' && !PARTIAL && lsp.length) writeDocs(results);
  log(`done in ${((finished.getTime() - started.getTime()) / 1000).toFixed(0)} s`);
}

/** Issue #13's targets: the CLI within 2× `node -e 0` at one file and 1.3× that at 20,000; the library within 1.5× the floor. */
function gitopsTargets(gitops: GitopsResult | undefined): Target[] {
  if (!gitops) return [];
  const targets: Target[] = [];
  for (const row of gitops.library) {
    if (row.files !== 1 && row.files !== 20000) continue;
    targets.push({
      name: `setDefaultAgent vs plumbing floor, ${row.files} files`,
      measured: `${fmtRatio(row.ratio.median)}×`,
      target: '≤ 1.5×',
      met: row.ratio.median <= 1.5,
    });
  }
  const one = gitops.cli.find((row) => row.files === 1);
  if (one)
    targets.push({
      name: 'svc-manifest-git set-default-agent vs node -e 0, 1 file',
      measured: `${fmtRatio(one.ratio.median)}×`,
      target: '≤ 2×',
      met: one.ratio.median <= 2,
    });
  if (gitops.cli.length > 1)
    targets.push({ name: 'the same at 20,000 files over 1 file', measured: `${fmtRatio(gitops.cliGrowth)}×`, target: '≤ 1.3×', met: gitops.cliGrowth <= 1.3 });
  const dispatched = gitops.dispatch.find((row) => row.files === 1);
  if (dispatched)
    targets.push({
      name: 'svc-manifest git set-default-agent vs node -e 0, 1 file',
      measured: `${fmtRatio(dispatched.ratio.median)}×`,
      target: '≤ 2×',
      met: dispatched.ratio.median <= 2,
    });
  return targets;
}

export function gitopsTable(gitops: GitopsResult): string {
  const rows = ['| applier (examples/svc.yaml, bare repository) | ours ms | reference ms | ratio (median of pairs) |', '|---|---|---|---|'];
  for (const row of gitops.library)
    rows.push(
      `| setDefaultAgent vs plumbing floor, ${row.files} files (${row.runs} pairs) | ${fmtRange(row.ours)} | ${fmtRange(row.floor)} | ${fmtRatio(row.ratio.median)}× |`,
    );
  for (const row of [...gitops.cli, ...gitops.dispatch])
    rows.push(
      `| \`${row.command}\` vs \`node -e 0\`, ${row.files} files (${row.runs} pairs) | ${fmtRange(row.cli)} | ${fmtRange(row.bareNode)} | ${fmtRatio(row.ratio.median)}× wall, ${fmtRatio(row.cpuRatio?.median ?? NaN)}× CPU |`,
    );
  return rows.join('\n');
}

function get(lsp: ServerResult[], server: string, manifest: string): ServerResult | undefined {
  return lsp.find((r) => r.server === server && r.manifest === manifest);
}

function evaluate(lsp: ServerResult[], validator: ValidatorResult[], cli: CliResult | undefined, burst?: BurstResult): Target[] {
  const targets: Target[] = [];
  const names = [...new Set(lsp.map((r) => r.manifest))];
  for (const name of names) {
    const ours = get(lsp, 'ours', name);
    const yls = get(lsp, 'yls-patched', name);
    if (!ours || !yls) continue;
    const edit = yls.editToDiagnosticsMs.median / ours.editToDiagnosticsMs.median;
    targets.push({
      name: `edit→diagnostics ${name}`,
      measured: `${faster(edit)} (${fmtMs(ours.editToDiagnosticsMs)} vs ${fmtMs(yls.editToDiagnosticsMs)} ms)`,
      target: '≥ 5×',
      met: edit >= 5,
    });
    if (name.startsWith('10k')) {
      const completion = yls.completionKeyMs.median / ours.completionKeyMs.median;
      const hover = yls.hoverMs.median / ours.hoverMs.median;
      targets.push({
        name: `completion ${name}`,
        measured: `${faster(completion)} (${fmtMs(ours.completionKeyMs)} vs ${fmtMs(yls.completionKeyMs)} ms)`,
        target: '≥ 20×',
        met: completion >= 20,
      });
      targets.push({
        name: `hover ${name}`,
        measured: `${faster(hover)} (${fmtMs(ours.hoverMs)} vs ${fmtMs(yls.hoverMs)} ms)`,
        target: '≥ 20×',
        met: hover >= 20,
      });
    }
    const rss = ours.peakRssMb.median / yls.peakRssMb.median;
    targets.push({
      name: `peak RSS ${name}`,
      measured: `${fmtRatio(rss)} of YLS (${fmtMs(ours.peakRssMb)} vs ${fmtMs(yls.peakRssMb)} MB)`,
      target: '≤ 0.5',
      met: rss <= 0.5,
    });
  }
  const startOurs = lsp.filter((r) => r.server === 'ours').flatMap((r) => [r.startupMs.median]);
  const startYls = lsp.filter((r) => r.server === 'yls-patched').flatMap((r) => [r.startupMs.median]);
  if (startOurs.length && startYls.length) {
    const a = median(startOurs);
    const b = median(startYls);
    targets.push({
      name: 'server startup (spawn → initialize result)',
      measured: `${fmtRatio(a / b)} of YLS (${a.toFixed(0)} vs ${b.toFixed(0)} ms)`,
      target: '≤ 0.33',
      met: a / b <= 1 / 3,
    });
  }
  for (const v of validator) {
    targets.push({
      name: `validator cold ${v.manifest}`,
      measured: `${fmtRatio(v.cold.ratio.median)}× the floor (${fmtMs(v.cold.ours)} vs ${fmtMs(v.cold.floor)} ms)`,
      target: '≤ 1.5×',
      met: v.cold.ratio.median <= 1.5,
    });
  }
  if (cli)
    targets.push({
      name: 'CLI on the example',
      measured: `${fmtRatio(cli.ratio.median)}× node -e 0 (${fmtMs(cli.cli)} vs ${fmtMs(cli.bareNode)} ms)`,
      target: '≤ 1.25× (issue #17)',
      met: cli.ratio.median <= 1.25,
    });
  if (cli?.cpuRatio)
    targets.push({
      name: 'CLI on the example, CPU time',
      measured: `${fmtRatio(cli.cpuRatio.median)}× node -e 0`,
      target: '≤ 1.25× (issue #17)',
      met: cli.cpuRatio.median <= 1.25,
    });
  if (burst) {
    targets.push({
      name: `request after a burst of ${burst.edits} edits (${(burst.manifestBytes / 1024).toFixed(0)} KB, ${burst.diagnostics} diagnostics)`,
      measured: `${fmtMs(burst.hoverAfterBurstMs)} ms, ${fmtMs(burst.validationsPerBurst)} validation(s) per burst`,
      target: '< 100 ms (issue #17)',
      met: burst.hoverAfterBurstMs.median < 100,
    });
    targets.push({
      name: `${burst.storm.edits}-edit storm: requests waiting over 1 s; last publication fresh`,
      measured: `${burst.storm.overOneSecond} of ${burst.storm.requests} (max ${fmtMs({ ...burst.storm.waitMs, median: burst.storm.waitMs.max })} ms); ${burst.storm.lastPublicationIsFresh ? 'fresh' : 'STALE'}`,
      target: '0; fresh (issue #17)',
      met: burst.storm.overOneSecond === 0 && burst.storm.lastPublicationIsFresh,
    });
  }
  return targets;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

function ratioTable(
  lsp: ServerResult[],
  validator: ValidatorResult[],
  cli: CliResult | undefined,
  applier: ApplierResult | undefined,
  burst?: BurstResult,
): string {
  const rows: string[] = [];
  rows.push('| manifest | measure | ours | YLS (delay removed) | ours vs YLS | YLS stock |');
  rows.push('|---|---|---|---|---|---|');
  const names = [...new Set(lsp.map((r) => r.manifest))];
  const measures: [string, (r: ServerResult) => Stat, 'faster' | 'share'][] = [
    ['startup ms', (r) => r.startupMs, 'share'],
    ['open → diagnostics ms', (r) => r.openToDiagnosticsMs, 'faster'],
    ['edit → diagnostics ms', (r) => r.editToDiagnosticsMs, 'faster'],
    ['completion (key) ms', (r) => r.completionKeyMs, 'faster'],
    ['completion (value) ms', (r) => r.completionValueMs, 'faster'],
    ['hover ms', (r) => r.hoverMs, 'faster'],
    ['peak RSS MB', (r) => r.peakRssMb, 'share'],
  ];
  for (const name of names) {
    const ours = get(lsp, 'ours', name);
    const yls = get(lsp, 'yls-patched', name);
    const stock = get(lsp, 'yls-stock', name);
    const lines = (ours ?? yls ?? stock)?.lines ?? 0;
    for (const [label, pick, kind] of measures) {
      const o = ours ? pick(ours) : undefined;
      const y = yls ? pick(yls) : undefined;
      const ratio = o && y ? y.median / o.median : NaN;
      const shown = kind === 'faster' ? faster(ratio) : `ours = ${fmtRatio(1 / ratio)} of YLS`;
      rows.push(`| ${name} (${lines} lines) | ${label} | ${fmtRange(o)} | ${fmtRange(y)} | ${shown} | ${fmtRange(stock ? pick(stock) : undefined)} |`);
    }
  }
  const out = [rows.join('\n')];
  if (validator.length) {
    const v: string[] = [
      '| manifest | validator cold (fresh process) ms: ours | floor | ratio | fresh document (warm process) ms: ours | floor | ratio |',
      '|---|---|---|---|---|---|---|',
    ];
    for (const r of validator) {
      v.push(
        `| ${r.manifest} (${r.lines} lines, ${(r.bytes / 1024).toFixed(0)} KiB) | ${fmtRange(r.cold.ours)} | ${fmtRange(r.cold.floor)} | ${fmtRatio(r.cold.ratio.median)}× | ${fmtRange(r.freshDocument.ours)} | ${fmtRange(r.freshDocument.floor)} | ${fmtRatio(r.freshDocument.ratio.median)}× |`,
      );
    }
    out.push(v.join('\n'));
  }
  if (cli || applier) {
    const c: string[] = ['| measure | ours ms | reference ms | ratio (median of pairs) |', '|---|---|---|---|'];
    if (cli)
      c.push(
        `| CLI \`validate ${cli.manifest}\` vs \`node -e 0\` (${cli.runs} pairs) | ${fmtRange(cli.cli)} | ${fmtRange(cli.bareNode)} | ${fmtRatio(cli.ratio.median)}× (+${fmtMs(cli.overheadMs)} ms) |`,
      );
    if (cli?.cliCpu && cli.bareNodeCpu && cli.cpuRatio)
      c.push(
        `| the same, CPU time (user+sys, /usr/bin/time, 10 ms resolution) | ${fmtRange(cli.cliCpu)} | ${fmtRange(cli.bareNodeCpu)} | ${fmtRatio(cli.cpuRatio.median)}× |`,
      );
    if (applier)
      c.push(
        `| setAgentScope vs hash-object+mktree+commit-tree+update-ref (${applier.commits} commits, ${applier.files} files, ${applier.runs} pairs) | ${fmtRange(applier.ours)} | ${fmtRange(applier.bareGit)} | ${fmtRatio(applier.ratio.median)}× |`,
      );
    out.push(c.join('\n'));
  }
  if (burst) out.push(burstTable(burst));
  return out.join('\n\n');
}

export function burstTable(burst: BurstResult): string {
  const s = burst.storm;
  return [
    `| bursts (ours; ${burst.manifestBytes} bytes, ${burst.diagnostics} diagnostics) | median (min–max) |`,
    '|---|---|',
    `| hover sent right after ${burst.edits} edits: send → answer ms (${burst.repetitions} fresh servers) | ${fmtRange(burst.hoverAfterBurstMs)} |`,
    `| the same burst: hover sent → diagnostics of the last version ms | ${fmtRange(burst.finalDiagnosticsMs)} |`,
    `| validations / publications per burst | ${fmtRange(burst.validationsPerBurst)} / ${fmtRange(burst.publicationsPerBurst)} |`,
    `| storm of ${s.edits} random edits, ${s.requests} requests: wait ms | ${fmtRange(s.waitMs)}; ${s.overOneSecond} over 1 s |`,
    `| storm: validations / publications; last publication = fresh validation of the final text | ${s.validations} / ${s.publications}; ${s.lastPublicationIsFresh ? 'yes' : 'NO'} |`,
  ].join('\n');
}

function markdown(
  results: { machine: Record<string, unknown>; started: string; finished: string; skipped: string[]; manifests: unknown[] },
  table: string,
  targets: Target[],
): string {
  const findingsFile = join(ROOT, 'bench', 'findings.md');
  const findings = existsSync(findingsFile) ? readFileSync(findingsFile, 'utf8') : '';
  const m = results.machine;
  return `# Performance

<!-- Generated by \`npm run bench\` (bench/run.ts) from its own run; the analysis comes from bench/findings.md. -->

Measured by \`npm run bench\` on ${results.started.slice(0, 16).replace('T', ' ')} UTC, commit ${m.commit}${m.uncommittedInPackages ? ` (plus ${m.uncommittedInPackages} uncommitted file(s) under packages/ in the shared checkout)` : ''}:
\`nproc\` = ${m.nproc} (${m.cpu}, ${m.memoryGb} GB), \`node -v\` = ${m.node}, yaml-language-server ${m.yamlLanguageServer}.
Load average at start ${(m.loadAverageAtStart as number[]).join(' / ')}, at end ${(m.loadAverageAtEnd as number[]).join(' / ')}
(the machine is shared: every ratio below compares figures from the same run, taken close together — the validator,
CLI and applier pairs interleaved run by run, the servers one after the other on each manifest).

![Latency by manifest size](performance.svg)

## Targets (the goals we set against yaml-language-server and a bare Node start)

| | target | measured | |
|---|---|---|---|
${targets.map((t) => `| ${t.name} | ${t.target} | ${t.measured} | ${t.met === null ? '?' : t.met ? 'met' : '**missed**'} |`).join('\n')}

## Figures

Median (min–max) in milliseconds unless noted. "YLS" is yaml-language-server ${m.yamlLanguageServer} with its fixed 200 ms
validation delay removed (a patched copy in \`.bench-work/\`); "YLS stock" is the installed server as is.

${table}
${results.skipped.length ? `\nNot measured in this run: ${results.skipped.join('; ')}\n` : ''}
## How it is measured

- Manifests: \`bench/generate.ts\`, deterministic (seed 42): agents, triggers of every type (cron, webhook, monitor poll and
  stream), connectors of every provider, templates, env, apps, comments, flow and block lists; the \`-errors\` variants carry
  a mistake on ~1% of the lines (typo'd keys, bad enum values, undeclared references, bad durations, wrong types).
- Language servers: \`bench/lsp-harness.ts\` spawns the server (\`node <server> --stdio\`), speaks LSP through
  vscode-languageserver-protocol, answers \`workspace/configuration\` (YLS: \`yaml.schemas\` maps the published
  \`packages/schema/generated/svc.v2.schema.json\` to \`svc.yaml\`, schema store off, validate/completion/hover on; ours: section
  \`svc\` with its defaults except \`validation.maxFileSizeBytes\`, raised to 16 MiB because the 50k-line manifest (~1.5 MB) is
  above the 1 MiB default and would otherwise not be parsed at all). Startup is spawn → initialize result. Open → first
  publishDiagnostics. Edits insert one character into a trigger's prompt in the middle of the file, then delete it again,
  sent as the server's sync kind says (both: incremental); the time is to the next publishDiagnostics for that version (ours
  sends the version; YLS does not, so the first publication after the change, with nothing else pending). The first edit
  after open is a warm-up and not counted. Completion: on an indented blank line inside an agent in the middle of the file
  (keys) and after \`workspace: \` (enum values); hover on a trigger's \`session_mode\` key. Peak RSS: VmHWM from
  /proc/<pid>/status at the end of each spawn.
- The documents live under /tmp, not \`.bench-work/\`: YLS's \`yaml.schemas\` globs do not match paths through a dot-folder
  (picomatch, \`dot: false\`), and the schema silently does not apply there.
- Validator vs floor: floor = \`yaml\` parseDocument + toJS + an ajv (allErrors) validator compiled from the published v2
  schema (compilation not timed; ours uses its standalone code). Cold: a fresh process per measurement
  (\`bench/cold-child.mjs\`), modules loaded before the clock starts. Fresh document: in one warm process, a new document
  each time, paired and alternating.
- CLI: \`node packages/validator/dist/svc-manifest.cjs validate ${'<example>'}\` vs \`node -e 0\`, wall time spawn → exit,
  alternating which goes first, ratio per pair (after one unrecorded run, so the launcher's V8 code cache exists, as it
  does for a user from the second run on); CPU time (user + sys) from /usr/bin/time beside it.
- Bursts (\`bench/burst-bench.ts\`, ours only): a 13 KB manifest whose one agent names 1,000 undeclared connectors (1,000
  warnings); 200 edits sent at once (each renames one reference), a hover right behind them, timed send → answer, in a fresh
  server each time; validations and publications counted with the server's \`svc/stats\` request. Then 5,000 random edits
  inside the list with a request every 5th edit (hover, outline, folding, definition), each request's wait timed, and the
  last publication compared with the diagnostics of a fresh validation of the final text.
- Every server gets one unrecorded warm-up session on the smallest manifest before the measured ones.
- Applier: a bare repository built with \`git fast-import\` (3000 commits, 4000 files + svc.yaml); ours
  (\`setAgentScope\` through the @svc-manifest/gitops API, in-process) and the floor (\`hash-object -w\`, \`ls-tree\` + \`mktree\`,
  \`commit-tree\`, \`update-ref\` with the old value) alternate on the same branch, each a one-line change of svc.yaml.

${findings}`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
