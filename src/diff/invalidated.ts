// What `benchgrid run --changed-since REV SPEC` runs: the cells a spec change since REV requires measuring.
import { UserError } from '../errors.ts';
import { formatDiagnostic } from '../spec/diagnostics.ts';
import { cellsToMeasure } from './compute.ts';
import { compareWithRevision } from './load.ts';

/**
 * Ids of the cells of SPEC as it is now that need measuring after the change since REV: cells added,
 * flipped to planned, or invalidated by a definition change. Renamed cells keep their numbers. A spec
 * that did not exist at REV needs every planned cell. Throws a UserError when a version is invalid.
 */
export async function invalidatedCells(rev: string, specFile: string): Promise<string[]> {
  const report = await compareWithRevision(rev, [specFile]);
  if (report.invalid.length > 0) {
    const lines = report.invalid.flatMap((i) => i.diagnostics.map((d) => formatDiagnostic(d)));
    throw new UserError(
      `cannot tell which cells changed since ${rev}; a version of ${specFile} is invalid:\n${lines.join('\n')}`,
    );
  }
  return report.diffs.length > 0 ? cellsToMeasure(report.diffs[0]) : [];
}
