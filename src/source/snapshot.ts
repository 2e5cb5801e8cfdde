// The exact files a source build installs, written into a directory of their own: pip builds there, so
// the user's checkout is never written to (no build/ or *.egg-info left in it) and what is built is what
// was hashed.
import fs from 'node:fs';
import path from 'node:path';
import { git, gitOrFail } from './git.ts';
import type { ResolvedSource } from '../spec/types.ts';
import { copyFiles } from './tree.ts';

/**
 * Writes the source into `dest` (which must not exist) and returns the directory pip installs. Inside
 * git it is a clone sharing the repository's objects, at the commit, with its history and tags, so
 * that a version computed from git (setuptools-scm, hatch-vcs) comes out as it does in the checkout;
 * a tree with changes then gets its work-tree files on top. Outside git, the files are copied.
 */
export async function materialise(s: ResolvedSource, dest: string): Promise<string> {
  if (s.top === null || s.commit === null) {
    fs.mkdirSync(dest, { recursive: true });
    copyFiles(s.path, dest, s.files ?? []);
    return dest;
  }
  await gitOrFail(
    s.top,
    ['clone', '--quiet', '--no-checkout', '--shared', '--', s.top, dest],
    `cloning ${s.top} for the build`,
  );
  await gitOrFail(
    dest,
    ['-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--detach', s.commit],
    `checking out ${s.commit.slice(0, 12)}`,
  );
  const project = s.subdir === '' ? dest : path.join(dest, ...s.subdir.split('/'));
  if (s.kind === 'tree' && s.dirty && s.files) await overlay(s.path, project, s.files);
  return project;
}

/** Makes `project` hold the work tree's files: changed and untracked ones copied, deleted ones removed. */
async function overlay(workTree: string, project: string, files: string[]): Promise<void> {
  const keep = new Set(files);
  const tracked = ((await git(project, ['ls-files', '-z'], { stripFinalNewline: false })) ?? '')
    .split('\0')
    .filter((f) => f !== '');
  for (const f of tracked) if (!keep.has(f)) fs.rmSync(path.join(project, f), { force: true });
  copyFiles(workTree, project, files);
}
