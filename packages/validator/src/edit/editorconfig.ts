/**
 * The formatter's policy from `.editorconfig` files: `indent_size` (or `tab_width` when
 * `indent_size = tab`) for the file, from the nearest files up to one with `root = true`, later
 * sections and nearer files winning, as EditorConfig specifies. Pure: the caller reads the files
 * (the CLI from disk; the language server through its workspace). Sections match by
 * EditorConfig's globs (`*`, `**`, `?`, `[…]`, `{a,b}`, `{1..3}` is not supported).
 */

export interface EditorConfigFile {
  /** The folder the file is in, with `/` separators and no trailing slash. */
  folder: string;
  text: string;
}

/**
 * The indent width for `path` (absolute, `/` separators), given the `.editorconfig` files from the
 * file's folder upwards (nearest first, as the caller found them), or undefined when none says.
 */
export function editorConfigIndent(path: string, files: readonly EditorConfigFile[]): number | undefined {
  const applied = new Map<string, string>();
  // Apply the farthest first so nearer files override; stop going up at `root = true`.
  const chain: EditorConfigFile[] = [];
  for (const file of files) {
    chain.push(file);
    if (/^\s*root\s*=\s*true\s*$/im.test(preamble(file.text))) break;
  }
  for (const file of chain.reverse()) {
    const relative = path.startsWith(`${file.folder}/`) ? path.slice(file.folder.length + 1) : undefined;
    if (relative === undefined) continue;
    let matches = false;
    for (const raw of file.text.split(/\r?\n/)) {
      const line = raw.trim();
      if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
      const section = /^\[(.*)\]$/.exec(line);
      if (section) {
        matches = sectionMatches(section[1]!, relative);
        continue;
      }
      const pair = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(line);
      if (matches && pair) applied.set(pair[1]!.toLowerCase(), pair[2]!.trim().toLowerCase());
    }
  }
  const size = applied.get('indent_size');
  const width = size === 'tab' ? applied.get('tab_width') : size;
  const value = width === undefined ? NaN : Number(width);
  return Number.isInteger(value) && value >= 1 && value <= 8 ? value : undefined;
}

function preamble(text: string): string {
  const section = text.search(/^\s*\[/m);
  return section < 0 ? text : text.slice(0, section);
}

/** Whether a section's glob matches a path relative to the `.editorconfig`'s folder. */
function sectionMatches(glob: string, relative: string): boolean {
  if (glob.length > 256) return false;
  // A glob without `/` matches the file name in any folder below.
  const pattern = glob.includes('/') ? glob.replace(/^\//, '') : `**/${glob}`;
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '*' && pattern[i + 1] === '*') {
      const slash = pattern[i + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{') {
      const close = pattern.indexOf('}', i);
      if (close < 0) return false;
      source += `(?:${pattern
        .slice(i + 1, close)
        .split(',')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\*/g, '[^/]*'))
        .join('|')})`;
      i = close;
    } else if (char === '[') {
      const close = pattern.indexOf(']', i);
      if (close < 0) return false;
      source += `[${pattern
        .slice(i + 1, close)
        .replace(/^!/, '^')
        .replace(/\\/g, '\\\\')}]`;
      i = close;
    } else source += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`).test(relative);
  } catch {
    return false;
  }
}
