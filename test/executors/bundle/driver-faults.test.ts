// The driver handles faults as `run` does: ingest classifies each misbehaving process with the same
// reason test/run/faults.test.ts expects of `run`, and the driver kills a hung process's whole tree.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../../src/results/load.ts';
import type { Results } from '../../../src/results/model.ts';
import { cli, FIXTURES, testPython, tmpdir, sleepersLeftUnder } from '../../helpers.ts';
import { CRASHED, KILLED, TIMED_OUT } from '../../helpers/fault-cells.ts';

let results: Results;
let bundle: string;
const cell = (tool: string) => results.cells.find((c) => c.id === `F/single_module_output/${tool}/resnet18`)!;

beforeAll(async () => {
  const work = tmpdir('benchgrid-driver-faults-');
  bundle = path.join(work, 'bundle');
  const only = ['crash', 'signal', 'spawns', 'garbage', 'raises', 'unsupported', 'close']
    .map((t) => `F/single_module_output/${t}/*`)
    .join(',');
  const ex = await cli(['export', path.join(FIXTURES, 'specs/faults.yaml'), '--only', only, '--out', bundle]);
  expect(ex.code, ex.stderr).toBe(0);
  const run = await execa('python3', [path.join(bundle, 'driver.py'), '--python', await testPython()], {
    reject: false,
    timeout: 400_000,
  });
  expect(run.exitCode, run.stderr).toBe(0);
  const out = path.join(work, 'results');
  const r = await cli(['ingest', bundle, '--out', out]);
  expect(r.code, r.stderr).toBe(0);
  results = loadResults(path.join(out, 'results.json'));
}, 500_000);

describe('faulty cell processes run by the driver', () => {
  it('records a process that exits non-zero without a result, and one killed by a signal', () => {
    expect(cell('crash')).toMatchObject(CRASHED);
    expect(cell('signal')).toMatchObject(KILLED);
  });

  it('kills a hanging process and its children at the time limit', () => {
    expect(cell('spawns')).toMatchObject(TIMED_OUT);
    expect(sleepersLeftUnder(bundle)).toEqual([]);
  });

  it('validates result files against the schema', () => {
    expect(cell('garbage').reason).toMatch(/^the result file is not JSON/);
  });

  it('keeps exceptions, run-time unsupported reasons and verdicts', () => {
    expect(cell('raises')).toMatchObject({ status: 'error', reason: 'ValueError: boom' });
    expect(cell('raises').error?.tail).toMatch(/raise ValueError/);
    expect(cell('unsupported')).toMatchObject({ status: 'unsupported', reason: 'not today' });
    expect(cell('close')).toMatchObject({ status: 'ok', exact: 'close' });
  });

  it("keeps each process's stdout and stderr in the bundle's logs", () => {
    const logs = fs.readdirSync(path.join(bundle, 'logs'), { recursive: true }).map(String);
    expect(logs.filter((f) => f.endsWith('.stderr.log'))).toHaveLength(7);
    expect(fs.existsSync(path.join(bundle, 'work'))).toBe(true);
    expect(fs.readdirSync(path.join(bundle, 'work'))).toEqual([]);
  });
});
