// The journal header of a run: what a new run records of its options, and the check that a resumed run
// measures the spec it started with.
import path from 'node:path';
import { UserError } from '../errors.ts';
import type { JournalHeader } from '../records/journal.ts';
import type { RunPlan } from '../run/run-plan.ts';
import { newSeed } from '../run/schedule.ts';
import { runSettings } from '../settings/settings.ts';
import type { SourceRequest } from '../source/prepare.ts';
import type { Spec } from '../spec/types.ts';
import type { RunOptions } from './measure.ts';

/** A resumed run must measure the spec it started with. */
export function checkSameSpec(previous: JournalHeader | null, spec: Spec, specFile: string): void {
  if (previous && previous.spec.digest !== spec.digest) {
    throw new UserError(
      `--resume: ${specFile} changed since this run started (digest ${previous.spec.digest.slice(0, 12)} -> ${spec.digest.slice(0, 12)}); results of two spec versions cannot be merged. Start a new run.`,
    );
  }
}
/** A new journal header from the options; `cells` an exact selection, `sources` the tools built from source. */
export function headerOf(
  specFile: string,
  spec: RunPlan['spec'],
  opts: RunOptions,
  x: { cells: string[] | null; sources: SourceRequest[]; change?: JournalHeader['change'] },
): JournalHeader {
  const { device, overrides, schedule } = runSettings(spec, opts, newSeed);
  return {
    type: 'header',
    v: 1,
    spec: { name: spec.name, digest: spec.digest, file: path.resolve(specFile) },
    device,
    only: x.change ? null : (opts.only ?? null),
    cells: x.cells,
    schedule,
    overrides,
    python: opts.python ?? null,
    start: opts.start ?? defaultStart(device),
    jobs: opts.jobs ?? 1,
    started: new Date().toISOString(),
    ...(x.sources.length > 0 ? { tool_sources: x.sources } : {}),
    ...(x.change ? { change: x.change } : {}),
  };
}
/**
 * Forked processes on the CPU, where they were measured to time the same as cold ones
 * (docs/performance.md); cold on CUDA until the same is shown on a GPU. `--start cold` always works.
 */
function defaultStart(device: 'cpu' | 'cuda'): 'cold' | 'fork' {
  return device === 'cpu' ? 'fork' : 'cold';
}
