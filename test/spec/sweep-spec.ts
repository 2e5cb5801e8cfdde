// The spec the sweep tests share: one GPT-2-shaped subject with a line for its sweep.

/** A spec with one GPT-2-shaped subject `gpt2` (its `extra` lines under it) read by raw and hooks. */
export function sweepSpec(extra: string, opts: { group?: string; shape?: string } = {}): string {
  return `benchgrid: 1
name: sweep_test
title: sweep
device: cpu
subjects:
  gpt2:
    label: GPT-2
    model: { builder: gpt2, name: gpt2, seed: 0, config: { n_layer: 2, n_embd: 32, n_head: 2, vocab_size: 100, n_positions: 256 } }
    inputs: { kind: tokens, shape: ${opts.shape ?? '[1, 16]'}, vocab: 100, seed: 0 }
    sites: { mid: transformer.h.1 }
${extra}
contracts:
  single_module_output: { site: mid }
tools:
  raw: { label: plain forward }
  hooks: { label: hooks }
groups:
  A:
    subjects: [gpt2]
    contracts: [single_module_output]
    tools: [raw, hooks]
${opts.group ?? ''}`;
}
