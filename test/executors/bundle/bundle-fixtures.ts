// Shared by the bundle tests: reading a bundle's journal, copying a bundle to edit it, and the views of
// results that must not depend on where a cell ran.
import fs from 'node:fs';
import path from 'node:path';
import type { Results } from '../../../src/results/model.ts';
import { tmpdir } from '../../helpers.ts';

/** The keys of the processes a bundle's journal records as finished, in order. */
export function journalKeys(dir: string): string[] {
  return fs
    .readFileSync(path.join(dir, 'journal.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((r) => r.type === 'process')
    .map((r) => r.key);
}

/** A copy of a bundle in a fresh temporary directory, to edit without touching the original. */
export function copy(dir: string): string {
  const to = path.join(tmpdir(), path.basename(dir));
  fs.cpSync(dir, to, { recursive: true });
  return to;
}

/**
 * Fields of a result that a clock or a memory gauge produced, and how each process started (the run's
 * default on the CPU forks, the driver starts cold; checked on its own): nothing else may depend on where
 * a cell ran.
 */
const TIMINGS = new Set([
  'median_ms',
  'min_ms',
  'max_ms',
  'iqr_ms',
  'n',
  'stopped_by',
  'gc_median_ms',
  'phases_s',
  'wall_s',
  'samples_ms',
  'gc_ms',
  'samples_per_process',
  'precision_half_width',
  'memory',
  'memory_growth',
  'paired',
  'import_tax',
  'control',
  'start',
]);

/** A cell with its timings left out, at every depth (per process too). */
export function withoutTimings(value: unknown): Record<string, unknown> {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !TIMINGS.has(k))
        .map(([k, x]) => [k, strip(x)]),
    );
  };
  return strip(value) as Record<string, unknown>;
}

/** What a run decided of each cell: status, exactness, reason and processes, by id. */
export const summary = (r: Results) =>
  r.cells
    .map((c) => ({
      id: c.id,
      status: c.status,
      statuses: c.statuses,
      exact: c.exact,
      reason: c.reason,
      processes: c.processes,
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
