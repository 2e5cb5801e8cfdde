// `benchgrid bisect SPEC --tool T --good REV --bad REV`: the commit that made a tool slower, found by binary
// search over the tool's first-parent line from good to bad (src/change/bisect.ts chooses each step),
// each step a bench-change run of the tool's cells at that revision against good (measureChange), labelled
// by bench-change's own rule (src/change/verdict.ts). Like asv find, after bench-change said "slower".
import fs from 'node:fs';
import path from 'node:path';
import { bisectReport, renderBisectText, type BisectReport, type BisectStep } from '../change/bisect-report.ts';
import { maxSteps, nextStep, type BisectNext } from '../change/bisect.ts';
import { revisionLine, type RevisionLine } from '../change/revisions.ts';
import { changeVerdict } from '../change/verdict.ts';
import { EXIT, UserError } from '../errors.ts';
import { writeAtomic } from '../results/write.ts';
import { timestamp } from '../run/run-plan.ts';
import { toolsNamed } from '../source/apply.ts';
import type { SourceRequest } from '../source/prepare.ts';
import { compareSettings } from '../compare/options.ts';
import { measureChange, type BenchChangeOptions } from '../orchestrate/change.ts';
import type { Measurement } from '../orchestrate/measure.ts';
import { exitForRun } from '../orchestrate/summary.ts';
import { loadSpecAndWarn, type ValidSpec } from './load-spec.ts';

/** Options of `bisect`: bench-change's run and compare options, the revisions and the repository. */
export interface BisectOptions extends Omit<BenchChangeOptions, 'base' | 'head' | 'resume' | 'onlyChanged' | 'sort'> {
  good?: string;
  bad?: string;
  repo?: string;
}

const log = (s: string) => process.stderr.write(`benchgrid: bisect: ${s}\n`);

/**
 * Measures bad against good, then halves the line until the first revision labelled slower is known.
 * Exit 0 when it is found, and when bad is not slower than good (the report says so, `outcome: none`);
 * a step without a verdict stops the search with that step's run exit (5 cells in error, 3 nothing
 * measured); 2 bad input before anything runs.
 */
export async function bisect(specArg: string | undefined, opts: BisectOptions): Promise<void> {
  if (!specArg)
    throw new UserError('bisect needs a spec: benchgrid bisect specs/<name>.yaml --tool TOOL --good REV --bad REV');
  const tool = required(opts.tool, '--tool');
  const [good, bad] = [required(opts.good, '--good'), required(opts.bad, '--bad')];
  const format = opts.json ? 'json' : (opts.format ?? 'table');
  // bench-change's verdict rule is its --fail-on-slower; bisect always applies it, at 0% unless told.
  const settings = compareSettings({ ...opts, failOnSlower: opts.failOnSlower ?? '0' });
  const loaded = await loadSpecAndWarn(specArg, true);
  toolsNamed(loaded.spec, tool, '--tool');
  const line = await revisionLine(path.resolve(opts.repo ?? '.'), good, bad);
  const out = path.resolve(opts.out ?? path.join('results', loaded.spec.name, `bisect-${timestamp()}`));
  if (fs.existsSync(path.join(out, 'bisect.json')))
    throw new UserError(`${out} already holds a bisection (bisect.json); choose another --out.`);
  const head = { spec: loaded.spec.name, tool, max_steps: maxSteps(line.line.length) };
  log(
    `${line.line.length} revision${line.line.length === 1 ? '' : 's'} from ${good} (excluded) to ${bad}; at most ${head.max_steps} steps, each a bench-change run against ${good}; steps in ${path.relative(process.cwd(), out) || out}`,
  );
  const { steps, next, failed } = await search(loaded, specArg, line, { opts, settings, out, head });
  const report = bisectReport(head, line, steps, next);
  writeAtomic(path.join(out, 'bisect.json'), JSON.stringify(report, null, 2) + '\n');
  process.stdout.write(format === 'json' ? JSON.stringify(report, null, 2) + '\n' : renderBisectText(report));
  if (next.kind === 'stuck') {
    if (failed) exitForRun(failed.results, failed.planned);
    throw new UserError(
      `bisect stopped at step ${steps.length}: ${steps[steps.length - 1].verdict.why}.`,
      EXIT.runFailed,
    );
  }
}

interface SearchContext {
  opts: BisectOptions;
  settings: ReturnType<typeof compareSettings>;
  out: string;
  head: Pick<BisectReport, 'spec' | 'tool' | 'max_steps'>;
}

/** The steps, one bench-change run each, until nextStep stops; bisect.json is rewritten after each. */
async function search(
  loaded: ValidSpec,
  specFile: string,
  line: RevisionLine,
  ctx: SearchContext,
): Promise<{ steps: BisectStep[]; next: Exclude<BisectNext, { kind: 'measure' }>; failed: Measurement | null }> {
  const { opts, out } = ctx;
  const steps: BisectStep[] = [];
  const ids = line.line.map((r) => r.id);
  // The run of a step without a verdict: its exit (cells in error, nothing measured) is bisect's.
  let failed: Measurement | null = null;
  for (;;) {
    const next = nextStep(
      ids,
      steps.map((s) => ({ revision: s.revision.id, label: s.verdict.label })),
    );
    if (next.kind !== 'measure') return { steps, next, failed };
    const revision = line.line[ids.indexOf(next.revision)];
    const n = steps.length + 1;
    log(
      `step ${n} of at most ${ctx.head.max_steps}: ${revision.id.slice(0, 12)} against good ${line.good.id.slice(0, 12)}`,
    );
    const requests: SourceRequest[] = [
      { tool: opts.tool!, side: 'base', source: `git:${line.repo}@${line.good.id}`, digest: null },
      { tool: opts.tool!, side: 'head', source: `git:${line.repo}@${revision.id}`, digest: null },
    ];
    // The subjects are probed once: every step builds them the same way.
    const stepOpts = {
      ...opts,
      out: path.join(out, `step-${n}-${revision.id.slice(0, 12)}`),
      probe: opts.probe !== false && n === 1,
    };
    const command = `benchgrid bisect ${specFile} --tool ${opts.tool} (step ${n})`;
    const m = await measureChange(loaded, specFile, { tool: opts.tool!, only: opts.only ?? null }, requests, {
      opts: stepOpts,
      settings: ctx.settings,
      previous: null,
      command,
      name: 'bisect',
      announce: n === 1,
    });
    const verdict = changeVerdict(m.report);
    steps.push({ step: n, revision, verdict, run: m.report.run });
    log(`step ${n}: ${revision.id.slice(0, 12)} ${verdict.label === 'not_slower' ? 'not slower' : verdict.label}`);
    if (verdict.label === 'unknown') failed = m;
    writeAtomic(
      path.join(out, 'bisect.json'),
      JSON.stringify(bisectReport(ctx.head, line, steps, { kind: 'measure', revision: '' }), null, 2) + '\n',
    );
  }
}

function required(value: string | undefined, option: string): string {
  if (value === undefined || value.trim() === '')
    throw new UserError(
      `bisect needs ${option}: e.g. benchgrid bisect SPEC --tool torchlens --good v2.36.0 --bad main`,
    );
  return value;
}
