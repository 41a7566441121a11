/* The tournament's room screen.

   Paging: the ranking (then the team ranking, when there are teams) fills the
   columns the screen has room for (the CSS sets --columns); what does not fit
   goes to further pages, shown in turn every data-page-seconds. The rows a
   column holds are measured, so the type size alone decides how many fit.

   Refreshing: every ten seconds, fetch the live part (the rankings and the
   round's tables, an HTML fragment) and, when it changed, swap it in and lay it
   out again at the same page, in the same task: the screen never shows the
   fragment unpaged. A failed fetch keeps what is shown and tries again at the
   next tick. */
(function () {
  "use strict";

  var screen = document.querySelector(".screen[data-live-url]");
  if (!screen) return;
  var live = screen.querySelector("[data-live]");
  var label = screen.querySelector("[data-page-label]");
  var url = screen.dataset.liveUrl;
  var interval = Number(screen.dataset.interval) || 10000;
  var pageSeconds = Number(screen.dataset.pageSeconds) || 12;
  var last = live.innerHTML;
  var pages = [];
  var index = 0;

  function parts() {
    return Array.prototype.slice.call(live.querySelectorAll("[data-screen-part]"));
  }

  function rowsOf(part) {
    var list = part.querySelector("[data-rows]");
    return list ? Array.prototype.slice.call(list.children) : [];
  }

  function layout() {
    var all = parts();
    pages = [];
    all.forEach(function (part) {
      all.forEach(function (other) { other.hidden = other !== part; });
      var list = part.querySelector("[data-rows]");
      var rows = rowsOf(part);
      rows.forEach(function (row) { row.hidden = false; });
      if (!list || !rows.length) {
        pages.push({ part: part, from: 0, to: 0 });
        return;
      }
      list.style.removeProperty("--rows");
      var columns = parseInt(getComputedStyle(list).getPropertyValue("--columns"), 10) || 1;
      list.style.setProperty("--rows", "1");
      var height = rows[0].getBoundingClientRect().height || 1;
      var room = window.innerHeight - list.getBoundingClientRect().top - height * 0.5;
      var perColumn = Math.max(1, Math.floor(room / height));
      var perPage = perColumn * columns;
      // Fewer rows than a page: as many per column as needed, the columns even.
      var used = Math.min(perColumn, Math.ceil(rows.length / columns));
      list.style.setProperty("--rows", String(used));
      for (var from = 0; from < rows.length; from += perPage) {
        pages.push({ part: part, from: from, to: Math.min(from + perPage, rows.length) });
      }
    });
    if (index >= pages.length) index = 0;
    show();
  }

  function show() {
    var page = pages[index];
    parts().forEach(function (part) {
      part.hidden = !page || part !== page.part;
    });
    if (page) {
      rowsOf(page.part).forEach(function (row, i) {
        row.hidden = i < page.from || i >= page.to;
      });
    }
    screen.dataset.page = String(index + 1);
    screen.dataset.pages = String(pages.length);
    if (label) label.textContent = pages.length > 1 ? index + 1 + " / " + pages.length : "";
  }

  function turn() {
    if (pages.length > 1) {
      index = (index + 1) % pages.length;
      show();
    }
    window.setTimeout(turn, pageSeconds * 1000);
  }

  function refresh() {
    fetch(url, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        if (html !== last) {
          live.innerHTML = html;
          last = html;
          layout();
        }
        screen.dataset.refreshed = String(Date.now());
      })
      .catch(function () {
        /* keep the last ranking on screen */
      })
      .then(function () {
        window.setTimeout(refresh, interval);
      });
  }

  layout();
  window.addEventListener("resize", layout);
  window.setTimeout(turn, pageSeconds * 1000);
  if (window.fetch) window.setTimeout(refresh, interval);
})();
