// The tiny spec's plan as aggregate() tests hand it over: hand-made process records need a real plan to
// aggregate into, and the run's facts around them.
import path from 'node:path';
import type { RunInfo } from '../../src/results/aggregate.ts';
import { loadValidSpec, type ValidSpec } from '../../src/validate/valid.ts';
import { FIXTURES } from '../helpers.ts';

/** test/fixtures/specs/tiny.yaml, validated and planned. */
export function loadTiny(): Promise<ValidSpec> {
  return loadValidSpec(path.join(FIXTURES, 'specs/tiny.yaml'), { quietWarnings: true });
}

/** A complete CPU run of `cells` of the tiny spec with `processes` per cell; `facts` says how and where. */
export function tinyRun(
  tiny: ValidSpec,
  cells: string[],
  processes: number,
  facts: Pick<RunInfo, 'run' | 'measuredOn' | 'host'>,
): RunInfo {
  return {
    spec: tiny.spec,
    plan: tiny.plan,
    selected: new Set(cells),
    protocol: { ...tiny.spec.protocol, processes },
    device: 'cpu',
    partial: false,
    ...facts,
  };
}
