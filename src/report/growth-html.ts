// The growth families on the HTML report: per family, side by side, each tool's paired x raw against the
// swept value with its 95% interval as a band (the figure the exponents judge), its median time with the
// band of its per-process medians, and its peak memory where the memory processes recorded one; then the
// markdown page's table. Pure.
import { formatPublished } from '../results/published.ts';
import { escapeHtml, formatBytes, formatMs } from './format.ts';
import { chartSvg, type ChartPoint, type ChartSeries } from './growth-chart.ts';
import {
  growthFamilies,
  growthMemory,
  memoryPeaks,
  type GrowthCell,
  type GrowthFamily,
  type GrowthMemory,
} from './growth.ts';
import { familyTitle, formatFit, GROWTH_SENTENCE, growthTableRows, VERDICT_WORDS } from './growth-text.ts';
import type { ReportInput } from './page.ts';

const COLOURS = [
  '#444444',
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#9467bd',
  '#ff7f0e',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#bcbd22',
];

/** What the charts draw, under the section's heading. */
const CHARTS_SENTENCE =
  "Charts, log-log: x raw (each line through a tool's published x raw, its band the 95% interval where the cell paired, else the extremes of the two cells' process medians; the dashed line is 1.00x), the median time (its band from the smallest to the largest per-process median), and the peak memory of the memory processes (its band from the smallest to the largest process) where recorded.";

/** The growth section of the HTML report; nothing for results without sweeps. */
export function growthHtml({ results }: ReportInput): string[] {
  const families = growthFamilies(results);
  if (families.length === 0) return [];
  const parts = families.map((f) => {
    const { head, rows } = growthTableRows(f);
    const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
    const trs = rows.map((r) => `<tr>${r.map((v) => `<td>${escapeHtml(v)}</td>`).join('')}</tr>`).join('\n');
    return `<h4>${escapeHtml(familyTitle(f))}</h4>\n<div class="growth-charts" style="display:flex;flex-wrap:wrap;gap:12px">${familyCharts(f).join('')}</div>\n<table><tr>${th}</tr>\n${trs}\n</table>`;
  });
  return [
    `<section class="page-section" id="growth"><h3>Growth</h3>\n<p class="note">${escapeHtml(GROWTH_SENTENCE)} ${escapeHtml(CHARTS_SENTENCE)}</p>\n${parts.join('\n')}</section>`,
  ];
}

/** The family's charts: x raw first, then time, then memory where any was recorded. */
function familyCharts(f: GrowthFamily): string[] {
  const title = familyTitle(f);
  const plot = familyPlot(f);
  const charts = [
    chartSvg({
      kind: 'growth-ratio-chart',
      key: f.key,
      values: f.values,
      series: ratioSeries(plot),
      format: (y) => `${y.toFixed(2)}x`,
      label: `x raw against ${f.key}: ${title}`,
      rule: 1,
    }),
    chartSvg({
      kind: 'growth-chart',
      key: f.key,
      values: f.values,
      series: timeSeries(plot),
      format: formatMs,
      label: `Median time against ${f.key}: ${title}`,
      rule: null,
    }),
  ];
  const memory = growthMemory(f);
  if (memory) {
    charts.push(
      chartSvg({
        kind: 'growth-memory-chart',
        key: f.key,
        values: f.values,
        series: memorySeries(plot, memory),
        format: formatBytes,
        label: `${memory.label} against ${f.key}: ${title}`,
        rule: null,
      }),
    );
  }
  return charts;
}

/** What the series of one family's charts share: each tool's colour, its points, and their hover titles. */
interface FamilyPlot {
  f: GrowthFamily;
  colour: (tool: string) => string;
  /** The point at the family's j-th value; none where there is no positive value to draw on a log axis. */
  point: (j: number, y: number | null, low: number | null, high: number | null, title: string) => ChartPoint[];
  /** The start of a point's title: the tool and the swept value. */
  at: (tool: string, j: number) => string;
}

function familyPlot(f: GrowthFamily): FamilyPlot {
  return {
    f,
    colour: (tool) =>
      COLOURS[
        Math.max(
          0,
          f.tools.findIndex((s) => s.tool === tool),
        ) % COLOURS.length
      ],
    point: (j, y, low, high, title) => (y !== null && y > 0 ? [{ x: f.values[j], y, low, high, title }] : []),
    at: (tool, j) => `${tool}, ${f.key}=${f.values[j]}`,
  };
}

const ok = (c: GrowthCell | null): c is GrowthCell => c !== null && c.status === 'ok';

/** Each tool's published x raw, for the tools that have one. */
function ratioSeries({ f, colour, point, at }: FamilyPlot): ChartSeries[] {
  return f.tools
    .filter((s) => s.cells.some((c) => c?.x_raw))
    .map((s) => ({
      name: s.tool,
      colour: colour(s.tool),
      points: s.cells.flatMap((c, j) =>
        ok(c) && c.x_raw
          ? point(j, c.x_raw.ratio, c.x_raw.low, c.x_raw.high, `${at(s.tool, j)}: ${formatPublished(c.x_raw)}`)
          : [],
      ),
      // The exponent alone (its interval is in the table below): a legend line must fit the chart's width.
      legend: `${s.tool}: overhead${s.overhead ? ` ~ ${f.key}^${s.overhead.exponent.toFixed(2)}` : ''}, ${s.verdict ? VERDICT_WORDS[s.verdict] : 'not judged'}`,
    }));
}

/** Each tool's median time, its band from the smallest to the largest per-process median. */
function timeSeries({ f, colour, point, at }: FamilyPlot): ChartSeries[] {
  return f.tools.map((s) => ({
    name: s.tool,
    colour: colour(s.tool),
    points: s.cells.flatMap((c, j) =>
      ok(c) && c.median_ms !== null
        ? point(j, c.median_ms, c.min_ms, c.max_ms, `${at(s.tool, j)}: ${formatMs(c.median_ms)}`)
        : [],
    ),
    legend: `${s.tool}: t ~ ${formatFit(f.key, s.time) || 'no fit'}`,
  }));
}

/** Each tool's peak memory, its band from the smallest to the largest memory process. */
function memorySeries({ f, colour, point, at }: FamilyPlot, memory: GrowthMemory): ChartSeries[] {
  return f.tools.map((s) => ({
    name: s.tool,
    colour: colour(s.tool),
    points: s.cells.flatMap((c, j) => {
      const bytes = ok(c) ? memoryPeaks(c, memory) : [];
      if (bytes.length === 0) return [];
      const [low, high] = [Math.min(...bytes), Math.max(...bytes)];
      // One memory process has no spread to draw: its point stands alone on the line.
      return point(
        j,
        high,
        bytes.length > 1 ? low : null,
        bytes.length > 1 ? high : null,
        `${at(s.tool, j)}: ${memory.label} ${formatBytes(high)}`,
      );
    }),
    legend: `${s.tool}: ${memory.label}`,
  }));
}
