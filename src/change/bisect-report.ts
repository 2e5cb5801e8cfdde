// What bisect reports: the line it searched, every step (revision, verdict, run directory), and the
// first revision labelled slower with its figure; as JSON (`--format json`, and bisect.json beside the
// steps' runs) and as text for a terminal. Pure.
import { change } from '../compare/format.ts';
import { forTerminal } from '../util/escape.ts';
import type { BisectNext } from './bisect.ts';
import type { Revision, RevisionLine } from './revisions.ts';
import type { ChangeVerdict } from './verdict.ts';

/** One step: the revision measured against good, its verdict, and the bench-change run directory that holds it. */
export interface BisectStep {
  step: number;
  revision: Revision;
  verdict: ChangeVerdict;
  run: string;
}

/** Everything bisect reports. */
export interface BisectReport {
  format: 'benchgrid-bisect';
  version: 1;
  spec: string;
  tool: string;
  repo: string;
  good: Revision;
  bad: Revision;
  /** Commits on the first-parent line after good, bad included. */
  revisions: number;
  max_steps: number;
  /** found: `commit` is the first revision labelled slower; none: bad is not slower than good; stuck: a step gave no verdict; running: bisect.json of a bisection under way. */
  outcome: 'found' | 'none' | 'stuck' | 'running';
  commit: (Revision & { verdict: ChangeVerdict; run: string }) | null;
  /** stuck: the revisions that the first slower one is among, oldest first. */
  remaining: Revision[];
  steps: BisectStep[];
  step_count: number;
}

/** The report after the steps so far, given what nextStep says now. */
export function bisectReport(
  head: Pick<BisectReport, 'spec' | 'tool' | 'max_steps'>,
  line: RevisionLine,
  steps: BisectStep[],
  next: BisectNext,
): BisectReport {
  const byId = new Map(line.line.map((r) => [r.id, r]));
  const found = next.kind === 'found' ? (steps.find((s) => s.revision.id === next.revision) ?? null) : null;
  return {
    format: 'benchgrid-bisect',
    version: 1,
    ...head,
    repo: line.repo,
    good: line.good,
    bad: line.bad,
    revisions: line.line.length,
    outcome: next.kind === 'measure' ? 'running' : next.kind,
    commit: found && { ...found.revision, verdict: found.verdict, run: found.run },
    remaining: next.kind === 'stuck' ? next.range.map((id) => byId.get(id)!) : [],
    steps,
    step_count: steps.length,
  };
}

const short = (r: Revision) => r.id.slice(0, 12);
const subject = (r: Revision) => forTerminal(r.subject);

/** A verdict in words: `slower, +312.4% (95% CI +290.0% to +335.1%), hookkit (resnet18)`. */
export function verdictText(v: ChangeVerdict): string {
  const f = v.figure;
  const words = v.label === 'not_slower' ? 'not slower' : v.label;
  if (f === null) return `${words}: ${forTerminal(v.why)}`;
  const iv = f.interval ? ` (95% CI ${change(f.interval.low)} to ${change(f.interval.high)})` : '';
  return `${words}, ${change(f.ratio)}${iv}, ${forTerminal(f.of)}`;
}

/** The terminal text: the line, each step (its revision, then its verdict and run), then the answer. */
export function renderBisectText(r: BisectReport): string {
  const lines = [
    `bisect: ${forTerminal(r.tool)} on ${forTerminal(r.spec)}, ${r.revisions} revision${r.revisions === 1 ? '' : 's'} after good ${short(r.good)} (${subject(r.good)}) up to bad ${short(r.bad)} (${subject(r.bad)}), at most ${r.max_steps} steps`,
    ...r.steps.flatMap((s) => [
      `step ${s.step}: ${short(s.revision)} ${subject(s.revision)}`,
      `  ${verdictText(s.verdict)}; run ${forTerminal(s.run)}`,
    ]),
    '',
  ];
  if (r.outcome === 'found' && r.commit) {
    lines.push(
      `first slower: ${r.commit.id} ${subject(r.commit)}`,
      `  ${verdictText(r.commit.verdict)} (run ${forTerminal(r.commit.run)})`,
    );
  } else if (r.outcome === 'none') {
    lines.push(
      `no slowdown: bad ${short(r.bad)} is not slower than good ${short(r.good)} (${verdictText(r.steps[r.steps.length - 1].verdict)}), so there is nothing to bisect.`,
    );
  } else if (r.outcome === 'stuck') {
    const last = r.steps[r.steps.length - 1];
    lines.push(
      `stopped: step ${last.step} (${short(last.revision)}) gave no verdict (${forTerminal(last.verdict.why)}); the first slower revision is one of ${r.remaining.map(short).join(', ')}.`,
    );
  }
  lines.push(`${r.step_count} step${r.step_count === 1 ? '' : 's'} of at most ${r.max_steps}`);
  return lines.join('\n') + '\n';
}
