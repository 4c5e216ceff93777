/**
 * Where pristine upstream copies live. A three-way merge on update needs the exact
 * bytes that were installed; they are kept reachable under a hidden ref (outside
 * refs/heads and refs/tags, so clones and branch lists do not show it), in a tree keyed
 * by blob id, and the ref moves in the same transaction as the branch.
 */
export const PRISTINE_REF = 'refs/svc-manifest/pristine';

/** Path of a blob inside the pristine tree. */
export function pristinePath(oid: string): string {
  return `objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
}
