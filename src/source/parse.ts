// What the command line says about a tool's source (`--tool-source TOOL=SOURCE`, bench-change's `--base`
// and `--head`), parsed into data. Pure: nothing is read or started here. A spec has no field for a
// source (a spec is data from a pull request, docs/security.md): only these options name one.
import { UserError } from '../errors.ts';

/**
 * Where a tool's code comes from:
 * - `tree`: a directory on this machine (a checkout, an unpacked sdist), as it is now;
 * - `git`: a revision of a local git repository (`repo` null: the repository of the current directory);
 * - `pinned`: the release the spec's environment installs (a side of bench-change only).
 */
export type SourceArg =
  | { kind: 'tree'; path: string }
  | { kind: 'git'; repo: string | null; rev: string }
  | { kind: 'pinned' };

/** One `--tool-source TOOL=SOURCE`. */
export interface ToolSourceArg {
  /** A tool id of the spec, or a package that tools of the spec use. */
  tool: string;
  source: SourceArg;
}

/** Longest value accepted (a path or a revision): far beyond any real one. */
export const MAX_SOURCE_CHARS = 4096;

/** Parses `SOURCE` (`git:REV`, `git:REPO@REV`, `pinned` where allowed, else a path). */
export function parseSource(value: string, option: string, allowPinned: boolean): SourceArg {
  const v = value.trim();
  if (v === '')
    throw new UserError(`${option}: the source is empty. Give a directory (a checkout), git:REV or git:REPO@REV.`);
  if (v.length > MAX_SOURCE_CHARS)
    throw new UserError(`${option}: the source is ${v.length} characters; at most ${MAX_SOURCE_CHARS} are read.`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(v))
    throw new UserError(
      `${option}: the source ${JSON.stringify(v)} holds a control character (a line break, a tab); give the path or revision as it is.`,
    );
  if (v === 'pinned') {
    if (allowPinned) return { kind: 'pinned' };
    throw new UserError(
      `${option}: 'pinned' (the spec's own release) is a side of bench-change; a run without --tool-source already measures it. To build a directory named 'pinned', write ./pinned.`,
    );
  }
  if (v.startsWith('git:')) return parseGit(v.slice(4), option);
  return { kind: 'tree', path: v };
}

/**
 * `git:REV` or `git:REPO@REV`: split at the last `@` unless it starts a reflog selector (`HEAD@{1}`), so a
 * repository path may hold `@`; a revision holding `@` is given by its commit id instead.
 */
function parseGit(rest: string, option: string): SourceArg {
  const at = rest.lastIndexOf('@');
  const split = at > 0 && at < rest.length - 1 && rest[at + 1] !== '{';
  const repo = split ? rest.slice(0, at) : null;
  const rev = split ? rest.slice(at + 1) : rest;
  if (rev === '')
    throw new UserError(`${option}: git: needs a revision, as in git:main, git:v2.36.1 or git:../torchlens@main.`);
  // A revision is never an option to git: '-' first would be read as one.
  if (rev.startsWith('-'))
    throw new UserError(`${option}: the revision '${rev}' starts with '-'; give a branch, tag or commit id.`);
  return { kind: 'git', repo, rev };
}

/** Parses one `--tool-source TOOL=SOURCE`. */
export function parseToolSource(value: string): ToolSourceArg {
  const eq = value.indexOf('=');
  if (eq < 0)
    throw new UserError(
      `--tool-source ${JSON.stringify(value)}: expected TOOL=SOURCE, e.g. torchlens=../torchlens or torchlens=git:main.`,
    );
  const tool = value.slice(0, eq).trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(tool)) {
    throw new UserError(
      `--tool-source ${JSON.stringify(value)}: '${tool}' is not a tool or package name (letters, digits, '.', '_', '-'); expected TOOL=SOURCE.`,
    );
  }
  return { tool, source: parseSource(value.slice(eq + 1), `--tool-source ${tool}`, false) };
}

/** The words a user would type for a source, for messages and the journal. */
export function sourceText(s: SourceArg): string {
  if (s.kind === 'pinned') return 'pinned';
  if (s.kind === 'tree') return s.path;
  return s.repo === null ? `git:${s.rev}` : `git:${s.repo}@${s.rev}`;
}
