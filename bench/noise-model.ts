// Estimates the compare simulator's noise model (test/compare/simulate-runs.ts, RunModel) from real runs'
// journals, as docs/compare.md "What the simulation shows" describes:
//   node bin/node-ts.js bench/noise-model.ts RUN_DIR... (interleaved runs at the same protocol)
// Every figure is an sd of a logarithm (0.02 is about 2%):
// - within: per timing process, 1.4826 x the median absolute deviation of its log samples; the median
//   over processes.
// - drift: interleaved, process i of every cell runs in round i; a round's effect is the mean over cells of
//   their process i's log median minus the cell's mean. Its sd over rounds and runs.
// - process: the residuals once the cell mean and the round effect are taken out, pooled over cells on
//   their degrees of freedom, less what the median of `samples` samples contributes (1.2533 x within / sqrt(n)).
// - run: between each two runs, the median over their common cells of log(after / before) cell medians;
//   the root mean square of those shifts over sqrt(2) (each shift is the difference of two runs' offsets).
import fs from 'node:fs';
import path from 'node:path';
import { mean, median } from 'simple-statistics';

interface Proc {
  cell: string;
  index: number;
  samples: number[];
}

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error('usage: node bin/node-ts.js bench/noise-model.ts RUN_DIR... (each with a journal.jsonl)');
  process.exit(2);
}

/** The ok timing processes of a run's journal (A/A processes left out: they run outside the rounds' cells). */
function processes(dir: string): Proc[] {
  const out: Proc[] = [];
  for (const line of fs.readFileSync(path.join(dir, 'journal.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line);
    if (r.type !== 'process' || r.kind !== 'time' || r.outcome?.kind !== 'result') continue;
    const res = r.outcome.result;
    const s: unknown = res?.timing?.samples_ms;
    if (res.status !== 'ok' || !Array.isArray(s) || s.length < 3 || !s.every((v) => typeof v === 'number' && v > 0))
      continue;
    out.push({ cell: r.cell, index: r.index, samples: s as number[] });
  }
  return out;
}

const runs = dirs.map((d) => ({ dir: d, procs: processes(d) }));
const withins: number[] = [];
const roundEffects: number[] = [];
let residualSs = 0;
let residualDf = 0;
const sampleCounts: number[] = [];
for (const { procs } of runs) {
  for (const p of procs) {
    const logs = p.samples.map(Math.log);
    const m = median(logs);
    withins.push(1.4826 * median(logs.map((v) => Math.abs(v - m))));
    sampleCounts.push(p.samples.length);
  }
  const byCell = new Map<string, Proc[]>();
  for (const p of procs) byCell.set(p.cell, [...(byCell.get(p.cell) ?? []), p]);
  const resid: { cell: string; index: number; r: number }[] = [];
  for (const [cell, ps] of byCell) {
    if (ps.length < 2) continue;
    const meds = ps.map((p) => Math.log(median(p.samples)));
    const mu = mean(meds);
    ps.forEach((p, i) => resid.push({ cell, index: p.index, r: meds[i] - mu }));
    residualDf += ps.length - 1;
  }
  const rounds = [...new Set(resid.map((x) => x.index))];
  const effect = new Map(rounds.map((i) => [i, mean(resid.filter((x) => x.index === i).map((x) => x.r))]));
  for (const i of rounds) roundEffects.push(effect.get(i)!);
  for (const x of resid) residualSs += (x.r - effect.get(x.index)!) ** 2;
  residualDf -= rounds.length - 1;
}

const within = median(withins);
const samples = Math.round(median(sampleCounts));
const rawProcess = Math.sqrt(residualSs / residualDf);
const process_ = Math.sqrt(Math.max(0, rawProcess ** 2 - (1.2533 * within) ** 2 / samples));
const drift = Math.sqrt(roundEffects.reduce((a, b) => a + b * b, 0) / roundEffects.length);

const shifts: { pair: string; shift: number }[] = [];
for (let a = 0; a < runs.length; a++) {
  for (let b = a + 1; b < runs.length; b++) {
    const med = (ps: Proc[]) => {
      const by = new Map<string, number[]>();
      for (const p of ps) by.set(p.cell, [...(by.get(p.cell) ?? []), median(p.samples)]);
      return new Map([...by].map(([c, ms]) => [c, median(ms)]));
    };
    const ma = med(runs[a].procs);
    const mb = med(runs[b].procs);
    const logs = [...ma].filter(([c]) => mb.has(c)).map(([c, v]) => Math.log(mb.get(c)! / v));
    if (logs.length > 0)
      shifts.push({ pair: `${path.basename(runs[a].dir)} -> ${path.basename(runs[b].dir)}`, shift: median(logs) });
  }
}
const run = shifts.length ? Math.sqrt(mean(shifts.map((s) => s.shift ** 2)) / 2) : null;

const f = (x: number | null) => (x === null ? 'n/a' : x.toFixed(4));
console.log(
  JSON.stringify(
    {
      runs: dirs.map((d) => path.basename(d)),
      processes: runs.reduce((a, r) => a + r.procs.length, 0),
      samples_per_process: samples,
      within: Number(f(within)),
      process: Number(f(process_)),
      process_before_within_correction: Number(f(rawProcess)),
      drift: Number(f(drift)),
      rounds: roundEffects.length,
      run: run === null ? null : Number(f(run)),
      shifts: shifts.map((s) => ({ pair: s.pair, shift: Number(f(s.shift)) })),
    },
    null,
    2,
  ),
);
