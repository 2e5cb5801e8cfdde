// Stage 5 of spec loading: schema-valid data -> a resolved Spec with defaults applied and no optional fields.
import crypto from 'node:crypto';
import path from 'node:path';
import type { PosMap } from './document.ts';
import { builtinRunnerDirs } from './manifests.ts';
import { ptr } from './diagnostics.ts';
import { expandVersions, toolVariants, versionedToolId } from './versions.ts';
import { layerEnvironments } from './layers.ts';
import { indexOf } from './package-index.ts';
import { expandDtypes, modelDtype, modelSource, weightsOf } from './subjects.ts';
import { textInputsOf } from './text-inputs.ts';
import { expandSweeps, sweepAxes } from './sweep.ts';
import type { EnvironmentData, GroupData, ProtocolData, SpecData, SubjectData } from './data.ts';
import {
  DEFAULT_PROTOCOL,
  LOW_PRECISION_DEFAULTS,
  type Protocol,
  type Contract,
  type Environment,
  type Group,
  type PageSection,
  type Spec,
  type Subject,
  type Tool,
} from './types.ts';
import { dict, dictOf } from '../util/dict.ts';

/** Fills defaults; assumes the data passed the schema. Cross-references are checked later by rules. */
export function normalise(data: SpecData, file: string, sources: string[], positions: PosMap): Spec {
  const { environments, defaultEnvironment } = environmentsOf(data.environments ?? {}, file);
  const runners = dictOf(builtinRunnerDirs());
  for (const [id, dir] of Object.entries(data.runners ?? {})) runners[id] = path.resolve(path.dirname(file), dir);
  const subjects = dict<Subject>();
  for (const [id, s] of Object.entries(data.subjects)) subjects[id] = subjectOf(id, s, file);
  // A sweep's points first: a point of a subject with dtypes is then made once per dtype.
  expandSweeps(subjects, data.subjects, (id, s) => subjectOf(id, s, file));
  expandDtypes(subjects);
  const contracts = dict<Contract>();
  for (const [id, c] of Object.entries(data.contracts)) {
    contracts[id] = {
      id,
      kind: c.kind ?? id,
      label: c.label ?? id,
      site: c.site ?? null,
      params: c.params ?? {},
      exactness: c.exactness ?? null,
    };
  }
  const tools = dict<Tool>();
  for (const [id, t] of Object.entries(data.tools)) {
    tools[id] = {
      id,
      label: t.label ?? id,
      runner: t.runner ?? 'torch',
      adapter: t.adapter ?? id,
      environment: t.environment ?? defaultEnvironment,
      versions: t.versions ?? [],
      package: t.package ?? null,
      version: null,
    };
  }
  expandVersions(tools, environments, runners);
  const s = data.slurm ?? {};
  return {
    file,
    sources,
    digest: digestOf(data),
    name: data.name,
    title: data.title,
    description: data.description ?? '',
    device: data.device,
    protocol: protocolOf(data.protocol ?? {}),
    environments,
    defaultEnvironment,
    runners,
    subjects,
    contracts,
    tools,
    groups: Object.entries(data.groups).map(([id, g]) => groupOf(id, g)),
    page: pageOf(data, subjects, tools),
    slurm: {
      partition: s.partition ?? null,
      gpus_per_task: s.gpus_per_task ?? null,
      cpus_per_task: s.cpus_per_task ?? null,
      time_limit: s.time_limit ?? null,
      shards: s.shards ?? null,
      sbatch_args: s.sbatch_args ?? [],
      shared_dir: s.shared_dir ?? null,
    },
    data,
    written: writtenPointers(data),
    positions,
  };
}

function protocolOf(p: ProtocolData): Protocol {
  const { exactness, ...rest } = p;
  const low = (d: 'bfloat16' | 'float16') => ({
    rtol: exactness?.[d]?.rtol ?? LOW_PRECISION_DEFAULTS[d].rtol,
    atol: exactness?.[d]?.atol ?? LOW_PRECISION_DEFAULTS[d].atol,
  });
  return {
    ...DEFAULT_PROTOCOL,
    ...rest,
    rtol: exactness?.rtol ?? DEFAULT_PROTOCOL.rtol,
    atol: exactness?.atol ?? DEFAULT_PROTOCOL.atol,
    low_precision: { bfloat16: low('bfloat16'), float16: low('float16') },
  };
}

function environmentsOf(
  envData: Record<string, EnvironmentData>,
  file: string,
): { environments: Record<string, Environment>; defaultEnvironment: string } {
  const envIds = Object.keys(envData);
  const marked = envIds.filter((id) => envData[id].default === true);
  const defaultEnvironment = marked[0] ?? envIds[0] ?? 'default';
  const environments = dict<Environment>();
  for (const id of envIds) {
    const e = envData[id];
    environments[id] = {
      id,
      python: e.python ?? 'python3',
      requirements: e.requirements ?? [],
      default: id === defaultEnvironment,
      layer: null,
      index: indexOf(e, file),
    };
  }
  layerEnvironments(environments, envData);
  return { environments, defaultEnvironment };
}

function subjectOf(id: string, s: SubjectData, file: string): Subject {
  const shape = s.inputs.shape ?? [];
  // Text: the batch is every prompt (prompts_file's are counted once it is read, src/spec/text-inputs.ts).
  const batch = s.inputs.kind === 'text' ? Math.max(1, s.inputs.prompts?.length ?? 1) : (shape[0] ?? 1);
  const dtype = modelDtype(s);
  return {
    id,
    label: s.label,
    model: {
      builder: s.model.builder,
      name: s.model.name ?? null,
      seed: s.model.seed,
      config: s.model.config ?? {},
      dtype,
      weights: weightsOf(s.model.weights, file),
      source: s.model.builder === 'python' ? modelSource(s.model.name ?? null, file) : null,
      config_from: s.model.config_from === undefined ? null : path.resolve(path.dirname(file), s.model.config_from),
      reinit: s.model.reinit ?? [],
    },
    axis: null,
    dtypes: s.dtypes ?? [],
    sweep: null,
    swept: sweepAxes(s),
    inputs: {
      kind: s.inputs.kind,
      shape,
      dtype: s.inputs.kind === 'image' ? dtype : (s.inputs.dtype ?? 'float32'),
      seed: s.inputs.seed ?? 0,
      vocab: s.inputs.vocab ?? null,
      stimuli: s.inputs.stimuli ?? batch,
      batch_size: s.inputs.batch_size ?? batch,
      text: textInputsOf(s.inputs, file),
    },
    sites: dictOf(s.sites),
    pairing: s.pairing ?? 'on',
  };
}

function groupOf(id: string, g: GroupData): Group {
  const cells: Group['cells'] = g.cells
    ? Object.entries(g.cells).map(([contract, ts]) => ({ contract, tools: ts }))
    : (g.contracts ?? []).map((contract) => ({ contract, tools: g.tools ?? [] }));
  const toolOrder = [...new Set(cells.flatMap((c) => c.tools))];
  return {
    id,
    title: g.title ?? id,
    reference: g.reference ?? null,
    subjects: g.subjects,
    cells,
    contracts: cells.map((c) => c.contract),
    tools: toolOrder,
    unsupported: (g.unsupported ?? []).map((r, i) => ({
      tools: r.tools ?? null,
      contracts: r.contracts ?? null,
      subjects: r.subjects ?? null,
      versions: r.versions ?? null,
      reason: r.reason,
      policy: r.policy === true,
      pointer: ptr('groups', id, 'unsupported', i),
    })),
    unpaired: (g.unpaired ?? []).map((r, i) => ({
      tools: r.tools ?? null,
      contracts: r.contracts ?? null,
      subjects: r.subjects ?? null,
      versions: null,
      reason: r.reason,
      policy: false,
      pointer: ptr('groups', id, 'unpaired', i),
    })),
  };
}

function pageOf(data: SpecData, subjects: Record<string, Subject>, tools: Record<string, Tool>): PageSection[] {
  // A function replacer: a title holding `$&` or `$1` is text, not a replacement pattern.
  const fill = (s: string) => s.replace(/\{title\}/g, () => data.title).replace(/\{name\}/g, () => data.name);
  return (data.page?.sections ?? []).map((sec, si) => ({
    id: fill(sec.id),
    title: fill(sec.title ?? sec.id),
    rows: sec.rows.map((row, ri) => ({
      label: fill(row.label),
      entries: row.entries.flatMap((e, ei) => {
        const group = e.group ?? row.group ?? '?';
        const contract = e.contract ?? row.contract ?? '?';
        const subject = e.subject ?? row.subject ?? Object.keys(subjects)[0];
        // An entry of a versioned tool without `version` stands for one entry per release.
        const ids = e.version !== undefined ? [versionedToolId(e.tool, e.version)] : toolVariants(tools, e.tool);
        return ids.map((tool) => ({
          cell: `${group}/${contract}/${tool}/${subject}`,
          tool,
          label: e.label ?? tools[tool]?.label ?? tool,
          explain: e.explain ?? [],
          pointer: ptr('page', 'sections', si, 'rows', ri, 'entries', ei),
        }));
      }),
    })),
  }));
}

/** The JSON pointer of every value the spec wrote (defaults are not written): rules ask it, not the raw data. */
export function writtenPointers(data: unknown): ReadonlySet<string> {
  const out = new Set<string>();
  const stack: [unknown, string][] = [[data, '']];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    out.add(at);
    if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, at + ptr(i)]));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) stack.push([x, at + ptr(k)]);
  }
  return out;
}

/** sha256 of canonical JSON (sorted keys) of the merged spec. */
export function digestOf(data: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(data)).digest('hex');
}

/** JSON with object keys sorted at every level. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const entries = Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(v);
}
