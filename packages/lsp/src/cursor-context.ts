/**
 * Where the cursor is in a manifest, read from the text around it rather than the parsed
 * tree: while a person types, the document is usually half-written (a key without a value, a
 * TOML line that does not parse), yet completion must still know the path it is at.
 *
 * YAML: the path comes from indentation: the nearest lines above with less indentation are
 * the ancestors (`key:` or a `- ` item). TOML: from the nearest `[table]`/`[[array]]` header.
 */
import { LineIndex, type LineTable, type ManifestFormat, type TextSource } from '@svc-manifest/validator/library';
import type { CursorContext } from './cursor-context/common.js';
import { tomlContext } from './cursor-context/toml.js';
import { yamlContext } from './cursor-context/yaml.js';

export type { CursorContext } from './cursor-context/common.js';
export { splitDottedKey } from './cursor-context/common.js';

/** The context at `offset`, or null where nothing can be completed (a comment, inside a flow map). */
export function cursorContext(
  text: TextSource,
  offset: number,
  format: ManifestFormat,
  lines: LineTable = new LineIndex(text),
): CursorContext | null {
  return format === 'toml' ? tomlContext(text, offset, lines) : yamlContext(text, offset, lines);
}
