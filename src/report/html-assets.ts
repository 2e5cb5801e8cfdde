// What the HTML report inlines: the chart library (read from node_modules), its stylesheet and its script.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { INVISIBLE, unicodeEscape } from '../util/escape.ts';

let cached: string | undefined;

/**
 * Chart.js's UMD build, read once from node_modules, made safe to inline: the source-map comment is
 * dropped (it would point at a file the report does not carry) and `</script` cannot end the element.
 */
export function chartLibrary(): string {
  if (cached === undefined) {
    // chart.js exports no subpath for the UMD build; it sits beside the CommonJS entry point.
    const entry = createRequire(import.meta.url).resolve('chart.js');
    const text = fs.readFileSync(path.join(path.dirname(entry), 'chart.umd.min.js'), 'utf8');
    cached = inlineScript(text.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n'));
  }
  return cached;
}

/** Makes script text safe inside `<script>`: no `</script` or `<!--` can end or confuse the element. */
export function inlineScript(js: string): string {
  return js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/**
 * JSON safe inside `<script type="application/json">`: every `<` is escaped, so `</script>` cannot occur,
 * and so is every invisible or bidirectional character (JSON.stringify leaves C1 controls and U+202E as
 * they are), so the page's source shows what the data says. The value read back is the same.
 */
export function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(INVISIBLE, unicodeEscape);
}

/**
 * Forbids every network request from the page, and every script but the report's own: each inline
 * script is allowed by its sha256, so markup smuggled in by a results file could not run even if it
 * slipped past escaping. Styles stay inline; images only data: URLs.
 */
export function cspFor(scripts: string[]): string {
  const hashes = scripts.map((s) => `'sha256-${crypto.createHash('sha256').update(s, 'utf8').digest('base64')}'`);
  return `default-src 'none'; script-src ${hashes.join(' ')}; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`;
}

/**
 * The start of a page up to its open <style>: the doctype, the charset, the viewport and the policy that
 * lets only `scripts` run. `title` is HTML already (escaped by the caller). The caller writes the
 * stylesheet and closes the element, so a page can add rules of its own after CSS.
 */
export function documentHead(title: string, scripts: string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${cspFor(scripts)}">
<title>${title}</title>
<style>`;
}

/** The report's stylesheet. */
export const CSS = `
:root { --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --bg2: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); margin: 0; }
header, main { max-width: 1180px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; border-bottom: 1px solid var(--line); }
h1 { font-size: 26px; margin: 0 0 4px; } h2 { font-size: 20px; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 16px; margin: 20px 0 8px; }
nav a { margin-right: 14px; } .muted, .note { color: var(--muted); } .note { font-size: 13px; }
code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--bg2); padding: 1px 4px; border-radius: 4px; }
table { border-collapse: collapse; margin: 8px 0 12px; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--bg2); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.chart-box { position: relative; width: 100%; margin: 8px 0; }
table.matrix td { white-space: nowrap; font-variant-numeric: tabular-nums; }
table.matrix td.ok { color: var(--ok); } table.matrix td.error { color: var(--bad); font-weight: 600; }
table.matrix td.unsupported { color: var(--muted); } table.matrix td.mismatch { color: var(--bad); }
table.matrix td[title] { cursor: help; }
td.kind-error { color: var(--bad); } td.kind-unsupported, td.kind-missing { color: var(--muted); }
ul.reasons { margin: 0 0 16px; padding-left: 20px; font-size: 13px; }
details { border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px; margin: 4px 0; }
details[open] { background: #fcfcfd; } summary { cursor: pointer; }
pre { white-space: pre-wrap; font-size: 12px; background: var(--bg2); padding: 8px; border-radius: 6px; max-height: 320px; overflow: auto; }
p.samples { font: 12px ui-monospace, Menlo, Consolas, monospace; word-break: break-all; margin: 4px 0; }
footer { max-width: 1180px; margin: 32px auto; padding: 0 24px; color: var(--muted); font-size: 12px; }
`;

/** The script that draws each page section's forest plot and time chart from the embedded JSON. Plain ES2017, no imports. */
export const APP_SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('benchgrid-data').textContent);
  function fmt(ms) {
    return Math.abs(Number(ms.toFixed(2))) < 1000 ? ms.toFixed(2) + ' ms' : (ms / 1000).toFixed(2) + ' s';
  }
  // Log axes label only 1, 2 and 5 times a power of ten; the unit goes with each label.
  function tick(v) {
    if (this.type === 'logarithmic') {
      var m = v / Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
      if ([1, 2, 5].indexOf(Math.round(m * 1000) / 1000) < 0) return '';
    }
    return v >= 1000 ? Number((v / 1000).toPrecision(6)) + ' s' : Number(v.toPrecision(6)) + ' ms';
  }
  // A bar per row from its low to its high, in the row's colour, under the dataset of the row's points.
  function spans(label, data, colors, thickness) {
    return { type: 'bar', label: label, data: data, order: 2,
      backgroundColor: colors.map(function (x) { return x + '55'; }), borderColor: colors,
      borderWidth: 1, borderSkipped: false, barPercentage: thickness, categoryPercentage: 0.9 };
  }
  var drawn = 0;
  data.charts.forEach(function (c) {
    var canvas = document.getElementById(c.canvas);
    new Chart(canvas, {
      type: 'bar',
      data: {
        labels: c.labels,
        datasets: [
          spans('smallest to largest per-process median', c.range, c.colors, 0.7),
          { type: 'line', label: 'median', data: c.median, order: 1, showLine: false, pointStyle: 'line',
            rotation: 90, pointRadius: 8, pointHoverRadius: 10, pointBorderWidth: 3,
            borderColor: '#1b1f24', backgroundColor: '#1b1f24' }
        ]
      },
      options: {
        indexAxis: 'y', animation: false, responsive: true, maintainAspectRatio: false,
        scales: {
          x: { type: c.log ? 'logarithmic' : 'linear', beginAtZero: !c.log, position: 'top',
               ticks: { callback: tick, maxRotation: 0, autoSkip: false },
               title: { display: true, text: c.log ? 'time (log scale)' : 'time' } },
          y: { ticks: { autoSkip: false } }
        },
        plugins: {
          legend: { position: 'bottom' },
          tooltip: { callbacks: {
            title: function (items) { return c.full[items[0].dataIndex]; },
            label: function (item) {
              var i = item.dataIndex;
              return fmt(c.median[i]) + ' (' + fmt(c.range[i][0]) + ' to ' + fmt(c.range[i][1]) + ')';
            }
          } }
        }
      }
    });
    drawn += 1;
  });
  document.documentElement.setAttribute('data-charts-drawn', String(drawn));

  // The forest plots: x raw per tool with its 95% interval, a dashed line at 1.0x drawn under the data.
  var unity = { id: 'unity', beforeDatasetsDraw: function (chart) {
    var x = chart.scales.x.getPixelForValue(1), area = chart.chartArea, ctx = chart.ctx;
    ctx.save();
    ctx.strokeStyle = '#57606a'; ctx.lineWidth = 1.5; ctx.setLineDash([5, 4]);
    ctx.beginPath(); ctx.moveTo(x, area.top); ctx.lineTo(x, area.bottom); ctx.stroke();
    ctx.restore();
  } };
  var forests = 0;
  data.forests.forEach(function (f) {
    new Chart(document.getElementById(f.canvas), {
      type: 'bar',
      plugins: [unity],
      data: {
        labels: f.labels,
        datasets: [
          spans('95% interval', f.interval, f.colors, 0.5),
          { type: 'line', label: 'x raw (paired median ratio)', data: f.ratio, order: 1, showLine: false,
            pointStyle: 'circle', pointRadius: 5, pointHoverRadius: 7,
            borderColor: '#1b1f24', backgroundColor: '#1b1f24' }
        ]
      },
      options: {
        indexAxis: 'y', animation: false, responsive: true, maintainAspectRatio: false,
        interaction: { mode: 'index', axis: 'y', intersect: false },
        scales: {
          x: { type: 'logarithmic', min: f.min, max: f.max, position: 'top',
               afterBuildTicks: function (scale) { scale.ticks = f.ticks.map(function (v) { return { value: v }; }); },
               ticks: { callback: function (v) { return Number(v.toPrecision(3)) + 'x'; }, maxRotation: 0, autoSkip: false },
               title: { display: true, text: 'x raw: time over the plain forward (log scale)' } },
          y: { ticks: { autoSkip: false, color: function (ctx) { return f.flagged[ctx.index] ? '#cf222e' : '#1b1f24'; } } }
        },
        plugins: {
          legend: { position: 'bottom' },
          tooltip: {
            displayColors: false,
            filter: function (item) { return item.datasetIndex === 1; },
            callbacks: {
              title: function (items) { return f.full[items[0].dataIndex]; },
              label: function (item) { return f.details[item.dataIndex]; }
            }
          }
        }
      }
    });
    forests += 1;
  });
  document.documentElement.setAttribute('data-forests-drawn', String(forests));
})();
`;
