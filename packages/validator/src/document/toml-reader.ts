/**
 * The TOML reader (reader.ts): a text block by block (a header to the next, toml-blocks.ts), and
 * an edit by re-reading only the blocks it reached. Here the blocks are planned and their nesting
 * checked; `parseToml` (toml-reread.ts) reads them: the blocks' trees are joined into one tree
 * when no block can change how the others combine; otherwise, or where a block's error may not
 * be the whole text's, the text is parsed whole (parse-toml.ts). What a document keeps for the
 * next edit (blocks, trees, their owner token, the last clean signatures) is in
 * toml-update-state.ts.
 */
import { lastAtMost } from './line-index.js';
import { scanTomlNesting } from './limits.js';
import * as tomlParser from './parse-toml.js';
import type { TomlBlock } from './parse-toml.js';
import type { TextSource } from './piece-text.js';
import type { ManifestReader } from './reader.js';
import { withRunReplaced } from './spliced-lists.js';
import { bodyRegion } from './text-change.js';
import { blocksByPlace, blockStart, startsHeader, type OldIndex, type TomlUnits } from './toml-update-state.js';
import { parseToml } from './toml-reread.js';

export const tomlReader: ManifestReader<TomlUnits> = {
  parse(input, previousDocument, region) {
    const { body, bom, limits, store, work } = input;
    const text = body.toString();
    // The blocks first (a linear scan), so the nesting check can tell whether it is clean at each.
    const blocks = tomlParser.planTomlBlocks(text);
    if (blocks) work.scanned += text.length;
    const nesting = scanTomlNesting(
      text,
      limits.maxDepth,
      0,
      text.length,
      blocks?.map((block) => block.start),
    );
    if (nesting.tooDeepAt >= 0) return { tooDeepAt: nesting.tooDeepAt };
    const state = previousDocument?.store.units?.blocks;
    const previous =
      previousDocument && !previousDocument.fatal && state?.bom === bom && !previousDocument.store.consumed
        ? previousDocument
        : undefined;
    const fragment = parseToml(
      input,
      previous,
      blocks,
      previous && region
        ? blocksByPlace(state!.blocks, bodyRegion(region, bom), previous.wholeBody(bom), text)
        : () => -1,
    );
    const units = store.units!;
    if (units.blocks) units.blocks.fresh = nesting.fresh && !input.forbidden;
    return { fragment, valueMemo: units.memo };
  },

  /**
   * Plans and checks only the blocks around the changed lines (from the block before them to the
   * first block start after them where the scan is back outside any value, and clean for the
   * nesting check), then {@link parseToml} with that plan.
   */
  update(input, previous, region, plain) {
    const state = previous.store.units?.blocks;
    if (!state?.fresh || previous.store.consumed || previous.fatal || previous.forbidden) return undefined;
    const { body, bom, limits, store, work } = input;
    if (bom !== state.bom || !plain()) return undefined;
    const r = bodyRegion(region, bom);
    const old = state.blocks;
    const t = lastAtMost(old, Math.max(0, r.start - 1), blockStart);
    const from = old[t]!.start;
    let stop = old.length;
    const plan = tomlParser.planTomlPart(
      body,
      from,
      (offset) => {
        const j = lastAtMost(old, offset - r.delta, blockStart);
        if (j <= t || old[j]!.start !== offset - r.delta) return false;
        stop = j;
        return true;
      },
      r.newEnd,
    );
    if (!plan) return undefined;
    work.scanned += plan.end - from;
    // The planned lines only, as one string: the scan reads them character by character.
    const planned = body.slice(from, plan.end);
    const nesting = scanTomlNesting(
      planned,
      limits.maxDepth,
      0,
      planned.length,
      plan.blocks.map((block) => block.start - from),
    );
    work.scanned += plan.end - from;
    if (nesting.tooDeepAt >= 0 || !nesting.fresh) return undefined;
    const count = plan.blocks.length;
    const replaced = blocksByPlace(old.slice(t, stop), r, previous.body(bom), body, t);
    let blocks: TomlBlock[];
    if (state.whole?.store === previous.store) {
      // This document takes the previous one's trees over (see parseTomlSpliced): its blocks
      // after the edit move in place too, and the previous document cannot be updated from again.
      previous.store.consume();
      if (r.delta !== 0)
        for (let i = stop; i < old.length; i++) {
          old[i]!.start += r.delta;
          old[i]!.end += r.delta;
        }
      blocks = withRunReplaced(old, t, stop, plan.blocks);
    } else {
      const moved = old
        .slice(stop)
        .map((block) => ({ start: block.start + r.delta, end: block.end + r.delta, signature: block.signature }));
      blocks = old.slice(0, t).concat(plan.blocks, moved);
    }
    const oldIndex: OldIndex = (i, block) => (i < t ? i : i >= t + count ? i - t - count + stop : replaced(i, block));
    const fragment = parseToml(input, previous, blocks, oldIndex, { from: t, count, stop, delta: r.delta });
    const units = store.units!;
    if (units.blocks) units.blocks.fresh = true;
    return { fragment, valueMemo: units.memo };
  },
};

/**
 * The text from its start to where a top-level key can no longer stand: the lines before the
 * first table header outside any value, as the block planner finds it, read by ranges (a
 * keystroke in a large broken file does not make its whole text one string).
 */
export function tomlTopLevelText(source: TextSource): string {
  if (startsHeader(source, 0)) return '';
  const plan = tomlParser.planTomlPart(source, 0, (offset) => startsHeader(source, offset), 1);
  return plan?.stopped ? source.slice(0, plan.end) : source.toString();
}
