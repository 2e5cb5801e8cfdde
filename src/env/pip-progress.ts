// Progress of an environment build from pip's own output: the package being fetched or installed and
// the time elapsed, a line when it changes (at most one per 2 s) and a heartbeat every 20 s.
import { startTree } from './interrupt.ts';

/** What pip is doing, read from one line of its output; null for lines that say nothing new. */
export function pipPhase(line: string): string | null {
  const m =
    /^\s*(Collecting|Downloading|Building wheel for|Installing collected packages:|Successfully installed)\s*(.*)$/.exec(
      line,
    );
  if (!m) return null;
  const what = m[2].trim().replace(/\s+\(.*\)$/, '');
  if (m[1] === 'Collecting') return `collecting ${what}`;
  if (m[1] === 'Downloading') return `downloading ${what.split('/').pop()}`;
  if (m[1] === 'Building wheel for') return `building a wheel for ${what.split(' ')[0]}`;
  if (m[1] === 'Installing collected packages:') {
    const n = what.split(',').length;
    return `installing ${n} package${n === 1 ? '' : 's'} (${what.length > 60 ? `${what.slice(0, 57)}...` : what})`;
  }
  return 'installed';
}

/** A progress reporter for one build; `feed` takes pip's stdout (or uv's stderr, with uvPhase) as it comes, `stop` ends the heartbeat. */
export function pipProgress(
  envId: string,
  log: (line: string) => void,
  now: () => number = Date.now,
  phaseOf: (line: string) => string | null = pipPhase,
  starting = 'starting pip',
) {
  const t0 = now();
  let current = starting;
  let lastShown = '';
  let lastAt = -Infinity;
  let pending = '';
  const clock = () => {
    const s = Math.floor((now() - t0) / 1000);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  };
  const show = (force: boolean) => {
    if (!force && (current === lastShown || now() - lastAt < 2000)) return;
    log(`environment '${envId}': ${current} (${clock()} elapsed)`);
    lastShown = current;
    lastAt = now();
  };
  const timer = setInterval(() => show(true), 20_000);
  timer.unref();
  return {
    feed(chunk: string) {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const phase = phaseOf(line);
        if (phase) {
          current = phase;
          show(false);
        }
      }
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/**
 * Runs `python -m pip install ARGS`, its output appended to `logFile` and read on the way for progress;
 * in a process group of its own, so that SIGINT/SIGTERM kill pip with its build backends (interrupt.ts).
 */
export async function pipInstall(
  python: string,
  args: string[],
  logFile: string,
  envId: string,
  log: (line: string) => void,
): Promise<void> {
  const progress = pipProgress(envId, log);
  const pip = startTree(
    'pip',
    python,
    ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--progress-bar', 'off', ...args],
    {
      stdout: ['pipe', { file: logFile, append: true }],
      stderr: { file: logFile, append: true },
      buffer: false,
    },
  );
  pip.stdout.on('data', (chunk: Buffer) => progress.feed(chunk.toString('utf8')));
  try {
    await pip;
  } finally {
    progress.stop();
  }
}
