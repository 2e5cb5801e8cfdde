// What `init --model/--weights/--inputs` turn into: the starter's one subject. Pure: what init read on disk
// arrives as `Found`, so these cases need no file.
import { describe, expect, it } from 'vitest';
import { inputsOf, stemOf, subjectOf } from '../../src/init/models.ts';

const cpu = { device: 'cpu' as const };

describe('init: the starter subject', () => {
  it('gives hf:gpt2, hf:pythia and hf:smollm their realistic sizes, random weights, reading the middle block', () => {
    const gpt2 = subjectOf({ ...cpu, model: 'hf:gpt2' });
    expect([gpt2.family, gpt2.id, gpt2.site]).toEqual(['decoder', 'gpt2_small', 'transformer.h.6']);
    expect(gpt2.model).toContain('n_layer: 12, n_embd: 768, n_head: 12, vocab_size: 50257');
    const pythia = subjectOf({ ...cpu, model: 'hf:pythia-160m' });
    expect([pythia.id, pythia.site]).toEqual(['pythia_160m', 'gpt_neox.layers.6']);
    expect(pythia.model).toMatch(/name: gpt_neox\n.*\nconfig: \{ num_hidden_layers: 12, hidden_size: 768/s);
    const smollm = subjectOf({ ...cpu, model: 'hf:smollm' });
    expect([smollm.id, smollm.site]).toEqual(['smollm_135m', 'model.layers.15']);
    expect(smollm.model).toContain('num_key_value_heads: 3');
    expect(smollm.inputs).toBe('kind: tokens\nshape: [1, 16]\nvocab: 49152\nseed: 0\nstimuli: 4\nbatch_size: 2');
    expect(subjectOf({ device: 'cuda', model: 'hf:pythia' }).inputs).toContain('shape: [8, 512]');
  });

  it("builds any other architecture in the shape of SmolLM-135M, saying the config keys are Llama's", () => {
    const qwen = subjectOf({ ...cpu, model: 'hf:qwen2' });
    expect([qwen.id, qwen.site]).toEqual(['qwen2_random', 'model.layers.15']);
    expect(qwen.model).toMatch(/^builder: transformers\nname: qwen2\n/);
    expect(qwen.notes.join(' ')).toContain("key names of Llama's config");
    expect(subjectOf({ ...cpu, model: 'hf:opt' }).site).toBe('model.decoder.layers.15');
    // Object's own names are architecture names like any other, not presets.
    expect(subjectOf({ ...cpu, model: 'hf:constructor' }).id).toBe('constructor_random');
  });

  it('takes hub weights from the cache with their config when it is there, and guesses the family when not', () => {
    const cached = subjectOf(
      { ...cpu, model: 'hf:EleutherAI/pythia-410m' },
      { hubConfig: { model_type: 'gpt_neox', layers: 24, vocab: 50304 } },
    );
    expect([cached.id, cached.site, cached.text]).toEqual(['pythia_410m', 'gpt_neox.layers.12', true]);
    expect(cached.model).toBe(
      '{ builder: transformers, name: gpt_neox, seed: 0, weights: "hf:EleutherAI/pythia-410m" }',
    );
    expect(cached.notes.join(' ')).toContain('(they are cached here)');
    const guessed = subjectOf({ ...cpu, model: 'hf:HuggingFaceTB/SmolLM-360M' }, { hubConfig: null });
    expect([guessed.site, guessed.notes.join(' ')]).toEqual([
      'model.layers.1',
      expect.stringContaining('validate refuses until then'),
    ]);
  });

  it("reads a save_pretrained directory's architecture, and prompts when the tokenizer is saved with it", () => {
    const weights = {
      written: 'my-model',
      kind: 'pretrained' as const,
      config: { model_type: 'gpt2', layers: 4, vocab: 512 },
      tokenizer: true,
    };
    const s = subjectOf({ ...cpu, model: undefined }, { weights });
    expect([s.family, s.id, s.site, s.text]).toEqual(['decoder', 'my_model', 'transformer.h.2', true]);
    expect(s.model).toBe('{ builder: transformers, name: gpt2, seed: 0, weights: "my-model" }');
    expect(s.inputs).toMatch(/^kind: text\nprompts:\n  - /);
    const noTokenizer = subjectOf({ ...cpu, model: 'hf:gpt2' }, { weights: { ...weights, tokenizer: false } });
    expect(noTokenizer.inputs).toContain('vocab: 512');
    expect(() => subjectOf({ ...cpu, model: 'hf:llama' }, { weights })).toThrow(
      /--model hf:llama and --weights my-model disagree: the weights are a gpt2 model/,
    );
  });

  it('writes your own model relative to the spec, with its inputs and its site, and a state_dict beside it', () => {
    const s = subjectOf(
      { ...cpu, model: 'python:../models/mixer.py:build', site: 'mixer.1.tokens', inputs: 'image:2x3x32x32' },
      {
        modelFile: 'models/mixer.py',
        weights: { written: 'w.pt', kind: 'state_dict', config: null, tokenizer: false },
      },
    );
    expect([s.family, s.id, s.site]).toEqual(['vision', 'mixer', 'mixer.1.tokens']);
    expect(s.model).toBe('{ builder: python, name: "models/mixer.py:build", seed: 0, weights: "w.pt", config: {} }');
    expect(s.inputs).toBe('{ kind: image, shape: [2, 3, 32, 32], seed: 0, stimuli: 8, batch_size: 4 }');
    expect(subjectOf({ ...cpu, model: 'python:mypkg.nets:make', site: 'fc', inputs: 'builder' }).model).toContain(
      'name: "mypkg.nets:make"',
    );
    expect(inputsOf('tokens:2x16:1000', 8, 4)).toBe(
      '{ kind: tokens, shape: [2, 16], vocab: 1000, seed: 0, stimuli: 8, batch_size: 4 }',
    );
  });

  it('refuses what it cannot write as a valid spec, saying what to give instead', () => {
    expect(() => subjectOf({ ...cpu, model: 'keras:resnet' })).toThrow(
      /--model: expected torchvision:<name>, hf:<architecture>/,
    );
    expect(() => subjectOf({ ...cpu, model: 'python:models/mixer.py:build' })).toThrow(
      /--site: give the module whose output to read in your model/,
    );
    expect(() => subjectOf({ ...cpu, model: 'python:mixer.py', site: 'x' })).toThrow(/python:FILE\.py:FUNCTION/);
    expect(() => subjectOf({ ...cpu, model: 'torchvision:vgg11' })).toThrow(/--site: give the module/);
    expect(() => subjectOf({ ...cpu, model: 'hf:gpt2', inputs: 'image:1x3x8x8' })).toThrow(
      /--inputs: a language model reads prompts/,
    );
    expect(() => subjectOf({ ...cpu, model: 'hf:Bad Name' })).toThrow(/hf:<architecture> takes gpt2, pythia, smollm/);
    for (const bad of [
      'image:0x3',
      'image:1x3x224x224:9',
      'tokens:1x16',
      'tokens:1x16x2:10',
      'video:1x2',
      'builder:x',
    ]) {
      expect(() => inputsOf(bad, 8, 4), bad).toThrow(/--inputs: image:NxCxHxW/);
    }
  });

  it('names the spec after the model, the file or the weights directory', () => {
    expect(stemOf({ ...cpu, model: undefined }, undefined)).toBe('resnet18');
    expect(stemOf({ ...cpu, model: 'hf:EleutherAI/pythia-160m' }, undefined)).toBe('pythia-160m');
    expect(stemOf({ ...cpu, model: 'python:models/mixer.py:build' }, undefined)).toBe('mixer');
    expect(stemOf({ ...cpu, model: undefined }, 'out/my-model/')).toBe('my-model');
  });
});
