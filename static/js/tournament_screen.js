/* The tournament's room screen: every ten seconds, fetch the live part (the ranking
   and the tables still playing, an HTML fragment) and swap it in place when it
   changed. A failed fetch keeps what is shown and tries again at the next tick. */
(function () {
  "use strict";

  var screen = document.querySelector(".screen[data-live-url]");
  if (!screen || !window.fetch) return;
  var live = screen.querySelector("[data-live]");
  var url = screen.dataset.liveUrl;
  var interval = Number(screen.dataset.interval) || 10000;
  var last = live.innerHTML;

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

  window.setTimeout(refresh, interval);
})();
