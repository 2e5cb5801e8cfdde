// What the faulty adapters of test/fixtures/specs/faults.yaml leave in their cells, whoever started the process
// (the local executor, its fork launcher, the bundle's driver): the same words for the same fault everywhere.

/** A process that exited with code 3 and wrote no result. */
export const CRASHED = { status: 'error', reason: 'the process exited with code 3 without writing a result' };
/** A process killed by SIGKILL before it wrote a result. */
export const KILLED = { status: 'error', reason: 'the process was killed by SIGKILL before writing a result' };
/** A process still running at the faults spec's 20 s limit: it and its children were killed. */
export const TIMED_OUT = { status: 'error', reason: 'timed out after 20 s (the process tree was killed)' };
