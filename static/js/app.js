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
    // the hand form's skip link: onto the taker's chosen (or first playing) button,
    // where the arrows choose (the first seat sits out at six: it is disabled)
    var skip = event.target.closest("a[data-skip-hand]");
    if (skip) {
      var group = document.querySelectorAll('input[name="taker"]:not(:disabled)');
      var target = document.querySelector('input[name="taker"]:checked') || group[0];
      if (target) {
        event.preventDefault();
        target.focus();
        target.scrollIntoView({ block: "nearest" });
      }
      return;
    }
    var link = event.target.closest("a[data-confirm]");
    if (link && !window.confirm(link.dataset.confirm)) event.preventDefault();
  });

  document.querySelectorAll("[data-copy]").forEach(function (button) {
    button.hidden = false;
  });

  /* A table wider than the screen scrolls in its box: the box takes the keyboard's
     focus (the arrows scroll it) and is named after the table's caption or heading. */
  document.querySelectorAll(".table-scroll, .table-responsive").forEach(function (box) {
    if (!box.hasAttribute("tabindex")) box.tabIndex = 0;
    if (!box.getAttribute("role")) box.setAttribute("role", "region");
    if (box.getAttribute("aria-label") || box.getAttribute("aria-labelledby")) return;
    var caption = box.querySelector("caption");
    var heading = null;
    for (var el = box; el && !heading; el = el.parentElement) {
      var before = el.previousElementSibling;
      while (before && !heading) {
        if (/^H[1-6]$/.test(before.tagName)) heading = before;
        before = before.previousElementSibling;
      }
      if (el.tagName === "MAIN") break;
    }
    var name = (caption || heading || document.querySelector("h1") || {}).textContent;
    if (name) box.setAttribute("aria-label", name.replace(/\s+/g, " ").trim());
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
