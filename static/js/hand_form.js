/* The hand form, enhanced. Without this script the form still works: the
   Preview button posts it and the server shows the scores.
   - hides (and disables, so they are not posted) what a passed hand ignores,
     and the partner when somebody sits out at a five-seat table;
   - shows the defence's points (the deck's total − the attack's) as they are
     typed, "45,5" or "45.5";
   - stops offering a chelem that the points and bouts make impossible (RULES
     §5: a chelem by the attack needs 87 points or more, one by the defence
     leaves the attack at most the excuse), and says why under the field;
   - keeps the summary "Dealer: Dora · Bert sits out" in step, and at six seats
     moves the sitter-out along with the dealer;
   - asks the server for the scores (debounced) whenever the form changes, and
     shows them above the Save button;
   - Enter in a field closes the phone's keyboard instead of saving. */
(function () {
  "use strict";

  var form = document.querySelector("form.hand-form");
  if (!form || !window.fetch || !window.FormData) return;

  var previewUrl = form.dataset.previewUrl;
  var seats = Number(form.dataset.seats);
  var panel = document.getElementById("hand-preview");
  var previewButton = form.querySelector("[data-preview-button]");
  var play = form.querySelector("[data-play]");
  var partner = form.querySelector("[data-partner]");
  var points = form.elements.namedItem("points");
  var defence = form.querySelector("[data-defence]");
  var defencePoints = form.querySelector("[data-defence-points]");
  var deck = JSON.parse(form.dataset.deck || "{}");
  var total = deck.total || 91;
  var chelem = form.elements.namedItem("chelem");
  var chelemHint = form.querySelector("[data-chelem-hint]");
  var ATTACK_CHELEM = ["announced_made", "made"];
  var DEFENCE_CHELEM = ["defence", "announced_defence"];
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

  function setEnabled(container, enabled) {
    if (!container) return;
    container.hidden = !enabled;
    container.querySelectorAll("input, select, textarea").forEach(function (el) {
      el.disabled = !enabled;
    });
  }

  function parsePoints(text) {
    var value = String(text || "").trim().replace(",", ".");
    if (value === "" || !/^[0-9]{1,3}(\.[0-9]{1,3})?$/.test(value)) return null;
    var number = Number(value);
    return number >= 0 && number <= total ? number : null;
  }

  function updateChelem(value) {
    if (!chelem || !deck.chelem || chelem.tagName !== "SELECT") return;
    var bouts = checked("bouts");
    bouts = bouts === null ? null : Number(bouts);
    var bounds = deck.chelem;
    var attackOk = value === null || value >= bounds.attack.min_points;
    var defenceOk =
      (value === null || value <= bounds.defence.max_points) &&
      (bouts === null || bouts <= bounds.defence.max_bouts);
    Array.prototype.forEach.call(chelem.options, function (option) {
      if (ATTACK_CHELEM.indexOf(option.value) >= 0) option.disabled = !attackOk;
      if (DEFENCE_CHELEM.indexOf(option.value) >= 0) option.disabled = !defenceOk;
    });
    if (chelemHint) {
      var hint = !attackOk ? form.dataset.chelemAttack : "";
      if (!defenceOk && !hint) hint = form.dataset.chelemDefence;
      chelemHint.textContent = hint || "";
      chelemHint.hidden = !hint;
    }
  }

  function formatNumber(number) {
    var lang = document.documentElement.lang || undefined;
    return number.toLocaleString(lang, { maximumFractionDigits: 1 });
  }

  function updateLayout() {
    var passed = checked("taker") === "pass";
    setEnabled(play, !passed);
    var out = checked("sits_out");
    if (!passed && partner) {
      // a five-seat table where somebody sits out plays as four: no partner
      setEnabled(partner, !(seats === 5 && out !== null && out !== ""));
    }
    // the player who sits out neither takes, nor is called, nor shows anything
    form.querySelectorAll(
      'input[name="taker"], input[name="partner"], input[name="miseres"]'
    ).forEach(function (input) {
      var hiddenGroup = input.closest("[hidden]");
      if (!hiddenGroup) input.disabled = !!out && input.value === out;
    });
    form.querySelectorAll('select[name^="poignee_"]').forEach(function (select) {
      if (!select.closest("[hidden]")) {
        select.disabled = !!out && select.name === "poignee_" + out;
      }
    });
    var value = points ? parsePoints(points.value) : null;
    if (points && defence) {
      defence.hidden = value === null;
      if (value !== null) defencePoints.textContent = formatNumber(total - value);
    }
    updateChelem(passed ? null : value);
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
        /* offline or logged out: the Save button still validates everything */
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
      // six seats: the dealer sits out, unless the scorer chose otherwise
      var out = checked("sits_out");
      if (out === null || out === previousDealer) {
        var radio = form.querySelector(
          'input[name="sits_out"][value="' + CSS.escape(target.value) + '"]'
        );
        if (radio) radio.checked = true;
      }
      previousDealer = target.value;
    }
    updateLayout();
    schedule();
  });
  form.addEventListener("input", function (event) {
    if (event.target === points) {
      updateLayout();
      schedule();
    }
  });

  // The keyboard's Enter/Done after the points closes the keyboard; it does not
  // save a hand whose petit au bout or poignée is still to be tapped.
  form.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && event.target.matches("input:not([type=submit])")) {
      event.preventDefault();
      event.target.blur();
    }
  });

  updateLayout();
  if (form.querySelector('input[name="taker"]:checked')) schedule();
})();
