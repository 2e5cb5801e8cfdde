// The ratio table: each tool's median over raw's within one run, side by side across runs.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lostCells, ratioIn, ratioTable, toolWanted } from '../../src/ratios/compute.ts';
import { lostLines, renderRatioMarkdown, renderRatioTable, valueText } from '../../src/ratios/render.ts';
import { loadResults } from '../../src/results/load.ts';
import type { CellResult, Results } from '../../src/results/model.ts';
import { cli, PREDECESSOR_RESULTS, tmpdir, write } from '../helpers.ts';

const seed = () => loadResults(PREDECESSOR_RESULTS);
const cellOf = (r: Results, id: string): CellResult => r.cells.find((c) => c.id === id)!;

/** The seed with every median of one tool scaled: another "machine" where only that tool's cost moved. */
function scaled(tool: string, factor: number): Results {
  const r = structuredClone(seed());
  for (const c of r.cells) {
    if (c.tool !== tool || c.median_ms === null) continue;
    c.median_ms *= factor;
    c.min_ms = c.min_ms === null ? null : c.min_ms * factor;
    c.max_ms = c.max_ms === null ? null : c.max_ms * factor;
  }
  return r;
}

describe('ratioIn', () => {
  it("divides the tool's median by raw's median of the same contract and subject", () => {
    const r = seed();
    const hooks = cellOf(r, 'A/single_module_output/hooks/resnet18');
    const raw = cellOf(r, 'A/single_module_output/raw/resnet18');
    const v = ratioIn(r, 'A', 'single_module_output', 'hooks', 'resnet18', 'raw');
    expect(v.ratio).toBeCloseTo(hooks.median_ms! / raw.median_ms!, 12);
    expect(v.low).toBeCloseTo(hooks.min_ms! / raw.max_ms!, 12);
    expect(v.high).toBeCloseTo(hooks.max_ms! / raw.min_ms!, 12);
    expect(v.status).toBe('ok');
  });

  it('gives no ratio, with the reason, for a cell that has no median', () => {
    const v = ratioIn(seed(), 'A', 'ordered_dataset_features', 'tl_extract_dataset', 'resnet18', 'raw');
    expect(v.ratio).toBeNull();
    expect(v.status).toBe('error');
    expect(v.note).toMatch(/same devi/);
    expect(valueText(v)).toMatch(/^error: /);
  });

  it('says when the run has no such cell', () => {
    expect(ratioIn(seed(), 'A', 'single_module_output', 'nope', 'resnet18', 'raw').status).toBe('missing');
  });
});

describe('ratioTable', () => {
  it('keeps the asked tools, skips the base, and marks only changes beyond the tolerance', () => {
    const t = ratioTable(
      [
        { label: 'seed', results: seed() },
        { label: 'other', results: scaled('nnsight', 1.2) },
      ],
      { base: 'raw', tools: ['hooks', 'nnsight', 'tl_*'], tolerance: 0.1 },
    );
    expect(new Set(t.rows.map((r) => r.tool))).toEqual(
      new Set(['hooks', 'nnsight', 'tl_trace_sparse', 'tl_record', 'tl_extract', 'tl_bind', 'tl_extract_dataset']),
    );
    for (const row of t.rows.filter((r) => r.values[0].ratio !== null)) {
      if (row.tool === 'nnsight') {
        expect(row.change).toBeCloseTo(0.2, 10);
        expect(row.beyond).toBe(true);
      } else {
        expect(row.change).toBeCloseTo(0, 10);
        expect(row.beyond).toBe(false);
      }
    }
    expect(t.runs.map((r) => r.host)).toEqual(['NVIDIA GeForce RTX 2080 Ti', 'NVIDIA GeForce RTX 2080 Ti']);
  });

  it('drops rows where the tool is unsupported or absent in every run', () => {
    const t = ratioTable([{ label: 'seed', results: seed() }], { base: 'raw', tools: null, tolerance: 0.1 });
    expect(t.rows.some((r) => r.tool === 'transformer_lens')).toBe(false);
    expect(t.rows.some((r) => r.tool === 'captum' && r.contract === 'same_site_gradient')).toBe(true);
  });

  it('matches tools by name or by a prefix ending in *', () => {
    expect(toolWanted('tl_record', ['tl_*'])).toBe(true);
    expect(toolWanted('tv_fx', ['tl_*', 'hooks'])).toBe(false);
    expect(toolWanted('anything', null)).toBe(true);
  });

  it('renders the same rows as markdown and as a terminal table', () => {
    const t = ratioTable(
      [
        { label: 'seed', results: seed() },
        { label: 'h200', results: scaled('hooks', 0.5) },
      ],
      { base: 'raw', tools: ['hooks'], tolerance: 0.1 },
    );
    const md = renderRatioMarkdown(t);
    expect(md.split('\n')[0]).toBe(
      '| group | contract | tool / raw | seed (NVIDIA GeForce RTX 2080 Ti) | h200 (NVIDIA GeForce RTX 2080 Ti) | change |',
    );
    expect(md).toMatch(
      /\| A \| single_module_output \| hooks \| 1\.01 \(0\.99-1\.01\) \| 0\.50 \(0\.49-0\.51\) \| -50\.0 % ! \|/,
    );
    const text = renderRatioTable(t);
    expect(text).toContain('single_module_output');
    expect(text).toContain('-50.0 % !');
  });
});

describe('lostCells', () => {
  it('lists every cell ok in the first run that the last run lost or has not ok, with its reason', () => {
    const last = structuredClone(seed());
    const broken = cellOf(last, 'B/draw/torchlens/resnet18');
    Object.assign(broken, { status: 'error', reason: 'ExecutableNotFound: dot', median_ms: null });
    last.cells = last.cells.filter((c) => c.id !== 'A/single_module_output/tv_fx/resnet18');
    expect(lostCells(seed(), last)).toEqual([
      { id: 'A/single_module_output/tv_fx/resnet18', status: 'missing', reason: null },
      { id: 'B/draw/torchlens/resnet18', status: 'error', reason: 'ExecutableNotFound: dot' },
    ]);
    const t = ratioTable(
      [
        { label: 'seed', results: seed() },
        { label: 'h200', results: last },
      ],
      { base: 'raw', tools: ['hooks'], tolerance: 0.1 },
    );
    expect(lostLines(t)).toEqual([
      '2 cell(s) ok in seed are not ok in h200:',
      'A/single_module_output/tv_fx/resnet18: not in the run',
      'B/draw/torchlens/resnet18: error: ExecutableNotFound: dot',
    ]);
    expect(
      lostLines(
        ratioTable(
          [
            { label: 'a', results: seed() },
            { label: 'b', results: seed() },
          ],
          { base: 'raw', tools: null, tolerance: 0.1 },
        ),
      ),
    ).toEqual(['Every cell ok in a is ok in b.']);
  });
});

describe('benchgrid ratios', () => {
  it('prints the seed against another run and refuses a bad option with exit 2', async () => {
    const dir = tmpdir();
    const other = write(dir, 'other.json', JSON.stringify(loadRawSeed()));
    const ok = await cli([
      'ratios',
      PREDECESSOR_RESULTS,
      other,
      '--label',
      'seed',
      '--label',
      'again',
      '--format',
      'json',
    ]);
    expect(ok.code).toBe(0);
    const table = JSON.parse(ok.stdout);
    expect(table.rows.every((r: { change: number | null }) => r.change === null || Math.abs(r.change) < 1e-12)).toBe(
      true,
    );
    const bad = await cli(['ratios', PREDECESSOR_RESULTS, '--tolerance', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--tolerance: expected a percentage/);
    const none = await cli(['ratios', PREDECESSOR_RESULTS, '--base', 'no_such_tool']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no tool has a no_such_tool cell/);
  });
});

function loadRawSeed(): unknown {
  return JSON.parse(fs.readFileSync(PREDECESSOR_RESULTS, 'utf8'));
}
