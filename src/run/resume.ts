// What `run --resume DIR` takes from a run directory. A run directory can come from anywhere (a
// colleague's tarball, a CI artifact), so it is input like a results file (docs/security.md):
// - taken: the journal's records, checked against schemas/journal.schema.json, and its header's spec
//   name and digest, selection (--only, cell ids), schedule, overrides, device, start mode and jobs;
// - not taken: an interpreter. A run started with --python is resumed with --python given again;
//   the header's `python` is never started;
// - the spec: the one named on the command line; else the header's `spec.file`, only when it is an
//   absolute path to a .yaml file outside the run directory whose digest is the header's, and none of
//   its content is echoed when it does not load (the header may name any file: /etc/shadow);
// - no symbolic link inside the directory: a resume writes there, and benchgrid's own run directories
//   hold none;
// - a tool source (`--tool-source`, bench-change's sides) is rebuilt from the journal only when it is an
//   absolute path or repository outside the run directory, as `run` records it: a source the directory
//   holds, or one named relative to where you stand, would have a resume build and install code the
//   directory chose.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { hasErrors, loadSpec } from '../validate/load.ts';
import { inside, linksUnder } from '../util/files.ts';
import { parseSource } from '../source/parse.ts';
import { readJournal, type JournalHeader } from '../records/journal.ts';

/** The header of the run directory to resume, after refusing links in it. */
export function resumableHeader(resume: string): JournalHeader {
  const dir = path.resolve(resume);
  const links = linksUnder(dir, 1);
  if (links.length > 0) {
    throw new UserError(
      `--resume ${resume}: ${links[0]} is a symbolic link; a run directory benchgrid wrote holds none, and a resume writes into it. Start a new run.`,
    );
  }
  const header = readJournal(dir).header;
  if (!header)
    throw new UserError(
      `--resume ${resume}: no journal.jsonl there; give the directory of a run started by \`benchgrid run\`.`,
    );
  return header;
}

/**
 * The spec file a resume loads, and whether to show its diagnostics: the command line's (shown), else
 * the journal's after the checks above (not shown: the run directory chose that file).
 */
export function resumeSpecFile(
  header: JournalHeader,
  resume: string,
  specArg: string | undefined,
): { file: string; trusted: boolean } {
  if (specArg) return { file: specArg, trusted: true };
  const file = header.spec.file;
  const give = `Give the spec on the command line: benchgrid run SPEC --resume ${resume}`;
  if (!path.isAbsolute(file) || !/\.ya?ml$/i.test(file))
    throw new UserError(
      `--resume ${resume}: the journal names the spec ${JSON.stringify(file)}, which is not an absolute path to a .yaml file. ${give}.`,
    );
  let real: string;
  try {
    real = fs.realpathSync(file);
    if (!fs.statSync(real).isFile()) throw new Error('not a file');
  } catch {
    throw new UserError(
      `--resume ${resume}: the spec this run was started from, ${file}, is not a file here. ${give}.`,
    );
  }
  if (inside(real, fs.realpathSync(resume)))
    throw new UserError(
      `--resume ${resume}: the journal names a spec inside the run directory (${file}); a resume takes no spec from the directory it resumes. ${give}.`,
    );
  return { file, trusted: false };
}

/** Loads the spec the journal named; its diagnostics are not printed (they would quote the file). */
export async function loadJournalSpec(file: string, resume: string): Promise<void> {
  const loaded = await loadSpec(file);
  if (hasErrors(loaded.diagnostics)) {
    const n = loaded.diagnostics.filter((d) => d.severity === 'error').length;
    throw new UserError(
      `--resume ${resume}: the spec the journal names, ${file}, does not load (${n} error${n === 1 ? '' : 's'}, not shown because the run directory chose that file). Give the spec on the command line: benchgrid run SPEC --resume ${resume}.`,
    );
  }
}

/** The interpreter of a resume: --python when given; a run started with --python needs it again. */
export function resumePython(header: JournalHeader, python: string | undefined, resume: string): string | undefined {
  if (python || !header.python) return python;
  throw new UserError(
    `--resume ${resume}: this run was started with --python ${JSON.stringify(header.python)}; a resume does not start an interpreter its run directory names. Give it again: ${resumeCommand(resume, header)}`,
  );
}

/** The command that resumes a run directory (with --python when the run was started with it). */
export function resumeCommand(dir: string, header: Pick<JournalHeader, 'python'>): string {
  const rel = path.relative(process.cwd(), dir) || dir;
  return `benchgrid run --resume ${rel}${header.python ? ` --python ${header.python}` : ''}`;
}

/** Refuses a journal's tool source that a resume would build from inside the run directory or a relative path. */
export function checkResumeSources(header: JournalHeader, resume: string): void {
  const dir = path.resolve(resume);
  for (const r of header.tool_sources ?? []) {
    const s = parseSource(r.source, `--resume ${resume}`, true);
    const where = s.kind === 'tree' ? s.path : s.kind === 'git' ? s.repo : null;
    if (s.kind === 'pinned' || (where !== null && path.isAbsolute(where) && !inside(path.resolve(where), dir)))
      continue;
    throw new UserError(
      `--resume ${resume}: the journal names the source ${JSON.stringify(r.source)} for ${JSON.stringify(r.tool)}, which is not an absolute path outside the run directory as benchgrid records one; a resume does not build code its run directory chose. Start a new run with --tool-source.`,
    );
  }
}
