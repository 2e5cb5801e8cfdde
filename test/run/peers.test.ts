// Every peer adapter in a fresh process on a tiny input, with its exactness verdict against hooks.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import type { Results } from '../../src/results/model.ts';
import { cli, FIXTURES, tmpdir } from '../helpers.ts';
import { onAllSix } from '../helpers/six-contracts.ts';

let resnet: Results;
let gpt2: Results;
/** Every measured group A cell whose work witnesses differ from its contract's, with the words. */
const marked = (r: Results) =>
  Object.fromEntries(
    r.cells
      .filter((c) => c.group === 'A' && c.status === 'ok' && (c.work?.differs.length ?? 0) > 0)
      .map((c) => [`${c.contract}/${c.tool}`, c.work!.differs]),
  );
const verdicts = (r: Results, tool: string) =>
  Object.fromEntries(
    r.cells
      .filter((c) => c.tool === tool)
      .map((c) => [c.contract, c.status === 'ok' ? c.exact : `${c.status}: ${c.reason}`]),
  );

beforeAll(async () => {
  // No --python: each tool runs in its spec environment (thingsvision has its own, with torch 2.0).
  const a = path.join(tmpdir(), 'resnet');
  const ra = await cli(['run', path.join(FIXTURES, 'specs/peers-resnet.yaml'), '--out', a], { timeout: 1_500_000 });
  expect(ra.code, ra.stderr.slice(-3000)).toBe(0);
  resnet = loadResults(path.join(a, 'results.json'));
  const b = path.join(tmpdir(), 'gpt2');
  const rb = await cli(['run', path.join(FIXTURES, 'specs/peers-gpt2.yaml'), '--out', b], { timeout: 900_000 });
  expect(rb.code, rb.stderr.slice(-3000)).toBe(0);
  gpt2 = loadResults(path.join(b, 'results.json'));
}, 2_400_000);

describe('peer adapters on ResNet-18', () => {
  it('nnsight is bit-exact on all six contracts, the gradient included', () => {
    expect(verdicts(resnet, 'nnsight')).toEqual(onAllSix('bit'));
  });

  it("each torchlens entry point is bit-exact where it runs, and keeps the seed's reasons elsewhere", () => {
    expect(verdicts(resnet, 'tl_trace_sparse')).toEqual(onAllSix('bit'));
    expect(verdicts(resnet, 'tl_record')).toMatchObject({
      single_module_output: 'bit',
      replacement_edit: 'bit',
      repeated_steering: 'bit',
      ordered_dataset_features: 'bit',
    });
    expect(verdicts(resnet, 'tl_extract')).toMatchObject({
      single_module_output: 'bit',
      matched_retained: 'bit',
      ordered_dataset_features: 'bit',
    });
    expect(verdicts(resnet, 'tl_bind')).toMatchObject({ replacement_edit: 'bit', repeated_steering: 'bit' });
    expect(verdicts(resnet, 'tl_extract_dataset').ordered_dataset_features).toBe('bit');
  });

  it('captum reads and takes the layer gradient exactly', () => {
    expect(verdicts(resnet, 'captum')).toMatchObject({
      single_module_output: 'bit',
      matched_retained: 'bit',
      same_site_gradient: 'bit',
      ordered_dataset_features: 'bit',
    });
  });

  it('thingsvision runs in its own environment, and the results say its torch differs', () => {
    const cells = resnet.cells.filter((c) => c.tool === 'thingsvision' && c.status === 'ok');
    expect(cells.map((c) => [c.contract, c.exact])).toEqual([
      ['single_module_output', 'bit'],
      ['ordered_dataset_features', 'bit'],
    ]);
    expect(cells[0].tool_version).toBe('2.7.3');
    expect(cells[0].runtime?.torch).toMatch(/^2\.0\./);
    expect(resnet.versions.torch).toMatch(/^2\.14\./);
  });

  // `draw` needs Graphviz's `dot`, a system program: ok where the machine has it (CI installs it),
  // `unsupported` with the install hint where it does not (the README's commands on a bare machine).
  const hasDot = (process.env.PATH ?? '').split(path.delimiter).some((d) => d && fs.existsSync(path.join(d, 'dot')));
  it(`runs every group B torchlens operation (this machine ${hasDot ? 'has Graphviz: draw is ok' : 'lacks Graphviz: draw is unsupported'})`, () => {
    const b = resnet.cells.filter((c) => c.group === 'B');
    const expected = (contract: string) =>
      contract !== 'draw' || hasDot ? `${contract}: ok` : `${contract}: unsupported`;
    expect(
      b.map(
        (c) =>
          `${c.contract}: ${c.status}${c.status === 'ok' || c.contract !== 'draw' ? (c.reason ? ' ' + c.reason : '') : ''}`,
      ),
    ).toEqual(b.map((c) => expected(c.contract)));
    if (!hasDot)
      expect(b.find((c) => c.contract === 'draw')?.reason).toMatch(/Graphviz.*not on PATH.*install Graphviz/);
    expect(b).toHaveLength(11);
  });

  it("does every contract's work: only Captum's gradient (no parameter gradients) is marked, and every measured cell has witnesses", () => {
    expect(resnet.cells.filter((c) => c.status === 'ok' && !c.work).map((c) => c.id)).toEqual([]);
    expect(marked(resnet)).toEqual({ 'same_site_gradient/captum': ['no parameter gradients'] });
  });

  it('records each tool library version', () => {
    for (const lib of ['nnsight', 'torchlens', 'captum']) expect(resnet.versions[lib], lib).toMatch(/^\d+\.\d+/);
  });
});

describe('peer adapters on a tiny GPT-2', () => {
  it('TransformerBridge is compared with close, the others are bit-exact', () => {
    const tl = verdicts(gpt2, 'transformer_lens');
    for (const [contract, v] of Object.entries(tl)) expect(['close', 'bit'], contract).toContain(v);
    expect(Object.keys(tl)).toHaveLength(6);
    expect(verdicts(gpt2, 'nnsight')).toEqual(Object.fromEntries(Object.keys(tl).map((k) => [k, 'bit'])));
    expect(verdicts(gpt2, 'captum')).toMatchObject({ single_module_output: 'bit', same_site_gradient: 'bit' });
    expect(verdicts(gpt2, 'tl_record')).toMatchObject({ single_module_output: 'bit', replacement_edit: 'bit' });
  });

  it("does every contract's work, TransformerBridge's copy of the model included", () => {
    expect(gpt2.cells.filter((c) => c.status === 'ok' && !c.work).map((c) => c.id)).toEqual([]);
    expect(marked(gpt2)).toEqual({ 'same_site_gradient/captum': ['no parameter gradients'] });
  });
});
