// One cold validation in a fresh process: `node bench/cold-child.mjs ours|floor <file>`.
// Module loading (and, for the floor, ajv's schema compilation) happens before the clock
// starts; the timed part is the first whole-document check in this process, so no
// document, JIT or lazily built cache is warm. Prints {"ms": …, "errors": …}.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const [mode, file, schemaFile] = process.argv.slice(2);
const text = readFileSync(file, 'utf8');
let run;
if (mode === 'ours') {
  const { ManifestDocument, validateDocument } = await import('@svc-manifest/validator');
  run = () =>
    validateDocument(ManifestDocument.parse(text, { format: 'yaml', limits: { maxBytes: 64 * 1024 * 1024 } }))
      .diagnostics.length;
} else {
  const YAML = await import('yaml');
  const require = createRequire(import.meta.url);
  const Ajv = require('ajv').default;
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')));
  run = () => {
    const doc = YAML.parseDocument(text);
    const value = doc.toJS();
    validate(value);
    return doc.errors.length + (validate.errors?.length ?? 0);
  };
}
const t = performance.now();
const errors = run();
const ms = performance.now() - t;
process.stdout.write(JSON.stringify({ ms, errors }) + '\n');
