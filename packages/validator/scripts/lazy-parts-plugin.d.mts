import type { Plugin } from 'esbuild';

export declare const lazyParts: Plugin;
