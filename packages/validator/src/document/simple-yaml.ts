/**
 * A reader for the plain YAML most manifests are written in, that builds the located tree
 * without the `yaml` library, or declines. `parseYamlFragment` tries it first and gives the
 * text to the library when it declines.
 *
 * Why a second reader: the `yaml` library's lexer, parser and composer are generators that run
 * cold in V8's interpreter on a one-shot CLI run; they were most of `svc-manifest validate`'s
 * cost over a bare `node` (issue #17). This reader is a line loop.
 *
 * Why it cannot read a file differently: it accepts only block mappings and block sequences of
 * single-line scalars (plain, quoted without escapes, or a one-line flow sequence of those), with
 * comments and blank lines, indented with spaces; anything else (anchors, tags, block and
 * multi-line scalars, flow mappings, escapes, tabs, a CR outside CRLF, odd indentation, keys that are not simple
 * names, document markers, anything the library would report) makes it decline, not guess. On
 * what it accepts it gives exactly the library's tree: values by the YAML 1.2 core schema, and
 * the library's offsets, down to where a collection ends among trailing comments. A property test
 * (simple-yaml.test.ts) compares the two on generated documents and on every fixture.
 */

import type { RawDiagnostic } from '../diagnostic.js';
import {
  escapePointerSegment,
  Frame,
  mapEntry,
  mapNode,
  scalarNode,
  seqNode,
  type MapEntry,
  type ScalarValue,
  type ValueNode,
} from './nodes.js';
import { checkMapKeys, type ParsedFragment } from './tree-builder.js';
import { startsDirectiveOrMarker } from './yaml-scan.js';

/** Nesting deeper than this is left to the library path (and its depth checks). */
const MAX_DEPTH = 64;
/** The library refuses implicit keys over 1024 characters; long keys are left to it, with a margin. */
const MAX_KEY_LENGTH = 1000;

const BLANK = 0;
const COMMENT = 1;
const CONTENT = 2;

/** A key this reader accepts: a name that the core schema reads as a string (checked after). */
const KEY = /[A-Za-z0-9_$][A-Za-z0-9_$./+@-]*/y;
/** White space that JavaScript's `trim` takes and YAML's flow separators do not: anything but a space. */
const WHITE_SPACE_BUT_SPACE = /[^\S ]/;
/** An item of a one-line flow sequence: plain text without flow indicators or anything that needs more than a line loop. */
const FLOW_ITEM =
  /^[^\s,[\]{}#:?&*!|>'"%@`-][^,[\]{}#:?&*!|>'"%@`]*$|^-[^\s,[\]{}#:?&*!|>'"%@`][^,[\]{}#:?&*!|>'"%@`]*$/;

class Decline extends Error {}

/**
 * What a block node read: the node, its last content line, whether it ended on an empty value;
 * for a collection, where it ends with the comment lines after it that are its own (`tail`), and
 * the comment after its last line that no collection has taken yet (`pending`, see collectionEnd).
 */
interface Read {
  node: ValueNode;
  lastLine: number;
  endsEmpty: boolean;
  tail?: number;
  pending?: PendingComment | null;
}

/** The comment lines after a collection's last content that no collection holds yet: their deepest column, and where the one that takes them ends. */
interface PendingComment {
  deepest: number;
  tailEnd: number;
}

/**
 * The located tree of `text` (offsets plus `base`), with duplicate-key diagnostics, or null when
 * the text is not plain YAML this reader takes (see the module comment).
 */
export function readSimpleYaml(
  text: string,
  base: number,
  pointerPrefix: string,
  skipRootKeyCheck: boolean,
): (ParsedFragment & { frame: Frame }) | null {
  if (!hasOnlySimpleCharacters(text)) return null;
  try {
    return new SimpleYamlReader(text, base, skipRootKeyCheck).read(pointerPrefix);
  } catch (error) {
    if (error instanceof Decline) return null;
    throw error;
  }
}

/**
 * Printable characters and line breaks only: no tab, control or other line-break character, no
 * byte-order mark, no lone surrogate (a pair, a character beyond U+FFFF, is printable); CR
 * only in a CRLF line break.
 */
function hasOnlySimpleCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) continue;
    if (c === 0x0a) continue;
    // CR only as the first half of a CRLF line break.
    if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) continue;
    if (c >= 0xa0 && c < 0xd800 && c !== 0x2028 && c !== 0x2029) continue;
    if (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff) continue;
    if (c >= 0xd800 && c < 0xdc00) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low < 0xe000) {
        i++;
        continue;
      }
    }
    return false;
  }
  return true;
}

class SimpleYamlReader {
  private readonly frame: Frame;
  private readonly diagnostics: RawDiagnostic[] = [];
  /** Per line: its start, the end of its text (before its `\n` or `\r\n`), its indentation and its kind. */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly indents: number[] = [];
  private readonly kinds: number[] = [];

  constructor(
    private readonly text: string,
    private readonly base: number,
    private readonly skipRootKeyCheck: boolean,
  ) {
    this.frame = new Frame(base);
    let start = 0;
    while (start <= text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const next = end + 1;
      if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
      let indent = 0;
      while (start + indent < end && text.charCodeAt(start + indent) === 0x20) indent++;
      const first = start + indent < end ? text.charCodeAt(start + indent) : -1;
      this.starts.push(start);
      this.ends.push(end);
      this.indents.push(indent);
      this.kinds.push(first === -1 ? BLANK : first === 0x23 ? COMMENT : CONTENT);
      if (first !== -1 && indent === 0 && startsDirectiveOrMarker(text, start)) throw new Decline();
      start = next;
    }
  }

  read(pointer: string): ParsedFragment & { frame: Frame } {
    const first = this.nextContent(0);
    if (first === -1) throw new Decline();
    const read = this.block(first, this.indents[first]!, pointer, 0);
    if (this.nextContent(read.lastLine + 1) !== -1) throw new Decline();
    return { root: read.node, diagnostics: this.diagnostics, aliasCount: 0, frame: this.frame };
  }

  /** The first content line at or after `line`, or -1. */
  private nextContent(line: number): number {
    for (let i = line; i < this.kinds.length; i++) if (this.kinds[i] === CONTENT) return i;
    return -1;
  }

  /** Whether a comment line comes after `line` and before the next content line. */
  private commentFollows(line: number): boolean {
    for (let i = line + 1; i < this.kinds.length && this.kinds[i] !== CONTENT; i++)
      if (this.kinds[i] === COMMENT) return true;
    return false;
  }

  /** Whether a comment line comes between the content line before `line` and it. */
  private commentPrecedes(line: number): boolean {
    for (let i = line - 1; i >= 0 && this.kinds[i] !== CONTENT; i--) if (this.kinds[i] === COMMENT) return true;
    return false;
  }

  private isDash(at: number): boolean {
    const text = this.text;
    if (text.charCodeAt(at) !== 0x2d) return false;
    const next = text.charCodeAt(at + 1);
    return next === 0x20 || next === 0x0a || next === 0x0d || at + 1 === text.length;
  }

  /** The block collection whose first line is `line`, indented `column`. */
  private block(line: number, column: number, pointer: string, depth: number): Read {
    if (depth > MAX_DEPTH) throw new Decline();
    const at = this.starts[line]! + column;
    return this.isDash(at)
      ? this.sequence(line, at, column, pointer, depth)
      : this.mapping(line, at, column, pointer, depth);
  }

  /**
   * Where a collection indented `column` ends (`end`: the library's value end) and with the
   * comment lines that are its own (`tail`), given its last item's value. This follows how the
   * library hands out the comment lines between a last content line and the next content (or the
   * text's end):
   * - those deeper than the innermost collection, right after a one-line value, belong to that
   *   value: the collection ends after them (or at that line's end and newline);
   * - all the others, from the first one on, form one trailing item of the innermost collection;
   *   as each collection closes, the item moves up to its parent when the collection is at column
   *   0 or every comment in it is less indented than the collection. The collection that keeps it
   *   has a tail up to the next content's first character, or the text's end;
   * - a collection ends where its last value's tail ends; after an empty value, at that value
   *   (comment lines there are declined before this).
   */
  private collectionEnd(
    lastLine: number,
    column: number,
    last: Read,
  ): { end: number; tail: number; pending: PendingComment | null } {
    if (last.endsEmpty) {
      if (last.tail! < 0) throw new Decline();
      return { end: last.tail!, tail: last.tail!, pending: null };
    }
    let end: number;
    let pending: PendingComment | null = null;
    if (last.tail !== undefined) {
      end = last.tail;
      pending = last.pending ?? null;
    } else {
      end = this.base + this.lineEndWithBreak(lastLine);
      for (let i = lastLine + 1; i < this.kinds.length; i++) {
        const kind = this.kinds[i];
        if (kind === BLANK) continue;
        if (kind === CONTENT) break;
        if (this.indents[i]! <= column) {
          pending = this.trailingItem(i);
          break;
        }
        end = this.base + this.lineEndWithBreak(i);
      }
    }
    if (pending && column !== 0 && pending.deepest >= column) return { end, tail: pending.tailEnd, pending: null };
    return { end, tail: end, pending };
  }

  /** The trailing item of comment lines that starts at `line`: to the next content line, or the text's end. */
  private trailingItem(line: number): PendingComment {
    let deepest = 0;
    let i = line;
    for (; i < this.kinds.length && this.kinds[i] !== CONTENT; i++)
      if (this.kinds[i] === COMMENT) deepest = Math.max(deepest, this.indents[i]!);
    return {
      deepest,
      tailEnd: this.base + (i < this.kinds.length ? this.starts[i]! + this.indents[i]! : this.text.length),
    };
  }

  private lineEndWithBreak(line: number): number {
    return line + 1 < this.starts.length ? this.starts[line + 1]! : this.text.length;
  }

  private mapping(line: number, at: number, column: number, pointer: string, depth: number): Read {
    const entries: MapEntry[] = [];
    let value: Read;
    const text = this.text;
    for (;;) {
      KEY.lastIndex = at;
      if (!KEY.test(text)) throw new Decline();
      const keyEnd = KEY.lastIndex;
      if (text.charCodeAt(keyEnd) !== 0x3a || keyEnd - at > MAX_KEY_LENGTH) throw new Decline();
      const afterColon = keyEnd + 1;
      const after = text.charCodeAt(afterColon);
      if (afterColon < text.length && after !== 0x20 && after !== 0x0a && after !== 0x0d) throw new Decline();
      const key = text.slice(at, keyEnd);
      if (typeof resolvePlain(key) !== 'string') throw new Decline();
      value = this.valueAfterIndicator(line, afterColon, column, pointer, key, depth);
      entries.push(
        mapEntry(
          this.frame,
          key,
          this.base + at,
          this.base + keyEnd,
          value.node,
          Math.max(this.base + keyEnd, value.node.end),
        ),
      );
      const next = this.nextContent(value.lastLine + 1);
      if (next === -1 || this.indents[next]! < column) break;
      if (this.indents[next]! > column) throw new Decline();
      line = next;
      at = this.starts[next]! + column;
      if (this.isDash(at)) throw new Decline();
    }
    if (!(this.skipRootKeyCheck && pointer === '')) checkMapKeys(entries, pointer, this.diagnostics);
    const { end, tail, pending } = this.collectionEnd(value.lastLine, column, value);
    return {
      node: mapNode(this.frame, entries[0]!.start, end, entries, false),
      lastLine: value.lastLine,
      endsEmpty: value.endsEmpty,
      tail,
      pending,
    };
  }

  private sequence(line: number, at: number, column: number, pointer: string, depth: number): Read {
    const items: ValueNode[] = [];
    const start = this.base + at;
    let value: Read;
    for (;;) {
      value = this.valueAfterIndicator(line, at + 1, column, pointer, items.length, depth);
      items.push(value.node);
      const next = this.nextContent(value.lastLine + 1);
      if (next === -1 || this.indents[next]! < column) break;
      if (this.indents[next]! > column) throw new Decline();
      const nextAt = this.starts[next]! + column;
      // A line at the sequence's column that is not an item ends it: its parent mapping, at the same column, goes on.
      if (!this.isDash(nextAt)) break;
      line = next;
      at = nextAt;
    }
    const { end, tail, pending } = this.collectionEnd(value.lastLine, column, value);
    return {
      node: seqNode(this.frame, start, end, items, false),
      lastLine: value.lastLine,
      endsEmpty: value.endsEmpty,
      tail,
      pending,
    };
  }

  /**
   * The value after a mapping's `:` or a sequence's `-` (at `from`, on `line`), in a collection
   * indented `column`: on the same line, in the lines below, or empty. `segment` is its key (in a
   * mapping) or its index (in a sequence) under `parentPointer`.
   */
  private valueAfterIndicator(
    line: number,
    from: number,
    column: number,
    parentPointer: string,
    segment: string | number,
    depth: number,
  ): Read {
    const inMapping = typeof segment === 'string';
    const text = this.text;
    const lineEnd = this.ends[line]!;
    let at = from;
    while (at < lineEnd && text.charCodeAt(at) === 0x20) at++;
    if (at === lineEnd || (text.charCodeAt(at) === 0x23 && at > from)) {
      const next = this.nextContent(line + 1);
      if (next !== -1) {
        const indent = this.indents[next]!;
        const nextAt = this.starts[next]! + indent;
        if (indent > column || (inMapping && indent === column && this.isDash(nextAt)))
          return this.block(next, indent, childPointer(parentPointer, segment), depth + 1);
      }
      // An empty value followed by comments: the library's offsets there are its own; leave it to it.
      if (this.commentFollows(line)) throw new Decline();
      // A collection that ends on this empty value ends at it; after a comment on its line, or
      // when comment lines come before its line, the library's end takes in the line break that
      // follows: those cases are declined (tail -1).
      const empty = scalarNode(this.frame, this.base + at, this.base + at, null, 'plain');
      const plainEnd = at === lineEnd && !this.commentPrecedes(line);
      return { node: empty, lastLine: line, endsEmpty: true, tail: plainEnd ? this.base + at : -1 };
    }
    if (!inMapping) {
      // `- - x` (a sequence in a sequence's item) is left to the library; `- key: value` opens a mapping at the key.
      if (this.isDash(at)) throw new Decline();
      if (this.startsMappingEntry(at, lineEnd))
        return this.mapping(line, at, at - this.starts[line]!, childPointer(parentPointer, segment), depth + 1);
    }
    const node = this.inlineValue(at, lineEnd);
    this.expectLineRest(node.end - this.base, lineEnd);
    // A deeper line after a one-line value would continue it (or be an error): the library's to read.
    const next = this.nextContent(line + 1);
    if (next !== -1 && this.indents[next]! > column) throw new Decline();
    return { node, lastLine: line, endsEmpty: false };
  }

  /** Whether a compact mapping entry (`key: …`) starts at `at`. */
  private startsMappingEntry(at: number, lineEnd: number): boolean {
    KEY.lastIndex = at;
    if (!KEY.test(this.text)) return false;
    const colon = KEY.lastIndex;
    return this.text.charCodeAt(colon) === 0x3a && (colon + 1 === lineEnd || this.text.charCodeAt(colon + 1) === 0x20);
  }

  /** What may follow a value on its line: spaces, then nothing or a comment. */
  private expectLineRest(from: number, lineEnd: number): void {
    let at = from;
    while (at < lineEnd && this.text.charCodeAt(at) === 0x20) at++;
    if (at < lineEnd && !(this.text.charCodeAt(at) === 0x23 && at > from)) throw new Decline();
  }

  /** A scalar or one-line flow sequence starting at `at`, ending on the line. */
  private inlineValue(at: number, lineEnd: number): ValueNode {
    const text = this.text;
    const first = text.charCodeAt(at);
    if (first === 0x22 || first === 0x27) return this.quoted(at, lineEnd, first);
    if (first === 0x5b) return this.flowSequence(at, lineEnd);
    // A comment starts at ` #`; looked for on this line only (an unbounded search would make the reader quadratic).
    let end = at;
    while (end < lineEnd && !(text.charCodeAt(end) === 0x23 && text.charCodeAt(end - 1) === 0x20)) end++;
    while (end > at && text.charCodeAt(end - 1) === 0x20) end--;
    const source = text.slice(at, end);
    if (!isPlainBlockScalar(source)) throw new Decline();
    return scalarNode(this.frame, this.base + at, this.base + end, resolvePlain(source), 'plain');
  }

  /** `'…'` or `"…"` closed on its line; a double-quoted scalar with a `\` escape is left to the library. */
  private quoted(at: number, lineEnd: number, quote: number): ValueNode {
    const text = this.text;
    let value = '';
    let from = at + 1;
    for (;;) {
      let close = from;
      while (close < lineEnd && text.charCodeAt(close) !== quote) close++;
      if (close === lineEnd) throw new Decline();
      value += text.slice(from, close);
      if (quote === 0x27 && text.charCodeAt(close + 1) === 0x27) {
        value += "'";
        from = close + 2;
        continue;
      }
      if (quote === 0x22 && value.includes('\\')) throw new Decline();
      return scalarNode(this.frame, this.base + at, this.base + close + 1, value, 'quoted');
    }
  }

  /** `[a, b, c]` on one line, of plain scalars. */
  private flowSequence(at: number, lineEnd: number): ValueNode {
    const text = this.text;
    let close = at;
    while (close < lineEnd && text.charCodeAt(close) !== 0x5d) close++;
    if (close === lineEnd) throw new Decline();
    const items: ValueNode[] = [];
    const inner = text.slice(at + 1, close);
    // JavaScript's trim takes more for white space than YAML's space and tab (U+00A0, U+FEFF,
    // U+2028…): an item holding such a character is left to the library.
    if (WHITE_SPACE_BUT_SPACE.test(inner)) throw new Decline();
    if (inner.trim() !== '') {
      let from = at + 1;
      for (const part of inner.split(',')) {
        const lead = part.length - part.trimStart().length;
        const source = part.trim();
        if (!FLOW_ITEM.test(source)) throw new Decline();
        const start = from + lead;
        items.push(
          scalarNode(this.frame, this.base + start, this.base + start + source.length, resolvePlain(source), 'plain'),
        );
        from += part.length + 1;
      }
    }
    return seqNode(this.frame, this.base + at, this.base + close + 1, items, true);
  }
}

/**
 * The pointer of a value under `parent` (a key, or an item's index). Only a collection's repeated
 * keys are reported with a pointer, so it is made for collections, not for every scalar.
 */
function childPointer(parent: string, segment: string | number): string {
  return `${parent}/${typeof segment === 'string' ? escapePointerSegment(segment) : segment}`;
}

/**
 * A one-line plain scalar in block context this reader takes: it starts with no indicator (a
 * `-` only before a non-space), and holds no `: ` and no trailing `:` (a nested mapping).
 */
function isPlainBlockScalar(source: string): boolean {
  if (source === '') return false;
  if (STARTS_WITH_INDICATOR.test(source) && !DASH_BEFORE_TEXT.test(source)) return false;
  return !source.includes(': ') && !source.endsWith(':');
}

// The tests below are constants: a regular expression literal in a function body makes a new
// RegExp object each time it is evaluated, and these run for every key and scalar of a file.
const STARTS_WITH_INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`]/;
const DASH_BEFORE_TEXT = /^-[^\s]/;
const CORE_NULL = /^(?:~|[Nn]ull|NULL)?$/;
const CORE_BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const CORE_OCTAL = /^0o[0-7]+$/;
const CORE_INT = /^[-+]?[0-9]+$/;
const CORE_HEX = /^0x[0-9a-fA-F]+$/;
const CORE_INF_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const CORE_EXPONENT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const CORE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** A plain scalar's value by the YAML 1.2 core schema, tested in the order the `yaml` library tests its tags. */
export function resolvePlain(source: string): ScalarValue {
  if (CORE_NULL.test(source)) return null;
  if (CORE_BOOL.test(source)) return source[0] === 't' || source[0] === 'T';
  if (CORE_OCTAL.test(source)) return parseInt(source.slice(2), 8);
  if (CORE_INT.test(source)) return parseInt(source, 10);
  if (CORE_HEX.test(source)) return parseInt(source.slice(2), 16);
  if (CORE_INF_NAN.test(source)) {
    if (source.slice(-3).toLowerCase() === 'nan') return NaN;
    return source[0] === '-' ? -Infinity : Infinity;
  }
  if (CORE_EXPONENT.test(source)) return parseFloat(source);
  if (CORE_FLOAT.test(source)) return parseFloat(source);
  return source;
}
