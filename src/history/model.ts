// The history of cells over runs and over tool releases, with the regressions and improvements found in it.
// Pure: runs in (already loaded), a model out; the site renders it.
import type { CellResult } from '../results/model.ts';
import { DEFAULT_SETTINGS } from '../compare/compute.ts';
import { compareSpeed, speedContext } from '../compare/speed.ts';
import { splitToolId } from '../spec/versions.ts';
import type { RunFound } from './runs.ts';
import { detectSteps } from './steps.ts';
import { pairedSamples } from '../results/paired.ts';
import { rankVersions, versionOf } from './versions.ts';

/** One run as the site shows it. */
export interface HistoryRun {
  index: number;
  spec: string;
  date: string;
  revision: string;
  /** Link to the run's report from the site's index.html; null when the run has none. */
  report: string | null;
}

/** One measured point: a cell of one run (one release, for a versioned tool). */
export interface Point {
  run: number;
  cell: string;
  version: string | null;
  /** Position of `version` among every version of the history (0 first); null without a version. */
  rank: number | null;
  median_ms: number;
  min_ms: number;
  max_ms: number;
  processes: number | null;
  /** The cell's paired ratio to raw (docs/protocol.md, Pairing); null when unpaired. Steps are found on it when every point has one. */
  paired_ratio: number | null;
}

/** A chart: one cell over runs, its releases side by side. */
export interface Series {
  key: string;
  spec: string;
  /** The cell id with the release left out (GROUP/contract/tool/subject). */
  cell: string;
  points: Point[];
}

/** A step found by the rules of docs/versions.md. */
export interface Finding {
  kind: 'regression' | 'improvement';
  axis: 'runs' | 'versions';
  series: string;
  cell: string;
  from: string;
  to: string;
  before_ms: number;
  after_ms: number;
  /** after / before - 1 of what the step was found on: paired ratios to raw, or medians. */
  change: number;
  why: string;
  basis?: 'paired ratio' | 'median';
}

/** The change between two releases: of their paired ratios to raw when both have one, else of their medians. */
function versionChange(a: Point, b: Point): Pick<Finding, 'change' | 'basis'> {
  if (a.paired_ratio !== null && b.paired_ratio !== null)
    return { change: b.paired_ratio / a.paired_ratio - 1, basis: 'paired ratio' };
  return { change: b.median_ms / a.median_ms - 1, basis: 'median' };
}

/** Everything the site shows. */
export interface History {
  runs: HistoryRun[];
  series: Series[];
  findings: Finding[];
  threshold: number;
  /** Measured cells with fewer processes than compare's rule needs: no change in them can be found. */
  unjudged: { cells: number; runs: number; needed: number };
}

/** A found run with what the command resolved about it. */
export interface RunInput {
  found: RunFound;
  revision: string;
  report: string | null;
}

const familyOf = (c: CellResult) => `${c.group}/${c.contract}/${splitToolId(c.tool).tool}/${c.subject}`;

/**
 * compare's noise threshold for a subject over some runs: --threshold, raised by their A/A noise (of paired
 * ratios when the comparison is of paired ratios and every run measured it, as compare's ratio mode does).
 */
function thresholdOf(runs: RunInput[], subject: string, base: number, paired = false): number {
  const aa = runs.map((r) => r.found.results.subjects[subject]?.meta?.aa_noise);
  const usePaired = paired && aa.every((n) => n?.paired?.max_rel_diff != null);
  return Math.max(base, ...aa.map((n) => (usePaired ? n!.paired!.max_rel_diff! : (n?.max_rel_diff ?? 0))));
}

/** Builds the history; `threshold` is compare's smallest change worth a label (a fraction). */
export function buildHistory(inputs: RunInput[], threshold = DEFAULT_SETTINGS.threshold): History {
  const runs: HistoryRun[] = inputs.map((r, index) => ({
    index,
    spec: r.found.results.spec?.name ?? 'unknown',
    date: r.found.date,
    revision: r.revision,
    report: r.report,
  }));
  const byKey = new Map<string, Series>();
  const cellsOf = new Map<string, CellResult>();
  inputs.forEach((r, run) => {
    const spec = runs[run].spec;
    for (const c of r.found.results.cells) {
      if (c.status !== 'ok' || c.median_ms === null) continue;
      const key = `${spec}:${familyOf(c)}`;
      if (!byKey.has(key)) byKey.set(key, { key, spec, cell: familyOf(c), points: [] });
      byKey.get(key)!.points.push({
        run,
        cell: c.id,
        version: versionOf(c),
        rank: null,
        median_ms: c.median_ms,
        min_ms: c.min_ms ?? c.median_ms,
        max_ms: c.max_ms ?? c.median_ms,
        processes: c.processes,
        paired_ratio: c.paired?.ratio ?? null,
      });
      cellsOf.set(`${run}\u0000${c.id}`, c);
    }
  });
  const series = [...byKey.values()];
  rankVersions(series, cellsOf);
  const w: Walk = { runs, inputs, cellAt: (run, id) => cellsOf.get(`${run}\u0000${id}`)!, threshold };
  const findings: Finding[] = [];
  for (const s of series) {
    findings.push(...overRuns(s, w));
    findings.push(...overVersions(s, w));
  }
  return { runs, series, findings, threshold, unjudged: unjudged(series) };
}

/** Points whose cell ran too few processes for compare's rule, and the runs they are in. */
function unjudged(series: Series[]): History['unjudged'] {
  const needed = DEFAULT_SETTINGS.min_processes;
  const short = series.flatMap((s) => s.points).filter((p) => p.processes !== null && p.processes < needed);
  return { cells: short.length, runs: new Set(short.map((p) => p.run)).size, needed };
}

function label(kind: string): 'regression' | 'improvement' | null {
  return kind === 'slower' ? 'regression' : kind === 'faster' ? 'improvement' : null;
}

/**
 * A cell as compare's rule judges it in history: where both cells of a comparison are paired, their
 * paired ratios to raw (the relative samples of src/results/paired.ts), which carry no process offset;
 * otherwise the cells themselves.
 */
function judgedPair(before: CellResult, after: CellResult): [CellResult, CellResult] {
  const b = pairedSamples(before);
  const a = pairedSamples(after);
  if (!b || !a) return [before, after];
  const rel = (c: CellResult, samples: number[][]): CellResult => ({
    ...c,
    samples_ms: samples,
    per_process: null,
    min_ms: null,
    max_ms: null,
    median_ms: c.paired!.ratio,
    processes: samples.length,
  });
  return [rel(before, b), rel(after, a)];
}

/** What both walks over a series judge with: the runs and their inputs, a cell by run and id, compare's --threshold. */
interface Walk {
  runs: HistoryRun[];
  inputs: RunInput[];
  cellAt: (run: number, id: string) => CellResult;
  threshold: number;
}

/**
 * compare's verdict on the step from point `a` to point `b`, at the threshold of the runs they are in (for
 * releases side by side one run, named twice: the same threshold as once); null when it is no regression
 * and no improvement. `paired`: the step is of paired ratios to raw.
 */
function judgeStep(w: Walk, a: Point, b: Point, paired: boolean): { kind: Finding['kind']; why: string } | null {
  const before = w.cellAt(a.run, a.cell);
  const t = thresholdOf([w.inputs[a.run], w.inputs[b.run]], before.subject, w.threshold, paired);
  const speed = compareSpeed(...judgedPair(before, w.cellAt(b.run, b.cell)), speedContext(DEFAULT_SETTINGS, t));
  const kind = label(speed.label);
  return kind ? { kind, why: speed.why } : null;
}

/**
 * Steps in each cell's series over runs, each confirmed by compare's rule between the runs either side:
 * the series of paired ratios to raw where every point has one, else of medians.
 */
function overRuns(s: Series, w: Walk): Finding[] {
  const out: Finding[] = [];
  for (const cell of new Set(s.points.map((p) => p.cell))) {
    const pts = s.points.filter((p) => p.cell === cell);
    if (pts.length < 2) continue;
    const paired = pts.every((p) => p.paired_ratio !== null);
    for (const step of detectSteps(pts.map((p) => (paired ? p.paired_ratio! : p.median_ms))).steps) {
      const a = pts[step.at - 1];
      const b = pts[step.at];
      const verdict = judgeStep(w, a, b, paired);
      if (!verdict) continue;
      const at = (p: Point) => `${w.runs[p.run].date} (${w.runs[p.run].revision})`;
      // On a paired series the step is of ratios to raw: the times shown are the cells' own medians either side.
      const [before_ms, after_ms] = paired ? [a.median_ms, b.median_ms] : [step.before, step.after];
      out.push({
        kind: verdict.kind,
        axis: 'runs',
        series: s.key,
        cell,
        from: at(a),
        to: at(b),
        before_ms,
        after_ms,
        change: step.change,
        why: verdict.why,
        basis: paired ? 'paired ratio' : 'median',
      });
    }
  }
  return out;
}

/** Consecutive releases within one run, compared with compare's rule (releases measured side by side). */
function overVersions(s: Series, w: Walk): Finding[] {
  const out: Finding[] = [];
  for (const run of new Set(s.points.map((p) => p.run))) {
    const pts = s.points.filter((p) => p.run === run && p.version !== null).sort((x, y) => x.rank! - y.rank!);
    for (let i = 1; i < pts.length; i++) {
      const bothPaired = pts[i - 1].paired_ratio !== null && pts[i].paired_ratio !== null;
      const verdict = judgeStep(w, pts[i - 1], pts[i], bothPaired);
      if (!verdict) continue;
      const tool = splitToolId(w.cellAt(run, pts[i - 1].cell).tool).tool;
      out.push({
        kind: verdict.kind,
        axis: 'versions',
        series: s.key,
        cell: s.cell,
        from: `${tool} ${pts[i - 1].version}`,
        to: `${tool} ${pts[i].version} (run ${w.runs[run].date})`,
        before_ms: pts[i - 1].median_ms,
        after_ms: pts[i].median_ms,
        why: verdict.why,
        ...versionChange(pts[i - 1], pts[i]),
      });
    }
  }
  return out;
}
