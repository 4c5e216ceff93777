/**
 * Hover: for a key, what the schema says about it; for a name that refers to an agent,
 * connector or template, what it points at (the declaration's text and line).
 */
import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import { pathAtOffset, resolveAlias } from '@svc-manifest/validator/library';
import type { DocumentState } from '../document-state.js';
import { throwIfCancelled, type FeatureContext } from '../feature-context.js';
import { mayHoldName, nameIndex, siteAt, sitesOf, type NameKind, type NameSite } from '../manifest-model.js';
import { lspLines, offsetAt, positionAt, rangeAt } from '../positions.js';
import { describe, enumValues, valueSchemasAt, type PathSegment } from '../schema-model.js';
import { effectiveVersion } from '../schema-pinning.js';
import { HoverRequest } from 'vscode-languageserver';
import { handle, type Feature } from '../feature.js';
import { triggerValueMeaning as valueMeaning } from '../value-meaning.js';

const KIND_LABEL: Record<NameKind, string> = { agent: 'agent', connector: 'connector', template: 'sandbox template' };
const MAX_DECLARATION_LINES = 15;

export function hover(state: DocumentState, params: { position: Position }, context?: FeatureContext): Hover | null {
  const root = state.doc.root;
  if (!root) return null;
  const offset = offsetAt(state, params.position);
  throwIfCancelled(context);
  const { steps } = pathAtOffset(root, offset);
  const last = steps[steps.length - 1]!;
  const segments = steps.slice(1).map((step) => step.segment as PathSegment);
  // On a key: also a TOML table header's, whose entry starts before the key text (`[[triggers]]`).
  const keyStep = steps.findIndex((step) => step.entry && offset >= step.entry.keyStart && offset <= step.entry.keyEnd);
  // The name index is built only when the offset can be on a name.
  if (mayHoldName(keyStep > 0 ? segments.slice(0, keyStep) : segments, keyStep > 0)) {
    const site = siteAt(nameIndex(state.doc), offset);
    if (site) return nameHover(state, site);
  }
  if (keyStep > 0) {
    const entry = steps[keyStep]!.entry!;
    const text = keyDescription(state, segments.slice(0, keyStep));
    if (!text) return null;
    return {
      contents: { kind: MarkupKind.Markdown, value: text },
      range: rangeAt(state, entry.keyStart, entry.keyEnd),
    };
  }
  const node = resolveAlias(last.node);
  if (
    node?.kind === 'scalar' &&
    last.node.kind === 'scalar' &&
    offset >= node.start &&
    offset <= node.end &&
    segments.length > 0
  ) {
    const meaning = valueMeaning(root, segments, node.value);
    const described = keyDescription(state, segments);
    const text = meaning && described ? `${described}\n\n---\n\n${meaning}` : (meaning ?? described);
    if (!text) return null;
    return { contents: { kind: MarkupKind.Markdown, value: text }, range: rangeAt(state, node.start, node.end) };
  }
  return null;
}

/** The schema's description of the value at a path, with the values an enum allows. */
function keyDescription(state: DocumentState, segments: PathSegment[]): string | undefined {
  const version = effectiveVersion(state);
  const schemas = valueSchemasAt(version, segments);
  // A list item or a free-form key (a header name) is described by its container.
  let description = schemas.map(describe).find((text) => text);
  if (!description && segments.length > 1)
    description = valueSchemasAt(version, segments.slice(0, -1))
      .map(describe)
      .find((text) => text);
  if (!description) return undefined;
  const name = segments[segments.length - 1];
  const title = typeof name === 'string' ? `**${escapeMarkdown(name)}**\n\n` : '';
  const replacement = schemas.map((schema) => schema['x-svc-deprecated']).find((key) => typeof key === 'string');
  const deprecated = replacement ? `\n\n*Deprecated:* use \`${String(replacement)}\`.` : '';
  const values = enumValues(schemas);
  const allowed =
    values.length > 0 && values.length <= 12 ? `\n\nAllowed: ${values.map((v) => `\`${String(v)}\``).join(', ')}` : '';
  return `${title}${description}${deprecated}${allowed}`;
}

function nameHover(state: DocumentState, site: NameSite): Hover {
  const index = nameIndex(state.doc);
  const definition = index.definitions[site.kind].get(site.name);
  const range = rangeAt(state, site.start, site.end);
  const label = KIND_LABEL[site.kind];
  if (!definition) {
    return {
      contents: {
        kind: MarkupKind.Markdown,
        value: `${label} ${codeSpan(site.name)} is not declared in this manifest`,
      },
      range,
    };
  }
  const lines: string[] = [];
  const declaration = definition.declaration ?? { start: definition.start, end: definition.end };
  const line = positionAt(state, definition.start).line + 1;
  const references = sitesOf(index, site.kind, site.name).filter((s) => s.role === 'reference').length;
  lines.push(
    `**${label}** ${codeSpan(site.name)} — declared on line ${line}, ${references} reference${references === 1 ? '' : 's'}`,
  );
  const lineStart = lspLines(state).lineStart(positionAt(state, declaration.start).line);
  let snippet = state.doc.text.slice(lineStart, declaration.end).replace(/\s+$/, '');
  const snippetLines = snippet.split('\n');
  if (snippetLines.length > MAX_DECLARATION_LINES)
    snippet = [...snippetLines.slice(0, MAX_DECLARATION_LINES), '…'].join('\n');
  lines.push(codeBlock(state.format, dedent(snippet)));
  return { contents: { kind: MarkupKind.Markdown, value: lines.join('\n\n') }, range };
}

/*
 * Names and declarations come from the manifest, which may be a stranger's (the site's playground
 * opens shared links): quoted in Markdown, a backtick in a name would end its code span and a
 * line of backticks would end the code block, turning the rest into Markdown and HTML. Each
 * quote is fenced with more backticks than the text holds in a row, so the text stays text.
 */

/** A code span holding `text` literally, whatever backticks it contains (CommonMark §6.1). */
function codeSpan(text: string): string {
  // A code span is one line: a line break in it would be read as a space anyway, a blank line would end it.
  const oneLine = text.replace(/\r\n?|\n/g, ' ');
  const fence = '`'.repeat(longestRun(oneLine, /`+/g) + 1);
  // Backticks at either end would join the fence; one space each side keeps them apart and is stripped.
  const padded = /^[` ]|[` ]$/.test(oneLine) && oneLine.trim() !== '' ? ` ${oneLine} ` : oneLine;
  return `${fence}${padded}${fence}`;
}

/** A fenced code block holding `text` literally: its fence is longer than any run of backticks in it. */
function codeBlock(language: string, text: string): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text, /`+/g) + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

/** Text as Markdown shows it: every ASCII punctuation character escaped, line breaks as spaces. */
function escapeMarkdown(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

function longestRun(text: string, run: RegExp): number {
  let longest = 0;
  for (const match of text.matchAll(run)) longest = Math.max(longest, match[0].length);
  return longest;
}

function dedent(text: string): string {
  const lines = text.split('\n');
  const indents = lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length);
  const cut = Math.min(...indents, Infinity);
  return Number.isFinite(cut) && cut > 0 ? lines.map((l) => l.slice(cut)).join('\n') : text;
}

export const hoverFeature: Feature = {
  capabilities: { hoverProvider: true },
  handlers: [
    handle(HoverRequest.type, null, (state, params, context) =>
      context.settings?.hover === false ? null : hover(state, params, context),
    ),
  ],
};
