// Pieces of the HTML report: chart data, the status matrix, key-value tables, raw samples. Pure.
import type { CellResult } from '../results/model.ts';
import { cellRange, escapeHtml, exactnessCell, exactText, formatBytes, formatMs } from './format.ts';
import type { Grid } from './grid.ts';
import type { PageEntryView, PageSectionView } from './page.ts';

/** What the page script needs to draw one section's chart. */
export interface ChartData {
  canvas: string;
  /** Short category labels (lines), full labels for tooltips. */
  labels: string[][];
  full: string[][];
  median: number[];
  range: [number, number][];
  colors: string[];
  /** Log scale when the values span a decade or more. */
  log: boolean;
}

/** Row colours of the charts: one per page row, in order. */
export const PALETTE = ['#0969da', '#bf3989', '#1a7f37', '#bc4c00', '#8250df', '#0a7d8c', '#9a6700', '#cf222e'];

const plain = (s: string) => s.replace(/`/g, '');
const short = (s: string) => (s.length > 56 ? `${s.slice(0, 55)}…` : s);

/** A chart row's axis label: the tool, then the row label without `prefix` (the title's start, which every row repeats), each cut to 56 characters. */
export function chartLabel(e: PageEntryView, prefix: string): string[] {
  const row = prefix && e.rowLabel.startsWith(prefix) ? e.rowLabel.slice(prefix.length) : e.rowLabel;
  return [short(plain(e.toolLabel)), short(plain(row))];
}

/** A chart row's tooltip title: the full tool and row labels (with the process count). */
export function chartTitle(e: PageEntryView): string[] {
  return [plain(e.toolLabel), plain(e.label)];
}

/** Chart data of a page section: one bar per measured entry, coloured by row; null when nothing was measured. */
export function chartData(section: PageSectionView, index: number, prefix: string): ChartData | null {
  const measured = section.entries.filter((e) => e.kind === 'measured' && e.result);
  if (measured.length === 0) return null;
  const rows = [...new Set(measured.map((e) => e.rowLabel))];
  const range = measured.map((e): [number, number] => {
    const c = e.result!;
    return [c.min_ms ?? c.median_ms!, c.max_ms ?? c.median_ms!];
  });
  const lo = Math.min(...range.map((r) => r[0]));
  const hi = Math.max(...range.map((r) => r[1]));
  return {
    canvas: `chart-${index}`,
    labels: measured.map((e) => chartLabel(e, prefix)),
    full: measured.map(chartTitle),
    median: measured.map((e) => e.result!.median_ms!),
    range,
    colors: measured.map((e) => PALETTE[rows.indexOf(e.rowLabel) % PALETTE.length]),
    log: lo > 0 && hi / lo >= 10,
  };
}

/** Inline markdown of labels and sentences: `code` and **bold**, everything else escaped. */
export function inlineMd(text: string): string {
  return escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

/** The status matrix of one grid: reasons in `title` attributes and listed under the table. */
export function matrixHtml(grid: Grid): string {
  const head = `<tr><th></th>${grid.tools.map((t) => `<th>${escapeHtml(t)}</th>`).join('')}</tr>`;
  const body = grid.contracts
    .map((contract, i) => {
      const tds = grid.rows[i].map((cell) => {
        if (cell.kind === 'absent') return '<td class="absent"></td>';
        const c = cell.result!;
        const title = cell.kind === 'ok' ? okTitle(c) : (c.reason ?? c.error?.message ?? '');
        const cls = cell.kind === 'ok' && (c.exact === 'mismatch' || c.exact === 'vacuous') ? 'ok mismatch' : cell.kind;
        return `<td class="${cls}" title="${escapeHtml(title)}" data-cell="${escapeHtml(c.id)}">${escapeHtml(cell.text)}</td>`;
      });
      return `<tr><th>${escapeHtml(contract)}</th>${tds.join('')}</tr>`;
    })
    .join('\n');
  const reasons = grid.reasons.length
    ? `<ul class="reasons">${grid.reasons.map((r) => `<li>(${escapeHtml(r.key)}) ${r.kind === 'error' ? '<strong>failed:</strong> ' : ''}${escapeHtml(r.reason)}</li>`).join('')}</ul>`
    : '';
  return `<table class="matrix">\n${head}\n${body}\n</table>\n${reasons}`;
}

function okTitle(c: CellResult): string {
  const bits = [cellRange(c) ?? 'ok'];
  const exact = c.exact === 'vacuous' || c.exact === 'degraded' || c.agreement ? exactnessCell(c) : exactText(c.exact);
  if (exact)
    bits.push(
      exact +
        (c.max_abs_diff !== null && c.exact !== 'bit' && c.exact !== 'degraded' && !c.agreement
          ? `, max abs diff ${c.max_abs_diff}`
          : ''),
    );
  if (c.processes !== null) bits.push(`n=${c.processes} processes`);
  return bits.join('; ');
}

/** A two-column table of a record's keys and values (objects as JSON). */
export function kvTable(record: Record<string, unknown>): string {
  const rows = Object.entries(record).map(
    ([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(show(v))}</td></tr>`,
  );
  return rows.length ? `<table class="kv">${rows.join('')}</table>` : '<p class="muted">none recorded</p>';
}

function show(v: unknown): string {
  if (v === null || v === undefined) return '—';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** One cell's raw samples and per-process statistics behind a disclosure. */
export function samplesHtml(c: CellResult): string {
  const n = c.samples_ms
    ? c.samples_ms.reduce((a, s) => a + s.length, 0)
    : (c.samples_per_process ?? []).reduce((a, x) => a + x, 0);
  const summary = `<code>${escapeHtml(c.id)}</code> ${escapeHtml(c.status)}${cellRange(c) ? `, ${escapeHtml(cellRange(c)!)}` : ''}${n ? `, ${n} samples` : ''}`;
  const parts: string[] = [];
  if (c.per_process) {
    const head =
      '<tr><th>process</th><th>samples</th><th>median</th><th>min</th><th>max</th><th>IQR</th><th>stopped by</th><th>start</th><th>wall</th></tr>';
    const rows = c.per_process
      .map(
        (p) =>
          // Every value is escaped, numbers too: a results file from elsewhere is data, never markup.
          [p.index, p.n, formatMs(p.median_ms), formatMs(p.min_ms), formatMs(p.max_ms), formatMs(p.iqr_ms)]
            .map((v) => `<td class="num">${escapeHtml(String(v))}</td>`)
            .join('') +
          `<td>${escapeHtml(String(p.stopped_by))}</td><td>${escapeHtml(String(p.start))}</td><td class="num">${escapeHtml(Number(p.wall_s).toFixed(2))} s</td>`,
      )
      .map((tds) => `<tr>${tds}</tr>`);
    parts.push(`<table>${head}${rows.join('')}</table>`);
  }
  if (c.samples_ms) {
    c.samples_ms.forEach((s, i) =>
      parts.push(
        `<p class="samples">process ${i}: ${escapeHtml(s.map((x) => Number(x).toFixed(3)).join(', '))} (ms)</p>`,
      ),
    );
  } else if (c.status === 'ok') {
    const per = c.samples_per_process ? ` Samples per process: ${c.samples_per_process.join(', ')}.` : '';
    parts.push(
      `<p class="muted">This file keeps no raw samples (the seed's layout has only the statistics).${escapeHtml(per)}</p>`,
    );
  }
  if (c.memory) {
    const rss = c.memory.peak_rss_bytes.map(formatBytes).join(', ');
    const cuda = c.memory.cuda_peak_allocated_bytes
      .filter((x): x is number => x !== null)
      .map(formatBytes)
      .join(', ');
    parts.push(
      `<p>Peak RSS per memory process: ${escapeHtml(rss || '—')}${cuda ? `; CUDA peak allocated: ${escapeHtml(cuda)}` : ''}.</p>`,
    );
  }
  if (c.reason) parts.push(`<p>Reason: ${escapeHtml(c.reason)}</p>`);
  if (c.error) {
    parts.push(`<p>Error: ${escapeHtml([c.error.type, c.error.message].filter(Boolean).join(': '))}</p>`);
    if (c.error.tail) parts.push(`<pre>${escapeHtml(c.error.tail)}</pre>`);
  }
  return `<details><summary>${summary}</summary>\n${parts.join('\n')}\n</details>`;
}
