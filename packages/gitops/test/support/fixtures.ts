/** Heavily commented manifests and a marketplace catalog for the tests. */
import { writeFiles } from './repos.js';

/** Joins lines with CRLF (every line, including the last, ends with CRLF). */
export const crlf = (lines: string[]): string => lines.map((line) => `${line}\r\n`).join('');
export const lf = (lines: string[]): string => lines.map((line) => `${line}\n`).join('');

/**
 * A tree of tricky file names for repositoryWithSpecialEntries (support/repos.ts), which makes
 * README.md executable and links `link` to a/one.txt: `a.b` and `a-b` sort around the `a/`
 * folder, a nested folder, a space and quotes, non-ASCII. Each test adds its manifest and what
 * else it needs.
 */
export const SPECIAL_NAMES: Readonly<Record<string, string>> = {
  'README.md': 'readme\n',
  'a.b': 'sorts before the a/ folder\n',
  'a/one.txt': '1\n',
  'a/two.txt': '2\n',
  'a/deep/three.txt': '3\n',
  'a-b/x': 'x\n',
  'skills/pdf tools/SKILL "quoted".md': 'skill\n',
  'skills/ünïcödé/é.md': 'u\n',
};

/** svc.yaml lines: comments everywhere, an anchor with a merge key, flow list and flow map, block list. */
export const YAML_LINES = [
  '# svc manifest for the demo project',
  '# (comments everywhere)',
  'svc_version: 2            # shape version',
  'default_agent: main       # the agent new sessions prefer',
  '',
  'project:',
  '  name: demo              # display name',
  '  description: "Demo project"',
  '',
  'x-defaults: &agent-defaults   # shared agent settings',
  '  enabled: true',
  '  skills: all',
  '',
  'agents:',
  '  # the main agent',
  '  main:',
  '    <<: *agent-defaults',
  '    secrets: [ OPENAI_KEY , GITHUB_TOKEN ]   # flow list, odd spacing',
  '    connectors: all       # everything',
  '  helper: { enabled: true, secrets: none }   # flow map',
  '  # reviewer is switched off for now',
  '  reviewer:',
  '    enabled: false        # disabled',
  '    connectors:',
  '      - github            # block list',
  '      - slack',
  '',
  'triggers:',
  '  # nightly report',
  '  - slug: nightly',
  '    type: cron',
  '    cron: "0 3 * * *"     # 03:00 UTC',
  '    prompt: Write the nightly report',
  '',
  '# end of file',
];

/** svc.toml lines: comments on every table and many values, inline arrays, an array of tables. */
export const TOML_LINES = [
  '# svc manifest (legacy TOML)',
  'svc_version = 2 # shape version',
  'default_agent = "main" # the agent new sessions prefer',
  '',
  '[project] # project info',
  'name = "demo"',
  'description = "Demo project"',
  '',
  '# the main agent',
  '[agents.main]',
  'enabled = true',
  'secrets = [ "OPENAI_KEY", "GITHUB_TOKEN" ] # flow list',
  'connectors = "all" # everything',
  '',
  '[agents.helper]',
  'enabled = true',
  'secrets = "none"',
  '',
  '# reviewer is switched off',
  '[agents.reviewer]',
  'enabled = false # disabled',
  'connectors = ["github", "slack"]',
  '',
  '# nightly report',
  '[[triggers]]',
  'slug = "nightly"',
  'type = "cron"',
  'cron = "0 3 * * *" # 03:00 UTC',
  'prompt = "Write the nightly report"',
  '',
  '# end of file',
];

export const SKILL_V1 = lf([
  '# PDF tools',
  '',
  'Extract text from PDFs.',
  '',
  'Steps:',
  '1. open the file',
  '2. read every page',
  '3. write a summary',
]);
/** SKILL_V1 with one more step. */
export const SKILL_V2 = SKILL_V1 + lf(['4. cite page numbers']);
export const EXTRACT_PY = lf(['import sys', '', 'def main():', '    print(sys.argv[1])']);

export interface ItemVersion {
  version: string;
  files: Record<string, string>;
  manifest: Record<string, unknown>;
}

export const PDF_AGENT_V1 = { enabled: true, skills: ['pdf-tools'], connectors: 'none' };
export const PDF_TRIGGER = {
  slug: 'pdf-digest',
  type: 'cron',
  cron: '0 6 * * 1',
  prompt: 'Summarise new PDFs',
  agent: 'pdf',
};
export const PDF_CONNECTOR = { slug: 'pdf-store', provider: 'http', base_url: 'https://pdf.example.com' };

export const PDF_V1: ItemVersion = {
  version: '1.0.0',
  files: { 'skills/pdf-tools/SKILL.md': SKILL_V1, 'skills/pdf-tools/extract.py': EXTRACT_PY },
  manifest: { agents: { pdf: PDF_AGENT_V1 }, triggers: [PDF_TRIGGER], connectors: [PDF_CONNECTOR] },
};

export const PDF_V2: ItemVersion = {
  version: '1.1.0',
  files: { 'skills/pdf-tools/SKILL.md': SKILL_V2, 'skills/pdf-tools/extract.py': EXTRACT_PY },
  manifest: {
    agents: { pdf: { ...PDF_AGENT_V1, secrets: ['PDF_KEY'] } },
    triggers: [PDF_TRIGGER],
    connectors: [PDF_CONNECTOR],
  },
};

/** Writes (or replaces) one item in a folder catalog. */
export function writeCatalogItem(root: string, id: string, item: ItemVersion, name = id): void {
  const files: Record<string, string> = {
    [`${id}/item.json`]: JSON.stringify(
      {
        name,
        version: item.version,
        description: `${name} test item`,
        files: Object.keys(item.files),
        manifest: item.manifest,
      },
      null,
      2,
    ),
  };
  for (const [path, content] of Object.entries(item.files)) files[`${id}/files/${path}`] = content;
  writeFiles(root, files);
}
