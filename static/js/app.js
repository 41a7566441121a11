/* Tarot Ledger: the little JavaScript the pages need. Everything works without it.
   - marks <html> with .js (CSS shows the notices' close buttons only then);
   - dismisses a notice when its × is tapped;
   - asks before submitting a form or following a link carrying data-confirm="…";
   - in house-rules fields (templates/includes/rules_fields.html), shows a
     [data-only-kind="savoyard"] group only while the chosen preset's option says
     data-kind="savoyard", and a [data-only-pools] group only while it carries
     data-pools: the page states each ruleset's facts, the script knows no name;
   - copies a private link: a [data-copy] button (hidden without JavaScript) copies the
     [data-link-url] field next to it and says so with its data-copied text. */
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
    var copy = event.target.closest("[data-copy]");
    if (copy) {
      var field = copy.parentElement.querySelector("[data-link-url]");
      if (field && navigator.clipboard) {
        navigator.clipboard.writeText(field.value).then(function () {
          copy.textContent = copy.dataset.copied;
        });
      } else if (field) {
        field.select();
      }
      return;
    }
    var link = event.target.closest("a[data-confirm]");
    if (link && !window.confirm(link.dataset.confirm)) event.preventDefault();
  });

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.hidden = false;
  });

  document.addEventListener("submit", function (event) {
    var submitter = event.submitter;
    var message =
      (submitter && submitter.dataset.confirm) || event.target.dataset.confirm;
    if (message && !window.confirm(message)) event.preventDefault();
  });

  document.querySelectorAll("[data-rules-fields]").forEach(function (fields) {
    var preset = fields.querySelector("select[name$='preset']");
    var byKind = fields.querySelectorAll("[data-only-kind]");
    var byPools = fields.querySelectorAll("[data-only-pools]");
    if (!preset || !(byKind.length || byPools.length)) return;
    function sync() {
      var chosen = preset.options[preset.selectedIndex];
      var facts = chosen ? chosen.dataset : {};
      byKind.forEach(function (group) {
        group.hidden = facts.kind !== group.dataset.onlyKind;
      });
      byPools.forEach(function (group) {
        group.hidden = !("pools" in facts);
      });
    }
    preset.addEventListener("change", sync);
    sync();
  });
})();
