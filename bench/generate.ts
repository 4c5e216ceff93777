/**
 * Deterministic generator of realistic svc_version 2 manifests for the benchmark: many
 * agents, triggers of every type (cron, webhook, monitor poll/stream), connectors of every
 * provider, sandbox templates, env, apps; comments, flow and block lists. With `errorRate`
 * > 0, about that fraction of lines carries a mistake a person makes (a typo'd key, a bad
 * enum value, an undeclared reference, a missing required key, a wrong type).
 *
 * Besides the text it returns "spots": positions (0-based line, UTF-16 character) in the
 * middle of the file where the harness edits, completes and hovers.
 */

export interface Spot {
  line: number;
  character: number;
}

/** One injected mistake: where it is and whether only a cross-reference check can see it. */
export interface InjectedError {
  /** 0-based line in this rendering. */
  line: number;
  kind:
    | 'typo-key'
    | 'bad-enum'
    | 'undeclared-agent'
    | 'bad-duration'
    | 'wrong-type'
    | 'bad-session-mode'
    | 'unknown-permission'
    | 'undeclared-connector';
  /**
   * An undeclared agent or connector: a JSON Schema cannot say which names are declared, so a
   * schema-driven server (yaml-language-server, Taplo) cannot report it.
   */
  crossReference: boolean;
}

export interface GeneratedManifest {
  /** `1k`, `10k-errors` (YAML), `toml-1k`, `toml-10k-errors` (the TOML rendering of the same content). */
  name: string;
  format: 'yaml' | 'toml';
  targetLines: number;
  errorRate: number;
  seed: number;
  text: string;
  lines: number;
  bytes: number;
  /** How many mistakes were injected. */
  injectedErrors: number;
  /** Each of them, located in this rendering. */
  injected: InjectedError[];
  spots: {
    /** Inside a trigger's prompt text: insert one character here (keeps the manifest's meaning valid). */
    edit: Spot;
    /** On an indented blank line inside an agent mapping: key completion (a person about to type a key). */
    completionKey: Spot;
    /** Right after `workspace: ` of an agent: enum value completion. */
    completionValue: Spot;
    /** On the `session_mode` key of a trigger: hover (schema description). */
    hoverKey: Spot;
  };
}

/** mulberry32: small, fast, deterministic (the benchmarks' one seeded generator). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'docs',
  'billing',
  'search',
  'deploy',
  'review',
  'triage',
  'release',
  'metrics',
  'alerts',
  'support',
  'catalog',
  'ingest',
  'export',
  'audit',
  'payments',
  'onboarding',
  'infra',
  'mobile',
  'web',
  'data',
  'security',
  'backup',
  'index',
  'reports',
  'growth',
  'sales',
  'ops',
  'qa',
  'design',
  'content',
];
const SVC_CLI = [
  'project.read',
  'project.write',
  'project.session.read',
  'project.session.start',
  'project.trigger.read',
  'project.trigger.fire',
  'project.file.read',
  'project.file.write',
  'project.review.read',
  'project.review.submit',
  'project.cr.open',
  'project.cr.merge',
  'project.gitops.read',
  'project.gitops.push',
  'project.app.read',
  'project.app.deploy',
  'project.connector.read',
  'project.secret.read',
  'project.agent.read',
  'project.skill.read',
];
const PROMPTS = [
  'Check every page for broken links and open one issue listing them.',
  'Summarise the failing jobs of the last run and propose a fix for each one.',
  'Review the pull request for style, accuracy and missing tests.',
  'Triage new issues, label them, find duplicates and ask for missing details.',
  'Look at the error rate; find the requests that fail and the change that caused them.',
  'Update the changelog from the merged pull requests since the last release.',
  'Rotate the report, collect the metrics of the week and post a short summary.',
];
const TIMEZONES = ['UTC', 'Europe/Amsterdam', 'America/New_York', 'Asia/Tokyo', 'Europe/Berlin'];
const SESSION_MODES = ['fresh', 'reuse', 'pinned', 'keyed'];
const WORKSPACES = ['runtime', 'read', 'branch'];
const HTTP_METHODS = ['delete', 'close', 'merge', 'archive', 'post'];

export interface GenerateOptions {
  targetLines: number;
  errorRate?: number;
  seed?: number;
}

export function generateManifest(options: GenerateOptions): GeneratedManifest {
  const seed = options.seed ?? 42;
  const errorRate = options.errorRate ?? 0;
  const rand = rng(seed * 7919 + options.targetLines);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const pickSome = <T>(list: readonly T[], min: number, max: number): T[] => {
    const n = min + Math.floor(rand() * (max - min + 1));
    const copy = [...list];
    const out: T[] = [];
    while (out.length < n && copy.length) out.push(copy.splice(Math.floor(rand() * copy.length), 1)[0]!);
    return out;
  };

  // Budget: agents ~35%, triggers ~40%, connectors ~20%, the rest ~5%.
  const T = options.targetLines;
  // Scale so the line count lands near the target (measured: ~0.8 lines per budgeted line).
  const S = T * 1.22;
  const nTemplates = Math.max(2, Math.round(S / 400));
  const nConnectors = Math.max(4, Math.round((S * 0.2) / 8));
  const nAgents = Math.max(3, Math.round((S * 0.35) / 9));
  const nTriggers = Math.max(3, Math.round((S * 0.4) / 9));
  const nApps = Math.max(1, Math.round(S / 1000));

  const out: string[] = [];
  const push = (line: string) => out.push(line);
  const templates = Array.from({ length: nTemplates }, (_, i) => `${pick(WORDS)}-tpl-${i}`);
  const envNames = Array.from(
    { length: Math.max(4, Math.round(S / 250)) },
    (_, i) => `${pick(WORDS).toUpperCase()}_TOKEN_${i}`,
  );
  const providers = ['managed_a', 'managed_b', 'mcp', 'openapi', 'collection', 'graphql', 'http', 'channel'] as const;
  const connectors: { slug: string; provider: string }[] = [];
  for (let i = 0; i < nConnectors; i++) {
    const provider = providers[i % providers.length]!;
    connectors.push({
      slug: provider === 'channel' ? `${pick(WORDS)}-chat-${i}` : `${pick(WORDS)}-${provider.replace('_', '-')}-${i}`,
      provider,
    });
  }
  const agents = Array.from({ length: nAgents }, (_, i) => `${pick(WORDS)}-agent-${i}`);

  push('# svc.yaml: generated benchmark manifest (deterministic, seed ' + seed + ').');
  push("# It mimics a large organisation's project: many agents, triggers and connectors.");
  push('');
  push('svc_version: 2');
  push('');
  push('project:');
  push(`  name: Benchmark project ${T}`);
  push('  description: A large generated project used to measure the language server.');
  push('');
  push('# The agent new sessions use unless a trigger picks another.');
  push(`default_agent: ${agents[0]}`);
  push('');
  push('env:');
  push('  required:');
  for (const name of envNames.slice(0, Math.ceil(envNames.length / 2))) push(`    - ${name}`);
  push(`  optional: [${envNames.slice(Math.ceil(envNames.length / 2)).join(', ')}]`);
  push('');
  push('agent_runtime:');
  push('  config_dir: .svc');
  push('');
  push('sandbox:');
  push(`  default: ${templates[0]}`);
  push('  templates:');
  for (let i = 0; i < templates.length; i++) {
    push(`    - slug: ${templates[i]}`);
    push(`      name: Template ${i}`);
    if (i % 2 === 0) push(`      image: node:${18 + (i % 5)}-bookworm`);
    else push(`      dockerfile: tools/sandbox/${templates[i]}/Dockerfile`);
    push(`      cpu: ${1 + (i % 8)}`);
    push(`      memory: ${2048 * (1 + (i % 4))}`);
  }
  push('');

  // Error injection: each mistake replaces or adds one line. Marked lines are chosen later.
  type Mistake = [InjectedError['kind'], (line: string) => string | null];
  const mistakes: Mistake[] = [
    ['typo-key', (l) => (/^(\s+)prompt: /.test(l) ? l.replace('prompt:', 'promt:') : null)],
    ['bad-enum', (l) => (/^(\s+)workspace: /.test(l) ? l.replace(/workspace: \w+/, 'workspace: brnch') : null)],
    ['undeclared-agent', (l) => (/^(\s+)agent: /.test(l) ? l.replace(/agent: \S+/, 'agent: no-such-agent') : null)],
    ['bad-duration', (l) => (/^(\s+)interval: /.test(l) ? l.replace(/interval: \S+/, 'interval: 15x') : null)],
    ['wrong-type', (l) => (/^(\s+)enabled: /.test(l) ? l.replace(/enabled: \S+/, 'enabled: [maybe]') : null)],
    [
      'bad-session-mode',
      (l) => (/^(\s+)session_mode: /.test(l) ? l.replace(/session_mode: \S+/, 'session_mode: sometimes') : null),
    ],
    [
      'unknown-permission',
      (l) => (/^(\s+)svc_cli: \[/.test(l) ? l.replace('svc_cli: [', 'svc_cli: [project.raed, ') : null),
    ],
    [
      'undeclared-connector',
      (l) => (/^(\s+)connectors: \[/.test(l) ? l.replace('connectors: [', 'connectors: [no-such-connector, ') : null),
    ],
  ];

  let agentsMid = -1;
  push('# Agents, keyed by name.');
  push('agents:');
  for (let i = 0; i < agents.length; i++) {
    const name = agents[i]!;
    if (i > 0 && i % 10 === 0) push(`  # ${pick(WORDS)} team`);
    push(`  ${name}:`);
    if (i === Math.floor(agents.length / 2)) {
      agentsMid = out.length;
      push('    '); // an indented blank line: where a person is about to type a key
    }
    if (i % 7 === 3) push('    enabled: false');
    if (i % 3 === 0) push(`    sandbox: ${pick(templates)}`);
    const cs = pickSome(connectors, 1, 3).map((c) => c.slug);
    if (i % 5 === 4) push('    connectors: all');
    else push(`    connectors: [${cs.join(', ')}]`);
    if (i % 4 === 1 && i % 5 !== 4) push(`    connectors_required: [${cs[0]}]`);
    if (i % 2 === 0) {
      push('    secrets:');
      for (const s of pickSome(envNames, 1, 2)) push(`      - ${s}`);
    } else push('    secrets: none');
    push(
      `    skills: [${pickSome(WORDS, 1, 2)
        .map((w) => `${w}-guide`)
        .join(', ')}]`,
    );
    push(`    svc_cli: [${pickSome(SVC_CLI, 2, 4).join(', ')}]`);
    push(`    workspace: ${pick(WORKSPACES)}`);
  }
  push('');

  push('# Triggers start agent runs: on a schedule, on a signed request, or from a polled or streamed command.');
  push('triggers:');
  let triggersMid = -1;
  for (let i = 0; i < nTriggers; i++) {
    const kind = i % 4; // cron, webhook, monitor poll, monitor stream
    const slug = `${pick(WORDS)}-${['cron', 'hook', 'poll', 'stream'][kind]}-${i}`;
    if (i === Math.floor(nTriggers / 2)) triggersMid = out.length;
    push(`  - slug: ${slug}`);
    if (i % 3 === 0) push(`    name: ${pick(WORDS)} ${['schedule', 'webhook', 'monitor', 'stream'][kind]} ${i}`);
    push(`    type: ${['cron', 'webhook', 'monitor', 'monitor'][kind]}`);
    if (kind === 0) {
      if (i % 8 === 0) push(`    schedule: "${i % 60} ${i % 24} * * *"`);
      else push(`    cron: "${i % 60} ${i % 24} * * ${i % 7}"`);
      push(`    timezone: ${pick(TIMEZONES)}`);
    } else if (kind === 1) {
      push(`    secret_env: ${pick(WORDS).toUpperCase()}_WEBHOOK_SECRET`);
      push('    filter:');
      push(`      action: ${pick(['opened', 'closed', 'labeled', 'synchronize'])}`);
    } else {
      push(`    run: ./tools/check-${pick(WORDS)}.sh --threshold 0.0${1 + (i % 9)}`);
      push(`    mode: ${kind === 2 ? 'poll' : 'stream'}`);
      if (kind === 2) push(`    interval: ${1 + (i % 59)}m`);
      else push(`    expect_event_within: ${1 + (i % 12)}h`);
    }
    push(`    agent: ${pick(agents)}`);
    if (i % 2 === 0) push(`    session_mode: ${pick(SESSION_MODES)}`);
    if (i % 5 === 2) push('    enabled: true');
    if (kind === 1 && i % 3 === 1)
      push(`    prompt_template: "Handle {{action}} on #{{number}} for the ${pick(WORDS)} team."`);
    else push(`    prompt: ${pick(PROMPTS)}`);
  }
  push('');

  push('# Connectors give agents tools, named `<slug>.<action>`.');
  push('connectors:');
  for (let i = 0; i < connectors.length; i++) {
    const { slug, provider } = connectors[i]!;
    push(`  - slug: ${slug}`);
    if (i % 2 === 0) push(`    name: ${slug.replace(/-/g, ' ')}`);
    push(`    provider: ${provider}`);
    switch (provider) {
      case 'managed_a':
        push(`    app: ${pick(WORDS)}`);
        break;
      case 'managed_b':
        push('    credential: shared');
        push('    authorization_strategy: user');
        break;
      case 'mcp':
        push(`    url: https://mcp.example.com/${slug}`);
        push(`    transport: ${i % 2 ? 'sse' : 'http'}`);
        break;
      case 'openapi':
        push(`    spec: https://api.example.com/${slug}/openapi.json`);
        push(`    base_url: https://api.example.com/${slug}`);
        break;
      case 'collection':
        push(`    spec: collections/${slug}.json`);
        break;
      case 'graphql':
        push(`    endpoint: https://graphql.example.com/${slug}`);
        push('    headers:');
        push(`      X-Team: ${pick(WORDS)}`);
        break;
      case 'http':
        push(`    base_url: https://${slug}.example.com/api`);
        push('    auth:');
        push('      type: bearer');
        push(`      token_env: ${pick(envNames)}`);
        push('    policies:');
        for (const m of pickSome(HTTP_METHODS, 1, 2)) {
          push(`      - match: ${slug}.${m}_*`);
          push(`        action: ${pick(['block', 'require_approval', 'always_run'])}`);
        }
        break;
      case 'channel':
        push(`    platform: ${pick(['chat_a', 'chat_b', 'email'])}`);
        break;
    }
  }
  push('');

  push('# Apps the project deploys, keyed by name.');
  push('apps:');
  for (let i = 0; i < nApps; i++) {
    push(`  app-${i}:`);
    push(`    type: ${i % 2 ? 'dockerfile' : 'static'}`);
    if (i % 2) {
      push(`    dockerfile: apps/app-${i}/Dockerfile`);
      push(`    port: ${3000 + i}`);
    } else {
      push(`    path: apps/app-${i}`);
      push('    build_command: npm run build');
      push(`    output_dir: apps/app-${i}/dist`);
    }
    push(`    idle_timeout_seconds: ${600 + i}`);
  }

  // Inject mistakes (never in the lines the harness uses, nor the header).
  let injected = 0;
  const injectedAt: InjectedError[] = [];
  if (errorRate > 0) {
    const want = Math.max(1, Math.round(out.length * errorRate));
    const protectedLines = new Set([agentsMid, agentsMid - 1, agentsMid + 1]);
    let guard = 0;
    while (injected < want && guard++ < want * 200) {
      const index = 30 + Math.floor(rand() * (out.length - 30));
      if (protectedLines.has(index) || Math.abs(index - triggersMid) < 16) continue;
      const line = out[index]!;
      if (line.endsWith('#bench-error')) continue;
      const [kind, mistake] = mistakes[Math.floor(rand() * mistakes.length)]!;
      const changed = mistake(line);
      if (changed === null) continue;
      out[index] = changed;
      injected += 1;
      injectedAt.push({
        line: index,
        kind,
        crossReference: kind === 'undeclared-agent' || kind === 'undeclared-connector',
      });
      protectedLines.add(index);
    }
  }

  // Spots.
  const triggerLines = out.slice(triggersMid, triggersMid + 16);
  const promptOffset = triggerLines.findIndex((l) => /^\s+prompt(_template)?: /.test(l));
  const promptLine = triggersMid + promptOffset;
  const promptText = out[promptLine]!;
  const editChar = promptText.indexOf(': ') + 2 + 5;
  const agentBlock = out.slice(agentsMid, agentsMid + 16);
  const workspaceLine = agentsMid + agentBlock.findIndex((l) => /^\s+workspace: /.test(l));
  const sessionLine = out.findIndex((l, i) => i >= triggersMid && /^\s+session_mode: /.test(l));

  const text = out.join('\n') + '\n';
  return {
    name: `${Math.round(T / 1000)}k${errorRate > 0 ? '-errors' : ''}`,
    format: 'yaml',
    targetLines: T,
    errorRate,
    seed,
    text,
    lines: out.length,
    bytes: Buffer.byteLength(text),
    injectedErrors: injected,
    injected: injectedAt.sort((a, b) => a.line - b.line),
    spots: {
      edit: { line: promptLine, character: editChar },
      completionKey: { line: agentsMid, character: 4 },
      completionValue: { line: workspaceLine, character: out[workspaceLine]!.indexOf(': ') + 2 },
      hoverKey: { line: sessionLine, character: out[sessionLine]!.indexOf('session_mode') + 3 },
    },
  };
}
