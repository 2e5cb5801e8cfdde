// The import tax and its control (docs/protocol.md, "The control"). A paired process times its baseline
// before the tool's import and after it; after/before is the import tax. But "after the import" also means
// "later in the process": after the tool's warm-ups, in alternation with another call on another copy of
// the model. So every row that pairs also runs control processes: the same process with the baseline
// itself as the tool, nothing imported. A tool's tax is its after/before over the control's, so that a tool
// which changes nothing reads 1.0 whatever the process does over time. Pure.
import type { Cell, Plan } from '../plan/expand.ts';
import { CONTROL_STRIDE, controlEnvironments } from '../run/jobs.ts';
import type { ProcessRecord } from '../records/journal.ts';
import {
  difference,
  estimateFromInterval,
  intervalOf,
  logEstimate,
  meanOf,
  type LogEstimate,
  type RatioCI,
} from '../stats/paired.ts';
import { pooledSpread, type Pool } from '../stats/spread.ts';
import type { CellResult } from './model.ts';
import { pairedProcess, type PairedProcess } from './paired.ts';

/** One environment's control of a row, on its baseline cell (results.json `control`). */
export interface ControlFigures {
  environment: string;
  /** The baseline against itself on the tool's copy: what pairing alone gives (1.0 when the copies time alike). */
  ratio: RatioCI;
  /** The baseline after the empty import over before it: what "later in the process" alone does to it. */
  drift: RatioCI;
  processes: PairedProcess[];
  /** Control processes that ended without paired figures (failed, or their copies differed). */
  failed: number;
}

/** A cell's import tax: controlled where its row's control ran, with what it is made of. */
export interface ImportTax extends RatioCI {
  /** Degrees of freedom of the interval (absent in results written before the control). */
  df?: number;
  /** The control it is judged against; null: none ran, and the tax is the uncontrolled after/before. */
  control?: { cell: string; environment: string; processes: number } | null;
  /** after/before of the cell's own processes, before the control divides it out. */
  uncontrolled?: RatioCI;
}

/** A control record's environment: its index holds the environment's position (src/run/jobs.ts, CONTROL_STRIDE). */
export function controlEnvironment(index: number, environments: readonly string[]): string | null {
  return environments[Math.floor(index / CONTROL_STRIDE)] ?? null;
}

/** The control figures of every baseline cell with control records, by cell id. */
export function controlsOf(
  plan: Plan,
  selected: Set<string>,
  records: readonly ProcessRecord[],
  pools: { ratio: Pool | null; tax: Pool | null },
): Map<string, ControlFigures[]> {
  const out = new Map<string, ControlFigures[]>();
  const byCell = new Map<string, ProcessRecord[]>();
  for (const r of records) if (r.kind === 'control') byCell.set(r.cell, [...(byCell.get(r.cell) ?? []), r]);
  for (const [id, rs] of byCell) {
    const cell = plan.cells.find((c) => c.id === id);
    if (!cell) continue;
    const environments = controlEnvironments(plan, selected, cell);
    const figures = environments.flatMap((environment) => {
      const mine = rs
        .filter((r) => controlEnvironment(r.index, environments) === environment)
        .sort((a, b) => a.index - b.index);
      const processes = mine.flatMap((r) => {
        if (r.outcome.kind !== 'result' || r.outcome.result.status !== 'ok' || !r.outcome.result.timing) return [];
        // Its number within its environment's control, as a cell's process is numbered within the cell.
        const p = pairedProcess(r.index % CONTROL_STRIDE, r.outcome.result.timing.samples_ms, r.outcome.result.paired);
        return p ? [p] : [];
      });
      if (mine.length === 0) return [];
      return [
        {
          environment,
          ratio: controlInterval(processes, 'ratio', pools.ratio),
          drift: controlInterval(processes, 'tax', pools.tax),
          processes,
          failed: mine.length - processes.length,
        },
      ];
    });
    if (figures.length > 0) out.set(id, figures);
  }
  return out;
}

/** One figure of a control's processes as an interval, moderated towards `pool`; with no process, 1.0 bounded by nothing. */
function controlInterval(processes: PairedProcess[], figure: 'ratio' | 'tax', pool: Pool | null): RatioCI {
  if (processes.length === 0) return { ratio: 1, ci95: [0, Infinity] };
  return intervalOf(
    logEstimate(
      processes.map((p) => p[figure]),
      pool,
    )!,
  );
}

/** The run's pools of import taxes: the spread between processes of one cell, over the paired cells and the controls. */
export function taxPool(
  cells: readonly (readonly PairedProcess[])[],
  controls: Iterable<ControlFigures[]>,
): Pool | null {
  const all = [...cells, ...[...controls].flatMap((fs) => fs.map((f) => f.processes))];
  return pooledSpread(all.map((ps) => ps.map((p) => p.tax)));
}

/** The row's baseline cell of a cell: the cell of the same group, contract and subject whose tool is its baseline. */
function baselineCellId(c: CellResult, baseline: string): string {
  return `${c.group}/${c.contract}/${baseline}/${c.subject}`;
}

/**
 * Every paired cell's import tax, judged against its row's control in its environment: the mean log tax
 * of its processes minus the control's, each variance moderated towards the run's `pool` of taxes, their
 * sum on Welch-Satterthwaite degrees of freedom. A cell whose row has no control (none ran, or none
 * paired) keeps the uncontrolled tax, `control: null`.
 */
export function withControlledTax(
  cells: readonly CellResult[],
  controls: Map<string, ControlFigures[]>,
  plan: Map<string, Cell>,
  pool: Pool | null,
): CellResult[] {
  return cells.map((c) => {
    if (!c.paired || c.paired.processes.length === 0) return c;
    const own = logEstimate(
      c.paired.processes.map((p) => p.tax),
      pool,
    );
    if (!own) return c;
    const uncontrolled = intervalOf(own);
    const baseId = baselineCellId(c, c.paired.baseline);
    const environment = plan.get(c.id)?.environment ?? null;
    const control = controls.get(baseId)?.find((f) => f.environment === environment && f.processes.length > 0);
    if (!control) return { ...c, import_tax: { ...uncontrolled, df: own.df, control: null, uncontrolled } };
    const theirs = logEstimate(
      control.processes.map((p) => p.tax),
      pool,
    )!;
    const tax = difference(own, theirs);
    return {
      ...c,
      import_tax: {
        ...intervalOf(tax),
        df: tax.df,
        control: { cell: baseId, environment: control.environment, processes: control.processes.length },
        uncontrolled,
      },
    };
  });
}

/** One tool's import tax over its cells of one subject (the per-tool line of every report). */
export interface ToolTax {
  tool: string;
  subject: string;
  ratio: number;
  low: number;
  high: number;
  cells: number;
  processes: number;
  /** How many of its cells were judged against a control (all of them, in a run that ran controls). */
  controlled: number;
}

/** A cell's tax as a LogEstimate, from its interval and degrees of freedom; null for results without them. */
export function taxEstimate(t: ImportTax | null | undefined): LogEstimate | null {
  return t ? estimateFromInterval(t) : null;
}

/**
 * Per tool and subject, the import tax over its cells: the mean of its cells' controlled log taxes (each
 * contract weighing alike: a backward is not slowed by what a patched forward costs), its variance the sum
 * of theirs over k^2, on Satterthwaite's degrees of freedom. Results written before the control (cells
 * without the tax's degrees of freedom) get the old figure: every paired process's tax pooled, uncontrolled.
 */
export function toolTaxes(cells: readonly CellResult[]): ToolTax[] {
  const groups = new Map<string, CellResult[]>();
  for (const c of cells) {
    if (c.status !== 'ok' || !c.paired) continue;
    const key = `${c.subject}\u0000${c.tool}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const taxesOf = (cs: CellResult[]) => cs.flatMap((c) => c.paired!.processes.map((p) => p.tax));
  const legacyPool = pooledSpread([...groups.values()].map(taxesOf));
  return [...groups.values()].flatMap((cs) => {
    const estimates = cs.map((c) => taxEstimate(c.import_tax));
    const processes = taxesOf(cs).length;
    const base = { tool: cs[0].tool, subject: cs[0].subject, cells: cs.length, processes };
    if (estimates.every((e): e is LogEstimate => e !== null)) {
      const ci = intervalOf(meanOf(estimates)!);
      return [
        {
          ...base,
          ratio: ci.ratio,
          low: ci.ci95[0],
          high: ci.ci95[1],
          controlled: cs.filter((c) => c.import_tax?.control).length,
        },
      ];
    }
    const e = logEstimate(taxesOf(cs), legacyPool);
    if (!e) return [];
    const ci = intervalOf(e);
    return [{ ...base, ratio: ci.ratio, low: ci.ci95[0], high: ci.ci95[1], controlled: 0 }];
  });
}
