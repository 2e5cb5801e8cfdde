// The few git questions a source build asks, each one `git` process with an argument list (never a shell).
import { execa } from 'execa';
import { UserError } from '../errors.ts';

/** Runs git in `dir`; resolves to stdout, or null when git fails (or is not installed). */
export async function git(
  dir: string,
  args: string[],
  opts: { stripFinalNewline?: boolean } = {},
): Promise<string | null> {
  try {
    const r = await execa('git', ['-C', dir, ...args], {
      timeout: 120_000,
      stripFinalNewline: opts.stripFinalNewline ?? true,
      env: { GIT_TERMINAL_PROMPT: '0' },
    });
    return r.stdout;
  } catch {
    return null;
  }
}

/** Like git(), but a failure is a UserError with `what` and git's own message. */
export async function gitOrFail(dir: string, args: string[], what: string): Promise<string> {
  try {
    const r = await execa('git', ['-C', dir, ...args], { timeout: 600_000, env: { GIT_TERMINAL_PROMPT: '0' } });
    return r.stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new UserError(`${what}: ${(e.stderr || e.message).trim().split('\n').pop()}`);
  }
}

/** The top of the work tree holding `dir`, or null when `dir` is not inside a git work tree. */
export async function workTreeTop(dir: string): Promise<string | null> {
  return git(dir, ['rev-parse', '--show-toplevel']);
}

/** The full commit id a revision names, or null when it names none. `--end-of-options`: a revision is never an option. */
export async function commitOf(dir: string, rev: string): Promise<string | null> {
  const out = await git(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  return out && /^[0-9a-f]{40,64}$/.test(out) ? out : null;
}

/** The committer date of a commit (ISO 8601). */
export async function commitDate(dir: string, commit: string): Promise<string | null> {
  return git(dir, ['show', '-s', '--format=%cI', commit]);
}

/** Whether a commit holds a file at a path (relative to the repository's top, '/'-separated). */
export async function hasFileAt(top: string, commit: string, file: string): Promise<boolean> {
  return (await git(top, ['cat-file', '-e', `${commit}:${file}`])) !== null;
}
