import type { CodeRule } from './rule.js';
import { findEntry } from '../document/nodes.js';

/** Top-level keys that mean something in only one version (the other allows them only as unknown extras). */
const ONLY_IN: Record<string, 1 | 2> = { channels: 1, default_agent: 2, runtime: 2 };

export const versionSpecificKey: CodeRule<'version-specific-key'> = {
  id: 'version-specific-key',
  kind: 'style',
  severity: 'warning',
  description:
    'A top-level key of the other `svc_version` (`channels` in version 2; `default_agent` or `runtime` in version 1) has no effect.',
  check(context) {
    for (const [key, version] of Object.entries(ONLY_IN)) {
      if (version === context.version) continue;
      const entry = findEntry(context.root, key);
      if (!entry) continue;
      context.report({
        code: this.id,
        message: `'${key}' is a svc_version ${version} key; it has no effect in svc_version ${context.version}`,
        path: `/${key}`,
        start: entry.keyStart,
        end: entry.keyEnd,
        fixes: context.removeKeyFix(`/${key}`),
      });
    }
  },
};
