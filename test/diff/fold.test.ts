// A change to a spec that others extend is one change: `diff --base` shows it once with the specs it
// reaches (it printed the same block for each), and a spec of the tree that was broken before the change
// and is untouched by it is a warning for that spec, not exit 2 for the whole diff.
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, write } from '../helpers.ts';
import { gitRepo, PAIRS, SMALL } from './fixtures.ts';
import fs from 'node:fs';
import path from 'node:path';

let dir: string;

beforeAll(async () => {
  const repo = await gitRepo();
  dir = repo.dir;
  write(dir, 'specs/base.yaml', SMALL);
  for (const n of [1, 2, 3]) write(dir, `specs/child${n}.yaml`, `benchgrid: 1\nextends: base.yaml\nname: child${n}\n`);
  write(dir, 'specs/broken.yaml', 'benchgrid: 1\nname: [unclosed\n');
  await repo.git('add', '-A');
  await repo.git('commit', '-q', '-m', 'one');
  write(dir, 'specs/base.yaml', fs.readFileSync(path.join(PAIRS, 'protocol-change/new.yaml'), 'utf8'));
  await repo.git('commit', '-qam', 'two');
});

describe('diff --base over specs that extend the changed one', () => {
  it('shows the change once, with the specs it reaches', async () => {
    const r = await cli(['diff', '--base', 'HEAD~1'], { cwd: dir });
    expect(r.stdout.match(/Definitions changed/g)).toHaveLength(1);
    expect(r.stdout).toMatch(
      /^the same change reaches 4 specs: specs\/base\.yaml, specs\/child1\.yaml, specs\/child2\.yaml,\s+specs\/child3\.yaml\n/,
    );
    expect(r.stdout).toMatch(/protocol: samples 3 -> 5/);
    const md = await cli(['diff', '--base', 'HEAD~1', '--format', 'markdown'], { cwd: dir });
    expect(md.stdout.match(/^### /gm)).toHaveLength(1);
    expect(md.stdout).toMatch(/### The same change reaches 4 specs: `specs\/base\.yaml`, `specs\/child1\.yaml`/);
    // JSON keeps one diff per spec: it is the model, for programs
    expect(JSON.parse((await cli(['diff', '--base', 'HEAD~1', '--json'], { cwd: dir })).stdout).diffs).toHaveLength(4);
  });

  it('warns about a spec broken before the change and untouched by it, and does not fail the diff for it', async () => {
    const r = await cli(['diff', '--base', 'HEAD~1', '--json'], { cwd: dir });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.invalid).toEqual([]);
    expect(report.unrelated_invalid).toEqual([{ file: 'specs/broken.yaml', why: expect.any(String) }]);
    expect(r.stderr).toMatch(
      /warning: specs\/broken\.yaml does not load \(.*\), and no change since HEAD~1 touches it: left out of this diff/,
    );
    // named on the command line, it is part of what was asked: an error again
    expect((await cli(['diff', '--base', 'HEAD~1', 'specs/broken.yaml'], { cwd: dir })).code).toBe(2);
  });
});
