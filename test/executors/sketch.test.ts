// A new executor is one folder and one registration: the sketch in test/fixtures/executors/subprocess
// "submits" by running the exported bundle's driver in a subprocess. Registered, `run --executor` takes
// it, the tiny spec's cells come back as they do from Slurm, and `ingest` recognises its directory.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingest } from '../../src/commands/ingest.ts';
import { run } from '../../src/commands/run.ts';
import { executorOf, registerExecutor, runExecutorNames } from '../../src/executors/registry.ts';
import { loadResults } from '../../src/results/load.ts';
import { FIXTURES, testPython, tmpdir } from '../helpers.ts';
import { subprocess } from '../fixtures/executors/subprocess/index.ts';

const TINY = path.join(FIXTURES, 'specs/tiny.yaml');
const ONLY = 'A/single_module_output/*/*';
let python: string;

describe('a sketch executor that runs the bundle driver in a subprocess', () => {
  beforeAll(async () => {
    registerExecutor(subprocess);
    python = await testPython();
  });

  it('is offered to `run --executor` beside the built-in ones', () => {
    expect(runExecutorNames()).toEqual(['local', 'slurm', 'subprocess']);
  });

  it('runs a tiny spec, and ingest finds its directory and ingests it again, as it does a Slurm submission', async () => {
    const out = path.join(tmpdir('benchgrid-sketch-'), 'submission');
    await run(TINY, { executor: 'subprocess', out, only: ONLY, processes: 1, python });
    const cells = (file: string) =>
      loadResults(file)
        .cells.map((c) => [c.id, c.status, c.exact])
        .sort();
    const expected = [
      ['A/single_module_output/hooks/resnet18', 'ok', null],
      ['A/single_module_output/raw/resnet18', 'ok', null],
      ['A/single_module_output/tv_fx/resnet18', 'ok', 'bit'],
    ];
    expect(cells(path.join(out, 'results.json'))).toEqual(expected);
    expect(loadResults(path.join(out, 'results.json'))).toMatchObject({
      partial: false,
      run: { executor: 'subprocess' },
    });

    expect((await executorOf([out])).name).toBe('subprocess');
    expect((await executorOf([path.join(out, 'bundle')])).name).toBe('bundle');
    const again = path.join(path.dirname(out), 'again');
    await ingest([out], { out: again });
    expect(cells(path.join(again, 'results.json'))).toEqual(expected);
    expect(
      fs
        .readFileSync(path.join(out, 'bundle', 'journal.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"type": "process"')).length,
    ).toBe(3);
  }, 600_000);
});
