/**
 * The manifest formatter: consistent indentation, one space after `:` (YAML) and around `=`
 * (TOML), no trailing whitespace, at most one blank line in a row, one final newline, and YAML
 * keys and values in double quotes where single quotes need not be kept (`'web'` → `"web"`). It
 * changes only whitespace outside values and those quotes: every edit replaces spaces and line
 * ends with spaces and line ends, or is a quote change at a single-quoted scalar of the located
 * tree. The result is re-parsed and must have the same value and, once whitespace is removed,
 * the same text as the input with exactly those quote changes (so comments, key order, anchors
 * and aliases are kept), or the formatter falls back to a plan without re-indentation, then
 * without quote changes, and refuses (`ManifestEditError` `mismatch`) when that too would change
 * something. Browser-safe; see docs/decisions.md, "(#37) The formatter".
 */
import type { OffsetEdit } from '../diagnostic.js';
import { detectFormat, ManifestDocument, type ManifestFormat } from '../document/manifest-document.js';
import type { Limits } from '../document/limits.js';
import type { MapNode, SeqNode, ValueNode } from '../document/nodes.js';
import { findExcessiveNesting, offsetPastByteLimit } from '../document/limits.js';
import { ManifestEditError } from './changes.js';
import { openForEdit } from './engine.js';
import { isPlainObject } from './json.js';
import { sameTomlReading } from './toml-whitespace.js';

export interface FormatOptions {
  format?: ManifestFormat;
  filename?: string;
  limits?: Partial<Limits>;
  /** Spaces per YAML nesting level (from `.editorconfig`'s `indent_size`); 2 by default. */
  indentWidth?: number;
  /** A YAML sequence under a key: `indented` under it, or `flush` with it; by default as the file already does, else indented. */
  sequences?: 'indented' | 'flush';
  /**
   * YAML quotes: `double` (the default) writes a one-line single-quoted key or value in double
   * quotes when that needs no escape (`'web'` → `"web"`, `'it''s'` → `"it's"`); `preserve` keeps
   * every quote as written. TOML strings always keep their quotes.
   */
  quotes?: 'double' | 'preserve';
}

export interface FormatResult {
  /** The formatted text (the input itself when it was already formatted). */
  text: string;
  changed: boolean;
  /** The replacements from the input to `text` (whitespace, and quotes: {@link FormatOptions.quotes}), in order, none overlapping. */
  edits: OffsetEdit[];
  /** Whether indentation was left as it was because re-indenting would have changed a value (say, an explicit block scalar indent). */
  indentKept: boolean;
}

/** Thrown inside planning when a construct is outside what the re-indentation handles; the plan without it is used. */
class KeepIndentation extends Error {}

/**
 * Formats a manifest. `source` may be a document already parsed (an editor's), whose whole text
 * is then read. Throws `ManifestEditError`: `unreadable` (the document layer refuses it),
 * `mismatch` (no formatting keeps its meaning).
 */
export function formatManifest(
  source: string | Uint8Array | ManifestDocument,
  options: FormatOptions = {},
): FormatResult {
  return formatManifestCheckedBy('shortcut', source, options);
}

/** {@link formatManifest} with its result checked as `check` says; not in the package's API (tests compare the two checks). */
export function formatManifestCheckedBy(
  check: FormatCheck,
  source: string | Uint8Array | ManifestDocument,
  options: FormatOptions = {},
): FormatResult {
  return formatOpened(
    openForEdit(source, {
      format: options.format ?? detectFormat(options.filename),
      filename: options.filename,
      limits: options.limits,
    }),
    options,
    check,
  );
}

function formatOpened(document: ManifestDocument, options: FormatOptions, check: FormatCheck): FormatResult {
  const text = document.text;
  const width = Math.max(1, Math.min(8, Math.floor(options.indentWidth ?? 2)));
  // With quote changes first, then (should they break something) the same plans without them.
  const attempts: [reindent: boolean, quotes: boolean][] =
    document.format === 'yaml' && options.quotes !== 'preserve'
      ? [
          [true, true],
          [false, true],
          [true, false],
          [false, false],
        ]
      : [
          [true, false],
          [false, false],
        ];
  let lastProblem = '';
  for (const [reindent, quotes] of attempts) {
    let edits: OffsetEdit[];
    try {
      edits = plan(document, width, reindent, options.sequences, quotes);
    } catch (error) {
      if (error instanceof KeepIndentation) continue;
      throw error;
    }
    if (edits.length === 0) return { text, changed: false, edits, indentKept: !reindent };
    const formatted = applyAll(text, edits);
    if (formatted === text) return { text, changed: false, edits: [], indentKept: !reindent };
    const problem = problemOf(document, edits, formatted, check);
    if (problem === undefined) return { text: formatted, changed: true, edits, indentKept: !reindent };
    lastProblem = problem;
  }
  throw new ManifestEditError(
    'mismatch',
    `${options.filename ?? 'the manifest'} was left as it is: formatting it ${lastProblem || 'is not supported'}`,
  );
}

/**
 * How `formatted` is checked: `reparse` always parses it; `shortcut` first tries, for TOML, to
 * show from the two texts alone that it reads as the document does ({@link sameTomlReading}),
 * and parses only when that fails. Both accept and refuse the same texts; tests compare them.
 */
export type FormatCheck = 'shortcut' | 'reparse';

/**
 * What the formatter's check says of `edits` (sorted, not overlapping) on `source`: undefined
 * when they keep the value and change only whitespace and quotes as the formatter may, else the
 * problem. Not in the package's API: tests hold the check to refusing what no plan should make.
 */
export function formattingProblem(
  check: FormatCheck,
  source: string,
  edits: readonly OffsetEdit[],
  options: FormatOptions = {},
): string | undefined {
  const document = openForEdit(source, {
    format: options.format ?? detectFormat(options.filename),
    filename: options.filename,
    limits: options.limits,
  });
  return problemOf(document, edits, applyAll(document.text, edits), check);
}

/**
 * What `formatted` (the text of `document` with `edits`, sorted and not overlapping, applied)
 * would break, or undefined when it keeps the value and changes only whitespace and the quotes
 * of single-quoted scalars ({@link readEdits}).
 */
function problemOf(
  document: ManifestDocument,
  edits: readonly OffsetEdit[],
  formatted: string,
  check: FormatCheck,
): string | undefined {
  const read = readEdits(document, edits);
  if (read === undefined) return 'would change more than whitespace and quotes';
  const { quoteChanges, othersWhitespaceOnly } = read;
  // The TOML shortcut reads strings byte for byte: it is for whitespace changes alone.
  if (
    check === 'shortcut' &&
    document.format === 'toml' &&
    quoteChanges.length === 0 &&
    readsAsTomlDocument(document, formatted)
  )
    return undefined;
  const after = ManifestDocument.parse(formatted, {
    format: document.format,
    filename: document.filename,
    limits: { ...document.limits },
  });
  if (after.diagnostics.some((d) => d.code === 'yaml-syntax' || d.code === 'toml-syntax' || d.code === 'duplicate-key'))
    return 'would break its syntax';
  if (!sameValue(after.value, document.value)) return 'would change a value';
  // Edits that each replace whitespace with whitespace, besides the quote changes, leave the text
  // without whitespace as the quote changes alone make it: only the edits need reading.
  if (check === 'shortcut' && othersWhitespaceOnly) return undefined;
  const expected = quoteChanges.length === 0 ? document.text : applyAll(document.text, quoteChanges);
  if (!sameWithoutWhitespace(formatted, expected)) return 'would change more than whitespace and quotes';
  return undefined;
}

/**
 * The edits read for the check: `quoteChanges`, those that change more than whitespace (`=` →
 * ` = ` does not), when each is a quote change, the span of a single-quoted YAML key or value of
 * `document`'s tree replaced by {@link doubleQuoted}'s form of it; and whether every other edit
 * replaces whitespace with whitespace. Undefined when an edit changes more than whitespace and is
 * no quote change: it would change something else.
 */
function readEdits(
  document: ManifestDocument,
  edits: readonly OffsetEdit[],
): { quoteChanges: OffsetEdit[]; othersWhitespaceOnly: boolean } | undefined {
  const text = document.text;
  const quoteChanges: OffsetEdit[] = [];
  let othersWhitespaceOnly = true;
  let spans: Map<number, number> | undefined;
  for (const edit of edits) {
    if (isWhitespaceOnly(text, edit.start, edit.end) && isWhitespaceOnly(edit.newText, 0, edit.newText.length))
      continue;
    const old = text.slice(edit.start, edit.end);
    if (sameWithoutWhitespace(old, edit.newText)) {
      othersWhitespaceOnly = false;
      continue;
    }
    if (document.format !== 'yaml' || !document.root) return undefined;
    spans ??= singleQuotedSpans(document.root, text);
    if (spans.get(edit.start) !== edit.end || doubleQuoted(old) !== edit.newText) return undefined;
    quoteChanges.push(edit);
  }
  return { quoteChanges, othersWhitespaceOnly };
}

/** Where each single-quoted YAML key and value of the tree starts, and ends: keys written as aliases, merge keys and refused keys left out. */
function singleQuotedSpans(root: ValueNode, text: string): Map<number, number> {
  const spans = new Map<number, number>();
  forEachSingleQuoted(root, text, (start, end) => spans.set(start, end));
  return spans;
}

/** Calls `visit` with the span and the value of each single-quoted YAML key and value string under `root`. */
function forEachSingleQuoted(
  root: ValueNode,
  text: string,
  visit: (start: number, end: number, value: string) => void,
): void {
  forEachNode(root, (node) => {
    if (node.kind === 'scalar') {
      if (node.style === 'quoted' && typeof node.value === 'string' && text.charCodeAt(node.start) === APOSTROPHE)
        visit(node.start, node.end, node.value);
    } else if (node.kind === 'map') {
      for (const entry of node.entries) {
        if (entry.keyAlias !== undefined || entry.keyRefused || entry.merge) continue;
        if (text.charCodeAt(entry.keyStart) === APOSTROPHE) visit(entry.keyStart, entry.keyEnd, entry.key);
      }
    }
  });
}

const APOSTROPHE = 39;

/**
 * A one-line single-quoted YAML scalar (`'it''s'`, quotes included) in double quotes (`"it's"`),
 * when that form needs no escape: its content has no `"`, no `\`, and only characters a
 * double-quoted scalar holds as they are (no control character, tab or line break, no byte-order
 * mark or line separator, no unpaired surrogate). Undefined otherwise, and for a text that is no
 * such scalar.
 */
function doubleQuoted(quoted: string): string | undefined {
  const last = quoted.length - 1;
  if (last < 1 || quoted.charCodeAt(0) !== APOSTROPHE || quoted.charCodeAt(last) !== APOSTROPHE) return undefined;
  let content = '';
  let from = 1;
  for (let at = 1; at < last; at++) {
    const code = quoted.charCodeAt(at);
    if (code === APOSTROPHE) {
      // `''` is one apostrophe; a lone one would have ended the scalar.
      if (at + 1 >= last || quoted.charCodeAt(at + 1) !== APOSTROPHE) return undefined;
      content += quoted.slice(from, at + 1);
      from = at + 2;
      at++;
    } else if (code >= 0xd800 && code <= 0xdbff) {
      const low = quoted.charCodeAt(at + 1);
      if (at + 1 >= last || low < 0xdc00 || low > 0xdfff) return undefined;
      at++;
    } else if (!isPrintableAsIs(code)) {
      return undefined;
    }
  }
  return `"${content}${quoted.slice(from, last)}"`;
}

/** Whether a double-quoted YAML scalar holds this UTF-16 unit as it is, without an escape (a surrogate is read in pairs by the caller). */
function isPrintableAsIs(code: number): boolean {
  if (code < 0x20 || code === 0x22 /* " */ || code === 0x5c /* \ */) return false;
  if (code >= 0x7f && code < 0xa0) return false;
  return code !== 0xfeff && code !== 0x2028 && code !== 0x2029 && (code < 0xdc00 || code > 0xdfff);
}

function isWhitespaceOnly(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) if (!isWhitespace(text.charCodeAt(at))) return false;
  return true;
}

/**
 * Whether the TOML `formatted` reads as `document` (which the document layer read without
 * errors) without parsing it: within the limits the document layer checks on raw text (size,
 * nesting), and the same reading by {@link sameTomlReading}.
 */
function readsAsTomlDocument(document: ManifestDocument, formatted: string): boolean {
  const limits = document.limits;
  if (offsetPastByteLimit(formatted, limits.maxBytes) !== -1) return false;
  const body = formatted.charCodeAt(0) === 0xfeff ? formatted.slice(1) : formatted;
  if (findExcessiveNesting(body, 'toml', limits.maxDepth) !== -1) return false;
  return sameTomlReading(document.text, formatted);
}

function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** Whether two texts are equal once spaces, tabs and line ends are removed (compared in place, without copies). */
function sameWithoutWhitespace(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && isWhitespace(a.charCodeAt(i))) i++;
    while (j < b.length && isWhitespace(b.charCodeAt(j))) j++;
    if (i === a.length || j === b.length) return i === a.length && j === b.length;
    if (a.charCodeAt(i) !== b.charCodeAt(j)) return false;
    i++;
    j++;
  }
}

/**
 * Whether two plain values are the same, keys in the same order (a formatter moves no key); a
 * class instance (a TOML date-time) by its class and JSON form. Stricter than `deepEqual`, and
 * without its copies: on a large file the check is a good part of the formatter's time.
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (!isPlainObject(a)) return JSON.stringify(a) === JSON.stringify(b);
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i++) {
    const key = keysA[i]!;
    if (key !== keysB[i] || !sameValue(a[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

function applyAll(text: string, edits: readonly OffsetEdit[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const edit of edits) {
    parts.push(text.slice(at, edit.start), edit.newText);
    at = edit.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

// ---- the plan -------------------------------------------------------------------------------

interface Lines {
  /** Offset of each line's first character: on the first line, the one after a byte-order mark. */
  starts: number[];
  /** Offset of each line's end (before `\r\n` or `\n`). */
  ends: number[];
}

/** The length of the byte-order mark `text` starts with: 1, or 0 without one. */
function markLength(text: string): number {
  return text.charCodeAt(0) === 0xfeff ? 1 : 0;
}

/**
 * The lines of `text`. A byte-order mark is no part of the first line: the file is planned as it
 * would be without it (its first key at column 0), and no edit reaches the mark, which is kept.
 */
function linesOf(text: string): Lines {
  const starts = [markLength(text)];
  const ends: number[] = [];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    ends.push(i > 0 && text.charCodeAt(i - 1) === 13 ? i - 1 : i);
    starts.push(i + 1);
  }
  ends.push(text.length);
  return { starts, ends };
}

function lineAt(lines: Lines, offset: number): number {
  let low = 0;
  let high = lines.starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lines.starts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

const UNSET = -1;

/** Per line, what the plan knows: its new indentation, the shift of its indentation, whether it lies in a value. */
class LinePlan {
  readonly target: Int32Array;
  readonly delta: Int32Array;
  readonly shifted: Uint8Array;
  /** 1: the line starts inside a multi-line scalar; 2: and its indentation is content (TOML), never touched. */
  readonly inValue: Uint8Array;
  /** The line's end lies inside a scalar: its trailing whitespace may be content. */
  readonly endInValue: Uint8Array;
  constructor(count: number) {
    this.target = new Int32Array(count).fill(UNSET);
    this.delta = new Int32Array(count);
    this.shifted = new Uint8Array(count);
    this.inValue = new Uint8Array(count);
    this.endInValue = new Uint8Array(count);
  }
  paint(from: number, to: number, delta: number): void {
    for (let line = from; line <= to; line++) {
      this.delta[line] = delta;
      this.shifted[line] = 1;
    }
  }
}

function plan(
  document: ManifestDocument,
  width: number,
  reindent: boolean,
  sequences: FormatOptions['sequences'],
  quotes: boolean,
): OffsetEdit[] {
  const text = document.text;
  const lines = linesOf(text);
  const count = lines.starts.length;
  const linePlan = new LinePlan(count);
  const inline: OffsetEdit[] = [];
  const root = document.root;
  if (root) markValues(root, text, lines, linePlan, document.format);
  if (document.format === 'yaml') {
    if (root && reindent) {
      if (root.kind !== 'map' || root.flow) throw new KeepIndentation();
      const flush = sequences ? sequences === 'flush' : sequenceStyleOf(root, text, lines) === 'flush';
      new YamlIndenter(text, lines, linePlan, width, flush).map(root, 0);
    }
    if (root) yamlColons(root, text, inline, reindent);
    if (root && quotes) yamlQuotes(root, text, inline);
  } else if (root) {
    tomlEquals(root, text, inline, lines, linePlan);
  }
  const edits: OffsetEdit[] = [];
  let inlineAt = 0;
  let blankRun = 0;
  let lastKept = -1;
  // In TOML, `shifted` marks the lines inside an array or inline table spanning lines: they keep their indentation.
  const isTomlIndented = (line: number): boolean => document.format === 'toml' && linePlan.shifted[line] === 1;
  for (let line = 0; line < count; line++) {
    const start = lines.starts[line]!;
    const end = lines.ends[line]!;
    let contentStart = start;
    let tab = false;
    for (
      let code = text.charCodeAt(contentStart);
      contentStart < end && (code === 32 || code === 9);
      code = text.charCodeAt(++contentStart)
    )
      tab ||= code === 9;
    const blank = contentStart === end;
    if (blank && linePlan.inValue[line] === 0) {
      blankRun++;
      // At most one blank line in a row, none at the start: the line and its line end go.
      if (blankRun > 1 || lastKept === -1) {
        edits.push({ start, end: lines.starts[line + 1] ?? end, newText: '' });
        continue;
      }
      if (end > start) edits.push({ start, end, newText: '' });
      continue;
    }
    blankRun = 0;
    lastKept = line;
    // Indentation.
    if (linePlan.inValue[line] !== 2 && !blank) {
      const old = contentStart - start;
      let indent = old;
      if (document.format === 'yaml') {
        if (reindent) indent = newIndent(line, old, text, lines, linePlan);
      } else if (!isTomlIndented(line) && linePlan.inValue[line] === 0) {
        indent = 0;
      }
      if (indent !== old || tab) edits.push({ start, end: contentStart, newText: ' '.repeat(Math.max(0, indent)) });
    }
    // In-line spacing on this line.
    while (inlineAt < inline.length && inline[inlineAt]!.start < end) {
      if (inline[inlineAt]!.start >= contentStart) edits.push(inline[inlineAt]!);
      inlineAt++;
    }
    // Trailing whitespace, unless the line ends inside a value.
    if (linePlan.endInValue[line] === 0) {
      let trail = end;
      while (trail > contentStart && (text.charCodeAt(trail - 1) === 32 || text.charCodeAt(trail - 1) === 9)) trail--;
      if (trail < end) edits.push({ start: trail, end, newText: '' });
    }
  }
  // One final newline: blank lines at the end go, a missing line end is added.
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const textStart = lines.starts[0]!;
  if (lastKept === -1) return text.length === textStart ? [] : [{ start: textStart, end: text.length, newText: '' }];
  const lastEnd = lines.ends[lastKept]!;
  if (linePlan.endInValue[lastKept] === 0) {
    while (edits.length > 0 && edits[edits.length - 1]!.start >= lastEnd) edits.pop();
    if (text.slice(lastEnd) !== eol) edits.push({ start: lastEnd, end: text.length, newText: eol });
  } else if (lastKept === count - 1 && lastEnd === text.length) {
    edits.push({ start: text.length, end: text.length, newText: eol });
  }
  return mergeSorted(edits);
}

function mergeSorted(edits: OffsetEdit[]): OffsetEdit[] {
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: OffsetEdit[] = [];
  for (const edit of edits) {
    const last = out[out.length - 1];
    if (last && edit.start < last.end) continue; // never overlap: the first planned wins
    if (edit.start === edit.end && edit.newText === '') continue;
    out.push(edit);
  }
  return out;
}

/** Marks the lines that start or end inside a scalar spanning lines. */
function markValues(node: ValueNode, text: string, lines: Lines, linePlan: LinePlan, format: ManifestFormat): void {
  forEachNode(node, (current) => {
    if (current.kind !== 'scalar' || current.end <= current.start) return;
    const first = lineAt(lines, current.start);
    const last = lineAt(lines, current.end);
    if (last === first) return;
    for (let line = first; line < last; line++) linePlan.endInValue[line] = 1;
    for (let line = first + 1; line <= last; line++) {
      if (lines.starts[line]! >= current.end) break;
      linePlan.inValue[line] = format === 'toml' ? 2 : 1;
    }
    if (current.end > lines.ends[last]!) linePlan.endInValue[last] = 1;
  });
}

/**
 * Calls `visit` on `root` and every node under it, depth-first, each before the nodes under it.
 * The walk never enters an alias's target: it meets each node once.
 */
function forEachNode(root: ValueNode, visit: (node: ValueNode) => void): void {
  const stack: ValueNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'map') for (const entry of node.entries) stack.push(entry.value);
    else if (node.kind === 'seq') for (const item of node.items) stack.push(item);
    visit(node);
  }
}

function newIndent(line: number, old: number, text: string, lines: Lines, linePlan: LinePlan): number {
  if (linePlan.target[line] !== UNSET) return linePlan.target[line]!;
  const first = text.charCodeAt(lines.starts[line]! + old);
  if (first === 35 /* # */ && linePlan.inValue[line] === 0) {
    // A comment goes with the next line at its indentation, else the previous one, else shifts with its place.
    for (const step of [1, -1]) {
      for (let other = line + step; other >= 0 && other < lines.starts.length; other += step) {
        const indent = indentationOf(text, lines, other);
        if (indent === undefined || text.charCodeAt(lines.starts[other]! + indent) === 35) continue;
        if (indent === old && linePlan.target[other] !== UNSET) return linePlan.target[other]!;
        break;
      }
    }
  }
  return linePlan.shifted[line] ? Math.max(0, old + linePlan.delta[line]!) : old;
}

/** The indentation of a line with content, or undefined for a blank line. */
function indentationOf(text: string, lines: Lines, line: number): number | undefined {
  const start = lines.starts[line]!;
  const end = lines.ends[line]!;
  let at = start;
  while (at < end && text.charCodeAt(at) === 32) at++;
  return at === end ? undefined : at - start;
}

/** `flush` when the file's first sequence under a key on its own lines starts at the key's column. */
function sequenceStyleOf(root: MapNode, text: string, lines: Lines): 'flush' | 'indented' {
  const stack: ValueNode[] = [root];
  for (let next = 0; next < stack.length; next++) {
    const node = stack[next]!;
    if (node.kind === 'map' && !node.flow) {
      for (const entry of node.entries) {
        const value = entry.value;
        if (
          value.kind === 'seq' &&
          !value.flow &&
          value.items.length > 0 &&
          lineAt(lines, value.start) > lineAt(lines, entry.keyStart)
        ) {
          const dash = dashBefore(text, value.items[0]!.start);
          if (dash !== undefined)
            return columnOf(lines, dash) === columnOf(lines, entry.keyStart) ? 'flush' : 'indented';
        }
        stack.push(value);
      }
    } else if (node.kind === 'seq' && !node.flow) {
      stack.push(...node.items);
    }
  }
  return 'indented';
}

function columnOf(lines: Lines, offset: number): number {
  return offset - lines.starts[lineAt(lines, offset)]!;
}

/** The `-` of a block sequence item whose value starts at `start`. */
function dashBefore(text: string, start: number): number | undefined {
  let at = start - 1;
  while (at >= 0 && (text.charCodeAt(at) === 32 || text.charCodeAt(at) === 10 || text.charCodeAt(at) === 13)) at--;
  return text.charCodeAt(at) === 45 ? at : undefined;
}

function firstOnLine(text: string, lines: Lines, offset: number): boolean {
  const start = lines.starts[lineAt(lines, offset)]!;
  for (let at = start; at < offset; at++) if (text.charCodeAt(at) !== 32) return false;
  return true;
}

/** Plans the new indentation of a YAML file's block collections, outermost first. */
class YamlIndenter {
  constructor(
    private readonly text: string,
    private readonly lines: Lines,
    private readonly linePlan: LinePlan,
    private readonly width: number,
    private readonly flush: boolean,
  ) {}

  map(map: MapNode, indent: number): void {
    if (map.entries.length === 0) return;
    const column = columnOf(this.lines, map.entries[0]!.keyStart);
    this.linePlan.paint(lineAt(this.lines, map.entries[0]!.keyStart), lineAt(this.lines, map.end), indent - column);
    for (const entry of map.entries) {
      if (entry.keyAlias !== undefined) throw new KeepIndentation();
      if (columnOf(this.lines, entry.keyStart) !== column) throw new KeepIndentation();
      const keyLine = lineAt(this.lines, entry.keyStart);
      if (firstOnLine(this.text, this.lines, entry.keyStart)) this.linePlan.target[keyLine] = indent;
      this.value(entry.value, keyLine, indent, true);
    }
  }

  seq(seq: SeqNode, indent: number): void {
    if (seq.items.length === 0) return;
    const firstDash = dashBefore(this.text, seq.items[0]!.start);
    if (firstDash === undefined) throw new KeepIndentation();
    const column = columnOf(this.lines, firstDash);
    this.linePlan.paint(lineAt(this.lines, firstDash), lineAt(this.lines, seq.end), indent - column);
    for (const item of seq.items) {
      const dash = dashBefore(this.text, item.start);
      if (dash === undefined || columnOf(this.lines, dash) !== column) throw new KeepIndentation();
      const dashLine = lineAt(this.lines, dash);
      if (firstOnLine(this.text, this.lines, dash)) this.linePlan.target[dashLine] = indent;
      this.value(item, dashLine, indent, false);
    }
  }

  /** A value whose key (or dash) is on `ownerLine` at the new column `indent`. */
  private value(value: ValueNode, ownerLine: number, indent: number, underKey: boolean): void {
    if (value.kind === 'scalar' && value.style === 'block')
      this.blockScalar(value, ownerLine, underKey ? indent + this.width : indent + 2);
    if (value.kind !== 'map' && value.kind !== 'seq') return;
    if (value.flow) return;
    const sameLine = lineAt(this.lines, value.start) === ownerLine;
    if (value.kind === 'map') {
      if (sameLine && underKey) throw new KeepIndentation();
      // `- key: value`: the keys follow the dash and one space.
      this.map(value, sameLine ? indent + 2 : indent + this.width);
    } else {
      if (sameLine) throw new KeepIndentation();
      this.seq(value, underKey && this.flush ? indent : indent + this.width);
    }
  }

  /** A block scalar's lines move together so that its text starts at `indent`, unless its header fixes the indentation (`|2`). */
  private blockScalar(scalar: { start: number; end: number }, ownerLine: number, indent: number): void {
    if (lineAt(this.lines, scalar.start) !== ownerLine) return;
    const headerEnd = this.lines.ends[ownerLine]!;
    if (/[0-9]/.test(this.text.slice(scalar.start, headerEnd).replace(/#.*$/, ''))) return;
    const last = lineAt(this.lines, Math.max(scalar.start, scalar.end - 1));
    for (let line = ownerLine + 1; line <= last; line++) {
      const old = indentationOf(this.text, this.lines, line);
      if (old === undefined) continue;
      this.linePlan.paint(ownerLine + 1, last, indent - old);
      return;
    }
  }
}

/** `key:   value` → `key: value`, `key :` → `key:`, `-   item` → `- item`. */
function yamlColons(root: ValueNode, text: string, out: OffsetEdit[], reindent: boolean): void {
  forEachNode(root, (node) => {
    if (node.kind === 'map') {
      for (const entry of node.entries) {
        const value = entry.value;
        if (
          entry.keyAlias !== undefined ||
          value.start <= entry.keyEnd ||
          (value.kind === 'scalar' && value.start === value.end)
        )
          continue;
        // Already `key: value`: nothing to read further.
        if (
          value.start === entry.keyEnd + 2 &&
          text.charCodeAt(entry.keyEnd) === 58 &&
          text.charCodeAt(entry.keyEnd + 1) === 32
        )
          continue;
        const between = text.slice(entry.keyEnd, value.start);
        if (/^[ \t]*:[ \t]+$/.test(between)) out.push({ start: entry.keyEnd, end: value.start, newText: ': ' });
      }
    } else if (node.kind === 'seq' && !node.flow) {
      for (const item of node.items) {
        const dash = dashBefore(text, item.start);
        if (dash === undefined || (item.kind === 'scalar' && item.start === item.end) || item.start === dash + 2)
          continue;
        const between = text.slice(dash + 1, item.start);
        // A block collection item's later lines align with its first: only re-indentation (of a map) moves them with it.
        const aligned = (item.kind === 'map' || item.kind === 'seq') && !item.flow;
        if (/^[ \t]+$/.test(between) && between !== ' ' && (!aligned || (reindent && item.kind === 'map')))
          out.push({ start: dash + 1, end: item.start, newText: ' ' });
      }
    }
  });
  out.sort((a, b) => a.start - b.start);
}

/** `'web'` → `"web"`: each one-line single-quoted key and value whose double-quoted form needs no escape ({@link doubleQuoted}). */
function yamlQuotes(root: ValueNode, text: string, out: OffsetEdit[]): void {
  forEachSingleQuoted(root, text, (start, end, value) => {
    const newText = doubleQuoted(text.slice(start, end));
    if (newText !== undefined && newText.slice(1, -1) === value) out.push({ start, end, newText });
  });
  out.sort((a, b) => a.start - b.start);
}

/** `key   =   value` → `key = value`; marks the lines inside an array or inline table that spans lines. */
function tomlEquals(root: ValueNode, text: string, out: OffsetEdit[], lines: Lines, linePlan: LinePlan): void {
  forEachNode(root, (node) => {
    if (node.kind === 'map') {
      for (const entry of node.entries) {
        if (entry.value.start <= entry.keyEnd) continue;
        if (isUnevenEquals(text, entry.keyEnd, entry.value.start))
          out.push({ start: entry.keyEnd, end: entry.value.start, newText: ' = ' });
      }
    }
    if (node.kind !== 'scalar' && node.kind !== 'alias' && node.flow) {
      const first = lineAt(lines, node.start);
      const last = lineAt(lines, node.end);
      if (last > first) linePlan.paint(first + 1, last, 0);
    }
  });
  out.sort((a, b) => a.start - b.start);
}

/** Whether `text[start, end)` is one `=` with only spaces and tabs around it, other than ` = ` (read in place: it runs once per key). */
function isUnevenEquals(text: string, start: number, end: number): boolean {
  if (
    end - start === 3 &&
    text.charCodeAt(start) === 32 &&
    text.charCodeAt(start + 1) === 61 &&
    text.charCodeAt(start + 2) === 32
  )
    return false;
  let equals = 0;
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code === 61) equals++;
    else if (code !== 32 && code !== 9) return false;
  }
  return equals === 1;
}

/**
 * The formatting edits that lie in `range` (offsets; whole lines from the range's first), when
 * applying only them keeps the value and changes only whitespace; else those of them that do
 * not re-indent, checked the same way; else none. For an editor's "format selection".
 */
export function formatManifestRange(
  text: string,
  range: { start: number; end: number },
  options: FormatOptions = {},
): OffsetEdit[] {
  return formatManifestRangeCheckedBy('shortcut', text, range, options);
}

/** {@link formatManifestRange} with each candidate checked as `check` says; not in the package's API. */
export function formatManifestRangeCheckedBy(
  check: FormatCheck,
  text: string,
  range: { start: number; end: number },
  options: FormatOptions = {},
): OffsetEdit[] {
  const document = openForEdit(text, {
    format: options.format ?? detectFormat(options.filename),
    filename: options.filename,
    limits: options.limits,
  });
  const full = formatOpened(document, options, check);
  if (!full.changed) return [];
  // (`lastIndexOf` reads a negative position as 0: a range from 0 would start after a `\n` there.)
  const lineStart = range.start <= 0 ? 0 : text.lastIndexOf('\n', range.start - 1) + 1;
  const inside = full.edits.filter((edit) => edit.start >= lineStart && edit.end <= range.end);
  // All of them: the formatter has checked them together already.
  if (inside.length === full.edits.length) return inside;
  const keeps = (edits: readonly OffsetEdit[]): boolean =>
    edits.length === 0 || problemOf(document, edits, applyAll(text, edits), check) === undefined;
  if (keeps(inside)) return inside;
  const atLineStart = (edit: OffsetEdit): boolean =>
    edit.start === markLength(text) || text.charCodeAt(edit.start - 1) === 10;
  const notIndentation = inside.filter(
    (edit) =>
      !(
        atLineStart(edit) &&
        /^ *$/.test(edit.newText) &&
        edit.end > edit.start &&
        !text.slice(edit.start, edit.end).includes('\n')
      ),
  );
  return keeps(notIndentation) ? notIndentation : [];
}
