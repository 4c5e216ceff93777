/**
 * `npm run gen` (reference half): writes docs/manifest.md, the manifest reference, from the
 * schema source (see manifest-reference.ts). Deterministic; CI re-runs it and fails on any diff.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderManifestReference } from './manifest-reference.js';

const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'manifest.md');
writeFileSync(file, renderManifestReference());
console.log(`wrote ${file}`);
