// The bench's outputs: one terminal table, and docs/performance.md (pure functions of the bench record).
import Table from 'cli-table3';
import type { Figure } from './figures.ts';
import { ENVIRONMENTS_SECTION } from './environments-section.ts';

/** Everything one bench run wrote to bench/results/<date>.json. */
export interface BenchRecord {
  bench: 1;
  date: string;
  started: string;
  finished: string;
  machine: Record<string, unknown>;
  settings: Record<string, unknown>;
  subset: { tools: string[]; why: string } | null;
  figures: Figure[];
  raw: Record<string, unknown>;
}

/** A figure's value in its unit. */
export function formatValue(f: Figure): string {
  if (f.value === null || Number.isNaN(f.value)) return 'n/a';
  switch (f.unit) {
    case 'ratio':
      return f.value.toFixed(3);
    case 'x':
      return `${f.value.toFixed(2)}x`;
    case 's':
      return `${f.value.toFixed(3)} s`;
    case 'relative':
      return `${f.value >= 0 ? '+' : ''}${(f.value * 100).toFixed(2)}%`;
    default:
      return `${f.value} ${f.unit}`;
  }
}

const verdict = (f: Figure) => (f.met === null ? '' : f.met ? 'met' : 'MISSED');

/** The terminal table. */
export function table(record: BenchRecord): string {
  const t = new Table({ head: ['figure', 'value', 'target', ''], wordWrap: true, colWidths: [58, 14, 18, 8] });
  for (const f of record.figures) t.push([f.label, formatValue(f), f.target ?? '', verdict(f)]);
  return t.toString();
}

/** How each figure is measured (docs/performance.md). */
const HOW: Record<string, string> = {
  fidelity:
    "Processes alternate within one run: benchgrid's `raw` single-module cell (a cold harness process started exactly as `benchgrid run` starts it, same request, environment and launcher) and `bench/handloop.py`, a plain script in the same environment that builds the same seeded ResNet-18 and input and times `model(x)` under `torch.no_grad()` with `perf_counter_ns`, with the same warm-ups, samples and thread count. Each round runs one process of each side (the order rotates every round). Value: the median over rounds of the ratio of the two process medians of a round, which cancels load that changes from round to round; the pooled ratio of cell medians is in the detail.",
  cost_cold:
    "The raw cell's cold processes above. Wall time is spawn to exit as Node sees it. Interpreter + imports = the harness's `startup` (process start to harness entry) + `imports` (torch, torchvision, numpy, the adapter) + exit (result file written to exit seen by Node: interpreter teardown). Subject build = `build`. Timed work = `prepare` + `warmup` + `timed`. What benchgrid adds = the rest: Node spawning and reaping, reading the request, building and writing the result, the harness's bookkeeping. Medians over the processes.",
  cost_fork:
    "The same split for the raw cell's forked processes (same rounds, alternating with the cold ones). `startup` is the time from the fork to the harness entry; `imports` is near zero because the parent imported torch and torchvision.",
  wall_vs_hand:
    "Per round, the cold raw process's wall time minus the hand-written script's (which does less: no site probe, no result file).",
  aa_fork:
    "The reference cell (`A/single_module_output/hooks`) at resnet18_cpu's default protocol, forked: every round runs it twice (sides A and B, in their own processes). A block of as many rounds as the protocol's `processes` gives each side a cell median (the median of its process medians, as a run computes it); value: the median over the blocks of the relative difference between the A and B cell medians (the largest is in the detail).",
  fork_vs_cold_raw:
    "The raw cell's forked and cold processes of the same rounds: the median over rounds of the ratio of their process medians, minus 1. Judged against the largest A/A difference measured in the same run (at least 2%).",
  fork_vs_cold_hooks: 'As above for the reference cell (hooks).',
  memory_fork_vs_cold:
    "Memory-mode processes of the hooks cell, one cold and one forked child per round over two rounds (the bench forks them on purpose). Peak RSS is `ru_maxrss`: a forked child counts only the pages it touches, not the parent's untouched shared-library pages that a cold process counts after importing torch, so the two are different quantities. This is why `--start fork` still starts memory processes cold (`forkLauncher` runs requests of mode `memory` through the cold path).",
  plan_10k:
    "A generated spec (20 subjects x 25 contracts x 20 tools on the built-in runner, one reason rule) written to a temporary directory; `loadSpec` (read, parse, schema, normalise, manifests, plan, rules) timed in-process with `performance.now()`, so Node's start is excluded. Value: the median of the repeats after the first; the first is shown too.",
  unsupported_processes: "From the whole-matrix runs' journals: processes whose cell the plan marks unsupported.",
  matrix_cold:
    "`benchgrid run` of the matrix through the real CLI (Node's start, the fork server's start and report writing included) at the reduced protocol; wall time over the sum of the `timed` phase of every process (the samples themselves, which no runner can avoid).",
  matrix_fork: 'As above, forked processes.',
  matrix_speedup_cpu:
    "The CPU time (user + system) of each run's whole process tree, read from the bench's reaped-children counters (`/proc/self/stat` cutime + cstime) around the run. Every cell process is single-threaded and reaped by its parent, so this counts the same work as the wall time but does not grow while other work holds the cores: with one round of each mode, the wall-time ratio moves with the machine's load from one run to the next, and this ratio does not.",
  matrix_speedup_torch:
    "From the same two runs' journals: the summed wall time of the processes of cells whose tool imports no library (plain torch: raw, hooks, torchvision fx, the reference), cold over fork. This is the floor the fork mode removes.",
  matrix_speedup_library:
    'As above for the cells whose tool uses a library (torchlens, nnsight, captum, thingsvision): every forked child still imports it and pays its first-use costs, since the parent must stay clean. torchlens imports lazily and wraps torch on its first call, so its cost shows in `prepare` and `warmup` rather than `imports`.',
  matrix_speedup: 'Median cold wall time over median fork wall time; the runs alternate cold, fork, cold, ...',
  verdicts_identical: "Every cell's status and exactness verdict in the cold runs against the fork runs.",
};

/** What limits a figure that missed its target (docs/performance.md and the note). */
const LIMITS: Record<string, string> = {
  fidelity:
    'The round-to-round spread of the ratio on this shared machine (see the detail) is several percent, so the standard error of the estimate is about the size of the target. `npm run bench -- --rounds 20` narrows it. Nothing in the harness is expected to differ from the hand loop beyond noise: the timed call is the same `model(x)`, and the fork-vs-cold figures show the same agreement.',
  cost_cold:
    "Interpreter teardown and Node's spawn of a detached process group are included; on a loaded 2-core machine every step (fork/exec, reading the 40 kB result schema check in Node, writing the result) waits for a core.",
  cost_fork:
    'Same as cold: on a loaded 2-core machine the child waits for a core after the fork; the time the parent takes to answer a command is included.',
  aa_fork:
    'On 2 cores shared with other work, other workloads (other agents building and testing) take the CPU at random; three processes per side do not average that out. On an idle machine the same protocol is expected to be well under 2%.',
  fork_vs_cold_raw:
    'The difference is of the size of the A/A noise of this loaded machine, so this run cannot resolve a difference smaller than that.',
  fork_vs_cold_hooks: 'As for the raw cell.',
  matrix_speedup:
    "Forking removes the interpreter start, the torch/torchvision import and the interpreter teardown (the per-process floor: the plain-torch cells gain about 4x, see above). What remains in a forked child is the cell's own work, which no start mode can remove: the subject build, the reference pass, the tool's preparation, its warm-ups and its samples. torchlens, which most cells of this matrix use, imports lazily and wraps torch on its first call, so that cost lands in every child's prepare and warm-up phases, by design (the parent must stay clean). The detail gives the bound this puts on any speed-up at this protocol.",
  plan_10k: 'See the detail column: the first load includes compiling the JSON Schema.',
  unsupported_processes: 'A process ran for a cell the plan marks unsupported: a planner or job-builder bug.',
  verdicts_identical: 'A verdict differs between start modes: see the cells listed.',
};

/** docs/performance.md. */
export function markdown(record: BenchRecord, noise: string[] = []): string {
  const m = record.machine as Record<string, any>;
  const lines = [
    "# benchgrid's own performance",
    '',
    `Measured ${record.date} by \`npm run bench\` (code in \`bench/\`; raw figures in \`bench/results/${record.date}.json\`). This file is regenerated by each run.`,
    '',
    '## Machine',
    '',
    `- ${m.cores}-core ${m.cpu}, ${m.memory_gib} GiB memory, ${m.platform}; Node ${m.node}; Python ${m.python}, torch ${m.torch}, torchvision ${m.torchvision}.`,
    `- Load average (1 min) ${m.loadavg_start} at the start and ${m.loadavg_end} at the end: the machine was shared with other work, so absolute times are those of a loaded machine. Every comparison below is therefore taken within one run, alternating the compared sides process by process (rotating which side goes first each round), so load affects both sides alike.`,
    `- Settings: ${Object.entries(record.settings)
      .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : v}`)
      .join('; ')}.`,
    ...(record.subset
      ? [
          `- Matrix: a subset of \`specs/resnet18_cpu.yaml\` (tools ${record.subset.tools.join(', ')}), because ${record.subset.why}.`,
        ]
      : ['- Matrix: the whole of `specs/resnet18_cpu.yaml`.']),
    '',
    '## Figures',
    '',
    '| figure | value | target | |',
    '|---|---|---|---|',
    ...record.figures.map((f) => `| ${f.label} | ${formatValue(f)} | ${f.target ?? ''} | ${verdict(f)} |`),
    '',
    '## How each was measured',
    '',
    ...record.figures.flatMap((f) => [
      `### ${f.label}`,
      '',
      `${formatValue(f)}${f.target ? ` (target ${f.target}: ${verdict(f).toLowerCase()})` : ''}. ${f.detail}.`,
      '',
      HOW[f.id] ?? '',
      ...(f.met === false && LIMITS[f.id] ? ['', `**Missed; what limits it:** ${LIMITS[f.id]}`] : []),
      '',
    ]),
    '## Start modes',
    '',
    "`--start cold` starts a fresh interpreter per cell process. `--start fork` keeps one parent per environment (`python -m benchgrid_harness.forkserver`) that has imported torch, torchvision and the harness, and nothing else: no CUDA initialisation (checked before every fork), no tool, no model, no tensor operation. Each cell process is a child forked from it, in its own session and process group, with its own log files, allow-listed environment, `sys.path` and cores, that runs the same harness entry point and exits. So every child starts from untouched modules and dies with whatever its tool patched. Memory-mode processes still start cold, because a forked child's peak RSS is a different quantity (see the memory figure).",
    '',
    'Proof that it changes nothing measured: the fork/cold figures above (same cell medians within A/A noise; identical statuses and exactness verdicts over the matrix), and `test/executors/local/forkserver.test.ts`, which runs the tiny spec both ways and compares every verdict, runs a tool that patches `torch.nn.functional.relu` and runs a torchlens trace (leaving its wrappers on torch) before a cell that fails if it sees any of it, and kills a hanging forked cell and its children at the time limit.',
    '',
    `The default is \`fork\` on the CPU, where this was measured; \`cold\` on CUDA, where no GPU was available to prove it (the design initialises CUDA only in the child, and the parent refuses to fork once CUDA is initialised). \`--start cold\` is always available. Results record the mode per run (\`run.start\`) and per process (\`per_process[].start\`).`,
    '',
    ...noise,
    ...ENVIRONMENTS_SECTION,
  ];
  return lines.join('\n');
}
