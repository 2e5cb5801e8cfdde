// Writes a run directory's reports (report.md, report.html) beside its results.json; `run` calls this.
import path from 'node:path';
import type { Results } from '../results/model.ts';
import { writeAtomic } from '../results/write.ts';
import type { Spec } from '../spec/types.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import type { ReportInput } from './page.ts';
import { toolLibraries } from './spec.ts';

/** The renderers' input for a results model and an optional spec (tool libraries read from the runner manifests). */
export function reportInput(results: Results, spec: Spec | null | undefined): ReportInput {
  return { results, spec: spec ?? null, libraries: toolLibraries(spec ?? null) };
}

/** Writes `report.md` and `report.html` into a run directory; returns their paths. */
export function writeRunReports(
  dir: string,
  results: Results,
  spec: Spec | undefined,
): { markdown: string; html: string } {
  const input = reportInput(results, spec);
  const markdown = path.join(dir, 'report.md');
  const html = path.join(dir, 'report.html');
  writeAtomic(markdown, renderMarkdown(input));
  writeAtomic(html, renderHtml(input));
  return { markdown, html };
}
