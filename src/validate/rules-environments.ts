// Semantic rule: an environment declared `over` another names a declared environment, without a loop, and takes
// its base's interpreter.
import { diag, ptr, suggestion, type Diagnostic } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import { baseChain } from '../spec/layers.ts';
import type { RuleInput } from './rules.ts';

/** `over` names another declared environment, the chain of bases ends, and a layer sets no `python` of its own. */
export const environmentLayers = ({ spec }: RuleInput): Diagnostic[] => {
  const out: Diagnostic[] = [];
  const declared = spec.data.environments ?? {};
  const ids = Object.keys(declared);
  const at = (p: string) => positionOf(spec.positions, p, spec.file);
  for (const [id, e] of Object.entries(declared)) {
    if (e.over === undefined) continue;
    const p = ptr('environments', id, 'over');
    if (!declared[e.over]) out.push(diag('error', 'unknown-environment', at(p), p, `environment '${id}' is layered over '${e.over}', which is not declared.`, suggestion(e.over, ids.filter((x) => x !== id), 'environment')));
    else if (baseChain(declared, id) === null) out.push(diag('error', 'environment-loop', at(p), p, `environment '${id}' is layered over itself (through 'over').`, 'Make one environment of the chain a full one: give it torch and no `over`.'));
    if (e.python !== undefined) {
      const q = ptr('environments', id, 'python');
      out.push(diag('error', 'layer-python', at(q), q, `environment '${id}' is layered over '${e.over}', so it runs the base's interpreter; it cannot set its own python.`, `Remove 'python' here, or set it on '${e.over}'.`));
    }
  }
  return out;
};
