// Ctrl-C keeps everything finished and marks the results partial; --resume completes only what is missing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../src/records/journal.ts';
import { loadResults } from '../../src/results/load.ts';
import { cli, testPython, tmpdir } from '../helpers.ts';
import { journalHolds, runTiny, startCli, TINY } from '../helpers/tiny-run.ts';

describe('interrupting a run', () => {
  it('SIGINT keeps finished processes; --resume runs only the missing ones and loses nothing', async () => {
    const out = path.join(tmpdir(), 'run');
    const python = await testPython();
    const child = startCli(runTiny(['--only', 'A/single_module_output/*/*,B/**'], out, python));
    // wait for two finished processes, then interrupt
    await journalHolds(out, 2);
    child.kill('SIGINT');
    const first = await child;
    expect(first.exitCode).toBe(130);
    // A run started with --python is resumed with it again (a run directory never names the interpreter started).
    expect(first.stderr).toMatch(
      /SIGINT: stopping; what finished is kept\. Resume with: benchgrid run --resume \S+ --python \S+/,
    );
    const before = readJournal(out).records;
    expect(before.length).toBeGreaterThanOrEqual(2);
    const partial = loadResults(path.join(out, 'results.json'));
    expect(partial.partial).toBe(true);

    const r = await cli(['run', '--resume', out, '--python', python], { timeout: 300_000 });
    expect(r.code, r.stderr).toBe(0);
    const after = readJournal(out).records;
    // what was measured before the interruption is still there, untouched, and nothing ran twice
    for (const rec of before) expect(after.find((a) => a.key === rec.key)).toEqual(rec);
    expect(new Set(after.map((a) => a.key)).size).toBe(after.length);
    // 4 cells x 2 processes, and the 2 of the read row's control: the fifth cell, raw, is timed by the
    // paired processes of hooks and tv_fx, and runs its row's control instead
    expect(after).toHaveLength(4 * 2 + 2);
    expect(after.filter((rec) => rec.kind === 'control').map((rec) => rec.cell)).toEqual([
      'A/single_module_output/raw/resnet18',
      'A/single_module_output/raw/resnet18',
    ]);
    // interleaved (the default): round 1 runs every cell once and the control's first process, then round
    // 2 does, in the seeded order the interrupted run started with; the journal keeps that order across the resume
    const rounds = [after.slice(0, 5), after.slice(5)].map((r) => r.map((rec) => rec.cell));
    for (const round of rounds) expect(new Set(round).size).toBe(5);
    expect(after.slice(0, 5).every((rec) => rec.index === 0)).toBe(true);
    const header = readJournal(out).header!;
    expect(header.schedule).toMatchObject({ kind: 'interleaved', seed: expect.any(Number) });
    const full = loadResults(path.join(out, 'results.json'));
    expect(full.partial).toBe(false);
    expect(full.run).toMatchObject({ schedule: header.schedule });
    expect(full.cells.filter((c) => c.status === 'ok')).toHaveLength(5);
    expect(fs.existsSync(path.join(out, 'journal.jsonl'))).toBe(true);
  }, 600_000);

  it('refuses to resume when the spec changed since the run started', async () => {
    const dir = tmpdir();
    const spec = path.join(dir, 'tiny.yaml');
    fs.copyFileSync(TINY, spec);
    const out = path.join(dir, 'run');
    // an empty selection still writes the journal header; then the spec changes
    fs.mkdirSync(out);
    fs.writeFileSync(
      path.join(out, 'journal.jsonl'),
      JSON.stringify({
        type: 'header',
        v: 1,
        spec: { name: 'tiny', digest: 'abc', file: spec },
        device: 'cpu',
        only: null,
        overrides: {},
        python: null,
        start: 'cold',
        jobs: 1,
        started: new Date().toISOString(),
      }) + '\n',
    );
    const r = await cli(['run', '--resume', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/changed since this run started .* cannot be merged\. Start a new run\./);
  });
});
