// An environment's package index reaches every pip call for it: its own build, a layer declared `over` it
// (which takes its own index keys when it sets any), and a versioned tool's releases; and it is part of the
// cache key only when one is named, so the keys (and CI's caches) of every other environment stay as they were.
import crypto from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveEnv } from '../../src/env/build.ts';
import { pipIndexArgs, requirementsFileOptions } from '../../src/env/pip-index.ts';
import { NO_INDEX, type Environment } from '../../src/spec/types.ts';
import { loadDeclaredSpec } from '../../src/spec/load.ts';
import { tmpdir, write } from '../helpers.ts';

const SPEC = `benchgrid: 1
name: indexes
title: indexes
device: cpu
environments:
  main:
    requirements: [torch==2.14.1, demo-tool==1.0]
    index_url: https://download.pytorch.org/whl/cpu
    extra_index_urls: [mirror/simple]
    find_links: [wheels, "file:///opt/wheels"]
  peers: { over: main, default: true, requirements: [demo-peer==0.1] }
  own: { over: peers, find_links: [../elsewhere], requirements: [demo-tool==2.0] }
  plain: { requirements: [numpy] }
subjects:
  s: { label: s, model: { builder: torchvision, name: resnet18, seed: 0 }, inputs: { kind: image, shape: [1, 3, 8, 8], seed: 0 }, sites: { l: layer2 } }
contracts:
  single_module_output: { site: l }
tools:
  hooks: { label: hooks, environment: main }
  demo: { label: "demo {version}", adapter: hooks, package: demo-tool, environment: main, versions: ["1.0", "2.0"] }
groups:
  A: { reference: hooks, subjects: [s], contracts: [single_module_output], tools: [hooks, demo] }
`;

describe("an environment's package index", () => {
  it('is given to pip as options, directories resolved against the spec: the build, a layer and a release alike', async () => {
    const dir = tmpdir();
    const spec = await loadDeclaredSpec(write(dir, 'specs/indexes.yaml', SPEC));
    const here = path.join(dir, 'specs');
    const mainArgs = [
      '--index-url',
      'https://download.pytorch.org/whl/cpu',
      '--extra-index-url',
      path.join(here, 'mirror/simple'),
      '--find-links',
      path.join(here, 'wheels'),
      '--find-links',
      'file:///opt/wheels',
    ];
    expect(pipIndexArgs(spec.environments.main.index)).toEqual(mainArgs);
    // A layer that sets no index key takes its base's; a release's environment takes its tool's environment's.
    expect(pipIndexArgs(spec.environments.peers.index)).toEqual(mainArgs);
    expect(spec.environments['main+demo-tool-2.0'].layer?.base).toBe('main');
    expect(pipIndexArgs(spec.environments['main+demo-tool-2.0'].index)).toEqual(mainArgs);
    // A layer that sets one takes its own keys alone: nothing of its base's index.
    expect(pipIndexArgs(spec.environments.own.index)).toEqual(['--find-links', path.join(dir, 'elsewhere')]);
    expect(pipIndexArgs(spec.environments.plain.index)).toEqual([]);
    expect(spec.environments.plain.index).toEqual(NO_INDEX);
  });

  it('is written into a requirements file as the option lines pip reads there', () => {
    expect(
      requirementsFileOptions({
        index_url: 'https://a.example/simple',
        extra_index_urls: ['https://b.example/simple'],
        find_links: ['https://c.example/links/'],
      }),
    ).toEqual([
      '--index-url https://a.example/simple',
      '--extra-index-url https://b.example/simple',
      '--find-links https://c.example/links/',
    ]);
  });

  it('keeps the cache key of an environment that names none, and changes it with each index named', async () => {
    const env = (index = NO_INDEX): Environment => ({
      id: 'main',
      python: 'python3',
      requirements: ['torch', 'numpy'],
      default: true,
      layer: null,
      index,
    });
    const plain = await resolveEnv(env());
    // The key as it was computed before environments could name an index: CI caches keyed by it stay valid.
    const before = crypto
      .createHash('sha256')
      .update(
        JSON.stringify({
          python: plain.interpreter.path,
          version: plain.interpreter.version,
          requirements: ['numpy', 'torch'],
        }),
      )
      .digest('hex')
      .slice(0, 16);
    expect(plain.key).toBe(before);
    const cpu = await resolveEnv(env({ ...NO_INDEX, index_url: 'https://download.pytorch.org/whl/cpu' }));
    const wheels = await resolveEnv(
      env({ ...NO_INDEX, index_url: 'https://download.pytorch.org/whl/cpu', find_links: ['/srv/wheels'] }),
    );
    expect(new Set([plain.key, cpu.key, wheels.key]).size).toBe(3);
    expect(path.basename(cpu.dir)).toBe(`main-${cpu.key}`);
  });
});
