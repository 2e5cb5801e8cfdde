// The language-model subjects of `benchgrid init`: an architecture of a preset's or SmolLM-135M's shape
// (random weights), a hub id from the local cache, or a save_pretrained directory; each reads the output of
// its middle block and takes prompts where it has a tokenizer, token ids of its vocabulary where not.
import { UserError } from '../errors.ts';
import type { Found, FoundConfig, ModelOptions, StarterSubject } from './models.ts';

/** A model or architecture name as torchvision and transformers spell them. */
export const ARCH = /^[a-z][a-z0-9_]{0,63}$/;

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

export function archSubject(opts: ModelOptions, name: string): StarterSubject {
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

export function hubSubject(opts: ModelOptions, id: string, config: FoundConfig | null): StarterSubject {
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

export function pretrainedSubject(opts: ModelOptions, w: NonNullable<Found['weights']>): StarterSubject {
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

/** The last part of a path as the user wrote it ('out/my-model/' -> 'my-model'). */
export function lastPart(p: string): string {
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
