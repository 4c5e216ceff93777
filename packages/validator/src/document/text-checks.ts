/**
 * What a text passes before a reader (reader.ts) reads it, and the problems that refuse it: bytes
 * decoded as UTF-8, the size limit, characters no manifest may contain, a byte-order mark, and the
 * depth limit's refusal (measured by the reader's first scan). After an edit, only the changed
 * region is checked, with the byte count carried from the previous text.
 */
import type { RawDiagnostic } from '../diagnostic.js';
import {
  checkCharacters,
  decodeUtf8,
  hasForbiddenCharacter,
  offsetPastByteLimit,
  utf8Length,
  type Limits,
} from './limits.js';
import type { TextSource } from './piece-text.js';
import type { ChangedRegion } from './text-change.js';

/** Bytes as text: cut at `maxBytes` when longer (`cut`: nothing past it was read), with where they are not UTF-8. */
export function decodeInput(
  input: Uint8Array,
  maxBytes: number,
): { text: string; cut: boolean; diagnostics: RawDiagnostic[] } {
  if (input.length > maxBytes) {
    // Too large: decode only what fits (a character cut at the limit is dropped, not "invalid").
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(input.subarray(0, maxBytes), { stream: true });
    return { text, cut: true, diagnostics: [] };
  }
  const decoded = decodeUtf8(input);
  const diagnostics: RawDiagnostic[] = [];
  if (decoded.invalidAt >= 0) {
    diagnostics.push({
      code: 'invalid-utf8',
      message: 'the file is not valid UTF-8 here; save it as UTF-8',
      path: '',
      start: decoded.invalidAt,
      end: decoded.invalidAt + 1,
    });
  }
  return { text: decoded.text, cut: false, diagnostics };
}

/** What the checks of a whole text found; `body` is the text after a byte-order mark of `bom` characters. */
export type CheckedText =
  | { refused: RawDiagnostic; scanned: number }
  | {
      refused?: undefined;
      body: string;
      bom: number;
      forbidden: boolean;
      utf8Bytes?: number;
      diagnostics: RawDiagnostic[];
      scanned: number;
    };

/** Checks a whole text: its size, then its characters and byte-order mark. */
export function checkWholeText(text: string, format: 'yaml' | 'toml', limits: Limits): CheckedText {
  const past = offsetPastByteLimit(text, limits.maxBytes);
  if (past >= 0) return { refused: tooLargeDiagnostic(limits, past), scanned: text.length };
  const utf8Bytes = text.length * 3 > limits.maxBytes ? utf8Length(text) : undefined;
  const checked = checkCharacters(text, format);
  const diagnostics = checked.diagnostics.slice();
  const bom = checked.text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (bom) diagnostics.push(byteOrderMarkDiagnostic());
  const body = bom ? checked.text.slice(1) : checked.text;
  const forbidden = checked.diagnostics.length > 0;
  return { body, bom, forbidden, utf8Bytes, diagnostics, scanned: 2 * text.length };
}

/**
 * Whether an edit's changed region can be checked alone: it adds no forbidden character, and the
 * text is not now too large (its UTF-8 length follows from the previous one and the region's).
 * `utf8Bytes` is the new text's length when it was counted.
 */
export function checkRegion(
  previous: { source: TextSource; utf8Bytes: number | undefined },
  source: TextSource,
  region: ChangedRegion,
  format: 'yaml' | 'toml',
  limits: Limits,
): { plain: boolean; utf8Bytes?: number; scanned: number } {
  const added = source.slice(region.start, region.newEnd);
  if (hasForbiddenCharacter(added, format)) return { plain: false, scanned: added.length };
  if (source.length * 3 <= limits.maxBytes) return { plain: true, scanned: added.length };
  const removed = previous.source.slice(region.start, region.oldEnd);
  const scanned = added.length + removed.length;
  const bytes =
    previous.utf8Bytes !== undefined
      ? previous.utf8Bytes - utf8Length(removed) + utf8Length(added)
      : utf8Length(source.toString());
  return bytes > limits.maxBytes ? { plain: false, scanned } : { plain: true, utf8Bytes: bytes, scanned };
}

export function tooLargeDiagnostic(limits: Limits, offset: number): RawDiagnostic {
  return {
    code: 'too-large',
    message: `the file is larger than ${limits.maxBytes} bytes, the most a manifest may have; it was not read past this point`,
    path: '',
    start: offset,
    end: offset,
  };
}

export function tooDeepDiagnostic(limits: Limits, offset: number): RawDiagnostic {
  return {
    code: 'too-deep',
    message: `collections are nested more than ${limits.maxDepth} levels deep here; a manifest is never this deep, so the file was not parsed`,
    path: '',
    start: offset,
    end: offset + 1,
  };
}

export function byteOrderMarkDiagnostic(): RawDiagnostic {
  return {
    code: 'byte-order-mark',
    message: 'the file starts with a byte-order mark; it is ignored (UTF-8 needs none)',
    path: '',
    start: 0,
    end: 1,
  };
}
