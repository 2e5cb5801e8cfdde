// Spec lines the tests that run a tiny two-block decoder share.

/**
 * activation_patching at `position`, the prompt's last: the block site is the last of two blocks, so an earlier
 * position's output never reaches the last position's logits (the effect-size guard would call the cells vacuous).
 */
export const lastPositionPatching = (
  position: number,
) => `  # The last position: the block site is the last of two blocks, whose output at an earlier position never
  # reaches the last position's logits (the effect-size guard would call the cells vacuous).
  activation_patching: { site: block, params: { position: ${position}, answer_token: 10, wrong_token: 20, corrupt_seed: 1 } }`;

/** The tools a decoder row compares: the plain forward, forward hooks (the reference), nnsight and TransformerLens. */
export const DECODER_TOOLS = `tools:
  raw: { label: plain forward }
  hooks: { label: forward hooks }
  nnsight: { label: nnsight }
  transformer_lens: { label: TransformerLens }`;
