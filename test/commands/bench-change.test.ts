// The tool author's loop, end to end: hookkit in a local git repository, a branch that makes it four
// times as slow, and bench-change, which runs both sides in one interleaved run: the branch is labelled slower
// (and fails --fail-on-slower), base against base is labelled nothing, history takes the run, and a
// run directory in use is refused as run refuses it.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChangeReport } from '../../src/change/render.ts';
import { buildHistory } from '../../src/history/model.ts';
import { findRuns } from '../../src/history/runs.ts';
import { loadResults } from '../../src/results/load.ts';
import { LOCK_FILE, thisHolder } from '../../src/executors/local/lock.ts';
import { cli } from '../helpers.ts';
import { hookkitChange } from '../helpers/hookkit-change.ts';
import { commitSlowdown, sourcedWorkspace } from '../source/tool-repo.ts';

// Lean: three cells of one tool, three processes per side (the fewest a label needs), a 15% threshold
// against a 300% slowdown. The spec has no raw tool: bench-change adds the built-in one, so both sides are
// timed against the plain forward in their own processes and head/base is a ratio of paired ratios (before
// it did, base against base compared absolute medians and was labelled changed on a loaded machine).
const PROTOCOL =
  '{ warmups: 1, samples: 5, processes: 3, min_samples: 3, budget_s_per_cell: 10, memory_runs: 0, aa_pairs: 0, timeout_s: 120 }';

let dir: string;
let spec: string;
let repo: string;
let base: string;
let slow: string;

beforeAll(async () => {
  ({ dir, spec, repo, commit: base } = await sourcedWorkspace(PROTOCOL));
  slow = await commitSlowdown(repo);
});

async function benchChange(head: string, out: string, extra: string[] = []) {
  const r = await cli([...hookkitChange(spec, head, out), '--threshold', '15', '--json', ...extra], {
    cwd: repo,
    timeout: 600_000,
  });
  return { ...r, report: r.stdout ? (JSON.parse(r.stdout) as ChangeReport) : null };
}

describe('bench-change', () => {
  it('labels the tool slower when head makes it slower, and exits 4 with --fail-on-slower', async () => {
    const out = path.join(dir, 'slow');
    const { code, stderr, report } = await benchChange('git:slow', out, ['--fail-on-slower', '20']);
    expect(code, stderr).toBe(4);
    const c = report!.comparison;
    expect(report!.sides.map((s) => [s.side, s.given, s.versions])).toEqual([
      ['base', 'git:main', [`1.0.0+git.${base.slice(0, 7)}`]],
      ['head', 'git:slow', [`1.0.0+git.${slow.slice(0, 7)}`]],
    ]);
    expect(c.tools!.map((t) => [t.tool, t.label, t.cells.length])).toEqual([['hookkit', 'slower', 3]]);
    expect(c.tools![0].ratio!).toBeGreaterThan(1.5);
    expect(c.summary.failing_tools).toEqual(['hookkit (resnet18)']);
    expect(c.cells.map((x) => x.id)).toEqual([
      'A/single_module_output/hookkit/resnet18',
      'A/matched_retained/hookkit/resnet18',
      'A/replacement_edit/hookkit/resnet18',
    ]);
    expect(c.cells.every((x) => x.before?.exact === 'bit' && x.after?.exact === 'bit')).toBe(true);
    // The version of the tool under test differs by design: a note, not a blocking difference.
    expect(c.environment.blocking).toBe(0);
    // One run holds both sides, interleaved; the PR comment sits beside it under its marker.
    const results = loadResults(out);
    expect(new Set(results.cells.map((x) => x.tool))).toEqual(new Set(['raw', 'hookkit@base', 'hookkit@head']));
    // Both sides paired with the raw forward bench-change added, and the comparison judged paired ratios.
    expect(results.cells.filter((x) => x.tool !== 'raw').every((x) => x.paired && x.paired.baseline === 'raw')).toBe(
      true,
    );
    expect(c.cells.map((x) => x.speed.paired)).toEqual(['paired', 'paired', 'paired']);
    // It held the run lock as run does, released it, and records what run records (none stopped early).
    expect(fs.existsSync(path.join(out, LOCK_FILE))).toBe(false);
    expect(results.run?.stopped_early).toEqual([]);
    const markdown = fs.readFileSync(path.join(out, 'change.md'), 'utf8');
    expect(markdown.split('\n')[0]).toBe('<!-- benchgrid:bench-change tool=hookkit spec=sourced -->');
    expect(markdown).toMatch(/\*\*hookkit \(resnet18\): slower, \+\d+\.\d% over 3 cells/);

    // history puts the two sides on the version axis, base before head, and finds the regression.
    const h = buildHistory(findRuns([out]).runs.map((found) => ({ found, revision: 'r', report: null })));
    // (The raw cells bench-change added are series of their own, with no tool version.)
    const hookkit = h.series.find((s) => s.cell.includes('/hookkit/'))!;
    expect(hookkit.points.map((p) => p.version)).toEqual([
      `1.0.0+git.${base.slice(0, 7)}`,
      `1.0.0+git.${slow.slice(0, 7)}`,
    ]);
    expect(h.findings.some((f) => f.axis === 'versions' && f.kind === 'regression')).toBe(true);
  }, 600_000);

  it('labels nothing when base is measured against itself', async () => {
    const { code, stderr, report } = await benchChange('git:main', path.join(dir, 'same'), ['--fail-on-slower', '20']);
    expect(code, stderr).toBe(0);
    const c = report!.comparison;
    expect(c.cells).toHaveLength(3);
    // For the right reason: each side's ratio is paired with raw in its own processes, not a wider threshold.
    expect(c.cells.map((x) => x.speed.paired)).toEqual(['paired', 'paired', 'paired']);
    expect(c.cells.every((x) => x.speed.threshold <= 0.15)).toBe(true);
    expect(c.cells.map((x) => x.speed.label).filter((l) => l === 'slower' || l === 'faster')).toEqual([]);
    expect(c.tools!.map((t) => t.label)).not.toContain('slower');
    expect(c.tools!.map((t) => t.label)).not.toContain('faster');
  }, 600_000);

  it('refuses a run it cannot make, before measuring anything', async () => {
    const none = await cli(['bench-change', spec, '--base', 'git:main'], { cwd: repo });
    expect([none.code, none.stderr]).toEqual([2, expect.stringMatching(/bench-change needs --tool/)]);
    const wrong = await cli(
      ['bench-change', spec, '--tool', 'hookkit', '--base', 'main', '--out', path.join(dir, 'never')],
      { cwd: repo },
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--base: .*main: no such directory.*to name a git revision, write git:REV/);
    const resumeRun = await cli(['run', '--resume', path.join(dir, 'slow')]);
    expect(resumeRun.stderr).toMatch(/this is a bench-change run; resume it with `benchgrid bench-change --resume/);
    expect(fs.existsSync(path.join(dir, 'never'))).toBe(false);
    // A run directory that a live benchgrid holds is refused, naming the holder; nothing reaches its journal.
    const held = path.join(dir, 'slow');
    const journal = fs.readFileSync(path.join(held, 'journal.jsonl'), 'utf8');
    fs.writeFileSync(
      path.join(held, LOCK_FILE),
      JSON.stringify({ ...thisHolder('benchgrid run x'), host: 'gpu-node-7', pid: 4242 }),
    );
    const locked = await cli(['bench-change', '--resume', held], { cwd: repo });
    fs.rmSync(path.join(held, LOCK_FILE));
    expect([locked.code, locked.stderr]).toEqual([
      2,
      expect.stringMatching(/in use by benchgrid process 4242 on gpu-node-7/),
    ]);
    expect(fs.readFileSync(path.join(held, 'journal.jsonl'), 'utf8')).toBe(journal);
  });
});
