// One log-log line chart of the growth section (src/report/growth-html.ts): per series a line through its
// points and a band from each point's low to its high, over log x and log y, as inline SVG (no script, so
// the page's script policy is untouched). Every figure is handed in already formatted. Pure.
import { escapeHtml } from './format.ts';

/** One point of a series: the value, the figure there, and its band (both null: no band at that point). */
export interface ChartPoint {
  x: number;
  y: number;
  low: number | null;
  high: number | null;
  /** The point's tooltip. */
  title: string;
}

export interface ChartSeries {
  name: string;
  colour: string;
  points: ChartPoint[];
  /** The series' line in the legend. */
  legend: string;
}

export interface GrowthChart {
  /** The `class` of the svg: `growth-chart`, `growth-ratio-chart`, `growth-memory-chart`. */
  kind: string;
  /** The swept key, under the x axis, and the swept values, its ticks. */
  key: string;
  values: number[];
  series: ChartSeries[];
  /** How a y value reads on the axis (`1.2 ms`, `1.50x`, `300.0 MiB`). */
  format: (y: number) => string;
  /** The chart's accessible name. */
  label: string;
  /** A dashed horizontal line at this y (1.0 on the x raw chart), always in view; null for none. */
  rule: number | null;
}

const W = 440;
const H = 280;
const M = { left: 64, right: 14, top: 14, bottom: 40 };

/** The chart's SVG; a note instead where no series has a positive point. */
export function chartSvg(c: GrowthChart): string {
  const ys = c.series
    .flatMap((s) => s.points.flatMap((p) => [p.y, p.low ?? p.y, p.high ?? p.y]))
    .filter((y) => y > 0 && Number.isFinite(y));
  if (ys.length === 0) return '<p class="muted">Nothing in this family was measured.</p>';
  if (c.rule !== null) ys.push(c.rule);
  const [x0, x1] = [Math.log(c.values[0]), Math.log(c.values[c.values.length - 1])];
  const [y0, y1] = [Math.log(Math.min(...ys)) - 0.1, Math.log(Math.max(...ys)) + 0.1];
  const px = (v: number) => M.left + ((Math.log(v) - x0) / (x1 - x0 || 1)) * (W - M.left - M.right);
  const py = (y: number) => H - M.bottom - ((Math.log(y) - y0) / (y1 - y0 || 1)) * (H - M.top - M.bottom);
  const p = (x: number, y: number) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`;
  const series = c.series.map((s) => {
    const at = s.points.filter((q) => q.y > 0 && Number.isFinite(q.y));
    // The band joins the points that have one; a point without a band is drawn on the line alone.
    const banded = at.filter((q) => q.low !== null && q.high !== null && q.low > 0 && q.high > 0);
    const band =
      banded.length > 0
        ? `<polygon points="${[...banded.map((q) => p(q.x, q.high!)), ...[...banded].reverse().map((q) => p(q.x, q.low!))].join(' ')}" fill="${s.colour}" fill-opacity="0.18" stroke="none"/>`
        : '';
    const line = `<polyline points="${at.map((q) => p(q.x, q.y)).join(' ')}" fill="none" stroke="${s.colour}" stroke-width="2"/>`;
    const dots = at
      .map(
        (q) =>
          `<circle cx="${px(q.x).toFixed(1)}" cy="${py(q.y).toFixed(1)}" r="3" fill="${s.colour}"><title>${escapeHtml(q.title)}</title></circle>`,
      )
      .join('');
    return `${band}${line}${dots}`;
  });
  const rule =
    c.rule !== null
      ? `<line class="rule" x1="${M.left}" y1="${py(c.rule).toFixed(1)}" x2="${W - M.right}" y2="${py(c.rule).toFixed(1)}" stroke="#888" stroke-dasharray="4 3"/>`
      : '';
  const xTicks = c.values
    .map(
      (v) =>
        `<text x="${px(v).toFixed(1)}" y="${H - M.bottom + 16}" text-anchor="middle" font-size="11">${escapeHtml(String(v))}</text>`,
    )
    .join('');
  const yTicks = [Math.exp(y0 + 0.1), Math.exp((y0 + y1) / 2), Math.exp(y1 - 0.1)]
    .map(
      (y) =>
        `<text x="${M.left - 6}" y="${(py(y) + 4).toFixed(1)}" text-anchor="end" font-size="11">${escapeHtml(c.format(y))}</text>`,
    )
    .join('');
  const legend = c.series
    .map(
      (s, i) => `<tspan x="${M.left + 8}" dy="${i === 0 ? 0 : 14}" fill="${s.colour}">${escapeHtml(s.legend)}</tspan>`,
    )
    .join('');
  const axes = `<line x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}" stroke="#888"/><line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${H - M.bottom}" stroke="#888"/>`;
  const key = `<text x="${(M.left + W - M.right) / 2}" y="${H - 6}" text-anchor="middle" font-size="12">${escapeHtml(c.key)}</text>`;
  return `<svg class="${escapeHtml(c.kind)}" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(c.label)}">${axes}${rule}${series.join('')}${xTicks}${yTicks}${key}<text x="0" y="${M.top + 10}" font-size="11">${legend}</text></svg>`;
}
