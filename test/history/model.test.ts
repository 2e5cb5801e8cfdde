// The history model: a planted 15% step is a regression at the run where it starts; pure noise is nothing;
// releases measured side by side are compared pairwise.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildHistory } from '../../src/history/model.ts';
import { findRuns } from '../../src/history/runs.ts';
import { tmpdir } from '../helpers.ts';
import { stepped, writeRuns } from '../fixtures/history/runs.ts';

const inputsOf = (root: string) => findRuns([root]).runs.map((found) => ({ found, revision: 'r', report: null }));

describe('history model', () => {
  it('lists the planted 15% step as a regression at the run where it starts, and nothing for pure noise', () => {
    const root = tmpdir();
    writeRuns(
      root,
      'planted',
      {
        'A/single_module_output/tl_record/resnet18': stepped(20, 0.15),
        'A/single_module_output/hooks/resnet18': stepped(10, 0),
      },
      42,
    );
    const h = buildHistory(inputsOf(root));
    expect(h.runs).toHaveLength(12);
    expect(h.series.map((s) => s.cell)).toEqual([
      'A/single_module_output/tl_record/resnet18',
      'A/single_module_output/hooks/resnet18',
    ]);
    expect(h.findings.map((f) => [f.kind, f.axis, f.cell, f.to.slice(0, 10)])).toEqual([
      ['regression', 'runs', 'A/single_module_output/tl_record/resnet18', '2026-11-09'],
    ]);
    expect(h.findings[0].change).toBeGreaterThan(0.12);
    expect(h.findings[0].change).toBeLessThan(0.18);
  });

  it('finds nothing in 20 seeded series of pure noise', () => {
    const root = tmpdir();
    const levels = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`A/c/tool${i}/resnet18`, stepped(5 + i, 0)]),
    );
    writeRuns(root, 'noise', levels, 7);
    expect(buildHistory(inputsOf(root)).findings).toEqual([]);
  });

  it('places a tool that is not versioned in the spec at the library version its processes measured', () => {
    const root = tmpdir();
    const dirs = writeRuns(
      root,
      'installed',
      { 'A/c/tl_record/resnet18': [20, 20], 'A/c/hooks/resnet18': [10, 10] },
      5,
    );
    dirs.forEach((dir, i) => {
      const file = `${dir}/results.json`;
      const json = JSON.parse(fs.readFileSync(file, 'utf8'));
      json.resnet18.groups['A/c/tl_record/resnet18'].tool_version = ['2.36.1', '2.37.0'][i];
      fs.writeFileSync(file, JSON.stringify(json));
    });
    const h = buildHistory(inputsOf(root));
    expect(h.series.map((s) => [s.cell, s.points.map((p) => p.version)])).toEqual([
      ['A/c/tl_record/resnet18', ['2.36.1', '2.37.0']],
      ['A/c/hooks/resnet18', [null, null]],
    ]);
  });

  it('places a build from source after the release it came from, builds of one release by commit date, and compares the sides of a bench-change run base first', () => {
    const root = tmpdir();
    const secondRun = (level: number) => Object.assign(new Array<number>(2), { 1: level });
    const [release, change] = writeRuns(
      root,
      'sources',
      {
        'A/c/tl_record/resnet18': [20, 20],
        'A/c/tl_record@base/resnet18': secondRun(20),
        'A/c/tl_record@head/resnet18': secondRun(26),
      },
      9,
    );
    const edit = (dir: string, f: (groups: Record<string, Record<string, unknown>>) => void) => {
      const json = JSON.parse(fs.readFileSync(`${dir}/results.json`, 'utf8'));
      f(json.resnet18.groups);
      fs.writeFileSync(`${dir}/results.json`, JSON.stringify(json));
    };
    const source = (commit: string, committed: string, dirty = false) => ({
      kind: 'git',
      source: `git:/src/torchlens@${commit}`,
      commit,
      committed,
      dirty,
      digest: commit.padEnd(64, '0'),
      version: '2.36.1',
    });
    edit(release, (g) => (g['A/c/tl_record/resnet18'].tool_version = '2.36.1'));
    edit(change, (g) => {
      // A later commit (by date) whose id sorts first, as base; an earlier one as head; and a dirty tree of the release.
      g['A/c/tl_record@base/resnet18'].tool_version = '2.36.1+git.fff0000';
      g['A/c/tl_record@base/resnet18'].tool_source = source('fff0000', '2026-01-01T00:00:00+01:00');
      g['A/c/tl_record@head/resnet18'].tool_version = '2.36.1+git.0000aaa';
      g['A/c/tl_record@head/resnet18'].tool_source = source('0000aaa', '2026-01-02T00:00:00Z');
      g['A/c/tl_record/resnet18'].tool_version = '2.37.0';
    });
    const h = buildHistory(inputsOf(root));
    const points = h.series[0].points.map((p) => [p.version, p.rank]);
    expect(points).toEqual([
      ['2.36.1', 0],
      ['2.37.0', 3],
      ['2.36.1+git.fff0000', 1],
      ['2.36.1+git.0000aaa', 2],
    ]);
    expect(h.findings.map((f) => [f.kind, f.axis, f.from, f.to.split(' (')[0]])).toContainEqual([
      'regression',
      'versions',
      'tl_record 2.36.1+git.fff0000',
      'tl_record 2.36.1+git.0000aaa',
    ]);
  });

  it('compares the releases of a tool measured in one run, oldest first, and finds an improvement too', () => {
    const root = tmpdir();
    writeRuns(
      root,
      'releases',
      {
        'A/c/tl_record@2.9.0/resnet18': [20],
        'A/c/tl_record@2.10.0/resnet18': [24],
        'A/c/tl_record@2.11.0/resnet18': [24.1],
        'A/c/nnsight@0.8.1/resnet18': [10],
        'A/c/nnsight@0.7.0/resnet18': [15],
      },
      3,
    );
    const h = buildHistory(inputsOf(root));
    expect(h.series.map((s) => [s.cell, s.points.map((p) => p.version)])).toEqual([
      ['A/c/tl_record/resnet18', ['2.9.0', '2.10.0', '2.11.0']],
      ['A/c/nnsight/resnet18', ['0.8.1', '0.7.0']],
    ]);
    expect(h.findings.map((f) => [f.kind, f.axis, f.from, f.to.split(' (')[0]])).toEqual([
      ['regression', 'versions', 'tl_record 2.9.0', 'tl_record 2.10.0'],
      ['improvement', 'versions', 'nnsight 0.7.0', 'nnsight 0.8.1'],
    ]);
  });

  it('skips a results file that does not load, with a warning naming it, and keeps the others', () => {
    const root = tmpdir();
    writeRuns(root, 'mixed', { 'A/c/hooks/resnet18': [10, 10] }, 1);
    const bad = `${root}/mixed/zz-broken`;
    fs.mkdirSync(bad);
    fs.writeFileSync(`${bad}/results.json`, '{"format_version": 99}');
    const { runs, warnings } = findRuns([root]);
    expect(runs).toHaveLength(2);
    expect(warnings).toEqual([expect.stringMatching(/zz-broken\/results\.json: results format 99 is newer/)]);
  });
});
