// The comparisons bench/noise.ts summary makes between runs of the noise campaign: real A/A of two runs
// (labelled share, the probe's labels, drift of medians), the tool verdicts, and the verdicts over every
// ordered pair of runs. Pure: results in, figures out.
import { median } from 'simple-statistics';
import { compareResults } from '../src/compare/compute.ts';
import type { ToolComparison } from '../src/compare/model.ts';
import type { Results } from '../src/results/model.ts';

/** The name of the probe tool the campaign adds to group A. */
export const PROBE = 'probe';

/** The reference cells' A/A noise of a run, per subject. */
export const aaOf = (r: Results) =>
  Object.values(r.subjects)
    .map((s) => s.meta?.aa_noise?.max_rel_diff ?? null)
    .filter((x): x is number => x !== null);
/** Whether a cell id is one of the probe tool's. */
export const isProbe = (id: string) => id.split('/')[2] === PROBE;

/** Compare of two runs: labelled share of the comparable non-probe cells, the probe's labels, and drift of medians. */
export function realAA(a: { name: string; results: Results }, b: { name: string; results: Results }) {
  const cmp = compareResults(a.results, b.results, { before: a.name, after: b.name });
  const comparable = cmp.cells.filter((c) => c.speed.label !== 'unavailable');
  const others = comparable.filter((c) => !isProbe(c.id));
  const labelled = others.filter((c) => c.speed.label === 'faster' || c.speed.label === 'slower');
  const drift = others
    .filter((c) => c.before?.median_ms && c.after?.median_ms)
    .map((c) => Math.abs(c.after!.median_ms! / c.before!.median_ms! - 1));
  return {
    pair: `${a.name} -> ${b.name}`,
    comparable: others.length,
    labelled: labelled.map(
      (c) => `${c.id}: ${c.speed.label} (x${c.speed.ratio?.toFixed(3)}, decided by ${c.speed.decided_by})`,
    ),
    labelled_rate: labelled.length / Math.max(1, others.length),
    probe: comparable
      .filter((c) => isProbe(c.id))
      .map((c) => ({
        id: c.id,
        label: c.speed.label,
        ratio: c.speed.ratio,
        absolute: c.after?.median_ms && c.before?.median_ms ? c.after.median_ms / c.before.median_ms : null,
      })),
    median_abs_change_of_medians: drift.length ? median(drift) : null,
    cells_with_medians: drift.length,
    tools: toolsOf(cmp.tools ?? []),
  };
}

/** The tool verdicts of a comparison: the probe's, and which of the other judged tools were labelled. */
function toolsOf(tools: ToolComparison[]) {
  const judged = tools.filter((t) => t.label !== 'unavailable');
  const probe = judged.find((t) => t.tool === PROBE) ?? null;
  const others = judged.filter((t) => t.tool !== PROBE);
  return {
    probe: probe && {
      label: probe.label,
      ratio: probe.ratio,
      interval: probe.interval,
      cells: probe.cells.length,
      p: probe.test?.p ?? null,
    },
    others_judged: others.length,
    others_labelled: others
      .filter((t) => t.label !== 'within_noise')
      .map((t) => `${t.tool}: ${t.label} (x${t.ratio?.toFixed(3)}, ${t.mode}, ${t.cells.length} cells)`),
  };
}
/**
 * Tool verdicts over every ordered pair of runs (earlier -> later): where the probe did not change, every
 * judged tool is an A/A verdict; where it did, the probe's verdict is a test of power.
 */
export function toolsAllPairs(runs: { name: string; probe: string; results: Results }[]) {
  const aa: string[] = [];
  let aaJudged = 0;
  const probe: string[] = [];
  let probeHits = 0;
  for (let i = 0; i < runs.length; i++) {
    for (let j = i + 1; j < runs.length; j++) {
      const [a, b] = [runs[i], runs[j]];
      const cmp = compareResults(a.results, b.results, { before: a.name, after: b.name });
      const changed = a.probe !== b.probe;
      for (const t of (cmp.tools ?? []).filter((x) => x.label !== 'unavailable')) {
        const line = `${a.name} -> ${b.name} ${t.tool}: ${t.label} (x${t.ratio?.toFixed(3)}, CI ${t.interval?.low.toFixed(3)}-${t.interval?.high.toFixed(3)}, ${t.mode})`;
        if (changed && t.tool === PROBE) {
          // Slowed after: slower is right; slowed before (a later run back on the copy): faster is.
          const expected = b.probe === 'copy' ? 'faster' : 'slower';
          probe.push(`${line}, expected ${expected}`);
          if (t.label === expected) probeHits++;
        } else {
          aaJudged++;
          if (t.label !== 'within_noise') aa.push(line);
        }
      }
    }
  }
  return { aa_judged: aaJudged, aa_labelled: aa, probe_changed: probe, probe_hits: probeHits };
}
