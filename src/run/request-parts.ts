// Pure: the parts of a job's request (jobs.ts, buildRequest) that come from the spec alone: the subject
// as the harness builds it, and the tolerances its exactness verdicts are judged with.
import type { ModelDtype, Spec } from '../spec/types.ts';
import type { RequestImageInputs, RequestSubject, RequestTextInputs, RequestTokenInputs } from '../records/request.ts';

/**
 * The tolerance of a "close" verdict: the contract's own where it sets one, else the protocol's for the
 * subject's dtype (a bfloat16 model's results legitimately differ far more than a float32 one's).
 */
export function tolerance(
  contract: Spec['contracts'][string],
  protocol: Spec['protocol'],
  dtype: ModelDtype,
): { rtol: number; atol: number } {
  const base =
    dtype === 'bfloat16' || dtype === 'float16'
      ? protocol.low_precision[dtype]
      : { rtol: protocol.rtol, atol: protocol.atol };
  return { rtol: contract.exactness?.rtol ?? base.rtol, atol: contract.exactness?.atol ?? base.atol };
}

/**
 * A reduced-precision subject's precision control judges the tool at float32 (runners/harness/
 * benchgrid_harness/precision_control.py), so it needs the tolerance a float32 subject of the same contract has.
 */
export function float32Tolerance(
  contract: Spec['contracts'][string],
  protocol: Spec['protocol'],
  dtype: ModelDtype,
): { float32_tolerance?: { rtol: number; atol: number } } {
  return dtype === 'bfloat16' || dtype === 'float16'
    ? { float32_tolerance: tolerance(contract, protocol, 'float32') }
    : {};
}

/** A subject as requests (and the subject probe, probe.ts) carry it: data only, built by the harness. */
export function requestSubject(subject: Spec['subjects'][string]): RequestSubject {
  const m = subject.model;
  const weights =
    m.weights === null
      ? null
      : m.weights.kind === 'hub'
        ? { kind: 'hub' as const, id: m.weights.id }
        : { kind: m.weights.kind, path: m.weights.path };
  return {
    id: subject.id,
    model: {
      builder: m.builder,
      name: m.name ?? subject.id,
      seed: m.seed,
      config: m.config,
      dtype: m.dtype,
      source: m.source,
      weights,
      config_from: m.config_from,
      ...(m.reinit.length > 0 ? { reinit: m.reinit } : {}),
    },
    inputs: requestInputs(subject.inputs),
    sites: subject.sites,
  };
}

/** Inputs as the request schema has them: token inputs carry a vocabulary and are int64, images neither. */
function requestInputs(inputs: Spec['subjects'][string]['inputs']): RequestSubject['inputs'] {
  if (inputs.kind === 'builder') return { kind: 'builder', seed: inputs.seed };
  if (inputs.kind === 'text') {
    const { prompts, tokenizer: t, padding_side } = inputs.text!;
    const tokenizer =
      t.kind === 'hub'
        ? { kind: 'hub' as const, id: t.id }
        : t.kind === 'pretrained'
          ? { kind: 'pretrained' as const, path: t.path }
          : { kind: t.kind };
    return {
      kind: 'text',
      seed: inputs.seed,
      prompts,
      tokenizer,
      padding_side,
      batch_size: inputs.batch_size,
    } satisfies RequestTextInputs;
  }
  // text is null here (another kind's inputs); the request has no such key.
  const { vocab, dtype, text: _text, ...rest } = inputs;
  // The spec's rules require a vocabulary of token inputs and one of the image dtypes of image inputs.
  if (rest.kind === 'tokens')
    return { ...rest, kind: 'tokens', vocab: vocab as number, dtype: 'int64' } satisfies RequestTokenInputs;
  return { ...rest, kind: 'image', dtype: dtype as RequestImageInputs['dtype'] } satisfies RequestImageInputs;
}
