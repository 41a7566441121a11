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
   - Enter in a field closes the phone's keyboard instead of saving;
   - the points may be the defence's (the toggle beside them): the other side's
     points shown are then the attack's, and the server converts them too;
   - Save puts the hand in the phone's queue, sent in its turn (form_common.js's
     queueOnSave, shared with the Savoyard form; a correction too).
   The summary, the preview, Enter and the queue are static/js/form_common.js's,
   shared with the Savoyard form. */
(function () {
  "use strict";

  var form = document.querySelector("form.hand-form");
  var common = window.TarotHandForm; // static/js/form_common.js, loaded before
  if (!form || !common || !window.fetch || !window.FormData) return;

  var seats = Number(form.dataset.seats);
  var panel = document.getElementById("hand-preview");
  var play = form.querySelector("[data-play]");
  var partner = form.querySelector("[data-partner]");
  var points = form.elements.namedItem("points");
  var defence = form.querySelector("[data-defence]");
  var defencePoints = form.querySelector("[data-defence-points]");
  var deck = JSON.parse(form.dataset.deck);  // the ruleset's deck, as the page states it
  var total = deck.total;
  var chelem = form.elements.namedItem("chelem");
  var chelemHint = form.querySelector("[data-chelem-hint]");
  var ATTACK_CHELEM = ["announced_made", "made"];
  var DEFENCE_CHELEM = ["defence", "announced_defence"];

  var schedule = common.livePreview(form, panel);

  function checked(name) {
    return common.checked(form, name);
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
    var countsDefence = checked("points_side") === "defence";
    if (points && defence) {
      defence.hidden = value === null;
      if (value !== null) defencePoints.textContent = formatNumber(total - value);
    }
    form.querySelectorAll("[data-points-label]").forEach(function (el) {
      el.hidden = (el.dataset.pointsLabel === "defence") !== countsDefence;
    });
    form.querySelectorAll("[data-other-side]").forEach(function (el) {
      el.hidden = (el.dataset.otherSide === "attack") !== countsDefence;
    });
    var attackValue = value === null ? null : countsDefence ? total - value : value;
    updateChelem(passed ? null : attackValue);
    common.showSeating(form);
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
  common.blurOnEnter(form);

  // ------------------------------------------------------------ saving, offline or not

  /* What the sheet shows of a hand waiting to be sent: who took what, and the
     scores the page worked out (when it can score alone). */
  function describe() {
    var taker = checked("taker");
    var parts = [taker === null ? "" : common.labelOf(form, "taker", taker)];
    if (taker !== "pass") {
      var contract = checked("contract");
      if (contract) parts.push(common.labelOf(form, "contract", contract));
      var bouts = checked("bouts");
      if (bouts !== null) parts.push(bouts + " / " + (points ? points.value : ""));
    }
    var scores = common.offlineScores(form);
    var scored = scores && !scores.refused;
    return {
      label: parts.filter(Boolean).join(" · "),
      scores: scored
        ? scores
            .map(function (row) {
              return row[0] + " " + row[1];
            })
            .join(" · ")
        : "",
      // a new hand of a sheet with pools: the pools it leaves, for the next one's preview
      hand: scored && !form.dataset.queueLabel ? common.offlineHand(form) : null,
    };
  }

  common.queueOnSave(form, describe, function () {
    updateLayout();
    schedule();
  });

  // A hand kept by an earlier version of this page (localStorage): into the queue.
  var OLD_PENDING = "tarot-ledger:pending:" + window.location.pathname;
  var queue = window.TarotQueue;
  try {
    var old = JSON.parse(window.localStorage.getItem(OLD_PENDING) || "null");
    if (old && Array.isArray(old.fields) && queue) {
      var oldKey = old.fields.filter(function (pair) {
        return pair[0] === "idempotency_key";
      })[0];
      if (oldKey) {
        queue
          .add({
            key: oldKey[1],
            action: form.getAttribute("action") || window.location.pathname,
            csrf: (form.elements.namedItem("csrfmiddlewaretoken") || {}).value || "",
            fields: old.fields,
            sheet: form.dataset.queueSheet || "",
            form: window.location.pathname,
            label: "",
            scores: "",
          })
          .then(queue.flush);
      }
      window.localStorage.removeItem(OLD_PENDING);
    }
  } catch (error) {
    /* nothing kept */
  }

  updateLayout();
  if (form.querySelector('input[name="taker"]:checked')) schedule();
})();
