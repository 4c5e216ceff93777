/** Git object ids computed in-process (the same bytes `git hash-object` hashes). */
import { createHash } from 'node:crypto';

/** The blob id of `content` in a repository whose object ids have `oidLength` hex digits (40: SHA-1, 64: SHA-256). */
export function blobOid(content: Uint8Array, oidLength = 40): string {
  const hash = createHash(oidLength === 64 ? 'sha256' : 'sha1');
  hash.update(`blob ${content.byteLength}\0`);
  hash.update(content);
  return hash.digest('hex');
}
