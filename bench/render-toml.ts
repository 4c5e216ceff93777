/**
 * The TOML rendering of a generated manifest: the same data (every item, every injected
 * mistake) written as svc.toml, so the benchmark compares the two formats on the same content.
 *
 * It reads the YAML with `yaml` (its node tree keeps where each key was) and writes TOML the
 * way a person would: top-level scalars first, a `[table]` per map outside lists
 * (`[project]`, `[agents.<name>]`, `[apps.<name>]`), `[[array]]` sections for lists of maps
 * (`[[triggers]]`, `[[connectors]]`, `[[connectors.policies]]`), inline tables for the small
 * maps inside list items (`filter`, `auth`, `headers`) and one-line arrays for lists of
 * scalars. Own-line comments go before the entry or section they preceded. Each TOML line
 * remembers the YAML line it came from, so the injected mistakes and the harness's spots
 * (edit, completion, hover) are located in the TOML text too.
 */
import { isDeepStrictEqual } from 'node:util';
import { getStaticTOMLValue, parseTOML } from 'toml-eslint-parser';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import type { GeneratedManifest, Spot } from './generate.ts';

const BARE_KEY = /^[A-Za-z0-9_-]+$/;
const tomlKey = (key: string) => (BARE_KEY.test(key) ? key : JSON.stringify(key));

/** A scalar as TOML: integers, booleans and basic strings (JSON's escapes are all valid TOML escapes). */
function tomlScalar(value: unknown): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`render-toml: ${value} has no TOML form here`);
    return Number.isInteger(value) ? String(value) : String(value).includes('.') ? String(value) : `${value}.0`;
  }
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  throw new Error(`render-toml: unexpected scalar ${JSON.stringify(value)}`);
}

function inlineValue(node: unknown): string {
  if (isScalar(node)) return tomlScalar(node.value);
  if (isSeq(node)) return `[${node.items.map(inlineValue).join(', ')}]`;
  if (isMap(node))
    return `{ ${node.items.map((pair) => `${tomlKey(keyOf(pair))} = ${inlineValue(pair.value)}`).join(', ')} }`;
  throw new Error('render-toml: unexpected node');
}

function keyOf(pair: Pair): string {
  if (!isScalar(pair.key)) throw new Error('render-toml: a key that is not a scalar');
  return String(pair.key.value);
}

const isListOfMaps = (node: unknown) => isSeq(node) && node.items.length > 0 && node.items.every((item) => isMap(item));

interface Rendering {
  text: string;
  /** For each TOML line, the 0-based YAML line it was written from (-1: none). */
  sourceLine: number[];
  /** The TOML line of the blank line made for key completion. */
  completionLine: number;
}

function render(yamlText: string, completionAfterYamlLine: number): Rendering {
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter });
  if (doc.errors.length) throw new Error(`render-toml: the YAML does not parse: ${doc.errors[0]!.message}`);
  const lines: string[] = [];
  const sourceLine: number[] = [];
  let completionLine = -1;
  const lineOf = (node: Node | null | undefined): number =>
    node?.range ? lineCounter.linePos(node.range[0]).line - 1 : -1;
  const emit = (line: string, source = -1) => {
    lines.push(line);
    sourceLine.push(source);
  };
  const comments = (text: string | null | undefined) => {
    if (!text) return;
    for (const line of text.split('\n')) emit(line.trim() === '' ? '' : `#${line.replace(/svc\.yaml/g, 'svc.toml')}`);
  };
  const header = (text: string, source: number) => {
    const previous = lines[lines.length - 1];
    if (previous !== undefined && previous !== '' && !previous.startsWith('#')) emit('');
    emit(text, source);
  };

  /**
   * One table's body: its plain entries (in order) first, then its sub-tables and arrays of
   * tables (TOML puts a table's own keys before its sub-sections). `inItem`: inside a list
   * item, where maps stay inline so the item reads in its YAML order.
   */
  const body = (path: string[], map: YAMLMap, inItem: boolean) => {
    const deferred: Pair[] = [];
    for (const pair of map.items) {
      const value = pair.value;
      if ((isMap(value) && !inItem) || isListOfMaps(value)) {
        deferred.push(pair);
        continue;
      }
      comments((pair.key as Node).commentBefore);
      emit(`${tomlKey(keyOf(pair))} = ${inlineValue(value)}`, lineOf(pair.key as Node));
    }
    for (const pair of deferred) {
      const key = keyOf(pair);
      const sub = [...path, tomlKey(key)];
      const keyLine = lineOf(pair.key as Node);
      if (isMap(pair.value)) {
        const map = pair.value;
        const plain = map.items.some((p) => !(isMap(p.value) || isListOfMaps(p.value)));
        if (plain || keyLine === completionAfterYamlLine) {
          if (lines.length && lines[lines.length - 1] !== '') emit('');
          comments((pair.key as Node).commentBefore);
          header(`[${sub.join('.')}]`, keyLine);
          if (keyLine === completionAfterYamlLine) {
            completionLine = lines.length;
            emit('');
          }
        } else {
          // A table with only sub-tables (e.g. `agents`): no header of its own; its comment goes before the first one.
          if (lines.length && lines[lines.length - 1] !== '') emit('');
          comments((pair.key as Node).commentBefore);
        }
        body(sub, map, false);
      } else if (isSeq(pair.value)) {
        if (lines.length && lines[lines.length - 1] !== '') emit('');
        comments((pair.key as Node).commentBefore);
        for (const item of pair.value.items as YAMLMap[]) {
          comments(item.commentBefore);
          header(`[[${sub.join('.')}]]`, -1);
          body(sub, item, true);
        }
      }
    }
  };

  comments(doc.commentBefore);
  if (!isMap(doc.contents)) throw new Error('render-toml: the document is not a map');
  body([], doc.contents, false);
  const text = lines.join('\n') + '\n';
  // The same content, or the comparison means nothing: the TOML must read back as the YAML's data.
  if (!isDeepStrictEqual(getStaticTOMLValue(parseTOML(text)), doc.toJS()))
    throw new Error('render-toml: the TOML does not hold the same data as the YAML');
  return { text, sourceLine, completionLine };
}

/** The TOML rendering of `manifest` (a YAML one from generateManifest), with its spots and mistakes located. */
export function renderToml(manifest: GeneratedManifest): GeneratedManifest {
  if (manifest.format !== 'yaml') throw new Error('renderToml takes a YAML manifest');
  const r = render(manifest.text, manifest.spots.completionKey.line - 1);
  const lines = r.text.split('\n');
  const tomlLine = (yamlLine: number): number => {
    const index = r.sourceLine.indexOf(yamlLine);
    if (index < 0) throw new Error(`render-toml: YAML line ${yamlLine + 1} has no TOML line`);
    return index;
  };
  const at = (yamlLine: number, find: (line: string) => number): Spot => {
    const line = tomlLine(yamlLine);
    const character = find(lines[line]!);
    if (character < 0) throw new Error(`render-toml: no spot on TOML line ${line + 1}: ${lines[line]}`);
    return { line, character };
  };
  if (r.completionLine < 0) throw new Error('render-toml: the agent for key completion was not found');
  return {
    ...manifest,
    name: `toml-${manifest.name}`,
    format: 'toml',
    text: r.text,
    lines: lines.length - 1,
    bytes: Buffer.byteLength(r.text),
    injected: manifest.injected.map((e) => ({ ...e, line: tomlLine(e.line) })),
    spots: {
      // Five characters into the prompt string, as in the YAML.
      edit: at(manifest.spots.edit.line, (l) => (l.indexOf('= "') < 0 ? -1 : l.indexOf('= "') + 3 + 5)),
      completionKey: { line: r.completionLine, character: 0 },
      // Inside the string's opening quote: where a value is typed in TOML.
      completionValue: at(manifest.spots.completionValue.line, (l) =>
        l.indexOf('= "') < 0 ? -1 : l.indexOf('= "') + 3,
      ),
      hoverKey: at(manifest.spots.hoverKey.line, (l) =>
        l.indexOf('session_mode') < 0 ? -1 : l.indexOf('session_mode') + 3,
      ),
    },
  };
}
