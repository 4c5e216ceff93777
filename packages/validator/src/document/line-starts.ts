/**
 * Line starts and the binary search over sorted starts: the leaf both the line index and the
 * text held in pieces build on.
 */

/** What readers of lines use: how many there are, where one starts, which holds an offset. */
export interface LineTable {
  readonly lineCount: number;
  /** The offset where a 0-based line starts (0 ≤ line < lineCount). */
  lineStart(line: number): number;
  /** The 0-based line holding `offset`. */
  lineOf(offset: number): number;
}

/** The line table of a text held as one string: the array of its line starts. */
export class LineStarts implements LineTable {
  constructor(readonly starts: readonly number[]) {}

  get lineCount(): number {
    return this.starts.length;
  }

  lineStart(line: number): number {
    return this.starts[line]!;
  }

  lineOf(offset: number): number {
    return lastAtMost(this.starts, offset);
  }
}

/** Where each line of a text starts (after `\n`, `\r\n` or a lone `\r`). */
export function lineStartsOf(text: string): number[] {
  const starts = [0];
  if (text.includes('\r')) {
    const breaks = /\r\n?|\n/g;
    for (let match = breaks.exec(text); match; match = breaks.exec(text)) starts.push(match.index + match[0].length);
  } else {
    let at = text.indexOf('\n');
    while (at !== -1) {
      starts.push(at + 1);
      at = text.indexOf('\n', at + 1);
    }
  }
  return starts;
}

/**
 * Index of the last element of a sorted list that is at most `offset` (0 when none is): a binary
 * search. A list of things that start somewhere (blocks, chunks) is searched by `startOf` each,
 * without a list of their starts made first.
 */
export function lastAtMost(list: readonly number[], offset: number): number;
export function lastAtMost<T>(list: readonly T[], offset: number, startOf: (item: T) => number): number;
export function lastAtMost<T>(list: readonly T[], offset: number, startOf?: (item: T) => number): number {
  let low = 0;
  let high = list.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    const start = startOf ? startOf(list[mid]!) : (list[mid] as number);
    if (start <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** 0-based line containing `offset`, given the sorted line-start offsets. */
export function lineOfOffset(lineStarts: readonly number[], offset: number): number {
  return lastAtMost(lineStarts, offset);
}
