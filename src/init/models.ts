// What `benchgrid init --model ... [--weights ...] [--inputs ...]` means: the one subject of a starter spec,
// as YAML text, with the sites its contracts read. Pure: what init found on disk (a weights directory's
// config.json, a hub snapshot's) arrives as data (`Found`), read at the edge by src/commands/init.ts.
import { UserError } from '../errors.ts';

/** What the starter is for: a vision model (or a model of one's own), or a causal language model. */
export type Family = 'vision' | 'decoder';

/** The starter's subject: its id and label, its model and inputs as YAML, and the site its contracts read. */
export interface StarterSubject {
  family: Family;
  id: string;
  label: string;
  /** The `model:` mapping as YAML (flow or block, indented by the renderer). */
  model: string;
  /** The `inputs:` mapping as YAML. */
  inputs: string;
  site: string;
  /** Whether the inputs are prompts (the patching contract needs a position, unknown before tokenizing). */
  text: boolean;
  /** Lines for the spec's header: where the model comes from and what to check. */
  notes: string[];
}

/** A transformers config.json as init read it (from a save_pretrained directory or a hub snapshot). */
export interface FoundConfig {
  model_type: string;
  layers: number | null;
  vocab: number | null;
}

/** What init found on disk for the options that name files. */
export interface Found {
  /** `--weights` as the spec writes it (relative to the spec), and what it is. */
  weights?: { written: string; kind: 'pretrained' | 'state_dict'; config: FoundConfig | null; tokenizer: boolean };
  /** A `python:FILE:FUNCTION` model's file as the spec writes it (relative to the spec). */
  modelFile?: string;
  /** A hub id's cached config.json, when the snapshot is here. */
  hubConfig?: FoundConfig | null;
}

/** The options that choose the subject. */
export interface ModelOptions {
  model: string | undefined;
  site?: string;
  inputs?: string;
  device: 'cpu' | 'cuda';
}

/** SmolLM-135M's dimensions in the key names Llama's config shares with most causal LMs (qwen2, mistral, ...). */
const SMOLLM_SHAPE =
  '{ num_hidden_layers: 30, hidden_size: 576, intermediate_size: 1536, num_attention_heads: 9, num_key_value_heads: 3, vocab_size: 49152, max_position_embeddings: 2048, tie_word_embeddings: true, bos_token_id: 0, eos_token_id: 0 }';

/** A causal LM of a realistic size, random weights: the shapes of specs/decoders_gpu.yaml's subjects. */
interface Preset {
  id: string;
  label: string;
  arch: string;
  config: string;
  vocab: number;
  depth: number;
}

const PRESETS: Record<string, Preset> = {
  gpt2: {
    id: 'gpt2_small',
    label: 'GPT-2 small (12 layers, 768 wide, random weights)',
    arch: 'gpt2',
    vocab: 50257,
    depth: 12,
    config: '{ n_layer: 12, n_embd: 768, n_head: 12, vocab_size: 50257, n_positions: 1024 }',
  },
  pythia: {
    id: 'pythia_160m',
    label: 'Pythia-160M (12 layers, 768 wide, random weights)',
    arch: 'gpt_neox',
    vocab: 50304,
    depth: 12,
    config:
      '{ num_hidden_layers: 12, hidden_size: 768, intermediate_size: 3072, num_attention_heads: 12, vocab_size: 50304, max_position_embeddings: 2048, rotary_pct: 0.25, rotary_emb_base: 10000, use_parallel_residual: true, layer_norm_eps: 1.0e-5, tie_word_embeddings: false, bos_token_id: 0, eos_token_id: 0 }',
  },
  smollm: {
    id: 'smollm_135m',
    label: "a Llama of SmolLM-135M's shape (30 layers, 576 wide, random weights)",
    arch: 'llama',
    vocab: 49152,
    depth: 30,
    config: SMOLLM_SHAPE,
  },
};

/** The names `hf:NAME` accepts for each preset. */
const ALIASES = new Map<string, Preset>([
  ...['gpt2', 'gpt2-small', 'gpt2_small'].map((n) => [n, PRESETS.gpt2] as const),
  ...['pythia', 'pythia-160m', 'pythia_160m', 'gpt_neox'].map((n) => [n, PRESETS.pythia] as const),
  ...['smollm', 'smollm-135m', 'smollm_135m', 'llama'].map((n) => [n, PRESETS.smollm] as const),
]);

/** Where each architecture keeps its list of blocks; the rest (llama, qwen2, mistral, gemma, phi3, olmo, ...) use model.layers. */
const BLOCKS = new Map(
  Object.entries({
    gpt2: 'transformer.h',
    gpt_neo: 'transformer.h',
    gptj: 'transformer.h',
    bloom: 'transformer.h',
    falcon: 'transformer.h',
    gpt_bigcode: 'transformer.h',
    codegen: 'transformer.h',
    gpt_neox: 'gpt_neox.layers',
    opt: 'model.decoder.layers',
    mpt: 'transformer.blocks',
  }),
);

/** A hub name's family, guessed from the name when its config is not in the cache. */
const HUB_GUESS: [RegExp, string][] = [
  [/pythia|gpt-neox/i, 'gpt_neox'],
  [/smollm|llama/i, 'llama'],
  [/(^|\/)(distil)?gpt2/i, 'gpt2'],
  [/qwen/i, 'qwen2'],
  [/mistral/i, 'mistral'],
];

const ARCH = /^[a-z][a-z0-9_]{0,63}$/;
const HUB = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;
const PYTHON_FILE = /^(.+\.py):([A-Za-z_][A-Za-z0-9_]*)$/;
const PYTHON_MODULE = /^([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*):([A-Za-z_][A-Za-z0-9_]*)$/;

/** The file a `python:FILE.py:FUNCTION` model names (as given), or null for other models. */
export function pythonFileOf(model: string | undefined): string | null {
  const m = model?.startsWith('python:') ? PYTHON_FILE.exec(model.slice(7)) : null;
  return m ? m[1] : null;
}

/** The hub id an `hf:ORG/NAME` model names, or null. */
export function hubIdOf(model: string | undefined): string | null {
  const rest = model?.startsWith('hf:') ? model.slice(3) : '';
  return HUB.test(rest) ? rest : null;
}

/** A short stem for the spec's default name: the model's name, the file's, or the weights directory's. */
export function stemOf(opts: ModelOptions, weights: string | undefined): string {
  const file = pythonFileOf(opts.model);
  if (file) return file.split('/').pop()!.replace(/\.py$/, '');
  if (weights && (opts.model === undefined || hubIdOf(opts.model) === null))
    return lastPart(weights).replace(/\.[a-z]+$/, '');
  const m = opts.model ?? 'torchvision:resnet18';
  return m.split(/[:/]/).pop()!;
}

/** The starter's subject for these options and what init found; every refusal says what to write instead. */
export function subjectOf(opts: ModelOptions, found: Found = {}): StarterSubject {
  const model = opts.model;
  if (found.weights?.kind === 'pretrained') return pretrainedSubject(opts, found.weights);
  if (model === undefined || model.startsWith('torchvision:') || !model.includes(':'))
    return torchvisionSubject(opts, model === undefined ? 'resnet18' : model.replace(/^torchvision:/, ''), found);
  if (model.startsWith('python:')) return pythonSubject(opts, model.slice(7), found);
  if (model.startsWith('hf:')) {
    if (found.weights)
      throw new UserError(
        `--weights: ${found.weights.written} is a state_dict file; a transformers model loads a save_pretrained directory (a folder with config.json).`,
      );
    const hub = hubIdOf(model);
    return hub ? hubSubject(opts, hub, found.hubConfig ?? null) : archSubject(opts, model.slice(3));
  }
  throw new UserError(
    `--model: expected torchvision:<name>, hf:<architecture> (gpt2, pythia, smollm, or a transformers model_type such as qwen2), hf:ORG/NAME (weights from the local Hugging Face cache) or python:FILE.py:FUNCTION (got ${JSON.stringify(model)}).`,
  );
}

function torchvisionSubject(opts: ModelOptions, name: string, found: Found): StarterSubject {
  if (!ARCH.test(name))
    throw new UserError(
      `--model: torchvision:<name> takes a torchvision model name such as resnet18 (got ${JSON.stringify(name)}).`,
    );
  const site = opts.site ?? (/^(resnet|resnext|wide_resnet)/.test(name) ? 'layer2' : undefined);
  if (!site)
    throw new UserError(
      `--site: give the module whose output to read for torchvision model '${name}' (a name from model.named_modules(), e.g. features.4).`,
    );
  const weights = stateDict(found);
  return {
    family: 'vision',
    id: name,
    label: name,
    site,
    text: false,
    model: `{ builder: torchvision, name: ${name}, seed: 0${weights} }`,
    inputs: inputsOf(opts.inputs ?? 'image:1x3x224x224', 8, 4),
    notes: weights ? [`Weights: ${found.weights!.written}, loaded strictly into the model (weights_only).`] : [],
  };
}

function pythonSubject(opts: ModelOptions, written: string, found: Found): StarterSubject {
  const file = PYTHON_FILE.exec(written);
  const module = file ? null : PYTHON_MODULE.exec(written);
  if (!file && !module)
    throw new UserError(
      `--model: python:FILE.py:FUNCTION (a file of yours) or python:package.module:FUNCTION (installed in the spec's environment), e.g. python:models/mixer.py:build (got ${JSON.stringify(written)}).`,
    );
  if (!opts.site)
    throw new UserError(
      '--site: give the module whose output to read in your model, as model.named_modules() names it (e.g. --site blocks.1.mlp); after init, `benchgrid validate --probe SPEC` lists the nearest paths if it is wrong.',
    );
  const name = file ? `${found.modelFile ?? file[1]}:${file[2]}` : written;
  const stem = (file ? file[1].split('/').pop()!.replace(/\.py$/, '') : module![1].split('.').pop()!)
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_');
  const weights = stateDict(found);
  return {
    family: 'vision',
    id: /^[a-z]/.test(stem) ? stem : `model_${stem}`,
    label: `${name} (your model)`,
    site: opts.site,
    text: false,
    model: `{ builder: python, name: ${JSON.stringify(name)}, seed: 0${weights}, config: {} }`,
    inputs: inputsOf(opts.inputs ?? 'image:1x3x224x224', 8, 4),
    notes: [
      `Your model: ${name} is called with config's keys as keyword arguments and returns an nn.Module (or`,
      '(module, inputs), with inputs: { kind: builder }). benchgrid imports it only in a cell process, never to',
      'validate, plan or diff (docs/security.md).',
      ...(weights ? [`Weights: ${found.weights!.written}, loaded strictly into the model (weights_only).`] : []),
    ],
  };
}

function archSubject(opts: ModelOptions, name: string): StarterSubject {
  const p = ALIASES.get(name.toLowerCase());
  if (p) {
    return decoder(opts, {
      id: p.id,
      label: p.label,
      model: `builder: transformers\nname: ${p.arch}\nseed: 0\nconfig: ${p.config}`,
      arch: p.arch,
      depth: p.depth,
      vocab: p.vocab,
      tokenizer: false,
      notes: [],
    });
  }
  if (!ARCH.test(name))
    throw new UserError(
      `--model: hf:<architecture> takes gpt2, pythia, smollm or a transformers model_type such as qwen2 or mistral; hf:ORG/NAME names weights in the hub cache (got ${JSON.stringify(name)}).`,
    );
  return decoder(opts, {
    id: `${name}_random`,
    label: `${name} of SmolLM-135M's shape (random weights)`,
    arch: name,
    depth: 30,
    vocab: 49152,
    tokenizer: false,
    model: `builder: transformers\nname: ${name}\nseed: 0\nconfig: ${SMOLLM_SHAPE}`,
    notes: [
      `The config uses the key names of Llama's config, which ${name}'s shares if it is Llama-like (qwen2, mistral,`,
      `olmo, ...); if not, write its own (transformers' ${name} config class), and check the site with validate --probe.`,
    ],
  });
}

function hubSubject(opts: ModelOptions, id: string, config: FoundConfig | null): StarterSubject {
  const arch = config?.model_type ?? HUB_GUESS.find(([re]) => re.test(id))?.[1] ?? null;
  return decoder(opts, {
    id: idOf(id.split('/').pop()!),
    label: id,
    arch,
    depth: config?.layers ?? null,
    vocab: config?.vocab ?? null,
    tokenizer: true,
    model: `{ builder: transformers${arch ? `, name: ${arch}` : ''}, seed: 0, weights: "hf:${id}" }`,
    notes: [
      `Weights: hf:${id} from the local Hugging Face cache; benchgrid never downloads them unasked:`,
      `\`benchgrid run SPEC --allow-downloads\` fetches them once${config ? ' (they are cached here)' : ' (they are not cached here yet, so validate refuses until then)'}.`,
    ],
  });
}

function pretrainedSubject(opts: ModelOptions, w: NonNullable<Found['weights']>): StarterSubject {
  if (!w.config)
    throw new UserError(
      `--weights: ${w.written}/config.json does not say the model's model_type; save the model with save_pretrained.`,
    );
  const arch = w.config.model_type;
  const named = opts.model?.startsWith('hf:') ? opts.model.slice(3) : undefined;
  if (opts.model !== undefined && named !== arch && ALIASES.get(named ?? '')?.arch !== arch) {
    throw new UserError(
      `--model ${opts.model} and --weights ${w.written} disagree: the weights are a ${arch} model (their config.json); leave --model out, the weights say what the model is.`,
    );
  }
  return decoder(opts, {
    id: idOf(lastPart(w.written)),
    label: `${arch} from ${w.written}`,
    arch,
    depth: w.config.layers,
    vocab: w.config.vocab,
    tokenizer: w.tokenizer,
    model: `{ builder: transformers, name: ${arch}, seed: 0, weights: ${JSON.stringify(w.written)} }`,
    notes: [`Weights: ${w.written} (save_pretrained), loaded with from_pretrained; results record their sha256.`],
  });
}

interface DecoderFacts {
  id: string;
  label: string;
  model: string;
  arch: string | null;
  depth: number | null;
  vocab: number | null;
  tokenizer: boolean;
  notes: string[];
}

/** A decoder subject: tokens of its vocabulary, or prompts where it has a tokenizer; the middle block's output. */
function decoder(opts: ModelOptions, f: DecoderFacts): StarterSubject {
  if (opts.inputs !== undefined)
    throw new UserError(
      '--inputs: a language model reads prompts or random token ids that init chooses from its tokenizer and vocabulary; edit inputs in the spec afterwards (docs/spec.md, Subjects).',
    );
  const blocks = BLOCKS.get(f.arch ?? '') ?? 'model.layers';
  // The middle block when the depth is known; block 1 exists in any model of two blocks or more.
  const site = opts.site ?? `${blocks}.${f.depth !== null ? Math.floor(f.depth / 2) : 1}`;
  const big = opts.device === 'cuda';
  const inputs = f.tokenizer
    ? [
        'kind: text',
        'prompts:',
        '  - "The Eiffel Tower is in the city of"',
        '  - "When Mary and John went to the store, John gave a drink to"',
        '  - "The capital of Japan is"',
      ]
    : [
        `kind: tokens`,
        `shape: ${big ? '[8, 512]' : '[1, 16]'}`,
        `vocab: ${Math.min(f.vocab ?? 1000, 2 ** 31)}`,
        'seed: 0',
        `stimuli: ${big ? 64 : 4}`,
        `batch_size: ${big ? 16 : 2}`,
      ];
  return {
    family: 'decoder',
    id: f.id,
    label: f.label,
    model: f.model,
    inputs: inputs.join('\n'),
    site,
    text: f.tokenizer,
    notes: f.notes,
  };
}

/** `, weights: FILE` for a state_dict file, or nothing. */
function stateDict(found: Found): string {
  if (!found.weights) return '';
  if (found.weights.kind !== 'state_dict')
    throw new UserError(
      `--weights: ${found.weights.written} is a save_pretrained directory, which a transformers model loads: use --model hf:<architecture> or leave --model out.`,
    );
  return `, weights: ${JSON.stringify(found.weights.written)}`;
}

/** `image:1x3x224x224`, `tokens:1x16:1000` or `builder` as an inputs mapping with `stimuli` and `batch_size`. */
export function inputsOf(written: string, stimuli: number, batch: number): string {
  const dims = (s: string) => s.split('x').map((d) => (/^[1-9][0-9]{0,5}$/.test(d) ? Number(d) : NaN));
  const [kind, shape, vocab] = written.split(':');
  if (kind === 'builder' && shape === undefined) return '{ kind: builder }';
  const sizes = shape === undefined ? [] : dims(shape);
  if (kind === 'image' && vocab === undefined && sizes.length >= 2 && sizes.every(Number.isFinite)) {
    return `{ kind: image, shape: [${sizes.join(', ')}], seed: 0, stimuli: ${stimuli}, batch_size: ${batch} }`;
  }
  if (
    kind === 'tokens' &&
    sizes.length === 2 &&
    sizes.every(Number.isFinite) &&
    /^[1-9][0-9]{0,9}$/.test(vocab ?? '')
  ) {
    return `{ kind: tokens, shape: [${sizes.join(', ')}], vocab: ${vocab}, seed: 0, stimuli: ${stimuli}, batch_size: ${batch} }`;
  }
  throw new UserError(
    `--inputs: image:NxCxHxW (e.g. image:1x3x224x224), tokens:BATCHxLENGTH:VOCAB (e.g. tokens:1x16:1000), or builder (your function returns (model, inputs)) (got ${JSON.stringify(written)}).`,
  );
}

/** The last part of a path as the user wrote it ('out/my-model/' -> 'my-model'). */
function lastPart(p: string): string {
  return p
    .replace(/[/\\]+$/, '')
    .split(/[/\\]/)
    .pop()!;
}

/** A subject id from a name: lower case, letters, digits and '_'. */
function idOf(name: string): string {
  const id = name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return /^[a-z]/.test(id) ? id.slice(0, 64) : `model_${id}`.slice(0, 64);
}
