// Contract facts as data: runners/harness/contracts.json (and a runner's own contracts.json), read once and checked.
import fs from 'node:fs';
import path from 'node:path';
import type { Manifest } from './manifests.ts';
import { HARNESS_DIR } from '../repository.ts';
import { validatorFor } from './schema.ts';

/** A parameter's type: a site name, a non-empty list of numbers, a non-negative integer, or a finite number. */
export type ParamType = 'site' | 'numbers' | 'integer' | 'number';

/** What the harness's witnesses must observe for a contract (docs/contracts.md). */
export interface Work {
  /** Calls of the model's final module per call: a count, or one per strength / per dataset batch. */
  forwards: number | 'strengths' | 'batches';
  parameter_grads: boolean;
}

/** How the harness computes a writing contract's output with the write left out (benchgrid_harness/effect.py). */
export type Writes = 'forward' | 'forward_per_strength' | 'corrupted_forward' | 'unsteered';

/** What a contract returns, when it is more than numbers: logits, or generated token ids. */
export type Output = 'logits' | 'tokens';

/** One contract kind's facts. */
export interface ContractFacts {
  kind: string;
  label: string;
  grad: boolean;
  params: Record<string, ParamType>;
  /** Set for a contract that writes: its exactness is guarded against a write that does not move the output. */
  writes?: Writes;
  output?: Output;
  /** null: the harness records witnesses but checks nothing (group B operations). */
  work: Work | null;
}

/** The built-in contract data file. */
export const CONTRACTS_FILE = path.join(HARNESS_DIR, 'contracts.json');

const cache = new Map<string, Record<string, ContractFacts> | Error>();

/** Reads one contracts.json; an Error (not thrown) when it is unreadable or does not match its schema. */
export function readContracts(file: string): Record<string, ContractFacts> | Error {
  const hit = cache.get(file);
  if (hit) return hit;
  let out: Record<string, ContractFacts> | Error;
  try {
    const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    const validate = validatorFor('contracts.schema.json');
    if (!validate(raw))
      throw new Error(`${validate.errors?.[0]?.instancePath || '/'} ${validate.errors?.[0]?.message ?? ''}`);
    const kinds = (raw as { kinds: Record<string, Omit<ContractFacts, 'kind'>> }).kinds;
    out = Object.fromEntries(Object.entries(kinds).map(([kind, f]) => [kind, { kind, ...f }]));
  } catch (error) {
    out = new Error(`cannot read contract facts ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  cache.set(file, out);
  return out;
}

/** The built-in facts plus those of every runner directory that carries a contracts.json (a runner may not redefine a built-in kind). */
export function contractFacts(manifests: Record<string, Manifest | Error>): Record<string, ContractFacts> | Error {
  const builtin = readContracts(CONTRACTS_FILE);
  if (builtin instanceof Error) return builtin;
  const all: Record<string, ContractFacts> = { ...builtin };
  for (const m of Object.values(manifests)) {
    if (m instanceof Error) continue;
    const file = path.join(m.dir, 'contracts.json');
    if (file === CONTRACTS_FILE || !fs.existsSync(file)) continue;
    const extra = readContracts(file);
    if (extra instanceof Error) return extra;
    for (const [kind, f] of Object.entries(extra)) {
      if (builtin[kind])
        return new Error(`${file}: contract '${kind}' is already defined in ${CONTRACTS_FILE}; give it its own id.`);
      all[kind] = f;
    }
  }
  return all;
}
