// The starter spec `benchgrid init` writes: a small peer matrix on one model, valid and runnable. Pure.
import { UserError } from '../errors.ts';

/** What the starter spec is built from. */
export interface StarterOptions {
  /** `torchvision:<name>` or `hf:gpt2` (a randomly initialised GPT-2 from a transformers config). */
  model: string;
  /** Module whose output the contracts read; defaulted for resnets and GPT-2. */
  site?: string;
  device: 'cpu' | 'cuda';
  name: string;
}

// The pins of specs/resnet18_*.yaml's main environment, so a starter spec reuses that cached environment.
const REQUIREMENTS = ['torch==2.14.1', 'torchvision==0.29.1', 'nnsight==0.8.1', 'torchlens==2.36.1', 'captum==0.9.0', 'transformer-lens==4.3.0'];

interface Subject { id: string; label: string; model: string; inputs: string; site: string }

function subjectOf(opts: StarterOptions): Subject {
  const [kind, name] = opts.model.includes(':') ? opts.model.split(/:(.*)/s, 2) : ['torchvision', opts.model];
  if (kind === 'torchvision' && /^[a-z][a-z0-9_]*$/.test(name ?? '')) {
    const site = opts.site ?? (/^(resnet|resnext|wide_resnet)/.test(name) ? 'layer2' : undefined);
    if (!site) throw new UserError(`--site: give the module whose output to read for torchvision model '${name}' (a name from model.named_modules(), e.g. features.4).`);
    return { id: name, label: name, site, model: `{ builder: torchvision, name: ${name}, seed: 0 }`, inputs: '{ kind: image, shape: [1, 3, 224, 224], seed: 0, stimuli: 8, batch_size: 4 }' };
  }
  if (kind === 'hf' && name === 'gpt2') {
    return {
      id: 'gpt2_small_random', label: 'GPT-2 (4 layers, random weights)', site: opts.site ?? 'transformer.h.1',
      model: '{ builder: gpt2, name: gpt2_small_random, seed: 0, config: { n_layer: 4, n_embd: 64, n_head: 4, vocab_size: 1000, n_positions: 64 } }',
      inputs: '{ kind: tokens, shape: [1, 16], vocab: 1000, seed: 0, stimuli: 8, batch_size: 4 }',
    };
  }
  throw new UserError(`--model: expected torchvision:<name> (e.g. torchvision:resnet18) or hf:gpt2 (got ${JSON.stringify(opts.model)}).`);
}

/** The YAML text of a starter spec; `schema` is the path of schemas/spec.schema.json relative to the file. */
export function starterSpec(opts: StarterOptions, schema: string): string {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(opts.name)) throw new UserError(`--name: lower-case letters, digits, '_' and '-' (got ${JSON.stringify(opts.name)}).`);
  const s = subjectOf(opts);
  return `# yaml-language-server: $schema=${schema}
# A starter spec written by \`benchgrid init\`: three tools read and edit one module of ${s.label}.
# Check it with \`benchgrid validate\`, see the matrix with \`benchgrid plan\`, measure with \`benchgrid run\`.
# The spec language: docs/spec.md.
benchgrid: 1
name: ${opts.name}
title: ${s.label}, ${opts.device.toUpperCase()}
device: ${opts.device}

protocol:
  warmups: 2
  samples: 10
  processes: 3
  min_samples: 3
  budget_s_per_cell: 10
  memory_runs: 1
  threads: 1
  aa_pairs: 1
  timeout_s: 600
  exactness: { rtol: 1.0e-5, atol: 1.0e-6 }

environments:
  main:
    default: true
    requirements:
${REQUIREMENTS.map((r) => `      - ${r}`).join('\n')}

subjects:
  ${s.id}:
    label: ${JSON.stringify(s.label)}
    model: ${s.model}
    inputs: ${s.inputs}
    sites: { site: ${JSON.stringify(s.site)} }

contracts:
  single_module_output: { label: "one module's output", site: site }
  replacement_edit: { label: one module replaced by zeros, site: site }

tools:
  raw: { label: "plain forward, nothing attached" }
  hooks: { label: forward hooks }
  nnsight: { label: "nnsight {version}" }

groups:
  A:
    title: starter matrix
    # Every tool's result is checked against the reference's, in the same process.
    reference: hooks
    subjects: [${s.id}]
    contracts: [single_module_output, replacement_edit]
    tools: [raw, hooks, nnsight]
`;
}
