// Shared by the simulation test and the figures script: how the compare rule labels simulated pairs of
// whole runs, in both modes at once (the absolute verdict does not depend on the mode that decides).
import { compareResults } from '../../src/compare/compute.ts';
import type { CompareMode, SpeedLabel } from '../../src/compare/model.ts';
import { variates } from './simulate.ts';
import { simulateRun, type RunModel } from './simulate-runs.ts';

/** Label counts per mode. */
export type Rates = Record<CompareMode, Record<SpeedLabel, number>>;

/** How `pairs` before/after pairs label the tool cell, whose true level changes by `factor` between runs. */
export function labelRates(pairs: number, factor: number, model: RunModel, seed: number): Rates {
  const v = variates(seed);
  const zero = (): Record<SpeedLabel, number> => ({ faster: 0, slower: 0, within_noise: 0, unavailable: 0 });
  const rates: Rates = { ratio: zero(), absolute: zero() };
  for (let i = 0; i < pairs; i++) {
    const before = simulateRun(v, { raw: 10, tool: 12 }, model);
    const after = simulateRun(v, { raw: 10, tool: 12 * factor }, model);
    const speed = compareResults(before, after, { before: 'before', after: 'after' }, { seed: i }).cells.find((x) => x.tool === 'tool')!.speed;
    rates.ratio[speed.label]++;
    rates.absolute[speed.decided_by === 'absolute' ? speed.label : speed.other?.label ?? 'unavailable']++;
  }
  return rates;
}
