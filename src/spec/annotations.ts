// GitHub Actions workflow commands for diagnostics, so a pull request shows each error on its line.
import path from 'node:path';
import { pointerToDots, type Diagnostic } from './diagnostics.ts';

/** Whether this process runs in a GitHub Actions job (the runner sets GITHUB_ACTIONS=true). */
export function inGitHubActions(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

// https://docs.github.com/actions/reference/workflow-commands-for-github-actions: data escapes %, CR
// and LF; property values also escape ':' and ','.
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** `::error file=...,line=...,col=...::message` for one diagnostic (warnings as `::warning`), file relative to cwd. */
export function annotation(d: Diagnostic, cwd = process.cwd()): string {
  const file = path.isAbsolute(d.file) ? path.relative(cwd, d.file) || d.file : d.file;
  const where = d.path ? `${pointerToDots(d.path)}: ` : '';
  const folded = d.follow_ons?.length ? ` (+${d.follow_ons.length} follow-on errors caused by this one)` : '';
  const props = `file=${escapeProperty(file)},line=${d.line},col=${d.col},title=${escapeProperty(`benchgrid ${d.code}`)}`;
  return `::${d.severity === 'warning' ? 'warning' : 'error'} ${props}::${escapeData(`${where}${d.message}${d.hint ? ` ${d.hint}` : ''}${folded}`)}`;
}
