// What `benchgrid init --model ... [--weights ...] [--inputs ...]` means: the one subject of a starter spec,
// as YAML text, with the sites its contracts read. Pure: what init found on disk (a weights directory's
// config.json, a hub snapshot's) arrives as data (`Found`), read at the edge by src/commands/init.ts.
// The language models' subjects are made in src/init/decoders.ts.
import { UserError } from '../errors.ts';
import { ARCH, archSubject, hubSubject, lastPart, pretrainedSubject } from './decoders.ts';

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
