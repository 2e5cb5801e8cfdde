// A source named on the command line, checked and pinned down: which directory or commit, whether the
// work tree has changes, and the digest a build from it is cached by (the commit, plus the content of
// the files when the tree has changes, or the content alone outside git).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { commitDate, commitOf, hasFileAt, workTreeTop } from './git.ts';
import type { SourceArg } from './parse.ts';
import type { ResolvedSource } from '../spec/types.ts';
import { digestFiles, gitDirty, gitFiles, walkFiles } from './tree.ts';

const PROJECT_FILES = ['pyproject.toml', 'setup.py'];
const notProject = (where: string) =>
  `${where} is not a Python project: it has neither pyproject.toml nor setup.py. Point at the directory pip would install (the one holding pyproject.toml).`;

/** Resolves a tree or git source (not `pinned`); `option` names the option in messages; `cwd` anchors relative paths. */
export async function resolveSource(
  arg: Exclude<SourceArg, { kind: 'pinned' }>,
  option: string,
  cwd = process.cwd(),
): Promise<ResolvedSource> {
  return arg.kind === 'tree'
    ? resolveTree(path.resolve(cwd, arg.path), option)
    : resolveGit(path.resolve(cwd, arg.repo ?? '.'), arg.rev, option);
}

async function resolveTree(dir: string, option: string): Promise<ResolvedSource> {
  if (!fs.existsSync(dir))
    throw new UserError(
      `${option}: ${dir}: no such directory. Give the directory of a checkout or an unpacked sdist (to name a git revision, write git:REV).`,
    );
  if (!fs.statSync(dir).isDirectory())
    throw new UserError(
      `${option}: ${dir} is a file, not a directory. Give the directory of a checkout or an unpacked sdist.`,
    );
  if (!PROJECT_FILES.some((f) => fs.existsSync(path.join(dir, f))))
    throw new UserError(`${option}: ${notProject(dir)}`);
  // git names the work tree by its real path: a directory reached through a link is placed in it by its own.
  dir = fs.realpathSync(dir);
  const top = await workTreeTop(dir);
  const head = top === null ? null : await commitOf(dir, 'HEAD');
  const subdir = top === null ? '' : path.relative(top, dir).split(path.sep).join('/');
  if (top === null || head === null || !(await projectAt(top, head, subdir))) {
    // Outside git (an unpacked sdist), in a repository without a commit yet, or in an ignored or untracked
    // directory of another project's checkout: the content is the source.
    const files = walkFiles(dir);
    return contentTree(dir, files, digestFiles(dir, files, 'tree'));
  }
  const dirty = await gitDirty(dir);
  const files = await gitFiles(dir);
  const digest = dirty ? digestFiles(dir, files, `tree-dirty\0${head}\0${subdir}`) : commitDigest(head, subdir);
  return {
    kind: 'tree',
    text: dir,
    path: dir,
    top,
    subdir,
    rev: null,
    commit: head,
    committed: await commitDate(dir, head),
    dirty,
    digest,
    files,
  };
}

/** A tree source known by its content alone: no work tree, no commit, `digest` over its `files`. */
export function contentTree(dir: string, files: string[], digest: string): ResolvedSource {
  return {
    kind: 'tree',
    text: dir,
    path: dir,
    top: null,
    subdir: '',
    rev: null,
    commit: null,
    committed: null,
    dirty: false,
    digest,
    files,
  };
}

async function resolveGit(repo: string, rev: string, option: string): Promise<ResolvedSource> {
  const text = `git:${repo}@${rev}`;
  if (!fs.existsSync(repo) || !fs.statSync(repo).isDirectory())
    throw new UserError(`${option}: ${repo}: no such directory, so no git repository to read ${rev} from.`);
  // git names the work tree by its real path: a repository reached through a link is placed in it by its own.
  repo = fs.realpathSync(repo);
  const top = await workTreeTop(repo);
  if (top === null)
    throw new UserError(
      `${option}: ${repo} is not inside a git repository. Run from the tool's checkout, or name it: git:PATH@${rev}.`,
    );
  const commit = await commitOf(repo, rev);
  if (commit === null)
    throw new UserError(
      `${option}: git knows no revision '${rev}' in ${top}. Give a branch, tag or commit id it has (git fetch first for a remote one).`,
    );
  const subdir = path.relative(top, repo).split(path.sep).join('/');
  if (!(await projectAt(top, commit, subdir)))
    throw new UserError(`${option}: ${notProject(`${subdir || '.'} at ${rev} (${commit.slice(0, 12)})`)}`);
  return {
    kind: 'git',
    text,
    path: repo,
    top,
    subdir,
    rev,
    commit,
    committed: await commitDate(repo, commit),
    dirty: false,
    digest: commitDigest(commit, subdir),
    files: null,
  };
}

/** Whether a commit holds a Python project (pyproject.toml or setup.py) in `subdir`. */
async function projectAt(top: string, commit: string, subdir: string): Promise<boolean> {
  for (const f of PROJECT_FILES) if (await hasFileAt(top, commit, subdir === '' ? f : `${subdir}/${f}`)) return true;
  return false;
}

/** A clean tree and a revision of the same commit build the same thing: one digest, one cached build. */
function commitDigest(commit: string, subdir: string): string {
  return crypto.createHash('sha256').update(`git\0${commit}\0${subdir}`).digest('hex');
}

/** How a source is labelled beside its own version string: `git.1a2b3c4`, `git.1a2b3c4.dirty`, `tree.5e6f7a8b`. */
export function revisionLabel(s: Pick<ResolvedSource, 'commit' | 'dirty' | 'digest'>): string {
  if (s.commit === null) return `tree.${s.digest.slice(0, 8)}`;
  return `git.${s.commit.slice(0, 7)}${s.dirty ? '.dirty' : ''}`;
}

/** The version recorded for a build: its own version string with the revision as a local label (PEP 440). */
export function sourceVersion(own: string, s: Pick<ResolvedSource, 'commit' | 'dirty' | 'digest'>): string {
  return `${own}${own.includes('+') ? '.' : '+'}${revisionLabel(s)}`;
}
