/**
 * docs/rules/ is the rule reference: one page per rule in RULES, a README table of all of them,
 * and examples whose output blocks are what the validator reports today (for the rules of kind
 * `migrate`, what `migrateManifest` reports: `svc-manifest migrate --to 2`).
 * `UPDATE_DOCS=1 npx vitest run packages/validator/test/rule-docs.test.ts` rewrites the output
 * blocks, each page's description, severity, kind and spec quote (from RULES) and the README table
 * rows; review the diff before committing. The prose (why, how to fix) stays yours to update.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedSchemas } from '@svc-manifest/schema';
import {
  CONFIGURABLE_RULES,
  MIGRATE_CODES,
  RULES,
  RULES_BY_ID,
  SUPPRESSIBLE_RULES,
  severityOf,
  type RuleCode,
} from '@svc-manifest/validator';
import {
  REPO_ROOT,
  RULE_DOCS_DIR,
  loadRulePages,
  parseExamples,
  refreshPage,
  runExample,
  type ExampleRunner,
} from './support/rule-docs.js';

const update = process.env.UPDATE_DOCS === '1';
const RULES_SRC = join(REPO_ROOT, 'packages', 'validator', 'src', 'rules');
/** Files in src/rules/ that are not one rule: the rule types (rule.ts), the list, and helpers only rules use. */
const NOT_RULE_FILES = ['rule.ts', 'index.ts', 'group-helpers.ts', 'report-undeclared.ts'];
/** Rules whose examples the language server's test runs (packages/lsp/test/rule-docs.test.ts). */
const EDITOR_KIND = 'editor';
/** Rules whose examples are run through `migrateManifest` (the refusals of `migrate --to 2`). */
const MIGRATE_KIND = 'migrate';
/** Rules about suppression comments: set by a policy file, never suppressed by a comment. */
const SUPPRESSION_KIND = 'suppression';

const ruleIds = RULES.map((rule) => rule.id).sort();

/** What a page's `## Policy` section says: whether and how a policy file or a comment can change the rule. */
function policySection(rule: (typeof RULES)[number]): string {
  const where =
    rule.kind === EDITOR_KIND
      ? 'Only the language server reports it, and it honours both.'
      : 'The CLI (and so the pre-commit hook and the Action) and the language server honour both; `validateManifest` takes them as its `policy` option.';
  const body =
    rule.kind === SUPPRESSION_KIND
      ? `About the suppression comments themselves: a \`.svc-manifest.yaml\` policy file (the nearest up from the manifest, to the repository root) sets its severity or turns it off, e.g. \`rules: { ${rule.id}: error }\`; no comment can suppress it. ${where}`
      : SUPPRESSIBLE_RULES.includes(rule.id)
        ? `A rule of ours, not the schema's: a \`.svc-manifest.yaml\` policy file (the nearest up from the manifest, to the repository root) sets its severity or turns it off, e.g. \`rules: { ${rule.id}: off }\`. A comment in the manifest suppresses it on the next line, \`# svc-manifest-disable-next-line ${rule.id} -- reason\`, or from \`# svc-manifest-disable ${rule.id}\` to \`# svc-manifest-enable ${rule.id}\`. ${where}`
        : rule.kind === MIGRATE_KIND
          ? 'Reported by `svc-manifest migrate --to 2`, which refuses to write a manifest it cannot carry over: it cannot be changed or suppressed.'
          : rule.kind === 'internal'
            ? 'A bug of ours, reported instead of a crash: it cannot be changed or suppressed.'
            : 'Whether the published schema accepts a manifest rests on it: no policy file can change its severity or turn it off (one that tries is refused), and a suppression comment naming it is reported instead of obeyed.';
  return `## Policy\n\n${body}\n`;
}
const pages = loadRulePages();

function readmeRow(rule: (typeof RULES)[number]): string {
  return `| [${rule.id}](${rule.id}.md) | ${rule.severity} | ${rule.kind} | ${rule.description.replace(/\|/g, '\\|')} |`;
}

describe('rule ids', () => {
  it('are unique', () => {
    expect(new Set(ruleIds).size).toBe(ruleIds.length);
  });

  it('match the files in packages/validator/src/rules/ (one file per rule with logic here, named after its id)', () => {
    const files = readdirSync(RULES_SRC)
      .filter((name) => name.endsWith('.ts') && !NOT_RULE_FILES.includes(name))
      .map((name) => name.slice(0, -3))
      .sort();
    const withLogic = RULES.filter((rule) => !('reportedBy' in rule)).map((rule) => rule.id);
    expect(files).toEqual(withLogic.sort());
    // The files set aside as not rules are there: a stale entry could hide a rule of that name.
    expect(NOT_RULE_FILES.filter((name) => !readdirSync(RULES_SRC).includes(name))).toEqual([]);
  });

  it('reported elsewhere name a module that reports them', () => {
    const elsewhere = RULES.filter((rule) => 'reportedBy' in rule);
    expect(elsewhere.length).toBeGreaterThan(0);
    for (const rule of elsewhere) {
      const file = join(REPO_ROOT, 'packages', (rule as { reportedBy: string }).reportedBy);
      expect(existsSync(file), `${rule.id}: ${file}`).toBe(true);
      expect(readFileSync(file, 'utf8'), `${rule.id} in ${file}`).toContain(`'${rule.id}'`);
    }
  });

  it('of kind migrate are exactly the codes migrateManifest reports', () => {
    const migrate = RULES.filter((rule) => rule.kind === MIGRATE_KIND).map((rule) => rule.id);
    expect(migrate.sort()).toEqual([...MIGRATE_CODES].sort());
  });

  it("a policy may set are exactly those that are not errors (none the schema's verdict rests on); comments suppress all of them but their own", () => {
    const notErrors = RULES.filter((rule) => rule.severity !== 'error').map((rule) => rule.id);
    expect([...CONFIGURABLE_RULES].sort()).toEqual(notErrors.sort());
    expect([...SUPPRESSIBLE_RULES].sort()).toEqual(
      notErrors.filter((id) => RULES_BY_ID.get(id)!.kind !== SUPPRESSION_KIND).sort(),
    );
  });

  it('give each code its severity', () => {
    for (const rule of RULES) expect(severityOf(rule.id)).toBe(rule.severity);
  });

  it('include every code the schema names (x-svc-code)', () => {
    const codes = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'x-svc-code') codes.add(String(value));
          else walk(value);
        }
      }
    };
    walk(publishedSchemas());
    expect(codes.size).toBeGreaterThan(0);
    for (const code of codes) expect(RULES_BY_ID.has(code as RuleCode), code).toBe(true);
  });

  it('each have a page in docs/rules/, and every page is a rule', () => {
    expect(pages.map((page) => page.id).sort()).toEqual(ruleIds);
  });

  it('are all in the README table with their current severity, kind and description', () => {
    const file = join(RULE_DOCS_DIR, 'README.md');
    let readme = readFileSync(file, 'utf8');
    if (update) {
      const rows = RULES.map(readmeRow).join('\n');
      readme = readme.replace(/^\| \[[^\n]*\n(?:\| \[[^\n]*\n)*/m, `${rows}\n`);
      writeFileSync(file, readme);
    }
    const rows = readme.split('\n').filter((line) => line.startsWith('| ['));
    expect(rows).toEqual(RULES.map(readmeRow));
  });
});

describe('rule pages', () => {
  for (const rule of RULES) {
    const page = pages.find((p) => p.id === rule.id);
    if (!page) continue; // reported by "each have a page"
    describe(rule.id, () => {
      it('state the rule as RULES does (title, description, severity, kind, spec)', () => {
        if (update) {
          const refreshed = page.text
            .replace(/^(# [^\n]*\n\n)[^\n]*\n/, (_, head: string) => `${head}${rule.description}\n`)
            .replace(/^\| (error|warning|info) \| [a-z]+ \|$/m, () => `| ${rule.severity} | ${rule.kind} |`)
            .replace(/(## Spec\n\n)> [^\n]*\n/, (whole, head: string) =>
              rule.spec ? `${head}> ${rule.spec}\n` : whole,
            );
          if (refreshed !== page.text) {
            writeFileSync(page.file, refreshed);
            page.text = refreshed;
          }
        }
        expect(page.text.split('\n')[0]).toBe(`# ${rule.id}`);
        expect(page.text).toContain(`\n${rule.description}\n`);
        expect(page.text).toContain(`| ${rule.severity} | ${rule.kind} |`);
        if (rule.spec) expect(page.text).toContain(`> ${rule.spec}`);
        for (const section of ['## Spec', '## Why it matters', '## Example', '## How to fix'])
          expect(page.text).toContain(`\n${section}\n`);
      });

      it('say whether and how a policy file can change it (## Policy)', () => {
        const expected = policySection(rule);
        if (update && !page.text.includes(expected)) {
          const refreshed = `${page.text.replace(/\n## Policy\n[\s\S]*?(?=\n## |$)/, '').replace(/\n*$/, '\n')}\n${expected}`;
          writeFileSync(page.file, refreshed);
          page.text = refreshed;
        }
        expect(page.text).toContain(`\n${expected}`);
      });

      if (rule.kind === 'internal') {
        // No input produces it on purpose (each one that does is a bug): the page shows its line.
        it('show the line it reports', () => {
          expect(page.text).toMatch(new RegExp(`\\n1:1-1:1 ${rule.severity} ${rule.id} \\| `));
        });
        return;
      }
      if (rule.kind === EDITOR_KIND) {
        it('have an example (its output is checked by packages/lsp/test/rule-docs.test.ts)', () => {
          expect(page.examples.length).toBeGreaterThan(0);
        });
        return;
      }
      const runner: ExampleRunner = rule.kind === MIGRATE_KIND ? 'migrate' : 'validate';
      const reporter = runner === 'migrate' ? 'migrate --to 2' : 'the validator';
      it(`have an example whose output block is exactly what ${reporter} reports`, () => {
        if (update) {
          const refreshed = refreshPage(page.text, runner);
          if (refreshed !== page.text) writeFileSync(page.file, refreshed);
          page.examples = parseExamples(refreshed);
        }
        expect(page.examples.length).toBeGreaterThan(0);
        for (const example of page.examples) {
          const actual = runExample(example, runner);
          // Codes, severities and ranges, and the messages too: the docs must not go stale.
          expect(actual).toEqual(example.output);
        }
        // The example shows this rule.
        const codes = page.examples.flatMap((example) => runExample(example, runner).map((line) => line.split(' ')[2]));
        expect(codes).toContain(rule.id);
      });
    });
  }
});
