// A change's report read as one label, slower or not, by bench-change's own rule: slower exactly when
// `bench-change --fail-on-slower PCT` would exit 4 (a cell, or the tool over its cells, labelled slower
// with the low end of its interval above 1 + PCT/100; src/compare/compute.ts). bisect labels each of its
// steps this way. Pure.
import type { SpeedLabel } from '../compare/model.ts';
import type { StepLabel } from './bisect.ts';
import { failsOnSlower } from './judge.ts';
import type { ChangeReport } from './render.ts';

/** The figure a label stands on: a tool's verdict over its cells, or one cell's label. */
export interface ChangeFigure {
  /** `hookkit (resnet18)` for a tool verdict, the cell id (as the spec names it) for a cell. */
  of: string;
  by: 'tool' | 'cell';
  label: SpeedLabel;
  /** head / base: above 1 is slower. */
  ratio: number | null;
  interval: { low: number; high: number } | null;
}

/** A step's label with the figure it stands on (null when nothing was judged) and why. */
export interface ChangeVerdict {
  label: StepLabel;
  figure: ChangeFigure | null;
  why: string;
}

/**
 * The verdict of a report whose comparison was computed with a --fail-on-slower (bisect sets 0 unless
 * told): slower when it fails; not slower when something was judged and nothing fails; else unknown.
 * The figure is the tool verdict where there is one (three or more cells), else the cells': the failing
 * one with the largest change, else the judged one with the largest change.
 */
export function changeVerdict(report: ChangeReport): ChangeVerdict {
  const c = report.comparison;
  if (c.settings.fail_on_slower === null)
    throw new Error('changeVerdict: the comparison was computed without --fail-on-slower');
  const tools: ChangeFigure[] = (c.tools ?? [])
    .filter((t) => report.tools.includes(t.tool) && t.label !== 'unavailable')
    .map((t) => ({ of: `${t.tool} (${t.subject})`, by: 'tool', label: t.label, ratio: t.ratio, interval: t.interval }));
  const cells: ChangeFigure[] = c.cells
    .filter((x) => x.speed.label !== 'unavailable')
    .map((x) => ({
      of: x.id,
      by: 'cell',
      label: x.speed.label,
      ratio: x.speed.ratio,
      interval: x.speed.interval && { low: x.speed.interval.low, high: x.speed.interval.high },
    }));
  const failing = new Set([...(c.summary.failing ?? []), ...(c.summary.failing_tools ?? [])]);
  const limit = `${+(c.settings.fail_on_slower * 100).toFixed(4)}%`;
  if (failsOnSlower(report)) {
    const figure = largest(
      [...tools, ...cells].filter((f) => failing.has(f.of)),
      tools.some((f) => failing.has(f.of)),
    );
    return { label: 'slower', figure, why: `labelled slower with its whole 95% interval above +${limit}` };
  }
  if (tools.length + cells.length === 0) {
    const t = (c.tools ?? []).find((x) => report.tools.includes(x.tool));
    return {
      label: 'unknown',
      figure: null,
      why: `no cell of ${report.tools.join(', ')} could be compared (${t?.why ?? c.cells.find((x) => x.speed.why)?.speed.why ?? 'no comparable cell'})`,
    };
  }
  return {
    label: 'not_slower',
    figure: largest(tools.length > 0 ? tools : cells, true),
    why: `nothing labelled slower by more than +${limit}`,
  };
}

/** The figure with the largest change; tool verdicts first when `toolsFirst`. */
function largest(figures: ChangeFigure[], toolsFirst: boolean): ChangeFigure | null {
  const pool = toolsFirst && figures.some((f) => f.by === 'tool') ? figures.filter((f) => f.by === 'tool') : figures;
  return pool.reduce<ChangeFigure | null>(
    (best, f) => (best === null || (f.ratio ?? 0) > (best.ratio ?? 0) ? f : best),
    null,
  );
}
