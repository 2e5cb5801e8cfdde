// `run --jobs N`: workers pinned to disjoint cores (recorded per process), never two processes of one
// cell at once, the journal written per process.
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../../src/results/load.ts';
import type { Results } from '../../../src/results/model.ts';
import { cpuSets } from '../../../src/executors/local/launcher.ts';
import { readJournal, type ProcessRecord } from '../../../src/records/journal.ts';
import { cli, FIXTURES, testPython, tmpdir } from '../../helpers.ts';

describe('CPU sets for parallel workers', () => {
  it('pins nothing for one job', () => {
    expect(cpuSets(1, 1, 8)).toEqual([]);
  });

  it('splits the cores into equal disjoint slices, one per worker', () => {
    expect(cpuSets(2, 1, 8)).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
    expect(cpuSets(3, 2, 8)).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
  });

  it('refuses more workers than cores, and slices thinner than the torch threads', () => {
    expect(() => cpuSets(3, 1, 2)).toThrow('--jobs 3 needs at least 3 CPU cores; this machine has 2.');
    expect(() => cpuSets(2, 2, 2)).toThrow(
      "--jobs 2 leaves 1 core(s) per worker, fewer than the protocol's 2 torch threads.",
    );
  });
});

describe.skipIf(os.cpus().length < 2)('run --jobs 2', () => {
  let records: ProcessRecord[];
  let results: Results;
  let stderr: string;

  beforeAll(async () => {
    const out = path.join(tmpdir(), 'run');
    const only = 'A/single_module_output/tv_fx/*,A/single_module_output/hooks/*';
    const r = await cli(
      [
        'run',
        path.join(FIXTURES, 'specs/tiny.yaml'),
        '--only',
        only,
        '--jobs',
        '2',
        '--out',
        out,
        '--python',
        await testPython(),
      ],
      { timeout: 500_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    stderr = r.stderr;
    records = readJournal(out).records;
    results = loadResults(path.join(out, 'results.json'));
  }, 520_000);

  it('journals every process, pinned to one of two disjoint core sets', () => {
    expect(records).toHaveLength(4); // 2 cells x 2 processes
    const sets = [...new Set(records.map((r) => JSON.stringify(r.cpus)))].map((s) => JSON.parse(s) as number[] | null);
    expect(sets.every((s) => Array.isArray(s) && s.length > 0)).toBe(true);
    expect(sets.length).toBeGreaterThanOrEqual(1);
    const expected = cpuSets(2, 1).map((s) => JSON.stringify(s));
    for (const s of sets) expect(expected).toContain(JSON.stringify(s));
    expect(stderr).toMatch(/--jobs 2: workers pinned to cores .* \| .*; two processes of one cell never run at once\./);
  });

  it('records the pinning in the results, per process, and the jobs in the run', () => {
    expect(results.run).toMatchObject({ jobs: 2 });
    for (const c of results.cells) {
      expect(c.status).toBe('ok');
      for (const p of c.per_process!) expect(p.cpus?.length).toBeGreaterThan(0);
    }
  });

  it('never runs two processes of one cell at once, and does run different cells side by side', () => {
    const span = (r: ProcessRecord) => [Date.parse(r.started), Date.parse(r.started) + r.wall_s * 1000] as const;
    const overlap = (a: ProcessRecord, b: ProcessRecord) => span(a)[0] < span(b)[1] && span(b)[0] < span(a)[1];
    let sideBySide = 0;
    for (let i = 0; i < records.length; i++) {
      for (let j = i + 1; j < records.length; j++) {
        if (records[i].cell === records[j].cell)
          expect(overlap(records[i], records[j]), `${records[i].key} / ${records[j].key}`).toBe(false);
        else if (overlap(records[i], records[j])) {
          sideBySide++;
          expect(records[i].cpus).not.toEqual(records[j].cpus);
        }
      }
    }
    expect(sideBySide).toBeGreaterThan(0);
  });
});
