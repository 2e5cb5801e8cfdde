// The error types that cross the one error boundary in cli.ts, and the exit codes they map to.

/**
 * Exit codes, one per class of outcome, documented in docs/commands.md ("Exit codes") and in `benchgrid --help`. A bug is 1
 * because that is also what Node exits with when it crashes outside the boundary; a difference found
 * (`diff --exit-code`, `compare --fail-on-slower`) has its own code so that CI never reads a crash as a
 * regression.
 */
export const EXIT = {
  ok: 0,
  /** An internal failure (a bug): the stack is printed with a request for a bug report. */
  internal: 1,
  /** Bad input: an invalid spec, a missing file, a bad option. */
  usage: 2,
  /** The run could not proceed (no Python environment, torch does not import), or it measured nothing at all. */
  runFailed: 3,
  /** A difference was found where one was asked for: `diff --exit-code`, `compare --fail-on-slower`. */
  differenceFound: 4,
  /**
   * The run finished, but some cells ended in `error`: what was measured is good and kept, and a CI
   * can tell this from a clean run (0), a crash (1) and a run that measured nothing (3).
   */
  cellErrors: 5,
  /** Interrupted by SIGINT/SIGTERM; what was measured is kept. */
  interrupted: 130,
} as const;

/** The exit-code table printed by `benchgrid --help` (docs/commands.md carries the same table). */
export const EXIT_HELP = `Exit codes:
  0    success
  1    internal error: a bug in benchgrid (the stack is printed; please report it)
  2    bad input: invalid spec, missing or unreadable file, bad option
  3    the run could not proceed: an environment failed to build, torch does not import, Slurm refused
       the job, the disk is full, or nothing could be measured (every planned cell failed or declined at run time)
  4    a difference found where you asked for one: diff --exit-code, compare/bench-change --fail-on-slower
  5    the run finished, but some cells ended in error (the summary says why; the rest is measured)
  130  interrupted (what was measured is kept; resume with run --resume; an environment build in progress
       is stopped and removed)`;

/**
 * An error the user can fix: printed as a message, never with a stack trace. `details` are printed as
 * they are before it (an invalid spec's diagnostics, each already `file:line:col: ...`).
 */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/** A command finished and wants this exit code without printing anything more. */
export class ExitCode extends Error {
  /** `detail` is what the JSON error object says when JSON was asked for (the text already went to stderr). */
  constructor(
    readonly exitCode: number,
    readonly detail?: { message: string; diagnostics?: unknown[] },
  ) {
    super(`exit ${exitCode}`);
    this.name = 'ExitCode';
  }
}
