// The cells the exactness formatting tests hand to src/report/format.ts: an ok cell that has only what the
// exactness column reads, and one whose verdict a float32 precision control re-judged.
import type { CellResult } from '../../src/results/model.ts';
import type { PrecisionControl } from '../../src/results/precision-control.ts';

/** An ok cell with no verdict and no difference, but for what `over` sets. */
export const verdictCell = (over: Partial<CellResult>) =>
  ({ status: 'ok', exact: null, max_abs_diff: null, ...over }) as CellResult;

/** A cell of verdict `exact` at difference `max_abs_diff` whose control (rtol 1e-5, atol 1e-6) found `control`. */
export const controlledCell = (
  exact: CellResult['exact'],
  max_abs_diff: number,
  control: Omit<PrecisionControl, 'rtol' | 'atol'>,
) => verdictCell({ exact, max_abs_diff, precision_control: { ...control, rtol: 1e-5, atol: 1e-6 } });
