// Which cells a comparison shows, and in what order: `--only-changed` and `--sort`. Rendering only:
// the statistics, labels and summary counts are the full comparison's. Pure.
import type { CellComparison, Comparison } from './model.ts';

/** How the cells are ordered. */
export type SortOrder = 'file' | 'change' | 'id';

/** What the view keeps. */
export interface ViewOptions {
  onlyChanged: boolean;
  sort: SortOrder;
}

/** The stable first line of the markdown, so a CI job can find and update its own PR comment. */
export const MARKDOWN_MARKER = '<!-- benchgrid:compare -->';

/** A cell worth showing with --only-changed: labelled slower or faster, its status or exactness changed, or on one side only. */
export function isChanged(x: CellComparison): boolean {
  return (
    x.speed.label === 'slower' ||
    x.speed.label === 'faster' ||
    x.status_changed ||
    x.exactness !== null ||
    !x.before ||
    !x.after
  );
}

/**
 * The comparison with its cells filtered and ordered for display; `hidden` counts the cells left out.
 * --only-changed also keeps only the tools labelled slower or faster.
 */
export function viewOf(c: Comparison, opts: ViewOptions): Comparison & { hidden: number } {
  const kept = opts.onlyChanged ? c.cells.filter(isChanged) : [...c.cells];
  const tools =
    opts.onlyChanged && c.tools ? c.tools.filter((t) => t.label === 'slower' || t.label === 'faster') : c.tools;
  if (opts.sort === 'id') kept.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // Largest slowdown first; cells without a ratio keep their file order at the end.
  if (opts.sort === 'change') kept.sort((a, b) => (b.speed.ratio ?? -Infinity) - (a.speed.ratio ?? -Infinity));
  return { ...c, cells: kept, ...(tools ? { tools } : {}), hidden: c.cells.length - kept.length };
}
