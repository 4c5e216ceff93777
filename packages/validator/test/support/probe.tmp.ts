import { validateManifest } from '@svc-manifest/validator';
const show = (t: string, format?: 'toml') => validateManifest(t, { format }).diagnostics.map(d => `${d.code} ${d.range.start.line}:${d.range.start.column}-${d.range.end.line}:${d.range.end.column}`);
for (const t of ['svc_version: 1\n---\nsvc_version: 1\n']) console.log(show(t), show(t.replace(/\n/g, '\r\n')));
for (const t of ['svc_version = 1\nx = "abc\n']) console.log(show(t, 'toml'), show(t.replace(/\n/g, '\r\n'), 'toml'));
