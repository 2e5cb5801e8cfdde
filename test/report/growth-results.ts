// A swept results file for the growth tests: the tiny results' subject (tiny-results.ts) swept over `seq`, as
// subjects `tiny@seq=16`, `tiny@seq=64`, `tiny@seq=256`, each with the plain forward growing like seq, hooks
// adding a constant 0.5 ms, and nnsight adding half the forward again (an overhead that grows like it). Each
// cell's one memory process peaks at 300 MiB plus seq/16 MiB (raw and hooks) or 320 MiB plus that (nnsight).
import { measuredCellJson } from '../helpers/measured-cell.ts';
import { tinyResultsJson } from './tiny-results.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path

/** The swept values of the fixture. */
export const SEQS = [16, 64, 256];

const MIB = 1024 * 1024;

/** Per-process medians scattered by +-1%, the same scatter at every value (so the fits are near exact). */
const SCATTER = [0.99, 1, 1.01];

/** A measured cell whose processes have these medians (each process: three samples around its median). */
function measured(medians: number[], extra: Record<string, unknown> = {}): Json {
  const samples = medians.map((m) => [m * 0.999, m, m * 1.001]);
  return measuredCellJson(samples, {
    per_process: samples.map((s, index) => ({
      index,
      n: 3,
      median_ms: s[1],
      min_ms: s[0],
      max_ms: s[2],
      iqr_ms: s[2] - s[0],
      stopped_by: 'samples',
      phases_s: { imports: 1.5, timed: 0.1 },
      wall_s: 2.25,
      cpus: null,
      start: 'cold',
    })),
    memory: { peak_rss_bytes: [300 * 1024 * 1024], cuda_peak_allocated_bytes: [null] },
    ...extra,
  });
}

/** One memory process's record, peaking at `mib` MiB. */
const rss = (mib: number) => ({ peak_rss_bytes: [mib * MIB], cuda_peak_allocated_bytes: [null] });

/** The subjects' id for a value, with `extra` sweep pairs before it (`tiny@batch=2@seq=16`). */
export const sweptId = (seq: number, extra = '') => `tiny${extra}@seq=${seq}`;

/** The swept results; `extra` adds other sweep pairs to every subject id, `seqs` chooses the values. */
export function growthResultsJson(seqs = SEQS, extra = ''): Record<string, unknown> {
  const tiny = tinyResultsJson() as Json;
  const meta = tiny.resnet18.meta;
  delete tiny.resnet18;
  for (const seq of seqs) {
    const id = sweptId(seq, extra);
    const forward = 0.01 * seq;
    const cell = (tool: string) => `A/single_module_output/${tool}/${id}`;
    tiny[id] = {
      meta: structuredClone(meta),
      not_measured: [],
      groups: {
        [cell('raw')]: measured(
          SCATTER.map((s) => forward * s),
          { memory: rss(300 + seq / 16) },
        ),
        [cell('hooks')]: measured(
          SCATTER.map((s) => (forward + 0.5) * s),
          { memory: rss(300 + seq / 16) },
        ),
        [cell('nnsight')]: measured(
          SCATTER.map((s) => forward * 1.5 * s),
          { exact: 'bit', max_abs_diff: 0, memory: rss(320 + seq / 16) },
        ),
      },
    };
  }
  return tiny;
}
