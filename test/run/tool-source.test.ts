// `run --tool-source`: hookkit installed from a working tree (with uncommitted changes) runs in its own
// layer and records its version with the revision; a source that does not build is an error on that
// tool's cells with the end of the build log, and the run goes on; every wrong value is refused first.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import { readJournal } from '../../src/records/journal.ts';
import { cli, tmpdir, write } from '../helpers.ts';
import { git, sourcedWorkspace } from '../source/tool-repo.ts';

const ONLY = 'A/single_module_output/*/*';

let dir: string;
let spec: string;
let repo: string;
let commit: string;

beforeAll(async () => {
  // One process of three samples a cell: what is asserted here is where the tool came from, not its time.
  ({ dir, spec, repo, commit } = await sourcedWorkspace(
    '{ warmups: 1, samples: 3, processes: 1, min_samples: 3, budget_s_per_cell: 5, memory_runs: 0, aa_pairs: 0, timeout_s: 120 }',
  ));
});

describe('run --tool-source', () => {
  it('runs the tool from a working tree with changes in its own layer, recorded as its version, revision and dirty flag', async () => {
    fs.appendFileSync(path.join(repo, 'hookkit/_core.py'), '\n# a change not yet committed\n');
    const out = path.join(dir, 'tree-run');
    const r = await cli(['run', spec, '--tool-source', `hookkit=${repo}`, '--only', ONLY, '--out', out], {
      timeout: 300_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const cell = loadResults(out).cells.find((c) => c.id === 'A/single_module_output/hookkit/resnet18')!;
    expect(cell).toMatchObject({ status: 'ok', exact: 'bit', tool_version: `1.0.0+git.${commit.slice(0, 7)}.dirty` });
    expect(cell.tool_source).toMatchObject({ kind: 'tree', source: repo, commit, dirty: true, version: '1.0.0' });
    expect(cell.runtime?.environment).toMatch(/^main\+hookkit-src-[0-9a-f]{12}$/);
    expect(readJournal(out).header?.tool_sources).toEqual([
      { tool: 'hookkit', side: null, source: repo, given: repo, digest: cell.tool_source!.digest },
    ]);
    // The checkout itself was never built in: no build/ or egg-info left behind.
    expect(await git(repo, ['status', '--porcelain', '--ignored'])).toBe(' M hookkit/_core.py');
    await git(repo, ['checkout', '--', '.']);
  }, 300_000);

  it("records a source that does not build as an error on that tool's cells, with the build log's end, and measures the rest", async () => {
    const broken = path.join(dir, 'broken');
    fs.cpSync(repo, broken, { recursive: true });
    write(
      broken,
      '_build/hookkit_build.py',
      'def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):\n    raise RuntimeError("hookkit does not build on purpose")\n',
    );
    const out = path.join(dir, 'broken-run');
    const r = await cli(['run', spec, '--tool-source', `hookkit=${broken}`, '--only', ONLY, '--out', out], {
      timeout: 300_000,
    });
    expect(r.stderr).toMatch(
      /environment main\+hookkit-src-\w+ could not be built; its cells are recorded as errors and the run goes on/,
    );
    const byId = new Map(loadResults(out).cells.map((c) => [c.id, c]));
    expect(byId.get('A/single_module_output/hooks/resnet18')?.status).toBe('ok');
    const failed = byId.get('A/single_module_output/hookkit/resnet18')!;
    expect(failed.status).toBe('error');
    expect(failed.reason).toMatch(
      /could not be built: building environment 'main\+hookkit-src-\w+' failed: .*Full log: /,
    );
    expect(failed.error?.tail).toMatch(/RuntimeError: hookkit does not build on purpose/);
    expect(failed.tool_source).toMatchObject({ source: broken, version: null });
  }, 300_000);

  it.each([
    [
      'a directory that does not exist',
      () => ['hookkit=/nonexistent/hookkit'],
      /--tool-source hookkit: \/nonexistent\/hookkit: no such directory/,
    ],
    [
      'a revision outside git',
      () => ['hookkit=git:main'],
      /is not inside a git repository\. Run from the tool's checkout, or name it: git:PATH@main/,
    ],
    ['an unknown revision', () => [`hookkit=git:${repo}@no-such-branch`], /git knows no revision 'no-such-branch'/],
    ['a tool the spec lacks', () => [`captum=${repo}`], /has no tool or package named 'captum'/],
    ['a malformed value', () => ['hookkit'], /expected TOOL=SOURCE/],
  ])('refuses %s before anything is built or run (exit 2)', async (_what, args, message) => {
    const r = await cli(
      ['run', spec, ...args().flatMap((a) => ['--tool-source', a]), '--out', path.join(dir, 'never')],
      { cwd: tmpdir() },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(fs.existsSync(path.join(dir, 'never'))).toBe(false);
  });
});
