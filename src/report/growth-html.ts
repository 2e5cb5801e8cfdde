// The growth families on the HTML report: per family, a log-log line chart of each tool's median against the
// swept value with a band from its smallest to its largest per-process median (inline SVG: no script, so
// the page's script policy is untouched), then the markdown page's table. Pure.
import { escapeHtml, formatMs } from './format.ts';
import { growthFamilies, type GrowthFamily } from './growth.ts';
import { familyTitle, formatFit, GROWTH_SENTENCE, growthTableRows } from './growth-text.ts';
import type { ReportInput } from './page.ts';

const W = 640;
const H = 300;
const M = { left: 70, right: 20, top: 16, bottom: 40 };
const COLOURS = ['#444444', '#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#bcbd22'];

/** The growth section of the HTML report; nothing for results without sweeps. */
export function growthHtml({ results }: ReportInput): string[] {
  const families = growthFamilies(results);
  if (families.length === 0) return [];
  const parts = families.map((f) => {
    const { head, rows } = growthTableRows(f);
    const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
    const trs = rows.map((r) => `<tr>${r.map((v) => `<td>${escapeHtml(v)}</td>`).join('')}</tr>`).join('\n');
    return `<h4>${escapeHtml(familyTitle(f))}</h4>\n${chartSvg(f)}\n<table><tr>${th}</tr>\n${trs}\n</table>`;
  });
  return [`<section class="page-section" id="growth"><h3>Growth</h3>\n<p class="note">${escapeHtml(GROWTH_SENTENCE)} Chart: log-log, each line through a tool's medians, its band from the smallest to the largest per-process median.</p>\n${parts.join('\n')}</section>`];
}

/** The family's chart: a line and a band per tool over log x and log time, with a legend of the fits. */
function chartSvg(f: GrowthFamily): string {
  const measured = f.tools.flatMap((s) => s.cells.flatMap((c) => (c && c.status === 'ok' && c.min_ms && c.max_ms && c.min_ms > 0 ? [c.min_ms, c.max_ms] : [])));
  if (measured.length === 0) return '<p class="muted">Nothing in this family was measured.</p>';
  const [x0, x1] = [Math.log(f.values[0]), Math.log(f.values[f.values.length - 1])];
  const [y0, y1] = [Math.log(Math.min(...measured)) - 0.1, Math.log(Math.max(...measured)) + 0.1];
  const px = (v: number) => M.left + ((Math.log(v) - x0) / (x1 - x0 || 1)) * (W - M.left - M.right);
  const py = (t: number) => H - M.bottom - ((Math.log(t) - y0) / (y1 - y0 || 1)) * (H - M.top - M.bottom);
  const p = (x: number, y: number) => `${x.toFixed(1)},${y.toFixed(1)}`;
  const series = f.tools.map((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const at = s.cells.flatMap((c, j) => (c && c.status === 'ok' && c.median_ms && c.min_ms && c.max_ms && c.min_ms > 0 ? [{ v: f.values[j], c }] : []));
    const band = [...at.map(({ v, c }) => p(px(v), py(c.max_ms!))), ...[...at].reverse().map(({ v, c }) => p(px(v), py(c.min_ms!)))].join(' ');
    const line = at.map(({ v, c }) => p(px(v), py(c.median_ms!))).join(' ');
    const dots = at.map(({ v, c }) => `<circle cx="${px(v).toFixed(1)}" cy="${py(c.median_ms!).toFixed(1)}" r="3" fill="${colour}"><title>${escapeHtml(`${s.tool}, ${f.key}=${v}: ${formatMs(c.median_ms!)}`)}</title></circle>`).join('');
    return `<polygon points="${band}" fill="${colour}" fill-opacity="0.18" stroke="none"/><polyline points="${line}" fill="none" stroke="${colour}" stroke-width="2"/>${dots}`;
  });
  const xTicks = f.values.map((v) => `<text x="${px(v).toFixed(1)}" y="${H - M.bottom + 16}" text-anchor="middle" font-size="11">${escapeHtml(String(v))}</text>`).join('');
  const yTicks = [Math.exp(y0 + 0.1), Math.exp((y0 + y1) / 2), Math.exp(y1 - 0.1)].map((t) => `<text x="${M.left - 6}" y="${(py(t) + 4).toFixed(1)}" text-anchor="end" font-size="11">${escapeHtml(formatMs(t))}</text>`).join('');
  const legend = f.tools.map((s, i) => `<tspan x="${M.left + 8}" dy="${i === 0 ? 0 : 14}" fill="${COLOURS[i % COLOURS.length]}">${escapeHtml(`${s.tool}: t ~ ${formatFit(f.key, s.time) || 'no fit'}`)}</tspan>`).join('');
  const axes = `<line x1="${M.left}" y1="${H - M.bottom}" x2="${W - M.right}" y2="${H - M.bottom}" stroke="#888"/><line x1="${M.left}" y1="${M.top}" x2="${M.left}" y2="${H - M.bottom}" stroke="#888"/>`;
  const label = `<text x="${(M.left + W - M.right) / 2}" y="${H - 6}" text-anchor="middle" font-size="12">${escapeHtml(f.key)}</text>`;
  return `<svg class="growth-chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${escapeHtml(`Median time against ${f.key}: ${familyTitle(f)}`)}">${axes}${series.join('')}${xTicks}${yTicks}${label}<text x="0" y="${M.top + 10}" font-size="11">${legend}</text></svg>`;
}
