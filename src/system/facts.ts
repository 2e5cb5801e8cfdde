// What makes this machine noisy for a benchmark, read from /proc and /sys (Linux) and Node's os module:
// load, other busy processes, the CPU frequency governor and boost, cores, memory, steal time. The
// checks follow `pyperf system show` (governor, turbo boost, isolated CPUs), plus the processes that
// compete for the cores, which is what a shared machine most often has. Reading only; nothing is tuned.
import fs from 'node:fs';
import os from 'node:os';

/** One busy process seen while sampling. */
export interface BusyProcess {
  pid: number;
  /** Share of one core over the sample, in percent. */
  cpu_percent: number;
  command: string;
}

/** The machine as a benchmark sees it. */
export interface SystemFacts {
  platform: string;
  cpu_model: string | null;
  cores: number;
  /** Online CPUs as the kernel lists them (`0-1`), and the isolated ones (isolcpus), when readable. */
  online: string | null;
  isolated: string | null;
  virtual_machine: boolean;
  load_average: [number, number, number];
  /** Per CPU frequency policy: the governor and the driver; empty when the kernel shows none (most VMs). */
  governors: string[];
  drivers: string[];
  /** Turbo/boost: true on, false off, null when the machine does not say. */
  boost: boolean | null;
  memory: { total_bytes: number; available_bytes: number | null; swap_used_bytes: number | null };
  /** CPU time stolen by the hypervisor over the sample, as a share of all CPU time; null when not reported. */
  steal: number | null;
  /** Processes other than this one that used at least MIN_BUSY percent of a core over the sample. */
  busy: BusyProcess[];
  sample_s: number;
}

/** A process using less than this share of a core is not listed. */
export const MIN_BUSY = 5;

const read = (file: string): string | null => {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
};

/** Per-process CPU ticks (utime + stime) and command, from /proc/PID/stat and cmdline. */
function processTicks(): Map<number, { ticks: number; command: string }> {
  const out = new Map<number, { ticks: number; command: string }>();
  let pids: string[] = [];
  try {
    pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return out;
  }
  for (const p of pids) {
    const stat = read(`/proc/${p}/stat`);
    if (!stat) continue;
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    // Any process's command line is shown: control characters (newlines, escapes) become spaces.
    const cmdline = (read(`/proc/${p}/cmdline`) ?? '').replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
    out.set(Number(p), {
      ticks: Number(fields[11]) + Number(fields[12]),
      command: (cmdline || `[${name}]`).slice(0, 200),
    });
  }
  return out;
}

/** The `cpu` line of /proc/stat: total ticks and stolen ticks. */
function cpuTicks(): { total: number; steal: number } | null {
  const line = read('/proc/stat')
    ?.split('\n')
    .find((l) => l.startsWith('cpu '));
  if (!line) return null;
  const v = line.split(/\s+/).slice(1).map(Number);
  return { total: v.reduce((a, b) => a + b, 0), steal: v[7] ?? 0 };
}

/** Which processes were busy over `ms` milliseconds, and the share of CPU time stolen. */
async function sample(ms: number): Promise<{ busy: BusyProcess[]; steal: number | null }> {
  const before = processTicks();
  const cpu0 = cpuTicks();
  await new Promise((r) => setTimeout(r, ms));
  const after = processTicks();
  const cpu1 = cpuTicks();
  // USER_HZ is 100 on every Linux architecture benchgrid runs on (sysconf(_SC_CLK_TCK)).
  const hz = 100;
  const busy: BusyProcess[] = [];
  for (const [pid, now] of after) {
    const then = before.get(pid);
    if (!then || pid === process.pid) continue;
    const percent = ((now.ticks - then.ticks) / hz / (ms / 1000)) * 100;
    if (percent >= MIN_BUSY) busy.push({ pid, cpu_percent: Math.round(percent), command: now.command });
  }
  busy.sort((a, b) => b.cpu_percent - a.cpu_percent);
  const steal = cpu0 && cpu1 && cpu1.total > cpu0.total ? (cpu1.steal - cpu0.steal) / (cpu1.total - cpu0.total) : null;
  return { busy, steal };
}

/** The set of values of a file under every cpufreq policy (governor, driver). */
function policies(name: string): string[] {
  const base = '/sys/devices/system/cpu/cpufreq';
  let dirs: string[] = [];
  try {
    dirs = fs.readdirSync(base).filter((d) => d.startsWith('policy'));
  } catch {
    return [];
  }
  return [...new Set(dirs.map((d) => read(`${base}/${d}/${name}`)).filter((v): v is string => v !== null))].sort();
}

/** Turbo boost: intel_pstate's no_turbo, else the cpufreq boost switch (acpi-cpufreq, amd-pstate). */
function boost(): boolean | null {
  const noTurbo = read('/sys/devices/system/cpu/intel_pstate/no_turbo');
  if (noTurbo !== null) return noTurbo === '0';
  const b = read('/sys/devices/system/cpu/cpufreq/boost');
  return b === null ? null : b === '1';
}

function meminfo(key: string): number | null {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(read('/proc/meminfo') ?? '');
  return m ? Number(m[1]) * 1024 : null;
}

/** Reads the machine, sampling busy processes and steal time over `sampleMs`. */
export async function systemFacts(sampleMs = 1000): Promise<SystemFacts> {
  const { busy, steal } = await sample(sampleMs);
  const swapTotal = meminfo('SwapTotal');
  const swapFree = meminfo('SwapFree');
  const [l1, l5, l15] = os.loadavg();
  return {
    platform: `${os.platform()} ${os.release()}`,
    cpu_model: os.cpus()[0]?.model?.trim() || null,
    cores: os.cpus().length,
    online: read('/sys/devices/system/cpu/online'),
    isolated: read('/sys/devices/system/cpu/isolated'),
    virtual_machine: /\bhypervisor\b/.test(read('/proc/cpuinfo') ?? ''),
    load_average: [l1, l5, l15],
    governors: policies('scaling_governor'),
    drivers: policies('scaling_driver'),
    boost: boost(),
    memory: {
      total_bytes: os.totalmem(),
      available_bytes: meminfo('MemAvailable'),
      swap_used_bytes: swapTotal !== null && swapFree !== null ? swapTotal - swapFree : null,
    },
    steal,
    busy,
    sample_s: sampleMs / 1000,
  };
}
