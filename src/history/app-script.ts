// The script of the history site: one Chart.js chart per series, redrawn when the x axis changes.
// Plain ES2017, no imports; it reads the JSON the page embeds.

/** Draws the charts; sets data-charts-drawn on <html> when done (the tests wait for it). */
export const HISTORY_SCRIPT = `
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('history-data').textContent);
  var COLORS = ['#0969da', '#cf222e', '#1a7f37', '#8250df', '#9a6700', '#bf3989', '#1b7c83', '#57606a'];
  function runLabel(axis, r) { return axis === 'revision' ? r.revision : r.date.replace('T', ' ').slice(0, 16); }
  // x = run date or revision: one line per release; x = tool version: one line per run. Bars are not
  // grouped, so each range sits under its median point (ranges of several lines overlap, translucent).
  function build(s, axis) {
    var lines = Object.create(null), labels = [], order = [], rank = Object.create(null); // no prototype: a release may be named "constructor"
    s.points.forEach(function (p) {
      var run = data.runs[p.run];
      var x = axis === 'version' ? (p.version || 'as installed') : runLabel(axis, run);
      rank[x] = p.rank === null ? -1 : p.rank;
      var line = axis === 'version' ? runLabel('date', run) : (p.version || 'as installed');
      if (labels.indexOf(x) < 0) labels.push(x);
      if (!lines[line]) { lines[line] = []; order.push(line); }
      lines[line].push({ x: x, p: p });
    });
    // The model ranks the versions (releases, then builds from their source by commit date).
    if (axis === 'version') labels.sort(function (a, b) { return rank[a] - rank[b]; });
    var datasets = [];
    order.forEach(function (name, i) {
      var color = COLORS[i % COLORS.length];
      var at = function (x) { var hit = lines[name].filter(function (e) { return e.x === x; })[0]; return hit ? hit.p : null; };
      datasets.push({ type: 'bar', label: name + ' (range)', data: labels.map(function (x) { var p = at(x); return p ? [p.min_ms, p.max_ms] : null; }),
        backgroundColor: color + '33', borderColor: color, borderWidth: 1, borderSkipped: false, barPercentage: 0.3, grouped: false });
      datasets.push({ type: 'line', label: name, data: labels.map(function (x) { var p = at(x); return p ? p.median_ms : null; }),
        borderColor: color, backgroundColor: color, spanGaps: true, pointRadius: 4 });
    });
    return { labels: labels, datasets: datasets };
  }
  var charts = [];
  function draw(axis) {
    charts.forEach(function (c) { c.destroy(); });
    charts = [];
    data.series.forEach(function (s, i) {
      var canvas = document.getElementById('series-' + i);
      var d = build(s, axis);
      charts.push(new Chart(canvas, {
        data: d,
        options: {
          animation: false, responsive: true, maintainAspectRatio: false,
          scales: { y: { title: { display: true, text: 'median per-process time (ms)' } },
                    x: { title: { display: true, text: axis === 'version' ? 'tool version' : axis === 'revision' ? 'spec revision' : 'run date' } } },
          plugins: { legend: { position: 'bottom', labels: { filter: function (item) { return item.text.indexOf('(range)') < 0; } } } }
        }
      }));
    });
    document.documentElement.setAttribute('data-charts-drawn', String(charts.length));
    document.documentElement.setAttribute('data-x-axis', axis);
  }
  var select = document.getElementById('x-axis');
  select.addEventListener('change', function () { draw(select.value); });
  draw(select.value);
})();
`;
