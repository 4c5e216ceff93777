/**
 * `npm run bench`: everything in one run, side by side.
 *
 *  1. LSP: on generated manifests of ~1k, 10k, 50k lines, valid and with ~1% errors, each in
 *     YAML and in TOML (bench/render-toml.ts: the same content, the same mistakes): ours vs
 *     yaml-language-server on YAML (patched: 200 ms validation delay removed; stock beside it)
 *     and ours vs Taplo (@taplo/lsp, Even Better TOML's engine) on TOML, every server given our
 *     published schema offline and any size limit raised. A row counts only if the server
 *     reported the injected mistakes (bench/lsp-harness.ts checkDiagnostics); one that did not
 *     FAILS loudly (listed, and the run exits 1). Ratios in the same run: ours vs the peer per
 *     format and size, ours' 50k/1k growth per format, TOML/YAML for ours at each size.
 *  2. The validator vs the floor (`yaml` parseDocument + compiled ajv), cold and fresh-document.
 *  3. The bundled CLI on the example vs a bare `node -e 0`, paired.
 *  4. The applier: one setAgentScope commit vs bare git plumbing, on a big generated repository.
 *  5. Bursts (ours only): a request sent right after 200 edits of a 13 KB manifest with 1,000
 *     diagnostics, and a 5,000-edit random storm with requests (bench/burst-bench.ts).
 *  6. The applier's fixed cost: setDefaultAgent vs the plumbing floor at 1, 1,000 and 20,000
 *     files, and `svc-manifest-git set-default-agent` vs `node -e 0` at 1 and 20,000 files
 *     (bench/gitops-bench.ts).
 *  7. The site's budgets in Chromium against the built site on a local static server: the
 *     playground's first load (compressed bytes, time to usable), keystroke to squiggles on
 *     examples/svc.yaml, the validator's browser bundle gzipped (bench/site-bench.ts).
 *
 * Writes bench/results.json, docs/performance.svg and docs/performance.md (figures from this
 * run + the hand-written analysis in bench/findings.md), and prints the ratio table.
 *
 * Knobs (environment): BENCH_SIZES=1000,10000,50000  BENCH_PARTS=lsp,validator,cli,throughput,applier,burst,gitops,site,format
 *   BENCH_THROUGHPUT_FILES=10000 (manifests in the throughput tree)
 * BENCH_SERVERS=ours,yls-patched,yls-stock,taplo  BENCH_FORMATS=yaml,toml (the LSP part)
 * BENCH_QUICK=1 (fewer repetitions)
 * BENCH_NO_DOCS=1 (do not rewrite docs/). Any of the first five makes a partial run: its results go to
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
import { benchThroughput, type ThroughputResult } from './throughput-bench.ts';
import { generateManifest, type GeneratedManifest } from './generate.ts';
import { renderToml } from './render-toml.ts';
import { benchGitops, type GitopsResult } from './gitops-bench.ts';
import {
  runOnce,
  summarizeSpawns,
  type ServerResult,
  type ServerSpec,
  type SpawnSample,
  type Stat,
} from './lsp-harness.ts';
import {
  floorSpec,
  OUR_SERVER,
  OUR_SETTINGS,
  ourSpec,
  ROOT,
  TAPLO_SETTINGS,
  taploSpec,
  taploVersion,
  WORK,
  writeOurPublication,
  ylsSpec,
  ylsVersion,
} from './servers.ts';
import { benchSite, type SiteResult } from './site-bench.ts';
import { benchValidator, type ValidatorResult } from './validator-bench.ts';
import { benchFormat, type FormatBenchRow } from './format-bench.ts';

const env = process.env;
const QUICK = env.BENCH_QUICK === '1';
const SIZES = (env.BENCH_SIZES ?? '1000,10000,50000').split(',').map(Number);
const PARTS = new Set((env.BENCH_PARTS ?? 'lsp,validator,cli,throughput,applier,burst,gitops,site,format').split(','));
const SERVERS = new Set((env.BENCH_SERVERS ?? 'ours,floor,yls-patched,yls-stock,taplo').split(','));
const FORMATS = new Set((env.BENCH_FORMATS ?? 'yaml,toml').split(','));
/** The peer each format is compared with. */
const PEER: Record<'yaml' | 'toml', string> = { yaml: 'yls-patched', toml: 'taplo' };
const PEER_LABEL: Record<'yaml' | 'toml', string> = { yaml: 'YLS', toml: 'Taplo' };
/** Results written before TOML was measured carry no format: they are YAML. */
const formatOf = (r: ServerResult) => r.format ?? 'yaml';
const DOCS_DIR = '/tmp/svc-manifest-bench';
/** A run restricted by a knob writes .bench-work/results-partial.json and leaves bench/results.json and docs/ alone. */
const PARTIAL = QUICK || !!env.BENCH_SIZES || !!env.BENCH_PARTS || !!env.BENCH_SERVERS || !!env.BENCH_FORMATS;
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** Repetitions per server and size: fresh spawns × measured operations per spawn. */
function reps(server: string, manifest: GeneratedManifest): { spawns: number; inner: number } {
  const big = manifest.targetLines >= 50000;
  const errors = manifest.errorRate > 0;
  // Stock YLS is the patched one plus its fixed delay: a few samples beside it are enough.
  if (server === 'yls-stock') return { spawns: 1, inner: 2 };
  // Taplo takes seconds per validation at 50k lines.
  if (server === 'taplo') return QUICK || big ? { spawns: 1, inner: 2 } : { spawns: 2, inner: 3 };
  // Four spawns at 50k lines: the edits there are timed from edits 2 to 8 after an open, whose
  // spread between spawns is wide (ours and the floor alike).
  if (server === 'ours' || server === 'floor')
    return { spawns: QUICK ? 1 : big ? 4 : 3, inner: QUICK ? 3 : big ? 4 : 6 };
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

const fmtMs = (s: Stat | undefined) =>
  !s || !Number.isFinite(s.median) ? 'n/a' : s.median >= 100 ? `${Math.round(s.median)}` : s.median.toFixed(1);
const fmtRange = (s: Stat | undefined) =>
  !s || !Number.isFinite(s.median)
    ? 'n/a'
    : `${fmtMs(s)} (${fmtMs({ ...s, median: s.min })}–${fmtMs({ ...s, median: s.max })})`;
/** "6.5× faster", or "1.4× slower" when below 1. */
const faster = (r: number) =>
  !Number.isFinite(r) ? 'n/a' : r < 1 ? `${fmtRatio(1 / r)}× slower` : `${fmtRatio(r)}× faster`;
/** "1.3×", or "n/a" when a side is missing. */
const times = (r: number) => (Number.isFinite(r) ? `${fmtRatio(r)}×` : 'n/a');
const fmtRatio = (r: number) =>
  Number.isFinite(r) ? (r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(1) : r.toFixed(2)) : 'n/a';

interface Target {
  name: string;
  measured: string;
  target: string;
  met: boolean | null;
}

function writeDocs(results: Results): void {
  const sizes = [...new Set(results.lsp.filter((r) => formatOf(r) === 'yaml').map((r) => r.manifest))].filter(
    (n) => !n.endsWith('-errors'),
  );
  const svg = renderChart(
    sizes,
    latencyPanels(sizes, results.lsp, [
      { name: 'ours', label: 'ours, YAML', color: '#1f77b4' },
      { name: 'yls-patched', label: 'YLS 1.25.0, delay removed', color: '#d62728' },
      { name: 'yls-stock', label: 'YLS 1.25.0 stock (200 ms delay)', color: '#ff9896', dashed: true },
      { name: 'ours', label: 'ours, TOML', color: '#17becf', manifestPrefix: 'toml-' },
      {
        name: 'taplo',
        label: `Taplo ${String(results.machine.taplo ?? '')} (TOML)`,
        color: '#ff7f0e',
        manifestPrefix: 'toml-',
      },
    ]).map((panel) => ({
      ...panel,
      series: panel.series.filter((series) => series.points.some((point) => point !== undefined)),
    })),
    `Latency by manifest size (valid manifests), ${results.machine.nproc} cores, node ${results.machine.node}`,
  );
  mkdirSync(join(ROOT, 'docs'), { recursive: true });
  writeFileSync(join(ROOT, 'docs', 'performance.svg'), svg);
  const table =
    formatRatios(results.lsp) +
    '\n\n' +
    ratioTable(results.lsp, results.validator, results.cli, results.applier, results.burst);
  writeFileSync(join(ROOT, 'docs', 'performance.md'), markdown(results, table, results.targets));
  log('wrote docs/performance.svg and docs/performance.md');
}

interface Results {
  started: string;
  finished: string;
  machine: Record<string, unknown> & { nproc: number; node: string };
  skipped: string[];
  /** Rows that ran but are not measurements (a server that did not report the injected mistakes, timed out, or crashed). */
  failed?: string[];
  settings?: unknown;
  manifests: unknown[];
  lsp: ServerResult[];
  validator: ValidatorResult[];
  cli?: CliResult;
  applier?: ApplierResult;
  burst?: BurstResult;
  gitops?: GitopsResult;
  site?: SiteResult;
  throughput?: ThroughputResult;
  format?: FormatBenchRow[];
  targets: Target[];
}

async function main(): Promise<void> {
  if (process.argv.includes('--docs-only')) {
    const file = join(ROOT, 'bench', 'results.json');
    const results = JSON.parse(readFileSync(file, 'utf8')) as Results;
    results.targets = [
      ...evaluate(results.lsp, results.validator, results.cli, results.burst),
      ...gitopsTargets(results.gitops),
      ...siteTargets(results.site),
      ...formatTargets(results.format),
    ];
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
    taplo: taploVersion(),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim(),
    /** Files under packages/ modified but not committed when the run started (others work in the same checkout). */
    uncommittedInPackages: execFileSync('git', ['status', '--porcelain', '--', 'packages'], { cwd: ROOT })
      .toString()
      .split('\n')
      .filter((line) => line.trim() !== '').length,
  };
  log(`machine: ${JSON.stringify(machine)}`);

  // YAML manifests (the validator part uses these), and the same content as TOML for the LSP part.
  const manifests: GeneratedManifest[] = [];
  for (const size of SIZES)
    for (const errorRate of [0, 0.01]) manifests.push(generateManifest({ targetLines: size, errorRate, seed: 42 }));
  for (const m of manifests) writeFileSync(join(DOCS_DIR, `${m.name}.yaml`), m.text);
  // Each YAML manifest followed by its TOML rendering: the rows compared across formats run close together.
  const lspManifests = manifests.flatMap((m) => [
    ...(FORMATS.has('yaml') ? [m] : []),
    ...(FORMATS.has('toml') ? [renderToml(m)] : []),
  ]);

  // 1. Language servers: YAML ones on the YAML manifests, TOML ones on the TOML renderings.
  const lsp: ServerResult[] = [];
  const skipped: string[] = [];
  const failed: string[] = [];
  if (PARTS.has('lsp')) {
    const specs: { spec: ServerSpec; format: 'yaml' | 'toml' }[] = [];
    if (SERVERS.has('ours')) {
      if (ourServerRuns()) for (const format of ['yaml', 'toml'] as const) specs.push({ spec: ourSpec(), format });
      else skipped.push(`ours: ${OUR_SERVER} missing or not starting (build packages/lsp first)`);
    }
    if (SERVERS.has('yls-patched')) specs.push({ spec: ylsSpec('patched'), format: 'yaml' });
    if (SERVERS.has('yls-stock')) specs.push({ spec: ylsSpec('stock'), format: 'yaml' });
    if (SERVERS.has('taplo')) {
      if (taploVersion() !== 'not installed') specs.push({ spec: taploSpec(), format: 'toml' });
      else skipped.push('taplo: node_modules/@taplo/lsp missing (npm install)');
    }
    // Warm-up, not recorded: one short session per server and format (OS file cache, the patched copy, code caches).
    for (const { spec, format } of specs) {
      const candidates = lspManifests.filter((m) => m.format === format);
      if (!candidates.length) continue;
      const warm = candidates.reduce((a, b) => (b.lines < a.lines ? b : a));
      try {
        await runOnce(spec, warm, { inner: 1, workDir: DOCS_DIR, timeoutMs: 60_000 });
      } catch (error) {
        log(`warm-up of ${spec.name} (${format}) failed: ${(error as Error).message}`);
      }
    }
    for (const manifest of lspManifests) {
      const here = specs.filter((s) => s.format === manifest.format).map((s) => s.spec);
      // The protocol's floor for this file: a server that validates nothing and publishes the list ours publishes.
      if (SERVERS.has('floor') && here.some((spec) => spec.name === 'ours'))
        here.unshift(await floorSpec({ published: writeOurPublication(manifest).file }));
      // The servers' spawns take turns (floor, ours, the peer, floor, ours, ...), as farm-bench pairs its
      // runs: the machine's speed drifts by a third within minutes here, and every row is a ratio
      // between servers measured on this file.
      const runs = here.map((spec) => ({
        spec,
        r: reps(spec.name, manifest),
        samples: [] as SpawnSample[],
        failed: false,
      }));
      for (const { spec, r } of runs)
        log(`lsp ${spec.name} ${manifest.name} (${manifest.lines} lines): ${r.spawns} spawn(s) × ${r.inner}, in turns`);
      for (let turn = 0; turn < Math.max(...runs.map((run) => run.r.spawns)); turn++) {
        for (const run of runs) {
          if (run.failed || turn >= run.r.spawns) continue;
          try {
            run.samples.push(
              await runOnce(run.spec, manifest, {
                inner: run.r.inner,
                workDir: DOCS_DIR,
                timeoutMs: manifest.targetLines >= 50000 ? 300_000 : 120_000,
                log,
              }),
            );
          } catch (error) {
            run.failed = true;
            failed.push(`${run.spec.name} ${manifest.name}: ${(error as Error).message}`);
            log(`  ${run.spec.name} FAILED (not a measurement): ${(error as Error).message}`);
          }
        }
      }
      for (const run of runs) {
        if (run.failed) continue;
        const result = summarizeSpawns(run.spec, manifest, run.samples);
        lsp.push(result);
        log(
          `  ${run.spec.name}: edit→diag ${fmtRange(result.editToDiagnosticsMs)} ms, completion ${fmtMs(result.completionKeyMs)} ms, hover ${fmtMs(result.hoverMs)} ms, rss ${fmtMs(result.peakRssMb)} MB, diagnostics ${result.openDiagnostics} (${result.injectedErrorsChecked} of ${result.injectedErrors} injected mistakes checked)`,
        );
      }
    }
  }

  // 2. Validator vs floor.
  const validator: ValidatorResult[] = [];
  if (PARTS.has('validator')) {
    for (const manifest of manifests) {
      const big = manifest.targetLines >= 50000;
      log(`validator ${manifest.name}`);
      validator.push(
        benchValidator(manifest, join(DOCS_DIR, `${manifest.name}.yaml`), {
          cold: QUICK ? 2 : big ? 4 : 6,
          warm: QUICK ? 3 : big ? 5 : 9,
        }),
      );
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
    cli = benchCli(QUICK ? 6 : 40);
    log(`  cli ${fmtMs(cli.cli)} bare ${fmtMs(cli.bareNode)} ratio ${fmtRatio(cli.ratio.median)}`);
  }

  // 3b. Throughput on a tree of manifests, against the anchors (BENCH_THROUGHPUT_FILES, default 10,000).
  let throughput: ThroughputResult | undefined;
  if (PARTS.has('throughput')) {
    const files = Number(env.BENCH_THROUGHPUT_FILES ?? (QUICK ? 1000 : 10_000));
    log(`throughput: ${files} manifests`);
    throughput = benchThroughput(WORK, files, QUICK ? 1 : 3);
    for (const row of throughput.rows)
      log(
        `  ${row.tool}: ${row.filesPerSecond} files/s (${row.files} files, ${row.wallMs} ms)${row.note ? ` (${row.note})` : ''}` +
          (row.ours ? `; ours ${row.ours.workers}× with workers, ${row.ours.concurrencyOff}× without` : ''),
      );
    for (const skip of throughput.skipped) log(`  skipped ${skip}`);
  }

  // 4. Applier.
  let applier: ApplierResult | undefined;
  if (PARTS.has('applier')) {
    log('applier: building a repository with thousands of commits and files');
    const manifest =
      manifests.find((m) => m.targetLines === SIZES[0] && m.errorRate === 0) ?? generateManifest({ targetLines: 1000 });
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
    gitops = await benchGitops({
      dir: join(WORK, 'gitops'),
      librarySizes: [1, 1000, 20000],
      cliSizes: [1, 20000],
      runs: QUICK ? 5 : 15,
    });
    for (const row of gitops.library)
      log(
        `  library ${row.files} files: ours ${fmtMs(row.ours)} floor ${fmtMs(row.floor)} ratio ${fmtRatio(row.ratio.median)}`,
      );
    for (const row of [...gitops.cli, ...gitops.dispatch])
      log(
        `  ${row.command}, ${row.files} files: ${fmtMs(row.cli)} vs node ${fmtMs(row.bareNode)} ratio ${fmtRatio(row.ratio.median)} (cpu ${fmtRatio(row.cpuRatio?.median ?? NaN)})`,
      );
  }

  // 7. The site in Chromium.
  let site: SiteResult | undefined;
  if (PARTS.has('site')) {
    if (existsSync('/usr/bin/chromium') || env.CHROMIUM_PATH) {
      log('site: the playground in Chromium against the built site on a local static server');
      site = await benchSite({ loads: QUICK ? 2 : 5, keystrokes: QUICK ? 20 : 60 });
      log(
        `  first load ${site.firstLoadCompressedKb.toFixed(0)} KB compressed in ${site.firstLoadRequests} requests; usable at ${site.usableMs.map((ms) => ms.toFixed(0)).join(', ')} ms; keystroke→squiggles p95 ${site.keystrokeMs.p95.toFixed(1)} ms (median ${site.keystrokeMs.median.toFixed(1)}, ${site.keystrokeMs.samples} keys); validator bundle ${site.validatorBundleGzipKb.toFixed(0)} KB gzipped`,
      );
    } else skipped.push('site: no Chromium (npm run test:setup installs it)');
  }

  // 8. The formatter on a 10,000-line manifest, YAML and TOML (issue #37).
  let format: FormatBenchRow[] | undefined;
  if (PARTS.has('format')) {
    const base =
      manifests.find((m) => m.targetLines === 10000 && m.errorRate === 0) ??
      generateManifest({ targetLines: 10000, errorRate: 0, seed: 42 });
    format = [benchFormat(base, QUICK ? 5 : 15), benchFormat(renderToml(base), QUICK ? 5 : 15)];
    for (const row of format)
      log(
        `format ${row.format} ${row.lines} lines: ${fmtMs(row.format_ms)} (parse alone ${fmtMs(row.parse_ms)}, ratio ${fmtRatio(row.ratio.median)})`,
      );
  }

  const finished = new Date();
  const targets = [
    ...evaluate(lsp, validator, cli, burst),
    ...gitopsTargets(gitops),
    ...siteTargets(site),
    ...formatTargets(format),
  ];
  const results: Results = {
    started: started.toISOString(),
    finished: finished.toISOString(),
    machine: { ...machine, loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100) },
    settings: {
      ours: OUR_SETTINGS,
      yls: 'yaml.schemas → published v2 schema for svc.yaml, schemaStore off, validate/completion/hover on',
      taplo: TAPLO_SETTINGS,
    },
    // Every rendering measured (YAML and TOML), without the text and the list of mistakes (their count stays).
    manifests: [...manifests, ...lspManifests.filter((m) => m.format === 'toml')].map(
      ({ text: _text, injected: _injected, ...m }) => m,
    ),
    lsp,
    validator,
    cli,
    applier,
    burst,
    gitops,
    site,
    ...(throughput ? { throughput } : {}),
    format,
    targets,
    skipped,
    failed,
  };
  const resultsFile = PARTIAL ? join(WORK, 'results-partial.json') : join(ROOT, 'bench', 'results.json');
  writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n');
  log(`wrote ${resultsFile.slice(ROOT.length + 1)}`);
  const table =
    (lsp.length ? formatRatios(lsp) + '\n\n' : '') +
    ratioTable(lsp, validator, cli, applier, burst) +
    (gitops ? `\n\n${gitopsTable(gitops)}` : '');
  process.stdout.write(
    table +
      '\n\nTargets:\n' +
      targets
        .map(
          (t) =>
            `  ${t.met === null ? '?' : t.met ? 'MET   ' : 'MISSED'}  ${t.name}: ${t.measured} (target ${t.target})`,
        )
        .join('\n') +
      '\n',
  );
  if (skipped.length) process.stdout.write(`\nSkipped: \n  ${skipped.join('\n  ')}\n`);
  if (failed.length) {
    process.stdout.write(`\nFAILED (not measurements):\n  ${failed.join('\n  ')}\n`);
    process.exitCode = 1;
  }

  if (env.BENCH_NO_DOCS !== '1' && !PARTIAL && lsp.length) writeDocs(results);
  log(`done in ${((finished.getTime() - started.getTime()) / 1000).toFixed(0)} s`);
}

/** Issue #35's budgets for the site, each with what it was measured on. */
function siteTargets(site: SiteResult | undefined): Target[] {
  if (!site) return [];
  const usable = [...site.usableMs].sort((a, b) => a - b)[Math.floor(site.usableMs.length / 2)]!;
  return [
    {
      name: `playground first load, compressed transfer (${site.on})`,
      measured: `${site.firstLoadCompressedKb.toFixed(0)} KB in ${site.firstLoadRequests} requests`,
      target: '≤ 500 KB',
      met: site.firstLoadCompressedKb <= 500,
    },
    {
      name: 'playground usable (first squiggle of a shared link), median of loads',
      measured: `${usable.toFixed(0)} ms`,
      target: '≤ 1 s',
      met: usable <= 1000,
    },
    {
      name: 'keystroke → updated squiggles on examples/svc.yaml, p95',
      measured: `${site.keystrokeMs.p95.toFixed(1)} ms (median ${site.keystrokeMs.median.toFixed(1)}, ${site.keystrokeMs.samples} keys)`,
      target: '≤ 50 ms',
      met: site.keystrokeMs.p95 <= 50,
    },
    {
      name: "the validator's browser bundle, gzipped",
      measured: `${site.validatorBundleGzipKb.toFixed(0)} KB`,
      target: '≤ 150 KB',
      met: site.validatorBundleGzipKb <= 150,
    },
  ];
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
    targets.push({
      name: 'the same at 20,000 files over 1 file',
      measured: `${fmtRatio(gitops.cliGrowth)}×`,
      target: '≤ 1.3×',
      met: gitops.cliGrowth <= 1.3,
    });
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
  const rows = [
    '| applier (examples/svc.yaml, bare repository) | ours ms | reference ms | ratio (median of pairs) |',
    '|---|---|---|---|',
  ];
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

function formatTargets(format: FormatBenchRow[] | undefined): Target[] {
  return (format ?? []).map((row) => ({
    name: `fmt: formatManifest on a ${row.lines.toLocaleString('en-US')}-line ${row.format.toUpperCase()} manifest (re-indenting every line)`,
    measured: `${fmtMs(row.format_ms)} ms (${fmtRatio(row.ratio.median)}× one parse)`,
    target: '≤ 100 ms',
    met: row.changed ? row.format_ms.median <= 100 : null,
  }));
}

function evaluate(
  lsp: ServerResult[],
  validator: ValidatorResult[],
  cli: CliResult | undefined,
  burst?: BurstResult,
): Target[] {
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
  // Issue #17: TOML no dearer than YAML on the same content, and edits that do not grow with the file.
  for (const base of baseNames(lsp)) {
    const yaml = get(lsp, 'ours', base);
    const toml = get(lsp, 'ours', `toml-${base}`);
    const taplo = get(lsp, 'taplo', `toml-${base}`);
    if (taplo && toml) {
      const edit = ratio(taplo.editToDiagnosticsMs, toml.editToDiagnosticsMs);
      targets.push({
        name: `edit→diagnostics toml-${base}, ours vs Taplo`,
        measured: `${faster(edit)} (${fmtMs(toml.editToDiagnosticsMs)} vs ${fmtMs(taplo.editToDiagnosticsMs)} ms)`,
        target: 'ahead of the peer',
        met: edit > 1,
      });
    }
    if (!base.startsWith('10k') || !yaml || !toml) continue;
    const edit = ratio(toml.editToDiagnosticsMs, yaml.editToDiagnosticsMs);
    const rss = ratio(toml.peakRssMb, yaml.peakRssMb);
    targets.push({
      name: `ours, TOML / YAML edit→diagnostics, ${base}`,
      measured: `${fmtRatio(edit)}× (${fmtMs(toml.editToDiagnosticsMs)} vs ${fmtMs(yaml.editToDiagnosticsMs)} ms)`,
      target: '≤ 1.5× (issue #17)',
      met: edit <= 1.5,
    });
    targets.push({
      name: `ours, TOML / YAML peak RSS, ${base}`,
      measured: `${fmtRatio(rss)}× (${fmtMs(toml.peakRssMb)} vs ${fmtMs(yaml.peakRssMb)} MB)`,
      target: '≤ 1.5× (issue #17)',
      met: rss <= 1.5,
    });
  }
  for (const g of growthRows(lsp)) {
    const floor = Number.isFinite(g.floorEdit)
      ? `; the floor, publishing the same lists: ${fmtRatio(g.floorEdit)}×`
      : '';
    targets.push({
      name: `ours, ${g.format.toUpperCase()} edit→diagnostics ${g.large} / ${g.small}`,
      measured: `${fmtRatio(g.edit)}× for ${fmtRatio(g.largeLines / g.smallLines)}× the lines${floor}`,
      target: '≤ 1.5× (issue #17)',
      met: g.edit <= 1.5,
    });
    // With errors the publication itself grows with the file: what ours adds above it is what our code makes grow.
    if (g.variant === '-errors' && Number.isFinite(g.aboveFloor))
      targets.push({
        name: `ours − the floor, ${g.format.toUpperCase()} edit→diagnostics ${g.large} / ${g.small}`,
        measured: `${fmtRatio(g.aboveFloor)}×`,
        target: '≤ 1.5× (issue #17 over the protocol floor; docs/decisions.md)',
        met: g.aboveFloor <= 1.5,
      });
  }
  const startOurs = lsp
    .filter((r) => r.server === 'ours' && formatOf(r) === 'yaml')
    .flatMap((r) => [r.startupMs.median]);
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

/** Base names (`1k`, `10k-errors`, …) of the YAML manifests measured, smallest first. */
function baseNames(lsp: ServerResult[]): string[] {
  const lines = new Map<string, number>();
  for (const r of lsp) if (formatOf(r) === 'yaml') lines.set(r.manifest, r.lines);
  for (const r of lsp)
    if (formatOf(r) === 'toml')
      lines.set(r.manifest.replace(/^toml-/, ''), lines.get(r.manifest.replace(/^toml-/, '')) ?? r.lines);
  return [...lines.keys()].sort((a, b) => parseInt(a) - parseInt(b) || a.length - b.length);
}

/** ours over peer, TOML over YAML, largest over smallest: medians of one run; NaN when a side is missing. */
function ratio(a: Stat | undefined, b: Stat | undefined): number {
  return a && b ? a.median / b.median : NaN;
}

/**
 * The cross-format table (issue #17): per base manifest, ours vs the peer in each format
 * (edit → diagnostics, open → diagnostics, peak RSS) and TOML/YAML for ours; then ours'
 * growth from the smallest to the largest size in each format.
 */
export function formatRatios(lsp: ServerResult[]): string {
  const names = baseNames(lsp);
  if (!names.length) return '';
  const cell = (format: 'yaml' | 'toml', base: string) => get(lsp, 'ours', format === 'toml' ? `toml-${base}` : base);
  const peer = (format: 'yaml' | 'toml', base: string) =>
    get(lsp, PEER[format], format === 'toml' ? `toml-${base}` : base);
  const rows = [`| same run | ${names.join(' | ')} |`, `|---|${names.map(() => '---|').join('')}`];
  const row = (label: string, value: (base: string) => string) =>
    rows.push(`| ${label} | ${names.map(value).join(' | ')} |`);
  const formats = (['yaml', 'toml'] as const).filter((f) => lsp.some((r) => formatOf(r) === f));
  row(`lines ${formats.map((f) => f.toUpperCase()).join(' / ')}`, (b) =>
    formats.map((f) => String(cell(f, b)?.lines ?? peer(f, b)?.lines ?? '–')).join(' / '),
  );
  for (const format of formats) {
    const F = format.toUpperCase();
    const P = PEER_LABEL[format];
    row(
      `${F} edit → diagnostics ms: ours / ${P}`,
      (b) => `${fmtMs(cell(format, b)?.editToDiagnosticsMs)} / ${fmtMs(peer(format, b)?.editToDiagnosticsMs)}`,
    );
    row(`${F} edit → diagnostics: ours vs ${P}`, (b) =>
      faster(ratio(peer(format, b)?.editToDiagnosticsMs, cell(format, b)?.editToDiagnosticsMs)),
    );
    row(`${F} open → diagnostics: ours vs ${P}`, (b) =>
      faster(ratio(peer(format, b)?.openToDiagnosticsMs, cell(format, b)?.openToDiagnosticsMs)),
    );
    row(
      `${F} peak RSS MB: ours / ${P}`,
      (b) => `${fmtMs(cell(format, b)?.peakRssMb)} / ${fmtMs(peer(format, b)?.peakRssMb)}`,
    );
  }
  if (formats.length === 2) {
    row('ours, TOML / YAML: edit → diagnostics', (b) =>
      times(ratio(cell('toml', b)?.editToDiagnosticsMs, cell('yaml', b)?.editToDiagnosticsMs)),
    );
    row('ours, TOML / YAML: open → diagnostics', (b) =>
      times(ratio(cell('toml', b)?.openToDiagnosticsMs, cell('yaml', b)?.openToDiagnosticsMs)),
    );
    row('ours, TOML / YAML: peak RSS', (b) => times(ratio(cell('toml', b)?.peakRssMb, cell('yaml', b)?.peakRssMb)));
  }
  const out = [rows.join('\n')];
  const growth = growthRows(lsp);
  if (growth.length) {
    const g = [
      '| growth, largest / smallest manifest | ours: edit → diagnostics | the floor: edit → diagnostics | ours − the floor | ours: open → diagnostics | ours: peak RSS |',
      '|---|---|---|---|---|---|',
    ];
    for (const r of growth)
      g.push(
        `| ${r.format.toUpperCase()} ${r.large}/${r.small} (${r.largeLines}/${r.smallLines} lines) | ${times(r.edit)} | ${times(r.floorEdit)} | ${r.variant ? times(r.aboveFloor) : '–'} | ${times(r.open)} | ${times(r.rss)} |`,
      );
    out.push(g.join('\n'));
  }
  return out.join('\n\n');
}

interface Growth {
  format: 'yaml' | 'toml';
  variant: string;
  small: string;
  large: string;
  smallLines: number;
  largeLines: number;
  edit: number;
  open: number;
  rss: number;
  /** The floor's edit → diagnostics (a server publishing the same lists, validating nothing), largest over smallest. */
  floorEdit: number;
  /** What ours adds to the floor (ours − floor, edit → diagnostics), largest over smallest. */
  aboveFloor: number;
}

/** Ours, per format and variant (valid, `-errors`): the largest size over the smallest. */
function growthRows(lsp: ServerResult[]): Growth[] {
  const out: Growth[] = [];
  for (const format of ['yaml', 'toml'] as const) {
    for (const variant of ['', '-errors']) {
      const rows = lsp
        .filter((r) => r.server === 'ours' && formatOf(r) === format && r.manifest.endsWith(`k${variant}`))
        .sort((a, b) => a.lines - b.lines);
      if (rows.length < 2) continue;
      const small = rows[0]!;
      const large = rows[rows.length - 1]!;
      const base = (r: ServerResult) => r.manifest.replace(/^toml-/, '').replace(/-errors$/, '');
      const floorSmall = get(lsp, 'floor', small.manifest)?.editToDiagnosticsMs;
      const floorLarge = get(lsp, 'floor', large.manifest)?.editToDiagnosticsMs;
      out.push({
        format,
        variant,
        small: base(small) + variant,
        large: base(large) + variant,
        smallLines: small.lines,
        largeLines: large.lines,
        edit: ratio(large.editToDiagnosticsMs, small.editToDiagnosticsMs),
        open: ratio(large.openToDiagnosticsMs, small.openToDiagnosticsMs),
        rss: ratio(large.peakRssMb, small.peakRssMb),
        floorEdit: ratio(floorLarge, floorSmall),
        aboveFloor:
          floorSmall && floorLarge
            ? (large.editToDiagnosticsMs.median - floorLarge.median) /
              (small.editToDiagnosticsMs.median - floorSmall.median)
            : NaN,
      });
    }
  }
  return out;
}

function ratioTable(
  lsp: ServerResult[],
  validator: ValidatorResult[],
  cli: CliResult | undefined,
  applier: ApplierResult | undefined,
  burst?: BurstResult,
): string {
  const rows: string[] = [];
  rows.push(
    '| manifest | measure | ours | peer: YLS (delay removed) on YAML, Taplo on TOML | ours vs peer | YLS stock |',
  );
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
    const format = formatOf(lsp.find((r) => r.manifest === name)!);
    const ours = get(lsp, 'ours', name);
    const yls = get(lsp, PEER[format], name);
    const stock = get(lsp, 'yls-stock', name);
    const lines = (ours ?? yls ?? stock)?.lines ?? 0;
    for (const [label, pick, kind] of measures) {
      const o = ours ? pick(ours) : undefined;
      const y = yls ? pick(yls) : undefined;
      const ratio = o && y ? y.median / o.median : NaN;
      const shown = kind === 'faster' ? faster(ratio) : `ours = ${fmtRatio(1 / ratio)} of ${PEER_LABEL[format]}`;
      rows.push(
        `| ${name} (${lines} lines) | ${label} | ${fmtRange(o)} | ${fmtRange(y)} | ${shown} | ${fmtRange(stock ? pick(stock) : undefined)} |`,
      );
    }
  }
  // No language-server rows (e.g. BENCH_PARTS=cli,burst): no empty table.
  const out = rows.length > 2 ? [rows.join('\n')] : [];
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
        `| the same, CPU time (user+sys, ${cli.cpuClock ?? '/usr/bin/time, 10 ms resolution'}) | ${fmtRange(cli.cliCpu)} | ${fmtRange(cli.bareNodeCpu)} | ${fmtRatio(cli.cpuRatio.median)}× |`,
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
  results: {
    machine: Record<string, unknown>;
    started: string;
    finished: string;
    skipped: string[];
    failed?: string[];
    manifests: unknown[];
    throughput?: ThroughputResult;
  },
  table: string,
  targets: Target[],
): string {
  const findingsFile = join(ROOT, 'bench', 'findings.md');
  const findings = existsSync(findingsFile) ? readFileSync(findingsFile, 'utf8') : '';
  const m = results.machine;
  return `# Performance

<!-- Generated by \`npm run bench\` (bench/run.ts) from its own run; the analysis comes from bench/findings.md. -->

Measured by \`npm run bench\` on ${results.started.slice(0, 16).replace('T', ' ')} UTC, commit ${m.commit}${m.uncommittedInPackages ? ` (plus ${m.uncommittedInPackages} uncommitted file(s) under packages/ in the shared checkout)` : ''}:
\`nproc\` = ${m.nproc} (${m.cpu}, ${m.memoryGb} GB), \`node -v\` = ${m.node}, yaml-language-server ${m.yamlLanguageServer}${m.taplo ? `, Taplo (@taplo/lsp) ${String(m.taplo)}` : ''}.
Load average at start ${(m.loadAverageAtStart as number[]).join(' / ')}, at end ${(m.loadAverageAtEnd as number[]).join(' / ')}
(the machine is shared: every ratio below compares figures from the same run, taken close together — the validator,
CLI and applier pairs interleaved run by run, the servers one after the other on each manifest).

![Latency by manifest size](performance.svg)

## Targets (the goals we set against yaml-language-server, Taplo and a bare Node start)

| | target | measured | |
|---|---|---|---|
${targets.map((t) => `| ${t.name} | ${t.target} | ${t.measured} | ${t.met === null ? '?' : t.met ? 'met' : '**missed**'} |`).join('\n')}

## Figures

Median (min–max) in milliseconds unless noted. "YLS" is yaml-language-server ${m.yamlLanguageServer} with its fixed 200 ms
validation delay removed (a patched copy in \`.bench-work/\`); "YLS stock" is the installed server as is.${
    m.taplo
      ? ` "Taplo" is
@taplo/lsp ${String(m.taplo)}, the engine the Even Better TOML extension bundles. Manifests named \`toml-…\` are the TOML
renderings of the YAML ones of the same size (same items, same mistakes).`
      : ' (This run predates the TOML rows.)'
  }

${table}
${throughputTable(results.throughput)}${results.skipped.length ? `\nNot measured in this run: ${results.skipped.join('; ')}\n` : ''}${results.failed?.length ? `\n**Failed (not measurements):** ${results.failed.join('; ')}\n` : ''}
## How it is measured

- Manifests: \`bench/generate.ts\`, deterministic (seed 42): agents, triggers of every type (cron, webhook, monitor poll and
  stream), connectors of every provider, templates, env, apps, comments, flow and block lists; the \`-errors\` variants carry
  a mistake on ~1% of the lines (typo'd keys, bad enum values, undeclared references, bad durations, wrong types).
- TOML: \`bench/render-toml.ts\` writes each generated manifest as svc.toml with the same data (top-level scalars, a
  \`[table]\` per agent and app, \`[[triggers]]\`/\`[[connectors]]\` sections, inline tables inside them, one-line arrays,
  own-line comments kept); our validator gives the two renderings the same findings. Each TOML line remembers its YAML line,
  so the mistakes and the edit, completion and hover spots are the same entries in both formats.
- Every server must show it validated the whole file, or its row fails loudly (listed under "Failed", the run exits 1):
  no diagnostic may speak of the file's size, a manifest without mistakes gets no error, and every injected mistake the server
  can see has a diagnostic on its line (a misspelt key: from its entry's first line to it, where a schema reports the
  required key now missing). Ours must see all of them; YLS and Taplo, which only apply the JSON Schema, are not asked for the
  undeclared agent and connector references (a schema cannot say which names are declared). Every edit must publish as many
  diagnostics as the open did (the edit does not change a finding), so the publication timed is the whole validation.
- Taplo: \`bench/taplo-server.mjs\` runs @taplo/lsp under node the way Even Better TOML runs its bundled server (a node
  module on an IPC channel; initializationOptions \`configurationSection: evenBetterToml\`), with fetch disabled. Its settings
  associate \`.*/svc\\.toml$\` with the published schema as a \`file://\` URL, with no catalogs, no config file and no links; it
  has no file size limit. It publishes up to three times per change (syntax, then structure, then schema errors, each only when
  the previous step found nothing): an edit's time runs to the first non-empty publication or the third. It sends no version
  and uses full document sync.
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
  /proc/<pid>/status at the end of each spawn. On each file the servers' spawns take turns (the floor, ours, the peer,
  then again), so a drift in the machine's speed falls on all of them alike.
- The floor (\`bench/servers.ts\`, \`floorSpec\`): a vscode-languageserver server that validates nothing. It keeps the file
  in the library's \`TextDocuments\` and publishes, for every version, the list ours publishes for that file (computed
  beforehand in process). It costs what the client, the pipe and the text's upkeep cost for an edit, whoever computes the
  diagnostics: with hundreds of them that part grows with the file. "ours − the floor" is what our server adds to it
  (shown for the \`-errors\` rows; on valid files both are close to the client's own cost).
- The documents live under /tmp, not \`.bench-work/\`: YLS's \`yaml.schemas\` globs do not match paths through a dot-folder
  (picomatch, \`dot: false\`), and the schema silently does not apply there.
- Validator vs floor: floor = \`yaml\` parseDocument + toJS + an ajv (allErrors) validator compiled from the published v2
  schema (compilation not timed; ours uses its standalone code). Cold: a fresh process per measurement
  (\`bench/cold-child.mjs\`), modules loaded before the clock starts. Fresh document: in one warm process, a new document
  each time, paired and alternating.
- CLI: \`node packages/validator/dist/svc-manifest.cjs validate ${'<example>'}\` vs \`node -e 0\`, wall time spawn → exit,
  alternating which goes first, ratio per pair (after one unrecorded run, so the launcher's V8 code cache exists, as it
  does for a user from the second run on); CPU time (user + sys) beside it, counted by getrusage through
  \`bench/rusage.py\` (which then also times the wall clock) or, without python3, read from /usr/bin/time.
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

/** The throughput rows (files per second on a generated tree, ours over each anchor), or nothing. */
function throughputTable(throughput: ThroughputResult | undefined): string {
  if (!throughput) return '';
  const rows = throughput.rows.map(
    (row) =>
      `| ${row.tool} | ${row.files} | ${row.wallMs} | ${row.filesPerSecond} | ` +
      `${row.ours ? `${row.ours.workers}× / ${row.ours.concurrencyOff}×` : ''} | ${row.note ?? ''} |`,
  );
  return `
### Throughput: ${throughput.files} manifests in a tree (\`bench/throughput-bench.ts\`, median of ${throughput.runs})

| tool | files | wall ms | files/s | ours over it (workers / off) | |
|---|---|---|---|---|---|
${rows.join('\n')}
${throughput.skipped.length ? `\nNot measured: ${throughput.skipped.join('; ')}\n` : ''}`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
