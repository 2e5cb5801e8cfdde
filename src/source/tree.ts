// The files of a source tree and their digest: what a build from that tree sees, hashed once, so that a
// cached build is reused exactly when the code is the same.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { lexists } from '../util/files.ts';
import { git } from './git.ts';

/** Most files a tree may hold, and most bytes: a package's source is far below both. */
export const MAX_TREE_FILES = 100_000;
export const MAX_TREE_BYTES = 2 * 1024 ** 3;

/** Directories that are build products or caches, never source, in a tree outside git. */
const SKIPPED_DIRS = new Set([
  '.git',
  '.hg',
  '.svn',
  '__pycache__',
  '.tox',
  '.nox',
  '.venv',
  'venv',
  'build',
  'dist',
  'node_modules',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.eggs',
]);
const skippedDir = (name: string) => SKIPPED_DIRS.has(name) || name.endsWith('.egg-info');
const skippedFile = (name: string) => name.endsWith('.pyc') || name.endsWith('.pyo');

/**
 * The files of a work tree below `dir` as git sees them (tracked and untracked, without what
 * .gitignore ignores), relative to `dir`, sorted; files deleted from the work tree and benchgrid's own
 * runs are left out.
 */
export async function gitFiles(dir: string): Promise<string[]> {
  return check(dir, withoutRuns(dir, await gitListed(dir, 0)));
}

/** How deep submodules may nest in a source tree. */
const MAX_SUBMODULE_DEPTH = 8;

/**
 * git's list of the files below `dir`, with each checked-out submodule's files in place of the one entry
 * (a gitlink, a directory) that git lists for it; a submodule that is not checked out has no files here.
 */
async function gitListed(dir: string, depth: number): Promise<string[]> {
  const listed = (
    await gitList(dir, ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--deduplicate'])
  ).filter((f) => lexists(path.join(dir, f)));
  const files: string[] = [];
  for (const f of [...new Set(listed)]) {
    if (!fs.lstatSync(path.join(dir, f)).isDirectory()) files.push(f);
    else if (depth >= MAX_SUBMODULE_DEPTH)
      throw new UserError(
        `${path.join(dir, f)}: submodules nest deeper than ${MAX_SUBMODULE_DEPTH} levels in this source tree.`,
      );
    else if (fs.existsSync(path.join(dir, f, '.git')))
      files.push(...(await gitListed(path.join(dir, f), depth + 1)).map((g) => `${f}/${g}`));
  }
  return files.sort();
}

/**
 * Whether a work tree below `dir` differs from its commit: a tracked file changed (staged or not) or
 * deleted, or a file git does not ignore added; benchgrid's own runs (bench-change run from the
 * checkout writes results/ there) do not count.
 */
export async function gitDirty(dir: string): Promise<boolean> {
  const changed = await gitList(dir, ['diff', '--name-only', '--relative', '-z', 'HEAD', '--', '.']);
  const untracked = await gitList(dir, ['ls-files', '-z', '--others', '--exclude-standard']);
  return withoutRuns(dir, [...changed, ...untracked]).length > 0;
}

async function gitList(dir: string, args: string[]): Promise<string[]> {
  const out = await git(dir, args, { stripFinalNewline: false });
  if (out === null) throw new UserError(`${dir}: git could not list the files of this work tree (git ${args[0]}).`);
  return out.split('\0').filter((f) => f !== '');
}

/**
 * The files but those of benchgrid run directories (a directory holding journal.jsonl and spec.json)
 * and the `latest` links to them: a run started from a checkout writes there, and what it writes is
 * not the tool's code (a resumed run would otherwise see its source changed).
 */
export function withoutRuns(dir: string, files: string[]): string[] {
  const set = new Set(files);
  const runs = files
    .filter((f) => path.posix.basename(f) === 'journal.jsonl')
    .map((f) => path.posix.dirname(f))
    .filter((d) => set.has(`${d}/spec.json`) || lexists(path.join(dir, d, 'spec.json')));
  const inRun = (f: string) => runs.some((r) => f.startsWith(`${r}/`));
  const latestLink = (f: string) => {
    if (
      path.posix.basename(f) !== 'latest' ||
      !fs.lstatSync(path.join(dir, f), { throwIfNoEntry: false })?.isSymbolicLink()
    )
      return false;
    return lexists(path.join(dir, f, 'journal.jsonl'));
  };
  return files.filter((f) => !inRun(f) && !latestLink(f));
}

/** The files of a plain directory, relative to it, sorted; build products and caches are left out. */
export function walkFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!skippedDir(e.name)) visit(r);
      } else if ((e.isFile() || e.isSymbolicLink()) && !skippedFile(e.name)) {
        out.push(r);
        if (out.length > MAX_TREE_FILES) throw tooLarge(dir, `more than ${MAX_TREE_FILES} files`);
      }
    }
  };
  visit('');
  return check(dir, withoutRuns(dir, out.sort()));
}

function tooLarge(dir: string, what: string): UserError {
  return new UserError(
    `${dir}: this tree holds ${what}, too large for a source build. Point at the package's own directory (the one with pyproject.toml).`,
  );
}

function check(dir: string, files: string[]): string[] {
  if (files.length > MAX_TREE_FILES) throw tooLarge(dir, `${files.length} files (at most ${MAX_TREE_FILES})`);
  let bytes = 0;
  for (const f of files) {
    const st = fs.lstatSync(path.join(dir, f));
    // A named pipe or a device would make the digest's read wait forever (or never end).
    if (!st.isFile() && !st.isSymbolicLink())
      throw new UserError(
        `${path.join(dir, f)}: not a regular file (${st.isFIFO() ? 'a named pipe' : st.isSocket() ? 'a socket' : st.isDirectory() ? 'a directory' : 'a device'}); a source tree holds files and links only. Remove it, or point at the package's own directory.`,
      );
    bytes += st.size;
    if (bytes > MAX_TREE_BYTES) throw tooLarge(dir, `more than ${MAX_TREE_BYTES / 1024 ** 3} GiB`);
  }
  return files;
}

/** sha256 of the files' names, kinds (executable, link) and contents, in order. */
export function digestFiles(dir: string, files: string[], prefix: string): string {
  const h = crypto.createHash('sha256').update(prefix).update('\0');
  const buf = Buffer.alloc(1 << 20);
  for (const f of files) {
    const file = path.join(dir, f);
    const st = fs.lstatSync(file);
    h.update(f).update('\0');
    if (st.isSymbolicLink()) {
      h.update(`link\0${fs.readlinkSync(file)}\0`);
      continue;
    }
    h.update(st.mode & 0o111 ? 'x\0' : 'f\0');
    const fd = fs.openSync(file, 'r');
    try {
      for (let n = fs.readSync(fd, buf, 0, buf.length, null); n > 0; n = fs.readSync(fd, buf, 0, buf.length, null)) {
        h.update(buf.subarray(0, n));
      }
    } finally {
      fs.closeSync(fd);
    }
    h.update('\0');
  }
  return h.digest('hex');
}

/** Copies the listed files (and links, as links) from one tree into another, creating directories. */
export function copyFiles(from: string, to: string, files: string[]): void {
  for (const f of files) {
    const src = path.join(from, f);
    const dst = path.join(to, f);
    fs.mkdirSync(path.dirname(dst), { recursive: true });
    fs.rmSync(dst, { force: true });
    if (fs.lstatSync(src).isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(src), dst);
    else fs.copyFileSync(src, dst);
  }
}
