// Reading specs as they were at a git revision (`git show REV:path`), without checking anything out.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { UserError } from '../errors.ts';
import { diag } from '../spec/diagnostics.ts';
import type { Reader } from '../spec/extends.ts';
import { MAX_SPEC_BYTES } from '../spec/source.ts';

/** A git revision resolved once: the user's spelling for messages, the commit for reading. */
export interface Revision {
  top: string;
  name: string;
  commit: string;
}

/** Runs git with an argument array (never a shell) in a directory; never throws. */
async function git(cwd: string, args: string[], opts: { maxBuffer?: number; buffer?: boolean } = {}) {
  return execa('git', args, {
    cwd,
    reject: false,
    stdin: 'ignore',
    maxBuffer: opts.maxBuffer ?? 64 * 1024 * 1024,
    encoding: opts.buffer ? 'buffer' : 'utf8',
  });
}

/** Resolves REV in the repository holding `cwd`; a UserError when there is no repository or no such commit. */
export async function resolveRevision(rev: string, cwd = process.cwd()): Promise<Revision> {
  // A revision is never an option: `--base=--output=x` must not reach git as one.
  if (rev === '' || rev.startsWith('-'))
    throw new UserError(`--base needs a git revision such as origin/main or HEAD~1 (got ${JSON.stringify(rev)}).`);
  const top = await git(cwd, ['rev-parse', '--show-toplevel']);
  if (top.failed)
    throw new UserError(
      `--base reads specs from git, but ${cwd} is not inside a git repository (${firstLine(String(top.stderr))}).`,
    );
  const commit = await git(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  if (commit.failed)
    throw new UserError(
      `--base ${rev}: no such commit in ${String(top.stdout).trim()}. Fetch it first (actions/checkout needs fetch-depth: 0).`,
    );
  return { top: String(top.stdout).trim(), name: rev, commit: String(commit.stdout).trim() };
}

/** The path of a file relative to the repository top, with '/' separators; undefined when outside it. */
export function relativeToTop(rev: Revision, file: string): string | undefined {
  const rel = path.relative(rev.top, realish(path.resolve(file)));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}

/** How a file at a revision is shown in messages: `REV:path`. */
export function labelAt(rev: Revision, file: string): string {
  return `${rev.name}:${relativeToTop(rev, file) ?? file}`;
}

/** Whether a file exists at the revision. */
export async function existsAt(rev: Revision, file: string): Promise<boolean> {
  const rel = relativeToTop(rev, file);
  if (rel === undefined) return false;
  return !(await git(rev.top, ['cat-file', '-e', `${rev.commit}:${rel}`])).failed;
}

/** A Reader that reads each file as it was at the revision; the same checks as reading from disk. */
export function gitReader(rev: Revision): Reader {
  return async (file) => {
    const where = { file, line: 1, col: 1 };
    const fail = (code: string, message: string, hint?: string) => ({
      ok: false as const,
      diagnostic: diag('error', code, where, '', message, hint),
    });
    const rel = relativeToTop(rev, file);
    if (rel === undefined)
      return fail(
        'outside-repository',
        `is outside the git repository ${rev.top}, so it has no version at ${rev.name}.`,
      );
    const size = await git(rev.top, ['cat-file', '-s', `${rev.commit}:${rel}`]);
    if (size.failed) return fail('missing-file', `no such file at ${rev.name}.`, 'Was it added after that revision?');
    const bytes = Number(String(size.stdout).trim());
    if (bytes > MAX_SPEC_BYTES)
      return fail(
        'too-large',
        `the file is ${(bytes / 1024 / 1024).toFixed(1)} MB at ${rev.name}; a spec may be at most ${MAX_SPEC_BYTES / 1024 / 1024} MB.`,
      );
    const shown = await git(rev.top, ['cat-file', 'blob', `${rev.commit}:${rel}`], {
      buffer: true,
      maxBuffer: MAX_SPEC_BYTES + 1,
    });
    if (shown.failed)
      return fail(
        'unreadable',
        `cannot read it at ${rev.name} (${firstLine(Buffer.from(shown.stderr as Uint8Array).toString('utf8'))}).`,
      );
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(shown.stdout as Uint8Array).replace(/^\uFEFF/, '');
    } catch {
      return fail('not-utf8', 'the file is not valid UTF-8.', 'Save it as UTF-8.');
    }
    if (text.trim() === '') return fail('empty', 'the file is empty.');
    return { ok: true, text };
  };
}

/** Files changed between the revision and the working tree (committed or not, new untracked ones too), relative to the top. */
export async function changedFiles(rev: Revision): Promise<Set<string>> {
  const diffed = await git(rev.top, [
    'diff',
    '--name-only',
    '--no-renames',
    '--no-ext-diff',
    '--no-textconv',
    '-z',
    rev.commit,
    '--',
  ]);
  if (diffed.failed) throw new UserError(`git diff against ${rev.name} failed: ${firstLine(String(diffed.stderr))}`);
  const untracked = await git(rev.top, ['ls-files', '-z', '--others', '--exclude-standard']);
  const names = [
    ...String(diffed.stdout).split('\0'),
    ...(untracked.failed ? [] : String(untracked.stdout).split('\0')),
  ];
  return new Set(names.filter(Boolean));
}

/** Top-level spec files (`specs/*.yaml`) that existed at the revision, relative to the top. */
export async function specsAt(rev: Revision, dir = 'specs'): Promise<string[]> {
  const listed = await git(rev.top, ['ls-tree', '-z', '--name-only', `${rev.commit}:${dir}`]);
  if (listed.failed) return [];
  return String(listed.stdout)
    .split('\0')
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => `${dir}/${f}`);
}

/** Top-level spec files in the working tree, relative to the top. */
export function specsNow(rev: Revision, dir = 'specs'): string[] {
  const abs = path.join(rev.top, dir);
  if (!fs.existsSync(abs)) return [];
  return fs
    .readdirSync(abs)
    .filter((f) => /\.ya?ml$/.test(f) && fs.statSync(path.join(abs, f)).isFile())
    .map((f) => `${dir}/${f}`);
}

/** The real path of a file, or of its nearest existing parent joined with the rest (for deleted files). */
function realish(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    const parent = path.dirname(file);
    return parent === file ? file : path.join(realish(parent), path.basename(file));
  }
}

function firstLine(s: string): string {
  return s.split('\n')[0].trim();
}
