// A named pipe where a file belongs would make a reader wait forever for a writer that never comes: every
// reader of an input (a results file, a runner's manifest, a bundle's files, a run's journal, a file of a
// source tree) checks it is reading a regular file before it opens it, and says so in one line (exit 2).
// Each command here is given 60 s; before, each waited until it was killed.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';
import { exportTinyBundle } from '../helpers/tiny-bundle.ts';
import { writeTinyResults } from '../report/tiny-results.ts';
import { sourcedWorkspace } from '../source/tool-repo.ts';

let dir: string;
const fifo = async (file: string) => {
  fs.rmSync(file, { force: true, recursive: true });
  await execa('mkfifo', [file]);
};
const NAMED_PIPE = /not a regular file \(a named pipe\)/;

beforeAll(() => {
  dir = tmpdir('benchgrid-fifo-');
});

describe('a named pipe where an input file belongs', () => {
  it('as a results file: report and compare refuse it instead of waiting', async () => {
    const results = path.join(dir, 'results.json');
    await fifo(results);
    const good = path.join(dir, 'good');
    writeTinyResults(good);
    for (const args of [
      ['report', results],
      ['compare', results, path.join(good, 'results.json')],
    ]) {
      const r = await cli(args, { timeout: 60_000 });
      expect([r.code, r.stderr], args.join(' ')).toEqual([2, expect.stringMatching(NAMED_PIPE)]);
    }
  }, 180_000);

  it("as a spec's runner manifest: validate says the runner cannot be read, instead of waiting", async () => {
    const spec = path.join(dir, 'spec', 'own.yaml');
    fs.mkdirSync(path.join(dir, 'spec', 'runners', 'mine'), { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), path.join(dir, 'spec', 'tiny.yaml'));
    write(
      dir,
      'spec/own.yaml',
      'benchgrid: 1\nextends: tiny.yaml\nrunners: { mine: runners/mine }\ntools:\n  mytool: { label: mine, runner: mine }\ngroups:\n  A: { tools: [raw, hooks, tv_fx, mytool] }\n',
    );
    await fifo(path.join(dir, 'spec', 'runners', 'mine', 'manifest.json'));
    const r = await cli(['validate', spec], { timeout: 60_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(NAMED_PIPE);
  }, 120_000);

  it("as a bundle's manifest or journal: ingest refuses it", async () => {
    const pristine = await exportTinyBundle(path.join(dir, 'bundle'), 'A/single_module_output/raw/*');
    for (const name of ['bundle.json', 'journal.jsonl']) {
      const b = path.join(tmpdir('benchgrid-fifo-bundle-'), 'bundle');
      fs.cpSync(pristine, b, { recursive: true });
      await fifo(path.join(b, name));
      const r = await cli(['ingest', b, '--partial', '--out', path.join(b, 'out')], { timeout: 60_000 });
      expect([r.code, r.stderr], name).toEqual([2, expect.stringMatching(NAMED_PIPE)]);
    }
  }, 180_000);

  it("as a run's journal: run --resume refuses it", async () => {
    const run = path.join(dir, 'run');
    writeTinyResults(run);
    fs.copyFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), path.join(dir, 'tiny.yaml'));
    write(run, 'spec.json', '{}');
    await fifo(path.join(run, 'journal.jsonl'));
    const r = await cli(['run', '--resume', run], { timeout: 60_000 });
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(NAMED_PIPE)]);
  }, 120_000);

  it('as a tracked file of a source tree: --tool-source refuses to digest it', async () => {
    const { spec, repo } = await sourcedWorkspace(
      '{ warmups: 1, samples: 3, processes: 1, min_samples: 3, budget_s_per_cell: 5, memory_runs: 0, aa_pairs: 0, timeout_s: 120 }',
    );
    await fifo(path.join(repo, 'hookkit/_core.py'));
    const r = await cli(
      [
        'run',
        spec,
        '--tool-source',
        `hookkit=${repo}`,
        '--only',
        'A/single_module_output/hookkit/*',
        '--out',
        path.join(dir, 'src-run'),
      ],
      { timeout: 60_000 },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /hookkit\/_core\.py: not a regular file \(a named pipe\); a source tree holds files and links only/,
    );
  }, 120_000);
});
