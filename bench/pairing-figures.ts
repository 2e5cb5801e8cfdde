// The figures of paired measurement, computed from the campaign's saved runs
// (bench/pairing.sh): widths, real A/A, sensitivity, bias, import taxes, processes for 1%, wall time.
import fs from 'node:fs';
import path from 'node:path';
import jStat from 'jstat';
import { mean, median } from 'simple-statistics';
import { compareResults } from '../src/compare/compute.ts';
import type { Results } from '../src/results/model.ts';
import { toolTaxes } from '../src/results/published.ts';
import { runPool } from '../src/results/cell-stop.ts';
import { moderatedLogSpread, type Pool } from '../src/stats/spread.ts';
import { estimators, orderEffect, pairedNoise, simulation } from './pairing-noise.ts';
import { halfWidth, rawOf, toolCells, unpairedCI, widths } from './pairing-widths.ts';

export { pairedNoise } from './pairing-noise.ts';
export { unpairedCI } from './pairing-widths.ts';

/** One run of the campaign with its results. */
export interface Run {
  name: string;
  probe: string;
  started: string;
  wall_s: number;
  spec?: string;
  dir: string;
  results: Results;
}

/**
 * compare of two runs: labelled share of comparable cells, labelled tools, and the probe's cells and verdict.
 * Where the probe changed between the runs (slowed 5% in one), the A/A figures are of the other cells and tools.
 */
function comparison(a: Run, b: Run) {
  const cmp = compareResults(a.results, b.results, { before: a.name, after: b.name });
  const changed = a.probe !== b.probe;
  const comparable = cmp.cells.filter((c) => c.speed.label !== 'unavailable' && !(changed && c.tool === 'probe'));
  const labelled = comparable.filter((c) => c.speed.label === 'faster' || c.speed.label === 'slower');
  const probe = cmp.cells.filter((c) => c.tool === 'probe' && c.speed.label !== 'unavailable');
  const judged = (cmp.tools ?? []).filter((t) => t.label !== 'unavailable' && !(changed && t.tool === 'probe'));
  const probeTool = (cmp.tools ?? []).find((t) => t.tool === 'probe') ?? null;
  return {
    pair: `${a.name} -> ${b.name}`,
    probe_changed: changed,
    comparable: comparable.length,
    labelled: labelled.map(
      (c) =>
        `${c.id}: ${c.speed.label} (x${c.speed.ratio?.toFixed(3)}, ${c.speed.decided_by}, ${c.speed.paired ?? ''})`,
    ),
    labelled_rate: labelled.length / Math.max(1, comparable.length),
    probe_tool: probeTool && { label: probeTool.label, ratio: probeTool.ratio, interval: probeTool.interval },
    probe_cells: probe.map((c) => ({
      id: c.id,
      label: c.speed.label,
      ratio: c.speed.ratio,
      interval: c.speed.interval && [c.speed.interval.low, c.speed.interval.high],
      paired: c.speed.paired ?? null,
    })),
    tools_judged: judged.length,
    tools_labelled: judged
      .filter((t) => t.label !== 'within_noise')
      .map((t) => `${t.tool}: ${t.label} (x${t.ratio?.toFixed(3)})`),
    threshold: cmp.noise.map((n) => ({
      subject: n.subject,
      threshold: n.threshold,
      aa_paired: [n.aa_paired_before?.max_rel_diff ?? null, n.aa_paired_after?.max_rel_diff ?? null],
    })),
  };
}
/** Per paired cell, the processes the precision rule would need for a 1% half-width of its paired ratio, at its own and the run's spread. */
function processesFor(run: Run, target: number) {
  const pool: Pool | null = runPool(run.results.cells, true);
  const needed = toolCells(run.results)
    .filter((c) => c.paired)
    .map((c) => {
      const { variance } = moderatedLogSpread(
        c.paired!.processes.map((p) => p.ratio),
        pool,
      );
      let p = 2;
      while (
        p < 200 &&
        Math.exp((jStat.studentt.inv(0.975, (pool?.prior_df ?? 0) + p - 1) * Math.sqrt(variance)) / Math.sqrt(p)) - 1 >
          target
      )
        p++;
      const walls = c.per_process!.map((x) => x.wall_s);
      return { id: c.id, processes: p, process_wall_s: mean(walls), ran: c.per_process!.length };
    });
  // A run's wall time with each paired cell at its needed processes instead of the ones it ran, the rest as it was.
  const delta = needed.reduce((s, n) => s + (n.processes - n.ran) * n.process_wall_s, 0);
  return {
    target,
    median_processes: median(needed.map((n) => n.processes)),
    quartiles: [
      quantile(
        needed.map((n) => n.processes),
        0.25,
      ),
      quantile(
        needed.map((n) => n.processes),
        0.75,
      ),
    ],
    max: Math.max(...needed.map((n) => n.processes)),
    process_s: processWalls(run)?.total_s ?? null,
    estimated_process_s: (processWalls(run)?.total_s ?? run.wall_s) + delta,
    per_cell: needed,
  };
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

/** Statuses and exactness verdicts of two runs, cell by cell. */
function sameVerdicts(a: Results, b: Results) {
  const byId = new Map(b.cells.map((c) => [c.id, c]));
  const common = a.cells.filter((c) => byId.has(c.id));
  const differ = common.filter(
    (c) => byId.get(c.id)!.status !== c.status || (byId.get(c.id)!.exact ?? null) !== (c.exact ?? null),
  );
  return {
    same: `${common.length - differ.length}/${common.length}`,
    differing: differ.map(
      (c) => `${c.id}: ${c.status}/${c.exact} -> ${byId.get(c.id)!.status}/${byId.get(c.id)!.exact}`,
    ),
  };
}

/** The fixtures run: a tool that is exactly raw, one that slows torch on import (TAX in taxed.py), a known extra product. */
function fixtures(run: Run | null) {
  if (!run) return null;
  const cells = run.results.cells.filter((c) => c.status === 'ok' && c.paired);
  const of = (tool: string) => cells.filter((c) => c.tool === tool);
  const matmul = of('matmul')[0]?.paired?.ratio ?? null;
  return {
    rawclone: of('rawclone').map((c) => ({
      id: c.id,
      ratio: c.paired!.ratio,
      ci95: c.paired!.ci95,
      holds_1: c.paired!.ci95[0] <= 1 && 1 <= c.paired!.ci95[1],
      tax: c.import_tax!.ratio,
    })),
    taxed: of('taxed').map((c) => ({
      id: c.id,
      paired: c.paired!.ratio,
      tax: c.import_tax!.ratio,
      tax_ci95: c.import_tax!.ci95,
      published: c.paired!.published.ratio,
      published_tax: c.paired!.published.tax,
    })),
    extra: matmul === null ? null : { matmul, expected: 1 + matmul, extra: of('extra')[0]?.paired?.ratio ?? null },
  };
}

/** Where the probe changed between two runs, whether its cells got the label the change should give. */
function probeVerdict(a: Run, b: Run) {
  const c = comparison(a, b);
  // Slowed after: slower is right; slowed before (a later run back on the copy): faster is.
  const expected = b.probe === 'copy' ? 'faster' : 'slower';
  return {
    ...c,
    expected,
    probe_cells_right: `${c.probe_cells.filter((p) => p.label === expected).length}/${c.probe_cells.length}`,
  };
}

/** The sum of a run's process wall times by kind, from its journal (a resumed run's wall clock means nothing). */
function processWalls(run: Run) {
  const file = path.join(run.dir, 'journal.jsonl');
  if (!fs.existsSync(file)) return null;
  const records = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((r) => r.type === 'process');
  const sum: Record<string, number> = {};
  for (const r of records) sum[r.kind] = (sum[r.kind] ?? 0) + r.wall_s;
  return { processes: records.length, seconds_by_kind: sum, total_s: Object.values(sum).reduce((x, y) => x + y, 0) };
}

/**
 * Every figure of the campaign (bench/pairing.sh): N1 the main run of group A (sharing the machine), N2 the
 * probe slowed 5% and N3 back on the copy on two contracts alone on the machine, M1 the code before pairing
 * on those two contracts, F the fixtures, G gpt2_tiny_cpu's import taxes.
 */
export function campaignFigures(
  by: (name: string) => Run | null,
  loadDuring: (r: Run) => { median: number | null; max: number | null },
) {
  const [n1, n2, n3, m1, g, f] = ['N1', 'N2', 'N3', 'M1', 'G', 'F'].map(by);
  const present = (xs: (Run | null)[]) => xs.filter((x): x is Run => x !== null);
  const mainRuns = present([n1, n2, n3]);
  // The simulator judges the probe: its noise model is the probe's and its reference's (hooks) cells'.
  const noise = mainRuns.length ? pairedNoise(mainRuns, (t) => t === 'probe' || t === 'hooks') : null;
  const allTools = mainRuns.length ? pairedNoise(mainRuns) : null;
  const withLoad = (r: Run, x: object) => ({ ...x, load: { [r.name]: loadDuring(r) } });
  return {
    widths: mainRuns.map((r) => withLoad(r, widths(r))),
    unpaired_today: m1
      ? {
          run: m1.name,
          median_unpaired_hw: median(
            toolCells(m1.results)
              .filter((c) => c.tool !== 'probe')
              .flatMap((c) => {
                const u = unpairedCI(c, rawOf(m1.results, c));
                return u ? [halfWidth(u.ci95)] : [];
              }),
          ),
        }
      : null,
    // N1 -> N3: an A/A of every cell (N1 shared the machine, N3 had it alone); N2 -> N3 an A/A of every cell
    // but the probe's, both alone; N1 -> N2 the same with N1 loaded.
    real_aa: [n1 && n3 && comparison(n1, n3), n2 && n3 && comparison(n2, n3), n1 && n2 && comparison(n1, n2)].filter(
      Boolean,
    ),
    // The probe slowed 5% in N2: N1 -> N2 should say slower, N2 -> N3 faster.
    sensitivity: [n1 && n2 && probeVerdict(n1, n2), n2 && n3 && probeVerdict(n2, n3)].filter(Boolean),
    order_effect: mainRuns.length ? orderEffect(mainRuns) : null,
    estimators: mainRuns.length ? estimators(mainRuns) : null,
    fixtures: f ? { ...fixtures(f), load: loadDuring(f) } : null,
    import_tax: {
      resnet18_cpu: n1 ? toolTaxes(n1.results.cells) : null,
      gpt2_tiny_cpu: g ? toolTaxes(g.results.cells) : null,
      gpt2_load: g ? loadDuring(g) : null,
      gpt2_cells: g
        ? g.results.cells
            .filter((c) => c.import_tax)
            .map((c) => ({ id: c.id, ratio: c.import_tax!.ratio, ci95: c.import_tax!.ci95 }))
        : null,
    },
    precision: n1 ? [processesFor(n1, 0.01), processesFor(n1, 0.015)] : null,
    // The code before pairing against this code on the same cells, both alone on the machine.
    wall: {
      new: present([n2, n3]).map((r) => ({ run: r.name, wall_s: r.wall_s, load: loadDuring(r), ...processWalls(r) })),
      before: m1 ? { run: m1.name, wall_s: m1.wall_s, load: loadDuring(m1), ...processWalls(m1) } : null,
      main_run: n1 ? { run: n1.name, ...processWalls(n1) } : null,
    },
    verdicts_vs_before: m1 ? mainRuns.map((r) => ({ run: r.name, ...sameVerdicts(m1.results, r.results) })) : null,
    paired_noise: noise,
    paired_noise_all_tools: allTools,
    simulation: noise ? simulation(noise) : null,
    simulation_all_tools: allTools ? simulation(allTools) : null,
    journals: mainRuns
      .map((r) => path.relative(process.cwd(), path.join(r.dir, 'journal.jsonl')))
      .filter((p) => fs.existsSync(p)),
  };
}
