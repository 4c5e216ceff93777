/**
 * The YAML reader (reader.ts): a text chunk by chunk (yaml-chunks.ts), a large block list item
 * by item, and an edit by re-reading only the units it reached (yaml-incremental.ts). A text
 * that cannot be chunked, or whose chunks do not fit together, is read whole by the `yaml`
 * library (parse-yaml.ts).
 */
import { effectiveEntries, type MapEntry, type ValueNode } from './nodes.js';
import type { ManifestReader, ReadInput, Reading } from './reader.js';
import { buildValue, newObject } from './value.js';
import { parseYamlFragment } from './parse-yaml.js';
import type { TextSource } from './piece-text.js';
import { planYamlChunks } from './yaml-chunks.js';
import { assembleYaml, commitReplan, replanYaml, topsOfPlan, type YamlChunkState } from './yaml-incremental.js';
import { scanYaml } from './yaml-scan.js';

export const yamlReader: ManifestReader<YamlChunkState> = {
  parse(input, previousDocument, region) {
    const { body, bom, limits, store, work } = input;
    // One scan gives the nesting depth and the line table chunk planning needs.
    const text = body.toString();
    const scan = scanYaml(text, limits.maxDepth);
    if (scan.tooDeepAt >= 0) return { tooDeepAt: scan.tooDeepAt };
    const plan = planYamlChunks(text, scan);
    if (!plan) {
      work.parsed = text.length;
      return { fragment: parseYamlFragment(text, bom) };
    }
    const counted = { reparsed: 0 };
    const earlier =
      previousDocument && !previousDocument.fatal && !previousDocument.forbidden && !input.forbidden
        ? previousDocument.store
        : undefined;
    const state = earlier?.units && !earlier.consumed ? earlier.units : undefined;
    const previous = state && { state, body: previousDocument!.wholeBody(state.bom) };
    store.units = { bom, tops: topsOfPlan(text, bom, plan, previous, region, counted) };
    if (state) store.takeOver(earlier!);
    work.parsed += counted.reparsed;
    return assembleChunks(input, store.units);
  },

  update(input, previous, region, plain) {
    const state = previous.store.units;
    if (!state || previous.store.consumed || previous.fatal || previous.forbidden) return undefined;
    const { body, bom, limits, store, work } = input;
    if (bom !== state.bom) return undefined;
    if (!plain()) return undefined;
    const oldBody = previous.body(bom);
    const counted = { scanned: 0, reparsed: 0 };
    const replan = replanYaml(state, oldBody, body, region, limits.maxDepth, counted);
    work.scanned += counted.scanned;
    if (!replan) return undefined;
    store.units = { bom, tops: commitReplan(state, oldBody, body, region, replan, counted) };
    // Its units are this document's now: another update of the previous document reads its text afresh.
    store.takeOver(previous.store);
    work.parsed += counted.reparsed;
    return assembleChunks(input, store.units);
  },
};

/** The tree of the chunked text, or of the whole text when its chunks do not fit together. */
function assembleChunks(input: ReadInput<YamlChunkState>, units: YamlChunkState): Reading {
  const { body, bom } = input;
  const assembled = assembleYaml(units.tops, bom, body.length);
  if (!assembled) return { fragment: parseWholeYaml(input, body) };
  return {
    fragment: { root: assembled.root, diagnostics: assembled.diagnostics, aliasCount: 0 },
    entryValues: assembled.values,
  };
}

function parseWholeYaml(input: ReadInput<YamlChunkState>, body: TextSource): Reading['fragment'] {
  const text = body.toString();
  input.work.parsed += text.length;
  return parseYamlFragment(text, input.bom);
}

/** The plain value of a chunked text: each top-level entry's value from its chunk. */
export function valueOfChunks(
  root: ValueNode,
  entryValues: Map<MapEntry, () => unknown>,
  maxExpandedNodes: number,
): unknown {
  if (root.kind !== 'map') return undefined;
  const object = newObject();
  for (const entry of effectiveEntries(root)) {
    const get = entryValues.get(entry);
    // An entry a top-level merge key brings in (`<<: {a: 1}`) is no chunk's: its value is built
    // here (alias-free, as every chunked text is).
    object[entry.key] = get ? get() : buildValue(entry.value, { maxExpandedNodes, hasAliases: false }).value;
  }
  return object;
}
