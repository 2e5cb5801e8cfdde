// The figures of docs/compare.md's across-runs simulation. Slow (minutes): not a test. Run with
//   node bin/node-ts.js test/compare/simulation-figures.ts [pairs]
import { labelRates, runToRun, toolRates } from './across-runs.simulation.ts';
import { CAMPAIGN, CONTENDED, LOADED, QUIET, type RunModel } from './simulate-runs.ts';

const pairs = Number(process.argv[2] ?? 500);
const shifts = [0, 0.01, 0.02, 0.03];
const models: [string, RunModel, number[]][] = [
  ['quiet, interleaved', QUIET, shifts],
  ['quiet, sequential', { ...QUIET, schedule: 'sequential' }, [0, 0.02]],
  ['bench day, interleaved', LOADED, [0, 0.02]],
  ['contended, interleaved', CONTENDED, [0.19]],
];
// `node bin/node-ts.js test/compare/simulation-figures.ts 200 contended` runs the rows whose name starts with it.
const only = process.argv[3];
const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
console.log(
  `| model | run shift sd | A/A labelled (ratio) | A/A labelled (absolute) | 10% slower labelled slower (ratio) | (absolute) |`,
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const [name, model, levels] of models.filter(([n]) => !only || n.startsWith(only))) {
  for (const run of levels) {
    const aa = labelRates(pairs, 1, { ...model, run }, 1000 + run * 1000);
    const slow = labelRates(pairs, 1.1, { ...model, run }, 2000 + run * 1000);
    const flagged = (r: Record<string, number>) => r.faster + r.slower;
    console.log(
      `| ${name} | ${(run * 100).toFixed(0)}% | ${pct(flagged(aa.ratio), pairs)} | ${pct(flagged(aa.absolute), pairs)} | ${pct(slow.ratio.slower, pairs)} | ${pct(slow.absolute.slower, pairs)} |`,
    );
  }
}
console.log(`\n${pairs} pairs per row.`);

// Tool verdicts on the campaign's model: a resnet18_cpu-like matrix of 7 tools x 6 contracts with two
// A/A pairs of hooks, `tool` unchanged (A/A) or 10% slower in every contract.
if (!only || 'campaign'.startsWith(only)) {
  console.log(
    `\n| model | run shift sd | A/A: tool labelled | A/A: other tools labelled | A/A: cells labelled | 10% slower: tool labelled slower | 10% slower: its cells labelled slower |`,
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const run of shifts) {
    const aa = toolRates(pairs, 1, { ...CAMPAIGN, run }, 3000 + run * 1000);
    const slow = toolRates(pairs, 1.1, { ...CAMPAIGN, run }, 4000 + run * 1000);
    const all = (r: Record<string, number>) => r.faster + r.slower + r.within_noise;
    const flagged = (r: Record<string, number>) => r.faster + r.slower;
    console.log(
      `| campaign (tool verdicts) | ${(run * 100).toFixed(0)}% | ${pct(flagged(aa.tool), all(aa.tool))} | ${pct(flagged(aa.others), all(aa.others))} | ${pct(flagged(aa.cells), all(aa.cells))} | ${pct(slow.tool.slower, all(slow.tool))} | ${pct(slow.cells.slower, all(slow.cells))} |`,
    );
  }
}

// Issue 13's run-to-run figure (median over cells of |run1/run2 - 1|), interleaved against sequential, at
// resnet18_cpu's protocol (3 processes x 10 samples), without a run shift: what the schedule can remove
// on each model's noise.
if (!only || 'run-to-run'.startsWith(only)) {
  console.log(`\n| model (3 x 10) | interleaved | sequential | interleaved lower by |`);
  console.log('| --- | ---: | ---: | ---: |');
  for (const [name, model] of [
    ['quiet', QUIET],
    ['campaign', CAMPAIGN],
  ] as const) {
    const m = { ...model, samples: 10, run: 0 };
    const il = runToRun({ ...m, schedule: 'interleaved' }, 5000);
    const sq = runToRun({ ...m, schedule: 'sequential' }, 6000);
    console.log(`| ${name} | ${pct(il, 1)} | ${pct(sq, 1)} | ${pct(1 - il / sq, 1)} |`);
  }
  console.log(`\n300 pairs of runs per model, 56 cells each.`);
}
