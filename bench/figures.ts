// The published figures, computed from the raw runs (pure: runs in, figures out).
import type { MatrixRun } from './matrix.ts';
import type { PlanFigure } from './plan10k.ts';
import type { ProcessRun } from './processes.ts';
import { median } from '../src/stats/summary.ts';
import { sum } from './stats.ts';

/** One published figure. */
export interface Figure {
  id: string;
  label: string;
  value: number | null;
  unit: string;
  /** The issue's target, in words; null where there is none. */
  target: string | null;
  met: boolean | null;
  /** The numbers behind the value. */
  detail: string;
}

const of = (runs: ProcessRun[], side: string) => runs.filter((r) => r.side === side);
/** Cell median as benchgrid computes it: the median of the per-process medians. */
const cellMedian = (runs: ProcessRun[]) => median(runs.map((r) => r.median_ms));
const pct = (x: number) => `${(x * 100).toFixed(2)}%`;
const ms = (x: number) => `${x.toFixed(2)} ms`;
const s = (x: number) => `${x.toFixed(3)} s`;

/** Median over rounds of the ratio of side `a`'s process median to side `b`'s in the same round. */
export function pairedRatio(a: ProcessRun[], b: ProcessRun[]): number {
  const ratios = a.flatMap((x) => {
    const y = b.find((r) => r.round === x.round);
    return y ? [x.median_ms / y.median_ms] : [];
  });
  return median(ratios);
}

/**
 * A/A noise as a run reports it: the cell median (median of `per` process medians) of side A against that
 * of side B, the processes taken from the same rounds; the median (and largest) relative difference over the blocks.
 */
export function aaNoise(
  a: ProcessRun[],
  b: ProcessRun[],
  per: number,
): { rel: number; max: number; pairs: [number, number][] } {
  const pairs: [number, number][] = [];
  const rounds = [...new Set(a.map((r) => r.round))].sort((x, y) => x - y);
  for (let i = 0; i + per <= rounds.length; i += per) {
    const block = new Set(rounds.slice(i, i + per));
    pairs.push([cellMedian(a.filter((r) => block.has(r.round))), cellMedian(b.filter((r) => block.has(r.round)))]);
  }
  const rels = pairs.map(([x, y]) => Math.abs(x - y) / Math.min(x, y));
  return { rel: median(rels), max: Math.max(...rels), pairs };
}

/** Per-process cost split of a side: medians over its processes. */
export function costSplit(runs: ProcessRun[]): {
  wall: number;
  interpreter: number;
  build: number;
  work: number;
  adds: number;
  exit: number;
} {
  const parts = runs.map((r) => {
    const p = (k: string) => r.phases_s[k] ?? 0;
    const interpreter = p('startup') + p('imports') + (r.exit_s ?? 0);
    const work = p('prepare') + p('warmup') + p('timed');
    return {
      wall: r.wall_s,
      interpreter,
      build: p('build'),
      work,
      adds: r.wall_s - interpreter - p('build') - work,
      exit: r.exit_s ?? 0,
    };
  });
  const m = (k: keyof (typeof parts)[number]) => median(parts.map((x) => x[k]));
  return {
    wall: m('wall'),
    interpreter: m('interpreter'),
    build: m('build'),
    work: m('work'),
    adds: m('adds'),
    exit: m('exit'),
  };
}

/** Every figure of the issue from the runs made. */
export function figures(runs: ProcessRun[], plan: PlanFigure | null, matrix: MatrixRun[], per = 3): Figure[] {
  const out: Figure[] = [];
  const rawCold = of(runs, 'raw/cold');
  const hand = of(runs, 'hand');
  if (rawCold.length && hand.length) {
    const paired = pairedRatio(rawCold, hand);
    const perRound = rawCold.flatMap((x) =>
      hand.filter((h) => h.round === x.round).map((h) => x.median_ms / h.median_ms),
    );
    // A robust spread (1.4826 x the median absolute deviation): one round hit by a load spike does not inflate it.
    const sd = 1.4826 * median(perRound.map((r) => Math.abs(r - paired)));
    out.push({
      id: 'fidelity',
      label: 'harness fidelity: raw cell median / hand-written loop median',
      value: paired,
      unit: 'ratio',
      target: '1.00 +- 0.01',
      met: Math.abs(paired - 1) <= 0.01,
      detail: `median over ${rawCold.length} rounds of the ratio of the two processes of a round (robust round-to-round spread ${pct(sd)}, so a standard error of about ${pct((1.25 * sd) / Math.sqrt(perRound.length))}); pooled over all rounds: benchgrid ${ms(cellMedian(rawCold))} vs hand loop ${ms(cellMedian(hand))} (ratio ${(cellMedian(rawCold) / cellMedian(hand)).toFixed(3)})`,
    });
  }
  for (const start of ['cold', 'fork']) {
    const side = of(runs, `raw/${start}`);
    if (!side.length) continue;
    const c = costSplit(side);
    out.push({
      id: `cost_${start}`,
      label: `per-process cost, ${start} start: what benchgrid adds`,
      value: c.adds,
      unit: 's',
      target: '<= 0.15 s',
      met: c.adds <= 0.15,
      detail: `wall ${s(c.wall)} = interpreter + imports ${s(c.interpreter)} (of which exit ${s(c.exit)}) + subject build ${s(c.build)} + timed work ${s(c.work)} + benchgrid ${s(c.adds)}`,
    });
  }
  if (rawCold.length && hand.length) {
    const diff = median(rawCold.map((r) => r.wall_s - (hand.find((h) => h.round === r.round)?.wall_s ?? NaN)));
    out.push({
      id: 'wall_vs_hand',
      label: "cold process wall time minus the hand-written script's (paired by round)",
      value: diff,
      unit: 's',
      target: null,
      met: null,
      detail: `benchgrid cold ${s(median(rawCold.map((r) => r.wall_s)))}, hand-written script ${s(median(hand.map((r) => r.wall_s)))} (medians); the harness also probes the site and writes a result`,
    });
  }
  const noise: Record<string, number> = {};
  for (const start of ['fork', 'cold']) {
    const a = of(runs, `hooks/${start}`);
    const b = of(runs, `hooks/${start}#B`);
    if (a.length < per || b.length < per) continue;
    const aa = aaNoise(a, b, per);
    noise[start] = aa.max;
    out.push({
      id: `aa_${start}`,
      label: `A/A noise of the reference cell (hooks, single module), ${start} start`,
      value: aa.rel,
      unit: 'relative',
      target: '<= 2%',
      met: aa.rel <= 0.02,
      detail: `median of ${aa.pairs.length} A/A comparisons (largest ${pct(aa.max)}), each of two cell medians of ${per} processes: ${aa.pairs.map(([x, y]) => `${ms(x)} vs ${ms(y)}`).join('; ')}; process-level: median over rounds of |A/B - 1| ${pct(Math.abs(pairedRatio(a, b) - 1))}`,
    });
  }
  for (const cell of ['raw', 'hooks']) {
    const cold = of(runs, `${cell}/cold`);
    const fork = of(runs, `${cell}/fork`);
    if (!cold.length || !fork.length) continue;
    const rel = pairedRatio(fork, cold) - 1;
    const bound = Math.max(noise.cold ?? 0, noise.fork ?? 0, 0.02);
    out.push({
      id: `fork_vs_cold_${cell}`,
      label: `fork vs cold, ${cell} cell median`,
      value: rel,
      unit: 'relative',
      target: 'within A/A noise',
      met: Math.abs(rel) <= bound,
      detail: `median over ${fork.length} rounds of fork / cold process medians - 1; pooled: fork ${ms(cellMedian(fork))} vs cold ${ms(cellMedian(cold))}; bound: the largest A/A difference of this run, at least 2%: ${pct(bound)}`,
    });
  }
  const memCold = of(runs, 'mem/cold');
  const memFork = of(runs, 'mem/fork');
  if (memCold.length && memFork.length) {
    const c = median(memCold.map((r) => r.peak_rss_bytes ?? NaN));
    const f = median(memFork.map((r) => r.peak_rss_bytes ?? NaN));
    out.push({
      id: 'memory_fork_vs_cold',
      label: 'fork vs cold, peak RSS of a memory process (hooks)',
      value: f / c - 1,
      unit: 'relative',
      target: null,
      met: null,
      detail: `fork ${(f / 2 ** 20).toFixed(0)} MiB vs cold ${(c / 2 ** 20).toFixed(0)} MiB (ru_maxrss; a forked child counts the parent's pages it maps)`,
    });
  }
  if (plan) {
    out.push({
      id: 'plan_10k',
      label: `validate + plan, generated ${plan.cells}-cell spec (in-process)`,
      value: plan.median_s,
      unit: 's',
      target: '< 0.5 s',
      met: plan.median_s < 0.5 && plan.first_s < 0.5,
      detail: `median of ${plan.runs_s.length - 1} repeats ${s(plan.median_s)}; first (schema compiled, modules cold) ${s(plan.first_s)}; ${plan.diagnostics} diagnostic(s)`,
    });
  }
  if (matrix.length) {
    const unsupported = matrix.reduce((a, m) => a + m.unsupported_processes, 0);
    const declared = matrix[0].cells.unsupported;
    out.push({
      id: 'unsupported_processes',
      label: 'processes spawned for unsupported cells',
      value: unsupported,
      unit: 'processes',
      target: '0',
      met: unsupported === 0,
      detail: `${declared} unsupported cells per run, ${matrix.length} runs`,
    });
    const cold = matrix.filter((m) => m.start === 'cold');
    const fork = matrix.filter((m) => m.start === 'fork');
    for (const m of [...cold.slice(0, 1), ...fork.slice(0, 1)]) {
      const side = matrix.filter((x) => x.start === m.start);
      const wall = median(side.map((x) => x.wall_s));
      const timed = median(side.map((x) => x.timed_s));
      out.push({
        id: `matrix_${m.start}`,
        label: `whole matrix, ${m.start} start: wall time / sum of timed work`,
        value: wall / timed,
        unit: 'ratio',
        target: null,
        met: null,
        detail: `${s(wall)} wall for ${m.processes} processes; timed work ${s(timed)} (warm-ups included ${s(median(side.map((x) => x.warmup_timed_s)))})`,
      });
    }
    if (cold.length && fork.length) {
      const speedup = median(cold.map((x) => x.wall_s)) / median(fork.map((x) => x.wall_s));
      out.push({
        id: 'matrix_speedup',
        label: 'whole matrix: cold wall time / fork wall time',
        value: speedup,
        unit: 'x',
        target: '>= 3x',
        met: speedup >= 3,
        detail: `cold ${s(median(cold.map((x) => x.wall_s)))} vs fork ${s(median(fork.map((x) => x.wall_s)))} (${cold.length} + ${fork.length} runs, alternating); the fork run's warm-ups + timed samples alone take ${s(fork[0].warmup_timed_s)}, so no start mode could make this matrix more than ${(median(cold.map((x) => x.wall_s)) / fork[0].warmup_timed_s).toFixed(2)}x faster than cold at this protocol`,
      });
      const cpu = median(cold.map((x) => x.cpu_s)) / median(fork.map((x) => x.cpu_s));
      out.push({
        id: 'matrix_speedup_cpu',
        label: 'whole matrix: cold CPU time / fork CPU time (load-robust cross-check)',
        value: cpu,
        unit: 'x',
        target: null,
        met: null,
        detail: `CPU time of each run's whole process tree: cold ${s(median(cold.map((x) => x.cpu_s)))} vs fork ${s(median(fork.map((x) => x.cpu_s)))}; 1-minute load average cold ${cold.map((x) => x.load.map((l) => l.toFixed(1)).join('->')).join(', ')}, fork ${fork.map((x) => x.load.map((l) => l.toFixed(1)).join('->')).join(', ')}`,
      });
      // Where the remaining time goes: processes of cells whose tool imports a library, and the rest.
      for (const withLibrary of [false, true]) {
        const pick = (m: MatrixRun) => m.detail.filter((d) => (d.library !== null) === withLibrary);
        const c = sum(pick(cold[0]).map((d) => d.wall_s));
        const f = sum(pick(fork[0]).map((d) => d.wall_s));
        const imports = sum(pick(fork[0]).map((d) => d.phases_s.imports ?? 0));
        const n = pick(fork[0]).length;
        if (n === 0) continue;
        out.push({
          id: withLibrary ? 'matrix_speedup_library' : 'matrix_speedup_torch',
          label: `whole matrix, ${n} processes of cells ${withLibrary ? 'whose tool imports a library' : 'on plain torch'}: cold / fork process time`,
          value: c / f,
          unit: 'x',
          target: null,
          met: null,
          detail: `sum of process wall times cold ${s(c)} vs fork ${s(f)}; in the forked children, imports (the tool's library) ${s(imports)}, timed work ${s(sum(pick(fork[0]).map((d) => d.phases_s.timed ?? 0)))}`,
        });
      }
      const differing = Object.keys(cold[0].verdicts).filter(
        (id) =>
          fork.some((f) => f.verdicts[id] !== cold[0].verdicts[id]) ||
          cold.some((c) => c.verdicts[id] !== cold[0].verdicts[id]),
      );
      out.push({
        id: 'verdicts_identical',
        label: 'cells whose status or exactness verdict differs between cold and fork',
        value: differing.length,
        unit: 'cells',
        target: '0',
        met: differing.length === 0,
        detail: differing.length
          ? `differ: ${differing.join(', ')}`
          : `all ${Object.keys(cold[0].verdicts).length} cells identical`,
      });
    }
  }
  return out;
}
