// Resource limits of a spec, checked on the parsed YAML before it becomes plain data (docs/security.md).
import { isAlias, isMap, isPair, isSeq, type Document, type Node as YamlNode } from 'yaml';

/** Deepest nesting of mappings and lists a spec may have; real specs nest about 6 deep. */
export const MAX_SPEC_DEPTH = 64;

/**
 * Most values a spec may hold once every alias is expanded: the limit is by size, not by alias count,
 * because one alias of a long list costs as much as the list.
 */
export const MAX_SPEC_VALUES = 100_000;

/** Most aliases (`*name`) a spec may hold; real specs use a handful. */
export const MAX_SPEC_ALIASES = 1000;

/** What a document costs: the values it holds with its aliases expanded. */
export type Size = { over: string } | { values: number };

/**
 * The values a parsed document holds once its aliases are expanded, or why it is over a limit: deeper
 * than MAX_SPEC_DEPTH, more than `maxValues` values (what is left of MAX_SPEC_VALUES after the specs it
 * extends), or more than MAX_SPEC_ALIASES aliases. One walk in document order, never recursive: an
 * alias names the last anchor before it, looked up in a map (yaml's own lookup walks the document per
 * alias, quadratic in the aliases).
 */
export function sizeOf(document: Document, maxValues = MAX_SPEC_VALUES): Size {
  const sizes = new Map<YamlNode, number>();
  const anchors = new Map<string, YamlNode>();
  // Post-order walk with an explicit stack: [node, depth, children pushed?].
  const stack: [YamlNode, number, boolean][] = [];
  if (document.contents) stack.push([document.contents as YamlNode, 1, false]);
  let total = 0;
  let aliases = 0;
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const [node, depth, expanded] = top;
    if (depth > MAX_SPEC_DEPTH) return { over: `the spec nests deeper than ${MAX_SPEC_DEPTH} levels` };
    const children = childrenOf(node);
    if (!expanded) {
      // An anchor is visible from here on (a later anchor of the same name replaces it).
      const anchor = (node as { anchor?: string }).anchor;
      if (anchor) anchors.set(anchor, node);
      if (children.length > 0) {
        top[2] = true;
        for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], depth + 1, false]);
        continue;
      }
    }
    stack.pop();
    let size = 1;
    if (isAlias(node)) {
      if (++aliases > MAX_SPEC_ALIASES)
        return { over: `the spec holds more than ${MAX_SPEC_ALIASES.toLocaleString('en')} aliases` };
      const target = anchors.get(node.source);
      const known = target ? sizes.get(target) : undefined;
      if (known === undefined)
        return { over: `alias *${node.source} refers to a value that contains it, or to nothing` };
      size = known;
    } else {
      for (const c of children) size += sizes.get(c) ?? 1;
    }
    sizes.set(node, size);
    if (size > maxValues)
      return {
        over: `the spec holds more than ${MAX_SPEC_VALUES.toLocaleString('en')} values once its aliases are expanded`,
      };
    total = size;
  }
  return total > maxValues
    ? { over: `the spec holds more than ${MAX_SPEC_VALUES.toLocaleString('en')} values` }
    : { values: total };
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

/** Most points one subject's sweep may make (the product of its lists' lengths): each is a subject with its own cells. */
export const MAX_SWEEP_POINTS = 1000;

/** Elements the harness generates at most per input tensor (runners/harness/benchgrid_harness/request.py): 8 GiB of float32. */
export const MAX_INPUT_ELEMENTS = 2 ** 31;

/** An input over MAX_INPUT_ELEMENTS: which key is too large (the batch's shape, or the stimuli), and why. */
export interface InputOverLimit {
  key: 'shape' | 'stimuli';
  message: string;
}

/** The batch (`shape`) and the dataset (`stimuli` x shape[1:]), each within MAX_INPUT_ELEMENTS, as the harness checks before generating them. */
export function inputsOverLimit(inputs: { shape: readonly number[]; stimuli: number }): InputOverLimit[] {
  const prod = (xs: readonly number[]) => xs.reduce((a, x) => a * x, 1);
  const batch = prod(inputs.shape);
  const dataset = inputs.stimuli * prod(inputs.shape.slice(1));
  const n = (x: number) => x.toLocaleString('en-US');
  const out: InputOverLimit[] = [];
  if (batch > MAX_INPUT_ELEMENTS)
    out.push({
      key: 'shape',
      message: `shape [${inputs.shape.join(', ')}] is ${n(batch)} elements; the harness generates at most ${n(MAX_INPUT_ELEMENTS)} (2**31) per input.`,
    });
  if (dataset > MAX_INPUT_ELEMENTS)
    out.push({
      key: 'stimuli',
      message: `${n(inputs.stimuli)} stimuli of shape [${inputs.shape.slice(1).join(', ')}] are ${n(dataset)} elements; the harness generates at most ${n(MAX_INPUT_ELEMENTS)} (2**31).`,
    });
  return out;
}
