// Sources resolved against real directories and git repositories: digests that follow the code, the
// dirty flag, the exact files a build sees, and a clear refusal for each wrong value.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveSource, sourceVersion } from '../../src/source/resolve.ts';
import type { ResolvedSource } from '../../src/spec/types.ts';
import { materialise } from '../../src/source/snapshot.ts';
import { tmpdir, write } from '../helpers.ts';
import { commitSlowdown, git, HOOKKIT, makeToolRepo } from './tool-repo.ts';

const tree = (p: string, cwd?: string) => resolveSource({ kind: 'tree', path: p }, '--tool-source hookkit', cwd);
const rev = (repo: string | null, r: string, cwd?: string) =>
  resolveSource({ kind: 'git', repo, rev: r }, '--base', cwd);

let repo: string;
let base: string;
let slow: string;

beforeAll(async () => {
  repo = path.join(tmpdir(), 'hookkit');
  base = await makeToolRepo(repo);
  slow = await commitSlowdown(repo);
});

describe('resolving a source', () => {
  it('pins a revision to its commit, and a clean checkout of that commit to the same digest', async () => {
    const main = await rev(repo, 'main');
    expect(main).toMatchObject({ kind: 'git', commit: base, dirty: false, subdir: '', text: `git:${repo}@main` });
    expect(main.committed).toMatch(/^2026-01-01T00:00:00/);
    const clean = await tree(repo);
    expect(clean).toMatchObject({ kind: 'tree', commit: base, dirty: false });
    expect(clean.digest).toBe(main.digest);
    // The current directory's repository when none is named.
    expect((await rev(null, 'slow', repo)).commit).toBe(slow);
    expect((await rev(null, 'slow', repo)).digest).not.toBe(main.digest);
    expect(sourceVersion('1.0.0', main)).toBe(`1.0.0+git.${base.slice(0, 7)}`);
    expect(sourceVersion('2.36.2.dev3+g1a2b3c4', { ...main, dirty: true })).toBe(
      `2.36.2.dev3+g1a2b3c4.git.${base.slice(0, 7)}.dirty`,
    );
  });

  it('takes a repository or a checkout reached through a symbolic link as the one it leads to', async () => {
    const link = path.join(tmpdir(), 'hookkit-link');
    fs.symlinkSync(repo, link);
    const main = await rev(repo, 'main');
    expect(await rev(link, 'main')).toMatchObject({
      kind: 'git',
      commit: base,
      subdir: '',
      digest: main.digest,
      text: `git:${link}@main`,
    });
    expect(await tree(link)).toMatchObject({ kind: 'tree', commit: base, subdir: '', digest: main.digest });
  });

  it('marks a checkout with changes dirty, digests its content, and builds exactly its files', async () => {
    const work = path.join(tmpdir(), 'work');
    fs.cpSync(repo, work, { recursive: true });
    await git(work, ['checkout', '-q', 'main']);
    fs.appendFileSync(path.join(work, 'hookkit/_core.py'), '\n# an edit\n');
    write(work, 'hookkit/extra.py', 'X = 1\n');
    fs.rmSync(path.join(work, 'hookkit/__init__.py'));
    const dirty = await tree(work);
    expect(dirty).toMatchObject({ dirty: true, commit: base });
    expect(dirty.files).toContain('hookkit/extra.py');
    expect(dirty.files).not.toContain('hookkit/__init__.py');
    fs.appendFileSync(path.join(work, 'hookkit/_core.py'), '# another\n');
    expect((await tree(work)).digest).not.toBe(dirty.digest);

    const built = await materialise(await tree(work), path.join(tmpdir(), 'snap'));
    expect(fs.readFileSync(path.join(built, 'hookkit/_core.py'), 'utf8')).toMatch(/# an edit\n# another\n$/);
    expect(fs.existsSync(path.join(built, 'hookkit/extra.py'))).toBe(true);
    expect(fs.existsSync(path.join(built, 'hookkit/__init__.py'))).toBe(false);
    // A clone: the history (and tags) are there for a version computed from git.
    expect(await git(built, ['rev-parse', 'HEAD'])).toBe(base);
    // The user's checkout is untouched by the snapshot.
    expect(fs.existsSync(path.join(work, 'build'))).toBe(false);
  });

  it("leaves benchgrid's own runs out of a checkout's files and dirty flag (bench-change run from the checkout writes results/ there)", async () => {
    const work = path.join(tmpdir(), 'with-runs');
    fs.cpSync(repo, work, { recursive: true });
    await git(work, ['checkout', '-q', 'main']);
    const before = await tree(work);
    write(work, 'results/sourced/change-1/journal.jsonl', '{}\n');
    write(work, 'results/sourced/change-1/spec.json', '{}\n');
    write(work, 'results/sourced/change-1/processes/x.json', '{}\n');
    fs.symlinkSync('change-1', path.join(work, 'results/sourced/latest'));
    const after = await tree(work);
    expect(after).toMatchObject({ dirty: false, digest: before.digest });
    expect(after.files!.filter((f) => f.startsWith('results/'))).toEqual([]);
    // Anything else in results/ is the checkout's own and counts.
    write(work, 'results/notes.txt', 'mine\n');
    expect(await tree(work)).toMatchObject({ dirty: true });
  });

  it('checks out a revision for a build without touching the repository', async () => {
    const snap = await materialise(await rev(repo, 'slow'), path.join(tmpdir(), 'snap'));
    expect(fs.readFileSync(path.join(snap, 'hookkit/_core.py'), 'utf8')).toContain('_settle(started)');
    expect(await git(repo, ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('main');
    expect(await git(repo, ['status', '--porcelain'])).toBe('');
  });

  it('takes a tree outside git, or in an ignored directory of another checkout, by its content', async () => {
    const outside = path.join(tmpdir(), 'sdist');
    fs.cpSync(HOOKKIT, outside, { recursive: true });
    write(outside, 'hookkit/__pycache__/x.pyc', 'compiled');
    write(outside, 'build/lib/junk.py', 'junk');
    const a: ResolvedSource = await tree(outside);
    expect(a).toMatchObject({ commit: null, dirty: false, top: null });
    expect(a.files).toEqual(['_build/hookkit_build.py', 'hookkit/__init__.py', 'hookkit/_core.py', 'pyproject.toml']);
    expect(sourceVersion('1.0.0', a)).toBe(`1.0.0+tree.${a.digest.slice(0, 8)}`);
    const ignored = path.join(repo, 'vendored');
    fs.cpSync(HOOKKIT, ignored, { recursive: true });
    write(repo, '.git/info/exclude', 'vendored/\n');
    const inside = await tree(ignored);
    expect(inside).toMatchObject({ commit: null, top: null });
    expect(inside.digest).toBe(a.digest);
  });

  it.each([
    [
      'a directory that does not exist',
      () => tree('/nonexistent/hookkit'),
      /no such directory\. Give the directory of a checkout .*git:REV/,
    ],
    ['a file', () => tree(path.join(HOOKKIT, 'pyproject.toml')), /is a file, not a directory/],
    [
      'a directory without a Python project',
      () => tree(path.dirname(HOOKKIT)),
      /is not a Python project: it has neither pyproject\.toml nor setup\.py/,
    ],
    ['a revision outside git', () => rev(tmpdir(), 'main'), /is not inside a git repository/],
    [
      'an unknown revision',
      () => rev(repo, 'no-such-branch'),
      /git knows no revision 'no-such-branch' in .*git fetch first/,
    ],
    [
      'a repository that does not exist',
      () => rev('/nonexistent/repo', 'main'),
      /no such directory, so no git repository/,
    ],
  ])('refuses %s', async (_what, resolve, message) => {
    await expect(resolve()).rejects.toThrow(message);
  });

  it('refuses a revision whose tree holds no Python project in the directory named', async () => {
    await git(repo, ['checkout', '-q', '--orphan', 'empty']);
    await git(repo, ['rm', '-rq', '--cached', '.']);
    write(repo, 'README', 'nothing to build\n');
    await git(repo, ['add', 'README']);
    await git(repo, ['commit', '-qm', 'empty']);
    await expect(rev(repo, 'empty')).rejects.toThrow(/\. at empty \(\w{12}\) is not a Python project/);
    await git(repo, ['checkout', '-qf', 'main']);
  });
});
