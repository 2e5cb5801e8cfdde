// Progress on stderr: cells done/total, the current process, elapsed and ETA. One redrawn line on a
// TTY, plain lines otherwise; stdout is left alone.

/** Progress reporter. */
export interface Progress {
  start(label: string): void;
  finish(label: string, status: string, wallS: number): void;
  close(): void;
}

/** A reporter for `total` processes over `cells` cells. */
export function progress(total: number, cells: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  const t0 = Date.now();
  let done = 0;
  let walls = 0;
  const doneCells = new Set<string>();
  const tty = Boolean(stream.isTTY) && process.env.TERM !== 'dumb';
  const clock = (s: number) => {
    const m = Math.floor(s / 60);
    return `${m}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
  };
  const status = (label: string) => {
    const elapsed = (Date.now() - t0) / 1000;
    const eta = done > 0 ? ((walls / done) * (total - done)) : NaN;
    return `[${done}/${total} processes, ${doneCells.size}/${cells} cells] ${label} | elapsed ${clock(elapsed)}${Number.isFinite(eta) ? `, eta ${clock(eta)}` : ''}`;
  };
  return {
    start(label) {
      if (tty) stream.write(`\r\x1b[2K${status(label)}`.slice(0, (stream.columns ?? 200) + 8));
    },
    finish(label, st, wallS) {
      done++;
      walls += wallS;
      doneCells.add(label.split(' ')[0]);
      const line = status(`${label} ${st} (${wallS.toFixed(1)} s)`);
      if (tty) stream.write(`\r\x1b[2K${line}`.slice(0, (stream.columns ?? 200) + 8));
      else stream.write(line + '\n');
    },
    close() {
      if (tty) stream.write('\n');
    },
  };
}
