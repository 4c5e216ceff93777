/** How the command line prints operation results (text form; `--format json` prints the value itself). */
import type { ApplyResult } from '../applier.js';
import type { UpdateAllInfo, UpdateInfo } from '../marketplace/update.js';
import { redactUrl } from '../remote/url.js';

export interface CliOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** `committed <sha> on <branch>: <subject>` or `no change (…)`, then warnings. */
export function printApply(result: ApplyResult, out: CliOutput): void {
  if (result.status === 'committed') {
    out.stdout(`committed ${result.commit} on ${result.branch}: ${result.message.split('\n', 1)[0]}\n`);
  } else {
    out.stdout(`no change (${result.branch} stays at ${result.commit})\n`);
  }
  for (const warning of result.warnings) out.stderr(`warning: ${warning}\n`);
}

export function printUpdate(info: UpdateInfo, out: CliOutput): void {
  for (const path of info.kept) out.stdout(`kept local edits: ${path}\n`);
  for (const path of info.merged) out.stdout(`merged local edits with upstream: ${path}\n`);
}

export function printUpdateAll(result: ApplyResult<UpdateAllInfo>, out: CliOutput): void {
  for (const info of result.info.updated) {
    out.stdout(`updated ${info.name} ${info.from} -> ${info.to}\n`);
    printUpdate(info, out);
  }
  printApply(result, out);
  for (const refused of result.info.refused) out.stderr(`refused: conflict: ${refused.message}\n`);
}

/** A source recorded in the lock file, printable (a catalog URL may carry credentials). */
export function printableSource(source: string): string {
  return redactUrl(source);
}
