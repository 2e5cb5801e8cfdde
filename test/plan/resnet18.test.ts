// The resnet18 specs describe the seed's whole matrix: the same 83 cell ids and its static reasons.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/validate/load.ts';
import { ROOT, PREDECESSOR_RESULTS } from '../helpers.ts';

const seed = JSON.parse(fs.readFileSync(PREDECESSOR_RESULTS, 'utf8'));
const seedCells: Record<string, { statuses: string[]; reason?: string }> = seed.resnet18.groups;

/**
 * Cells the seed gave a static reason that benchgrid now runs (issue 4 replaced those reasons with
 * real adapters). Every other static reason must be carried verbatim.
 */
const NOW_RUN = new Set<string>(
  JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/seed-reasons-now-run.json'), 'utf8')),
);

/** Seed statuses that came from a run, not from the spec: not static reasons. */
const RUNTIME_REASON = /not importable|RuntimeError|Error:/;

for (const name of ['resnet18_gpu', 'resnet18_cpu']) {
  describe(`specs/${name}.yaml`, async () => {
    const loaded = await loadSpec(path.join(ROOT, 'specs', `${name}.yaml`));
    const plan = loaded.plan!;

    it('loads without errors', () => {
      expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    });

    it("has exactly the seed's 83 cell ids, in the seed's order", () => {
      expect(plan.cells.map((c) => c.id)).toEqual(Object.keys(seedCells));
      expect(plan.cells).toHaveLength(83);
    });

    it('carries every static reason of the seed verbatim, or runs the cell', () => {
      for (const [id, cell] of Object.entries(seedCells)) {
        if (cell.statuses[0] !== 'unsupported' || RUNTIME_REASON.test(cell.reason ?? '')) continue;
        const mine = plan.cells.find((c) => c.id === id)!;
        if (NOW_RUN.has(id)) expect(mine.status, id).toBe('planned');
        else
          expect({ id, status: mine.status, reason: mine.reason }).toEqual({
            id,
            status: 'unsupported',
            reason: cell.reason,
          });
      }
    });

    it('plans every cell the seed measured', () => {
      for (const [id, cell] of Object.entries(seedCells)) {
        if (cell.statuses[0] === 'ok') expect(plan.cells.find((c) => c.id === id)?.status, id).toBe('planned');
      }
    });

    it("holds the seed's 29 page rows, in order", () => {
      const entries = loaded.spec!.page.flatMap((s) =>
        s.rows.flatMap((r) => r.entries.map((e) => ({ row: r.label, cell: e.cell }))),
      );
      expect(entries).toHaveLength(29);
      const title = loaded.spec!.title;
      const seedRows = (seed.page_rows as { text: string }[]).map((r) =>
        r.text
          .split(' | ')[0]
          .slice(2)
          .replace(/, n=\d+ processes$/, '')
          .replace('ResNet-18, GPU', title),
      );
      expect(entries.map((e) => e.row)).toEqual(seedRows);
    });
  });
}

describe('specs/resnet18_cpu.yaml', () => {
  it('extends the GPU spec instead of copying it', async () => {
    const cpu = await loadSpec(path.join(ROOT, 'specs/resnet18_cpu.yaml'));
    expect(cpu.spec!.sources.map((s) => path.basename(s))).toEqual(['resnet18_gpu.yaml', 'resnet18_cpu.yaml']);
    expect(cpu.spec!.device).toBe('cpu');
    expect(fs.readFileSync(path.join(ROOT, 'specs/resnet18_cpu.yaml'), 'utf8').split('\n').length).toBeLessThan(40);
  });
});
