// Two results models in, one Comparison out: cells matched by id, speed labels, status and exactness
// changes, the environment guard. Pure: no files, no printing.
import type { CellResult, Results, Verdict } from '../results/model.ts';
import { VERDICT_RANK } from '../results/effect.ts';
import { environmentDifferences } from './env-guard.ts';
import { cellAnnotations } from '../results/annotations.ts';
import {
  COMPARISON_FORMAT,
  type CellComparison,
  type CellSide,
  type CompareSettings,
  type Comparison,
  type RunSummary,
  type SpeedComparison,
  type SubjectNoise,
} from './model.ts';
import { baselineIn, decide, runShift } from './modes.ts';
import { compareRelative, relativeSide, withBetweenRun } from './relative.ts';
import { betweenOf, componentFor } from '../stats/between-run.ts';
import { compareSpeed, speedContext, unavailable } from './speed.ts';
import { compareTools } from './tools.ts';
import { DEFAULT_THRESHOLD } from './threshold.ts';

/** Defaults of the settings: ratio mode, 2% threshold, 95% interval, 2000 resamples, alpha 0.05, 3 processes. */
export const DEFAULT_SETTINGS: CompareSettings = {
  mode: 'ratio',
  threshold: DEFAULT_THRESHOLD,
  confidence: 0.95,
  alpha: 0.05,
  resamples: 2000,
  seed: 0x62656e63,
  min_processes: 3,
  fail_on_slower: null,
};

/**
 * Compares two runs; `files` names them in the output. `inScope` limits the cells compared (bench-change
 * compares one tool's cells); every cell of both runs still serves as a baseline.
 */
export function compareResults(
  before: Results,
  after: Results,
  files: { before: string; after: string },
  settings: Partial<CompareSettings> = {},
  inScope: (id: string) => boolean = () => true,
): Comparison {
  const s: CompareSettings = { ...DEFAULT_SETTINGS, ...settings };
  const differences = environmentDifferences(before, after);
  const noise = noiseOf(before, after, s.threshold).map((n) =>
    withShift(n, runShift(before, after, n.subject, differences)),
  );
  const noiseFor = (subject: string) =>
    noise.find((n) => n.subject === subject) ?? { threshold: s.threshold, absolute_threshold: s.threshold };
  const afterById = new Map(after.cells.map((c) => [c.id, c]));
  const beforeById = new Map(before.cells.map((c) => [c.id, c]));
  const runs: Runs = { before, after, beforeById, afterById };
  const cells: CellComparison[] = [
    ...before.cells
      .filter((b) => inScope(b.id))
      .map((b) => cellOf(b, afterById.get(b.id) ?? null, noiseFor(b.subject), s, runs)),
    ...after.cells
      .filter((a) => !beforeById.has(a.id) && inScope(a.id))
      .map((a) => cellOf(null, a, noiseFor(a.subject), s, runs)),
  ];
  const count = (label: string) => cells.filter((c) => c.speed.label === label).length;
  const tools = compareTools(cells, { option: s.threshold, confidence: s.confidence, alpha: s.alpha, noise });
  // --fail-on-slower: labelled slower, and the whole interval above the limit; cells and tools alike.
  const beyond = (v: { label: string; interval: { low: number } | null }) =>
    v.label === 'slower' && v.interval !== null && v.interval.low > 1 + s.fail_on_slower!;
  const failing = s.fail_on_slower === null ? null : cells.filter((c) => beyond(c.speed)).map((c) => c.id);
  const failingTools = s.fail_on_slower === null ? null : tools.filter(beyond).map((t) => `${t.tool} (${t.subject})`);
  return {
    format: 'benchgrid-comparison',
    version: COMPARISON_FORMAT,
    environment: { differences, blocking: differences.filter((d) => d.blocking).length },
    before: summaryOf(before, files.before),
    after: summaryOf(after, files.after),
    settings: s,
    noise,
    tools,
    summary: {
      cells: cells.length,
      faster: count('faster'),
      slower: count('slower'),
      within_noise: count('within_noise'),
      unavailable: count('unavailable'),
      range_rule: cells.filter((c) => c.speed.basis === 'range').length,
      decided_by_ratio: cells.filter((c) => c.speed.label !== 'unavailable' && c.speed.decided_by === 'ratio').length,
      decided_by_absolute: cells.filter((c) => c.speed.label !== 'unavailable' && c.speed.decided_by === 'absolute')
        .length,
      status_changes: cells.filter((c) => c.status_changed).length,
      exactness_changes: cells.filter((c) => c.exactness).length,
      exactness_worse: cells.filter((c) => c.exactness?.worse).length,
      only_before: cells.filter((c) => !c.after).length,
      only_after: cells.filter((c) => !c.before).length,
      tools_judged: tools.filter((t) => t.label !== 'unavailable').length,
      tools_faster: tools.filter((t) => t.label === 'faster').length,
      tools_slower: tools.filter((t) => t.label === 'slower').length,
      failing,
      failing_tools: failingTools,
    },
    cells,
  };
}

/** Both runs with their cells by id, for finding baselines. */
interface Runs {
  before: Results;
  after: Results;
  beforeById: Map<string, CellResult>;
  afterById: Map<string, CellResult>;
}

/** The thresholds of a subject: the noise threshold (ratio mode) and the one widened by the run shift (absolute). */
type Thresholds = { threshold: number; absolute_threshold?: number };

function withShift(n: SubjectNoise, shift: { cell: string; ratio: number } | null): SubjectNoise {
  // Absolute mode compares cells' own medians: its band is the unpaired A/A noise, widened by the run shift.
  const unpaired = Math.max(n.option, n.aa_before?.max_rel_diff ?? 0, n.aa_after?.max_rel_diff ?? 0);
  return { ...n, run_shift: shift, absolute_threshold: unpaired + (shift ? Math.abs(shift.ratio - 1) : 0) };
}

function cellOf(
  b: CellResult | null,
  a: CellResult | null,
  t: Thresholds,
  s: CompareSettings,
  runs: Runs,
): CellComparison {
  const c = (a ?? b)!;
  const exactness = b && a ? exactnessChange(b.exact ?? null, a.exact ?? null) : null;
  const status_changed = Boolean(b && a && (b.status !== a.status || (b.reason ?? null) !== (a.reason ?? null)));
  return {
    id: c.id,
    group: c.group,
    contract: c.contract,
    tool: c.tool,
    subject: c.subject,
    before: b && sideOf(b, runs.before),
    after: a && sideOf(a, runs.after),
    speed: speedOf(b, a, t, exactness, s, runs),
    status_changed,
    exactness,
  };
}

function speedOf(
  b: CellResult | null,
  a: CellResult | null,
  t: Thresholds,
  exactness: CellComparison['exactness'],
  s: CompareSettings,
  runs: Runs,
): SpeedComparison {
  const threshold = t.absolute_threshold ?? t.threshold;
  if (!b || !a)
    return unavailable(`only in ${b ? 'before' : 'after'}`, threshold, b?.median_ms ?? null, a?.median_ms ?? null);
  if (b.status !== 'ok' || a.status !== 'ok') {
    const which =
      b.status === a.status
        ? `${b.status} in both runs`
        : [b.status !== 'ok' && `${b.status} before`, a.status !== 'ok' && `${a.status} after`]
            .filter(Boolean)
            .join(', ');
    return unavailable(`not measured: ${which}`, threshold, b.median_ms, a.median_ms);
  }
  if (exactness?.worse) {
    // As in the comparison workflow of benchgrid's predecessor (the seed): a failed output check withholds every delta and the label.
    const withheld = unavailable(
      `withheld: exactness got worse (${exactness.before} -> ${exactness.after})`,
      threshold,
      b.median_ms,
      a.median_ms,
    );
    return { ...withheld, ratio: null };
  }
  const ctx = speedContext(s, threshold);
  const absolute = compareSpeed(b, a, ctx);
  const baseB = baselineIn(runs.before, runs.beforeById, b);
  const baseA = baselineIn(runs.after, runs.afterById, a);
  // Each side's ratio in its own run: paired where the cell has paired timing, else to its baseline cell,
  // which must be the same tool in both runs.
  const sameBase = baseB && baseA && baseB.id === baseA.id;
  const before = relativeSide(b, sameBase ? baseB : null);
  const after = relativeSide(a, sameBase ? baseA : null);
  const baseline = b.paired?.baseline ?? a.paired?.baseline ?? baseB?.tool ?? 'raw';
  const relative =
    before && after
      ? compareRelative({ before: b, after: a }, { before, after }, baseline, { ...ctx, threshold: t.threshold })
      : null;
  // Two runs differ by more than each one's processes show (docs/compare.md, "Across runs"); one run's two sides do not.
  const between = !s.same_run && relative && before!.paired && after!.paired ? runToRun(runs, b, a) : null;
  const ratio =
    relative && between
      ? withBetweenRun(relative, between.variance, between.df, { ...ctx, threshold: t.threshold })
      : relative;
  return decide(s.mode, ratio, absolute);
}

/** Both runs' run-to-run components for a cell (each file's own model, at the cell's paired ratio there); null when neither file has one. */
function runToRun(runs: Runs, b: CellResult, a: CellResult): { variance: number; df: number } | null {
  const mb = betweenOf(runs.before);
  const ma = betweenOf(runs.after);
  if (!mb && !ma) return null;
  const parts = [
    mb && b.paired ? componentFor(mb, b.paired.ratio) : null,
    ma && a.paired ? componentFor(ma, a.paired.ratio) : null,
  ].filter((x) => x !== null);
  const variance = parts.reduce((x, p) => x + p!.variance, 0);
  return { variance, df: Math.min(...parts.map((p) => p!.df)) };
}

/** The exactness change of a cell; undefined (not recorded) counts as null (nothing compared). */
function exactnessChange(before: Verdict, after: Verdict): CellComparison['exactness'] {
  if (before === after) return null;
  // bit -> vacuous is worse: the cell can no longer be judged (src/results/effect.ts ranks the verdicts).
  const worse = before !== null && after !== null && VERDICT_RANK[after] > VERDICT_RANK[before];
  return { before, after, worse };
}

function sideOf(c: CellResult, file: Results): CellSide {
  const annotations = c.status === 'ok' ? cellAnnotations(c, file) : [];
  return {
    status: c.status,
    reason: c.reason,
    exact: c.exact ?? null,
    median_ms: c.median_ms,
    processes: c.processes,
    raw_samples: Boolean(c.samples_ms?.some((s) => s.length > 0)),
    // Only when there is something to say, so that comparisons of files without witnesses stay as they were.
    ...(annotations.length ? { annotations } : {}),
  };
}

/**
 * Per subject: the larger of the --threshold and both runs' A/A noise (max relative difference). Ratio
 * mode's threshold takes the A/A noise of paired ratios where both runs measured it (the two A/A
 * processes each timed the reference against the baseline: what a paired cell's ratio varies by between
 * processes), else the unpaired one; absolute mode's is always the unpaired one (withShift).
 */
function noiseOf(before: Results, after: Results, option: number): SubjectNoise[] {
  const subjects = [...new Set([...before.cells, ...after.cells].map((c) => c.subject))];
  return subjects.map((subject) => {
    const meta = (r: Results) => r.subjects[subject]?.meta?.aa_noise;
    const aa = (r: Results) => {
      const n = meta(r);
      return n && n.max_rel_diff !== null ? { max_rel_diff: n.max_rel_diff, pairs: n.pairs } : null;
    };
    const paired = (r: Results) => {
      const n = meta(r)?.paired;
      return n && n.max_rel_diff !== null ? { max_rel_diff: n.max_rel_diff, pairs: n.pairs } : null;
    };
    const aa_before = aa(before);
    const aa_after = aa(after);
    const aa_paired_before = paired(before);
    const aa_paired_after = paired(after);
    const both = aa_paired_before && aa_paired_after;
    const ratioNoise = both
      ? [aa_paired_before.max_rel_diff, aa_paired_after.max_rel_diff]
      : [aa_before?.max_rel_diff ?? 0, aa_after?.max_rel_diff ?? 0];
    // The paired A/A figures are listed only where a run has them, so comparisons of older files read as before.
    const pairedAA = {
      ...(aa_paired_before ? { aa_paired_before } : {}),
      ...(aa_paired_after ? { aa_paired_after } : {}),
    };
    return { subject, threshold: Math.max(option, ...ratioNoise), option, aa_before, aa_after, ...pairedAA };
  });
}

function summaryOf(r: Results, file: string): RunSummary {
  return {
    file,
    origin: r.origin,
    measured_on: r.measured_on,
    spec: r.spec?.name ?? null,
    partial: r.partial,
    raw_samples: r.cells.some((c) => c.samples_ms?.some((s) => s.length > 0)),
  };
}
