import type { RawDiagnostic } from '../diagnostic.js';
import { effectiveEntries, type AliasNode, type ValueNode } from './nodes.js';

/**
 * Builds the plain JSON-like value of a located tree: what ajv and the rules check. Anchored
 * values are built once and shared by their aliases; before building, the size the value
 * would have with aliases expanded is measured, so an alias bomb is refused, not expanded.
 */
export function buildValue(
  root: ValueNode,
  options: { maxExpandedNodes: number; hasAliases: boolean },
): { value: unknown; diagnostics: RawDiagnostic[] } {
  const diagnostics: RawDiagnostic[] = [];
  if (options.hasAliases) {
    const problem = checkAliasExpansion(root, options.maxExpandedNodes);
    if (problem) return { value: undefined, diagnostics: [problem] };
  }
  const memo = new Map<ValueNode, unknown>();
  const value = toValue(root, memo);
  return { value, diagnostics };
}

function toValue(node: ValueNode, memo: Map<ValueNode, unknown>): unknown {
  switch (node.kind) {
    case 'scalar':
      return node.value;
    case 'alias':
      return node.target ? aliasValue(node.target, memo) : null;
    case 'seq':
      return node.items.map((item) => toValue(item, memo));
    case 'map': {
      const object: Record<string, unknown> = {};
      // Unsafe keys are already marked ignored, so plain assignment cannot touch a prototype.
      for (const entry of effectiveEntries(node)) object[entry.key] = toValue(entry.value, memo);
      return object;
    }
  }
}

function aliasValue(target: ValueNode, memo: Map<ValueNode, unknown>): unknown {
  if (memo.has(target)) return memo.get(target);
  const value = toValue(target, memo);
  memo.set(target, value);
  return value;
}

/**
 * Measures the expanded size of the value (nodes counted once per path that reaches them)
 * and detects alias cycles. Returns a diagnostic at the alias that crosses the limit.
 */
function checkAliasExpansion(root: ValueNode, maxExpandedNodes: number): RawDiagnostic | null {
  const sizes = new Map<ValueNode, number>();
  const active = new Set<ValueNode>();
  let problem: RawDiagnostic | null = null;

  const size = (node: ValueNode): number => {
    if (problem) return 0;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (active.has(node)) {
      const alias = node as AliasNode;
      problem = {
        code: 'alias-cycle',
        message: `alias '*${alias.kind === 'alias' ? alias.name : ''}' refers to a value that contains itself`,
        path: '',
        start: node.start,
        end: node.end,
      };
      return 0;
    }
    active.add(node);
    let total = 1;
    if (node.kind === 'alias') {
      if (node.target) {
        if (active.has(node.target)) {
          problem = {
            code: 'alias-cycle',
            message: `alias '*${node.name}' refers to a value that contains itself`,
            path: '',
            start: node.start,
            end: node.end,
          };
        } else total = size(node.target);
      }
      if (!problem && total > maxExpandedNodes) {
        problem = {
          code: 'alias-expansion',
          message: `alias '*${node.name}' expands the manifest past ${maxExpandedNodes} values; aliases may not multiply the document (an "alias bomb")`,
          path: '',
          start: node.start,
          end: node.end,
        };
      }
    } else if (node.kind === 'seq') {
      for (const item of node.items) total += size(item);
    } else if (node.kind === 'map') {
      for (const entry of effectiveEntries(node)) total += 1 + size(entry.value);
    }
    active.delete(node);
    sizes.set(node, total);
    return total;
  };

  const total = size(root);
  if (!problem && total > maxExpandedNodes) {
    problem = {
      code: 'alias-expansion',
      message: `aliases expand the manifest past ${maxExpandedNodes} values; aliases may not multiply the document (an "alias bomb")`,
      path: '',
      start: root.start,
      end: root.start,
    };
  }
  return problem;
}
