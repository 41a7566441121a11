/* Tarot Ledger: the little JavaScript the pages need. Everything works without it.
   - marks <html> with .js (CSS shows the notices' close buttons only then);
   - dismisses a notice when its × is tapped;
   - asks before submitting a form or following a link carrying data-confirm="…";
   - in house-rules fields (templates/includes/rules_fields.html), shows a
     [data-only-preset="mouches"] group only while that preset is chosen, and
     hides a [data-except-preset="savoyard"] group while that one is. */
(function () {
  "use strict";
  document.documentElement.classList.remove("no-js");
  document.documentElement.classList.add("js");

  document.addEventListener("click", function (event) {
    var close = event.target.closest(".notice-close");
    if (close) {
      var notice = close.closest(".notice");
      if (notice) notice.remove();
      return;
    }
    var link = event.target.closest("a[data-confirm]");
    if (link && !window.confirm(link.dataset.confirm)) event.preventDefault();
  });

  document.addEventListener("submit", function (event) {
    var submitter = event.submitter;
    var message =
      (submitter && submitter.dataset.confirm) || event.target.dataset.confirm;
    if (message && !window.confirm(message)) event.preventDefault();
  });

  document.querySelectorAll("[data-rules-fields]").forEach(function (fields) {
    var preset = fields.querySelector("select[name$='preset']");
    var groups = fields.querySelectorAll("[data-only-preset]");
    var others = fields.querySelectorAll("[data-except-preset]");
    if (!preset || !groups.length) return;
    function sync() {
      groups.forEach(function (group) {
        group.hidden = preset.value !== group.dataset.onlyPreset;
      });
      others.forEach(function (group) {
        group.hidden = preset.value === group.dataset.exceptPreset;
      });
    }
    preset.addEventListener("change", sync);
    sync();
  });
})();
