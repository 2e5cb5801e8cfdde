// Work witnesses: adapters that do more or less than their contract asks are caught and marked, fair ones are
// not, in real Python processes with real torch; and a contract defined only by a fixture runner runs end to end.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CellResult } from '../../src/results/model.ts';
import { cli, FIXTURES } from '../helpers.ts';
import { SIX_CONTRACTS } from '../helpers/six-contracts.ts';
import { cellOf, runBeforeAll } from './cell-fixtures.ts';

const SPEC = path.join(FIXTURES, 'specs/work.yaml');
const run = runBeforeAll(SPEC, 400_000);
const cell = (id: string): CellResult => cellOf(run.results, id);

describe('work witnesses on the six A contracts', () => {
  it('records witnesses for every measured cell and marks none of the fair tools', () => {
    for (const contract of SIX_CONTRACTS) {
      for (const tool of ['raw', 'hooks', 'fair']) {
        const c = cell(`A/${contract}/${tool}/resnet18`);
        expect(c.status, c.id).toBe('ok');
        // One witness per timing process; raw's processes are the blocks of its row's paired processes.
        expect(c.work?.witnesses, c.id).toHaveLength(tool === 'raw' ? c.processes! : 1);
        expect({ id: c.id, differs: c.work?.differs }).toEqual({ id: c.id, differs: [] });
      }
    }
  });

  it('counts the forwards the contract needs: one per strength and one per dataset batch', () => {
    expect(cell('A/single_module_output/hooks/resnet18').work).toMatchObject({
      required: { forwards: 1, parameter_grads: false },
      witnesses: [{ forwards: 1, parameter_grads: false }],
    });
    expect(cell('A/repeated_steering/hooks/resnet18').work?.witnesses[0].forwards).toBe(2);
    expect(cell('A/ordered_dataset_features/hooks/resnet18').work?.witnesses[0].forwards).toBe(2);
    expect(cell('A/same_site_gradient/hooks/resnet18').work?.witnesses[0]).toMatchObject({
      forwards: 1,
      parameter_grads: true,
    });
    expect(cell('A/same_site_gradient/raw/resnet18').work?.witnesses[0].parameter_grads).toBe(true);
    // 128 channels x 4 x 4 float32 at layer2 for a 32x32 input.
    expect(cell('A/single_module_output/hooks/resnet18').work?.witnesses[0].result_bytes).toBe(128 * 4 * 4 * 4);
  });

  it('catches an adapter that runs the work twice, on every contract, and keeps its timing', () => {
    for (const contract of SIX_CONTRACTS) {
      const c = cell(`A/${contract}/twice/resnet18`);
      expect({ id: c.id, status: c.status, differs: c.work?.differs }).toEqual({
        id: c.id,
        status: 'ok',
        differs: ['runs the forward twice'],
      });
      expect(c.median_ms).toBeGreaterThan(0);
      expect(c.exact).toBe('bit');
    }
  });

  it('catches an adapter that stops at the site, and one that skips the parameter gradients', () => {
    for (const contract of ['single_module_output', 'ordered_dataset_features']) {
      expect(cell(`A/${contract}/stops/resnet18`).work?.differs).toEqual(['stops at the site']);
    }
    const grad = cell('A/same_site_gradient/no_param_grads/resnet18');
    expect(grad.work?.differs).toEqual(['no parameter gradients']);
    expect(grad.exact).toBe('bit'); // the same values: only the witnesses can tell
  });

  it('shows the difference in words in the markdown page, the terminal table, the HTML report and the JSON', async () => {
    const file = path.join(run.out, 'results.json');
    const md = await cli(['report', file, '--spec', SPEC, '--format', 'markdown']);
    expect(md.stdout).toMatch(
      /\| single_module_output, n=1 processes \| twice \| [\d.]+ ms \([^)]*\); work: differs \(runs the forward twice\) \|/,
    );
    expect(md.stdout).toMatch(/\| fair \| [\d.]+ ms \([^)]*\) \|/);
    const table = await cli(['report', file, '--spec', SPEC, '--format', 'table']);
    expect(table.stdout).toMatch(/\(\w\) work: differs \(stops at the site\)/);
    expect(table.stdout).toMatch(/\(\w\) work: differs \(no parameter gradients\)/);
    const html = await cli(['report', file, '--spec', SPEC, '--format', 'html']);
    expect(html.stdout).toContain('work: differs (runs the forward twice)');
    const json = JSON.parse((await cli(['report', file, '--format', 'json'])).stdout);
    const twice = json.cells.find((c: CellResult) => c.id === 'A/matched_retained/twice/resnet18');
    expect(twice.work.differs).toEqual(['runs the forward twice']);
  });

  it('lists marked cells when two runs are compared', async () => {
    const file = path.join(run.out, 'results.json');
    // A wide terminal, so that the marked cell's line is not wrapped to the default 100 columns.
    const r = await cli(['compare', file, file], { env: { COLUMNS: '400' } });
    expect(r.stdout).toMatch(/Marked cells \(\d+\)/);
    expect(r.stdout).toMatch(
      /A\/same_site_gradient\/no_param_grads\/resnet18: before: work: differs \(no parameter gradients\); after: work: differs \(no parameter gradients\)/,
    );
  });
});

describe('a contract only a fixture runner defines', () => {
  it("is planned from the runner's contracts.json and run end to end, stopped work caught", () => {
    const fair = cell('N/site_output_norm/norm/resnet18');
    expect({ status: fair.status, differs: fair.work?.differs, exact: fair.exact }).toEqual({
      status: 'ok',
      differs: [],
      exact: null,
    });
    const stops = cell('N/site_output_norm/norm_stops/resnet18');
    expect({ status: stops.status, differs: stops.work?.differs, exact: stops.exact }).toEqual({
      status: 'ok',
      differs: ['stops at the site'],
      exact: 'bit',
    });
    // The request file of the stopped adapter's process, wherever the run's layout keeps it.
    const file = fs
      .readdirSync(run.out, { recursive: true })
      .map(String)
      .find((f) => f.includes('norm_stops') && f.endsWith('.request.json'));
    const request = JSON.parse(fs.readFileSync(path.join(run.out, file!), 'utf8'));
    expect(request.contract).toEqual({
      kind: 'site_output_norm',
      params: { site: 'layer2' },
      grad: false,
      work: { forwards: 1, parameter_grads: false },
    });
  });
});
