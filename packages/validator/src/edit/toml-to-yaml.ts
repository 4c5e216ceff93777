/**
 * TOML → YAML with the same data and every comment carried along: the one place where the
 * engine writes a whole document rather than splicing one, because the format itself changes.
 *
 * The YAML is written from the validator's located TOML tree, in the tree's order. Comments
 * come from the TOML parser and are attached by line: a comment on its own line goes before
 * the first entry written from the next line that holds one (a key, a table header, an item
 * of an array of tables or of a multi-line array), at that entry's indentation; a comment
 * after a value stays at the end of that entry's line. Blank lines before entries and
 * comments are kept; CRLF line ends and a byte-order mark are kept.
 *
 * Scalars are written so YAML 1.2 and YAML 1.1 readers read the same value: a string is plain
 * only when it starts with a letter or `_`, holds only letters, digits, spaces and `_ . / @ + -`
 * and is not one of 1.1's booleans or nulls (`yes`, `no`, `on`, `off`, `y`, `n`, `~`, …); every
 * other string (numbers, `1:20`, dates, URLs) is double-quoted. TOML dates and times are
 * strings of their text in the validator's reading, and stay quoted strings. Floats keep a
 * `.` (1.1 reads `1e3` as a string); `inf`/`nan` become `.inf`/`.nan`.
 *
 * The result is parsed again and must mean exactly the TOML's value (see {@link tomlToYaml}).
 */
import { ManifestDocument } from '../document/manifest-document.js';
import type { MapEntry, MapNode, ScalarNode, SeqNode, ValueNode } from '../document/nodes.js';
import { ManifestEditError } from './changes.js';
import { openForEdit, type EditOptions } from './engine.js';
import { canonicalJson, deepEqual } from './json.js';
import { TextLines } from './text-lines.js';
import { readsAsNonString } from './yaml-render.js';
import { severityOfReported } from '../reported-elsewhere.js';
import { parseTOML } from 'toml-eslint-parser';
import { TOML_PARSER_OPTIONS } from '../document/toml-version.js';

export interface ConvertedManifest {
  /** The YAML text. */
  text: string;
  /** The YAML, parsed by the validator. */
  document: ManifestDocument;
  /** Its plain value: exactly the TOML's. */
  value: unknown;
}

const INDENT = 2;

const PLAIN = /^[A-Za-z_](?:[A-Za-z0-9_ ./@+-]*[A-Za-z0-9_./@+-])?$/;
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_./@+-]*$/;

/** A string as a YAML scalar both YAML 1.1 and 1.2 read as that string. */
export function yamlString(text: string, key = false): string {
  if ((key ? PLAIN_KEY : PLAIN).test(text) && !readsAsNonString(text)) return text;
  // JSON's escapes are YAML's; characters YAML does not allow unescaped (DEL, C1 controls,
  // U+FFFE/U+FFFF, lone surrogates) are escaped too.
  return JSON.stringify(text).replace(
    /[\u007f-\u009f\u2028\u2029\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** A number as YAML both versions read as that number (floats keep their `.`). */
function yamlNumber(value: number, float: boolean): string {
  if (Number.isNaN(value)) return '.nan';
  if (value === Number.POSITIVE_INFINITY) return '.inf';
  if (value === Number.NEGATIVE_INFINITY) return '-.inf';
  const text = String(value);
  if (!float) return text;
  const exponent = /^(-?[0-9.]+)e([+-])([0-9]+)$/.exec(text);
  if (exponent) return `${exponent[1]!.includes('.') ? exponent[1] : `${exponent[1]}.0`}e${exponent[2]}${exponent[3]}`;
  return text.includes('.') ? text : `${text}.0`;
}

interface Attached {
  /** Own-line comments before the entry, each with whether a blank line precedes it. */
  leading: { text: string; blank: boolean }[];
  trailing: string[];
  /** A blank line before the entry's own line (after its leading comments). */
  blank: boolean;
}

type Anchor = MapEntry | ValueNode;

class Converter {
  readonly lines: TextLines;
  readonly attached = new Map<Anchor, Attached>();
  readonly endComments: { text: string; blank: boolean }[] = [];
  /** Own-line comments after the last item of a multi-line array, before its `]`: written after that item. */
  readonly after = new Map<ValueNode, { text: string; blank: boolean }[]>();
  /** Multi-line arrays, for placing the comments before their closing bracket. */
  private readonly arrays: SeqNode[] = [];
  private readonly out: string[] = [];

  constructor(
    readonly text: string,
    readonly root: MapNode,
    readonly comments: { start: number; text: string }[],
  ) {
    this.lines = new TextLines(text);
  }

  /** A line is blank when it holds only whitespace. */
  private blankLineBefore(offset: number): boolean {
    const start = this.lines.lineStartOf(offset);
    if (start === 0) return false;
    const previous = this.lines.lineStartOf(start - 1);
    return /^[ \t\r\n\uFEFF]*$/.test(this.text.slice(previous, start));
  }

  /** Block anchors in emission order. */
  private collect(): Anchor[] {
    const anchors: Anchor[] = [];
    const visitValue = (node: ValueNode, depth: number): void => {
      if (depth > 128) throw new ManifestEditError('unsupported', 'the TOML document is nested too deeply to convert');
      if (node.kind === 'map' && !node.flow) {
        for (const entry of node.entries) {
          if (entry.ignored) continue;
          anchors.push(entry);
          visitValue(entry.value, depth + 1);
        }
      } else if (node.kind === 'seq' && this.isBlockSeq(node)) {
        if (node.flow) this.arrays.push(node);
        for (const item of node.items) {
          anchors.push(item);
          visitValue(item, depth + 1);
        }
      }
    };
    visitValue(this.root, 0);
    return anchors;
  }

  /** Arrays of tables, and arrays written over several lines, become block sequences. */
  isBlockSeq(node: SeqNode): boolean {
    if (node.items.length === 0) return false;
    if (!node.flow) return true;
    return this.lines.lineStartOf(node.start) !== this.lines.lineStartOf(node.end);
  }

  anchorOffset(anchor: Anchor): number {
    return 'keyStart' in anchor ? anchor.keyStart : anchor.start;
  }

  attach(): void {
    const anchors = this.collect();
    const byLine = new Map<number, Anchor[]>();
    const lineStarts: number[] = [];
    for (const anchor of anchors) {
      const start = this.lines.lineStartOf(this.anchorOffset(anchor));
      let list = byLine.get(start);
      if (!list) {
        byLine.set(start, (list = []));
        lineStarts.push(start);
      }
      list.push(anchor);
      this.attached.set(anchor, { leading: [], trailing: [], blank: false });
    }
    lineStarts.sort((a, b) => a - b);
    for (const [start, list] of byLine) this.attached.get(list[0]!)!.blank = this.blankLineBefore(start);
    const firstLineAfter = (offset: number): number | undefined => {
      // The first anchored line starting after `offset` (binary search).
      let lo = 0;
      let hi = lineStarts.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (lineStarts[mid]! > offset) hi = mid;
        else lo = mid + 1;
      }
      return lineStarts[lo];
    };
    const lastLineAtOrBefore = (offset: number): number | undefined => {
      let lo = 0;
      let hi = lineStarts.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (lineStarts[mid]! <= offset) lo = mid + 1;
        else hi = mid;
      }
      return lo > 0 ? lineStarts[lo - 1] : undefined;
    };
    const pending: { text: string; blank: boolean; start: number }[] = [];
    for (const comment of this.comments) {
      const lineStart = this.lines.lineStartOf(comment.start);
      const ownLine = /^[ \t\uFEFF]*$/.test(this.text.slice(lineStart, comment.start));
      if (ownLine) {
        pending.push({ text: comment.text, blank: this.blankLineBefore(comment.start), start: comment.start });
        continue;
      }
      const line = lastLineAtOrBefore(lineStart);
      if (line === undefined) {
        pending.push({ text: comment.text, blank: false, start: comment.start });
        continue;
      }
      const list = byLine.get(line)!;
      this.attached.get(list[list.length - 1]!)!.trailing.push(comment.text);
    }
    for (const comment of pending) {
      // Inside a multi-line array, after its last item: the innermost such array keeps it.
      let closing: SeqNode | undefined;
      for (const array of this.arrays) {
        const last = array.items[array.items.length - 1]!;
        if (
          array.start < comment.start &&
          comment.start < array.end &&
          last.end <= comment.start &&
          (!closing || array.start > closing.start)
        )
          closing = array;
      }
      if (closing) {
        const last = closing.items[closing.items.length - 1]!;
        let list = this.after.get(last);
        if (!list) this.after.set(last, (list = []));
        list.push({ text: comment.text, blank: comment.blank });
        continue;
      }
      const line = firstLineAfter(comment.start);
      if (line === undefined) this.endComments.push({ text: comment.text, blank: comment.blank });
      else this.attached.get(byLine.get(line)![0]!)!.leading.push({ text: comment.text, blank: comment.blank });
    }
  }

  // ---- writing ----------------------------------------------------------------------

  private push(indent: number, content: string, trailing: readonly string[] = []): void {
    this.out.push(' '.repeat(indent) + content + (trailing.length ? `  ${trailing.join(' ')}` : ''));
  }

  /** Leading comments and blank lines of an anchor, at `indent`. */
  private before(anchor: Anchor, indent: number): Attached {
    const info = this.attached.get(anchor) ?? { leading: [], trailing: [], blank: false };
    for (const comment of info.leading) {
      if (comment.blank && this.out.length > 0) this.out.push('');
      this.push(indent, comment.text);
    }
    if (info.blank && this.out.length > 0 && this.out[this.out.length - 1] !== '') this.out.push('');
    return info;
  }

  scalar(node: ScalarNode): string {
    const value = node.value;
    if (typeof value === 'string') return yamlString(value);
    if (typeof value === 'number') {
      const written = this.text.slice(node.start, node.end);
      const float = !/^[+-]?0[xob]/i.test(written) && /[.eE]|inf|nan/.test(written);
      return yamlNumber(value, float);
    }
    if (typeof value === 'boolean') return String(value);
    throw new ManifestEditError('unsupported', 'TOML has no null value');
  }

  flow(node: ValueNode): string {
    if (node.kind === 'scalar') return this.scalar(node);
    if (node.kind === 'seq') return `[${node.items.map((item) => this.flow(item)).join(', ')}]`;
    if (node.kind === 'map') {
      const entries = node.entries.filter((e) => !e.ignored);
      if (entries.length === 0) return '{}';
      return `{${entries.map((e) => `${yamlString(e.key, true)}: ${this.flow(e.value)}`).join(', ')}}`;
    }
    throw new ManifestEditError('unsupported', 'TOML has no aliases');
  }

  /** Whether a value is written on its key's line. */
  private inline(node: ValueNode): boolean {
    if (node.kind === 'scalar') return true;
    if (node.kind === 'seq') return !this.isBlockSeq(node);
    if (node.kind === 'map') return node.flow || node.entries.every((e) => e.ignored);
    return true;
  }

  map(map: MapNode, indent: number): void {
    for (const entry of map.entries) {
      if (entry.ignored) continue;
      const info = this.before(entry, indent);
      this.entry(entry, indent, info.trailing);
    }
  }

  private entry(entry: MapEntry, indent: number, trailing: readonly string[], prefix = ''): void {
    const key = yamlString(entry.key, true);
    const value = entry.value;
    if (this.inline(value)) {
      this.push(indent, `${prefix}${key}: ${this.flow(value)}`, trailing);
      return;
    }
    this.push(indent, `${prefix}${key}:`, trailing);
    const childIndent = indent + prefix.length + INDENT;
    if (value.kind === 'map') this.map(value, childIndent);
    else if (value.kind === 'seq') this.seq(value, childIndent);
  }

  seq(seq: SeqNode, indent: number): void {
    for (const item of seq.items) {
      const info = this.before(item, indent);
      if (this.inline(item) || item.kind !== 'map') {
        this.push(indent, `- ${this.flow(item)}`, info.trailing);
        for (const comment of this.after.get(item) ?? []) {
          if (comment.blank) this.out.push('');
          this.push(indent, comment.text);
        }
        continue;
      }
      const entries = item.entries.filter((e) => !e.ignored);
      const first = entries[0]!;
      const firstInfo = this.attached.get(first);
      if (firstInfo && (firstInfo.leading.length > 0 || firstInfo.blank) && firstInfo !== info) {
        // Comments between `[[header]]` and the first key: the item opens on its own `-` line.
        this.push(indent, '-', info.trailing);
        this.map(item, indent + INDENT);
        continue;
      }
      // `- key: value` with the item's and the first entry's trailing comments on that line.
      this.entry(first, indent, [...info.trailing, ...(firstInfo?.trailing ?? [])], '- ');
      for (const entry of entries.slice(1)) {
        const entryInfo = this.before(entry, indent + INDENT);
        this.entry(entry, indent + INDENT, entryInfo.trailing);
      }
    }
  }

  render(eol: string, bom: boolean): string {
    this.map(this.root, 0);
    for (const comment of this.endComments) {
      if (comment.blank && this.out.length > 0) this.out.push('');
      this.push(0, comment.text);
    }
    return (bom ? '\uFEFF' : '') + this.out.map((line) => line.replace(/[ \t]+$/, '')).join(eol) + eol;
  }
}

/**
 * The YAML form of a TOML manifest. Throws {@link ManifestEditError}: `unreadable` (the TOML
 * is refused by the validator's document layer), `mismatch` (the YAML would not mean exactly
 * the TOML's value — a bug, never written).
 */
export function tomlToYaml(
  source: string | Uint8Array | ManifestDocument,
  options: EditOptions = {},
): ConvertedManifest {
  const document = openForEdit(source, { ...options, format: 'toml' });
  if (document.format !== 'toml') throw new ManifestEditError('invalid-change', 'the source is not TOML');
  const text = document.text;
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const root = document.root;
  if (root?.kind !== 'map') throw new ManifestEditError('unsupported', 'the TOML document has no root table');
  const program = parseTOML(text.slice(bom), TOML_PARSER_OPTIONS);
  const comments = program.comments.map((comment) => ({
    start: comment.range[0] + bom,
    text: text.slice(comment.range[0] + bom, comment.range[1] + bom).replace(/\r$/, ''),
  }));
  const converter = new Converter(text, root, comments);
  converter.attach();
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const yaml = converter.render(eol, bom === 1);
  const converted = ManifestDocument.parse(yaml, {
    format: 'yaml',
    filename: 'svc.yaml',
    limits: { ...document.limits, maxBytes: Math.max(document.limits.maxBytes, yaml.length * 3) },
  });
  const error = converted.diagnostics.find((d) => severityOfReported(d.code) === 'error');
  if (error || !deepEqual(converted.value, document.value)) {
    throw new ManifestEditError(
      'mismatch',
      `the YAML would not mean the same as the TOML (${error ? `${error.code}: ${error.message}` : canonicalJson(converted.value).slice(0, 200)}); nothing was written`,
    );
  }
  return { text: yaml, document: converted, value: converted.value };
}
