// The environment guard reads each run's resolved sets (results.json `run.environments`, src/env/recorded.ts).
import { describe, expect, it } from 'vitest';
import { environmentDifferences } from '../../src/compare/env-guard.ts';
import type { Results } from '../../src/results/model.ts';
import { cpuRun } from './fixtures.ts';

function withResolved(r: Results, resolved: string[] | null): Results {
  return resolved === null
    ? r
    : { ...r, run: { ...(r.run ?? {}), environments: { main: { installer: 'uv 0.13.9', locked: false, resolved } } } };
}

describe('the environment guard over resolved sets', () => {
  it('names a transitive version that changed, and a package one side installed, blocking', () => {
    const before = withResolved(cpuRun(), ['filelock==3.20.0', 'numpy==2.3.4', 'torch==2.14.1']);
    const after = withResolved(cpuRun(), ['numpy==2.3.5', 'sympy==1.14.0', 'torch==2.14.1']);
    const d = environmentDifferences(before, after).filter((x) => x.key.startsWith('resolved.'));
    expect(d).toEqual([
      {
        key: 'resolved.main.filelock',
        before: '3.20.0',
        after: null,
        subjects: null,
        blocking: true,
        recorded: 'both',
      },
      { key: 'resolved.main.numpy', before: '2.3.4', after: '2.3.5', subjects: null, blocking: true, recorded: 'both' },
      { key: 'resolved.main.sympy', before: null, after: '1.14.0', subjects: null, blocking: true, recorded: 'both' },
    ]);
  });

  it('says nothing of the packages when one run recorded no resolved set (made before it was recorded)', () => {
    const d = environmentDifferences(cpuRun(), withResolved(cpuRun(), ['numpy==2.3.5']));
    expect(d.filter((x) => x.key.startsWith('resolved.'))).toEqual([]);
  });
});
