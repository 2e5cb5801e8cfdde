// Growth over a swept subject (docs/report.md, "Growth"): subjects `NAME@key=value` that differ only in one
// numeric key make a family; per family, contract and tool, the times and x raw at each value, the fitted
// exponent of the time and of the overhead over the plain forward, and what that says. Pure.
import { BASELINE_TOOL } from '../plan/pairing.ts';
import type { CellResult, Results } from '../results/model.ts';
import { cellIndex, hasInterval, publishedRatio, type CellIndex, type Published } from '../results/published.ts';
import { fitGrowth, growthVerdict, type GrowthFit, type GrowthPoint, type GrowthVerdict } from '../stats/growth.ts';
import { splitSweep } from './tidy.ts';

/** One value of a family's sweep for one tool: its cell and the figures a report shows. */
export interface GrowthCell {
  cell: string;
  status: CellResult['status'];
  median_ms: number | null;
  /** Smallest and largest per-process median. */
  min_ms: number | null;
  max_ms: number | null;
  /** The x raw every report shows (publishedRatio); null for the raw cell and where there is none. */
  x_raw: Published | null;
  /** Peak memory per memory process (results' `memory`): RSS, and on CUDA the allocator's peak; empty where none was recorded. */
  peak_rss_bytes: number[];
  cuda_peak_bytes: number[];
}

/** Which peak a family's memory chart and text show: the GPU allocator's where any cell recorded one, else RSS. */
export interface GrowthMemory {
  kind: 'cuda' | 'rss';
  /** `peak CUDA allocated` or `peak RSS`. */
  label: string;
}

/** One tool over a family's values. */
export interface GrowthSeries {
  tool: string;
  /** Per value of the family (same order); null where the results have no cell. */
  cells: (GrowthCell | null)[];
  /** Exponent of the tool's time against the swept value. */
  time: GrowthFit | null;
  /** Exponent of the tool's time minus the forward's (where positive); null for raw itself. */
  overhead: GrowthFit | null;
  /** What the overhead's exponent says against the forward's; null for raw itself and where no forward was measured. */
  verdict: GrowthVerdict | null;
}

/** A swept family in one group and contract: `tiny` over `seq` at 16, 64, 256. */
export interface GrowthFamily {
  group: string;
  contract: string;
  /** The subject's name, without sweep values. */
  subject: string;
  /** The swept key. */
  key: string;
  /** The other sweep values the family's subjects share (`batch=8`), null without any. */
  fixed: string | null;
  /** The swept values, ascending, and the subject id of each. */
  values: number[];
  subjects: string[];
  /** The forward's (`raw`) time exponent: what the overheads are judged against. */
  forward: GrowthFit | null;
  /** raw first, then the other tools in file order. */
  tools: GrowthSeries[];
}

/** A subject id's name and sweep pairs in id order; no pairs for an id without `@`. */
export function sweepPairs(subject: string): { name: string; pairs: [string, string][] } {
  const { name, sweep } = splitSweep(subject);
  const pairs = (sweep ?? '')
    .split(';')
    .filter((p) => p.includes('='))
    .map((p): [string, string] => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]);
  return { name, pairs };
}

/** Every swept family of the results, by group and contract, in file order; empty for results without sweeps. */
export function growthFamilies(results: Results): GrowthFamily[] {
  const index = cellIndex(results);
  // The tools of each group, contract and subject, in file order: one pass, however many families.
  const toolsAt = new Map<string, Set<string>>();
  for (const c of results.cells) {
    const key = JSON.stringify([c.group, c.contract, c.subject]);
    toolsAt.set(key, (toolsAt.get(key) ?? new Set()).add(c.tool));
  }
  return familySubjects(results).map((f) => {
    const present = f.subjects.flatMap((s) => [...(toolsAt.get(JSON.stringify([f.group, f.contract, s])) ?? [])]);
    const tools = [...new Set(present)].sort((a, b) => Number(b === BASELINE_TOOL) - Number(a === BASELINE_TOOL));
    const at = (tool: string) => f.subjects.map((s) => index.get(`${f.group}/${f.contract}/${tool}/${s}`) ?? null);
    const raws = at(BASELINE_TOOL);
    const forward = tools.includes(BASELINE_TOOL) ? fitGrowth(timePoints(f.values, raws)) : null;
    const series = tools.map((tool): GrowthSeries => {
      const own = at(tool);
      const time = tool === BASELINE_TOOL ? forward : fitGrowth(timePoints(f.values, own));
      const overhead = tool === BASELINE_TOOL ? null : fitGrowth(overheadPoints(f.values, own, raws, index));
      // Without a measured forward there is nothing to be an overhead over, and nothing to judge it against.
      const judged = tool !== BASELINE_TOOL && (forward !== null || overhead !== null);
      return {
        tool,
        time,
        overhead,
        verdict: judged ? growthVerdict(forward, overhead) : null,
        cells: own.map((c) => (c ? growthCell(c, index) : null)),
      };
    });
    return { ...f, forward, tools: series };
  });
}

/** What a report shows of one cell at one swept value. */
function growthCell(c: CellResult, index: CellIndex): GrowthCell {
  const ok = c.status === 'ok' && c.memory !== null;
  return {
    cell: c.id,
    status: c.status,
    median_ms: c.median_ms,
    min_ms: c.min_ms,
    max_ms: c.max_ms,
    x_raw: publishedRatio(c, index),
    peak_rss_bytes: ok ? c.memory!.peak_rss_bytes.filter((b) => b > 0) : [],
    cuda_peak_bytes: ok ? c.memory!.cuda_peak_allocated_bytes.filter((b): b is number => b !== null && b > 0) : [],
  };
}

/**
 * The family's memory figure: on CUDA the allocator's peak (what a tool keeps on the GPU; the process's RSS
 * there is mostly the CUDA runtime), else the peak RSS (which holds the interpreter and the imports, so
 * the tools differ by what they import and keep); null where no cell of the family recorded memory.
 */
export function growthMemory(f: GrowthFamily): GrowthMemory | null {
  const cells = f.tools.flatMap((s) => s.cells.filter((c): c is GrowthCell => c !== null));
  if (cells.some((c) => c.cuda_peak_bytes.length > 0)) return { kind: 'cuda', label: 'peak CUDA allocated' };
  return cells.some((c) => c.peak_rss_bytes.length > 0) ? { kind: 'rss', label: 'peak RSS' } : null;
}

/** A cell's peaks of the family's memory figure, one per memory process. */
export function memoryPeaks(c: GrowthCell | null, memory: GrowthMemory): number[] {
  return c ? (memory.kind === 'cuda' ? c.cuda_peak_bytes : c.peak_rss_bytes) : [];
}

/** The results model with its growth families as `growth`, for `report --format json`; unchanged without sweeps. */
export function withGrowth(results: Results): Results | (Results & { growth: GrowthFamily[] }) {
  const growth = growthFamilies(results);
  return growth.length > 0 ? { ...results, growth } : results;
}

type FamilyKey = Omit<GrowthFamily, 'forward' | 'tools'>;

/** The families' keys: per group, contract, name, swept key and other values, the subjects at two or more values. */
function familySubjects(results: Results): FamilyKey[] {
  const families = new Map<string, FamilyKey & { by: Map<number, string> }>();
  for (const c of results.cells) {
    const { name, pairs } = sweepPairs(c.subject);
    for (const [key, text] of pairs) {
      const value = Number(text);
      if (!(value > 0) || !Number.isFinite(value)) continue;
      const others = pairs
        .filter(([k]) => k !== key)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => `${k}=${v}`);
      const id = JSON.stringify([c.group, c.contract, name, key, others]);
      const f = families.get(id) ?? {
        group: c.group,
        contract: c.contract,
        subject: name,
        key,
        fixed: others.length ? others.join(';') : null,
        values: [],
        subjects: [],
        by: new Map(),
      };
      if (!f.by.has(value)) f.by.set(value, c.subject);
      families.set(id, f);
    }
  }
  return [...families.values()]
    .filter((f) => f.by.size >= 2)
    .map(({ by, ...f }) => {
      const values = [...by.keys()].sort((a, b) => a - b);
      return { ...f, values, subjects: values.map((v) => by.get(v)!) };
    });
}

/** A measured cell's observations: its per-process medians, else its median alone (the seed layout). */
function observations(c: CellResult | null): number[] {
  if (c?.status !== 'ok') return [];
  if (c.per_process && c.per_process.length > 0) return c.per_process.map((p) => p.median_ms);
  return c.median_ms !== null ? [c.median_ms] : [];
}

function timePoints(values: number[], cells: (CellResult | null)[]): GrowthPoint[] {
  return values.map((x, i) => ({ x, times: observations(cells[i]) })).filter((p) => p.times.length > 0);
}

/**
 * The overhead the tool adds at each value, per process: where the cell paired, its time less the forward
 * timed in alternation with it in the same process (t (1 - 1/r), r the process's paired ratio); else its time
 * less the forward cell's median. Only positive differences can be fitted on a log scale: a process not above
 * the forward is left out, and a value with none drops out of the fit. So does a value where the cell's
 * x raw interval holds 1.00: there the overhead is not measurable, and fitting its noise's positive half
 * read the forward hook (1.00x raw at every length) as "overhead ~ seq^1.00, grows like the forward".
 */
function overheadPoints(
  values: number[],
  cells: (CellResult | null)[],
  raws: (CellResult | null)[],
  index: CellIndex,
): GrowthPoint[] {
  return values
    .map((x, i) => ({ x, times: measurable(cells[i], index) ? overheads(cells[i], raws[i]).filter((d) => d > 0) : [] }))
    .filter((p) => p.times.length > 0);
}

/** Whether the cell's cost over the forward is shown at all: its published x raw with an interval above 1.00. */
function measurable(c: CellResult | null, index: CellIndex): boolean {
  const r = c ? publishedRatio(c, index) : null;
  return r !== null && hasInterval(r) && r.low > 1;
}

function overheads(c: CellResult | null, raw: CellResult | null): number[] {
  if (c?.status !== 'ok') return [];
  const paired = c.paired?.processes ?? [];
  if (paired.length > 0) {
    const time = (index: number) => c.per_process?.find((p) => p.index === index)?.median_ms ?? null;
    return paired.flatMap((p) => {
      const t = time(p.index);
      return t !== null && p.ratio > 0 ? [t * (1 - 1 / p.ratio)] : [];
    });
  }
  const base = raw && raw.status === 'ok' ? raw.median_ms : null;
  return base === null ? [] : observations(c).map((t) => t - base);
}
