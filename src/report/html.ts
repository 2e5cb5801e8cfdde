// The HTML report: one self-contained file (Chart.js inlined, data as JSON, no network) from the results model.
import { cellRange, escapeHtml, exactnessCell, firstLine } from './format.ts';
import { buildGrids } from './grid.ts';
import { APP_SCRIPT, CSS, chartLibrary, documentHead, inlineJson, inlineScript } from './html-assets.ts';
import { FOREST_SENTENCE, forestData, type ForestData, type ForestView } from './forest.ts';
import { chartData, inlineMd, kvTable, matrixHtml, samplesHtml, type ChartData } from './html-parts.ts';
import { aaText, hostText, notMeasuredText, protocolText } from './measured.ts';
import { resolvePage, type PageEntryView, type PageSectionView, type PageView, type ReportInput } from './page.ts';
import { TAX_HEADINGS, TAX_SENTENCE, showsRatios, taxRows, unpairedSentence } from './pairing-parts.ts';
import { growthHtml } from './growth-html.ts';
import { SEED_LAYOUT } from '../results/model.ts';

/**
 * The report as one HTML document. Pure given the chart library's text, which defaults to Chart.js's
 * UMD build read from node_modules (tests may pass a stub).
 */
export function renderHtml(input: ReportInput, chartLib: string = chartLibrary()): string {
  const { results, spec } = input;
  const page = resolvePage(input);
  const title = spec?.title ?? results.spec?.title ?? results.spec?.name ?? 'benchgrid results';
  const charts: ChartData[] = [];
  const forests: ForestData[] = [];
  const sections = page.sections.map((section, i) =>
    sectionHtml(page, section, i, spec ? `${spec.title}, ` : '', { charts, forests }, showsRatios(results)),
  );
  sections.push(taxHtml(input));
  sections.push(...growthHtml(input));
  const matrices = buildGrids(input).map((g) => {
    const { ok, unsupported, error } = g.counts;
    const heading = `${g.group}${g.groupTitle ? `: ${g.groupTitle}` : ''} / ${g.subjectLabel}`;
    return `<h3>${escapeHtml(heading)} <span class="muted">(${ok} ok, ${error} failed, ${unsupported} not run)</span></h3>\n${matrixHtml(g)}`;
  });
  const nav = [
    ['results', 'Results'],
    ['status', 'Status matrix'],
    ...(page.fromSpec ? [['appendix', 'Cells not on the page']] : []),
    ['measured', 'How it was measured'],
    ['samples', 'Raw samples'],
  ]
    .map(([id, text]) => `<a href="#${id}">${text}</a>`)
    .join('');
  const scripts = [inlineScript(chartLib), inlineScript(APP_SCRIPT)];
  return `${documentHead(`${escapeHtml(title)} | benchgrid report`, scripts)}${CSS}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<p class="muted">${results.cells.length} cells${results.measured_on ? `, measured ${escapeHtml(results.measured_on)}` : ''}${results.origin === SEED_LAYOUT ? ', from a seed-layout results file' : ''}${results.partial ? ', <strong>partial run</strong>' : ''}.</p>
<nav>${nav}</nav>
</header>
<main>
<section id="results"><h2>Results</h2>
${spec?.description ? `<p>${inlineMd(spec.description)}</p>` : ''}
${sections.join('\n')}
</section>
<section id="status"><h2>Status matrix</h2>
<p class="note">Rows are contracts, columns tools. Marks: = bit-exact, ~ within tolerance, ≈ degraded (differs only by precision: agrees at float32), ! mismatch against the group's reference tool. Hover a cell for its reason or range.</p>
${matrices.join('\n')}
</section>
${page.fromSpec ? `<section id="appendix"><h2>Cells not on the page</h2>\n${appendixHtml(page)}\n</section>` : ''}
<section id="measured"><h2>How it was measured</h2>
${measuredHtml(input).join('\n')}
</section>
<section id="samples"><h2>Raw samples</h2>
${results.cells.map(samplesHtml).join('\n')}
</section>
</main>
<footer>Written by benchgrid. This file is self-contained and makes no network requests.</footer>
<script type="application/json" id="benchgrid-data">${inlineJson({ charts, forests })}</script>
${scripts.map((s) => `<script>${s}</script>`).join('\n')}
</body>
</html>
`;
}

/**
 * One page section: its forest plot of x raw (where the file has ratios), its time chart (both pushed onto
 * `data` for the inlined JSON) and its rows.
 */
function sectionHtml(
  page: PageView,
  section: PageSectionView,
  i: number,
  prefix: string,
  data: { charts: ChartData[]; forests: ForestData[] },
  ratios: boolean,
): string {
  const chart = chartData(section, i, prefix);
  if (chart) data.charts.push(chart);
  const forest = ratios && section.entries.length > 0 ? forestData(section, i, prefix) : null;
  if (forest?.chart) data.forests.push(forest.chart);
  const chartHtml = chart
    ? `<div class="chart-box" style="height:${chart.labels.length * 38 + 90}px"><canvas id="${chart.canvas}" class="chart" role="img" aria-label="${escapeHtml(`Medians and ranges: ${section.title}`)}"></canvas></div>
<p class="note">Each bar spans the smallest to the largest per-process median; the black tick is the median of the per-process medians${chart.log ? '. The scale is logarithmic because the values span a decade or more' : ''}. Cells that failed or were not run have no bar; see the table.</p>`
    : '<p class="muted">Nothing in this section was measured.</p>';
  const ratioTds = (e: PageEntryView) =>
    ratios
      ? `<td class="num">${escapeHtml(e.ratioText)}</td><td class="num">${escapeHtml(e.taxText)}</td><td>${escapeHtml(exactnessCell(e.result))}</td>`
      : '';
  const rows = section.entries
    .map(
      (e) =>
        `<tr><td>${inlineMd(e.label)}</td><td>${inlineMd(e.toolLabel)}</td><td class="kind-${e.kind}" title="${escapeHtml(e.cell)}">${escapeHtml(e.value)}</td>${ratioTds(e)}</tr>`,
    )
    .join('\n');
  const head = page.fromSpec ? 'Workload' : 'Contract';
  const unpaired = ratios ? unpairedSentence(section.entries) : '';
  return `<section class="page-section"><h3>${inlineMd(section.title)}</h3>\n${forest ? `${forestHtml(forest, section.title)}\n` : ''}${chartHtml}\n<table class="page-rows"><tr><th>${head}</th><th>Tool</th><th>Median (min to max)</th>${ratios ? '<th>x raw (95% CI)</th><th>Import tax (95% CI)</th><th>Exactness</th>' : ''}</tr>\n${rows}\n</table>${unpaired ? `\n<p class="note">${escapeHtml(unpaired)}</p>` : ''}</section>`;
}

/** The forest plot's box and its note, or the note alone where no entry of the section has a paired ratio. */
function forestHtml({ chart, caption }: ForestView, title: string): string {
  if (!chart)
    return `<p class="note">No x raw to plot: no cell of this section has a paired ratio to the plain forward. ${escapeHtml(caption)}</p>`;
  return `<div class="chart-box" style="height:${chart.labels.length * 38 + 90}px"><canvas id="${chart.canvas}" class="chart forest" role="img" aria-label="${escapeHtml(`x raw with 95% intervals: ${title}`)}"></canvas></div>
<p class="note">${escapeHtml(FOREST_SENTENCE)}${caption ? ` ${escapeHtml(caption)}` : ''}</p>`;
}

/** The import tax table, per tool and subject; nothing for files without paired timing. */
function taxHtml({ results }: ReportInput): string {
  const rows = taxRows(results);
  if (rows.length === 0) return '';
  const trs = rows
    .map(
      (r) =>
        `<tr>${r.text.map((t, i) => `<td${i >= 2 && i <= 4 ? ' class="num"' : ''}>${escapeHtml(t)}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<section class="page-section" id="import-tax"><h3>Import tax</h3>\n<p class="note">${inlineMd(TAX_SENTENCE)}</p>\n<table><tr>${TAX_HEADINGS.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>\n${trs}\n</table></section>`;
}

/** The cells a spec's page leaves out, so that nothing measured is hidden. */
function appendixHtml(page: PageView): string {
  if (page.appendix.length === 0) return '<p>Every cell of the results is on the page.</p>';
  return `<p>Every cell the page does not show, so that nothing measured is hidden.</p>
<table><tr><th>Cell</th><th>Status</th><th>Median (min to max)</th><th>Exactness</th><th>Reason</th></tr>
${page.appendix.map((c) => `<tr><td><code>${escapeHtml(c.id)}</code></td><td>${escapeHtml(c.status)}</td><td class="num">${escapeHtml(cellRange(c) ?? '')}</td><td>${escapeHtml(exactnessCell(c))}</td><td>${escapeHtml(firstLine(c.reason ?? c.error?.message))}</td></tr>`).join('\n')}
</table>`;
}

/** "How it was measured": when, with what, on which host, and each subject's protocol and A/A noise. */
function measuredHtml({ results, spec }: ReportInput): string[] {
  const measured: string[] = [];
  const host = hostText(results);
  measured.push(
    `<p>${results.measured_on ? `Measured on ${escapeHtml(results.measured_on)}` : 'Measured'}${results.harness ? ` with <code>${escapeHtml(results.harness)}</code>` : ''}${host ? ` on ${escapeHtml(host)}` : ''}.${results.partial ? ' <strong>The run did not finish: cells it did not reach are missing.</strong>' : ''}</p>`,
  );
  measured.push(`<h3>Versions</h3>${kvTable(results.versions)}`);
  if (Object.keys(results.host).length) measured.push(`<h3>Host</h3>${kvTable(results.host)}`);
  if (results.run) measured.push(`<h3>Run</h3>${kvTable(results.run)}`);
  for (const [subject, s] of Object.entries(results.subjects)) {
    if (!s.meta) continue;
    const heading = `<h3>${escapeHtml(spec?.subjects[subject]?.label ?? subject)}</h3>`;
    const none = notMeasuredText(results, subject);
    if (none) {
      measured.push(`${heading}\n<p>${escapeHtml(none)}</p>`);
      continue;
    }
    const aa = aaText(s.meta);
    measured.push(`${heading}
<p>${inlineMd(protocolText(s.meta.protocol))}</p>
<p><strong>A/A noise.</strong> ${aa ? inlineMd(aa.replace(/^A\/A noise: the/, 'The')) : 'Not measured.'}</p>
<h4>Protocol</h4>${kvTable(s.meta.protocol)}
<h4>Environment</h4>${kvTable(s.meta.environment)}
<h4>Versions seen by the processes</h4>${kvTable(s.meta.versions)}${s.not_measured.length ? `<h4>Not measured</h4><ul>${s.not_measured.map((x) => `<li>${escapeHtml(x)}</li>`).join('')}</ul>` : ''}`);
  }
  return measured;
}
