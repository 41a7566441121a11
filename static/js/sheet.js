/* The sheet page and its printable feuille de marque. Everything works without it.
   - the undo offered after a hand is saved goes away after a few seconds;
   - the print view's Print button opens the browser's print dialog. */
(function () {
  "use strict";

  var UNDO_SECONDS = 12;
  var undo = document.querySelector("[data-undo]");
  if (undo) {
    var timer = window.setTimeout(function () {
      undo.remove();
    }, UNDO_SECONDS * 1000);
    // while the scorer reaches for it, it stays
    undo.addEventListener("focusin", function () {
      window.clearTimeout(timer);
    });
  }

  var printButton = document.querySelector("[data-print]");
  if (printButton && window.print) {
    printButton.hidden = false;
    printButton.addEventListener("click", function () {
      window.print();
    });
  }
})();
