// Every way a cell process can misbehave becomes a recorded status, and the run goes on.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.ts';
import { loadResults } from '../../src/results/load.ts';
import type { Results } from '../../src/results/model.ts';
import { cli, FIXTURES, testPython, tmpdir, sleepersLeftUnder } from '../helpers.ts';
import { CRASHED, KILLED, TIMED_OUT } from '../helpers/fault-cells.ts';

let results: Results;
let out: string;
let code: number;
const cell = (tool: string) => results.cells.find((c) => c.id === `F/single_module_output/${tool}/resnet18`)!;

beforeAll(async () => {
  out = path.join(tmpdir(), 'run');
  const r = await cli(['run', path.join(FIXTURES, 'specs/faults.yaml'), '--out', out, '--python', await testPython()], {
    timeout: 400_000,
  });
  code = r.code;
  results = loadResults(path.join(out, 'results.json'));
}, 420_000);

describe('a run with faulty adapters', () => {
  it('finishes with exit 5: failures are recorded, not fatal, and a CI can tell them from a clean run', () => {
    expect(code).toBe(EXIT.cellErrors);
    expect(results.partial).toBe(false);
    expect(results.cells).toHaveLength(12);
  });

  it('records a process that exits non-zero without a result', () => {
    expect(cell('crash')).toMatchObject(CRASHED);
  });

  it('records a process killed by a signal', () => {
    expect(cell('signal')).toMatchObject(KILLED);
  });

  it('kills a hanging process at the time limit, and its children with it', () => {
    expect(cell('hang')).toMatchObject(TIMED_OUT);
    expect(cell('spawns')).toMatchObject(TIMED_OUT);
    const pidFile = fs.readdirSync(path.join(out, 'processes', 'F+single_module_output+spawns+resnet18'));
    expect(pidFile.length).toBeGreaterThan(0);
    // the `sleep 3600` child the adapter started is gone too
    expect(sleepersLeftUnder(out)).toEqual([]);
  });

  it('records a result file that is not JSON, or does not match the schema', () => {
    expect(cell('garbage').status).toBe('error');
    expect(cell('garbage').reason).toMatch(/^the result file is not JSON/);
    expect(cell('badschema').status).toBe('error');
    expect(cell('badschema').reason).toMatch(/^the result file does not match schemas\/result\.schema\.json/);
  });

  it('keeps what a chatty tool prints out of the result', () => {
    expect(cell('chatty')).toMatchObject({ status: 'ok', exact: 'bit' });
  });

  it('records an exception with its type, message and traceback tail', () => {
    const c = cell('raises');
    expect(c).toMatchObject({ status: 'error', reason: 'ValueError: boom' });
    expect(c.error?.tail).toMatch(/raise ValueError/);
    expect(results.subjects.resnet18.not_measured).toContain('F/single_module_output/raises: ValueError: boom');
  });

  it('records a tool that declines at run time as unsupported with its reason', () => {
    expect(cell('unsupported')).toMatchObject({ status: 'unsupported', reason: 'not today' });
  });

  it('gives exactness verdicts against the reference: bit, close and mismatch with the difference', () => {
    expect(cell('hooks').exact).toBeNull();
    expect(cell('mismatch')).toMatchObject({ status: 'ok', exact: 'mismatch' });
    expect(cell('mismatch').max_abs_diff).toBeCloseTo(1, 5);
    expect(cell('close')).toMatchObject({ status: 'ok', exact: 'close' });
    expect(cell('close').max_abs_diff!).toBeGreaterThan(0);
    expect(cell('close').max_abs_diff!).toBeLessThan(1e-6);
  });
});
