/**
 * Reads and re-runs the examples of the rule pages in docs/rules/.
 *
 * A page's "## Example" section holds pairs of fenced blocks: an input block whose info string
 * starts with `yaml` or `toml`, then a `text` block with what the validator reports, one line per
 * diagnostic (`line:col-endLine:endCol severity code | message`). Words after the language in
 * the input block's info string:
 *   - `escapes`: the text is turned into bytes first, with `\xNN` a raw byte and `\uNNNN` a
 *     character (for byte-order marks, control characters and invalid UTF-8);
 *   - `maxBytes=N`, `maxDepth=N`, `maxExpandedNodes=N`: validator limits;
 *   - `--default-agent=NAME` (migrate examples only): the `migrate` command's flag.
 *
 * The examples of the rules of kind `migrate` are run through `migrateManifest` (what
 * `svc-manifest migrate --to 2` reports, with `--default-agent` when the input block says so);
 * every other example through `validateManifest`, as the CLI validates a file that no policy
 * file governs: its suppression comments honoured (`policy: { inlineSuppressions: true }`). Info strings are not shown by Markdown
 * renderers, so a page whose example takes `--default-agent` says so in its prose too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ManifestDocument,
  migrateManifest,
  validateManifest,
  type Diagnostic,
  type Limits,
  type ManifestFiles,
} from '@svc-manifest/validator';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../../../..', import.meta.url)));
export const RULE_DOCS_DIR = join(REPO_ROOT, 'docs', 'rules');

/** One diagnostic as a doc page (and a fixture's `.expected` file) shows it. */
export function diagnosticLine(d: Diagnostic): string {
  const r = d.range;
  return `${r.start.line}:${r.start.column}-${r.end.line}:${r.end.column} ${d.severity} ${d.code} | ${d.message}`;
}

export interface DocExample {
  format: 'yaml' | 'toml';
  /** The info string after the language. */
  flags: string[];
  input: string;
  /** Lines of the output block as written in the page. */
  output: string[];
  /** Character offsets of the output block's body in the page (for rewriting it). */
  outputStart: number;
  outputEnd: number;
}

export interface RulePage {
  id: string;
  file: string;
  text: string;
  examples: DocExample[];
}

const FENCE = /^```([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;

/** The examples of one page: each yaml/toml block of the Example section with the text block after it. */
export function parseExamples(page: string): DocExample[] {
  const section = /^## Example\b.*$/m.exec(page);
  if (!section) return [];
  const next = /^## /m.exec(page.slice(section.index + section[0].length));
  const sectionEnd = next ? section.index + section[0].length + next.index : page.length;
  const blocks: { info: string; body: string; bodyStart: number; bodyEnd: number }[] = [];
  FENCE.lastIndex = section.index;
  for (let match = FENCE.exec(page); match && match.index < sectionEnd; match = FENCE.exec(page)) {
    const bodyStart = match.index + match[0].indexOf('\n') + 1;
    blocks.push({ info: match[1]!.trim(), body: match[2]!, bodyStart, bodyEnd: bodyStart + match[2]!.length });
  }
  const examples: DocExample[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const [language, ...flags] = blocks[i]!.info.split(/\s+/);
    if (language !== 'yaml' && language !== 'toml') continue;
    const output = blocks[i + 1];
    if (!output || output.info !== 'text')
      throw new Error(`a ${language} example must be followed by a \`\`\`text block`);
    examples.push({
      format: language,
      flags,
      input: blocks[i]!.body,
      output: output.body.split('\n').filter((line) => line.trim() !== ''),
      outputStart: output.bodyStart,
      outputEnd: output.bodyEnd,
    });
    i += 1;
  }
  return examples;
}

/** Bytes for an `escapes` example: `\xNN` is one raw byte, `\uNNNN` a character, the rest UTF-8. */
export function decodeEscapes(text: string): Uint8Array {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < text.length;) {
    const hex = /^\\x([0-9a-fA-F]{2})/.exec(text.slice(i, i + 4));
    const unicode = /^\\u([0-9a-fA-F]{4})/.exec(text.slice(i, i + 6));
    if (hex) {
      bytes.push(parseInt(hex[1]!, 16));
      i += 4;
    } else if (unicode) {
      bytes.push(...encoder.encode(String.fromCharCode(parseInt(unicode[1]!, 16))));
      i += 6;
    } else {
      const char = String.fromCodePoint(text.codePointAt(i)!);
      bytes.push(...encoder.encode(char));
      i += char.length;
    }
  }
  return Uint8Array.from(bytes);
}

/**
 * What runs an example: `validate` is `validateManifest` (every rule page but those below),
 * `migrate` is `migrateManifest` to version 2 (the pages of the rules of kind `migrate`).
 */
export type ExampleRunner = 'validate' | 'migrate';

/** What the validator (or `migrate`) reports for an example, as page lines. */
export function runExample(example: DocExample, runner: ExampleRunner = 'validate'): string[] {
  const limits: Partial<Limits> = {};
  let escapes = false;
  let defaultAgent: string | undefined;
  let files: ManifestFiles | undefined;
  for (const flag of example.flags) {
    if (flag === 'escapes') {
      escapes = true;
      continue;
    }
    const agent = /^--default-agent=(.+)$/.exec(flag);
    if (agent) {
      if (runner !== 'migrate') throw new Error(`'${flag}' is a flag of migrate examples only`);
      defaultAgent = agent[1]!;
      continue;
    }
    // `files=a,b/`: the files (and, with a trailing `/`, folders) beside the manifest, for path checks.
    const listed = /^files=(.*)$/.exec(flag);
    if (listed) {
      const present = listed[1]!.split(',').filter(Boolean);
      files = {
        stat: (relative: string) =>
          present.includes(relative)
            ? 'file'
            : present.includes(`${relative.replace(/\/$/, '')}/`)
              ? 'folder'
              : present.some((p) => p.startsWith(`${relative}/`))
                ? 'folder'
                : 'missing',
      };
      continue;
    }
    const option = /^(maxBytes|maxDepth|maxExpandedNodes)=(\d+)$/.exec(flag);
    if (!option) throw new Error(`unknown example flag '${flag}'`);
    limits[option[1] as keyof Limits] = Number(option[2]);
  }
  const input = escapes ? decodeEscapes(example.input) : example.input;
  if (runner === 'migrate') {
    const document = ManifestDocument.parse(input, { format: example.format, limits });
    return migrateManifest(document, { to: 2, defaultAgent }).diagnostics.map(diagnosticLine);
  }
  return validateManifest(input, {
    format: example.format,
    limits,
    files,
    policy: { inlineSuppressions: true },
  }).diagnostics.map(diagnosticLine);
}

/** Every page under docs/rules/ except the README. */
export function loadRulePages(): RulePage[] {
  return readdirSync(RULE_DOCS_DIR)
    .filter((name) => name.endsWith('.md') && name !== 'README.md')
    .sort()
    .map((name) => {
      const file = join(RULE_DOCS_DIR, name);
      const text = readFileSync(file, 'utf8');
      return { id: name.slice(0, -3), file, text, examples: parseExamples(text) };
    });
}

/** The page with every output block replaced by what the validator (or `migrate`) reports now. */
export function refreshPage(page: string, runner: ExampleRunner = 'validate'): string {
  const examples = parseExamples(page);
  let out = page;
  for (const example of [...examples].reverse()) {
    const lines = runExample(example, runner);
    out =
      out.slice(0, example.outputStart) + (lines.length ? lines.join('\n') + '\n' : '') + out.slice(example.outputEnd);
  }
  return out;
}
