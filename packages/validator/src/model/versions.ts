/**
 * The manifest shapes (`svc_version`) this toolchain reads. The list itself lives with the
 * schema (`SVC_VERSIONS`, which the published schemas are built from); this module is how
 * code reads a manifest's version.
 */
import { SVC_VERSIONS, type SvcVersion } from '@svc-manifest/schema';

export { SVC_VERSIONS as SUPPORTED_VERSIONS, type SvcVersion };

export function isSupportedVersion(value: unknown): value is SvcVersion {
  return (SVC_VERSIONS as readonly unknown[]).includes(value);
}

/** The `svc_version` of a manifest's plain value, when it is a supported one; otherwise null. */
export function manifestVersion(value: unknown): SvcVersion | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const version = (value as { svc_version?: unknown }).svc_version;
  return isSupportedVersion(version) ? version : null;
}
