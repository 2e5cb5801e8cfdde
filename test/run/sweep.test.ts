// A real run of a swept spec: each point is a subject of its own, measured in real Python processes, and
// the harness is asked for each point exactly as for a subject declared by hand with that value.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestSubject } from '../../src/run/jobs.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { FIXTURES, tmpdir, write } from '../helpers.ts';
import { runBeforeAll } from './cell-fixtures.ts';

const SPEC = path.join(FIXTURES, 'specs/sweep.yaml');
const run = runBeforeAll(SPEC, 240_000);

describe('benchgrid run of a swept spec', () => {
  it("runs every cell of every point, and its results' subjects are the points", () => {
    expect(run.results.cells.map((c) => `${c.id} ${c.status}`).sort()).toEqual([
      'A/single_module_output/hooks/gpt2@seq=32 ok',
      'A/single_module_output/hooks/gpt2@seq=8 ok',
      'A/single_module_output/raw/gpt2@seq=32 ok',
      'A/single_module_output/raw/gpt2@seq=8 ok',
    ]);
    expect(Object.keys(run.results.subjects).sort()).toEqual(['gpt2@seq=32', 'gpt2@seq=8']);
  });

  it('asks the harness for a point as for the subject written out with its value', async () => {
    const request = JSON.parse(
      fs.readFileSync(
        path.join(run.out, 'processes', 'A+single_module_output+hooks+gpt2@seq=32', 'time-0.request.json'),
        'utf8',
      ),
    );
    const byHand = fs
      .readFileSync(SPEC, 'utf8')
      .replace('shape: [1, 8]', 'shape: [1, 32]')
      .replace(/\n    sweep:.*\n/, '\n');
    const { spec } = await loadSpec(write(tmpdir(), 'by-hand.yaml', byHand));
    expect(request.subject).toEqual(
      JSON.parse(JSON.stringify({ ...requestSubject(spec!.subjects.gpt2), id: 'gpt2@seq=32' })),
    );
    expect(request.subject.inputs).toMatchObject({ kind: 'tokens', shape: [1, 32] });
  });
});
