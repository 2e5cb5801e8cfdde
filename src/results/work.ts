// Pure: a cell's work witnesses from its timing processes' results (docs/contracts.md).
import type { ProcessResult } from '../records/outcome.ts';
import type { CellWork } from './model.ts';

/**
 * The cell's work: each timing process's witnesses in process order, the contract's required work, and
 * every difference any process showed (a cell whose processes disagree is marked with each difference).
 * null when no process recorded witnesses (older harnesses, the seed layout).
 */
export function cellWork(results: ProcessResult[]): CellWork | null {
  const withWork = results.filter((r) => r.work);
  if (withWork.length === 0) return null;
  const differs: string[] = [];
  for (const r of withWork) for (const d of r.work!.differs) if (!differs.includes(d)) differs.push(d);
  return { required: withWork[0].work!.required, witnesses: withWork.map((r) => r.work!.witnesses), differs };
}

/** The adapters' notes of a cell, each once, in the order they came. */
export function cellNotes(results: ProcessResult[]): string[] {
  const out: string[] = [];
  for (const r of results) for (const n of r.notes ?? []) if (!out.includes(n)) out.push(n);
  return out;
}

const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

/** A results file's `work` of one cell, checked field by field (the file is outside input); null when absent or malformed. */
export function parseWork(value: unknown): CellWork | null {
  if (!value || typeof value !== 'object') return null;
  const w = value as Record<string, unknown>;
  if (!Array.isArray(w.differs) || !w.differs.every((d) => typeof d === 'string') || !Array.isArray(w.witnesses))
    return null;
  const witnesses = w.witnesses.flatMap((x) => {
    const o = (x ?? {}) as Record<string, unknown>;
    if (!(isCount(o.forwards) && typeof o.parameter_grads === 'boolean' && isCount(o.result_bytes))) return [];
    const tokens =
      o.tokens === 'same' || o.tokens === 'other' || o.tokens === 'none'
        ? { tokens: o.tokens as 'same' | 'other' | 'none' }
        : {};
    return [{ forwards: o.forwards, parameter_grads: o.parameter_grads, result_bytes: o.result_bytes, ...tokens }];
  });
  const r = (w.required ?? null) as Record<string, unknown> | null;
  const required =
    r && isCount(r.forwards) && typeof r.parameter_grads === 'boolean'
      ? { forwards: r.forwards, parameter_grads: r.parameter_grads }
      : null;
  return { required, witnesses, differs: w.differs.map(String) };
}

/** A results file's `notes` of one cell: its strings, or [] when absent. */
export function parseNotes(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((n): n is string => typeof n === 'string' && n !== '') : [];
}
