// The error types that cross the one error boundary in cli.ts, and the exit codes they map to.

/** Exit codes, documented in the README. */
export const EXIT = {
  ok: 0,
  /** An internal failure (a bug): the stack is printed with a request for a bug report. */
  internal: 1,
  /** Bad input: an invalid spec, a missing file, a bad option. */
  usage: 2,
  /** The run could not proceed (no Python environment, interrupted before finishing). */
  runFailed: 3,
  /** Interrupted by SIGINT/SIGTERM; what was measured is kept. */
  interrupted: 130,
} as const;

/**
 * An error the user can fix: printed as a message, never with a stack trace. `details` are printed as
 * they are before it (an invalid spec's diagnostics, each already `file:line:col: ...`).
 */
export class UserError extends Error {
  constructor(message: string, readonly exitCode: number = EXIT.usage, readonly details: string[] = []) {
    super(message);
    this.name = 'UserError';
  }
}

/** A command finished and wants this exit code without printing anything more. */
export class ExitCode extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
    this.name = 'ExitCode';
  }
}
