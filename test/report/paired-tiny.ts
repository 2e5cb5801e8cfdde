// The tiny results (tiny-results.ts) as a paired run wrote them: x raw with a 95% interval for the tools
// timed against raw in their own processes, for the forest plot tests.
import { tinyResultsJson } from './tiny-results.ts';

const SINGLE = 'A/single_module_output';

/** A cell's `paired` block as results.json holds it; `ci95` [0, null] is one process's "no interval". */
function paired(ratio: number, ci95: [number, number | null]) {
  return {
    ratio,
    ci95,
    df: 4,
    pairs: 6,
    baseline: 'raw',
    published: { ratio, ci95, tax: null, df: 4, between_run: 0 },
  };
}

/**
 * The tiny JSON with paired figures: hooks 1.18x (1.12-1.25), the group's reference, so not compared;
 * nnsight 480x (455-512), a mismatch whose work differs; hooks on the replacement edit from one process,
 * so a ratio without an interval.
 */
export function pairedTinyJson(): Record<string, unknown> {
  const json = tinyResultsJson();
  const groups = (json.resnet18 as { groups: Record<string, Record<string, unknown>> }).groups;
  Object.assign(groups[`${SINGLE}/hooks/resnet18`], { paired: paired(1.18, [1.12, 1.25]), exact: null });
  Object.assign(groups[`${SINGLE}/nnsight/resnet18`], {
    paired: paired(480, [455, 512]),
    work: {
      required: { forwards: 1, parameter_grads: false },
      witnesses: [{ forwards: 0, parameter_grads: false, result_bytes: 8 }],
      differs: ['stops at the site'],
    },
  });
  Object.assign(groups['A/replacement_edit/hooks/resnet18'], { paired: paired(1.02, [0, null]) });
  return json;
}
