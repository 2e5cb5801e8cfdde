// The subject section of a results file (meta: environment, versions, protocol, A/A noise, model):
// type-checked as load.ts checks the cells, with the model's recorded digests held to their shape.
import { aaPairedOf } from './paired-load.ts';
import {
  bad,
  boundedList,
  child,
  count,
  MAX_PROCESSES,
  oneOf,
  optCount,
  optNonNegative,
  optRecord,
  optText,
  record,
  text,
  textRecord,
  time,
  type At,
} from './fields.ts';
import type { SubjectMeta, SubjectModel, TokensRecord } from './model.ts';
import { MAX_PROMPTS } from '../spec/text-inputs.ts';

/** A subject's meta section, or null where the file has none. */
export function metaOf(v: unknown, at: At): SubjectMeta | null {
  if (v === undefined || v === null) return null;
  const m = record(v, at);
  const aa = m.aa_noise === undefined || m.aa_noise === null ? null : record(m.aa_noise, child(at, 'aa_noise'));
  const aaAt = child(at, 'aa_noise');
  return {
    environment: optRecord(m.environment, child(at, 'environment')),
    versions: textRecord(m.versions, child(at, 'versions')),
    protocol: optRecord(m.protocol, child(at, 'protocol')),
    aa_noise: aa
      ? {
          pairs: optCount(aa.pairs, child(aaAt, 'pairs'), MAX_PROCESSES) ?? 0,
          medians_ms: boundedList(aa.medians_ms ?? [], child(aaAt, 'medians_ms'), 2 * MAX_PROCESSES, 'medians').map(
            (x, i) => time(x, child(child(aaAt, 'medians_ms'), i)),
          ),
          max_rel_diff: optNonNegative(aa.max_rel_diff, child(aaAt, 'max_rel_diff')),
          cell: optText(aa.cell, child(aaAt, 'cell')),
          ...(aa.paired === undefined ? {} : { paired: aaPairedOf(aa.paired, child(aaAt, 'paired')) }),
        }
      : null,
    ...(m.model === undefined ? {} : { model: modelOf(m.model, child(at, 'model')) }),
  };
}

/** A subject's model as recorded: the digest must look like one, so a report never prints markup from it. */
function modelOf(v: unknown, at: At): SubjectModel | null {
  if (v === null) return null;
  const m = record(v, at);
  const w = m.weights === undefined || m.weights === null ? null : record(m.weights, child(at, 'weights'));
  const sha = w ? text(w.sha256, child(child(at, 'weights'), 'sha256')) : null;
  if (sha !== null && !/^sha256:[0-9a-f]{64}$/.test(sha))
    throw bad(child(child(at, 'weights'), 'sha256'), 'sha256: and 64 hex digits', sha);
  return {
    builder: text(m.builder, child(at, 'builder')),
    name: optText(m.name, child(at, 'name')),
    dtype: oneOf(m.dtype, ['float32', 'bfloat16', 'float16', 'float64'] as const, child(at, 'dtype')),
    weights: w
      ? {
          kind: oneOf(w.kind, ['state_dict', 'pretrained', 'hub'] as const, child(child(at, 'weights'), 'kind')),
          source: text(w.source, child(child(at, 'weights'), 'source')),
          sha256: sha!,
        }
      : null,
    ...(m.tokens === undefined ? {} : { tokens: tokensOf(m.tokens, child(at, 'tokens')) }),
  };
}

/** A token count or id in a results file: at most 2**31 (the harness generates no larger tensor). */
const MAX_TOKEN_COUNT = 2 ** 31;

/** Text inputs as recorded: counts that are counts, a digest that is one (reports print them). */
function tokensOf(v: unknown, at: At): TokensRecord {
  const t = record(v, at);
  // Counts from 1 (a prompt has a token), bounded like every count of a results file.
  const positive = (x: unknown, where: At): number => {
    const n = count(x, where, MAX_TOKEN_COUNT);
    if (n < 1) throw bad(where, 'a whole number from 1', x);
    return n;
  };
  const sha = text(t.sha256, child(at, 'sha256'));
  if (!/^[0-9a-f]{64}$/.test(sha)) throw bad(child(at, 'sha256'), '64 hex digits', sha);
  return {
    prompts: positive(t.prompts, child(at, 'prompts')),
    lengths: boundedList(t.lengths, child(at, 'lengths'), MAX_PROMPTS, 'prompts').map((x, i) =>
      positive(x, child(child(at, 'lengths'), i)),
    ),
    padded_to: positive(t.padded_to, child(at, 'padded_to')),
    padding_side: oneOf(t.padding_side, ['left', 'right'] as const, child(at, 'padding_side')),
    pad_id: count(t.pad_id, child(at, 'pad_id'), MAX_TOKEN_COUNT),
    tokenizer: text(t.tokenizer, child(at, 'tokenizer')),
    sha256: sha,
  };
}
