// Pure: the machine's facts (facts.ts) judged for benchmarking, each with what to do when it hurts.
import { fitLine, wrap } from '../util/width.ts';
import { MIN_BUSY, type SystemFacts } from './facts.ts';

/** One line of `benchgrid system`: a fact, whether it is fine for timing (null: neither), and what to do. */
export interface Check {
  name: string;
  value: string;
  ok: boolean | null;
  advice: string | null;
  /** Lines shown under the value (one busy process each). */
  details?: string[];
}

/** Below this much available memory a torch cell process may swap or be killed. */
export const MIN_AVAILABLE = 2 * 1024 ** 3;
/** Above this share of stolen CPU time the hypervisor is giving the cores to someone else. */
export const MAX_STEAL = 0.05;

const gib = (b: number) => `${(b / 1024 ** 3).toFixed(1)} GiB`;

/** The load average is "busy" above half the cores (at least 1): a run uses one core per process. */
function loadCheck(f: SystemFacts): Check {
  const limit = Math.max(1, f.cores / 2);
  const [l1, l5, l15] = f.load_average;
  const ok = l1 <= limit;
  return {
    name: 'load average',
    value: `${l1.toFixed(2)}, ${l5.toFixed(2)}, ${l15.toFixed(2)} (1, 5, 15 min) on ${f.cores} CPUs`,
    ok,
    advice: ok
      ? null
      : `other work is running (above ${limit} for ${f.cores} CPUs): it takes cores and cache from the cell processes, and a run's A/A noise grows with it. Wait for it to end or stop it, then run again.`,
  };
}

function busyCheck(f: SystemFacts): Check {
  const shown = f.busy.slice(0, 8).map((p) => `pid ${p.pid}, ${p.cpu_percent}% of a CPU: ${p.command}`);
  return {
    name: 'busy processes',
    value:
      f.busy.length === 0
        ? `none over ${f.sample_s} s`
        : `${f.busy.length} used ${MIN_BUSY}% of a CPU or more over ${f.sample_s} s`,
    ok: f.busy.length === 0,
    advice:
      f.busy.length === 0
        ? null
        : 'they compete with the cell processes for the CPUs; stop them while measuring if you can.',
    details: f.busy.length > 8 ? [...shown, `... and ${f.busy.length - 8} more (--json lists them)`] : shown,
  };
}

function frequencyChecks(f: SystemFacts): Check[] {
  const governor: Check =
    f.governors.length === 0
      ? {
          name: 'CPU frequency governor',
          value: 'not visible (no cpufreq: a virtual machine, or a kernel without it)',
          ok: null,
          advice: f.virtual_machine ? 'in a virtual machine the host sets the clock; nothing to tune here.' : null,
        }
      : {
          name: 'CPU frequency governor',
          value: `${f.governors.join(', ')}${f.drivers.length ? ` (driver ${f.drivers.join(', ')})` : ''}`,
          ok: f.governors.every((g) => g === 'performance'),
          advice: f.governors.every((g) => g === 'performance')
            ? null
            : 'the clock follows the load, so a process that starts on an idle core runs slower at first; set the performance governor (e.g. `sudo cpupower frequency-set -g performance`, as `pyperf system tune` does).',
        };
  const boost: Check =
    f.boost === null
      ? { name: 'turbo boost', value: 'not visible', ok: null, advice: null }
      : {
          name: 'turbo boost',
          value: f.boost ? 'on' : 'off',
          ok: !f.boost,
          advice: f.boost
            ? 'the clock depends on temperature and on how many cores are busy; for stable timings turn it off (intel_pstate/no_turbo = 1, or cpufreq/boost = 0, as `pyperf system tune` does).'
            : null,
        };
  return [governor, boost];
}

function memoryCheck(f: SystemFacts): Check {
  const avail = f.memory.available_bytes;
  const swapping = (f.memory.swap_used_bytes ?? 0) > 0;
  const ok = (avail === null || avail >= MIN_AVAILABLE) && !swapping;
  const value = `${avail === null ? '?' : gib(avail)} available of ${gib(f.memory.total_bytes)}${f.memory.swap_used_bytes !== null ? `, swap used ${gib(f.memory.swap_used_bytes)}` : ''}`;
  return {
    name: 'memory',
    value,
    ok,
    advice: ok
      ? null
      : `a cell process with torch needs about 1 GiB; ${swapping ? 'pages in swap make timings jump' : `below ${gib(MIN_AVAILABLE)} available it may swap`}. Close what holds memory.`,
  };
}

/** Every check, in the order `benchgrid system` prints them. */
export function systemChecks(f: SystemFacts): Check[] {
  const cores: Check = {
    name: 'CPUs',
    value: `${f.cores}${f.cpu_model ? ` x ${f.cpu_model}` : ''}${f.online ? `, online ${f.online}` : ''}${f.virtual_machine ? ', in a virtual machine' : ''}`,
    ok: null,
    advice: f.cores < 2 ? 'one CPU: the cell process shares it with benchgrid itself and the system.' : null,
  };
  const isolated: Check = { name: 'isolated CPUs', value: f.isolated ? f.isolated : 'none', ok: null, advice: null };
  const steal: Check =
    f.steal === null
      ? { name: 'steal time', value: 'not reported', ok: null, advice: null }
      : {
          name: 'steal time',
          value: `${(f.steal * 100).toFixed(1)}% of CPU time over ${f.sample_s} s`,
          ok: f.steal <= MAX_STEAL,
          advice:
            f.steal <= MAX_STEAL
              ? null
              : 'the hypervisor gives these CPUs to other machines part of the time; timings will vary with their load.',
        };
  return [cores, isolated, loadCheck(f), busyCheck(f), ...frequencyChecks(f), memoryCheck(f), steal];
}

/** The report as text, no line wider than `width`. */
export function renderSystem(f: SystemFacts, checks: Check[], width: number): string {
  const lines = [`${f.platform}`];
  for (const c of checks) {
    const mark = c.ok === false ? '!' : c.ok === true ? 'ok' : '-';
    lines.push(
      ...wrap(`${mark.padEnd(2)} ${c.name}: ${c.value}`, width - 5).map((l, i) => (i === 0 ? l : `     ${l}`)),
    );
    for (const d of c.details ?? []) lines.push(fitLine(`     ${d}`, width));
    if (c.advice) lines.push(...wrap(c.advice, width - 5).map((l) => `     ${l}`));
  }
  const bad = checks.filter((c) => c.ok === false).length;
  lines.push(
    '',
    ...wrap(
      bad === 0
        ? 'Nothing found that makes timings noisy (marked !).'
        : `${bad} thing${bad === 1 ? '' : 's'} here make${bad === 1 ? 's' : ''} timings noisy (marked !); a run's summary warns when its own A/A noise shows it.`,
      width,
    ),
  );
  return lines.join('\n') + '\n';
}
