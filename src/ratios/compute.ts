// Pure: each tool's median over the base tool's median on the same group, contract and subject, within
// each run, and those ratios side by side across runs. Two runs on different machines (the seed's
// RTX 2080 Ti, an H200) cannot be compared by times; the cost of a tool relative to a plain forward
// measured in the same run can.
import type { CellResult, Results } from '../results/model.ts';
import { BASELINE_TOOL } from '../plan/pairing.ts';

/** One run as the ratio table sees it: a label and its results. */
export interface RatioRun {
  label: string;
  results: Results;
}

/** A tool's ratio to the base in one run: null when either cell has no median (not ok, or not planned). */
export interface RatioValue {
  /** median of the tool's per-process medians over the base's. */
  ratio: number | null;
  /** the extremes: smallest tool process median over the largest base one, and the reverse. */
  low: number | null;
  high: number | null;
  /** the tool cell's status in this run (`missing` when the run has no such cell). */
  status: CellResult['status'] | 'missing';
  /** when the ratio is null: why (the cell's reason, or which side has no median). */
  note: string | null;
  /** true: the cell's paired ratio to raw, low/high its 95% interval; false or absent: medians of two cells, low/high their extremes. */
  paired?: boolean;
}

/** One row: a tool on a contract, its ratio in each run, and the last run's ratio over the first's. */
export interface RatioRow {
  group: string;
  contract: string;
  subject: string;
  tool: string;
  values: RatioValue[];
  /** last run's ratio / first run's ratio - 1; null when either is null. */
  change: number | null;
  /** true when |change| exceeds the tolerance. */
  beyond: boolean;
}

/** A cell `ok` in the first run that is not `ok` in the last: each needs a written reason. */
export interface LostCell {
  id: string;
  status: CellResult['status'] | 'missing';
  reason: string | null;
}

/** The whole side-by-side table. */
export interface RatioTable {
  base: string;
  runs: { label: string; measured_on: string; host: string; device: string | null }[];
  tolerance: number;
  rows: RatioRow[];
  /** every cell of the first run that was ok there and is not ok in the last run (all tools, all groups). */
  lost: LostCell[];
}

/** Options: the base tool, the tools to show (glob-free names or prefixes ending in `*`), the tolerance. */
export interface RatioOptions {
  base: string;
  tools: string[] | null;
  tolerance: number;
}

/** Builds the table: rows in the first run's cell order, then any cell only later runs have. */
export function ratioTable(runs: RatioRun[], o: RatioOptions): RatioTable {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const run of runs) {
    for (const c of run.results.cells) {
      const key = rowKey(c);
      if (seen.has(key) || c.tool === o.base || !toolWanted(c.tool, o.tools)) continue;
      if (!runs.some((r) => findCell(r.results, c.group, c.contract, o.base, c.subject))) continue;
      seen.add(key);
      keys.push(key);
    }
  }
  const rows = keys
    .map((key) => {
      const [group, contract, tool, subject] = key.split('\u0000');
      const values = runs.map((r) => ratioIn(r.results, group, contract, tool, subject, o.base));
      const first = values[0]?.ratio ?? null;
      const last = values[values.length - 1]?.ratio ?? null;
      const change = values.length > 1 && first !== null && last !== null ? last / first - 1 : null;
      return {
        group,
        contract,
        subject,
        tool,
        values,
        change,
        beyond: change !== null && Math.abs(change) > o.tolerance,
      };
    })
    .filter((row) =>
      row.values.some((v) => v.ratio !== null || (v.status !== 'missing' && v.status !== 'unsupported')),
    );
  return {
    base: o.base,
    runs: runs.map(describeRun),
    tolerance: o.tolerance,
    rows,
    lost: runs.length > 1 ? lostCells(runs[0].results, runs[runs.length - 1].results) : [],
  };
}

/** Cells ok in `first` and not ok in `last`, with the last run's reason (none when it has no such cell). */
export function lostCells(first: Results, last: Results): LostCell[] {
  const byId = new Map(last.cells.map((c) => [c.id, c]));
  return first.cells
    .filter((c) => c.status === 'ok')
    .flatMap((c) => {
      const now = byId.get(c.id);
      if (now?.status === 'ok') return [];
      return [{ id: c.id, status: now?.status ?? 'missing', reason: now ? now.reason : null }];
    });
}

/** A tool's ratio to the base in one run. */
export function ratioIn(
  results: Results,
  group: string,
  contract: string,
  tool: string,
  subject: string,
  base: string,
): RatioValue {
  const cell = findCell(results, group, contract, tool, subject);
  const ref = findCell(results, group, contract, base, subject);
  if (!cell) return { ratio: null, low: null, high: null, status: 'missing', note: 'not in this run' };
  if (cell.median_ms === null)
    return {
      ratio: null,
      low: null,
      high: null,
      status: cell.status,
      note: cell.reason ?? `${cell.status}, no median`,
    };
  // To the plain forward a paired cell has its own ratio, timed in the same processes, with its 95% interval.
  if (base === BASELINE_TOOL && cell.paired)
    return {
      ratio: cell.paired.published.ratio,
      low: cell.paired.published.ci95[0],
      high: cell.paired.published.ci95[1],
      status: cell.status,
      note: null,
      paired: true,
    };
  if (!ref || ref.median_ms === null || ref.median_ms <= 0) {
    return {
      ratio: null,
      low: null,
      high: null,
      status: cell.status,
      note: `${base} has no median here${ref?.reason ? ` (${ref.reason})` : ''}`,
    };
  }
  const low = cell.min_ms !== null && ref.max_ms ? cell.min_ms / ref.max_ms : null;
  const high = cell.max_ms !== null && ref.min_ms ? cell.max_ms / ref.min_ms : null;
  return { ratio: cell.median_ms / ref.median_ms, low, high, status: cell.status, note: null, paired: false };
}

/** Each results model's cells by row key, built once: a lookup per row and run stays linear in the cells. */
const INDEX = new WeakMap<Results, Map<string, CellResult>>();

function findCell(
  results: Results,
  group: string,
  contract: string,
  tool: string,
  subject: string,
): CellResult | undefined {
  let index = INDEX.get(results);
  if (!index) {
    index = new Map();
    for (const c of results.cells) if (!index.has(rowKey(c))) index.set(rowKey(c), c);
    INDEX.set(results, index);
  }
  return index.get([group, contract, tool, subject].join('\u0000'));
}

function rowKey(c: CellResult): string {
  return [c.group, c.contract, c.tool, c.subject].join('\u0000');
}

/** `tl_*` matches every tool starting with `tl_`; other names match exactly; null keeps every tool. */
export function toolWanted(tool: string, tools: string[] | null): boolean {
  if (tools === null) return true;
  return tools.some((t) => (t.endsWith('*') ? tool.startsWith(t.slice(0, -1)) : tool === t));
}

function describeRun(r: RatioRun): RatioTable['runs'][number] {
  const host = r.results.host;
  const gpu = typeof host.gpu === 'string' ? host.gpu : null;
  const name = typeof host.name === 'string' ? host.name : typeof host.hostname === 'string' ? host.hostname : '';
  return {
    label: r.label,
    measured_on: r.results.measured_on,
    host: gpu ?? name,
    device: r.results.spec?.device ?? (gpu ? 'cuda' : null),
  };
}
