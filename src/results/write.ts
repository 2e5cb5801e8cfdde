// Writes a results model in the seed layout (plus what benchgrid adds), sorted keys, atomically.
import { dict } from '../util/dict.ts';
import { writeAtomic } from '../util/files.ts';
import { stableStringify } from '../util/json.ts';
import type { Results } from './model.ts';

// Every writer of a results tree replaces files the one way (src/util/files.ts).
export { writeAtomic };

/** The on-disk object of a results model: the seed layout's top level, one key per subject. */
export function toJson(results: Results): Record<string, unknown> {
  const out: Record<string, unknown> = Object.assign(dict<unknown>(), {
    format_version: results.format_version,
    spec: results.spec,
    partial: results.partial,
    measured_on: results.measured_on,
    host: results.host,
    versions: results.versions,
    harness: results.harness,
    run: results.run,
  });
  if (results.page_rows) out.page_rows = results.page_rows;
  for (const [subject, s] of Object.entries(results.subjects)) {
    const groups = dict<unknown>();
    for (const c of results.cells.filter((x) => x.subject === subject)) {
      const { id, group: _g, contract: _c, tool: _t, subject: _s, ...rest } = c;
      groups[id] = rest;
    }
    out[subject] = { groups, meta: s.meta, not_measured: s.not_measured };
  }
  return out;
}

/** Writes results.json. */
export function writeResults(file: string, results: Results): void {
  writeAtomic(file, stableStringify(toJson(results)));
}
