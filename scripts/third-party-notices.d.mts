import type { Metafile } from 'esbuild';

export declare function thirdPartyNotices(
  metafile: Metafile,
  cwd: string,
  header?: string,
): { text: string; count: number };
