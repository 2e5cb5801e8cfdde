// The request file of a cell process, the wire format's main document: the shape
// schemas/request.schema.json accepts, key for key (optional where the schema does not require it).
// test/records/request-types.test.ts fails when this file and the schema differ. buildRequest (jobs.ts) makes it.

/** A request file. */
export interface CellRequest {
  /** The wire version (src/wire.ts). */
  protocol: number;
  spec: RequestSpec;
  cell: RequestCell;
  contract: RequestContract;
  subject: RequestSubject;
  tool: RequestTool;
  /** Null when the group has no reference, the tool is the reference, or the tool is not comparable. */
  reference: RequestAdapter | null;
  /** The baseline this timing process also times in alternation (docs/protocol.md, Pairing); null or absent: none. */
  pairing?: RequestPairing | null;
  device: 'cpu' | 'cuda' | `cuda:${number}`;
  mode: 'time' | 'memory';
  process_index: number;
  settings: RequestSettings;
}

/** The spec a request was built from. */
export interface RequestSpec {
  name: string;
  digest: string;
}

/** The cell's id and its coordinates. */
export interface RequestCell {
  id: string;
  group: string;
  contract: string;
  tool: string;
  subject: string;
}

/** The contract's kind, parameters and facts (runners/harness/contracts.json). */
export interface RequestContract {
  kind: string;
  params: RequestParams;
  grad: boolean;
  /** How the harness computes the output without the contract's write (the effect-size guard); absent: it only reads. */
  writes?: 'forward' | 'forward_per_strength' | 'corrupted_forward' | 'unsteered';
  /** What the contract returns when more than numbers (compared also by top-1 agreement); absent: numbers. */
  output?: 'logits' | 'tokens';
  work: RequestWork | null;
}

/** The parameters a contract kind declares; a runner's own kinds may declare others. */
export interface RequestParams {
  site?: string;
  strengths?: number[];
  direction_seed?: number;
  target?: number;
  [param: string]: unknown;
}

/** The work the witnesses must see. */
export interface RequestWork {
  forwards: number | 'strengths' | 'batches';
  parameter_grads: boolean;
}

/** A subject as data: the harness builds it. */
export interface RequestSubject {
  id: string;
  model: RequestModel;
  inputs: RequestImageInputs | RequestTokenInputs | RequestBuilderInputs | RequestTextInputs;
  sites: Record<string, string>;
}

/** How the harness builds the model: random weights from `seed`, or the real ones `weights` names. */
export interface RequestModel {
  builder: 'torchvision' | 'gpt2' | 'transformers' | 'python';
  name: string;
  seed: number;
  config: Record<string, unknown>;
  // Optional in the schema: requests written before them (bundles in flight) still load; buildRequest writes all four.
  dtype?: 'float32' | 'bfloat16' | 'float16' | 'float64';
  /** python builder: the function, from a file (a path) or an installed module; null otherwise. */
  source?: { file: string | null; module: string | null; function: string } | null;
  weights?: { kind: 'state_dict' | 'pretrained'; path: string } | { kind: 'hub'; id: string } | null;
  config_from?: string | null;
  /** Modules re-initialised after the build (absent: none; written only when some are named, so other requests are unchanged). */
  reinit?: string[];
}

/** Text inputs: the prompts themselves, tokenized and padded by the harness (benchgrid_harness/text.py). */
export interface RequestTextInputs {
  kind: 'text';
  seed: number;
  prompts: string[];
  tokenizer: { kind: 'bytes' | 'model' } | { kind: 'pretrained'; path: string } | { kind: 'hub'; id: string };
  padding_side: 'left' | 'right';
  batch_size: number;
}

/** Inputs the python builder returns with the model. */
export interface RequestBuilderInputs {
  kind: 'builder';
  seed: number;
}

/** Image inputs. */
export interface RequestImageInputs {
  kind: 'image';
  shape: number[];
  dtype: 'float32' | 'float64' | 'float16' | 'bfloat16';
  seed: number;
  stimuli: number;
  batch_size: number;
}

/** Token inputs (decoders): a vocabulary, always int64. */
export interface RequestTokenInputs {
  kind: 'tokens';
  shape: number[];
  dtype?: 'int64';
  vocab: number;
  seed: number;
  stimuli: number;
  batch_size: number;
}

/** The tool's adapter, and the library whose version is recorded (null for plain torch). */
export interface RequestTool {
  id: string;
  runner: string;
  adapter: string;
  module: string;
  library: string | null;
}

/** A tool by its id and adapter module: the reference, or pairing's baseline. */
export interface RequestAdapter {
  tool: string;
  module: string;
}

/** What a paired timing process times besides its tool. */
export interface RequestPairing {
  baseline: RequestAdapter;
  /** Seed of the order inside each pair. */
  seed: number;
  /** Baseline samples timed before the tool's import. */
  before: number;
}

/** The timing settings of this process (src/settings/settings.ts, after the command line's overrides). */
export interface RequestSettings {
  warmups: number;
  samples: number;
  min_samples: number;
  sampling_budget_s: number;
  threads: number;
  rtol: number;
  atol: number;
  /** A reduced-precision subject's: the tolerance of its precision control at float32 (absent otherwise). */
  float32_tolerance?: { rtol: number; atol: number };
  precision?: number | null;
  memory_calls: number;
}
