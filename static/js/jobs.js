// A background job's page (templates/transfer/_progress.html): asks the job's
// status every second and fills in the progress bar, the counts, the error, the
// summary and, once done, the download link (or the restored club's link).
(function () {
  "use strict";
  var box = document.getElementById("job");
  if (!box) return;
  var url = box.getAttribute("data-job-status");
  function field(name) { return box.querySelector('[data-job-field="' + name + '"]'); }
  function show(status) {
    box.setAttribute("data-state", status.state);
    field("state_label").textContent = status.state_label;
    field("done").textContent = status.done;
    field("total").textContent = status.total;
    var bar = field("percent");
    bar.value = status.percent;
    bar.textContent = status.percent + " %";
    ["error", "summary"].forEach(function (name) {
      var node = field(name);
      node.textContent = status[name] || "";
      node.hidden = !status[name];
    });
    var done = box.querySelector('[data-job-when="done"]');
    if (done) done.hidden = status.state !== "done";
    var link = document.querySelector("[data-job-download]");
    if (link && status.download) {
      link.href = status.download;
      link.parentNode.hidden = false;
    }
    var club = document.querySelector("[data-job-club]");
    if (club && status.club) {
      club.href = status.club;
      club.parentNode.hidden = false;
    }
  }
  function poll() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.json(); })
      .then(function (status) {
        show(status);
        if (!status.finished) window.setTimeout(poll, 1000);
        else if (status.state === "done" && box.getAttribute("data-reload") === "1") {
          window.location.reload(); // the page lists what the job did (an upload's sheets)
        }
      })
      .catch(function () { window.setTimeout(poll, 3000); });
  }
  var state = box.getAttribute("data-state");
  if (state !== "done" && state !== "failed") poll();
})();
