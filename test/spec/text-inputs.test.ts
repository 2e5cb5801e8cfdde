// Text inputs as validate and the request see them: prompts written or read from a file beside the spec (read,
// never run), a tokenizer the cell process can load offline, and refusals with the key's file:line:col.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/validate/load.ts';
import { buildRequest } from '../../src/run/jobs.ts';
import { cli, tmpdir, write } from '../helpers.ts';
import { oneSubjectSpec } from './one-subject.ts';

let dir: string;

function spec(
  inputs: string,
  model = '{ builder: transformers, name: gpt2, seed: 0, config: { n_layer: 1, n_embd: 8, n_head: 2, vocab_size: 300 } }',
): string {
  return oneSubjectSpec({ name: 'text_test', title: 'text', label: 'prompts', model, inputs, site: 'transformer.h.0' });
}

async function problems(name: string, inputs: string, model?: string): Promise<string[]> {
  const loaded = await loadSpec(write(dir, name, spec(inputs, model)));
  return loaded.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.line}:${d.col} ${d.message}`);
}

beforeAll(() => {
  dir = tmpdir('benchgrid-text-spec-');
  write(dir, 'prompts.txt', 'first prompt\n\n  second, indented  \nthird\n');
  write(dir, 'tok/tokenizer.json', '{}');
});

describe('text inputs in a spec', () => {
  it('reads a prompts file beside the spec, one prompt per non-empty line, into every request', async () => {
    const loaded = await loadSpec(
      write(dir, 'file.yaml', spec('{ kind: text, tokenizer: tok, prompts_file: prompts.txt }')),
    );
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const s = loaded.spec!.subjects.s;
    expect(s.inputs.text).toMatchObject({
      prompts: ['first prompt', '  second, indented', 'third'],
      padding_side: 'left',
      tokenizer: { kind: 'pretrained', path: path.join(dir, 'tok') },
    });
    expect(s.inputs.batch_size).toBe(3);
    const cell = loaded.plan!.cells.find((c) => c.tool === 'hooks')!;
    const x = {
      spec: loaded.spec!,
      plan: loaded.plan!,
      manifests: loaded.manifests!,
      device: 'cpu',
      schedule: { seed: 1 },
      protocol: loaded.spec!.protocol,
    } as unknown as Parameters<typeof buildRequest>[0];
    const request = buildRequest(x, { key: 'k', cell, kind: 'time', index: 0 } as Parameters<typeof buildRequest>[1]);
    expect(request.subject.inputs).toEqual({
      kind: 'text',
      seed: 0,
      prompts: ['first prompt', '  second, indented', 'third'],
      tokenizer: { kind: 'pretrained', path: path.join(dir, 'tok') },
      padding_side: 'left',
      batch_size: 3,
    });
  });

  it('refuses what the cell process could not tokenize, at the key, before anything runs', async () => {
    expect(await problems('random.yaml', '{ kind: text, prompts: [a, b] }')).toEqual([
      expect.stringMatching(/^9:13 text inputs need a tokenizer: this model has random weights/),
    ]);
    expect(await problems('missing.yaml', '{ kind: text, tokenizer: nowhere, prompts: [a] }')).toEqual([
      expect.stringMatching(/^9:\d+ tokenizer directory .*nowhere holds no tokenizer.json/),
    ]);
    expect(await problems('outside.yaml', '{ kind: text, tokenizer: /etc, prompts: [a] }')).toEqual([
      expect.stringMatching(/tokenizer \/etc is outside/),
    ]);
    expect(await problems('nofile.yaml', '{ kind: text, tokenizer: bytes, prompts_file: none.txt }')).toEqual([
      expect.stringMatching(/prompts file .*none\.txt does not exist/),
    ]);
    expect(
      await problems('hub.yaml', '{ kind: text, tokenizer: "hf:nobody/no-such-tokenizer", prompts: [a] }'),
    ).toEqual([expect.stringMatching(/not in the local Hugging Face cache, and benchgrid never downloads/)]);
    expect(
      await problems(
        'vocab.yaml',
        '{ kind: text, tokenizer: bytes, prompts: [a] }',
        '{ builder: transformers, name: gpt2, seed: 0, config: { vocab_size: 100 } }',
      ),
    ).toEqual([expect.stringMatching(/bytes tokenizer needs a vocabulary of 257/)]);
    expect(
      await problems(
        'vision.yaml',
        '{ kind: text, tokenizer: bytes, prompts: [a] }',
        '{ builder: torchvision, name: resnet18, seed: 0 }',
      ),
    ).toEqual([expect.stringMatching(/text inputs are tokenized for a transformers causal LM/)]);
  });

  it('refuses text keys on other kinds and generated keys on text, in the schema', async () => {
    expect(
      (await problems('shape.yaml', '{ kind: text, tokenizer: bytes, prompts: [a], shape: [1, 4] }')).length,
    ).toBeGreaterThan(0);
    expect(
      (await problems('both.yaml', '{ kind: text, tokenizer: bytes, prompts: [a], prompts_file: prompts.txt }')).length,
    ).toBeGreaterThan(0);
    expect(
      (await problems('image.yaml', '{ kind: image, shape: [1, 4], seed: 0, prompts: [a] }')).length,
    ).toBeGreaterThan(0);
  });

  it('exits 2 from validate with the file, line and column of the refusal', async () => {
    const file = write(dir, 'cli.yaml', spec('{ kind: text, prompts: [a, b] }'));
    const r = await cli(['validate', file]);
    expect(r.code).toBe(2);
    expect(r.stderr + r.stdout).toMatch(/cli\.yaml:9:13 subjects\.s\.inputs: text inputs need a tokenizer/);
  });
});
