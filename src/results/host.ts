// The machine a run is aggregated on, read from the OS here, at the edge, so aggregate.ts stays pure.
import os from 'node:os';

/** What the results say about the machine besides what the cell processes reported. */
export interface HostFacts {
  cpus: number;
  cpuModel: string | null;
  hostname: string;
  /** os.platform() and os.release(), used when no process reported its platform. */
  platform: string;
  release: string;
  /** 1-minute load average when the results were aggregated (a hint of a busy machine). */
  loadAverage1m: number;
}

/** The facts of the machine this process runs on. */
export function localHost(): HostFacts {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model?.trim() || null,
    hostname: os.hostname(),
    platform: os.platform(),
    release: os.release(),
    loadAverage1m: Number(os.loadavg()[0].toFixed(2)),
  };
}
