// The revisions bisect searches: the first-parent line of the tool's repository from good (excluded) to
// bad, oldest first, read from `git rev-list --first-parent good..bad` as data (each git a process with an
// argument list, never a shell; src/source/git.ts). Every way the two revisions cannot bound a line is
// refused here, before anything is built or run.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { commitOf, git, gitOrFail, workTreeTop } from '../source/git.ts';

/** A commit on the line: its full id and subject line (as git stores it; escape it to show it). */
export interface Revision {
  id: string;
  subject: string;
}

/** The line between good and bad: the repository's directory (as --repo names it), both ends, and the commits after good up to bad. */
export interface RevisionLine {
  repo: string;
  good: Revision;
  bad: Revision;
  /** Oldest first; the last is bad. */
  line: Revision[];
}

/** Resolves --good and --bad in the repository holding `repoDir` and reads the first-parent line between them. */
export async function revisionLine(repoDir: string, good: string, bad: string): Promise<RevisionLine> {
  if (!fs.existsSync(repoDir) || !fs.statSync(repoDir).isDirectory())
    throw new UserError(
      `--repo: ${repoDir}: no such directory. Give the tool's git checkout (default: the current directory).`,
    );
  // git names the work tree by its real path: a repository reached through a link is placed in it by its own.
  const repo = fs.realpathSync(repoDir);
  const top = await workTreeTop(repo);
  if (top === null)
    throw new UserError(
      `--repo: ${repo} is not inside a git repository. Run from the tool's checkout, or name it with --repo DIR.`,
    );
  const goodId = await resolve(top, good, '--good');
  const badId = await resolve(top, bad, '--bad');
  if (goodId === badId)
    throw new UserError(
      `--good ${good} and --bad ${bad} are the same commit (${goodId.slice(0, 12)}): there is nothing between them to bisect.`,
    );
  // merge-base --is-ancestor exits 1 for "no" and more for an error; git() reads both as null.
  if ((await git(top, ['merge-base', '--is-ancestor', goodId, badId])) === null) {
    throw new UserError(
      `--good ${good} (${goodId.slice(0, 12)}) is not an ancestor of --bad ${bad} (${badId.slice(0, 12)}) in ${top}: bisect searches the history that leads from good to bad. Give an older good, or swap them if good is the later one.`,
    );
  }
  const out = await gitOrFail(
    top,
    ['rev-list', '--first-parent', '--reverse', '--format=%x00%H%x00%P%x00%s', `${goodId}..${badId}`],
    `reading the first-parent line ${good}..${bad}`,
  );
  const records = parseRevList(out);
  if (records.length === 0 || records[records.length - 1].id !== badId)
    throw new UserError(`--bad ${bad}: git listed no commit between ${good} and ${bad}; there is nothing to bisect.`);
  // The line must start at good itself: a good merged in from a side branch is an ancestor, but not on bad's first-parent line.
  if (records[0].parent !== goodId) {
    throw new UserError(
      `--good ${good} (${goodId.slice(0, 12)}) is an ancestor of --bad ${bad} but not on its first-parent line (the line reaches ${records[0].parent?.slice(0, 12) ?? 'a root commit'} instead): bisect walks that line. Give a good on it, e.g. the merge base: git merge-base ${bad} ${good}.`,
    );
  }
  const line = records.map(({ id, subject }) => ({ id, subject }));
  const goodSubject = (await git(top, ['show', '-s', '--format=%s', goodId])) ?? '';
  return { repo, good: { id: goodId, subject: goodSubject }, bad: line[line.length - 1], line };
}

async function resolve(top: string, rev: string, option: string): Promise<string> {
  // A revision is never an option to git: '-' first would be read as one.
  if (rev.startsWith('-'))
    throw new UserError(`${option}: the revision '${rev}' starts with '-'; give a branch, tag or commit id.`);
  const id = await commitOf(top, rev);
  if (id === null)
    throw new UserError(
      `${option}: git knows no revision '${rev}' in ${path.basename(top)} (${top}). Give a branch, tag or commit id it has (git fetch first for a remote one).`,
    );
  return id;
}

/**
 * rev-list's output with `--format=%x00%H%x00%P%x00%s`: a `commit ID` line, then the record line, per
 * commit. Records are told by their leading NUL, so a subject can hold anything but a line break.
 */
export function parseRevList(out: string): (Revision & { parent: string | null })[] {
  return out
    .split('\n')
    .filter((l) => l.startsWith('\0'))
    .map((l) => {
      const [, id, parents, ...subject] = l.split('\0');
      return { id, parent: parents.split(' ')[0] || null, subject: subject.join('\0') };
    });
}
