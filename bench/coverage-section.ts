// The "Run to run" section of docs/performance.md, from the coverage campaign's figures (bench/coverage.ts). Pure.
import type { CoverageFigures } from './coverage.ts';
import { median } from 'simple-statistics';
import { spliceSection } from './splice.ts';

const BEGIN = '## Run to run: coverage, import tax with its control, precision';
const pct = (x: number | null | undefined, d = 1) =>
  x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(d)}%`;
const x3 = (x: number) => x.toFixed(3);
const ci = (c: readonly [number, number]) => `${x3(c[0])}-${x3(c[1])}`;
const mins = (s: number) => `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
const short = (id: string) => {
  const [, contract, tool] = id.split('/');
  return `${contract === 'single_module_output' ? 'read' : contract === 'replacement_edit' ? 'replacement' : contract} / ${tool}`;
};

export function coverageSection(f: CoverageFigures, source: string): string[] {
  const names = f.runs.map((r) => r.name);
  const head = [
    "| run | started | beside it | wall time | load average (median, max) | other processes' busy cores per timing process (median; share above 0.3) | run-to-run model |",
    '|---|---|---|---|---|---|---|',
  ];
  const runRows = f.runs.map((r) => {
    const m = r.between_run as { source?: string; tau0?: number; sigma?: number; runs?: number } | null;
    const model = m
      ? `${m.source}${m.source === 'earlier runs' ? ` (${m.runs} runs)` : ''}: tau0 ${pct(m.tau0, 2)}, sigma ${pct(m.sigma, 1)}`
      : 'n/a';
    return `| ${r.name} | ${r.started.slice(11, 16)} UTC | ${r.busy ? 'one busy CPU process' : 'nothing'} | ${mins(r.wall_s)} | ${r.load.loadavg_median ?? 'n/a'}, ${r.load.loadavg_max ?? 'n/a'} | ${r.load.others_busy_median ?? 'n/a'}; ${pct(r.load.share_above_0_3, 0)} | ${model} |`;
  });
  /** The head of a table with a column per run between `cell` and two columns of its own. */
  const perRunHead = (last: string) => [
    `| cell | ${names.join(' | ')} | ${last} |`,
    `|---|${names.map(() => '---').join('|')}|---|---|`,
  ];
  /** A row of such a table: the cell, what each run found of it (blank where it did not run), and `last`. */
  const perRunRow = <R extends { run: string }>(id: string, runs: R[], found: (r: R) => string, last: string) => {
    const columns = names.map((n) => {
      const r = runs.find((x) => x.run === n);
      return r ? found(r) : '';
    });
    return `| ${short(id)} | ${columns.join(' | ')} | ${last} |`;
  };
  const cellHead = perRunHead('max/min quiet | max/min all');
  const cellRows = f.cells.map((c) =>
    perRunRow(
      c.id,
      c.runs,
      (r) => `${x3(r.ratio)} (${ci(r.ci95)})${r.holds ? '' : ' **x**'}`,
      `${c.max_min_quiet?.toFixed(3) ?? ''} | ${c.max_min_all?.toFixed(3) ?? ''}`,
    ),
  );
  const readCells = f.cells.filter((c) => c.row === 'single_module_output');
  const worstQuiet = Math.max(...readCells.map((c) => c.max_min_quiet ?? 1));
  const worstAll = Math.max(...readCells.map((c) => c.max_min_all ?? 1));
  const cov = f.coverage;
  const hooksOk = (() => {
    const [a, b] = f.hooks.intervals_containing_1_first_five_runs.split('/').map(Number);
    return a >= 0.9 * b;
  })();
  const taxHead = perRunHead('contain 1.0 | geometric mean');
  const taxRows = f.taxes.map((t) =>
    perRunRow(t.id, t.runs, (r) => `${x3(r.ratio)} (${ci(r.ci95)})`, `${t.contains_1} | ${t.pooled?.toFixed(3) ?? ''}`),
  );
  const controls = f.controls;
  const ctlHold = controls.filter((c) => c.ratio_contains_1).length;
  const aa = f.comparisons;
  const aaTools = aa.reduce((s, c) => s + c.tools_labelled.length, 0);
  const aaShare = Math.max(...aa.map((c) => c.labelled_share));
  const wall = f.wall;
  return [
    BEGIN,
    '',
    `Measured by \`bench/coverage.sh\` (raw figures in \`${source}\`) on this 2-core machine, ${f.date}: the read and replacement rows of \`specs/resnet18_cpu.yaml\` (\`--only 'A/single_module_output/*/*,A/replacement_edit/*/*'\`) ${f.runs.length} times on the same code at the spec's default protocol (3 to 10 processes per cell until its published interval is within 2%, a control of 10 processes per environment of a row), each run in the same directory, so that every run after the first reads the earlier ones as its history. The runs marked so shared the machine with one busy CPU process (a shell loop); nothing else ran on the machine during any run, and the load of each is in the table.`,
    '',
    ...head,
    ...runRows,
    '',
    'run1 had no earlier run to learn from and used the default of the code as it ran (tau0 0.5%, sigma 4%, from the pilots); after this campaign the default is 0.3% and 2%, about two and three times what the six runs fitted (docs/protocol.md, "Between runs").',
    '',
    "Each run's published ratio (x raw) and its 95% interval; **x**: the interval misses the median of the other runs' headlines.",
    '',
    ...cellHead,
    ...cellRows,
    '',
    '| figure | value | target | |',
    '|---|---|---|---|',
    `| read row: (tool, run) cases whose published interval holds the median of the other runs' headlines | ${cov.read_row.holds}/${cov.read_row.of} (${pct(cov.read_row.holds / cov.read_row.of, 0)}) | >= 90% | ${verdict(cov.read_row.holds >= 0.9 * cov.read_row.of)} |`,
    `| both rows: the same | ${cov.both_rows.holds}/${cov.both_rows.of} (${pct(cov.both_rows.holds / cov.both_rows.of, 0)}) | (for comparison) | |`,
    `| read row: largest headline max/min over the quiet runs | ${worstQuiet.toFixed(3)} | <= 1.05 | ${verdict(worstQuiet <= 1.05)} |`,
    `| read row: largest headline max/min over all runs | ${worstAll.toFixed(3)} | <= 1.08 | ${verdict(worstAll <= 1.08)} |`,
    `| read row: median 95% half-width of the published ratios, quiet runs (the paired ratio's own, without the run-to-run component: ${pct(f.widths.read_row_paired_median_quiet, 2)}) | ${pct(f.widths.read_row_published_median_quiet, 2)} | <= 2.0% | ${verdict(f.widths.read_row_published_median_quiet <= 0.02)} |`,
    `| hooks' controlled import tax: intervals holding 1.0, first five runs, both rows | ${f.hooks.intervals_containing_1_first_five_runs} | >= 9 of 10 | ${verdict(hooksOk)} |`,
    `| hooks' controlled import tax over the first five runs (geometric mean) | ${x3(f.hooks.pooled_first_five)} | within 1% of 1.0 | ${verdict(Math.abs(Math.log(f.hooks.pooled_first_five)) <= 0.01)} |`,
    `| the controls: the baseline against itself on its copy, intervals holding 1.0 | ${ctlHold}/${controls.length} | (a 95% interval misses 1 in 20) | |`,
    `| real A/A, compare of consecutive runs: tools labelled; largest share of cells labelled | ${aaTools}; ${pct(aaShare, 1)} | 0; <= 2% | ${verdict(aaTools === 0 && aaShare <= 0.02)} |`,
    `| real A/A: the cells' 95% half-widths, median of the pairs' medians; the widest | ${pct(median(aa.flatMap((c) => (c.cell_half_width ? [c.cell_half_width.median] : []))))}; ${pct(Math.max(...aa.map((c) => c.cell_half_width?.max ?? 0)))} | no wider than before this change (+-3-15%) | ${verdict(Math.max(...aa.map((c) => c.cell_half_width?.max ?? 0)) <= 0.15)} |`,
    '',
    "Precision: why each run's paired cells stopped adding processes, as the results record it (precision: the published interval within 2%; processes: the most, 10; unreachable: the run-to-run component alone is wider than the target, so more processes could not meet it; none: the run stopped the cell on the pool and model it had then, and judged again on the whole run's it is a little wider than the target):",
    '',
    ...f.widths.met_target.map(
      (m) =>
        `- ${m.run}: ${Object.entries(m)
          .filter(([k]) => k !== 'run')
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')}`,
    ),
    '',
    `Wall time: the quiet runs took ${wall.quiet_median_s === null ? 'n/a' : mins(wall.quiet_median_s)} (median)${wall.before ? `; the code before this change (3 processes per cell, no control) took ${mins(wall.before.wall_s)} on the same rows right after them (load average median ${wall.before.load.loadavg_median}), ${(wall.quiet_median_s! / wall.before.wall_s).toFixed(2)}x` : ''}.`,
    '',
    "A/A compare of consecutive runs (ratio mode, each run's run-to-run component added; cells labelled, and the cells' 95% half-widths):",
    '',
    ...aa.map(
      (c) =>
        `- ${c.pair}${c.busy.some(Boolean) ? ' (a loaded run)' : ''}: ${c.labelled.length} of ${c.comparable} cells labelled${c.labelled.length ? ` (${c.labelled.join('; ')})` : ''}, tools labelled ${c.tools_labelled.length ? c.tools_labelled.join(', ') : 'none'}; half-widths ${c.cell_half_width ? `${pct(c.cell_half_width.min)}-${pct(c.cell_half_width.max)} (widest: ${c.cell_half_width.widest}), median ${pct(c.cell_half_width.median)}` : 'n/a'}`,
    ),
    '',
    "Import tax, controlled (each cell's baseline after its tool's import over before it, divided by its row's control measured the same way with nothing imported; docs/protocol.md, \"The control\"):",
    '',
    ...taxHead,
    ...taxRows,
    '',
    "The controls per run, row and environment (the baseline on its copy against itself; its drift, after over before with nothing imported, is what every tool's tax is divided by):",
    '',
    '| run | row | environment | processes | copy / baseline | drift |',
    '|---|---|---|---|---|---|',
    ...controls.map(
      (c) =>
        `| ${c.run} | ${c.row === 'single_module_output' ? 'read' : 'replacement'} | ${c.environment.replace(/-[0-9a-f]{16}$/, '')} | ${c.processes} | ${x3(c.ratio)} (${ci(c.ratio_ci95)}) | ${x3(c.drift)} (${ci(c.drift_ci95)}) |`,
    ),
    '',
  ];
}

/** Replaces the section in `doc` (from its heading to the next `## `), or appends it. */
export function spliceCoverage(doc: string, section: string[]): string {
  return spliceSection(doc, BEGIN, section);
}
