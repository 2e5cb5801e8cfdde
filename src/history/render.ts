// The history site's index.html: one self-contained page (Chart.js and the data inlined, the report's CSP,
// no network). Pure given the chart library's text.
import { escapeHtml } from '../report/format.ts';
import { CSS, chartLibrary, documentHead, inlineJson, inlineScript } from '../report/html-assets.ts';
import { HISTORY_SCRIPT } from './app-script.ts';
import type { Finding, History } from './model.ts';

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
const ms = (x: number) => (x < 1000 ? `${x.toFixed(2)} ms` : `${(x / 1000).toFixed(2)} s`);

function findingRow(f: Finding): string {
  return `<tr class="${f.kind}"><td>${f.kind}</td><td>${f.axis === 'runs' ? 'between runs' : 'between releases'}</td><td><code>${escapeHtml(f.cell)}</code><br><span class="muted">${escapeHtml(f.series.split(':')[0])}</span></td><td>${escapeHtml(f.from)} &rarr; ${escapeHtml(f.to)}</td><td class="num">${ms(f.before_ms)} &rarr; ${ms(f.after_ms)}</td><td class="num">${pct(f.change)}${f.basis === 'paired ratio' ? '<br><span class="muted">of the paired ratio to raw</span>' : ''}</td><td class="note">${escapeHtml(f.why)}</td></tr>`;
}

function summary(h: History): string {
  const regressions = h.findings.filter((f) => f.kind === 'regression');
  const improvements = h.findings.filter((f) => f.kind === 'improvement');
  const head =
    "<tr><th>Kind</th><th>Axis</th><th>Cell</th><th>Where</th><th>Median</th><th>Change</th><th>Why (compare's rule)</th></tr>";
  const table = (fs: Finding[], none: string) =>
    fs.length
      ? `<table class="findings">${head}${fs.map(findingRow).join('\n')}</table>`
      : `<p class="muted">${none}</p>`;
  const u = h.unjudged;
  // A run of too few processes gives no label, which must not read as "nothing changed".
  const caveat =
    u.cells > 0
      ? ` ${u.cells} measured cell(s) in ${u.runs} run(s) ran fewer than ${u.needed} processes, so no change in them can be judged; measure with --processes ${u.needed} or more.`
      : '';
  return `<h3 id="regressions">Regressions (${regressions.length})</h3>${table(regressions, `No regression found.${caveat}`)}
<h3 id="improvements">Improvements (${improvements.length})</h3>${table(improvements, `No improvement found.${caveat}`)}
<p class="note">A step between runs is a boundary of the piecewise-constant fit of a cell's medians (a penalty of 3&sigma; ln(n+1) per segment, &sigma; the robust noise of the series, after asv), kept only when compare's rule labels the runs either side slower or faster with the noise threshold ${(h.threshold * 100).toFixed(1)}% raised by their A/A noise. Releases measured in one run are compared pairwise, oldest first, with the same rule. See docs/versions.md.</p>`;
}

function runsTable(h: History): string {
  const rows = h.runs.map(
    (r) =>
      `<tr><td>${escapeHtml(r.spec)}</td><td>${escapeHtml(r.date)}</td><td><code>${escapeHtml(r.revision)}</code></td><td>${r.report ? `<a href="${escapeHtml(r.report)}">report</a>` : '<span class="muted">no report</span>'}</td></tr>`,
  );
  return `<table><tr><th>Spec</th><th>Started</th><th>Spec revision</th><th>Report</th></tr>${rows.join('\n')}</table>`;
}

function seriesHtml(h: History): string {
  return h.series
    .map((s, i) => {
      const rows = s.points.map((p) => {
        const r = h.runs[p.run];
        return `<tr><td>${escapeHtml(r.date)}</td><td><code>${escapeHtml(r.revision)}</code></td><td>${escapeHtml(p.version ?? 'as installed')}</td><td class="num">${ms(p.median_ms)}</td><td class="num">${ms(p.min_ms)} to ${ms(p.max_ms)}</td><td>${r.report ? `<a href="${escapeHtml(r.report)}">report</a>` : ''}</td></tr>`;
      });
      return `<section class="series"><h3><code>${escapeHtml(s.cell)}</code> <span class="muted">${escapeHtml(s.spec)}</span></h3>
<div class="chart-box" style="height:260px"><canvas id="series-${i}" class="chart" role="img" aria-label="${escapeHtml(`medians of ${s.cell}`)}"></canvas></div>
<details><summary>${s.points.length} point(s)</summary><table><tr><th>Run</th><th>Revision</th><th>Version</th><th>Median</th><th>Per-process medians</th><th></th></tr>${rows.join('\n')}</table></details></section>`;
    })
    .join('\n');
}

/** The site's index.html. */
export function renderHistory(h: History, chartLib: string = chartLibrary()): string {
  // The report's policy: no request at all, and only these two scripts run (allowed by their hashes).
  const scripts = [inlineScript(chartLib), inlineScript(HISTORY_SCRIPT)];
  return `${documentHead('benchgrid history', scripts)}${CSS}
tr.regression td:first-child { color: var(--bad); font-weight: 600; } tr.improvement td:first-child { color: var(--ok); font-weight: 600; }
label.axis { font-weight: 600; margin-right: 6px; }</style>
</head>
<body>
<header>
<h1>benchgrid history</h1>
<p class="muted">${h.runs.length} run(s) of ${new Set(h.runs.map((r) => r.spec)).size} spec(s), ${h.series.length} cell(s) with a measured median; ${h.findings.filter((f) => f.kind === 'regression').length} regression(s), ${h.findings.filter((f) => f.kind === 'improvement').length} improvement(s).</p>
<nav><a href="#summary">Summary</a><a href="#cells">Cells</a><a href="#runs">Runs</a></nav>
</header>
<main>
<section id="summary"><h2>Summary</h2>${summary(h)}</section>
<section id="cells"><h2>Cells</h2>
<p><label class="axis" for="x-axis">x axis</label><select id="x-axis"><option value="date">run date</option><option value="revision">spec revision (git)</option><option value="version">tool version</option></select></p>
<p class="note">Each point is a cell's median of per-process medians; the shaded bar spans the smallest to the largest per-process median. Releases of a versioned tool are separate lines (x: run date or revision), or the x axis itself (x: tool version, one line per run).</p>
${seriesHtml(h)}
</section>
<section id="runs"><h2>Runs</h2>${runsTable(h)}</section>
</main>
<footer>Written by benchgrid history. This site is self-contained and makes no network requests.</footer>
<script type="application/json" id="history-data">${inlineJson({ runs: h.runs, series: h.series })}</script>
<script>${scripts[0]}</script>
<script>${scripts[1]}</script>
</body>
</html>
`;
}
