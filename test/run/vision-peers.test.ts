// The attribution peers (Captum, pytorch-grad-cam, zennit) against forward hooks doing the same arithmetic,
// and the peers at sites inside a ViT encoder block, each cell in a fresh process on small inputs.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import type { Results } from '../../src/results/model.ts';
import { cli, FIXTURES, tmpdir } from '../helpers.ts';
import { cellOf } from './cell-fixtures.ts';

let r: Results;
let out: string;
const cell = (id: string) => cellOf(r, id);
const outcome = (id: string) => {
  const c = cell(id);
  return c.status === 'ok' ? c.exact : `${c.status}: ${c.reason}`;
};

// Every attribution peer's cells (the hooks reference runs inside each of them) and one of the reference's
// own; in the ViT group, the adapters whose mapping of the layer norm and the attention (a tuple output) is
// their own code. Few processes: each builds a ViT-B/16.
const ONLY = [
  'X/*/captum/*',
  'X/*/gradcam@*/*',
  'X/*/zennit@*/*',
  'X/grad_cam/hooks/resnet18',
  'V/matched_retained/nnsight/*',
  'V/matched_retained/tv_fx/*',
  'V/matched_retained/tl_record/*',
  'V/replacement_edit/nnsight/*',
  'V/replacement_edit/tl_bind/*',
  'V/ordered_dataset_features/nnsight/*',
  'V/ordered_dataset_features/tv_fx/*',
  'V/ordered_dataset_features/captum/*',
];

beforeAll(async () => {
  out = path.join(tmpdir(), 'vision');
  const run = await cli(
    ['run', path.join(FIXTURES, 'specs/peers-vision.yaml'), '--out', out, '--start', 'fork', '--only', ONLY.join(',')],
    { timeout: 1_500_000 },
  );
  expect(run.code, run.stderr.slice(-3000)).toBe(0);
  r = loadResults(path.join(out, 'results.json'));
}, 1_600_000);

describe('Grad-CAM', () => {
  it("Captum matches the hand-written map bit for bit on the CNNs, and pytorch-grad-cam within the contract's tolerance", () => {
    for (const subject of ['resnet18', 'vgg11']) {
      expect(outcome(`X/grad_cam/captum/${subject}`), subject).toBe('bit');
      expect(['bit', 'close'], subject).toContain(outcome(`X/grad_cam/gradcam@1.5.7/${subject}`));
    }
    expect(['bit', 'close']).toContain(outcome('X/grad_cam/gradcam@1.5.7/vit_b_16'));
  });

  it("judges Grad-CAM with the contract's own tolerance and the other contracts with the protocol's", () => {
    const exact = (id: string) =>
      JSON.parse(fs.readFileSync(path.join(out, 'processes', id.replaceAll('/', '+'), 'time-0.result.json'), 'utf8'))
        .exact;
    expect(exact('X/grad_cam/gradcam@1.5.7/resnet18')).toMatchObject({ rtol: 1e-5, atol: 1e-4 });
    expect(exact('X/lrp_epsilon/zennit@0.5.1/resnet18')).toMatchObject({ rtol: 1e-5, atol: 1e-6 });
  });

  it('refuses Captum on a ViT token layer, saying why', () => {
    expect(outcome('X/grad_cam/captum/vit_b_16')).toMatch(/^unsupported: .*weight per token instead of per channel/);
  });

  it('marks pytorch-grad-cam for the parameter gradients its loss.backward() fills', () => {
    expect(cell('X/grad_cam/gradcam@1.5.7/resnet18').work?.differs).toEqual(['fills parameter gradients']);
    expect(cell('X/grad_cam/hooks/resnet18').work?.differs).toEqual([]);
    expect(cell('X/grad_cam/captum/resnet18').work?.differs).toEqual([]);
  });

  it("records pytorch-grad-cam's version from its own environment", () => {
    expect(cell('X/grad_cam/gradcam@1.5.7/resnet18').tool_version).toBe('1.5.7');
  });
});

describe('LRP-epsilon and integrated gradients', () => {
  it('zennit with an epsilon composite is the hand-written relevance on ResNet-18 and VGG-11', () => {
    for (const subject of ['resnet18', 'vgg11'])
      expect(['bit', 'close'], subject).toContain(outcome(`X/lrp_epsilon/zennit@0.5.1/${subject}`));
    expect(cell('X/lrp_epsilon/zennit@0.5.1/vgg11').tool_version).toBe('0.5.1');
  });

  it("Captum's LRP agrees where there is no residual addition", () => {
    expect(['bit', 'close']).toContain(outcome('X/lrp_epsilon/captum/vgg11'));
    expect(cell('X/lrp_epsilon/captum/resnet18').status).toBe('unsupported');
  });

  it('Captum and zennit integrate the same right Riemann sum as the reference', () => {
    for (const subject of ['resnet18', 'vgg11']) {
      for (const tool of ['captum', 'zennit@0.5.1'])
        expect(['bit', 'close'], `${tool} ${subject}`).toContain(outcome(`X/integrated_gradients/${tool}/${subject}`));
    }
  });

  it("does the contracts' work, but for pytorch-grad-cam's parameter gradients and Captum's second LRP forward", () => {
    const marked = r.cells.filter((c) => c.group === 'X' && c.status === 'ok' && (c.work?.differs.length ?? 0) > 0);
    expect(
      Object.fromEntries(marked.filter((c) => !c.id.includes('/gradcam@')).map((c) => [c.id, c.work!.differs])),
    ).toEqual({
      'X/lrp_epsilon/captum/vgg11': ['runs the forward twice'],
    });
    expect(r.cells.filter((c) => c.status === 'ok' && !c.work).map((c) => c.id)).toEqual([]);
  });
});

describe('sites inside a ViT encoder block', () => {
  it('nnsight, torchlens and torchvision fx read the layer norm and the attention output exactly', () => {
    for (const tool of ['nnsight', 'tl_record', 'tv_fx'])
      expect(outcome(`V/matched_retained/${tool}/vit_b_16`), tool).toBe('bit');
    for (const tool of ['nnsight', 'tv_fx'])
      expect(outcome(`V/ordered_dataset_features/${tool}/vit_b_16`), tool).toBe('bit');
  });

  it('nnsight and a torchlens binding zero-ablate the attention output exactly', () => {
    for (const tool of ['nnsight', 'tl_bind']) expect(outcome(`V/replacement_edit/${tool}/vit_b_16`), tool).toBe('bit');
  });

  it('Captum is unsupported at the attention module, with the reason found by running it', () => {
    expect(outcome('V/ordered_dataset_features/captum/vit_b_16')).toMatch(
      /^unsupported: .*returns a tuple \(Tensor, NoneType\).*clone/,
    );
  });
});
