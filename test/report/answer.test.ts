// The end of a run: one line per tool for each group's main row (hyperfine's closing summary), and the
// run's own noise with a warning, and what to do, when it is above what a quiet machine shows.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import { cellRatio } from '../../src/results/cell-ratio.ts';
import { answerLine, oneLineAnswers } from '../../src/report/answer.ts';
import { renderStability, stabilityOf, UNSTABLE_AA } from '../../src/report/stability.ts';
import { buildSummary, renderSummary } from '../../src/report/summary.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { PREDECESSOR_RESULTS, tmpdir } from '../helpers.ts';
import { tinyResultsJson, writeTinyResults } from './tiny-results.ts';
import type { Results } from '../../src/results/model.ts';

const tiny = () => loadResults(writeTinyResults(tmpdir()));

describe('the one-line answer', () => {
  it("takes each group's first measured row, every tool over raw with the ratio's interval and exactness", () => {
    const blocks = oneLineAnswers(tiny(), null);
    expect(blocks.map((b) => [b.group, b.contract, b.base])).toEqual([['A', 'single_module_output', 'raw']]);
    const [hooks, nnsight] = blocks[0].answers;
    expect(answerLine(hooks, 'raw')).toMatch(/^hooks: 1\.\d\dx raw \(\d\.\d\d-\d\.\d\d\)$/);
    expect(answerLine(nnsight, 'raw')).toMatch(/^nnsight: \d+\.\d\dx raw \(\d+\.\d\d-\d+\.\d\d\), mismatch$/);
  });

  it("is the medians' ratio, inside its own interval, and the same every time (seeded by the cell)", () => {
    const r = tiny();
    const raw = r.cells.find((c) => c.id === 'A/single_module_output/raw/resnet18')!;
    const hooks = r.cells.find((c) => c.id === 'A/single_module_output/hooks/resnet18')!;
    const a = cellRatio(hooks, raw)!;
    expect(a.ratio).toBeCloseTo(hooks.median_ms! / raw.median_ms!, 12);
    expect(a.low!).toBeLessThanOrEqual(a.ratio);
    expect(a.high!).toBeGreaterThanOrEqual(a.ratio);
    expect(cellRatio(hooks, raw)).toEqual(a);
  });

  it('has no interval on the seed, whose file keeps no raw samples, and says failed cells failed', () => {
    const seed = loadResults(PREDECESSOR_RESULTS);
    const lines = oneLineAnswers(seed, null).flatMap((b) => b.answers.map((a) => answerLine(a, b.base)));
    expect(lines.find((l) => l.startsWith('nnsight:'))).toMatch(/^nnsight: \d\.\d\dx raw, bit$/);
    const failed = oneLineAnswers(
      {
        ...seed,
        cells: seed.cells.map((c) => (c.tool === 'nnsight' ? { ...c, status: 'error' as const, reason: 'boom' } : c)),
      },
      null,
    );
    expect(failed[0].answers.find((a) => a.tool === 'nnsight')).toMatchObject({ status: 'error' });
    expect(answerLine(failed[0].answers.find((a) => a.tool === 'nnsight')!, 'raw')).toBe('nnsight: failed');
  });
});

describe('an unstable run', () => {
  const withAA = (value: number): Results => {
    const json = tinyResultsJson();
    (json.resnet18 as { meta: { aa_noise: { max_rel_diff: number } } }).meta.aa_noise.max_rel_diff = value;
    return loadResults(writeTinyResultsJson(json));
  };

  it('shows the A/A noise of a quiet run without a warning', () => {
    const s = stabilityOf(withAA(0.04));
    expect(s.unstable).toBe(false);
    expect(renderStability(s)).toEqual([
      'Noise: A/A noise 4.0% on resnet18 (1 pair of A/single_module_output/hooks/resnet18).',
    ]);
  });

  it('warns above the bound, says what differences are noise, and points to benchgrid system', () => {
    const s = stabilityOf(withAA(UNSTABLE_AA + 0.11));
    expect(s.unstable).toBe(true);
    const text = renderSummary(buildSummary(reportInput(withAA(0.31), null), []), 100);
    expect(text).toMatch(
      /warning: this run may be unstable: A\/A noise of resnet18 is 31\.0% \(above 20\.0%\): differences below\s+31\.0% are noise\./,
    );
    expect(text).toMatch(/`benchgrid system`/);
  });
});

function writeTinyResultsJson(json: Record<string, unknown>): string {
  const dir = tmpdir();
  const file = `${dir}/results.json`;
  fs.writeFileSync(file, JSON.stringify(json));
  return file;
}
