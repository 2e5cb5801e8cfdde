// Files in trees that came from elsewhere (a run directory, a results tree, a history site's folder):
// readers do not follow a symbolic link out of the tree, and writers replace a path instead of writing
// through whatever is there, so a planted link cannot make benchgrid read or overwrite a file elsewhere.
// A full disk is an error in words that keeps what was written before (docs/security.md).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { EXIT, UserError } from '../errors.ts';

/** Whether anything is at `p`, a symbolic link included (dangling or not): lstat, never following it; false where it cannot be looked at. */
export function lexists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Whether `file` is `root` or below it, lexically. */
export function inside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel));
}

/**
 * Why `p`, a path inside the directory `root`, is not to be read as part of it: a symbolic link whose
 * target is missing or outside `root`. Undefined for anything else (a link that stays inside is fine:
 * `latest` names a sibling run).
 */
export function linkOutside(root: string, p: string): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(p);
  } catch {
    return undefined; // not there: the reader says so in its own words
  }
  if (!st.isSymbolicLink()) return undefined;
  let real: string;
  try {
    real = fs.realpathSync(p);
  } catch {
    return 'is a symbolic link to nothing (dangling)';
  }
  return inside(real, fs.realpathSync(root)) ? undefined : `is a symbolic link leading outside ${root}`;
}

/** Refuses (UserError) to read `file` of the directory `root` when it is a link out of `root`; returns `file`. */
export function containedFile(root: string, file: string): string {
  const why = linkOutside(root, file);
  if (why) throw new UserError(`${file} ${why}; refusing to read it (docs/security.md).`);
  return file;
}

/** The symbolic links under `dir` (not followed), at most `max` of them; a run directory benchgrid wrote holds none. */
export function linksUnder(dir: string, max = 10): string[] {
  const found: string[] = [];
  const stack = [dir];
  while (stack.length > 0 && found.length < max) {
    const d = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isSymbolicLink()) found.push(p);
      else if (e.isDirectory()) stack.push(p);
    }
  }
  return found;
}

/**
 * Makes the directory `root/rel` and every directory between, replacing a symbolic link found on the
 * way by a real directory (the link itself is removed, never what it points to). `root` is the user's.
 */
export function ensureDirIn(root: string, rel: string): string {
  let at = path.resolve(root);
  fs.mkdirSync(at, { recursive: true });
  for (const part of path
    .normalize(rel)
    .split(path.sep)
    .filter((p) => p && p !== '.')) {
    if (part === '..') throw new Error(`ensureDirIn: ${rel} leaves ${root}`);
    at = path.join(at, part);
    let st: fs.Stats | undefined;
    try {
      st = fs.lstatSync(at);
    } catch {
      st = undefined;
    }
    if (st?.isDirectory()) continue;
    if (st) fs.rmSync(at, { force: true }); // a link or a file where a directory belongs: replaced
    fs.mkdirSync(at);
  }
  return at;
}

/** Error codes of a write that failed for want of space (ENOSPC), quota (EDQUOT) or a file-size limit (EFBIG). */
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/** Whether an error is a write that ran out of space. */
export function isNoSpace(error: unknown): boolean {
  return NO_SPACE.has((error as NodeJS.ErrnoException)?.code ?? '');
}

/** Does nothing: SIGXFSZ's listener (see keepFileSizeErrors). */
function ignoreSignal(): void {}

/**
 * Keeps a write past a file-size limit (RLIMIT_FSIZE) an EFBIG error instead of the end of the process.
 * Node ignores SIGXFSZ, but execa's signal-exit listens to it and, finding no listener but its own,
 * re-raises it with the default action, which kills benchgrid without a word mid-run. One listener of
 * benchgrid's own makes signal-exit leave the signal alone; the failed write is handled where it happens.
 */
export function keepFileSizeErrors(): void {
  if (process.platform !== 'win32' && !process.listeners('SIGXFSZ').includes(ignoreSignal))
    process.on('SIGXFSZ', ignoreSignal);
}

/** A write that found no room: exit 3 (the run could not proceed), with what could not be written. */
export class NoSpaceError extends UserError {}

/** The error a full disk becomes: what could not be written, and why in words. */
export function noSpaceError(file: string, error: unknown, after = ''): NoSpaceError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === 'EFBIG'
      ? 'the file would be larger than this process may write (EFBIG)'
      : code === 'EDQUOT'
        ? 'the disk quota is used up (EDQUOT)'
        : 'the disk is full (ENOSPC)';
  return new NoSpaceError(`cannot write ${file}: ${why}.${after ? ` ${after}` : ''}`, EXIT.runFailed);
}

/**
 * Writes a file by replacing it: a temporary sibling with a random name, created exclusively (so never
 * through a link or over another file), then renamed over `file` (a link there is replaced, not
 * followed). Readers never see half a file; on failure the temporary file is removed and a full disk
 * is a UserError (exit 3).
 */
export function writeAtomic(file: string, text: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(tmp, text, { flag: 'wx' });
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw writeFailure(error, file) ?? error;
  }
}

/**
 * Appends one line to a file with a single write, never through a symbolic link (O_NOFOLLOW): a run's
 * journal. A write the disk cannot hold is undone (the file is cut back to where it was, so no torn line
 * glues itself to the next record) and becomes a UserError.
 */
export function appendLine(file: string, line: string): void {
  let fd: number;
  try {
    fd = fs.openSync(
      file,
      fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW,
      0o644,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new UserError(`${file} is a symbolic link; benchgrid writes its journal only into a file of its own.`);
    if (isNoSpace(error)) throw noSpaceError(file, error);
    throw error;
  }
  const before = fs.fstatSync(fd).size;
  const bytes = Buffer.from(line);
  try {
    // A write that meets the limit is short; the next one fails with the reason (ENOSPC, EDQUOT, EFBIG).
    for (let done = 0; done < bytes.length; ) {
      const n = fs.writeSync(fd, bytes, done);
      if (n === 0) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
      done += n;
    }
  } catch (error) {
    fs.ftruncateSync(fd, before);
    if (isNoSpace(error)) throw noSpaceError(file, error);
    throw error;
  } finally {
    fs.closeSync(fd);
  }
}

/** The file-system calls that write: an error from one of them is about where benchgrid writes. */
const WRITING_CALLS = new Set([
  'write',
  'mkdir',
  'rename',
  'copyfile',
  'symlink',
  'link',
  'unlink',
  'rmdir',
  'rm',
  'chmod',
  'utime',
  'futime',
  'fsync',
  'ftruncate',
  'close',
  'mkdtemp',
  'cp',
]);
const NOT_WRITABLE: Record<string, string> = {
  EROFS: 'the file system is read-only (EROFS)',
  EACCES: 'permission denied (EACCES)',
  EPERM: 'the operation is not permitted there (EPERM)',
  ENOENT: 'a directory on the way does not exist (ENOENT)',
  ENOTDIR: 'a part of the path is a file, not a directory (ENOTDIR)',
  EISDIR: 'it is a directory (EISDIR)',
  ENAMETOOLONG: 'the name is too long for the file system (ENAMETOOLONG)',
};

/**
 * What the error boundary says for a write the file system refused, a command's output that cannot be
 * written: a full disk is exit 3 (the work could not proceed), a place that cannot be written to exit 2
 * (choose another), each one line naming the path. Undefined for any other error (a bug keeps its stack).
 */
export function writeFailure(error: unknown, writing?: string): UserError | undefined {
  const e = error as NodeJS.ErrnoException & { dest?: string };
  if (!(error instanceof Error) || typeof e.code !== 'string') return undefined;
  // `open` also reads: only a writer that says so (writing) makes an error of it a write's.
  if (writing === undefined && (typeof e.path !== 'string' || !WRITING_CALLS.has(e.syscall ?? ''))) return undefined;
  if (writing !== undefined) e.path = writing;
  // writeAtomic's temporary sibling is named for the file it was to become.
  const named = (p: string) => p.replace(/\.\d+\.[0-9a-f]{12}\.tmp$/, '');
  const at = e.dest ? named(e.dest) : named(e.path!);
  if (isNoSpace(error)) return noSpaceError(at, error);
  const why = NOT_WRITABLE[e.code];
  return why
    ? new UserError(`cannot write ${at}: ${why}. Choose another place, or make this one writable.`)
    : undefined;
}
