// Semantic rule: every cell's contract kind has facts (runners/harness/contracts.json) and the parameters they name.
import { diag, ptr, suggestion, type Diagnostic } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import { contractFacts, type ParamType } from '../spec/contracts.ts';
import type { Contract, Spec } from '../spec/types.ts';
import type { RuleInput } from './rules.ts';

const TYPE_WORDS: Record<ParamType, string> = {
  site: 'a site name',
  numbers: 'a non-empty list of numbers',
  integer: 'a non-negative integer',
  number: 'a number',
};

function fits(type: ParamType, value: unknown): boolean {
  if (type === 'site') return typeof value === 'string' && value.length > 0;
  if (type === 'numbers') return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'number');
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return Number.isInteger(value) && (value as number) >= 0;
}

function paramProblems(spec: Spec, contract: Contract, params: Record<string, ParamType>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const base = ptr('contracts', contract.id);
  const at = (p: string) => positionOf(spec.positions, p, spec.file, true);
  for (const [name, type] of Object.entries(params)) {
    const value = name === 'site' ? contract.site : contract.params[name];
    const p = name === 'site' ? base : `${base}/params`;
    if (value === undefined || value === null)
      out.push(
        diag(
          'error',
          'missing-param',
          at(p),
          p,
          `contract '${contract.id}' (${contract.kind}) needs '${name}', ${TYPE_WORDS[type]}.`,
          `Add ${name === 'site' ? "'site:'" : `'params: { ${name}: ... }'`} to the contract (runners/harness/contracts.json lists each kind's parameters).`,
        ),
      );
    else if (!fits(type, value))
      out.push(
        diag(
          'error',
          'bad-param',
          at(p),
          p,
          `contract '${contract.id}': '${name}' must be ${TYPE_WORDS[type]} (got ${JSON.stringify(value)}).`,
        ),
      );
  }
  return out;
}

/** Every cell's contract names a kind with facts and carries the parameters the facts require. */
export const contractKinds = ({ spec, plan, manifests }: RuleInput): Diagnostic[] => {
  const facts = contractFacts(manifests);
  if (facts instanceof Error)
    return [
      diag(
        'error',
        'contract-facts',
        positionOf(spec.positions, '', spec.file),
        '',
        facts.message,
        'Fix the contracts.json file named above.',
      ),
    ];
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const cell of plan.cells) {
    const contract = spec.contracts[cell.contract];
    if (!contract || seen.has(contract.id)) continue;
    seen.add(contract.id);
    const f = facts[contract.kind];
    const p = ptr('contracts', contract.id);
    if (!f)
      out.push(
        diag(
          'error',
          'unknown-contract-kind',
          positionOf(spec.positions, p, spec.file, true),
          p,
          `contract kind '${contract.kind}' has no facts in runners/harness/contracts.json or its runner's contracts.json.`,
          suggestion(contract.kind, Object.keys(facts), 'contract kind'),
        ),
      );
    else out.push(...paramProblems(spec, contract, f.params));
  }
  return out;
};
