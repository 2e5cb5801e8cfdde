// Pure: the list of cell processes a run executes, in order, and the request each one gets.
import type { Cell, Plan } from '../plan/expand.ts';
import { contractFacts } from '../spec/contracts.ts';
import { adapterLookup, type Manifest } from '../spec/manifests.ts';
import type { Protocol, Spec } from '../spec/types.ts';
import { harnessSettings, type RunSettings } from '../settings/settings.ts';
import { WIRE_VERSION } from '../wire.ts';
import { fnv1a } from '../util/prng.ts';
import { BASELINE_TOOL } from '../plan/pairing.ts';
import type { CellRequest, RequestAdapter } from '../records/request.ts';
import type { ProcessPurpose } from '../records/journal.ts';
import { float32Tolerance, requestSubject, tolerance } from './request-parts.ts';

// The parts of a request that come from the spec alone live in request-parts.ts; their importers find them here.
export { requestSubject, tolerance };

/**
 * One cell process to run. `kind` aa is an extra timing process of a reference cell for A/A noise;
 * `control` is a process of a row's baseline cell timed exactly as a paired tool process is, with the
 * baseline itself as the tool (docs/protocol.md, "The control"): the import tax's control.
 */
export interface Job {
  /** Unique within a run: `<cell id>#<kind>#<index>`. */
  key: string;
  /** The cell; a control job's is the baseline cell in the environment its control runs in. */
  cell: Cell;
  kind: ProcessPurpose;
  index: number;
}

// The purposes of cell processes are the journal's, which records each process's.
export type { ProcessPurpose };

/**
 * A control job's index holds its environment: CONTROL_STRIDE x (the environment's position in
 * controlEnvironments) + the process's number in that environment, so the journal's (cell, kind, index)
 * says which environment a control record belongs to without a field of its own.
 */
export const CONTROL_STRIDE = 1000;

/**
 * The cells whose A/A noise is measured: per group with a reference and per subject with a selected
 * planned cell, the reference tool's cell of the group's first declared contract that is planned. It
 * does not depend on --only, so the A/A figures of two runs with different selections are
 * measured on the same cell; it runs even when --only leaves it out.
 */
export function aaCells(spec: Spec, plan: Plan, selected: Set<string>): Cell[] {
  const wanted = new Set(
    plan.cells.filter((c) => c.status === 'planned' && selected.has(c.id)).map((c) => `${c.group}/${c.subject}`),
  );
  const out: Cell[] = [];
  for (const c of plan.cells) {
    const key = `${c.group}/${c.subject}`;
    const reference = spec.groups.find((g) => g.id === c.group)?.reference ?? null;
    if (c.status !== 'planned' || c.tool !== reference || !wanted.has(key)) continue;
    wanted.delete(key);
    out.push(c);
  }
  return out;
}

/**
 * Every process of the run in sequential order: per cell its timing processes then its memory
 * processes (a baseline cell timed by its row: its control processes, then its memory processes), then
 * the A/A pairs of `aa` (each cell again, processes 2k and 2k+1 form pair k). The run's schedule
 * (schedule.ts) decides the order in which they start.
 */
export function buildJobs(plan: Plan, protocol: Protocol, selected: Set<string>, aa: Cell[]): Job[] {
  const jobs: Job[] = [];
  const donors = baselineDonors(plan, selected);
  const controls = controlCount(protocol);
  for (const cell of plan.cells) {
    if (cell.status !== 'planned' || !selected.has(cell.id)) continue;
    // A baseline cell timed by its row's paired processes runs no timing process of its own. A baseline
    // cell runs the control processes of its row, one set per environment its paired cells run in.
    const timed = donors.has(cell.id) ? 0 : protocol.processes;
    for (let i = 0; i < timed; i++) jobs.push({ key: `${cell.id}#time#${i}`, cell, kind: 'time', index: i });
    if (cell.tool === BASELINE_TOOL) {
      controlEnvironments(plan, selected, cell).forEach((environment, e) => {
        for (let i = 0; i < controls; i++) {
          const index = e * CONTROL_STRIDE + i;
          jobs.push({ key: `${cell.id}#control#${index}`, cell: { ...cell, environment }, kind: 'control', index });
        }
      });
    }
    for (let i = 0; i < protocol.memory_runs; i++)
      jobs.push({ key: `${cell.id}#memory#${i}`, cell, kind: 'memory', index: i });
  }
  for (const cell of aa) {
    for (let i = 0; i < 2 * protocol.aa_pairs; i++)
      jobs.push({ key: `${cell.id}#aa#${i}`, cell, kind: 'aa', index: i });
  }
  return jobs;
}

/**
 * The baseline cells (`raw`) whose timings come from their row's paired processes, each with those
 * cells (its donors): the selected, planned cells of the same group, contract and subject that pair
 * with it and run in its environment. Every such process times the baseline alone before it imports
 * its tool (docs/protocol.md, Pairing), exactly what the baseline's own processes would measure, so
 * they are not run. A baseline cell without donors (none selected, or all unpaired) runs its own.
 */
export function baselineDonors(plan: Plan, selected: Set<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const live = plan.cells.filter((c) => c.status === 'planned' && selected.has(c.id));
  for (const base of live.filter((c) => c.tool === BASELINE_TOOL)) {
    const donors = live.filter(
      (c) =>
        c.pairing?.baseline === base.tool &&
        c.group === base.group &&
        c.contract === base.contract &&
        c.subject === base.subject &&
        c.environment === base.environment,
    );
    if (donors.length > 0)
      out.set(
        base.id,
        donors.map((c) => c.id),
      );
  }
  return out;
}

/** Control processes per row and environment: `protocol.controls`, else as many as a cell's processes. */
export function controlCount(protocol: Protocol): number {
  return protocol.controls ?? protocol.processes;
}

/**
 * The environments a baseline cell's control runs in: those of the selected, planned cells of its row that
 * pair with it (its own first, then in plan order). Every paired process times the baseline before and
 * after its tool's import; the control's processes do the same with nothing imported, in each environment
 * a paired tool runs in, since another torch may drift otherwise (docs/protocol.md, "The control").
 */
export function controlEnvironments(plan: Plan, selected: Set<string>, base: Cell): string[] {
  const row = plan.cells.filter(
    (c) =>
      c.status === 'planned' &&
      selected.has(c.id) &&
      c.pairing?.baseline === base.tool &&
      c.group === base.group &&
      c.contract === base.contract &&
      c.subject === base.subject,
  );
  if (row.length === 0) return [];
  const used = new Set(row.map((c) => c.environment));
  return [base.environment, ...used].filter((e, i, all) => used.has(e) && all.indexOf(e) === i);
}

/**
 * How many baseline samples a paired process times before its tool's import: as many as it times pairs
 * after it (`samples`, at least 2), after as many warm-up calls as the tool gets, so that the import tax
 * compares like with like (docs/protocol.md, "The control").
 */
export function beforeSamples(protocol: Protocol): number {
  return Math.max(2, protocol.samples);
}

/** What a request is built from: the spec, its runners' manifests and the run settings (a run plan is one). */
export interface RequestSource extends Pick<RunSettings, 'protocol' | 'device' | 'schedule'> {
  spec: Spec;
  manifests: Record<string, Manifest | Error>;
}

/** The request file of a job (docs/protocol.md): everything the process needs, nothing else. */
export function buildRequest(x: RequestSource, job: Job): CellRequest {
  const { spec, protocol, manifests } = x;
  const { cell } = job;
  const contract = spec.contracts[cell.contract];
  const lookup = adapterLookup(manifests);
  const adapterOf = (id: string): RequestAdapter & { library: string | null } => {
    const tool = spec.tools[id];
    const entry = lookup(tool.runner, tool.adapter);
    if (!entry) throw new Error(`no adapter ${tool.runner}/${tool.adapter}`);
    return { tool: id, module: entry.module, library: entry.library };
  };
  const tool = spec.tools[cell.tool];
  const { module, library } = adapterOf(cell.tool);
  const params: CellRequest['contract']['params'] = { ...contract.params };
  if (contract.site !== null) params.site = contract.site;
  const facts = contractFacts(manifests);
  if (facts instanceof Error) throw facts;
  const kindFacts = facts[cell.kind];
  if (!kindFacts)
    throw new Error(
      `contract kind '${cell.kind}' has no entry in runners/harness/contracts.json or its runner's contracts.json`,
    );
  const timed = job.kind !== 'memory';
  // A control process pairs the baseline with itself: the tool is the baseline's adapter on the tool's copy.
  const baselineTool = job.kind === 'control' ? cell.tool : cell.pairing?.baseline;
  return {
    protocol: WIRE_VERSION, // the wire version: every wire file (request, result, manifest) names it `protocol`
    spec: { name: spec.name, digest: spec.digest },
    cell: { id: cell.id, group: cell.group, contract: cell.contract, tool: cell.tool, subject: cell.subject },
    contract: {
      kind: cell.kind,
      params,
      grad: kindFacts.grad,
      work: kindFacts.work,
      ...(kindFacts.writes ? { writes: kindFacts.writes } : {}),
      ...(kindFacts.output ? { output: kindFacts.output } : {}),
    },
    subject: requestSubject(spec.subjects[cell.subject]),
    tool: { id: tool.id, runner: tool.runner, adapter: tool.adapter, module, library },
    reference: timed && cell.reference !== null ? adapterName(adapterOf(cell.reference)) : null,
    // The pair orders are drawn from a seed of the run's schedule seed and the process, so a run (or a
    // bundle) rebuilt from its recorded seed pairs the same way.
    pairing:
      !timed || !baselineTool
        ? null
        : {
            baseline: adapterName(adapterOf(baselineTool)),
            seed: fnv1a(`${x.schedule.seed}:${job.key}`),
            before: beforeSamples(protocol),
          },
    device: x.device,
    mode: timed ? 'time' : 'memory',
    process_index: job.index,
    settings: {
      // The keys the protocol table hands the harness as they are (warmups, samples, ...; docs/protocol.md).
      ...harnessSettings(protocol),
      // The cell's budget is shared by the processes it runs whatever the target: with a precision target, the
      // fewest (min_processes); the processes it adds to meet the target each get the same share.
      sampling_budget_s:
        protocol.budget_s_per_cell /
        (protocol.precision === null ? protocol.processes : Math.min(protocol.min_processes, protocol.processes)),
      ...tolerance(contract, protocol, spec.subjects[cell.subject].model.dtype),
      ...float32Tolerance(contract, protocol, spec.subjects[cell.subject].model.dtype),
      memory_calls: 1,
    },
  };
}

function adapterName(a: RequestAdapter): RequestAdapter {
  return { tool: a.tool, module: a.module };
}
