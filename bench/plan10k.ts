// Validate + plan time of a generated 10,000-cell spec, in this process (Node's own start excluded).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { stringify } from 'yaml';
import { loadSpec } from '../src/validate/load.ts';
import { median } from '../src/stats/summary.ts';
import { SIX_CONTRACTS } from '../test/helpers/six-contracts.ts';

/** What one timing of loadSpec (read, parse, extends, schema, normalise, plan, rules) found. */
export interface PlanFigure {
  cells: number;
  runs_s: number[];
  median_s: number;
  first_s: number;
  diagnostics: number;
}

/** A valid spec of `subjects` x `contracts` x `tools` cells on the built-in runner (hooks and raw adapters). */
export function generatedSpec(subjects = 20, contracts = 25, tools = 20): Record<string, unknown> {
  const pad = (i: number) => String(i).padStart(2, '0');
  const s = Object.fromEntries(
    Array.from({ length: subjects }, (_, i) => [
      `s${pad(i)}`,
      {
        label: `ResNet-18 #${i}`,
        model: { builder: 'torchvision', name: 'resnet18', seed: i },
        inputs: { kind: 'image', shape: [1, 3, 32, 32], seed: i, stimuli: 8, batch_size: 4 },
        sites: { layer2: 'layer2' },
      },
    ]),
  );
  const c = Object.fromEntries(
    Array.from({ length: contracts }, (_, i) => [
      `c${pad(i)}`,
      {
        label: `contract ${i}`,
        kind: SIX_CONTRACTS[i % SIX_CONTRACTS.length],
        site: 'layer2',
        ...(SIX_CONTRACTS[i % SIX_CONTRACTS.length] === 'repeated_steering'
          ? { params: { strengths: [-1, 1], direction_seed: 1 } }
          : {}),
        ...(SIX_CONTRACTS[i % SIX_CONTRACTS.length] === 'same_site_gradient' ? { params: { target: 0 } } : {}),
      },
    ]),
  );
  const t = Object.fromEntries(
    Array.from({ length: tools }, (_, i) => [
      `t${pad(i)}`,
      { label: `tool ${i}`, adapter: i % 2 === 0 ? 'hooks' : 'raw' },
    ]),
  );
  return {
    benchgrid: 1,
    name: 'generated_10k',
    title: 'Generated 10,000-cell spec',
    device: 'cpu',
    subjects: s,
    contracts: c,
    tools: t,
    groups: {
      G: {
        reference: 't00',
        subjects: Object.keys(s),
        contracts: Object.keys(c),
        tools: Object.keys(t),
        unsupported: [
          {
            tools: ['t19'],
            contracts: ['c00', 'c01'],
            reason: 'declared unsupported, to exercise the rules',
            policy: true,
          },
        ],
      },
    },
  };
}

/** Times loadSpec on the generated spec `repeats` times (the first includes module warm-up). */
export async function measurePlan(repeats = 7): Promise<PlanFigure> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchgrid-bench-plan-'));
  const file = path.join(dir, 'generated_10k.yaml');
  fs.writeFileSync(file, stringify(generatedSpec()));
  const runs: number[] = [];
  let cells = 0;
  let diagnostics = 0;
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    const loaded = await loadSpec(file);
    runs.push((performance.now() - t0) / 1000);
    if (!loaded.plan)
      throw new Error(
        `the generated spec does not validate: ${loaded.diagnostics
          .slice(0, 3)
          .map((d) => d.message)
          .join(' | ')}`,
      );
    cells = loaded.plan.cells.length;
    diagnostics = loaded.diagnostics.length;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return { cells, runs_s: runs, median_s: median(runs.slice(1)), first_s: runs[0], diagnostics };
}
