/**
 * Code blocks of the root README, by section: the tests run what the README tells users to
 * copy, not a private copy of it that could drift.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/** The text of the section whose heading (any level) is `heading`, up to the next heading of the same or a higher level. */
export function readmeSection(heading: string, file = join(ROOT, 'README.md')): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  let start = -1;
  let level = 0;
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const match = /^(#{1,6}) +(.*?) *$/.exec(line);
    if (!match) continue;
    if (start < 0) {
      if (match[2] === heading) {
        start = i + 1;
        level = match[1]!.length;
      }
    } else if (match[1]!.length <= level) {
      return lines.slice(start, i).join('\n');
    }
  }
  if (start < 0) throw new Error(`README has no section '${heading}'`);
  return lines.slice(start).join('\n');
}

/** The fenced code blocks of a README section with the given info string (` ```yaml `), in order. */
export function readmeBlocks(heading: string, info: string, file?: string): string[] {
  const section = readmeSection(heading, file);
  const blocks: string[] = [];
  const pattern = /^```([^\n]*)\n([\s\S]*?)^```$/gm;
  for (const match of section.matchAll(pattern)) if (match[1]!.trim() === info) blocks.push(match[2]!);
  return blocks;
}

/** The one fenced block with that info string in the section (an error when there are none or several). */
export function readmeBlock(heading: string, info: string, file?: string): string {
  const blocks = readmeBlocks(heading, info, file);
  if (blocks.length !== 1)
    throw new Error(`README section '${heading}' has ${blocks.length} \`\`\`${info} blocks, expected 1`);
  return blocks[0]!;
}
