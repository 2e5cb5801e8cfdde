// `benchgrid diff --base REV` in a temporary git repository: old versions read with git, nothing checked out.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { invalidatedCells } from '../../src/diff/invalidated.ts';
import { cli, write } from '../helpers.ts';
import { CELLS, gitRepo, PAIRS, SMALL, variant } from './fixtures.ts';

const fixture = (name: string) => fs.readFileSync(path.join(PAIRS, name), 'utf8');
const CHILD = 'benchgrid: 1\nextends: bases/base.yaml\nname: child\n';

let dir: string;
let git: (...args: string[]) => Promise<string>;
let statusBefore: string;

// Commit 1: a.yaml, child.yaml (extends bases/base.yaml), same.yaml, gone.yaml, broken.yaml (invalid).
// Commit 2: a.yaml's protocol, base.yaml's input shape, gone.yaml deleted, born.yaml added, broken.yaml fixed.
// Then, uncommitted: same.yaml's title in the working tree.
beforeAll(async () => {
  ({ dir, git } = await gitRepo());
  write(dir, 'specs/a.yaml', SMALL);
  write(dir, 'specs/bases/base.yaml', SMALL);
  write(dir, 'specs/child.yaml', CHILD);
  write(dir, 'specs/same.yaml', SMALL);
  write(dir, 'specs/gone.yaml', SMALL);
  write(dir, 'specs/broken.yaml', variant(['tools: [raw, hooks, tv_fx]', 'tools: [raw, hoks, tv_fx]']));
  write(dir, 'README.md', 'not a spec\n');
  await git('add', '-A');
  await git('commit', '-q', '-m', 'one');
  write(dir, 'specs/a.yaml', fixture('protocol-change/new.yaml'));
  write(dir, 'specs/bases/base.yaml', fixture('extends-change/new-base.yaml'));
  fs.rmSync(path.join(dir, 'specs/gone.yaml'));
  write(dir, 'specs/born.yaml', SMALL);
  write(dir, 'specs/broken.yaml', SMALL);
  await git('add', '-A');
  await git('commit', '-q', '-m', 'two');
  write(dir, 'specs/same.yaml', variant(['title: Small\n', 'title: Same\n']));
  statusBefore = await git('status', '--porcelain');
});

const diffJson = async (args: string[], cwd = dir) => {
  const r = await cli(['diff', ...args, '--format', 'json'], { cwd });
  return { ...r, report: r.stdout ? JSON.parse(r.stdout) : null };
};

describe('benchgrid diff --base', () => {
  it('compares a named spec with its version at REV, labelled REV:path', async () => {
    const { code, report } = await diffJson(['--base', 'HEAD~1', 'specs/a.yaml']);
    expect(code).toBe(0);
    expect(report.base).toBe('HEAD~1');
    expect(report.diffs).toHaveLength(1);
    const d = report.diffs[0];
    expect([d.old.file, d.new.file]).toEqual(['HEAD~1:specs/a.yaml', 'specs/a.yaml']);
    expect(d.definitions).toEqual([
      {
        kind: 'protocol',
        id: null,
        change: 'changed',
        fields: [{ path: 'samples', from: 3, to: 5 }],
        invalidates: d.invalidated,
      },
    ]);
    expect(d.invalidated).toHaveLength(6);
  });

  it('reads what a spec extends at REV too', async () => {
    const { report } = await diffJson(['--base', 'HEAD~1', 'specs/child.yaml']);
    expect(report.diffs[0].definitions.map((x: any) => [x.kind, x.id, x.fields])).toEqual([
      ['subject', 'resnet18', [{ path: 'inputs.shape', from: [1, 3, 32, 32], to: [1, 3, 64, 64] }]],
    ]);
  });

  it('with no spec named, diffs every spec changed since REV, including those whose base changed, new and deleted ones', async () => {
    const { code, report } = await diffJson(['--base', 'HEAD~1']);
    expect(report.diffs.map((d: any) => [d.old?.file ?? null, d.new?.file ?? null])).toEqual([
      ['HEAD~1:specs/a.yaml', 'specs/a.yaml'],
      [null, 'specs/born.yaml'],
      ['HEAD~1:specs/child.yaml', 'specs/child.yaml'],
      ['HEAD~1:specs/gone.yaml', null],
      ['HEAD~1:specs/same.yaml', 'specs/same.yaml'],
    ]);
    // broken.yaml was invalid at HEAD~1: reported with positions in REV:path, and the exit code says so.
    expect(code).toBe(2);
    expect(report.invalid.map((i: any) => [i.side, i.file, i.diagnostics[0].file])).toEqual([
      ['old', 'HEAD~1:specs/broken.yaml', 'HEAD~1:specs/broken.yaml'],
    ]);
    const born = report.diffs[1];
    expect([born.summary.added, born.cells.removed.length]).toEqual([7, 0]);
    expect(report.diffs[3].summary.removed).toBe(7);
    expect(report.diffs[4].labels).toEqual([{ kind: 'spec', id: null, field: 'title', from: 'Small', to: 'Same' }]);
  });

  it('prints the invalid old version with REV:path positions', async () => {
    const r = await cli(['diff', '--base', 'HEAD~1', 'specs/broken.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "HEAD~1:specs/broken.yaml:28:18 groups.A.tools[1]: unknown tool 'hoks'. Did you mean 'hooks'?",
    );
    expect(r.stderr).toContain(
      'benchgrid: cannot diff: the old version HEAD~1:specs/broken.yaml is not a valid spec (1 error).',
    );
  });

  it('finds nothing changed against HEAD when the tree is clean apart from unrelated files, and works from a subdirectory', async () => {
    const r = await cli(['diff', '--base', 'HEAD', '--exit-code', 'a.yaml'], { cwd: path.join(dir, 'specs') });
    expect([r.code, r.stdout.split('\n')]).toEqual([
      0,
      ['HEAD:specs/a.yaml -> a.yaml (small)', '  7 cells, 6 planned: no change.'],
    ]);
    const changed = await cli(['diff', '--base', 'HEAD', '--exit-code'], { cwd: dir });
    expect(changed.code).toBe(4);
    expect(changed.stdout).toContain('HEAD:specs/same.yaml -> specs/same.yaml (small)');
  });

  it('changes nothing in the repository: no checkout, no stash, the same status', async () => {
    await cli(['diff', '--base', 'HEAD~1'], { cwd: dir });
    expect(await git('status', '--porcelain')).toBe(statusBefore);
    expect(await git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
    expect(await git('stash', 'list')).toBe('');
  });

  it('refuses an unknown revision, an option posing as one, and a directory outside git', async () => {
    const unknown = await cli(['diff', '--base', 'nope'], { cwd: dir });
    expect([unknown.code, unknown.stderr.trim()]).toEqual([
      2,
      `benchgrid: --base nope: no such commit in ${dir}. Fetch it first (actions/checkout needs fetch-depth: 0).`,
    ]);
    const option = await cli(['diff', '--base=--output=x'], { cwd: dir });
    expect([option.code, option.stderr.trim()]).toEqual([
      2,
      'benchgrid: --base needs a git revision such as origin/main or HEAD~1 (got "--output=x").',
    ]);
    expect(fs.existsSync(path.join(dir, 'x'))).toBe(false);
    const outside = await cli(['diff', '--base', 'HEAD', 'x.yaml'], { cwd: path.dirname(dir) });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/is not inside a git repository/);
  });
});

describe('invalidatedCells (for run --changed-since)', () => {
  it('lists the cells of the current spec that the change since REV requires measuring', async () => {
    const spec = (name: string) => path.join(dir, 'specs', name);
    expect(await invalidatedCells('HEAD~1', spec('a.yaml'))).toEqual([
      CELLS.smoRaw,
      CELLS.smoHooks,
      CELLS.smoFx,
      CELLS.editRaw,
      CELLS.editHooks,
      CELLS.forward,
    ]);
    expect(await invalidatedCells('HEAD', spec('a.yaml'))).toEqual([]);
    expect(await invalidatedCells('HEAD~1', spec('born.yaml'))).toHaveLength(6);
    await expect(invalidatedCells('HEAD~1', spec('broken.yaml'))).rejects.toThrow(
      /HEAD~1:specs\/broken\.yaml:28:18 groups\.A\.tools\[1\]: unknown tool 'hoks'/,
    );
  });
});
