// A results file of many cells, written without the model for speed, for the scale tests of compare and
// report (issue 38): every cell measured, with raw samples whose derived figures agree with them.
import fs from 'node:fs';
import path from 'node:path';
import { measuredCellJson } from '../helpers/measured-cell.ts';

/** Options of a large results file. */
export interface LargeResultsOptions {
  contracts: number;
  tools: number;
  /** Multiplies every sample: 1.02 is a 2% slowdown. */
  scale?: number;
  /**
   * False: no raw samples, only each cell's median and process range (older runs), which compare judges
   * by its range rule. With samples every cell is bootstrapped (2,000 resamples a cell), minutes for 200,000.
   */
  samples?: boolean;
}

/** Writes `contracts` x `tools` measured cells of one group and subject to DIR/NAME; returns its path. */
export function writeLargeResults(dir: string, name: string, opts: LargeResultsOptions): string {
  const scale = opts.scale ?? 1;
  const parts: string[] = [];
  for (let c = 0; c < opts.contracts; c++) {
    for (let t = 0; t < opts.tools; t++) {
      // Three processes of three samples, each process's median its middle sample (exact in binary).
      const level = (1 + ((c * 7 + t * 13) % 97) / 8) * scale;
      const samples = [0, 1, 2].map((p) => [
        level * (1 + p / 64),
        level * (1 + p / 64 - 1 / 128),
        level * (1 + p / 64 + 1 / 128),
      ]);
      const cell = measuredCellJson(samples, { samples_ms: opts.samples === false ? null : samples });
      parts.push(`${JSON.stringify(`A/c${c}/t${t}/s`)}:${JSON.stringify(cell)}`);
    }
  }
  const head = {
    format_version: 1,
    spec: { name: 'large', title: 'Large', digest: null, device: 'cpu' },
    partial: false,
    measured_on: '2026-12-01',
    host: { hostname: 'test-host' },
    versions: {},
    harness: 'benchgrid test fixture',
    run: null,
  };
  const meta = {
    environment: { hostname: 'test-host', device: 'cpu' },
    versions: {},
    protocol: { processes: 3 },
    aa_noise: null,
  };
  const json = `${JSON.stringify(head).slice(0, -1)},"s":{"meta":${JSON.stringify(meta)},"not_measured":[],"groups":{${parts.join(',')}}}}`;
  const file = path.join(dir, name);
  fs.writeFileSync(file, json);
  return file;
}
