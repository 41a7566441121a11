/* The Savoyard hand form (templates/scoresheet/savoyard_hand_form.html), enhanced.
   Without this script the form still works: the Preview button posts it.
   - shows (and enables, so only they are posted) the fields of the chosen game
     ([data-modes="solo call …"]);
   - shows the opponents' count (the total − the count) as it is typed;
   - keeps the summary "Dealer: Dora · Bert sits out" in step, and at six seats
     moves the sitter-out (the dealer's left) along with the dealer;
   - asks the server for the scores (debounced) whenever the form changes;
   - Enter in a field closes the phone's keyboard instead of saving;
   - Save puts the hand (or the correction) in the phone's queue, sent in its turn;
     with no network it waits there, shown on the sheet.
   The summary, the preview, Enter and the queue are static/js/form_common.js's,
   shared with the French Tarot form. */
(function () {
  "use strict";

  var form = document.querySelector("form.savoyard-form");
  var common = window.TarotHandForm; // static/js/form_common.js, loaded before
  if (!form || !common || !window.fetch || !window.FormData) return;

  var seats = Number(form.dataset.seats);
  var total = Number(form.dataset.total);
  var panel = document.getElementById("hand-preview");
  var count = form.elements.namedItem("count");
  var defence = form.querySelector("[data-defence]");
  var defencePoints = form.querySelector("[data-defence-points]");
  var schedule = common.livePreview(form, panel);

  function checked(name) {
    return common.checked(form, name);
  }

  function updateLayout() {
    var mode = checked("mode");
    form.querySelectorAll("[data-modes]").forEach(function (group) {
      var on = mode !== null && group.dataset.modes.split(" ").indexOf(mode) >= 0;
      group.hidden = !on;
      group.querySelectorAll("input, select, textarea").forEach(function (el) {
        el.disabled = !on;
      });
    });
    var out = checked("sits_out");
    // the player who sits out neither plays solo nor is called
    form.querySelectorAll('input[name="declarer"], input[name="partner"]').forEach(
      function (input) {
        if (!input.closest("[hidden]")) input.disabled = !!out && input.value === out;
      }
    );
    var value = count ? String(count.value).trim() : "";
    if (defence) {
      var ok = /^[0-9]{1,3}$/.test(value) && Number(value) <= total;
      defence.hidden = !ok;
      if (ok) defencePoints.textContent = String(total - Number(value));
    }
    common.showSeating(form);
  }

  var previousDealer = checked("dealer");
  form.addEventListener("change", function (event) {
    var target = event.target;
    if (target.name === "dealer" && seats === 6) {
      // six seats: the player on the dealer's left (the one before him) sits out
      var left = String((Number(target.value) + seats - 1) % seats);
      var out = checked("sits_out");
      var was = previousDealer === null ? null : String((Number(previousDealer) + seats - 1) % seats);
      if (out === null || out === was) {
        var radio = form.querySelector('input[name="sits_out"][value="' + left + '"]');
        if (radio) radio.checked = true;
      }
      previousDealer = target.value;
    }
    updateLayout();
    schedule();
  });
  form.addEventListener("input", function (event) {
    if (event.target.matches('input[type="text"]')) {
      updateLayout();
      schedule();
    }
  });
  common.blurOnEnter(form);

  /* What the sheet shows of a hand waiting to be sent: the game, who played it, the
     count (its scores are worked out on save). */
  function describe() {
    var mode = checked("mode");
    var parts = [mode === null ? "" : common.labelOf(form, "mode", mode)];
    var declarer = form.querySelector('input[name="declarer"]:checked:not(:disabled)');
    if (declarer) parts.push(common.labelOf(form, "declarer", declarer.value));
    if (count && !count.disabled && String(count.value).trim()) parts.push(count.value.trim());
    return { label: parts.filter(Boolean).join(" · "), scores: "" };
  }

  common.queueOnSave(form, describe, function () {
    updateLayout();
    schedule();
  });

  updateLayout();
  if (checked("mode")) schedule();
})();
