/* What the two hand forms share (static/js/hand_form.js for French Tarot,
   static/js/savoyard_form.js for the Savoyard rules). Loaded before either
   (both <script defer>, which run in document order); it only defines
   window.TarotHandForm:
   - checked(form, name): the value of the checked radio button `name`, or null;
   - labelOf(form, name, value): the text of the label around that radio button;
   - showSeating(form): the summary "Dealer: Dora · Bert sits out" in step with
     the dealer and sits_out buttons;
   - livePreview(form, panel): hides the Preview button (the preview is live)
     and returns schedule(), which asks the server for the scores (debounced,
     an older answer arriving late ignored) and swaps them into the panel,
     keeping the explanation open if it was; on failure (offline, logged out)
     the Preview button comes back;
   - blurOnEnter(form): Enter in a field closes the phone's keyboard instead of
     saving a hand whose buttons are still to be tapped;
   - offlineHand(form) and offlineScores(form): with no network, the French Tarot
     form's hand in the JSON format and its scores worked out in the page by
     static/js/tarot_engine.js (the engine's port, tested against it), mouches
     with the pools before the hand (data-offline-pools, carried through the
     sheet's hands waiting in the queue); a form without data-offline-rules (the
     Savoyard rules) says "score on save" instead;
   - the first scores of a page bring the preview and Save into view (once);
   - queueOnSave(form, describe): Save puts the hand (a new one, or a correction) in
     the phone's queue (static/js/offline.js, IndexedDB) with the form's idempotency
     key, then sends it in its turn, after the hands waiting before it: saved, on to
     the page the server names; refused, the server's page shows the field to fix; no
     network, it stays in the form and in the queue (shown on the sheet, counted in
     the header) and goes as soon as the network is back, from any page, stored once
     however many times it arrives. Each opening of the form takes a new key, so a
     form page kept by the service worker enters a new hand each time;
     #queued=<key> in the address (the sheet's Fix): a refused hand back in the form
     to fix. describe() says what the sheet shows of it: {label, scores}. */
(function () {
  "use strict";

  function checked(form, name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input ? input.value : null;
  }

  function labelOf(form, name, value) {
    var input = form.querySelector(
      'input[name="' + name + '"][value="' + CSS.escape(value) + '"]'
    );
    var label = input && input.closest("label");
    return label ? label.textContent.trim() : "";
  }

  function showSeating(form) {
    var dealer = checked(form, "dealer");
    var out = checked(form, "sits_out");
    var dealerShow = form.querySelector('[data-show="dealer"]');
    if (dealerShow && dealer !== null) dealerShow.textContent = labelOf(form, "dealer", dealer);
    var outShow = form.querySelector('[data-show="sits_out"]');
    if (outShow) {
      outShow.closest(".hand-sits-out").hidden = !out;
      if (out) outShow.textContent = labelOf(form, "sits_out", out);
    }
  }

  /* Once per page, when the first scores show: the preview and Save brought into
     view (a phone's screen ends above them after the last field of a typical hand),
     scrolling no more than needed; never again, so it never fights the scorer. */
  var revealed = false;
  function reveal(panel) {
    if (revealed || !panel.querySelector(".hand-scores")) return;
    revealed = true;
    var footer = panel.closest(".hand-footer") || panel;
    if (footer.getBoundingClientRect().bottom <= window.innerHeight) return;
    var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    footer.scrollIntoView({ block: "end", behavior: still ? "auto" : "smooth" });
  }

  function livePreview(form, panel) {
    var previewUrl = form.dataset.previewUrl;
    var previewButton = form.querySelector("[data-preview-button]");
    var timer = null;
    var sequence = 0;
    var shown = 0;

    if (previewButton) previewButton.hidden = true; // the preview is live
    preparePools(form);

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
          var why = panel.querySelector("details.hand-why");
          var open = why && why.open;
          if (typeof data.html === "string") panel.innerHTML = data.html;
          why = panel.querySelector("details.hand-why");
          if (why && open) why.open = true;
          panel.classList.toggle("is-stale", false);
          panel.removeAttribute("aria-busy");
          reveal(panel);
        })
        .catch(function () {
          /* offline or logged out: the page's own scoring, or "score on save";
             the Save button still validates everything */
          if (mine < shown) return;
          shown = mine;
          showOffline(form, panel);
          reveal(panel);
          if (previewButton && !form.dataset.offlineRules) previewButton.hidden = false;
        });
    }

    return function schedule() {
      panel.classList.add("is-stale");
      panel.setAttribute("aria-busy", "true");
      window.clearTimeout(timer);
      timer = window.setTimeout(requestPreview, 250);
    };
  }

  var CHELEMS = {
    announced_made: { announced: true, made_by: "attack" },
    announced_failed: { announced: true, made_by: null },
    made: { announced: false, made_by: "attack" },
    defence: { announced: false, made_by: "defence" },
    announced_defence: { announced: true, made_by: "defence" },
  };

  /* The form's hand in the JSON format (scoresheet.forms.HandForm._hand_dict), or
     null while something needed is missing. */
  function offlineHand(form) {
    var names = JSON.parse(form.dataset.names || "[]");
    var deck = JSON.parse(form.dataset.deck || "{}");
    function at(position) {
      return position === null || position === "" ? null : names[Number(position)];
    }
    function value(name) {
      var el = form.elements.namedItem(name);
      return el && !el.disabled && el.value ? el.value : null;
    }
    var taker = checked(form, "taker");
    if (taker === null) return null;
    var hand = { players: names, dealer: at(checked(form, "dealer")) };
    var out = form.querySelector('input[name="sits_out"]') ? at(checked(form, "sits_out")) : null;
    if (out) hand.sits_out = out;
    if (taker === "pass") {
      hand.taker = null;
      return hand;
    }
    hand.taker = at(taker);
    var twoPlayers = !form.querySelector('input[name="contract"]');
    if (!twoPlayers) {
      hand.contract = checked(form, "contract");
      if (!hand.contract) return null;
    }
    var partnerInput = form.querySelector('input[name="partner"]');
    if (partnerInput && !partnerInput.disabled) {
      var partner = checked(form, "partner");
      if (partner === null) return null;
      hand.partner = partner === "alone" ? null : at(partner);
    }
    var bouts = checked(form, "bouts");
    if (bouts === null) return null;
    hand.bouts = Number(bouts);
    var text = value("points");
    if (text === null) return null;
    var points = Number(String(text).trim().replace(",", "."));
    if (isNaN(points)) return null;
    if (checked(form, "points_side") === "defence") points = deck.total - points;
    hand.points = points;
    hand.petit_au_bout = checked(form, "petit_au_bout") || null;
    hand.poignees = [];
    names.forEach(function (name, i) {
      var size = value("poignee_" + i);
      if (size) hand.poignees.push({ player: name, size: size });
    });
    var chelem = value("chelem");
    hand.chelem = chelem ? CHELEMS[chelem] : null;
    var petit = value("petit_chelem");
    if (form.elements.namedItem("petit_chelem")) hand.petit_chelem = petit ? CHELEMS[petit] : null;
    hand.miseres = [];
    form.querySelectorAll('input[name="miseres"]:checked').forEach(function (box) {
      if (!box.disabled) hand.miseres.push(names[Number(box.value)]);
    });
    return hand;
  }

  function signed(halves) {
    var lang = document.documentElement.lang || undefined;
    var number = halves / 2;
    // as scoresheet.formatting: the decimal comma in French, no thousands grouping
    var text = Math.abs(number).toLocaleString(lang, {
      maximumFractionDigits: 1,
      useGrouping: false,
    });
    return number > 0 ? "+" + text : number < 0 ? "\u2212" + text : "0";
  }

  /* Mouches: the pools before the form's hand. The page states the server's (a new hand:
     after the sheet's last hand; a correction: before the hand); a new hand comes after
     the sheet's hands still waiting in the queue, so their pools carry on (each scored
     here, in its turn). Worked out once the queue is read; the server's until then. */
  var poolsOf = typeof WeakMap === "function" ? new WeakMap() : null;

  function preparePools(form) {
    var engine = window.TarotEngine;
    var queue = window.TarotQueue;
    if (!poolsOf || !engine || !form.dataset.offlineRules) return;
    var rules = JSON.parse(form.dataset.offlineRules);
    if (!engine.hasPools(rules)) return;
    var pools = JSON.parse(form.dataset.offlinePools || "[]");
    poolsOf.set(form, pools);
    if (form.dataset.queueLabel || !queue) return; // a correction: its own place
    var keyInput = form.elements.namedItem("idempotency_key");
    queue
      .all()
      .then(function (entries) {
        entries.forEach(function (entry) {
          var mine = keyInput && entry.key === keyInput.value;
          if (mine || entry.status !== "waiting" || !entry.hand) return;
          if (entry.sheet !== form.dataset.queueSheet) return;
          try {
            pools = engine.scoreHand(rules, entry.hand, pools).pools || pools;
          } catch (error) {
            /* refused here: the server will say why; its pools are not carried */
          }
        });
        poolsOf.set(form, pools);
      })
      .catch(function () {
        /* no queue: the server's pools */
      });
  }

  /* [[name, "+240"], …] from the page's own scoring, null when it cannot score,
     {refused: code} when the engine refuses the hand. */
  function offlineScores(form) {
    var engine = window.TarotEngine;
    if (!engine || !form.dataset.offlineRules) return null;
    var hand = offlineHand(form);
    if (!hand) return null;
    try {
      var pools = (poolsOf && poolsOf.get(form)) || [];
      var result = engine.scoreHand(JSON.parse(form.dataset.offlineRules), hand, pools);
      return hand.players.map(function (name, i) {
        return [name, signed(result.halves[i]), result.halves[i]];
      });
    } catch (error) {
      return { refused: error.code || "refused" };
    }
  }

  function showOffline(form, panel) {
    var scores = offlineScores(form);
    panel.textContent = "";
    var note = document.createElement("p");
    note.className = "muted hand-missing";
    note.dataset.offlinePreview = scores && !scores.refused ? "scored" : "on-save";
    if (scores && !scores.refused) {
      var list = document.createElement("ul");
      list.className = "hand-scores";
      scores.forEach(function (row) {
        var item = document.createElement("li");
        item.className = "hand-score";
        var name = document.createElement("span");
        name.className = "hand-score-name";
        name.textContent = row[0];
        var score = document.createElement("span");
        score.className = "hand-score-value num " + (row[2] > 0 ? "pos" : row[2] < 0 ? "neg" : "");
        score.dataset.player = row[0];
        score.textContent = row[1];
        item.appendChild(name);
        item.appendChild(score);
        list.appendChild(item);
      });
      panel.appendChild(list);
      note.textContent = form.dataset.offlineScored || "";
    } else {
      note.textContent = form.dataset.scoreOnSave || "";
    }
    panel.appendChild(note);
    panel.classList.toggle("is-stale", false);
    panel.removeAttribute("aria-busy");
  }

  function blurOnEnter(form) {
    form.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && event.target.matches("input:not([type=submit])")) {
        event.preventDefault();
        event.target.blur();
      }
    });
  }

  // ------------------------------------------------------------ saving, offline or not

  /* A new key for each opening of the form: a page kept by the service worker holds
     the key it was first served with, and two hands entered offline are two hands. */
  function freshKey() {
    var bytes = new Uint8Array(24);
    window.crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode.apply(null, bytes))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
  }

  function fields(form) {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") pairs.push([name, String(value)]);
    });
    return pairs;
  }

  /* The form filled in with posted pairs (a queued hand back to fix). */
  function restore(form, pairs) {
    form.querySelectorAll("input, select, textarea").forEach(function (el) {
      if (el.type === "radio" || el.type === "checkbox") el.checked = false;
    });
    pairs.forEach(function (pair) {
      var els = form.querySelectorAll('[name="' + CSS.escape(pair[0]) + '"]');
      els.forEach(function (el) {
        if (el.type === "radio" || el.type === "checkbox") {
          if (el.value === pair[1]) el.checked = true;
        } else if (el.tagName === "SELECT" || el.type !== "submit") {
          el.value = pair[1];
        }
      });
    });
  }

  function queueOnSave(form, describe, refreshForm) {
    var queue = window.TarotQueue; // static/js/offline.js, on every page
    var keyInput = form.elements.namedItem("idempotency_key");
    var notice = form.querySelector("[data-offline]");
    var sending = false;
    if (!keyInput || !queue || !window.crypto || !window.crypto.getRandomValues) return;
    keyInput.value = freshKey();

    function say(message) {
      if (!notice) return;
      notice.textContent = message || "";
      notice.hidden = !message;
    }

    function entryOf(pairs) {
      var csrf = form.elements.namedItem("csrfmiddlewaretoken");
      var about = describe();
      var label = form.dataset.queueLabel;
      return {
        key: keyInput.value,
        // form.action would be the buttons named "action": read the attribute
        action: form.getAttribute("action") || window.location.pathname,
        csrf: csrf ? csrf.value : "",
        fields: pairs,
        sheet: form.dataset.queueSheet || "",
        form: window.location.pathname,
        label: [label, about.label].filter(Boolean).join(" · "),
        scores: about.scores || "",
        hand: about.hand || null,
        pools: about.pools || null,
      };
    }

    function nativeSubmit() {
      form.dataset.native = "1";
      // submit() sends no button: the server must still read a save (its refusal then
      // shows as it would have: a field at fault, another phone's hand first)
      var action = document.createElement("input");
      action.type = "hidden";
      action.name = "action";
      action.value = "save";
      form.appendChild(action);
      HTMLFormElement.prototype.submit.call(form);
    }

    form.addEventListener("submit", function (event) {
      var submitter = event.submitter;
      if (form.dataset.native === "1") return;
      if (!submitter || submitter.value !== "save") return;
      event.preventDefault();
      if (sending) return;
      sending = true;
      var entry = entryOf(fields(form));
      // kept on the phone first (once per key), then sent in its turn
      queue
        .submit(entry)
        .then(function (answer) {
          if (answer.outcome === "saved") {
            window.location.assign(answer.url);
            return null;
          }
          if (answer.outcome === "refused") {
            // a field to fix: the server's own page shows it on the field
            return queue.remove(entry.key).then(nativeSubmit);
          }
          // no network: it waits in the queue, on the sheet, and goes when the network is back
          sending = false;
          say(form.dataset.offlineMessage);
          return null;
        })
        .catch(function () {
          // no IndexedDB (a private window): the plain form
          sending = false;
          nativeSubmit();
        });
    });

    // The hand of this form sent from the queue once the network came back: on to its page.
    document.addEventListener("tarot-queue:saved", function (event) {
      if (event.detail.key === keyInput.value) window.location.assign(event.detail.url);
    });

    // Fix a hand the server refused (the sheet's Fix link): the form filled in again,
    // with the hand's own key; saving it puts it back in the queue, in its place.
    var queued = /^#queued=(.+)$/.exec(window.location.hash);
    if (queued) {
      queue.get(decodeURIComponent(queued[1])).then(function (entry) {
        if (!entry) return;
        restore(form, entry.fields);
        keyInput.value = entry.key;
        say(entry.reason);
        if (refreshForm) refreshForm();
      });
    } else {
      placeInQueue(form);
    }
  }

  // ------------------------------------------------------------ its place on the sheet

  function fieldOf(entry, name) {
    var pair = (entry.fields || []).filter(function (p) {
      return p[0] === name;
    })[0];
    return pair ? pair[1] : null;
  }

  /* A new hand's number and dealer, as the server will see them: the page states the
     sheet's last hand and the dealer it suggests as the page was kept; the phone's
     queue may hold hands of this sheet not yet sent (entered offline, the page kept
     before them), and may know of hands it stored since (TarotQueue.known). Each hand
     before this one takes the next number, and the seat after its dealer deals next
     (forms.suggested_dealer); the form's own change handler moves the sitter-out
     with the dealer (the dealer at six seats), as the server's defaults do.
     <form data-placed="yes"> once done (the browser tests wait on it). */
  function placeInQueue(form) {
    var queue = window.TarotQueue;
    var afterInput = form.elements.namedItem("after");
    var keyInput = form.elements.namedItem("idempotency_key");
    if (!("placeInQueue" in form.dataset) || !queue || !afterInput || afterInput.value === "") {
      form.dataset.placed = "yes";
      return;
    }
    var seats = form.querySelectorAll('input[name="dealer"]').length;
    var sheet = form.dataset.queueSheet;
    var server = { last: Number(afterInput.value), dealer: checked(form, "dealer") };
    function nextSeat(position) {
      if (position === null || position === "" || !seats) return null;
      return String((Number(position) + 1) % seats);
    }
    queue
      .all()
      .then(function (entries) {
        var state = { last: server.last, dealer: server.dealer };
        var known = queue.known(sheet);
        if (known && known.last > state.last) {
          state.last = known.last;
          state.dealer = nextSeat(known.dealer) || state.dealer;
        }
        entries.forEach(function (entry) {
          if (entry.sheet !== sheet || (keyInput && entry.key === keyInput.value)) return;
          var after = fieldOf(entry, "after");
          if (after === null || after === "") return; // a correction, or an older page's
          state.last = Math.max(state.last, Number(after)) + 1;
          state.dealer = nextSeat(fieldOf(entry, "dealer")) || state.dealer;
        });
        afterInput.value = String(state.last);
        var title = form.dataset.numberTitle;
        if (title) {
          var text = title.replace("%N", String(state.last + 1));
          document.querySelectorAll("[data-hand-number]").forEach(function (el) {
            el.textContent = text;
          });
          document.title = document.title.replace(/^[^·]*/, text + " ");
        }
        if (state.dealer !== null && state.dealer !== server.dealer) {
          var radio = form.querySelector(
            'input[name="dealer"][value="' + CSS.escape(state.dealer) + '"]'
          );
          if (radio) {
            radio.checked = true;
            radio.dispatchEvent(new Event("change", { bubbles: true }));
          }
        }
      })
      .catch(function () {
        /* no queue: the server's number and dealer */
      })
      .then(function () {
        showSeating(form);
        form.dataset.placed = "yes";
      });
  }

  window.TarotHandForm = {
    placeInQueue: placeInQueue,
    queueOnSave: queueOnSave,
    checked: checked,
    labelOf: labelOf,
    showSeating: showSeating,
    livePreview: livePreview,
    blurOnEnter: blurOnEnter,
    offlineHand: offlineHand,
    offlineScores: offlineScores,
  };
})();
