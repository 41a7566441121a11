/* The light / dark / automatic switch, remembered per browser (localStorage "theme").
   Loaded in <head> without defer, before the page is drawn: the chosen theme is set on
   <html data-theme> first, so a dark page never flashes light. No choice ("auto"): the
   system's (prefers-color-scheme, in app.css). The switch itself
   (includes/theme_switch.html) is hidden without JavaScript. */
(function () {
  "use strict";
  var KEY = "theme";
  var root = document.documentElement;

  function stored() {
    try {
      var value = window.localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : "auto";
    } catch (error) {
      return "auto"; // storage refused (private mode): the system's theme
    }
  }

  function apply(theme) {
    if (theme === "light" || theme === "dark") root.setAttribute("data-theme", theme);
    else root.removeAttribute("data-theme");
  }

  apply(stored());

  document.addEventListener("DOMContentLoaded", function () {
    var select = document.querySelector("[data-theme-switch]");
    if (!select) return;
    select.value = stored();
    select.closest("[data-theme-box]").hidden = false;
    select.addEventListener("change", function () {
      var theme = select.value;
      try {
        if (theme === "auto") window.localStorage.removeItem(KEY);
        else window.localStorage.setItem(KEY, theme);
      } catch (error) { /* not remembered; still applied to this page */ }
      apply(theme);
    });
  });
  // another tab changed it: follow
  window.addEventListener("storage", function (event) {
    if (event.key === KEY || event.key === null) {
      apply(stored());
      var select = document.querySelector("[data-theme-switch]");
      if (select) select.value = stored();
    }
  });
})();
