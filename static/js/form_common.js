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
     saving a hand whose buttons are still to be tapped. */
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

  function livePreview(form, panel) {
    var previewUrl = form.dataset.previewUrl;
    var previewButton = form.querySelector("[data-preview-button]");
    var timer = null;
    var sequence = 0;
    var shown = 0;

    if (previewButton) previewButton.hidden = true; // the preview is live

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
        })
        .catch(function () {
          /* offline or logged out: the Save button still validates everything */
          if (previewButton) previewButton.hidden = false;
        });
    }

    return function schedule() {
      panel.classList.add("is-stale");
      window.clearTimeout(timer);
      timer = window.setTimeout(requestPreview, 250);
    };
  }

  function blurOnEnter(form) {
    form.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && event.target.matches("input:not([type=submit])")) {
        event.preventDefault();
        event.target.blur();
      }
    });
  }

  window.TarotHandForm = {
    checked: checked,
    labelOf: labelOf,
    showSeating: showSeating,
    livePreview: livePreview,
    blurOnEnter: blurOnEnter,
  };
})();
