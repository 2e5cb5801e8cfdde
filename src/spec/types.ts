// The resolved spec: what the planner and runner read. Every field is filled; defaults are applied once.
import { tableDefaults } from '../protocol-table.ts';
import type { SpecData } from './data.ts';
import type { PosMap } from './document.ts';
import type { Environment } from './environment-types.ts';

// Environments and tool sources are declared in environment-types.ts; the spec's readers import them from here too.
export type { Environment, LayerSource, PackageIndex, ResolvedSource } from './environment-types.ts';
export { NO_INDEX } from './environment-types.ts';

/** Timing protocol of a spec, with defaults applied. */
export interface Protocol {
  warmups: number;
  samples: number;
  processes: number;
  min_samples: number;
  budget_s_per_cell: number;
  memory_runs: number;
  threads: number;
  aa_pairs: number;
  /** Control processes per row and environment (src/run/jobs.ts controlCount); null: as many as `processes`. */
  controls: number | null;
  timeout_s: number;
  /** Relative half-width of the median's 95% interval at which sampling stops (src/sampling/precision.ts); null: never. */
  precision: number | null;
  /** With precision: the fewest processes a cell runs. */
  min_processes: number;
  /** Order of the processes (src/run/schedule.ts); `run --schedule` overrides it. */
  schedule: 'interleaved' | 'sequential';
  rtol: number;
  atol: number;
  /** Tolerances of bfloat16 and float16 subjects (torch.testing's defaults unless the spec sets them). */
  low_precision: Record<'bfloat16' | 'float16', { rtol: number; atol: number }>;
}

/** A floating dtype a model's parameters may have. */
export type ModelDtype = 'float32' | 'bfloat16' | 'float16' | 'float64';

/** The dtype axis's id suffix of each dtype: SUBJECT@bf16. */
export const DTYPE_SHORT: Record<ModelDtype, string> = {
  float32: 'fp32',
  bfloat16: 'bf16',
  float16: 'fp16',
  float64: 'fp64',
};

/** torch.testing.assert_close's defaults for the low-precision dtypes (float32's are the protocol's own). */
export const LOW_PRECISION_DEFAULTS: Protocol['low_precision'] = {
  bfloat16: { rtol: 1.6e-2, atol: 1e-5 },
  float16: { rtol: 1e-3, atol: 1e-5 },
};

/**
 * The protocol defaults: the protocol table's (runners/harness/benchgrid_harness/protocol.json, documented in
 * docs/spec.md), and the exactness tolerances the spec loader makes from `protocol.exactness`.
 */
export const DEFAULT_PROTOCOL: Protocol = {
  ...(tableDefaults() as unknown as Omit<Protocol, 'rtol' | 'atol' | 'low_precision'>),
  rtol: 1e-5,
  atol: 1e-6,
  low_precision: LOW_PRECISION_DEFAULTS,
};

/** A value a sweep writes in place of the subject's own. */
export type SweepValue = number | string | boolean;

/** One swept key of a subject: the path it writes, the short name its points' ids use, and its values. */
export interface SweepAxis {
  path: string;
  name: string;
  values: SweepValue[];
}

/** A model plus its inputs and named sites. */
export interface Subject {
  id: string;
  label: string;
  model: {
    builder: 'torchvision' | 'gpt2' | 'transformers' | 'python';
    name: string | null;
    seed: number;
    config: Record<string, unknown>;
    /** The parameters' dtype; floating inputs follow it. */
    dtype: ModelDtype;
    /** Real weights (src/spec/weights.ts); null: random from `seed`. */
    weights: Weights | null;
    /** python builder: the function, from a file of the spec's tree (absolute) or an installed module; null otherwise, or when `name` is neither (validate says so). */
    source: { file: string | null; module: string | null; function: string } | null;
    /** transformers: a directory holding the config.json to build from (absolute); null: the architecture's defaults. */
    config_from: string | null;
    /** Modules re-initialised by their own reset_parameters() after the seeded build (random weights only); empty: none. */
    reinit: string[];
  };
  /** For a subject of the dtype axis: the declared subject it was made from (its reasons and groups name that). */
  axis: { of: string; dtype: ModelDtype } | null;
  /** The declared `dtypes`: this subject stands for one subject per dtype (SUBJECT@bf16, ...); empty otherwise. */
  dtypes: ModelDtype[];
  /** For a point of a sweep (SUBJECT@seq=256): the declared subject and the point's values by short name; null otherwise. */
  sweep: { of: string; values: Record<string, SweepValue> } | null;
  /** The declared `sweep`: this subject stands for one subject per point (src/spec/sweep.ts); empty otherwise. */
  swept: SweepAxis[];
  inputs: {
    kind: 'image' | 'tokens' | 'builder' | 'text';
    /** One batch; empty for inputs the builder returns. */
    shape: number[];
    dtype: string;
    seed: number;
    vocab: number | null;
    stimuli: number;
    batch_size: number;
    /** kind text: the prompts, the tokenizer and the padding side (src/spec/text-inputs.ts); null otherwise. */
    text: TextInputs | null;
  };
  sites: Record<string, string>;
  /** Whether this subject's tool cells are timed against the raw baseline in their own processes. */
  pairing: 'on' | 'off';
}

/** A text subject's prompts (written in the spec, or read from prompts_file when the spec is loaded). */
export interface TextInputs {
  prompts: string[];
  /** The prompts file (absolute), or null for prompts written in the spec. */
  prompts_file: string | null;
  tokenizer: Tokenizer;
  padding_side: 'left' | 'right';
}

/** Which tokenizer turns prompts into token ids: bytes (UTF-8 bytes, 256 pads), the weights' own, a directory, a cached hub id. */
export type Tokenizer =
  | { kind: 'bytes' }
  | { kind: 'model' }
  | { kind: 'pretrained'; path: string; written: string }
  | { kind: 'hub'; id: string; written: string };

/** Where a subject's real weights come from: a file or directory (absolute), or a hub id from the local cache. */
export type Weights =
  | { kind: 'state_dict'; path: string; written: string }
  | { kind: 'pretrained'; path: string; written: string }
  | { kind: 'hub'; id: string; written: string };

/** A piece of work with a fixed meaning. */
export interface Contract {
  id: string;
  kind: string;
  label: string;
  site: string | null;
  params: Record<string, unknown>;
  /** The contract's own tolerance of a "close" verdict, each key falling back to the protocol's. */
  exactness: { rtol?: number; atol?: number } | null;
}

/** A tool: which runner and adapter execute it, in which environment. */
export interface Tool {
  id: string;
  label: string;
  runner: string;
  adapter: string;
  environment: string;
  /** Declared releases to measure (the `versions` axis); empty when the tool is measured as installed. */
  versions: string[];
  /** Package those releases are of (declared `package`, else the adapter's library once expanded). */
  package: string | null;
  /** For one release of a versioned tool (id TOOL@VERSION): that release; null otherwise. */
  version: string | null;
}

/** A declared reason for cells that are not run. */
export interface ReasonRule {
  tools: string[] | null;
  contracts: string[] | null;
  subjects: string[] | null;
  /** Version range ('>=2.33,<2.35') the reason is limited to, for versioned tools; null: every release. */
  versions: string | null;
  reason: string;
  policy: boolean;
  /** JSON pointer of the rule, for diagnostics. */
  pointer: string;
}

/** A group: its cells (a product or an explicit list), reference tool and reasons. */
export interface Group {
  id: string;
  title: string;
  reference: string | null;
  subjects: string[];
  /** contract -> tools, in declaration order; a product group lists every tool for every contract. */
  cells: { contract: string; tools: string[] }[];
  /** Contracts and tools in declaration order, for grids. */
  contracts: string[];
  tools: string[];
  unsupported: ReasonRule[];
  /** Cells timed without pairing, each rule with its reason (`versions` null, `policy` false). */
  unpaired: ReasonRule[];
}

/** One entry of a results-page row: one cell under a tool label. */
export interface PageEntry {
  cell: string;
  tool: string;
  label: string;
  explain: { match: string; text: string }[];
  pointer: string;
}

/** One row label of the results page and its entries. */
export interface PageRow {
  label: string;
  entries: PageEntry[];
}

/** One section of the results page. */
export interface PageSection {
  id: string;
  title: string;
  rows: PageRow[];
}

/** Slurm defaults of a spec. */
export interface SlurmDefaults {
  partition: string | null;
  gpus_per_task: number | null;
  cpus_per_task: number | null;
  time_limit: string | null;
  shards: number | null;
  sbatch_args: string[];
  shared_dir: string | null;
}

/** A fully resolved spec. */
export interface Spec {
  file: string;
  /** Every file that went into this spec (bases first). */
  sources: string[];
  /** sha256 of the resolved spec's data: results from another version of the spec refuse to merge. */
  digest: string;
  name: string;
  title: string;
  description: string;
  device: 'cpu' | 'cuda';
  protocol: Protocol;
  environments: Record<string, Environment>;
  defaultEnvironment: string;
  /** Runner name -> absolute directory holding its manifest.json. */
  runners: Record<string, string>;
  subjects: Record<string, Subject>;
  contracts: Record<string, Contract>;
  tools: Record<string, Tool>;
  groups: Group[];
  page: PageSection[];
  slurm: SlurmDefaults;
  /** The merged plain data (what the schema validated). */
  data: SpecData;
  /** JSON pointers of every value the spec wrote, so rules can tell a written key from a default. */
  written: ReadonlySet<string>;
  positions: PosMap;
}
