// `benchgrid init` writes starter specs that validate, and one of their cells runs for real.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import { execa } from 'execa';
import { cli, testPython, tmpdir, write } from '../helpers.ts';

describe('benchgrid init', () => {
  it('writes a torchvision and a Hugging Face starter spec that both validate', async () => {
    const dir = tmpdir();
    for (const model of ['torchvision:resnet18', 'hf:gpt2']) {
      const w = await cli(['init', '--model', model], { cwd: dir });
      expect(w.code, w.stderr).toBe(0);
    }
    const files = fs.readdirSync(path.join(dir, 'specs')).sort();
    expect(files).toEqual(['gpt2_starter.yaml', 'resnet18_starter.yaml']);
    const v = await cli(['validate', ...files.map((f) => path.join(dir, 'specs', f))]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toMatch(/resnet18_starter\.yaml: valid: 6 cells \(6 planned/);
    expect(v.stdout).toMatch(/gpt2_starter\.yaml: valid: 15 cells \(14 planned, 1 unsupported/);
  });

  it('writes decoder starters of realistic sizes and a starter for your own model, and they validate', async () => {
    const dir = tmpdir();
    for (const model of ['hf:pythia', 'hf:smollm', 'hf:qwen2'])
      expect((await cli(['init', '--model', model], { cwd: dir })).code).toBe(0);
    write(
      dir,
      'models/net.py',
      'import torch\ndef build():\n    return torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU())\n',
    );
    const own = await cli(['init', '--model', 'python:models/net.py:build', '--site', '0', '--inputs', 'image:2x4'], {
      cwd: dir,
    });
    // The model file is outside specs/, so the spec goes to the current directory, where it may name it.
    expect([own.code, own.stderr]).toEqual([0, expect.stringContaining('wrote net_starter.yaml')]);
    expect(fs.readFileSync(path.join(dir, 'net_starter.yaml'), 'utf8')).toContain(
      'model: { builder: python, name: "models/net.py:build", seed: 0, config: {} }',
    );
    const v = await cli(
      [
        'validate',
        'specs/pythia_starter.yaml',
        'specs/smollm_starter.yaml',
        'specs/qwen2_starter.yaml',
        'net_starter.yaml',
      ],
      { cwd: dir },
    );
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout.match(/valid: 15 cells \(14 planned, 1 unsupported/g)).toHaveLength(3);
    expect(v.stdout).toContain('net_starter.yaml: valid: 6 cells (6 planned');
    const spec = fs.readFileSync(path.join(dir, 'specs/pythia_starter.yaml'), 'utf8');
    expect(spec).toMatch(/tools: \[raw, hooks, nnsight, transformer_lens, tl_trace_sparse\]/);
    expect(spec).toContain('sites: { site: "gpt_neox.layers.6" }');
  });

  it('refuses a file the spec could not name, a directory that is no save_pretrained, and a link where the spec goes', async () => {
    const dir = tmpdir();
    write(dir, 'models/net.py', 'def build():\n    pass\n');
    const outside = await cli(['init', 'specs/x.yaml', '--model', 'python:models/net.py:build', '--site', '0'], {
      cwd: dir,
    });
    expect([outside.code, outside.stderr]).toEqual([
      2,
      expect.stringMatching(/model file .*models\/net\.py is outside the spec's directory .*Write the spec beside it/),
    ]);
    fs.mkdirSync(path.join(dir, 'empty'));
    const weights = await cli(['init', '--weights', 'empty'], { cwd: dir });
    expect([weights.code, weights.stderr]).toEqual([2, expect.stringContaining('--weights: empty has no config.json')]);
    const missing = await cli(['init', '--model', 'python:models/none.py:build', '--site', '0'], { cwd: dir });
    expect([missing.code, missing.stderr]).toEqual([
      2,
      expect.stringContaining('--model: models/none.py is not a file'),
    ]);
    // A clone may plant a dangling link where the spec would go: it is neither followed nor replaced.
    fs.symlinkSync(path.join(dir, 'elsewhere.txt'), path.join(dir, 'planted.yaml'));
    const linked = await cli(['init', 'planted.yaml'], { cwd: dir });
    expect([linked.code, linked.stderr]).toEqual([2, expect.stringContaining('exists; choose another file')]);
    const forced = await cli(['init', 'planted.yaml', '--force'], { cwd: dir });
    expect([forced.code, forced.stderr]).toEqual([
      2,
      expect.stringContaining('is a symbolic link; init writes no file through a link'),
    ]);
    expect(fs.existsSync(path.join(dir, 'elsewhere.txt'))).toBe(false);
  });

  it('never overwrites a file without --force, and refuses an unknown model or a missing site as bad input', async () => {
    const dir = tmpdir();
    expect((await cli(['init', 'a.yaml'], { cwd: dir })).code).toBe(0);
    const again = await cli(['init', 'a.yaml'], { cwd: dir });
    expect([again.code, again.stderr]).toEqual([
      2,
      expect.stringContaining('exists; choose another file, or pass --force'),
    ]);
    expect((await cli(['init', 'a.yaml', '--force'], { cwd: dir })).code).toBe(0);
    const bad = await cli(['init', 'b.yaml', '--model', 'keras:resnet'], { cwd: dir });
    expect([bad.code, bad.stderr]).toEqual([
      2,
      expect.stringContaining('--model: expected torchvision:<name>, hf:<architecture>'),
    ]);
    const noSite = await cli(['init', 'c.yaml', '--model', 'torchvision:vgg11'], { cwd: dir });
    expect([noSite.code, noSite.stderr]).toEqual([2, expect.stringContaining('--site: give the module')]);
  });

  it('runs one cell of the starter spec and ends with the summary', async () => {
    const dir = tmpdir();
    expect((await cli(['init', 'starter.yaml'], { cwd: dir })).code).toBe(0);
    const r = await runRow(dir, 'starter.yaml', 'A/single_module_output/nnsight/*', await testPython());
    const cell = r.results.cells.find((c) => c.id === 'A/single_module_output/nnsight/resnet18')!;
    expect([cell.status, cell.exact]).toEqual(['ok', 'bit']);
    expect(r.stderr).toMatch(/nnsight +\d+\.\d\d m?s .* bit\n/);
    expect(r.stderr).toContain('Open the report: run/report.html');
  }, 600_000);

  it("reads a weights directory's config.json as hostile data: a model_type that is no name, absurd counts, a huge or special file", async () => {
    const dir = tmpdir();
    write(dir, 'w1/config.json', JSON.stringify({ model_type: '../../etc', num_hidden_layers: 4 }));
    const path1 = await cli(['init', 'a.yaml', '--weights', 'w1'], { cwd: dir });
    expect([path1.code, path1.stderr]).toEqual([
      2,
      expect.stringContaining("w1/config.json does not say the model's model_type"),
    ]);
    // Counts out of range are not used: the site falls back to block 1 and the vocabulary to 1000.
    write(dir, 'w2/config.json', JSON.stringify({ model_type: 'gpt2', n_layer: 1e12, vocab_size: -5 }));
    expect((await cli(['init', 'b.yaml', '--weights', 'w2'], { cwd: dir })).code).toBe(0);
    const b = fs.readFileSync(path.join(dir, 'b.yaml'), 'utf8');
    expect(b).toContain('sites: { site: "transformer.h.1" }');
    expect(b).toContain('vocab: 1000');
    write(dir, 'w3/config.json', `{"model_type": "gpt2", "pad": "${'x'.repeat(5 * 1024 * 1024)}"}`);
    const big = await cli(['init', 'c.yaml', '--weights', 'w3'], { cwd: dir });
    expect([big.code, big.stderr]).toEqual([
      2,
      expect.stringMatching(/the transformers config is 5\.0 MB; at most 4 MB is read/),
    ]);
    fs.mkdirSync(path.join(dir, 'w4'));
    await execa('mkfifo', [path.join(dir, 'w4', 'config.json')]);
    const fifo = await cli(['init', 'd.yaml', '--weights', 'w4'], { cwd: dir, timeout: 60_000 });
    expect(fifo.code).toBe(2);
    // A named pipe is not a file: the directory has no config.json, said at once instead of waiting on it.
    expect(fifo.stderr).toContain('--weights: w4 has no config.json');
    expect(['a.yaml', 'c.yaml', 'd.yaml'].filter((f) => fs.existsSync(path.join(dir, f)))).toEqual([]);
  });

  it('runs one row of the Pythia-160M starter: nnsight beside hooks and the plain forward, bit-exact', async () => {
    const dir = tmpdir();
    expect((await cli(['init', '--model', 'hf:pythia'], { cwd: dir })).code).toBe(0);
    // In the spec's own environments (the decoders' transformers over main, as specs/decoders_*.yaml have them, so
    // the environments CI built for those serve here too).
    const { results } = await runRow(dir, 'specs/pythia_starter.yaml', 'A/single_module_output/nnsight/*');
    const cell = results.cells.find((c) => c.id === 'A/single_module_output/nnsight/pythia_160m')!;
    expect([cell.status, cell.exact]).toEqual(['ok', 'bit']);
  }, 600_000);

  it('runs one row of the starter for a model of your own, in a file beside the spec', async () => {
    const dir = tmpdir();
    fs.cpSync(path.join(import.meta.dirname, '../../specs/examples/models'), path.join(dir, 'models'), {
      recursive: true,
    });
    const w = await cli(
      [
        'init',
        'mixer.yaml',
        '--model',
        'python:models/mixer.py:build',
        '--site',
        'mixer.1.tokens',
        '--inputs',
        'image:2x3x32x32',
      ],
      { cwd: dir },
    );
    expect(w.code, w.stderr).toBe(0);
    const { results } = await runRow(dir, 'mixer.yaml', 'A/replacement_edit/nnsight/*', await testPython());
    const cell = results.cells.find((c) => c.id === 'A/replacement_edit/nnsight/mixer')!;
    expect([cell.status, cell.exact]).toEqual(['ok', 'bit']);
  }, 600_000);

  it("starts from a save_pretrained directory: its architecture, its weights' digest, and prompts through its own tokenizer", async () => {
    const dir = tmpdir();
    const python = await testPython();
    await execa(python, ['-c', SAVE_PRETRAINED, path.join(dir, 'my-model')]);
    const w = await cli(['init', '--weights', 'my-model'], { cwd: dir });
    expect([w.code, w.stderr]).toEqual([0, expect.stringContaining('wrote my-model_starter.yaml')]);
    const text = fs.readFileSync(path.join(dir, 'my-model_starter.yaml'), 'utf8');
    expect(text).toContain('model: { builder: transformers, name: gpt2, seed: 0, weights: "my-model" }');
    expect(text).toMatch(/inputs:\n {6}kind: text\n {6}prompts:/);
    const { results } = await runRow(dir, 'my-model_starter.yaml', 'A/single_module_output/transformer_lens/*');
    const cell = results.cells.find((c) => c.id === 'A/single_module_output/transformer_lens/my_model')!;
    expect([cell.status, ...(cell.work?.witnesses ?? []).map((x) => x.tokens)]).toEqual(['ok', 'same']);
    expect(['bit', 'close']).toContain(cell.exact);
    expect(results.subjects.my_model.meta?.model?.weights).toMatchObject({
      kind: 'pretrained',
      sha256: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(results.subjects.my_model.meta?.model?.tokens).toMatchObject({
      prompts: 3,
      padding_side: 'left',
      pad_id: 0,
    });
  }, 600_000);
});

/**
 * `benchgrid run SPEC --only ONLY` in DIR, one process of two samples, into DIR/run, which must exit 0: its stderr
 * and results. With `python`, the cells run there; without, in the spec's own environments.
 */
async function runRow(dir: string, spec: string, only: string, python?: string) {
  const out = path.join(dir, 'run');
  const r = await cli(
    [
      'run',
      spec,
      '--only',
      only,
      '--processes',
      '1',
      '--samples',
      '2',
      ...(python ? ['--python', python] : []),
      '--out',
      out,
    ],
    { cwd: dir, timeout: 600_000 },
  );
  expect(r.code, r.stderr.slice(-2000)).toBe(0);
  return { stderr: r.stderr, results: loadResults(out) };
}

// A 4-layer GPT-2 with random weights and a word-level tokenizer (pad id 0), both saved with save_pretrained,
// as a user's fine-tuned model would be.
const SAVE_PRETRAINED = `
import sys, torch
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import Whitespace
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast
torch.manual_seed(0)
words = "the eiffel tower is in city of when mary and john went to store gave a drink capital japan".split()
vocab = {"<pad>": 0, "<unk>": 1, **{w: i + 2 for i, w in enumerate(words)}}
backend = Tokenizer(WordLevel(vocab, unk_token="<unk>"))
backend.pre_tokenizer = Whitespace()
PreTrainedTokenizerFast(tokenizer_object=backend, unk_token="<unk>", pad_token="<pad>").save_pretrained(sys.argv[1])
GPT2LMHeadModel(GPT2Config(n_layer=4, n_embd=64, n_head=4, vocab_size=256, n_positions=64)).save_pretrained(sys.argv[1])
`;
