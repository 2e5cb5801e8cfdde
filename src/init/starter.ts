// The starter spec `benchgrid init` writes: a small peer matrix on one model, valid and runnable. Pure: the
// subject comes from src/init/models.ts, everything else is the template of its family.
import { UserError } from '../errors.ts';
import { subjectOf, type Found, type ModelOptions, type StarterSubject } from './models.ts';

/** What the starter spec is built from. */
export interface StarterOptions extends ModelOptions {
  name: string;
}

// The pins of specs/resnet18_*.yaml's main environment, so a starter spec reuses that cached environment.
const REQUIREMENTS = [
  'torch==2.14.1',
  'torchvision==0.29.1',
  'nnsight==0.8.1',
  'torchlens==2.36.1',
  'captum==0.9.0',
  'transformer-lens==4.3.0',
];
// The decoders' layer of specs/decoders_*.yaml, so a decoder starter reuses that one too.
const DECODERS = ['transformers==5.24.0', 'pyvene==0.1.8'];

/** The YAML text of a starter spec; `schema` is the path of schemas/spec.schema.json relative to the file. */
export function starterSpec(opts: StarterOptions, schema: string, found: Found = {}): string {
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(opts.name))
    throw new UserError(`--name: lower-case letters, digits, '_' and '-' (got ${JSON.stringify(opts.name)}).`);
  const s = subjectOf(opts, found);
  const body = s.family === 'decoder' ? decoderMatrix(s) : visionMatrix(s);
  return `# yaml-language-server: $schema=${schema}
# A starter spec written by \`benchgrid init\`: ${body.summary} of ${s.label}.
${s.notes.map((n) => `# ${n}\n`).join('')}# Check it with \`benchgrid validate\`, see the matrix with \`benchgrid plan\`, measure with \`benchgrid run\`.
# The spec language: docs/spec.md.
benchgrid: 1
name: ${opts.name}
title: ${JSON.stringify(`${s.label}, ${opts.device.toUpperCase()}`)}
device: ${opts.device}

protocol:
${body.protocol}

environments:
  main:
${s.family === 'decoder' ? '' : '    default: true\n'}    requirements:
${REQUIREMENTS.map((r) => `      - ${r}`).join('\n')}
${s.family === 'decoder' ? `  decoders:\n    default: true\n    description: the decoders' transformers pinned, as in specs/decoders_gpu.yaml\n    over: main\n    requirements: [${DECODERS.join(', ')}]\n` : ''}
subjects:
  ${s.id}:
    label: ${JSON.stringify(s.label)}
    model:${s.model.startsWith('{') ? ` ${s.model}` : `\n${indent(s.model, 6)}`}
    inputs:${s.inputs.startsWith('{') ? ` ${s.inputs}` : `\n${indent(s.inputs, 6)}`}
    sites: { site: ${JSON.stringify(s.site)} }

${body.matrix}`;
}

function indent(text: string, by: number): string {
  return text
    .split('\n')
    .map((l) => `${' '.repeat(by)}${l}`)
    .join('\n');
}

// Every starter's protocol sets the wall-clock stop of sampling, with the reason for whoever edits the spec.
const SAMPLING_CAP = `  # A process stops sampling 120 s (wall clock) after its first sample, with at least min_samples taken,
  # long before timeout_s would kill it and lose them all; null: no such limit (docs/protocol.md).
  max_seconds_per_process: 120`;

interface Matrix {
  summary: string;
  protocol: string;
  matrix: string;
}

function visionMatrix(s: StarterSubject): Matrix {
  return {
    summary: 'three tools read and edit one module',
    protocol: `  warmups: 2
  samples: 10
  processes: 3
  min_samples: 3
  budget_s_per_cell: 10
  memory_runs: 1
  threads: 1
  aa_pairs: 1
  timeout_s: 600
${SAMPLING_CAP}
  exactness: { rtol: 1.0e-5, atol: 1.0e-6 }`,
    matrix: `contracts:
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
`,
  };
}

/**
 * A language model's starter: reading and editing a block, and the staple of mechanistic interpretability
 * (one position patched from a clean run into a corrupted one; over prompts, whose lengths are known only
 * once tokenized, greedy generation with a steering vector instead), for the tools people use on decoders.
 */
function decoderMatrix(s: StarterSubject): Matrix {
  const third = s.text
    ? `  steered_generation:
    label: 16 greedy tokens with a steering vector at every step
    site: site
    params: { vector_seed: 2, strength: 4 }`
    : `  activation_patching:
    label: one position patched from a clean run into a corrupted run
    site: site
    params: { position: 8, answer_token: 100, wrong_token: 200, corrupt_seed: 1 }`;
  const thirdId = s.text ? 'steered_generation' : 'activation_patching';
  return {
    summary: `five tools read, edit and ${s.text ? 'steer' : 'patch'} one block`,
    protocol: `  warmups: 1
  samples: 5
  processes: 3
  min_samples: 3
  budget_s_per_cell: 6
  memory_runs: 0
  threads: 1
  aa_pairs: 1
  timeout_s: 900
${SAMPLING_CAP}
  # TransformerLens's bridge computes attention itself: its results are compared with this tolerance.
  exactness: { rtol: 1.0e-4, atol: 1.0e-5 }`,
    matrix: `contracts:
  single_module_output: { label: "one block's output", site: site }
  replacement_edit: { label: "one block's output replaced by zeros", site: site }
${third}

tools:
  raw: { label: "plain forward, nothing attached" }
  hooks: { label: forward hooks }
  nnsight: { label: "nnsight {version}" }
  transformer_lens: { label: "TransformerLens {version} (TransformerBridge)" }
  tl_trace_sparse: { label: "torchlens {version} \`tl.trace(..., save=tl.module(site))\`" }

groups:
  A:
    title: starter matrix
    # Every tool's result is checked against the reference's, in the same process.
    reference: hooks
    subjects: [${s.id}]
    contracts: [single_module_output, replacement_edit, ${thirdId}]
    tools: [raw, hooks, nnsight, transformer_lens, tl_trace_sparse]
    unsupported:
      - tools: [tl_trace_sparse]
        contracts: [${thirdId}]
        reason: torchlens is measured on reading and editing one module, as in specs/decoders_gpu.yaml
        policy: true
`,
  };
}
