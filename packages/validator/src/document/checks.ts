/**
 * Checks of how the document layer is used, which cost a test on hot reads: on in the sources
 * (tests, development), left out of the bundles, whose esbuild build defines
 * `SVC_MANIFEST_BUNDLE` (scripts/bundle-package.mjs, scripts/gen-hook-bundle.ts).
 */
declare const SVC_MANIFEST_BUNDLE: boolean | undefined;

/** Whether reading a document that an update took over throws (see `ManifestDocument.root`). */
export const CHECK_CONSUMED_READS = typeof SVC_MANIFEST_BUNDLE === 'undefined';
