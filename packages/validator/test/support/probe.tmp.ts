import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { ManifestDocument, validateDocument } from '@svc-manifest/validator';
// reuse generators by importing the test file is not possible; quick copy
const mod = await import('./manifest-arbitraries.ts');
const { manifestArb, edits, applyAll } = mod;
const TAIL = 'zz_unchunked: &u 1\n';
let skipped = 0, compared = 0;
fc.assert(fc.property(manifestArb, edits, (t1: string, list: any) => {
  let t2 = applyAll(t1, list); if (!t2.endsWith('\n')) t2 += '\n';
  const chunked = ManifestDocument.parse(t2);
  const whole = ManifestDocument.parse(t2 + TAIL);
  if (chunked.root?.start !== 0) { skipped++; return; }
  compared++;
  const wv = whole.value as any; if (wv && typeof wv === 'object') delete wv.zz_unchunked;
  const strip = (ds: any[]) => ds.filter(d => d.range.start.offset < t2.length && !(d.code === 'possible-typo' && d.message.includes('zz_unchunked'))).map(d => [d.code, d.range.start.offset, d.range.end.offset, d.path, d.message]);
  const a = strip(validateDocument(chunked).diagnostics), b = strip(validateDocument(whole).diagnostics);
  if (!isDeepStrictEqual(chunked.value, whole.value) || !isDeepStrictEqual(a, b)) {
    throw new Error(`mismatch\nchunked ${JSON.stringify(a)}\nwhole   ${JSON.stringify(b)}\nvalueEq ${isDeepStrictEqual(chunked.value, whole.value)}`);
  }
}), { numRuns: 300 });
console.log('compared', compared, 'skipped', skipped);
