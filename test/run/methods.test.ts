// logit_lens and the three ablations through the real CLI, in the decoder specs' environments with their real
// libraries: on a tiny GPT-2 and a tiny Llama (grouped-query attention), every tool that implements them agrees
// with forward hooks (bit, or close for TransformerLens's bridge, which computes attention itself), every ablation
// moves the logits (the effect-size guard passes: no cell is vacuous), and the witnesses see the contracts' work.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CellResult } from '../../src/results/model.ts';
import { FIXTURES } from '../helpers.ts';
import { cellOf, runInSpecEnvsBeforeAll } from './cell-fixtures.ts';

const SPEC = path.join(FIXTURES, 'specs/methods.yaml');
const SUBJECTS = ['gpt2', 'llama'];
const ABLATIONS = ['zero_ablation', 'mean_ablation', 'head_ablation'];
/** The tools that implement each contract (the spec reasons out the others). */
const TOOLS: Record<string, string[]> = {
  logit_lens: ['transformers', 'nnsight', 'nnterp', 'pyvene', 'transformer_lens', 'tl_trace_sparse'],
  zero_ablation: ['nnsight', 'nnterp', 'pyvene', 'transformer_lens', 'tl_trace_sparse'],
  mean_ablation: ['nnsight', 'nnterp', 'pyvene', 'transformer_lens', 'tl_trace_sparse'],
  head_ablation: ['nnsight', 'pyvene', 'transformer_lens'],
};
// The environments are the decoder specs' (cached once built; building them is `benchgrid env build`'s job).
const run = runInSpecEnvsBeforeAll(SPEC, 1_500_000);
const cell = (contract: string, tool: string, subject: string): CellResult =>
  cellOf(run.results, `N/${contract}/${tool}/${subject}`);

describe('logit_lens and the ablations on two architectures', () => {
  it('run every cell, and every tool agrees with forward hooks', () => {
    for (const subject of SUBJECTS) {
      for (const [contract, tools] of Object.entries(TOOLS)) {
        for (const tool of ['hooks', ...tools]) {
          const c = cell(contract, tool, subject);
          expect({ id: c.id, status: c.status, reason: c.reason }).toEqual({ id: c.id, status: 'ok', reason: null });
        }
        for (const tool of tools.filter((t) => t !== 'transformer_lens')) {
          expect([contract, tool, subject, cell(contract, tool, subject).exact]).toEqual([
            contract,
            tool,
            subject,
            'bit',
          ]);
        }
        const lens = cell(contract, 'transformer_lens', subject);
        expect([contract, subject, ['bit', 'close'].includes(lens.exact ?? '')]).toEqual([contract, subject, true]);
        expect(lens.max_abs_diff ?? 0).toBeLessThan(1e-5);
      }
    }
  });

  it('ablations move the logits: the guard passes, and agreement is read as a user reads logits', () => {
    for (const subject of SUBJECTS) {
      for (const contract of ABLATIONS) {
        for (const tool of TOOLS[contract]) {
          const c = cell(contract, tool, subject);
          expect([c.id, c.effect?.vacuous]).toEqual([c.id, false]);
          expect(c.effect!.max_abs_diff).toBeGreaterThan(1e-3);
          expect([c.id, c.agreement?.top1_agreement]).toEqual([c.id, 1]);
        }
      }
      // The lens reads: no guard, but its logits carry the task-level figures.
      const lens = cell('logit_lens', 'nnsight', subject);
      expect([lens.effect ?? null, lens.agreement]).toEqual([null, { top1_agreement: 1, tv_distance: 0 }]);
    }
  });

  it('witness the work: one forward per ablation, and the lens unembeds every block beside the forward', () => {
    for (const subject of SUBJECTS) {
      for (const contract of ABLATIONS) {
        for (const tool of ['hooks', ...TOOLS[contract]])
          expect([cell(contract, tool, subject).id, cell(contract, tool, subject).work?.differs]).toEqual([
            cell(contract, tool, subject).id,
            [],
          ]);
      }
      // 3 blocks, then the forward's own unembedding; [3 layers, 2 sequences, 300 logits] of float32.
      for (const tool of ['hooks', ...TOOLS.logit_lens.filter((t) => t !== 'nnterp')]) {
        expect([tool, subject, cell('logit_lens', tool, subject).work?.witnesses[0]]).toMatchObject([
          tool,
          subject,
          { forwards: 4, parameter_grads: false, result_bytes: 3 * 2 * 300 * 4 },
        ]);
      }
      // nnterp's project_on_vocab calls the lm_head envoy inside an nnsight 0.7 trace, which runs `module.forward`
      // (no module hook fires): the witness sees only the forward's own call, the lens is bit-exact all the same
      // (why logit_lens has no fixed work, docs/contracts.md).
      expect(cell('logit_lens', 'nnterp', subject).work?.witnesses[0]).toMatchObject({
        forwards: 1,
        result_bytes: 3 * 2 * 300 * 4,
      });
    }
  });
});
