// GitHub Actions workflow commands for diagnostics, so a pull request shows each error on its line.
import path from 'node:path';
import { pointerToDots, type Diagnostic } from './diagnostics.ts';
import { forAnnotation, forAnnotationProperty } from '../util/escape.ts';
import { inGitHubActions } from '../util/terminal.ts';

export { inGitHubActions };

/** `::error file=...,line=...,col=...::message` for one diagnostic (warnings as `::warning`), file relative to cwd. */
export function annotation(d: Diagnostic, cwd = process.cwd()): string {
  const file = path.isAbsolute(d.file) ? path.relative(cwd, d.file) || d.file : d.file;
  const where = d.path ? `${pointerToDots(d.path)}: ` : '';
  const folded = d.follow_ons?.length ? ` (+${d.follow_ons.length} follow-on errors caused by this one)` : '';
  const props = `file=${forAnnotationProperty(file)},line=${d.line},col=${d.col},title=${forAnnotationProperty(`benchgrid ${d.code}`)}`;
  return `::${d.severity === 'warning' ? 'warning' : 'error'} ${props}::${forAnnotation(`${where}${d.message}${d.hint ? ` ${d.hint}` : ''}${folded}`)}`;
}
