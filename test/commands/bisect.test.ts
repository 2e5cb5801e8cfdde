// bisect end to end: hookkit in a local git repository with eight commits after its release on main, one of
// them (the fifth) making every call four times as slow (test/source/tool-repo.ts, commitSlowdown). bisect
// halves the line with one bench-change run per step and names that commit in three steps (at most four:
// bad itself is measured only when the search ends on it). Bad input is refused before anything is built.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderBisectText, type BisectReport } from '../../src/change/bisect-report.ts';
import type { ChangeReport } from '../../src/change/render.ts';
import { loadResults } from '../../src/results/load.ts';
import { cli } from '../helpers.ts';
import { commitSlowdown, git, sourcedWorkspace } from '../source/tool-repo.ts';

// Lean: one row (the tool's single_module_output cell, beside the raw forward bench-change adds), three
// processes per side (the fewest a label needs), five samples, no import-tax controls (bisect reads speed
// alone). The slowdown is 300%; a step is slower only with its whole interval above +50%, so load cannot
// make an unchanged revision slower.
const PROTOCOL =
  '{ warmups: 1, samples: 5, processes: 3, min_samples: 3, budget_s_per_cell: 10, memory_runs: 0, aa_pairs: 0, controls: 0, timeout_s: 120 }';
const ROW = 'A/single_module_output/*/*';

let dir: string;
let spec: string;
let repo: string;
let good: string;
let line: string[];
let slow: string;

/** A commit that changes nothing hookkit runs: a line in a notes file beside the package. */
async function harmless(n: number): Promise<string> {
  fs.appendFileSync(path.join(repo, 'NOTES.md'), `note ${n}\n`);
  await git(repo, ['add', 'NOTES.md'], `2026-01-0${n}T00:00:00Z`);
  await git(repo, ['commit', '-q', '-m', `notes: ${n}`], `2026-01-0${n}T00:00:00Z`);
  return git(repo, ['rev-parse', 'HEAD']);
}

beforeAll(async () => {
  ({ dir, spec, repo, commit: good } = await sourcedWorkspace(PROTOCOL));
  line = [];
  for (let n = 1; n <= 4; n++) line.push(await harmless(n));
  // The fifth commit, made on a branch from the fourth, which the line then continues.
  slow = await commitSlowdown(repo, { branch: 'line' });
  line.push(slow);
  await git(repo, ['checkout', '-q', 'line']);
  for (let n = 6; n <= 8; n++) line.push(await harmless(n));
  await git(repo, ['checkout', '-q', 'main']);
  await git(repo, ['merge', '-q', '--ff-only', 'line']);
  await git(repo, ['tag', 'good', good]);
});

const bisect = (args: string[], timeout = 120_000) =>
  cli(['bisect', spec, '--tool', 'hookkit', ...args], { cwd: repo, timeout });

describe('bisect', () => {
  it('names the planted slowdown among 8 commits in 3 steps (at most 4)', async () => {
    const out = path.join(dir, 'bisect');
    const r = await bisect(
      [
        '--good',
        'good',
        '--bad',
        'main',
        '--only',
        ROW,
        '--threshold',
        '15',
        '--fail-on-slower',
        '50',
        '--no-probe',
        '--out',
        out,
        '--json',
      ],
      900_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as BisectReport;
    expect([report.outcome, report.revisions, report.max_steps]).toEqual(['found', 8, 4]);
    expect(report.commit!.id).toBe(slow);
    expect(report.commit!.subject).toBe('hookkit: settle after every forward');
    expect(report.commit!.verdict.label).toBe('slower');
    expect(report.commit!.verdict.figure!.ratio!).toBeGreaterThan(1.5);
    expect(report.commit!.verdict.figure!.interval!.low).toBeGreaterThan(1.5);
    // Halving: the fourth (not slower), the sixth and the fifth (slower); bad is taken at its word.
    expect(report.steps.map((s) => [s.revision.id, s.verdict.label])).toEqual([
      [line[3], 'not_slower'],
      [line[5], 'slower'],
      [line[4], 'slower'],
    ]);
    expect(report.step_count).toBe(3);
    expect(report.steps.map((s) => s.revision.subject)).toEqual([
      'notes: 4',
      'notes: 6',
      'hookkit: settle after every forward',
    ]);
    expect(report.good).toEqual({ id: good, subject: 'hookkit 1.0.0' });
    expect(report.bad).toEqual({ id: line[7], subject: 'notes: 8' });
    // Each step is a bench-change run of its own, base = good, head = the step's revision, and resumable as one.
    for (const s of report.steps) {
      const change = JSON.parse(fs.readFileSync(path.join(repo, s.run, 'change.json'), 'utf8')) as ChangeReport;
      expect(change.sides.map((x) => x.versions)).toEqual([
        [`1.0.0+git.${good.slice(0, 7)}`],
        [`1.0.0+git.${s.revision.id.slice(0, 7)}`],
      ]);
      expect(new Set(loadResults(path.join(repo, s.run)).cells.map((c) => c.tool))).toEqual(
        new Set(['raw', 'hookkit@base', 'hookkit@head']),
      );
    }
    expect(JSON.parse(fs.readFileSync(path.join(out, 'bisect.json'), 'utf8'))).toEqual(report);
    expect(r.stderr).toMatch(/bisect: 8 revisions from good \(excluded\) to main; at most 4 steps/);
  }, 900_000);

  it('prints the answer as text, naming the commit, its figure and every step', () => {
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'bisect', 'bisect.json'), 'utf8')) as BisectReport;
    expect(report.steps).toHaveLength(3);
    // The text is rendered from the report alone: checked here without measuring again.
    const text = renderBisectText(report);
    expect(text).toContain(`first slower: ${slow} hookkit: settle after every forward`);
    expect(text).toMatch(
      / {2}slower, \+\d+\.\d% \(95% CI \+\d+\.\d% to \+\d+\.\d%\), A\/single_module_output\/hookkit\/resnet18/,
    );
    expect(text.match(/^step \d: /gm)).toHaveLength(3);
    expect(text.trimEnd().split('\n').pop()).toBe('3 steps of at most 4');
  });

  it('refuses bad input with exit 2 before building anything', async () => {
    const unknown = await bisect(['--good', 'nosuch', '--bad', 'main']);
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      expect.stringMatching(/--good: git knows no revision 'nosuch'/),
    ]);
    const swapped = await bisect(['--good', 'main', '--bad', 'good']);
    expect([swapped.code, swapped.stderr]).toEqual([
      2,
      expect.stringMatching(/--good main \([0-9a-f]{12}\) is not an ancestor of --bad good/),
    ]);
    const same = await bisect(['--good', 'main', '--bad', 'line']);
    expect([same.code, same.stderr]).toEqual([
      2,
      expect.stringMatching(/are the same commit .*nothing between them to bisect/),
    ]);
    const tool = await cli(['bisect', spec, '--tool', 'nosuch', '--good', 'good', '--bad', 'main', '--json'], {
      cwd: repo,
    });
    expect(tool.code).toBe(2);
    expect(JSON.parse(tool.stdout).error.message).toMatch(/--tool: .* has no tool or package named 'nosuch'/);
    const missing = await bisect(['--bad', 'main']);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringMatching(/bisect needs --good/)]);
    const notRepo = await bisect(['--good', 'good', '--bad', 'main', '--repo', dir]);
    expect([notRepo.code, notRepo.stderr]).toEqual([2, expect.stringMatching(/is not inside a git repository/)]);
    expect(fs.readdirSync(repo).filter((f) => f === 'results')).toEqual([]);
  });
});
