// The summary's precision lines (src/report/precision.ts): how many cells met the run's target, and the
// ones that did not, with their half-widths and why they stopped; nothing for a run without a target.
import { describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import type { CellResult, Results } from '../../src/results/model.ts';
import { precisionOf, renderPrecision } from '../../src/report/precision.ts';
import { PREDECESSOR_RESULTS } from '../helpers.ts';

const seed = loadResults(PREDECESSOR_RESULTS);

/** The seed's results as a run with a 2% target whose cells stopped as `stops` says. */
function withTarget(stops: Record<string, [CellResult['stopped_by'], number | null]>): Results {
  const subjects = Object.fromEntries(
    Object.entries(seed.subjects).map(([k, s]) => [
      k,
      { ...s, meta: { ...s.meta, protocol: { ...(s.meta?.protocol ?? {}), precision: 0.02 } } },
    ]),
  );
  const cells = seed.cells.map((c) =>
    stops[c.id]
      ? {
          ...c,
          stopped_by: stops[c.id][0],
          precision_half_width: stops[c.id][1],
          processes: stops[c.id][0] === 'processes' ? 10 : 3,
        }
      : { ...c, stopped_by: null },
  );
  return { ...seed, subjects, cells } as Results;
}

describe('the precision lines of the summary', () => {
  const results = withTarget({
    'A/single_module_output/hooks/resnet18': ['precision', 0.012],
    'A/single_module_output/nnsight/resnet18': ['precision', 0.018],
    'A/single_module_output/tl_record/resnet18': ['processes', 0.031],
    'A/single_module_output/tl_extract/resnet18': ['unreachable', 0.047],
  });

  it('counts the cells that met the target and names the others, with their half-widths and processes', () => {
    const p = precisionOf(results)!;
    expect(p).toMatchObject({ target: 0.02, cells: 4, met: 2 });
    expect(p.wider).toEqual([{ cell: 'A/single_module_output/tl_record/resnet18', half_width: 0.031, processes: 10 }]);
    expect(p.unreachable).toEqual([
      { cell: 'A/single_module_output/tl_extract/resnet18', half_width: 0.047, processes: 3 },
    ]);
    const text = renderPrecision(p, 100).join('\n');
    expect(text).toMatch(/^Precision target ±2\.0% \(protocol\.precision\): 2 of 4 cells met it\./);
    expect(text.replace(/\s+/g, ' ')).toMatch(
      /Still wider after their most processes .*A\/single_module_output\/tl_record\/resnet18 ±3\.1% \(10 processes\)/,
    );
    expect(text.replace(/\s+/g, ' ')).toMatch(
      /Unreachable in one run .*A\/single_module_output\/tl_extract\/resnet18 ±4\.7%/,
    );
    expect(renderPrecision(p, 80).every((l) => l.length <= 80)).toBe(true);
  });

  it('leaves out a raw cell timed by its row, which ran no process of its own to stop', () => {
    const r = withTarget({ 'A/single_module_output/raw/resnet18': ['processes', 0.05] });
    const cells = r.cells.map((c) =>
      c.id === 'A/single_module_output/raw/resnet18'
        ? { ...c, baseline_from: ['A/single_module_output/hooks/resnet18'] }
        : c,
    );
    expect(precisionOf({ ...r, cells })!.cells).toBe(0);
  });

  it('says nothing for a run without a target', () => {
    expect(precisionOf(seed)).toBeNull();
    expect(renderPrecision(null, 100)).toEqual([]);
  });
});
