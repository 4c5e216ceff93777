/**
 * Validates every fixture and example with the library and prints `{ "<fixture name>": diagnostics }`
 * as JSON. Run in a child process, e.g. with `--disallow-code-generation-from-strings`
 * (no-codegen.test.ts).
 */
import { validateManifest } from '@svc-manifest/validator';
import { loadExamples, loadFixtures } from '../../../../test/support/fixtures.js';

const results: Record<string, unknown> = {};
for (const fixture of [...loadFixtures(), ...loadExamples()]) {
  results[fixture.name] = validateManifest(fixture.text, { format: fixture.format }).diagnostics;
}
process.stdout.write(JSON.stringify(results));
