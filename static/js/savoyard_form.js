/* The Savoyard hand form (templates/scoresheet/savoyard_hand_form.html), enhanced.
   Without this script the form still works: the Preview button posts it.
   - shows (and enables, so only they are posted) the fields of the chosen game
     ([data-modes="solo call …"]);
   - shows the opponents' count (the total − the count) as it is typed;
   - keeps the summary "Dealer: Dora · Bert sits out" in step, and at six seats
     moves the sitter-out (the dealer's left) along with the dealer;
   - asks the server for the scores (debounced) whenever the form changes;
   - Enter in a field closes the phone's keyboard instead of saving. */
(function () {
  "use strict";

  var form = document.querySelector("form.savoyard-form");
  if (!form || !window.fetch || !window.FormData) return;

  var previewUrl = form.dataset.previewUrl;
  var seats = Number(form.dataset.seats);
  var total = Number(form.dataset.total);
  var panel = document.getElementById("hand-preview");
  var previewButton = form.querySelector("[data-preview-button]");
  var count = form.elements.namedItem("count");
  var defence = form.querySelector("[data-defence]");
  var defencePoints = form.querySelector("[data-defence-points]");
  var timer = null;
  var sequence = 0;
  var shown = 0;

  if (previewButton) previewButton.hidden = true; // the preview is live

  function checked(name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input ? input.value : null;
  }

  function labelOf(name, value) {
    var input = form.querySelector(
      'input[name="' + name + '"][value="' + CSS.escape(value) + '"]'
    );
    var label = input && input.closest("label");
    return label ? label.textContent.trim() : "";
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
    var dealer = checked("dealer");
    var dealerShow = form.querySelector('[data-show="dealer"]');
    if (dealerShow && dealer !== null) dealerShow.textContent = labelOf("dealer", dealer);
    var outShow = form.querySelector('[data-show="sits_out"]');
    if (outShow) {
      outShow.closest(".hand-sits-out").hidden = !out;
      if (out) outShow.textContent = labelOf("sits_out", out);
    }
  }

  function requestPreview() {
    var mine = ++sequence;
    var body = new FormData(form);
    body.delete("action");
    fetch(previewUrl, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch", Accept: "application/json" },
    })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.json();
      })
      .then(function (data) {
        if (mine < shown) return; // an older answer arriving late
        shown = mine;
        if (typeof data.html === "string") panel.innerHTML = data.html;
        panel.classList.toggle("is-stale", false);
      })
      .catch(function () {
        if (previewButton) previewButton.hidden = false;
      });
  }

  function schedule() {
    panel.classList.add("is-stale");
    window.clearTimeout(timer);
    timer = window.setTimeout(requestPreview, 250);
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
  form.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && event.target.matches("input:not([type=submit])")) {
      event.preventDefault();
      event.target.blur();
    }
  });

  updateLayout();
  if (checked("mode")) schedule();
})();
