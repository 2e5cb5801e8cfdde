// The "Pairing" section of docs/performance.md, rendered from bench/results/pairing-<date>.json (bench/pairing.ts),
// so that its figures are the file's, never typed by hand.
import { spliceSection } from './splice.ts';

/** What bench/pairing.ts writes (the parts rendered here). */
export interface PairingSummary {
  date: string;
  machine: { cores: number };
  runs: {
    name: string;
    probe: string;
    spec: string;
    started: string;
    wall_s: number;
    load: { median: number | null; max: number | null };
  }[];
  widths: {
    run: string;
    load: Record<string, Load>;
    cells: number;
    median_paired_hw: number | null;
    median_published_hw: number | null;
    median_unpaired_hw: number | null;
    inside_unpaired: string;
    outside: string[];
    unpaired_cells_of_group_a: string[];
  }[];
  unpaired_today: { run: string; median_unpaired_hw: number } | null;
  real_aa: Comparison[];
  sensitivity: (Comparison & { expected: string })[];
  order_effect: { processes: number; tool_first_minus_baseline_first: number; se: number; p: number } | null;
  estimators: Record<string, number> | null;
  fixtures: {
    rawclone: { id: string; ratio: number; ci95: [number, number]; holds_1: boolean; tax: number }[];
    taxed: {
      id: string;
      paired: number;
      tax: number;
      tax_ci95: [number, number];
      published: number;
      published_tax: number | null;
    }[];
    extra: { matmul: number; expected: number; extra: number | null } | null;
    load: Load;
  } | null;
  import_tax: { resnet18_cpu: Tax[] | null; gpt2_tiny_cpu: Tax[] | null; gpt2_load: Load | null };
  precision:
    | {
        target: number;
        median_processes: number;
        quartiles: number[];
        max: number;
        process_s: number | null;
        estimated_process_s: number;
      }[]
    | null;
  wall: { new: Wall[]; before: Wall | null; main_run: { run: string; processes: number; total_s: number } | null };
  verdicts_vs_before: { run: string; same: string; differing: string[] }[] | null;
  paired_noise: { pair: number; process: number; tax: number } | null;
  paired_noise_all_tools: { pair: number; process: number; tax: number } | null;
  simulation: { pairs: number; aa_labelled: number; slowed5_labelled_slower: number } | null;
  simulation_all_tools: { pairs: number; aa_labelled: number; slowed5_labelled_slower: number } | null;
}

interface Comparison {
  pair: string;
  probe_changed: boolean;
  comparable: number;
  labelled: string[];
  labelled_rate: number;
  tools_judged: number;
  tools_labelled: string[];
  probe_cells: { id: string; label: string; ratio: number | null }[];
  probe_tool: { label: string; ratio: number | null } | null;
}
type Load = { median: number | null; max: number | null };
interface Wall {
  run: string;
  wall_s: number;
  load: Load;
  processes?: number;
  total_s?: number;
}
interface Tax {
  tool: string;
  ratio: number;
  low: number;
  high: number;
  cells: number;
  processes: number;
}

const BEGIN = '## Pairing: paired ratios, import tax, real A/A';
const pct = (x: number | null | undefined, d = 1) =>
  x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(d)}%`;
const min = (s: number) => `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;
const met = (ok: boolean) => (ok ? 'met' : '**missed**');
const load = (l: Load | null | undefined) =>
  l && l.median !== null ? `load average median ${l.median.toFixed(2)}, max ${l.max?.toFixed(2)}` : 'load not sampled';
const tax = (t: Tax) =>
  `| ${t.tool} | ${t.ratio.toFixed(3)}x | ${t.low.toFixed(3)}-${Number.isFinite(t.high) ? t.high.toFixed(3) : 'unbounded'} | ${t.cells} | ${t.processes} |`;

function figureRows(s: PairingSummary): string[] {
  const rows: string[] = [];
  for (const w of s.widths)
    rows.push(
      `| ${w.run} (${load(Object.values(w.load)[0])}): median over ${w.cells} paired tool cells of the paired ratio's 95% half-width (unpaired in the same run: ${pct(w.median_unpaired_hw)}; published, with the tax: ${pct(w.median_published_hw)}) | ${pct(w.median_paired_hw, 2)} | <= 1.5% | ${met((w.median_paired_hw ?? 1) <= 0.015)} |`,
    );
  if (s.unpaired_today)
    rows.push(
      `| ${s.unpaired_today.run} (the code before pairing, same cells as N2 and N3): median unpaired half-width of a tool cell's ratio to raw | ${pct(s.unpaired_today.median_unpaired_hw)} | (for comparison) | |`,
    );
  for (const c of s.real_aa)
    rows.push(
      `| real A/A ${c.pair}${c.probe_changed ? " (every cell but the probe's)" : ''}: comparable cells labelled; tools labelled | ${c.labelled.length} of ${c.comparable} (${pct(c.labelled_rate)})${c.labelled.length ? `: ${c.labelled.join('; ')}` : ''}; ${c.tools_labelled.length} of ${c.tools_judged}${c.tools_labelled.length ? `: ${c.tools_labelled.join('; ')}` : ''} | <= 2%; 0 | ${met(c.labelled_rate <= 0.02 && c.tools_labelled.length === 0)} |`,
    );
  for (const c of s.sensitivity) {
    const right = c.probe_cells.filter((p) => p.label === c.expected).length;
    rows.push(
      `| the probe slowed 5% in N2, ${c.pair}: its cells labelled ${c.expected}, each on its own (the probe as a tool: ${c.probe_tool?.label ?? 'n/a'}, x${c.probe_tool?.ratio?.toFixed(3) ?? 'n/a'}) | ${right} of ${c.probe_cells.length} (${c.probe_cells.map((p) => `${p.id.split('/')[1]} x${p.ratio?.toFixed(3)} ${p.label}`).join('; ')}) | all | ${met(right === c.probe_cells.length && right > 0)} |`,
    );
  }
  if (s.simulation) {
    rows.push(
      `| simulated pairs of paired runs on the probe's noise model (${s.simulation.pairs} each): A/A labelled | ${pct(s.simulation.aa_labelled)} | <= 2% | ${met(s.simulation.aa_labelled <= 0.02)} |`,
    );
    rows.push(
      `| simulated pairs on the probe's noise model: one cell slowed 5% labelled slower | ${pct(s.simulation.slowed5_labelled_slower)} | >= 90% | ${met(s.simulation.slowed5_labelled_slower >= 0.9)} |`,
    );
  }
  if (s.simulation_all_tools)
    rows.push(
      `| the same on the noise of every tool's cells pooled (A/A; 5% slower) | ${pct(s.simulation_all_tools.aa_labelled)}; ${pct(s.simulation_all_tools.slowed5_labelled_slower)} | (for comparison) | |`,
    );
  for (const w of s.widths)
    rows.push(
      `| ${w.run}: published ratios (the paired ratio, with the tax where shown) inside the unpaired interval of the same run | ${w.inside_unpaired}${w.outside.length ? ` (outside: ${w.outside.join('; ')})` : ''} | all | ${met(w.outside.length === 0)} |`,
    );
  return rows;
}

/** Markdown lines of the section; `file` is named as the source of the figures. */
export function pairedSections(s: PairingSummary, file: string): string[] {
  const lines = [
    BEGIN,
    '',
    `Measured by \`bench/pairing.sh\` (raw figures in \`${file}\`) on this ${s.machine.cores}-core machine, ${s.date}, while other engineers' test suites shared it outside the runs marked alone (the load average of each run is in the table): runs of \`specs/resnet18_cpu.yaml\` at its default protocol (3 processes of 10 samples per cell) plus a \`probe\` tool in group A, the hooks reference under another name, slowed 5% on purpose in N2. N1 is group A whole (resumed once after an interruption, so its wall clock is not a run's); N2, M1 and N3 are its contracts single_module_output and replacement_edit (17 cells), each alone on the machine; M1 is the code before pairing; F the pairing fixtures on one contract, G one cell per tool of \`specs/gpt2_tiny_cpu.yaml\` (its import taxes), both sharing the machine.`,
    '',
    '| run | spec | probe | started | wall time | load average (median, max) |',
    '|---|---|---|---|---|---|',
    ...s.runs.map(
      (r) =>
        `| ${r.name} | ${r.spec} | ${r.probe} | ${r.started.slice(11, 16)} UTC | ${min(r.wall_s)} | ${r.load.median?.toFixed(2) ?? 'n/a'}, ${r.load.max?.toFixed(2) ?? 'n/a'} |`,
    ),
    '',
    '| figure | value | target | |',
    '|---|---|---|---|',
    ...figureRows(s),
    '',
  ];
  if (s.wall.before) {
    const b = s.wall.before;
    const line = (w: Wall) =>
      `${w.run} ${min(w.wall_s)} (processes ${min(w.total_s ?? 0)} over ${w.processes ?? 'n/a'}; ${load(w.load)})`;
    const mean = s.wall.new.reduce((a, r) => a + r.wall_s, 0) / Math.max(1, s.wall.new.length);
    lines.push(
      `Wall time on the same 17 cells, each run alone: ${s.wall.new.map(line).join(', ')} against ${line(b)} with the code before pairing (${((mean / b.wall_s - 1) * 100).toFixed(1)}%; target: no longer, **${met(mean <= b.wall_s)}**). Statuses and exactness verdicts against the code before pairing: ${(s.verdicts_vs_before ?? []).map((v) => `${v.run} ${v.same} the same${v.differing.length ? ` (${v.differing.join('; ')})` : ''}`).join(', ')}.`,
      '',
    );
  }
  if (s.precision)
    for (const p of s.precision)
      lines.push(
        `Processes the precision rule needs for a ${pct(p.target)} half-width of a paired ratio (N1's cells at their own spread, moderated by the run's): median ${p.median_processes}, quartiles ${p.quartiles.join('-')}, most ${p.max}; group A's processes would then take about ${min(p.estimated_process_s)} on one core, against ${min(p.process_s ?? 0)} at the default protocol.`,
        '',
      );
  if (s.estimators)
    lines.push(
      `Per-process estimators of the paired ratio, sd of their logarithm between processes of one cell (N1, N2 and N3's paired cells, pooled): ${Object.entries(
        s.estimators,
      )
        .map(([k, v]) => `${k} ${pct(v, 2)}`)
        .join(', ')}.`,
      '',
    );
  if (s.order_effect)
    lines.push(
      `Order inside a pair, over ${s.order_effect.processes} paired processes of N1, N2 and N3: tool-first pairs minus baseline-first pairs, mean log ratio ${pct(s.order_effect.tool_first_minus_baseline_first, 2)} (standard error ${pct(s.order_effect.se, 2)}, p ${s.order_effect.p.toFixed(2)}).`,
      '',
    );
  const model = (n: { pair: number; process: number; tax: number }) =>
    `a pair's ratio around its process's ${pct(n.pair, 2)}, a process's paired ratio around its cell's beyond its pairs ${pct(n.process, 2)}, a process's import tax ${pct(n.tax, 2)}`;
  if (s.paired_noise)
    lines.push(
      `Paired noise model (sd of logarithms, from N1, N2 and N3's probe and hooks cells): ${model(s.paired_noise)}. Over every tool's cells: ${s.paired_noise_all_tools ? model(s.paired_noise_all_tools) : 'n/a'}.`,
      '',
    );
  const fx = s.fixtures;
  if (fx) {
    lines.push(
      `Fixtures (F, \`test/fixtures/runners/paired\`, ${load(fx.load)}): the tool that is exactly raw: ${fx.rawclone.map((r) => `${r.id.split('/')[1]} ${r.ratio.toFixed(3)} (${r.ci95[0].toFixed(3)}-${r.ci95[1].toFixed(3)})`).join(', ')}: ${fx.rawclone.filter((r) => r.holds_1).length} of ${fx.rawclone.length} intervals hold 1.0. The tool that slows every forward once imported (TAX in taxed.py): import tax ${fx.taxed.map((t) => `${t.id.split('/')[1]} ${t.tax.toFixed(3)}`).join(', ')}; published ratios ${fx.taxed.map((t) => t.published.toFixed(3)).join(', ')} (paired ratios ${fx.taxed.map((t) => t.paired.toFixed(3)).join(', ')}).${fx.extra ? ` The forward plus a known matrix product: ${fx.extra.extra?.toFixed(3)} against 1 + the product alone, ${fx.extra.expected.toFixed(3)}.` : ''}`,
      '',
    );
  }
  for (const name of ['resnet18_cpu', 'gpt2_tiny_cpu'] as const) {
    const taxes = s.import_tax[name];
    if (!taxes) continue;
    lines.push(
      `Import tax, ${name} (the plain forward after each tool's import over before it, over all the tool's paired processes${name === 'gpt2_tiny_cpu' ? `; ${load(s.import_tax.gpt2_load)}` : ''}):`,
      '',
      '| tool | import tax | 95% CI | cells | processes |',
      '|---|---|---|---|---|',
      ...taxes.map(tax),
      '',
    );
  }
  return lines;
}

/** Replaces the section in `doc` (from its heading to the next `## `), or appends it. */
export function splicePairing(doc: string, section: string[]): string {
  return spliceSection(doc, BEGIN, section);
}
