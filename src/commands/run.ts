// `benchgrid run <spec>`: every planned cell in fresh Python processes; journal, results, reports.
import { UserError } from '../errors.ts';
import { checkResumeSources, loadJournalSpec, resumableHeader, resumePython, resumeSpecFile } from '../run/resume.ts';
import type { RunPlan } from '../run/run-plan.ts';
import { prepareSources, toolSourceRequests, type SourceRequest } from '../source/prepare.ts';
import type { JournalHeader } from '../records/journal.ts';
import { executorNamed } from '../executors/registry.ts';
import { checkSameSpec, headerOf } from '../orchestrate/header.ts';
import { measure, type RunOptions } from '../orchestrate/measure.ts';
import { exitForRun } from '../orchestrate/summary.ts';
import { loadSpecAndWarn } from './load-spec.ts';

export type { RunOptions };

const log = (s: string) => process.stderr.write(`benchgrid: ${s}\n`);

/** Runs a spec (or resumes a run directory); the exit says how it went (exitForRun), 130 when interrupted. */
export async function run(specArg: string | undefined, opts: RunOptions): Promise<void> {
  // Looked up once: it either submits the run elsewhere, or runs the processes measure() plans here.
  const executor = await executorNamed(opts.executor ?? 'local');
  if (executor.submit) return executor.submit(specArg, opts);
  const previous = opts.resume ? resumableHeader(opts.resume) : null;
  if (previous?.change)
    throw new UserError(
      `--resume ${opts.resume}: this is a bench-change run; resume it with \`benchgrid bench-change --resume ${opts.resume}\`, which also prints its comparison.`,
    );
  if (previous && opts.toolSource?.length)
    throw new UserError(
      '--resume takes the sources the run started with (its journal records them); drop --tool-source.',
    );
  if (previous) checkResumeSources(previous, opts.resume!);
  const named = previous
    ? resumeSpecFile(previous, opts.resume!, specArg)
    : specArg
      ? { file: specArg, trusted: true }
      : null;
  if (!named) throw new UserError('run needs a spec: benchgrid run specs/<name>.yaml');
  const specFile = named.file;
  if (!named.trusted) await loadJournalSpec(specFile, opts.resume!);
  const python = previous ? resumePython(previous, opts.python, opts.resume!) : opts.python;
  const loaded = await loadSpecAndWarn(specFile, true, opts.allowDownloads === true);
  checkSameSpec(previous, loaded.spec, specFile);
  const prepared = await prepareSources(loaded, previous?.tool_sources ?? toolSourceRequests(opts.toolSource ?? []));
  if (prepared.byTool.size > 0 && python)
    throw new UserError(
      '--python runs every cell with one interpreter, where a tool from --tool-source is not installed. Run without --python.',
    );
  const header = previous ?? (await newHeader(specFile, loaded.spec, opts, prepared.requests));
  if (!header) return;
  const command = `benchgrid run ${opts.resume ? `--resume ${opts.resume}` : specFile}`;
  const { dir, results, planned } = await measure(
    { ...loaded, ...prepared },
    header,
    { ...opts, python, fresh: !previous },
    { command, executor },
  );
  // Loaded only when asked for: compare's statistics and tables are no part of a plain run.
  if (opts.compareLast) (await import('../compare/previous.ts')).compareWithPrevious(dir, results, loaded.spec.name);
  exitForRun(results, planned);
}
/** The header of a new run; null when --changed-since finds nothing to run. */
async function newHeader(
  specFile: string,
  spec: RunPlan['spec'],
  opts: RunOptions,
  sources: SourceRequest[],
): Promise<JournalHeader | null> {
  let cells: string[] | null = null;
  if (opts.changedSince) {
    const { invalidatedCells } = await import('../diff/invalidated.ts');
    cells = await invalidatedCells(opts.changedSince, specFile);
    if (cells.length === 0) {
      log(`no cell of ${spec.name} changed since ${opts.changedSince}; nothing to run.`);
      return null;
    }
  }
  return headerOf(specFile, spec, opts, { cells, sources });
}
