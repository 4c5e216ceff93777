import { parseYamlWithLibrary } from './yaml-library.js';
import type { Frame } from './nodes.js';
import { readSimpleYaml } from './simple-yaml.js';
import type { ParsedFragment } from './tree-builder.js';

/**
 * Parses YAML text into the located tree. `base` is added to every offset, so a fragment of
 * a larger file (a chunk, or text after a byte-order mark) is located in the whole file; the
 * tree's nodes keep their offsets from the returned `frame`, so setting its base moves them.
 * Never throws; syntax problems come back as diagnostics next to whatever tree was built.
 *
 * Plain YAML is read by simple-yaml.ts, which gives the same tree as the `yaml` library or
 * declines; everything it declines is read by the library.
 */
export function parseYamlFragment(
  text: string,
  base = 0,
  pointerPrefix = '',
  options: { skipRootKeyCheck?: boolean } = {},
): ParsedFragment & { frame: Frame } {
  return (
    readSimpleYaml(text, base, pointerPrefix, options.skipRootKeyCheck === true) ??
    parseYamlWithLibrary(text, base, pointerPrefix, options)
  );
}
