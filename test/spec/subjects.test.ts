// A subject declared in full: a model of one's own, real weights, a dtype and the dtype axis. Loading,
// planning and validating them reads paths and never imports the model's code.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hubCached } from '../../src/spec/hub-cache.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { cli, tmpdir, write } from '../helpers.ts';
import { spec, subjectDir, refusedIn } from './subjects-fixtures.ts';

const dir = subjectDir();

describe('a python builder', () => {
  it('names a function in a file beside the spec, resolved against the spec, and validating imports nothing', async () => {
    const file = write(
      dir,
      'own.yaml',
      spec('{ builder: python, name: "models/net.py:build", seed: 3, config: { width: 8 } }'),
    );
    const r = await cli(['validate', file]);
    expect(r.code, r.stderr).toBe(0);
    const { spec: s } = await loadSpec(file);
    expect(s!.subjects.s.model).toMatchObject({
      builder: 'python',
      dtype: 'float32',
      weights: null,
      source: { file: path.join(dir, 'models/net.py'), module: null, function: 'build' },
    });
  });

  it('takes package.module:function of an installed module', async () => {
    const { spec: s, diagnostics } = await loadSpec(
      write(dir, 'module.yaml', spec('{ builder: python, name: "my_models.cnn:build", seed: 0 }')),
    );
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(s!.subjects.s.model.source).toEqual({ file: null, module: 'my_models.cnn', function: 'build' });
  });

  it.each([
    [
      'a name without a function',
      '{ builder: python, name: "models/net.py", seed: 0 }',
      /is not FILE\.py:FUNCTION or package\.module:FUNCTION/,
    ],
    [
      'a file that does not exist',
      '{ builder: python, name: "models/missing.py:build", seed: 0 }',
      /model file .*missing\.py does not exist/,
    ],
    [
      "a file outside the spec's tree",
      '{ builder: python, name: "../../etc/net.py:build", seed: 0 }',
      /model file .* is outside the spec's directory/,
    ],
    [
      'builder inputs for a torchvision model',
      '{ builder: torchvision, name: resnet18, seed: 0 }',
      /inputs\.kind builder takes the inputs a python builder returns/,
      '{ kind: builder, seed: 0 }',
    ],
  ])('refuses %s with the line and what to do (exit 2)', async (_what, model, message, inputs?: string) => {
    const r = await refusedIn(dir, 'bad.yaml', spec(model, { inputs }));
    expect(r).toMatch(message);
    expect(r).toMatch(/bad\.yaml:\d+:\d+/);
  });
});

describe('reinit', () => {
  it('names modules re-initialised after a random build, and the request carries them', async () => {
    const { spec: s, diagnostics } = await loadSpec(
      write(
        dir,
        'reinit.yaml',
        spec('{ builder: torchvision, name: vit_b_16, seed: 0, config: { image_size: 32 }, reinit: [heads.head] }', {
          inputs: '{ kind: image, shape: [1, 3, 32, 32], seed: 0 }',
          site: 'encoder.ln',
        }),
      ),
    );
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(s!.subjects.s.model.reinit).toEqual(['heads.head']);
    const plain = await loadSpec(write(dir, 'plain.yaml', spec('{ builder: torchvision, name: resnet18, seed: 0 }')));
    expect(plain.spec!.subjects.s.model.reinit).toEqual([]);
  });

  it('is refused over real weights, at its line, with what to do (exit 2)', async () => {
    const r = await refusedIn(
      dir,
      'reinit-weights.yaml',
      spec(
        '{ builder: python, name: "models/net.py:build", seed: 0, weights: weights/net.safetensors, reinit: [body.0] }',
      ),
    );
    expect(r).toMatch(/reinit-weights\.yaml:\d+:\d+.*here it would overwrite the real weights/);
    expect(r).toMatch(/Remove reinit, or the weights/);
  });
});

describe('weights', () => {
  it('are a state_dict file for torchvision and python models, a save_pretrained directory for transformers', async () => {
    const sd = await loadSpec(
      write(
        dir,
        'sd.yaml',
        spec('{ builder: python, name: "models/net.py:build", seed: 0, weights: weights/net.safetensors }'),
      ),
    );
    expect(sd.spec!.subjects.s.model.weights).toEqual({
      kind: 'state_dict',
      path: path.join(dir, 'weights/net.safetensors'),
      written: 'weights/net.safetensors',
    });
    const pre = await loadSpec(
      write(
        dir,
        'pre.yaml',
        spec('{ builder: transformers, seed: 0, weights: pretrained }', {
          inputs: '{ kind: tokens, shape: [1, 4], vocab: 10, seed: 0 }',
          site: 'transformer.h.0',
        }),
      ),
    );
    expect(pre.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(pre.spec!.subjects.s.model.weights).toMatchObject({
      kind: 'pretrained',
      path: path.join(dir, 'pretrained'),
    });
  });

  it('refuses a state_dict for a transformers model and a directory for a torchvision one', async () => {
    const a = await refusedIn(
      dir,
      'w1.yaml',
      spec('{ builder: transformers, name: gpt2, seed: 0, weights: weights/net.safetensors }', {
        inputs: '{ kind: tokens, shape: [1, 4], vocab: 10, seed: 0 }',
      }),
    );
    expect(a).toMatch(/loads a save_pretrained directory \(or hf:ID\), not a state_dict file/);
    const b = await refusedIn(
      dir,
      'w2.yaml',
      spec('{ builder: torchvision, name: resnet18, seed: 0, weights: pretrained }'),
    );
    expect(b).toMatch(/takes a state_dict file/);
  });

  it("refuses a hub id that could name a path, and weights outside the spec's tree, before looking anywhere", async () => {
    const tokens = { inputs: '{ kind: tokens, shape: [1, 4], vocab: 10, seed: 0 }', site: 'transformer.h.0' };
    for (const weights of ['"hf:../../etc"', '"hf:a/b/c"', '"hf:"']) {
      const r = await refusedIn(
        dir,
        'hubbad.yaml',
        spec(`{ builder: transformers, seed: 0, weights: ${weights} }`, tokens),
        weights,
      );
      expect(r, weights).toMatch(/is not a hub id \(hf:ORG\/NAME\)/);
    }
    const out = await refusedIn(
      dir,
      'outside.yaml',
      spec('{ builder: torchvision, name: resnet18, seed: 0, weights: ../../etc/passwd.pt }'),
    );
    expect(out).toMatch(/weights .*passwd\.pt is outside the spec's directory/);
  });

  it('refuses a hub id that is not in the local cache, and says how to fetch it; --allow-downloads lets it through', async () => {
    const cache = tmpdir('benchgrid-hf-');
    const env = { HF_HUB_CACHE: cache };
    const file = write(
      dir,
      'hub.yaml',
      spec('{ builder: transformers, seed: 0, weights: "hf:EleutherAI/pythia-160m" }', {
        inputs: '{ kind: tokens, shape: [1, 4], vocab: 10, seed: 0 }',
        site: 'gpt_neox.layers.0',
      }),
    );
    const r = await cli(['validate', file], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /hub\.yaml:\d+:\d+ .*weights hf:EleutherAI\/pythia-160m are not in the local Hugging Face cache, and benchgrid never downloads without being asked/,
    );
    expect(r.stderr).toMatch(/--allow-downloads/);
    // Nothing was fetched: the cache is as empty as it was.
    expect(fs.readdirSync(cache)).toEqual([]);
    const allowed = await cli(['validate', file, '--allow-downloads'], { env });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toMatch(/warning.*run --allow-downloads fetches them/);
    // Once a snapshot with a config.json is in the cache, the spec is valid as it is.
    write(cache, 'models--EleutherAI--pythia-160m/snapshots/abc123/config.json', '{}');
    expect(hubCached('EleutherAI/pythia-160m', env)).toBe(true);
    expect((await cli(['validate', file], { env })).code).toBe(0);
  });
});
