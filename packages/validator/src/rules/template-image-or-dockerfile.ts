import type { RawDiagnostic } from '../diagnostic.js';
import type { SchemaRule } from './rule.js';
import { objectLabel } from '../messages.js';
import { needsKeys } from './group-helpers.js';

export const templateImageOrDockerfile: SchemaRule<'template-image-or-dockerfile'> = {
  id: 'template-image-or-dockerfile',
  kind: 'schema',
  severity: 'error',
  description: 'A sandbox template has exactly one of `image` and `dockerfile`.',
  spec: 'Template: "exactly one of `image` (non-empty string) or `dockerfile` (non-empty relative path, no leading `/`, no `..` segment)."',
  explain(group, at) {
    const diagnostics: RawDiagnostic[] = [];
    if (group.failures.some((f) => f.error.keyword === 'anyOf')) {
      diagnostics.push(
        needsKeys(group, at, {
          code: this.id,
          subject: objectLabel(group.objectPath, at),
          keys: ['image', 'dockerfile'],
          all: false,
          where: group.objectPath,
        }),
      );
    }
    if (group.failures.some((f) => f.error.keyword === 'not')) {
      const pointer = `${group.objectPath}/dockerfile`;
      const [start, end] = at.keyRange(pointer);
      diagnostics.push({
        code: this.id,
        message: `${objectLabel(group.objectPath, at)} has both 'image' and 'dockerfile'; keep exactly one`,
        path: pointer,
        start,
        end,
        fixes: [
          ...(at.removeKeyFix(pointer, "Remove 'dockerfile'") ?? []),
          ...(at.removeKeyFix(`${group.objectPath}/image`, "Remove 'image'") ?? []),
        ],
      });
    }
    return diagnostics;
  },
};
