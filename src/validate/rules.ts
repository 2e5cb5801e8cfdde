// Stage 6 of spec loading: semantic rules, each a small pure function of the resolved spec and its plan.
import { diag, ptr, suggestion, type Diagnostic } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import type { Manifest } from '../spec/manifests.ts';
import type { Spec, Subject } from '../spec/types.ts';
import { versionRules } from './rules-versions.ts';
import type { Plan } from '../plan/expand.ts';
import { contractKinds } from './rules-contracts.ts';
import { fileNames } from './rules-names.ts';
import { environmentLayers, indexDirectories, requirementSources } from './rules-environments.ts';
import { subjectModels } from './rules-subjects.ts';
import { inputsOverLimit } from '../spec/limits.ts';
import { isDeclared } from '../spec/subjects.ts';
import { sweeps } from './rules-sweeps.ts';
import { textInputs } from './rules-text.ts';
import { coverage, reasons, unpairedRules } from './rules-reasons.ts';
import { groupReferences, toolReferences } from './rules-references.ts';

export { toolHint } from './rules-references.ts';

/** What every rule gets. */
export interface RuleInput {
  spec: Spec;
  manifests: Record<string, Manifest | Error>;
  plan: Plan;
  /** What the command line allows that the spec alone does not: hub weights not cached yet (--allow-downloads). */
  options?: { allowDownloads?: boolean };
}

type Rule = (input: RuleInput) => Diagnostic[];

const at = (spec: Spec, pointer: string, key = false) => positionOf(spec.positions, pointer, spec.file, key);

/** At most one default environment. */
const environments: Rule = ({ spec }) => {
  const defaults = Object.values(spec.environments).filter((e) => spec.data.environments?.[e.id]?.default === true);
  if (defaults.length <= 1) return [];
  const p = ptr('environments', defaults[1].id, 'default');
  return [
    diag(
      'error',
      'two-defaults',
      at(spec, p),
      p,
      `environments '${defaults[0].id}' and '${defaults[1].id}' are both marked default.`,
      'Keep one.',
    ),
  ];
};

/** Every planned cell's contract site exists in its subject; subjects are complete for their builder. */
const sitesAndSubjects: Rule = ({ spec, plan }) => {
  const out: Diagnostic[] = [];
  const reported = new Set<string>();
  for (const cell of plan.cells) {
    if (cell.status !== 'planned') continue;
    const site = spec.contracts[cell.contract]?.site;
    const subject = spec.subjects[cell.subject];
    if (!site || !subject || subject.sites[site] !== undefined) continue;
    const key = `${cell.contract}/${cell.subject}`;
    if (reported.has(key)) continue;
    reported.add(key);
    const p = ptr('contracts', cell.contract, 'site');
    out.push(
      diag(
        'error',
        'unknown-site',
        at(spec, p),
        p,
        `contract '${cell.contract}' reads site '${site}', which subject '${cell.subject}' does not declare.`,
        suggestion(site, Object.keys(subject.sites), 'site'),
      ),
    );
  }
  for (const s of Object.values(spec.subjects).filter(isDeclared)) {
    const base = ptr('subjects', s.id);
    if (s.model.builder === 'torchvision' && !s.model.name)
      out.push(
        diag(
          'error',
          'missing-key',
          at(spec, `${base}/model`),
          `${base}/model`,
          `a torchvision model needs 'name' (e.g. resnet18).`,
        ),
      );
    out.push(...causalLmProblems(spec, s, base));
    if (s.inputs.kind === 'tokens' && s.inputs.vocab === null)
      out.push(
        diag('error', 'missing-key', at(spec, `${base}/inputs`), `${base}/inputs`, `token inputs need 'vocab'.`),
      );
    // Prompts split into batches of batch_size may end in a smaller one; generated stimuli may not.
    if (s.inputs.kind !== 'text' && s.inputs.stimuli % s.inputs.batch_size !== 0)
      out.push(
        diag(
          'error',
          'bad-value',
          at(spec, `${base}/inputs/stimuli`),
          `${base}/inputs/stimuli`,
          `stimuli (${s.inputs.stimuli}) must be a multiple of batch_size (${s.inputs.batch_size}).`,
        ),
      );
    out.push(...inputSizeProblems(spec, s, base));
  }
  return out;
};

/** The batch and the dataset within the harness's limit (src/spec/limits.ts). */
function inputSizeProblems(spec: Spec, s: Subject, base: string): Diagnostic[] {
  const hint = { shape: 'Use a smaller batch or input.', stimuli: 'Use fewer stimuli.' };
  return inputsOverLimit(s.inputs).map((o) =>
    diag('error', 'bad-value', at(spec, `${base}/inputs/${o.key}`), `${base}/inputs/${o.key}`, o.message, hint[o.key]),
  );
}

/** A transformers architecture name, as transformers spells a config's model_type. */
const ARCHITECTURE = /^[a-z][a-z0-9_-]*$/;

/** A transformers subject names its architecture, and its tokens fit the config's vocabulary. */
function causalLmProblems(spec: Spec, s: Subject, base: string): Diagnostic[] {
  if (s.model.builder === 'torchvision' || s.model.builder === 'python') return [];
  const out: Diagnostic[] = [];
  const name = s.model.name;
  // Weights and config_from hold the architecture's config: no name is needed then.
  const named = s.model.weights !== null || s.model.config_from !== null;
  if (s.model.builder === 'transformers' && (name ? !ARCHITECTURE.test(name) : !named)) {
    const p = `${base}/model${name ? '/name' : ''}`;
    out.push(
      diag(
        'error',
        name ? 'bad-value' : 'missing-key',
        at(spec, p),
        p,
        name
          ? `'${name}' is not a transformers architecture name (a config model_type such as gpt2, llama or gpt_neox).`
          : `a transformers model needs 'name', its architecture (gpt2, llama, gpt_neox, ...).`,
      ),
    );
  }
  const size = s.model.config.vocab_size;
  if (s.inputs.kind === 'tokens' && typeof size === 'number' && s.inputs.vocab !== null && s.inputs.vocab > size) {
    const p = `${base}/inputs/vocab`;
    out.push(
      diag(
        'error',
        'bad-value',
        at(spec, p),
        p,
        `token ids are drawn from [0, ${s.inputs.vocab}), but the model's vocab_size is ${size}.`,
        `Set inputs.vocab to at most ${size}.`,
      ),
    );
  }
  return out;
}

/** Page rows name declared contracts: one error per row naming one the spec lacks, not one per entry. */
function pageContracts(spec: Spec): { out: Diagnostic[]; undeclared: Set<string> } {
  const out: Diagnostic[] = [];
  const undeclared = new Set<string>();
  (spec.data.page?.sections ?? []).forEach((sec, si) =>
    sec.rows.forEach((row, ri) => {
      const named: [string | undefined, string][] = [
        [row.contract, ptr('page', 'sections', si, 'rows', ri, 'contract')],
        ...row.entries.map((e, ei): [string | undefined, string] => [
          e.contract,
          ptr('page', 'sections', si, 'rows', ri, 'entries', ei, 'contract'),
        ]),
      ];
      for (const [c, p] of named) {
        if (c === undefined || spec.contracts[c]) continue;
        undeclared.add(c);
        out.push(
          diag(
            'error',
            'unknown-contract',
            at(spec, p),
            p,
            `unknown contract '${c}' in this page row.`,
            suggestion(c, Object.keys(spec.contracts), 'contract'),
          ),
        );
      }
    }),
  );
  return { out, undeclared };
}

/** Page entries name cells of the plan, once each. */
const page: Rule = ({ spec, plan }) => {
  const { out, undeclared } = pageContracts(spec);
  const ids = plan.cells.map((c) => c.id);
  const known = new Set(ids);
  const seen = new Set<string>();
  for (const sec of spec.page)
    for (const row of sec.rows)
      for (const e of row.entries) {
        if (undeclared.has(e.cell.split('/')[1])) continue;
        if (!known.has(e.cell))
          out.push(
            diag(
              'error',
              'unknown-cell',
              at(spec, e.pointer),
              e.pointer,
              `page entry names cell '${e.cell}', which the plan does not have.`,
              suggestion(e.cell, ids, 'cell'),
            ),
          );
        else if (seen.has(e.cell))
          out.push(
            diag(
              'warning',
              'duplicate-page-entry',
              at(spec, e.pointer),
              e.pointer,
              `cell '${e.cell}' is already on the page.`,
            ),
          );
        seen.add(e.cell);
      }
  return out;
};

/** Protocol values that contradict each other. */
const protocol: Rule = ({ spec }) => {
  const p = spec.protocol;
  const out: Diagnostic[] = [];
  if (p.min_samples > p.samples) {
    const q = '/protocol/min_samples';
    out.push(
      diag(
        'error',
        'bad-value',
        at(spec, q),
        q,
        `min_samples (${p.min_samples}) is larger than samples (${p.samples}).`,
      ),
    );
  }
  if (p.precision !== null && p.min_processes > p.processes) {
    const q = '/protocol/min_processes';
    out.push(
      diag(
        'error',
        'bad-value',
        at(spec, q),
        q,
        `min_processes (${p.min_processes}) is larger than processes (${p.processes}), the most a cell may run.`,
        'Raise processes, lower min_processes (2 at least), or set precision: null for a quick look of fewer processes (a spec that extends one with a precision target inherits it).',
      ),
    );
  }
  return out;
};

/** The rules, in the order their diagnostics are reported. */
export const RULES: Rule[] = [
  groupReferences,
  toolReferences,
  environments,
  environmentLayers,
  requirementSources,
  indexDirectories,
  sitesAndSubjects,
  subjectModels,
  sweeps,
  textInputs,
  reasons,
  unpairedRules,
  coverage,
  contractKinds,
  page,
  protocol,
  versionRules,
  fileNames,
];

/** Runs every rule. */
export function checkRules(input: RuleInput): Diagnostic[] {
  return RULES.flatMap((rule) => rule(input));
}
