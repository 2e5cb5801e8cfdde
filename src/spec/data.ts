// The spec as written: the shape schemas/spec.schema.json accepts, key for key (optional where the
// schema does not require it). test/spec/data-types.test.ts fails when this file and the schema differ.

/** `protocol:` as written. */
export interface ProtocolData {
  warmups?: number;
  samples?: number;
  processes?: number;
  min_samples?: number;
  budget_s_per_cell?: number;
  memory_runs?: number;
  threads?: number;
  aa_pairs?: number;
  controls?: number | null;
  timeout_s?: number;
  precision?: number | null;
  min_processes?: number;
  schedule?: 'interleaved' | 'sequential';
  exactness?: ExactnessData;
}

/** `protocol.exactness:` as written. */
export interface ExactnessData {
  rtol?: number;
  atol?: number;
  bfloat16?: { rtol?: number; atol?: number };
  float16?: { rtol?: number; atol?: number };
}

/** One `environments:` entry as written. */
export interface EnvironmentData {
  description?: string;
  default?: boolean;
  python?: string;
  /** Another environment this one is layered over (src/env/layered.ts). */
  over?: string;
  requirements: string[];
  /** pip's --index-url: a URL (https, http, file) or a directory, relative to the spec. */
  index_url?: string;
  /** pip's --extra-index-url, each a URL or a directory. */
  extra_index_urls?: string[];
  /** pip's --find-links, each a URL or a directory of wheels. */
  find_links?: string[];
}

/** One `subjects:` entry as written. */
export interface SubjectData {
  label: string;
  description?: string;
  model: ModelData;
  dtypes?: Array<'float32' | 'bfloat16' | 'float16' | 'float64'>;
  inputs: InputsData;
  sites: Record<string, string>;
  pairing?: 'on' | 'off';
  /** The sweep axis: a dotted path of the subject (inputs.shape.1, model.config.n_layer) -> its values. */
  sweep?: Record<string, Array<number | string | boolean>>;
}

/** `subjects.X.model:` as written. */
export interface ModelData {
  builder: 'torchvision' | 'gpt2' | 'transformers' | 'python';
  name?: string;
  seed: number;
  config?: Record<string, unknown>;
  weights?: string;
  config_from?: string;
  reinit?: string[];
  dtype?: 'float32' | 'bfloat16' | 'float16' | 'float64';
}

/** `subjects.X.inputs:` as written. */
export interface InputsData {
  kind: 'image' | 'tokens' | 'builder' | 'text';
  shape?: number[];
  dtype?: 'float32' | 'float16' | 'bfloat16' | 'float64';
  seed?: number;
  vocab?: number;
  stimuli?: number;
  batch_size?: number;
  prompts?: string[];
  prompts_file?: string;
  tokenizer?: string;
  padding_side?: 'left' | 'right';
}

/** One `contracts:` entry as written. */
export interface ContractData {
  kind?: string;
  label?: string;
  description?: string;
  site?: string;
  exactness?: { rtol?: number; atol?: number };
  params?: Record<string, unknown>;
}

/** One `tools:` entry as written. */
export interface ToolData {
  label?: string;
  description?: string;
  runner?: string;
  adapter?: string;
  environment?: string;
  versions?: string[];
  package?: string;
}

/** One `groups:` entry as written: a product (contracts x tools) or explicit cells. */
export interface GroupData {
  title?: string;
  description?: string;
  reference?: string | null;
  subjects: string[];
  contracts?: string[];
  tools?: string[];
  cells?: Record<string, string[]>;
  unsupported?: ReasonData[];
  unpaired?: UnpairedData[];
}

/** One `unpaired:` rule as written. */
export interface UnpairedData {
  tools?: string[];
  contracts?: string[];
  subjects?: string[];
  reason: string;
}

/** One `unsupported:` reason as written. */
export interface ReasonData {
  tools?: string[];
  contracts?: string[];
  subjects?: string[];
  versions?: string;
  reason: string;
  policy?: boolean;
}

/** `page:` as written. */
export interface PageData {
  sections: SectionData[];
}

/** One page section as written. */
export interface SectionData {
  id: string;
  title?: string;
  rows: RowData[];
}

/** One page row as written. */
export interface RowData {
  label: string;
  group?: string;
  contract?: string;
  subject?: string;
  entries: EntryData[];
}

/** One page entry as written. */
export interface EntryData {
  tool: string;
  version?: string;
  label?: string;
  group?: string;
  contract?: string;
  subject?: string;
  explain?: { match: string; text: string }[];
}

/** `slurm:` as written. */
export interface SlurmData {
  partition?: string;
  gpus_per_task?: number;
  cpus_per_task?: number;
  time_limit?: string;
  shards?: number;
  sbatch_args?: string[];
  shared_dir?: string;
}

/** A whole spec as written (after `extends` is merged). */
export interface SpecData {
  $schema?: string;
  benchgrid: 1;
  extends?: string;
  name: string;
  title: string;
  description?: string;
  device: 'cpu' | 'cuda';
  protocol?: ProtocolData;
  environments?: Record<string, EnvironmentData>;
  runners?: Record<string, string>;
  subjects: Record<string, SubjectData>;
  contracts: Record<string, ContractData>;
  tools: Record<string, ToolData>;
  groups: Record<string, GroupData>;
  page?: PageData;
  slurm?: SlurmData;
}
