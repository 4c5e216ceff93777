import { validateManifest } from '@svc-manifest/validator';
const tests: [string, string][] = [
  ['cycle', 'svc_version: 1\nproject: &p\n  name: Billing\n  self: *p\n'],
  ['warn', 'svc_version: 1\nproject:\n  name: !secret Billing\n'],
  ['warn2', '%FOO bar\n---\nsvc_version: 1\n'],
  ['invkey', 'svc_version: 1\nproject:\n  [name, description]: Billing\n'],
  ['tab', 'svc_version: 1\nproject:\n\tname: Billing\n'],
];
for (const [n, t] of tests) console.log(n, validateManifest(t).diagnostics.map(d => `${d.range.start.line}:${d.range.start.column} ${d.code} ${d.message}`));
