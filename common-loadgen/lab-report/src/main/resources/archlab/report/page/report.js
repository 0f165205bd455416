// Draws the report page from REPORT (inlined by archlab.report.ReportPage). Marks <body> with what it drew, so a test in
// a headless browser can tell a page whose charts are empty or whose script failed from one that reads well.
(function () {
  "use strict";
  const body = document.body;
  window.addEventListener("error", e => { body.dataset.error = String(e.message || e); });
  const drawn = [];
  const empty = [];
  const width = () => Math.min(1060, document.documentElement.clientWidth - 40);
  const colors = ["#4a78c2", "#2e9e5b", "#c2584a", "#d99a1e", "#8a5cc2", "#5a5a5a"];

  function finite(values) {
    return values.some(v => v !== null && Number.isFinite(v));
  }

  function chart(id, title, x, series, opts) {
    const el = document.getElementById(id);
    const kept = series.filter(s => finite(s.values));
    if (x.length === 0 || kept.length === 0) {
      empty.push(id);
      el.textContent = "(nothing to draw: the report has no " + title + ")";
      return;
    }
    const options = Object.assign({
      title: title,
      width: width(),
      height: 260,
      scales: { x: { time: false } },
      series: [{ label: opts.xLabel }].concat(kept.map((s, i) => ({
        label: s.label, stroke: colors[i % colors.length], width: 1.5, scale: s.scale || "y",
        points: { show: x.length < 40 }
      }))),
      axes: [{ label: opts.xLabel }, { label: opts.yLabel, scale: "y" }]
        .concat(kept.some(s => s.scale === "y2") ? [{ label: opts.y2Label, scale: "y2", side: 1, grid: { show: false } }] : [])
    }, opts.extra || {});
    new uPlot(options, [x].concat(kept.map(s => s.values)), el);
    drawn.push(id);
  }

  document.title = REPORT.title;
  document.querySelectorAll("#verdict-lines li").forEach(li => {
    if (/^machine: disturbed|^money: [1-9]/.test(li.textContent)) li.className = "warn";
  });

  const t = REPORT.timeline;
  chart("chart-rates", "requests per second", t.start, [
    { label: "offered/s", values: t.offered },
    { label: "completed/s", values: t.completed },
    { label: "timed out/s", values: t.timedOut },
    { label: "retried/s", values: t.retried }
  ], { xLabel: "s since the run started", yLabel: "requests/s" });
  chart("chart-latency", "latency per interval", t.start, [
    { label: "p50 ms", values: t.p50 },
    { label: "p99 ms", values: t.p99 },
    { label: "send lag p99 ms", values: t.sendLagP99, scale: "y2" },
    { label: "hiccup max ms", values: t.hiccupMax, scale: "y2" }
  ], { xLabel: "s since the run started", yLabel: "ms", y2Label: "ms (machine)" });

  const ops = Object.keys(REPORT.percentiles);
  const nines = ops.length ? REPORT.percentiles[ops[0]].nines : [];
  chart("chart-percentiles", "percentile curves", nines,
    ops.map(op => ({ label: op + " (n=" + REPORT.percentiles[op].count + ") ms", values: REPORT.percentiles[op].ms })),
    { xLabel: "1 / (1 − percentile)", yLabel: "ms", extra: { scales: { x: { time: false, distr: 3 } } } });

  const segments = REPORT.segments || [];
  const note = document.getElementById("segments-note");
  if (segments.length === 0) {
    note.textContent = "No segments: the run traced no request.";
  } else {
    note.textContent = "Self time per segment, of " + REPORT.tracedRequests + " traced requests; share = of the operation's own traced time.";
    const table = document.createElement("table");
    table.innerHTML = "<tr><th>op</th><th>segment</th><th>requests</th><th>mean ms</th><th>p99 ms</th><th>share</th></tr>";
    segments.forEach(r => {
      const tr = document.createElement("tr");
      [r.operation, r.segment, r.requests, (r.meanMicros / 1000).toFixed(3), (r.p99Micros / 1000).toFixed(3)]
        .forEach(v => { const td = document.createElement("td"); td.textContent = v; tr.appendChild(td); });
      const share = document.createElement("td");
      const bar = document.createElement("span");
      bar.className = "bar";
      bar.style.width = Math.max(1, Math.round(r.sharePercent)) + "px";
      share.appendChild(bar);
      share.appendChild(document.createTextNode(r.sharePercent.toFixed(1) + " %"));
      tr.appendChild(share);
      table.appendChild(tr);
    });
    document.getElementById("segments").appendChild(table);
  }
  document.getElementById("text").textContent = REPORT.text;

  body.dataset.chartsDrawn = String(drawn.length);
  body.dataset.chartsEmpty = empty.join(" ");
})();

