// Resource limits of a spec, checked on the parsed YAML before it becomes plain data (docs/security.md).
import { isAlias, isMap, isPair, isSeq, type Document, type Node as YamlNode } from 'yaml';

/** Deepest nesting of mappings and lists a spec may have; real specs nest about 6 deep. */
export const MAX_SPEC_DEPTH = 64;

/**
 * Most values a spec may hold once every alias is expanded: the limit is by size, not by alias count,
 * because one alias of a long list costs as much as the list (issue 15).
 */
export const MAX_SPEC_VALUES = 100_000;

/** Why a parsed document is over a limit, or undefined when it is within them. Never recurses. */
export function overLimits(document: Document): string | undefined {
  const sizes = new Map<YamlNode, number>();
  // Post-order walk with an explicit stack: [node, depth, children pushed?].
  const stack: [YamlNode, number, boolean][] = [];
  if (document.contents) stack.push([document.contents as YamlNode, 1, false]);
  let total = 0;
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const [node, depth, expanded] = top;
    if (depth > MAX_SPEC_DEPTH) return `the spec nests deeper than ${MAX_SPEC_DEPTH} levels`;
    const children = childrenOf(node);
    if (!expanded && children.length > 0) {
      top[2] = true;
      for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], depth + 1, false]);
      continue;
    }
    stack.pop();
    let size = 1;
    if (isAlias(node)) {
      const target = node.resolve(document);
      const known = target ? sizes.get(target as YamlNode) : undefined;
      if (known === undefined) return `alias *${node.source} refers to a value that contains it, or to nothing`;
      size = known;
    } else {
      for (const c of children) size += sizes.get(c) ?? 1;
    }
    sizes.set(node, size);
    if (size > MAX_SPEC_VALUES) return `the spec holds more than ${MAX_SPEC_VALUES.toLocaleString('en')} values once its aliases are expanded`;
    total = size;
  }
  return total > MAX_SPEC_VALUES ? `the spec holds more than ${MAX_SPEC_VALUES} values` : undefined;
}

function childrenOf(node: YamlNode): YamlNode[] {
  if (isMap(node)) {
    const out: YamlNode[] = [];
    for (const pair of node.items) {
      if (isPair(pair)) {
        if (pair.key && typeof pair.key === 'object') out.push(pair.key as YamlNode);
        if (pair.value && typeof pair.value === 'object') out.push(pair.value as YamlNode);
      }
    }
    return out;
  }
  if (isSeq(node)) return node.items.filter((i): i is YamlNode => typeof i === 'object' && i !== null);
  return [];
}
