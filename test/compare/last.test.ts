// Which of a spec's runs `compare --last` and `run --compare-last` compare: chosen by what the runs
// recorded (spec, start and finish times, completeness), with runs made in memory.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  digestNote,
  entryOfJournal,
  entryOfResults,
  lastRuns,
  newestFirst,
  skippedLine,
  tooFewMessage,
  type RunEntry,
} from '../../src/compare/last.ts';
import { loadResults } from '../../src/results/load.ts';
import { FIXTURES } from '../helpers.ts';

/** A run directory's entry: a complete run of `tiny` unless told otherwise; times as ISO strings. */
function run(
  dir: string,
  x: {
    spec?: string | null;
    started?: string;
    finished?: string;
    state?: RunEntry['state'];
    change?: boolean;
    digest?: string;
  } = {},
): RunEntry {
  const t = (s: string | undefined) => (s === undefined ? null : Date.parse(s));
  return {
    dir,
    spec: x.spec === undefined ? 'tiny' : x.spec,
    digest: x.digest ?? 'd1',
    state: x.state ?? 'complete',
    started: t(x.started),
    finished: t(x.finished),
    change: x.change ?? false,
    results: null,
  };
}

const dirs = (entries: RunEntry[]) => entries.map((e) => e.dir);

describe('the last runs of a spec', () => {
  it('are ordered by their recorded finish time, not by their directory names', () => {
    const entries = [
      run('results/tiny/2026-12-01T09-00-00', { started: '2026-12-02T10:00:00Z', finished: '2026-12-02T10:05:00Z' }),
      run('results/tiny/2026-12-03T09-00-00', { started: '2026-12-01T10:00:00Z', finished: '2026-12-01T10:05:00Z' }),
      run('results/tiny/2026-12-02T09-00-00', { started: '2026-12-03T10:00:00Z', finished: '2026-12-03T10:05:00Z' }),
    ];
    expect(dirs(lastRuns(entries, 'tiny', 2).runs)).toEqual([
      'results/tiny/2026-12-02T09-00-00',
      'results/tiny/2026-12-01T09-00-00',
    ]);
  });

  it('count a resumed run when it completed, not when it started', () => {
    const resumed = run('results/tiny/a', { started: '2026-12-01T10:00:00Z', finished: '2026-12-03T10:00:00Z' });
    const between = run('results/tiny/b', { started: '2026-12-02T10:00:00Z', finished: '2026-12-02T10:05:00Z' });
    expect(dirs(newestFirst([between, resumed]))).toEqual(['results/tiny/a', 'results/tiny/b']);
  });

  it('fall back on the start time for a run that recorded no finish, and on the directory name for a tie', () => {
    const entries = [
      run('results/tiny/x', { started: '2026-12-01T10:00:00Z' }),
      run('results/tiny/z', { started: '2026-12-02T10:00:00Z' }),
      run('results/tiny/y', { started: '2026-12-02T10:00:00Z' }),
      run('results/tiny/untimed'),
    ];
    expect(dirs(newestFirst(entries))).toEqual([
      'results/tiny/z',
      'results/tiny/y',
      'results/tiny/x',
      'results/tiny/untimed',
    ]);
  });

  it("ignore other specs' runs, runs that recorded no spec, and bench-change runs, and count them", () => {
    const entries = [
      run('results/tiny/other', { spec: 'resnet18_cpu', finished: '2026-12-05T00:00:00Z' }),
      run('results/tiny/seed', { spec: null, finished: '2026-12-05T00:00:00Z' }),
      run('results/tiny/change-1', { change: true, finished: '2026-12-05T00:00:00Z' }),
      run('results/tiny/old', { finished: '2026-12-01T00:00:00Z' }),
      run('results/tiny/new', { finished: '2026-12-02T00:00:00Z' }),
    ];
    const found = lastRuns(entries, 'tiny', 2);
    expect(dirs(found.runs)).toEqual(['results/tiny/new', 'results/tiny/old']);
    expect(found.others).toBe(3);
    expect(found.skipped).toEqual([]);
  });

  it('skip incomplete runs newer than those chosen, and leave older ones unmentioned', () => {
    const entries = [
      run('results/tiny/ancient-partial', { state: 'partial', finished: '2026-11-01T00:00:00Z' }),
      run('results/tiny/old', { finished: '2026-12-01T00:00:00Z' }),
      run('results/tiny/new', { finished: '2026-12-02T00:00:00Z' }),
      run('results/tiny/interrupted', {
        state: 'partial',
        started: '2026-12-03T00:00:00Z',
        finished: '2026-12-03T00:01:00Z',
      }),
      run('results/tiny/killed', { state: 'unfinished', started: '2026-12-04T00:00:00Z' }),
    ];
    const found = lastRuns(entries, 'tiny', 2);
    expect(dirs(found.runs)).toEqual(['results/tiny/new', 'results/tiny/old']);
    expect(dirs(found.skipped)).toEqual(['results/tiny/killed', 'results/tiny/interrupted']);
  });

  it('name every incomplete run when too few complete ones were found', () => {
    const entries = [
      run('results/tiny/ancient-partial', { state: 'partial', finished: '2026-11-01T00:00:00Z' }),
      run('results/tiny/only', { finished: '2026-12-01T00:00:00Z' }),
    ];
    const found = lastRuns(entries, 'tiny', 2);
    expect(dirs(found.runs)).toEqual(['results/tiny/only']);
    expect(dirs(found.skipped)).toEqual(['results/tiny/ancient-partial']);
  });

  it("leave out the run that asks (run --compare-last's own directory), however its path is spelt", () => {
    const entries = [
      run('results/tiny/previous', { finished: '2026-12-01T00:00:00Z' }),
      run('results/tiny/this', { finished: '2026-12-02T00:00:00Z' }),
    ];
    expect(dirs(lastRuns(entries, 'tiny', 1, path.resolve('results/tiny/this')).runs)).toEqual([
      'results/tiny/previous',
    ]);
    expect(lastRuns([entries[1]], 'tiny', 1, 'results/tiny/./this').runs).toEqual([]);
  });
});

describe('the entry of a run directory', () => {
  it('reads the spec, the recorded start and finish, and completeness from its results', () => {
    const r = loadResults(path.join(FIXTURES, 'compare/real-run-a.results.json'));
    const e = entryOfResults('results/compare-real/a', r);
    expect(e).toMatchObject({
      spec: 'compare-real',
      state: 'complete',
      change: false,
      started: Date.parse('2026-11-30T16:21:47.238Z'),
      finished: Date.parse('2026-11-30T16:22:44.613Z'),
    });
    expect(entryOfResults('results/compare-real/a', { ...r, partial: true }).state).toBe('partial');
    expect(
      entryOfResults('results/compare-real/a', { ...r, run: { ...r.run, change: { tool: 'hooks', only: null } } })
        .change,
    ).toBe(true);
  });

  it('falls back on the day a file was measured when it recorded no run (the seed layout)', () => {
    const r = loadResults(path.join(FIXTURES, 'compare/real-run-a.results.json'));
    expect(entryOfResults('x', { ...r, run: null })).toMatchObject({
      started: Date.parse('2026-11-30'),
      finished: null,
    });
  });

  it('of a run with a journal and no results is unfinished, timed by the journal header', () => {
    const e = entryOfJournal('results/tiny/killed', {
      spec: { name: 'tiny', digest: 'abc' },
      started: '2026-12-04T00:00:00.000Z',
    });
    expect(e).toMatchObject({
      spec: 'tiny',
      state: 'unfinished',
      started: Date.parse('2026-12-04T00:00:00Z'),
      finished: null,
      results: null,
    });
  });
});

describe('what is said', () => {
  it('about a run passed over: why, and how to finish it', () => {
    expect(skippedLine(run('results/tiny/x', { state: 'partial' }))).toBe(
      'skipped results/tiny/x: interrupted (its results are partial); finish it with `benchgrid run --resume results/tiny/x` to include it.',
    );
    expect(skippedLine(run('results/tiny/y', { state: 'unfinished' }))).toMatch(
      /^skipped results\/tiny\/y: not finished \(a journal and no results\.json/,
    );
  });

  it('when too few runs were found: how many, where it looked, and what was passed over', () => {
    const found = lastRuns(
      [run('results/tiny/a'), run('results/tiny/b', { state: 'partial' }), run('results/tiny/c', { spec: 'other' })],
      'tiny',
      2,
    );
    expect(tooFewMessage('tiny', found, 'results/tiny')).toBe(
      'found 1 complete run of tiny in results/tiny (1 incomplete run(s) skipped, 1 run(s) of other specs or bench-change runs ignored); two are needed. Run the spec once more with `benchgrid run`, or compare two files: benchgrid compare BEFORE AFTER.',
    );
  });

  it('when the two runs measured different versions of the spec, and nothing when they measured one', () => {
    expect(digestNote(run('a', { digest: 'aaaaaaaaaaaa1111' }), run('b', { digest: 'bbbbbbbbbbbb2222' }))).toBe(
      'the spec changed between these runs (digest aaaaaaaaaaaa -> bbbbbbbbbbbb): cells added or removed show as in one file only.',
    );
    expect(digestNote(run('a'), run('b'))).toBeNull();
  });
});
