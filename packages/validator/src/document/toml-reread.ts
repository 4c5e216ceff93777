/**
 * How the TOML reader (toml-reader.ts) reads blocks it planned: the trees of the blocks an edit
 * reached are read again and joined with those kept, when no block can change how the others
 * combine; otherwise the text is parsed whole (parse-toml.ts).
 *
 * Ownership: a text that parsed whole shares one owner token among all its block trees, naming
 * its document's store. The next update either splices (the edit replaced blocks by as many:
 * the token moves to the new store, the trees after the edit move in place, the join is patched)
 * or joins block by block (kept trees of the previous store, or of the store a text without a
 * tree lends on, move in place; others are copied). A text without a tree takes nothing over, so
 * the last document with one stays readable (the language server keeps it while the text is
 * broken).
 */
import { groupAt, moveFramesFrom } from './nodes.js';
import * as tomlParser from './parse-toml.js';
import type { TomlBlock, TomlJoin, TomlPart } from './parse-toml.js';
import type { PreviousRead, ReadInput } from './reader.js';
import { withRunReplaced } from './spliced-lists.js';
import type { ParsedFragment } from './tree-builder.js';
import {
  alignedWithClean,
  cachedPart,
  copyTomlPart,
  earlierPart,
  groupFrames,
  headerAsRead,
  headerLine,
  lenderOf,
  moveCachedPart,
  onlyNewKeysAdded,
  partStart,
  type CachedTomlPart,
  type OldIndex,
  type TomlClean,
  type TomlOwner,
  type TomlSplice,
  type TomlUnits,
} from './toml-update-state.js';

/**
 * Re-parses only the blocks whose text changed, when that cannot change the result.
 * The blocks' trees are joined when every block's signature is that of the last text that
 * parsed without a problem (then no block can change how the others combine; see
 * toml-blocks.ts). A block that does not parse on its own is the whole text's error when
 * the blocks before it parse and the headers up to it are those of that text (the parser
 * reports the first syntax error, and before it only redefined headers). Otherwise the whole
 * text is parsed. `oldIndex` names, for a block, the previous document's block with the same
 * text (by place: the block lies wholly outside the changed region), or -1.
 */
export function parseToml(
  input: ReadInput<TomlUnits>,
  previous: PreviousRead<TomlUnits> | undefined,
  blocks: TomlBlock[] | null,
  oldIndex: OldIndex,
  splice?: TomlSplice,
): ParsedFragment {
  const { body, bom: base, store, work } = input;
  const earlier = previous?.store.units;
  const clean = earlier?.clean;
  const units: TomlUnits = { memo: earlier?.memo ?? { value: new WeakMap(), schema: new WeakMap() } };
  store.units = units;
  // Once per block: a lookup by text hands each earlier block out once. With a splice, only
  // the new blocks are looked up; the others are where the splice puts them.
  if (blocks && earlier?.blocks) {
    if (splice) {
      const { from, count, stop } = splice;
      const middle: number[] = [];
      for (let i = from; i < from + count; i++) middle.push(oldIndex(i, blocks[i]!));
      oldIndex = (i) => (i < from ? i : i >= from + count ? i - from - count + stop : middle[i - from]!);
    } else {
      const olds = blocks.map((block, i) => oldIndex(i, block));
      oldIndex = (i) => olds[i] ?? -1;
    }
  } else oldIndex = () => -1;
  if (blocks && clean && previous && earlier?.blocks) {
    const spliced = splice ? parseTomlSpliced(input, blocks, clean, previous, splice, oldIndex) : undefined;
    const result = spliced === undefined ? parseTomlBlockwise(input, blocks, clean, previous, oldIndex) : spliced;
    if (result) return result;
  }
  units.blocks = undefined;
  work.parsed = body.length;
  // A file opened afresh: block by block when that gives the whole text's result (less memory).
  // Read whole: made into one string here, if it is not one already.
  const text = body.toString();
  const byBlocks = blocks && !previous ? tomlParser.parseTomlByBlocks(text, base, blocks) : null;
  const whole: ParsedFragment & { parts?: TomlPart[]; join?: TomlJoin } = byBlocks
    ? { ...byBlocks, diagnostics: [], aliasCount: 0 }
    : tomlParser.parseTomlDocument(text, base, blocks);
  if (whole.parts && blocks) {
    const parts = whole.parts;
    const owner: TomlOwner = { store, groups: [] };
    const cachedParts = parts.map((part, i) => cachedPart(part, base + blocks[i]!.start, owner));
    owner.groups = groupFrames(cachedParts);
    units.blocks = {
      bom: base,
      blocks,
      parts: cachedParts,
      fresh: false,
      join: whole.join,
      whole: owner,
    };
    units.clean = { signatures: blocks.map((block) => block.signature) };
  } else {
    // Keep what the last clean text allows for the edits that will fix this one.
    units.clean = clean;
    const earlierBlocks = earlier?.blocks;
    if (blocks && earlierBlocks)
      units.blocks = {
        bom: base,
        blocks,
        parts: blocks.map((_, i) => earlierPart(earlierBlocks, oldIndex(i, blocks[i]!))),
        fresh: false,
        lender: whole.root ? undefined : lenderOf(previous!.store),
      };
  }
  return whole;
}

/**
 * {@link parseTomlBlockwise} for an edit that replaced blocks of a text that parsed whole by as
 * many blocks: only those are read, and the previous document's trees are taken over all at
 * once (its owner token now names this document): those after the edit move in place, and the
 * join is patched around the new blocks. Undefined when this is not such an edit or a new block
 * does not parse alone (the general way then decides); null when the whole text must be parsed.
 */
function parseTomlSpliced(
  input: ReadInput<TomlUnits>,
  blocks: TomlBlock[],
  clean: TomlClean,
  previousDocument: PreviousRead<TomlUnits>,
  splice: TomlSplice,
  oldIndex: OldIndex,
): ParsedFragment | null | undefined {
  const { body, bom: base, store, work } = input;
  const units = store.units!;
  const previous = previousDocument.store.units!.blocks!;
  const owner = previous.whole;
  const join = previous.join;
  const { from, count, stop } = splice;
  if (
    !owner ||
    owner.store !== previousDocument.store ||
    !join ||
    count !== stop - from ||
    blocks.length !== clean.signatures.length
  )
    return undefined;
  const middle: CachedTomlPart[] = [];
  let read = 0;
  for (let i = from; i < stop; i++) {
    const kept = earlierPart(previous, oldIndex(i, blocks[i]!));
    if (kept) {
      middle.push(kept);
      continue;
    }
    const block = blocks[i]!;
    const text = body.slice(block.start, block.end);
    read += text.length;
    const result = tomlParser.parseTomlBlock(text, base + block.start, i === 0);
    if (!result || 'error' in result) return undefined;
    middle.push(cachedPart(result.part, base + block.start, owner));
  }
  // The other blocks kept their signatures, which are the clean ones (the previous text parsed whole).
  let same = true;
  for (let i = from; i < stop; i++) {
    if (blocks[i]!.signature === clean.signatures[i]) continue;
    if (!onlyNewKeysAdded(blocks[i]!.signature, clean.signatures[i]!, i > 0, clean)) return null;
    same = false;
  }
  // The trees are this document's now, moved in place: the previous document's tree is no longer its own.
  previousDocument.store.handTreesTo(store);
  owner.store = store;
  work.parsed += read;
  const parts = previous.parts as CachedTomlPart[];
  // The new trees take the places (and so the groups) of those they replace.
  for (let k = 0; k < middle.length; k++) {
    middle[k]!.frame.joinGroup(groupAt(owner.groups, from + k));
    moveCachedPart(middle[k]!, base + blocks[from + k]!.start);
  }
  // The blocks after the edit are the previous document's moved by the edit's delta (see
  // tomlReader.update), so their trees move by it too.
  if (splice.delta !== 0) moveFramesFrom(parts.length, (i) => parts[i]!.frame, owner.groups, stop, splice.delta);
  const trees = withRunReplaced(
    join.parts,
    from,
    stop,
    middle.map((cached) => cached.part),
  );
  const joined = tomlParser.joinTomlParts(trees, base, body.length, join, { from, stop, delta: splice.delta });
  previous.join = undefined;
  units.blocks = {
    bom: base,
    blocks,
    parts: withRunReplaced(parts, from, stop, middle),
    fresh: false,
    join: joined.join,
    whole: owner,
  };
  if (same) units.clean = clean;
  else {
    const signatures = clean.signatures.slice();
    for (let i = from; i < stop; i++) signatures[i] = blocks[i]!.signature;
    units.clean = { signatures, headerKeys: clean.headerKeys };
  }
  return { root: joined.root, diagnostics: [], aliasCount: 0, hasDateTimes: joined.hasDateTimes };
}

/**
 * The blockwise parse, or null for a whole one. Nothing of an earlier document changes unless
 * the result has a tree: a caller may keep the last document with a tree while the text has an
 * error (the language server does), so only then are the previous document's block trees moved;
 * trees that came through a document with an error (owned by an older one) are copied.
 */
function parseTomlBlockwise(
  input: ReadInput<TomlUnits>,
  blocks: TomlBlock[],
  clean: TomlClean,
  previousDocument: PreviousRead<TomlUnits>,
  oldIndex: OldIndex,
): ParsedFragment | null {
  const { body, bom: base, store, work } = input;
  const units = store.units!;
  const previous = previousDocument.store.units!.blocks!;
  const owner: TomlOwner = { store, groups: [] };
  const parsed = new Map<number, CachedTomlPart>();
  for (let i = 0; i < blocks.length; i++) {
    if (earlierPart(previous, oldIndex(i, blocks[i]!))) continue;
    const block = blocks[i]!;
    const text = body.slice(block.start, block.end);
    const at = base + block.start;
    work.parsed += text.length;
    const result = tomlParser.parseTomlBlock(text, at, i === 0);
    if (!result) return null;
    if ('error' in result) {
      if (!result.syntax || i >= clean.signatures.length) return null;
      const error = blockErrorInContext(input, blocks, i, result);
      if (!error) return null;
      // The error stands for the whole text's only when nothing before it can differ: the parser
      // reports a header that redefines an earlier one where it reads it, so every header it
      // read before the error must be the clean text's. A header the error cuts short was not read.
      for (let j = 1; j < i; j++) {
        const signature = blocks[j]!.signature;
        // Unchanged blocks share the clean text's signature: no slicing of thousands of headers per keystroke.
        if (signature !== clean.signatures[j] && headerLine(signature) !== headerLine(clean.signatures[j]!))
          return null;
      }
      if (i > 0) {
        const read = headerAsRead(text, error.index);
        const cleanHeader = headerLine(clean.signatures[i]!);
        if (read !== null && read !== cleanHeader && headerLine(blocks[i]!.signature) !== cleanHeader) return null;
      }
      units.clean = clean;
      units.blocks = {
        bom: base,
        blocks,
        parts: blocks.map((_, k) => parsed.get(k) ?? earlierPart(previous, oldIndex(k, blocks[k]!))),
        fresh: false,
        lender: lenderOf(previousDocument.store),
      };
      return error.error;
    }
    parsed.set(i, cachedPart(result.part, at, owner));
  }
  const signatures = blocks.length === clean.signatures.length ? clean.signatures : alignedWithClean(blocks, clean);
  if (!signatures) return null;
  let same = signatures === clean.signatures;
  for (let i = 0; i < blocks.length; i++) {
    if (blocks[i]!.signature === signatures[i]) continue;
    if (!onlyNewKeysAdded(blocks[i]!.signature, signatures[i]!, i > 0, clean)) return null;
    same = false;
  }
  // The result has a tree: take the block trees over, those of the last document with a tree too
  // when the previous text had none (that document is not to be used again, and is marked so).
  const lenderStore = previous.lender;
  const lender = lenderStore?.units?.blocks && !lenderStore.units.blocks.lent ? lenderStore.units.blocks : undefined;
  const cachedParts: CachedTomlPart[] = [];
  const parts: TomlPart[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const at = base + blocks[i]!.start;
    let cached = parsed.get(i);
    if (!cached) {
      cached = earlierPart(previous, oldIndex(i, blocks[i]!))!;
      if (cached.owner.store === previousDocument.store || (lender !== undefined && cached.owner === lender.whole)) {
        cached.owner.store.handTreesTo(store);
        moveCachedPart(cached, at);
        cached.owner = owner;
      } else {
        cached = cachedPart(copyTomlPart(cached.part, at - partStart(cached)), at, owner);
      }
    }
    cachedParts.push(cached);
    parts.push(cached.part);
  }
  // The indexes changed: the trees are grouped anew (this document owns them all now).
  owner.groups = groupFrames(cachedParts);
  const joined = tomlParser.joinTomlParts(parts, base, body.length, previous.join ?? lender?.join);
  // The joined nodes are this document's now (moved in place): never join from them twice.
  if (previous.join) previousDocument.store.handTreesTo(store);
  previous.join = undefined;
  if (lender) {
    lender.lent = true;
    lenderStore!.consume();
    lender.join = undefined;
  }
  units.blocks = { bom: base, blocks, parts: cachedParts, fresh: false, join: joined.join, whole: owner };
  units.clean = same ? clean : { signatures: blocks.map((block) => block.signature), headerKeys: clean.headerKeys };
  return {
    root: joined.root,
    diagnostics: [],
    aliasCount: 0,
    hasDateTimes: joined.hasDateTimes,
  };
}

/**
 * The syntax error block `i` has in the whole text, from its error read alone (`alone`), or null
 * when that cannot be told from the block. The parser may look past where it reports an error
 * (over blank lines, after a key's dot or an `=`), so a block that is not the last is read
 * again with the next block's header line after it: an error before that line's last
 * character is what the whole text gives there too. An error on that line's last character
 * may depend on what follows it.
 */
function blockErrorInContext(
  input: ReadInput<TomlUnits>,
  blocks: TomlBlock[],
  i: number,
  alone: { error: ParsedFragment; syntax: boolean; index: number },
): { error: ParsedFragment; index: number } | null {
  if (i === blocks.length - 1) return alone;
  const { body, bom: base, work } = input;
  const block = blocks[i]!;
  const next = blocks[i + 1]!;
  let lineEnd = body.indexOf('\n', next.start);
  if (lineEnd === -1) lineEnd = body.length;
  const extended = body.slice(block.start, lineEnd);
  let last = extended.length - 1;
  while (last >= 0 && /\s/.test(extended.charAt(last))) last--;
  if (last < next.start - block.start) return null;
  work.parsed += extended.length - (next.start - block.start);
  const again = tomlParser.parseTomlBlock(extended, base + block.start, i === 0);
  if (!again || !('error' in again) || !again.syntax || again.index >= last) return null;
  return again;
}
