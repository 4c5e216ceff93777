import type { BuildOptions, BuildResult, Plugin } from 'esbuild';

export declare const nodeStandIns: Plugin;
export declare function browserBuild<T extends BuildOptions>(options: T): Promise<BuildResult<T>>;
