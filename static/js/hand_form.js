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
   - Save sends the form with fetch: without network the hand stays on the
     page and in localStorage, is sent again when the network is back (or when
     the form is opened again), and the form's idempotency key makes the server
     store it once however many times it arrives.
   The summary, the preview and Enter are static/js/form_common.js's, shared
   with the Savoyard form. */
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
  var offline = form.querySelector("[data-offline]");
  var keyInput = form.elements.namedItem("idempotency_key");
  // one pending save per form page (the new-hand form of one sheet)
  var PENDING = "tarot-ledger:pending:" + window.location.pathname;
  var retryTimer = null;
  var sending = false;

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

  function fields() {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") pairs.push([name, String(value)]);
    });
    return pairs;
  }

  function restore(pairs) {
    form.querySelectorAll("input, select, textarea").forEach(function (el) {
      if (el.type === "radio" || el.type === "checkbox") el.checked = false;
    });
    pairs.forEach(function (pair) {
      var name = pair[0];
      var value = pair[1];
      var els = form.querySelectorAll('[name="' + CSS.escape(name) + '"]');
      els.forEach(function (el) {
        if (el.type === "radio" || el.type === "checkbox") {
          if (el.value === value) el.checked = true;
        } else if (el.tagName === "SELECT" || el.type !== "submit") {
          el.value = value;
        }
      });
    });
  }

  function readPending() {
    try {
      var stored = JSON.parse(window.localStorage.getItem(PENDING) || "null");
      return stored && Array.isArray(stored.fields) ? stored : null;
    } catch (error) {
      return null;
    }
  }

  function keep(pairs) {
    try {
      window.localStorage.setItem(PENDING, JSON.stringify({ fields: pairs, at: Date.now() }));
    } catch (error) {
      /* private mode or full: the page itself still holds the hand */
    }
  }

  function forget() {
    try {
      window.localStorage.removeItem(PENDING);
    } catch (error) {
      /* nothing kept */
    }
  }

  function say(message) {
    if (!offline) return;
    offline.textContent = message || "";
    offline.hidden = !message;
  }

  function send(pairs) {
    if (sending) return;
    sending = true;
    var body = new FormData();
    var csrf = form.elements.namedItem("csrfmiddlewaretoken");
    if (csrf) body.append("csrfmiddlewaretoken", csrf.value);
    pairs.forEach(function (pair) {
      body.append(pair[0], pair[1]);
    });
    body.set("action", "save");
    // form.action would be the buttons named "action": read the attribute
    fetch(form.getAttribute("action") || window.location.href, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch" },
    })
      .then(function (response) {
        var type = response.headers.get("Content-Type") || "";
        if (response.ok && type.indexOf("application/json") === 0) {
          return response.json().then(function (data) {
            forget();
            window.location.assign(data.url);
          });
        }
        if (response.ok && response.redirected) {
          // already saved (the same key): the server sends the sheet
          forget();
          window.location.assign(response.url);
          return;
        }
        // refused (a field to fix) or an error page: the server's own answer shows it
        forget();
        sending = false;
        form.dataset.native = "1";
        HTMLFormElement.prototype.submit.call(form);
      })
      .catch(function () {
        // no network: keep the hand, and send it again when the network is back
        sending = false;
        keep(pairs);
        say(form.dataset.offlineMessage);
        window.clearTimeout(retryTimer);
        retryTimer = window.setTimeout(retry, 5000);
      });
  }

  function retry() {
    var pending = readPending();
    if (pending && navigator.onLine !== false) send(pending.fields);
    else if (pending) retryTimer = window.setTimeout(retry, 5000);
  }

  form.addEventListener("submit", function (event) {
    var submitter = event.submitter;
    if (form.dataset.native === "1") return;
    if (!submitter || submitter.value !== "save" || !keyInput) return;
    event.preventDefault();
    var pairs = fields();
    pairs.push(["action", "save"]);
    keep(pairs); // until the server has it
    send(pairs);
  });

  window.addEventListener("online", retry);

  // A hand that could not be sent (the page was closed or reloaded meanwhile): back
  // in the form, said so, and sent again.
  var pending = keyInput ? readPending() : null;
  if (pending) {
    restore(pending.fields);
    say(form.dataset.offlineMessage);
    retryTimer = window.setTimeout(retry, 0);
  }

  updateLayout();
  if (form.querySelector('input[name="taker"]:checked')) schedule();
})();
