// The import tax against its control (src/results/control.ts): a tool that changes nothing reads 1.0 whatever
// "later in the process" does to the plain forward, and a tool that slows torch reads its slowdown.
import { describe, expect, it } from 'vitest';
import type { Cell } from '../../src/plan/expand.ts';
import {
  controlEnvironment,
  taxEstimate,
  toolTaxes,
  withControlledTax,
  type ControlFigures,
} from '../../src/results/control.ts';
import type { CellResult } from '../../src/results/model.ts';
import {
  pairedFigures,
  pairedPools,
  pairedProcess,
  type PairedProcess,
  type PairedRecord,
} from '../../src/results/paired.ts';
import { CONTROL_STRIDE } from '../../src/run/jobs.ts';
import { measuredCell } from '../compare/simulate.ts';

/** A paired process whose baseline ran `after` ms after the import and `before` ms before it (a little scatter). */
function processWith(i: number, before: number, after: number): PairedProcess {
  const jitter = [1, 1.004, 0.996];
  const p: PairedRecord = {
    baseline: 'raw',
    seed: i,
    unpaired: null,
    baseline_ms: jitter.map((j) => after * j),
    tool_first: [true, false, true],
    before: { baseline_ms: jitter.map((j) => before * j * (1 + i * 0.002)), baseline_gc_ms: [], stopped_by: 'samples' },
  };
  return pairedProcess(
    i,
    jitter.map((j) => after * 1.1 * j),
    p,
  )!;
}

/** A cell of `tool` in row `contract` whose processes' baseline drifted by `drift` and was taxed by `tax` on top. */
function cell(contract: string, tool: string, drift: number, tax: number): CellResult {
  const processes = [0, 1, 2].map((i) => processWith(i, 10, 10 * drift * tax * (1 + (i - 1) * 0.01)));
  const f = pairedFigures(processes, 'raw', pairedPools([processes]))!;
  return {
    ...measuredCell(
      `A/${contract}/${tool}/s`,
      processes.map((p) => p.baseline_ms.map((b) => b * 1.1)),
    ),
    paired: f.paired,
    import_tax: f.import_tax,
  };
}

/** The row's control: the baseline against itself, drifting by `drift`. */
function control(drift: number, environment = 'main'): ControlFigures {
  const processes = [0, 1, 2].map((i) => processWith(i, 10, 10 * drift * (1 + (i - 1) * 0.012)));
  return {
    environment,
    ratio: { ratio: 1, ci95: [0.99, 1.01] },
    drift: { ratio: drift, ci95: [drift * 0.98, drift * 1.02] },
    processes,
    failed: 0,
  };
}

const planOf = (cells: CellResult[]) =>
  new Map(cells.map((c) => [c.id, { id: c.id, environment: 'main' } as unknown as Cell]));

describe('the import tax against its control', () => {
  it('reads 1.0 for a tool that changes nothing, though the baseline ran 6% faster later in every process', () => {
    const hooks = cell('read', 'hooks', 0.94, 1);
    const [c] = withControlledTax([hooks], new Map([['A/read/raw/s', [control(0.94)]]]), planOf([hooks]), null);
    expect(c.import_tax!.uncontrolled!.ratio).toBeCloseTo(0.94, 2);
    expect(c.import_tax!.ratio).toBeCloseTo(1, 2);
    expect(c.import_tax!.ci95[0]).toBeLessThan(1);
    expect(c.import_tax!.ci95[1]).toBeGreaterThan(1);
    expect(c.import_tax!.control).toEqual({ cell: 'A/read/raw/s', environment: 'main', processes: 3 });
  });

  it('reads the slowdown of a tool that slows torch for everyone, net of the drift', () => {
    const taxed = cell('read', 'taxed', 0.94, 1.25);
    const [c] = withControlledTax([taxed], new Map([['A/read/raw/s', [control(0.94)]]]), planOf([taxed]), null);
    expect(c.import_tax!.ratio).toBeCloseTo(1.25, 2);
    expect(c.import_tax!.ci95[0]).toBeGreaterThan(1);
  });

  it("adds the control's uncertainty: the controlled interval is wider than the cell's own", () => {
    const hooks = cell('read', 'hooks', 1, 1);
    const [c] = withControlledTax([hooks], new Map([['A/read/raw/s', [control(1)]]]), planOf([hooks]), null);
    const width = (ci: [number, number]) => Math.log(ci[1] / ci[0]);
    expect(width(c.import_tax!.ci95)).toBeGreaterThan(width(c.import_tax!.uncontrolled!.ci95));
  });

  it("uses the control of the cell's own environment, and says so when its row has none", () => {
    const tv = cell('read', 'thingsvision', 1.1, 1);
    const plan = new Map([[tv.id, { id: tv.id, environment: 'thingsvision' } as unknown as Cell]]);
    const [c] = withControlledTax(
      [tv],
      new Map([['A/read/raw/s', [control(0.9, 'main'), control(1.1, 'thingsvision')]]]),
      plan,
      null,
    );
    expect(c.import_tax!.control!.environment).toBe('thingsvision');
    expect(c.import_tax!.ratio).toBeCloseTo(1, 2);
    const [alone] = withControlledTax([tv], new Map(), plan, null);
    expect(alone.import_tax!.control).toBeNull();
    expect(alone.import_tax!.ratio).toBeCloseTo(alone.import_tax!.uncontrolled!.ratio, 12);
  });

  it("finds a control record's environment in its index", () => {
    expect(controlEnvironment(2, ['main', 'thingsvision'])).toBe('main');
    expect(controlEnvironment(CONTROL_STRIDE + 1, ['main', 'thingsvision'])).toBe('thingsvision');
    expect(controlEnvironment(2 * CONTROL_STRIDE, ['main'])).toBeNull();
  });
});

describe("a tool's import tax", () => {
  it("is the mean of its cells' controlled log taxes, each row weighing alike, with the cells' variances combined", () => {
    const cells = [cell('read', 'taxed', 1, 1.2), cell('edit', 'taxed', 1, 1.1)];
    const controls = new Map([
      ['A/read/raw/s', [control(1)]],
      ['A/edit/raw/s', [control(1)]],
    ]);
    const taxed = withControlledTax(cells, controls, planOf(cells), null);
    const [t] = toolTaxes(taxed);
    expect(t).toMatchObject({ tool: 'taxed', subject: 's', cells: 2, processes: 6, controlled: 2 });
    expect(t.ratio).toBeCloseTo(Math.sqrt(taxed[0].import_tax!.ratio * taxed[1].import_tax!.ratio), 10);
    const [a, b] = taxed.map((c) => taxEstimate(c.import_tax)!);
    expect(Math.log(t.high / t.ratio)).toBeLessThan(
      Math.max(
        Math.log(taxed[0].import_tax!.ci95[1] / taxed[0].import_tax!.ratio),
        Math.log(taxed[1].import_tax!.ci95[1] / taxed[1].import_tax!.ratio),
      ),
    );
    expect(a.variance).toBeGreaterThan(0);
    expect(b.df).toBeGreaterThan(0);
  });

  it('falls back on every paired process pooled, uncontrolled, for results written before the control', () => {
    const old = [cell('read', 'nnsight', 1, 1), cell('edit', 'nnsight', 1, 1)];
    const [t] = toolTaxes(old);
    expect(t).toMatchObject({ tool: 'nnsight', cells: 2, processes: 6, controlled: 0 });
  });
});
