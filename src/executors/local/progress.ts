// Progress on stderr: cells done/total, the current process, elapsed and ETA. One redrawn line on a
// TTY, plain lines otherwise; stdout is left alone.

import { DEFAULT_WIDTH, fitLine } from '../../util/width.ts';

/** Progress reporter. */
export interface Progress {
  /** A process of `cell` started; `label` is what is shown. */
  start(cell: string, label: string): void;
  /** A process of `cell` finished with `status` after `wallS` seconds. */
  finish(cell: string, label: string, status: string, wallS: number): void;
  /** A process of `cell` will not run (precision-driven sampling found the cell precise): it leaves the total. */
  skip(cell: string): void;
  close(): void;
}

/**
 * A reporter for the processes to run, given by their cell ids (one entry per process). A cell counts
 * as done when all its processes have finished: with the interleaved schedule they finish in the last rounds.
 */
export function progress(processCells: string[], stream: NodeJS.WriteStream = process.stderr): Progress {
  const t0 = Date.now();
  let total = processCells.length;
  let done = 0;
  let walls = 0;
  const left = new Map<string, number>();
  for (const c of processCells) left.set(c, (left.get(c) ?? 0) + 1);
  const cells = left.size;
  let doneCells = 0;
  const tty = Boolean(stream.isTTY) && process.env.TERM !== 'dumb';
  const clock = (s: number) => {
    const m = Math.floor(s / 60);
    return `${m}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
  };
  const status = (label: string) => {
    const elapsed = (Date.now() - t0) / 1000;
    const eta = done > 0 ? (walls / done) * (total - done) : NaN;
    // Counts and times first, the process last: a line cut to the terminal's width loses the end of a
    // long cell id, never the ETA (a 55-character cell id at 80 columns used to push it off).
    return `[${done}/${total} processes, ${doneCells}/${cells} cells | elapsed ${clock(elapsed)}${Number.isFinite(eta) ? `, eta ${clock(eta)}` : ''}] ${label}`;
  };
  // One column short of the width: a line that fills the last column wraps on some terminals.
  const oneLine = (s: string) => fitLine(s, (stream.columns || DEFAULT_WIDTH) - 1);
  return {
    start(_cell, label) {
      if (tty) stream.write(`\r\x1b[2K${oneLine(status(label))}`);
    },
    finish(cell, label, st, wallS) {
      done++;
      walls += wallS;
      const n = (left.get(cell) ?? 1) - 1;
      left.set(cell, n);
      if (n === 0) doneCells++;
      const line = status(`${label} ${st} (${wallS.toFixed(1)} s)`);
      if (tty) stream.write(`\r\x1b[2K${oneLine(line)}`);
      else stream.write(line + '\n');
    },
    skip(cell) {
      total--;
      const n = (left.get(cell) ?? 1) - 1;
      left.set(cell, n);
      if (n === 0) doneCells++;
    },
    close() {
      if (tty) stream.write('\n');
    },
  };
}
