// `benchgrid plan` of a swept spec as a user runs it: every point of the sweep, a grid each.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, ROOT } from '../helpers.ts';

const EXAMPLE = path.join(ROOT, 'specs/examples/sweep_cpu.yaml');

describe('benchgrid plan of a sweep', () => {
  it("--json lists every point's cells, GROUP/contract/tool/SUBJECT@seq=N, point by point", async () => {
    const r = await cli(['plan', EXAMPLE, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const ids: string[] = JSON.parse(r.stdout).cells.map((c: { id: string }) => c.id);
    expect(ids.filter((id) => id.startsWith('A/single_module_output/hooks/'))).toEqual([
      'A/single_module_output/hooks/gpt2@seq=16',
      'A/single_module_output/hooks/gpt2@seq=64',
      'A/single_module_output/hooks/gpt2@seq=256',
    ]);
    expect(ids).toHaveLength(18);
  });

  it("draws a grid per point, headed by the subject's label and the point", async () => {
    const r = await cli(['plan', EXAMPLE], { env: { COLUMNS: '200' } });
    expect(r.code, r.stderr).toBe(0);
    const heads = r.stdout.split('\n').filter((l) => l.startsWith('A: '));
    expect(heads).toEqual(
      ['16', '64', '256'].map(
        (n) => `A: cost over sequence length / GPT-2 (2 layers, 64 wide, random), gpt2@seq=${n}: 6 of 6 cells run`,
      ),
    );
  });
});
