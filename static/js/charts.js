/* Tarot Ledger: the line charts of the statistics pages, drawn with the vendored
   Chart.js (static/vendor/chartjs/, loaded before this file).

   Each chart is a <canvas data-chart="ID"> beside a <script type="application/json"
   id="ID"> written by Django's json_script:
     {"labels": [...], "titles": [...tooltip titles], "xTitle": "...", "yTitle": "...",
      "datasets": [{"label": "Anna", "data": [240, 144, ...], "main": true}, ...]}
   Labels come translated from the page; numbers are formatted in the page's language.
   Every chart has a table of the same numbers beside it, so nothing is lost without
   JavaScript (the canvas is then hidden). Once drawn, the canvas carries
   data-points (the number of points of its first line) and data-ready="true". */
(function () {
  "use strict";
  if (!window.Chart) return;

  // Okabe–Ito, told apart with every common colour-vision deficiency; its green is
  // left out, as the page's own green (--primary) draws the player's line.
  var PALETTE = ["#0072B2", "#E69F00", "#CC79A7", "#56B4E9", "#D55E00"];

  function cssVar(name, fallback) {
    var value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return value || fallback;
  }

  function narrow() {
    return window.matchMedia("(max-width: 40rem)").matches;
  }

  function draw(canvas) {
    var source = document.getElementById(canvas.dataset.chart);
    if (!source) return;
    var data = JSON.parse(source.textContent);
    var text = cssVar("--text", "#1b1f1d");
    var muted = cssVar("--muted", "#5b645f");
    var grid = cssVar("--border", "#cfd6d1");
    var primary = cssVar("--primary", "#17694b");
    var single = data.datasets.length === 1;
    var many = data.labels.length > 30;
    var locale = document.documentElement.lang || undefined;
    var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

    var other = 0;
    var datasets = data.datasets.map(function (set) {
      var colour = single || set.main ? primary : PALETTE[other++ % PALETTE.length];
      return {
        label: set.label,
        data: set.data,
        borderColor: colour,
        backgroundColor: colour,
        borderWidth: set.main ? 3.5 : 2,
        pointRadius: many ? 0 : set.main ? 3.5 : 2.5,
        pointHoverRadius: 5,
        pointHitRadius: 10,
        tension: 0,
        order: set.main ? 0 : 1, // the player's line on top
      };
    });

    var chart = new window.Chart(canvas, {
      type: "line",
      data: { labels: data.labels, datasets: datasets },
      options: {
        responsive: true,
        maintainAspectRatio: false, // the box's CSS height decides: readable on a phone
        locale: locale,
        animation: still ? false : { duration: 400 },
        interaction: { mode: "index", intersect: false },
        color: text,
        font: { size: 13 },
        layout: { padding: { top: 4, right: 4 } },
        scales: {
          x: {
            title: { display: !!data.xTitle, text: data.xTitle, color: muted },
            ticks: {
              color: muted,
              autoSkip: true,
              maxRotation: 0,
              maxTicksLimit: narrow() ? 5 : 10,
            },
            grid: { display: false },
          },
          y: {
            title: { display: !!data.yTitle && !narrow(), text: data.yTitle, color: muted },
            ticks: { color: muted, maxTicksLimit: 6 },
            grid: {
              color: function (context) {
                // the zero line stands out: above it the player is winning
                return context.tick && context.tick.value === 0 ? muted : grid;
              },
            },
          },
        },
        plugins: {
          legend: {
            display: !single,
            position: "bottom",
            labels: { color: text, boxWidth: 14, boxHeight: 14, padding: 14, font: { size: 14 } },
          },
          tooltip: {
            callbacks: {
              title: function (items) {
                var i = items.length ? items[0].dataIndex : -1;
                return data.titles && i >= 0 ? data.titles[i] : "";
              },
            },
          },
        },
      },
    });
    canvas.dataset.points = String(chart.data.datasets[0].data.length);
    canvas.dataset.ready = "true";
  }

  function drawAll() {
    document.querySelectorAll("canvas[data-chart]").forEach(draw);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", drawAll);
  } else {
    drawAll();
  }
})();
