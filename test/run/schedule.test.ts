// The interleaved schedule: rounds of every cell, shuffled per round from a recorded seed.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Job } from '../../src/run/jobs.ts';
import { runPlan } from '../../src/run/run-plan.ts';
import { roundsOf, schedule } from '../../src/run/schedule.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { FIXTURES } from '../helpers.ts';

/** The round each job of an interleaved schedule belongs to, by job key. */
function roundIndex(jobs: Job[]): Map<string, number> {
  const out = new Map<string, number>();
  roundsOf(jobs).forEach((round, r) => round.forEach((job) => out.set(job.key, r)));
  return out;
}

async function tinyJobs(
  kind: 'interleaved' | 'sequential',
  seed: number,
  protocol: { processes: number; memory_runs: number; aa_pairs: number },
) {
  const loaded = await loadSpec(path.join(FIXTURES, 'specs/tiny.yaml'));
  const spec = { ...loaded.spec!, protocol: { ...loaded.spec!.protocol, ...protocol } };
  return runPlan({
    spec,
    plan: loaded.plan!,
    manifests: loaded.manifests!,
    flags: { schedule: kind, seed },
    seed: () => seed,
    selection: { only: null, cells: null },
  }).jobs;
}

/** Splits a start order into rounds: a round ends where a cell would come a second time (A/A pairs aside). */
function cellsPerRound(jobs: Job[], rounds: Map<string, number>): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const j of jobs)
    if (j.kind !== 'aa') out.set(rounds.get(j.key)!, [...(out.get(rounds.get(j.key)!) ?? []), j.cell.id]);
  return out;
}

describe('the interleaved schedule', () => {
  it('runs every cell once per round, timing and memory processes alike, and rounds follow each other', async () => {
    const jobs = await tinyJobs('interleaved', 7, { processes: 3, memory_runs: 1, aa_pairs: 2 });
    expect(new Set(jobs.filter((j) => j.kind !== 'aa').map((j) => j.cell.id)).size).toBe(18); // tiny's planned cells
    // The raw cells are timed by their row's paired processes (docs/protocol.md, Pairing): they run the row's
    // control processes (as many as a cell's processes) and their memory process, no timing process.
    const raws = jobs.filter((j) => j.cell.tool === 'raw');
    expect(raws.filter((j) => j.kind === 'memory')).toHaveLength(6);
    expect(raws.filter((j) => j.kind === 'control')).toHaveLength(18);
    expect(raws.filter((j) => j.kind === 'time')).toHaveLength(0);
    const cells = [...new Set(jobs.filter((j) => j.kind === 'time').map((j) => j.cell.id))];
    expect(cells.length).toBe(12);
    const rounds = roundIndex(jobs);
    const per = cellsPerRound(
      jobs.filter((j) => j.cell.tool !== 'raw'),
      rounds,
    );
    expect([...per.keys()]).toEqual([0, 1, 2, 3]);
    for (const list of per.values()) expect([...list].sort()).toEqual([...cells].sort());
    // the start order visits the rounds in order: no process of round r+1 starts before all of round r
    const order = jobs.map((j) => rounds.get(j.key)!);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // each cell's processes spread over all rounds, memory process in the last
    for (const c of cells) {
      const mine = jobs.filter((j) => j.cell.id === c && j.kind !== 'aa');
      expect(new Set(mine.map((j) => rounds.get(j.key))).size).toBe(4);
      expect(rounds.get(`${c}#memory#0`)).toBe(3);
    }
    // Control process k of a row runs in round k, beside process k of the cells it controls.
    for (const j of raws.filter((x) => x.kind === 'control')) expect(rounds.get(j.key)).toBe(j.index);
    for (const j of raws.filter((x) => x.kind === 'memory')) expect(rounds.get(j.key)).toBe(3);
  });

  it('spreads the A/A pairs over the rounds, both processes of a pair in one round', async () => {
    const jobs = await tinyJobs('interleaved', 7, { processes: 3, memory_runs: 1, aa_pairs: 2 });
    const rounds = roundIndex(jobs);
    const aa = jobs.filter((j) => j.kind === 'aa');
    expect(aa.map((j) => j.cell.id)).toEqual(Array(4).fill('A/single_module_output/hooks/resnet18'));
    const roundOf = (i: number) => rounds.get(`A/single_module_output/hooks/resnet18#aa#${i}`);
    expect(roundOf(0)).toBe(roundOf(1));
    expect(roundOf(2)).toBe(roundOf(3));
    expect(roundOf(0)).not.toBe(roundOf(2));
  });

  it('shuffles each round from the seed: the same seed gives the same order, another seed another', async () => {
    const p = { processes: 3, memory_runs: 0, aa_pairs: 1 };
    const keys = (jobs: Job[]) => jobs.map((j) => j.key);
    const a = await tinyJobs('interleaved', 42, p);
    expect(keys(await tinyJobs('interleaved', 42, p))).toEqual(keys(a));
    expect(keys(await tinyJobs('interleaved', 43, p))).not.toEqual(keys(a));
    // rounds are shuffled independently: round 0's order is not simply repeated
    const per = cellsPerRound(a, roundIndex(a));
    expect(per.get(1)).not.toEqual(per.get(0));
    expect(new Set(keys(a)).size).toBe(a.length);
  });

  it('keeps the sequential order when asked: per cell its processes together, the A/A pairs last', async () => {
    const jobs = await tinyJobs('sequential', 7, { processes: 2, memory_runs: 1, aa_pairs: 1 });
    expect(jobs.slice(0, 6).map((j) => j.key)).toEqual([
      'A/single_module_output/raw/resnet18#control#0',
      'A/single_module_output/raw/resnet18#control#1',
      'A/single_module_output/raw/resnet18#memory#0',
      'A/single_module_output/hooks/resnet18#time#0',
      'A/single_module_output/hooks/resnet18#time#1',
      'A/single_module_output/hooks/resnet18#memory#0',
    ]);
    expect(jobs.slice(-2).map((j) => j.kind)).toEqual(['aa', 'aa']);
    expect(schedule(jobs, { kind: 'sequential', seed: 1 })).toEqual(jobs);
  });
});

describe('shards of an interleaved export', () => {
  it('get the same cells whatever the seed, and keep the rounds within each shard', async () => {
    const { shardJobs } = await import('../../src/executors/bundle/export.ts');
    const loaded = await loadSpec(path.join(FIXTURES, 'specs/tiny.yaml'));
    const order = loaded.plan!.cells.map((c) => c.id);
    const p = { processes: 2, memory_runs: 0, aa_pairs: 1 };
    const cellsOf = (jobs: Job[]) => [...new Set(jobs.map((j) => j.cell.id))].sort();
    const a = shardJobs(await tinyJobs('interleaved', 1, p), 2, order);
    const b = shardJobs(await tinyJobs('interleaved', 2, p), 2, order);
    expect(a.map(cellsOf)).toEqual(b.map(cellsOf));
    for (const shard of a) {
      const rounds = roundIndex(shard);
      const seen = shard.map((j) => rounds.get(j.key)!);
      expect(seen).toEqual([...seen].sort((x, y) => x - y));
    }
  });
});
