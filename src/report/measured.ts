// "How it was measured": protocol, host, versions and A/A noise in sentences, from the results. Pure.
import type { Results, SubjectMeta, TokensRecord } from '../results/model.ts';
import { formatMs, formatPercent } from './format.ts';
import { PLAIN, type Sink } from '../util/escape.ts';
import { betweenRunSentence, noPairingSentence } from './pairing-parts.ts';
import { weightsText } from './subject.ts';

/** How the harness keeps collections out of the samples (docs/protocol.md), said wherever gc costs are shown. */
export const GC_SENTENCE =
  'Garbage collection was off during each timed call and ran, timed, between samples; `+gc` beside a median is the median collection after one call, shown where it is at least 5% of the median.';

/** Sentences describing how the results were measured, one paragraph per subject with metadata. */
export function howMeasured(results: Results, sink: Sink = PLAIN): string[] {
  const out: string[] = [];
  const head: string[] = [];
  if (results.measured_on)
    head.push(
      `Measured on ${sink.text(results.measured_on)}${results.harness ? ` with ${sink.code(results.harness)}` : ''}.`,
    );
  const host = hostText(results);
  if (host) head.push(`Host: ${sink.text(host)}.`);
  if (results.partial) head.push('The run did not finish: cells it did not reach are missing.');
  if (results.cells.some((c) => c.gc_ms)) head.push(GC_SENTENCE);
  const unpaired = noPairingSentence(results);
  if (unpaired) head.push(unpaired);
  const between = betweenRunSentence(results);
  if (between) head.push(sink.text(between));
  if (head.length) out.push(head.join(' '));
  const several = Object.keys(results.subjects).length > 1;
  for (const [subject, s] of Object.entries(results.subjects)) {
    if (!s.meta) continue;
    const label = several ? `**${sink.text(subject)}.** ` : '';
    const none = notMeasuredText(results, subject);
    if (none) {
      out.push(`${label}${none}`);
      continue;
    }
    const parts = [modelText(s.meta, sink), protocolText(s.meta.protocol)];
    const versions = versionsText({ ...results.versions, ...s.meta.versions });
    if (versions) parts.push(`Versions: ${sink.text(versions)}.`);
    const aa = aaText(s.meta, sink);
    if (aa) parts.push(aa);
    out.push(`${label}${parts.filter(Boolean).join(' ')}`);
  }
  return out;
}

/** `Model: python builder models/mixer.py:build, in float32, random weights.`; '' for files without it. */
function modelText(meta: SubjectMeta, sink: Sink): string {
  const m = meta.model;
  if (!m) return '';
  const model = `Model: ${sink.text(m.builder)} builder${m.name ? ` ${sink.code(m.name)}` : ''}, in ${sink.text(m.dtype)}, ${sink.text(weightsText(m.weights))}.`;
  return m.tokens ? `${model} ${sink.text(tokensText(m.tokens))}` : model;
}

/** `Inputs: 3 prompts of 2-65 tokens, left-padded to 65 with id 256 and masked (tokenizer bytes; token ids sha256 1f2e3d4c5b6a).` */
export function tokensText(t: TokensRecord): string {
  const low = Math.min(...t.lengths);
  const high = Math.max(...t.lengths);
  const span = low === high ? `${low}` : `${low}-${high}`;
  return `Inputs: ${t.prompts} prompt${t.prompts === 1 ? '' : 's'} of ${span} tokens, ${t.padding_side}-padded to ${t.padded_to} with id ${t.pad_id} and masked (tokenizer ${t.tokenizer}; token ids sha256 ${t.sha256.slice(0, 12)}), the same in every process.`;
}

/**
 * For a subject every cell of which is unsupported (the 1B Llama of decoders_cpu.yaml, reasoned out on the CPU),
 * the sentence that says so; '' otherwise. No process ran for it, so describing a protocol would claim
 * measurements that were never taken.
 */
export function notMeasuredText(results: Results, subject: string): string {
  const cells = results.cells.filter((c) => c.subject === subject);
  if (cells.length === 0 || cells.some((c) => c.status !== 'unsupported')) return '';
  return `Not measured: all ${cells.length} of its cells are unsupported (reasons in the table).`;
}

/** The protocol in one sentence, from the keys benchgrid and the seed layout both write. */
export function protocolText(p: Record<string, unknown>): string {
  const n = (k: string) => (typeof p[k] === 'number' ? (p[k] as number) : null);
  const processes = n('processes');
  const bits: string[] = [];
  if (processes !== null) bits.push(`Each cell ran in ${processes} fresh Python process${processes === 1 ? '' : 'es'}`);
  const calls: string[] = [];
  const warmups = n('warmups');
  if (warmups !== null) calls.push(`${warmups} warm-up call${warmups === 1 ? '' : 's'}`);
  if (n('samples') !== null)
    calls.push(
      `then up to ${n('samples')} timed calls${n('min_samples') !== null ? ` (at least ${n('min_samples')})` : ''}`,
    );
  if (n('budget_s_per_cell') !== null) calls.push(`within ${n('budget_s_per_cell')} s of timed work per cell`);
  // The wall-clock stop of a process's sampling (docs/protocol.md, Timing), said only where the spec set one.
  const wall = n('max_seconds_per_process');
  if (wall !== null) calls.push(`for at most ${wall} s of wall-clock time from its first timed call`);
  if (calls.length) bits.push(`${bits.length ? ', each making ' : 'Each process made '}${calls.join(', ')}`);
  if (bits.length === 0) return '';
  return `${bits.join('')}. A value is the median of the per-process medians, with the smallest and largest per-process median in brackets.`;
}

/** The host in words: the file's own description, else what the environment says. */
export function hostText(results: Results): string {
  if (typeof results.host.name === 'string' && results.host.name) return results.host.name;
  const env = Object.values(results.subjects).find((s) => s.meta)?.meta?.environment ?? {};
  const bits = [
    env.platform,
    env.cpu_count !== undefined ? `${env.cpu_count} CPUs` : undefined,
    env.gpu_name,
    env.hostname,
  ]
    .filter((x) => x !== undefined && x !== null && x !== '')
    .map(String);
  return bits.join(', ');
}

/** `torch 2.13.0+cu126, nnsight 0.8.1, ...` without unknown versions. */
export function versionsText(v: Record<string, string | null>): string {
  return Object.entries(v)
    .filter(([, x]) => x !== null && x !== undefined && x !== '')
    .map(([k, x]) => `${k} ${x}`)
    .join(', ');
}

/** The A/A noise sentence, or '' when the subject has none. */
export function aaText(meta: SubjectMeta, sink: Sink = PLAIN): string {
  const aa = meta.aa_noise;
  if (!aa || aa.max_rel_diff === null) return '';
  const medians = aa.medians_ms.map(formatMs).join(', ');
  const paired =
    aa.paired?.max_rel_diff != null
      ? ` Paired: the same processes' ratios to raw, each timed against the baseline in its own process, differed by up to ${formatPercent(aa.paired.max_rel_diff)} (ratios ${aa.paired.ratios.map((r) => r.toFixed(3)).join(', ')}): the noise of a paired ratio.`
      : '';
  return `A/A noise: the same cell${aa.cell ? ` (${sink.code(aa.cell)})` : ''} measured in ${aa.pairs} alternating pairs of fresh processes differed by up to ${formatPercent(aa.max_rel_diff)}${medians ? ` (medians ${medians})` : ''}; differences below that are noise.${paired}`;
}
