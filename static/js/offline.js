/* The table terminal: the app works with no network (loaded on every page).
   - registers the service worker (/sw.js, static/js/sw.js) and asks it to keep a
     copy of the pages a scorer needs offline: the links marked data-offline-warm
     (the hand form, from the sheet, fetched again at each visit), and says when
     the page works offline: <html data-works-offline="ready">;
   - keeps the hands saved without network in a queue (IndexedDB "tarot-ledger",
     store "hands"), one entry per idempotency key, so a hand is queued once and
     stored once however often it is sent; window.TarotQueue is its interface
     (form_common.js's Save goes through it: new hands and corrections, French
     Tarot and Savoyard);
   - sends the queue in order, oldest first, from any page, one pass at a time (a
     Web Lock across tabs; a request for a pass while one runs gets another right
     after it): at load, when the network comes back, and every 15 s while
     something waits; <html data-queue="idle" data-queue-passes="n"> says where
     it is (the browser tests wait on it). The server's answer
     decides: saved (or saved before: the same key) → the entry goes; refused (a
     field, a rule, a sheet closed meanwhile, a link revoked) → the entry stays,
     marked refused with the server's reason, until the scorer fixes or discards
     it; no answer → it waits. Nothing is dropped without the scorer's say;
   - shows the count in the header of every page ([data-queue-count]) and the
     queued hands of this sheet on the sheet's page ([data-queue-sheet]), with
     Fix (back to the form, filled in) and Discard. */
(function () {
  "use strict";

  var DB_NAME = "tarot-ledger";
  var STORE = "hands";
  var RETRY_MS = 15000;
  var dbPromise = null;
  var SEND_TIMEOUT_MS = 30000; // a request the network swallowed: tried again later

  // ------------------------------------------------------------ the service worker

  /* The pages to keep: the links marked data-offline-warm, and this page itself when
     the worker did not serve it (the first visit: the worker came after). The worker
     answers on a MessageChannel once the copies are kept: then, and only then, with
     the worker controlling the page, <html data-works-offline="ready"> says the page and the
     ones it leads to open with no network (what the browser tests wait for). */
  function warm(worker, firstVisit) {
    var urls = [];
    document.querySelectorAll("a[data-offline-warm]").forEach(function (link) {
      urls.push(link.href);
    });
    var asks = [];
    // fetched again at each visit: the copy kept is as of the sheet's last hand (its
    // number, the dealer it suggests, the mouches pools of the offline preview)
    if (urls.length) asks.push({ warm: urls, fresh: true });
    if (firstVisit) asks.push({ warm: [window.location.href], fresh: true });
    return Promise.all(
      asks.map(function (message) {
        return new Promise(function (resolve) {
          var channel = new MessageChannel();
          channel.port1.onmessage = function () {
            resolve();
          };
          worker.postMessage(message, [channel.port2]);
        });
      })
    );
  }

  function controlled() {
    if (navigator.serviceWorker.controller) return Promise.resolve();
    return new Promise(function (resolve) {
      navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    });
  }

  if ("serviceWorker" in navigator && window.isSecureContext) {
    var firstVisit = !navigator.serviceWorker.controller;
    document.documentElement.dataset.worksOffline = "installing";
    navigator.serviceWorker
      .register("/sw.js", { scope: "/" })
      .then(function () {
        return navigator.serviceWorker.ready;
      })
      .then(function (registration) {
        return Promise.all([warm(registration.active, firstVisit), controlled()]);
      })
      .then(function () {
        document.documentElement.dataset.worksOffline = "ready";
      })
      .catch(function () {
        /* no worker: the pages still work online */
        document.documentElement.dataset.worksOffline = "none";
      });
  }

  // ------------------------------------------------------------ the queue (IndexedDB)

  function db() {
    if (!window.indexedDB) return Promise.reject(new Error("no IndexedDB"));
    if (!dbPromise) {
      dbPromise = new Promise(function (resolve, reject) {
        var request = window.indexedDB.open(DB_NAME, 1);
        request.onupgradeneeded = function () {
          request.result.createObjectStore(STORE, { keyPath: "key" });
        };
        request.onsuccess = function () {
          resolve(request.result);
        };
        request.onerror = function () {
          reject(request.error);
        };
      });
    }
    return dbPromise;
  }

  function run(mode, work) {
    return db().then(function (base) {
      return new Promise(function (resolve, reject) {
        var tx = base.transaction(STORE, mode);
        var answer = work(tx.objectStore(STORE));
        tx.oncomplete = function () {
          resolve(answer && "result" in answer ? answer.result : undefined);
        };
        tx.onerror = tx.onabort = function () {
          reject(tx.error);
        };
      });
    });
  }

  function all() {
    return run("readonly", function (store) {
      return store.getAll();
    }).then(function (entries) {
      return (entries || []).sort(function (a, b) {
        return a.at - b.at;
      });
    });
  }

  function get(key) {
    return run("readonly", function (store) {
      return store.get(key);
    });
  }

  /* Queue a hand (or replace the entry of the same key, keeping its place). Between two
     passes, never during one, as a discard: written while its older version is on its
     way, the edit would be deleted with it once saved, or overwritten by its refusal. */
  function add(entry) {
    return exclusive(function () {
      return get(entry.key).then(function (before) {
        entry.at = before ? before.at : Date.now();
        entry.status = "waiting";
        entry.reason = "";
        return run("readwrite", function (store) {
          store.put(entry);
        });
      });
    }).then(refresh);
  }

  /* Discard: between two sends, never during one (a hand on its way is either stored,
     and then it shows on the sheet, or still here to discard). */
  function remove(key) {
    return exclusive(function () {
      return get(key).then(function (gone) {
        // the later hands of its sheet move up one (a clash's place went to the other
        // phone's hand: theirs stay)
        var shift = gone && !gone.clash ? renumber(gone, -1, false) : Promise.resolve();
        return shift.then(function () {
          return run("readwrite", function (store) {
            store.delete(key);
          });
        });
      });
    }).then(refresh);
  }

  function fieldOf(entry, name) {
    var pair = (entry.fields || []).filter(function (p) {
      return p[0] === name;
    })[0];
    return pair ? pair[1] : null;
  }

  function setField(entry, name, value) {
    var pair = (entry.fields || []).filter(function (p) {
      return p[0] === name;
    })[0];
    if (pair) pair[1] = value;
  }

  /* The hands of ``from``'s sheet queued after it (and ``from`` too, with ``itself``):
     their "after" moved by ``delta``, so each still follows the one before it. */
  function renumber(from, delta, itself) {
    return all().then(function (entries) {
      var later = entries.filter(function (entry) {
        var after = fieldOf(entry, "after");
        if (entry.sheet !== from.sheet || after === null || after === "") return false;
        return entry.key === from.key ? itself : entry.at > from.at;
      });
      return run("readwrite", function (store) {
        later.forEach(function (entry) {
          setField(entry, "after", String(Number(fieldOf(entry, "after")) + delta));
          store.put(entry);
        });
      });
    });
  }

  /* A hand refused because another phone's came first: kept as the next hand (its
     later hands after it), and sent again. */
  function keep(key) {
    return exclusive(function () {
      return get(key).then(function (entry) {
        if (!entry || !entry.clash) return null;
        var delta = entry.clash.last - Number(fieldOf(entry, "after"));
        return renumber(entry, delta, true).then(function () {
          return get(key).then(function (moved) {
            moved.clash = null;
            return mark(moved, "waiting", "");
          });
        });
      });
    })
      .then(refresh)
      .then(flush);
  }

  /* The last hand this phone saw stored on each sheet: a form page kept before it
     (offline) still numbers the next hand after it (form_common.js placeInQueue). */
  var KNOWN = "tarot-ledger:last:";
  function remember(entry, number) {
    if (!entry.sheet || !number) return;
    try {
      var before = known(entry.sheet);
      if (before && before.last >= number) return;
      window.localStorage.setItem(
        KNOWN + entry.sheet,
        JSON.stringify({ last: number, dealer: fieldOf(entry, "dealer") })
      );
    } catch (error) {
      /* no storage: the page's own numbers */
    }
  }

  function known(sheet) {
    try {
      return JSON.parse(window.localStorage.getItem(KNOWN + sheet) || "null");
    } catch (error) {
      return null;
    }
  }

  function mark(entry, status, reason, clash) {
    entry.status = status;
    entry.reason = reason || "";
    entry.clash = clash || null;
    return run("readwrite", function (store) {
      store.put(entry);
    });
  }

  // ------------------------------------------------------------ sending

  function text(html, selector) {
    try {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var found = [];
      doc.querySelectorAll(selector).forEach(function (el) {
        var words = el.textContent.replace(/\s+/g, " ").trim();
        if (words && found.indexOf(words) < 0) found.push(words);
      });
      return found.join(" · ");
    } catch (error) {
      return "";
    }
  }

  /* One entry to the server: {outcome: "saved" | "refused" | "offline", url, reason}. */
  function send(entry) {
    var body = new FormData();
    body.append("csrfmiddlewaretoken", entry.csrf || "");
    entry.fields.forEach(function (pair) {
      if (pair[0] !== "csrfmiddlewaretoken" && pair[0] !== "idempotency_key") {
        body.append(pair[0], pair[1]);
      }
    });
    body.set("idempotency_key", entry.key);
    body.set("action", "save");
    var options = {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch", "X-Tarot-Queue": "1", Accept: "application/json" },
    };
    if (window.AbortController) {
      var stop = new AbortController();
      window.setTimeout(function () {
        stop.abort();
      }, SEND_TIMEOUT_MS);
      options.signal = stop.signal;
    }
    return fetch(entry.action, options).then(
      function (response) {
        var type = response.headers.get("Content-Type") || "";
        if (type.indexOf("application/json") === 0) {
          return response.json().then(function (data) {
            if (response.ok && data.url) {
              return { outcome: "saved", url: data.url, number: data.saved };
            }
            var reason = (data.errors || []).join(" · ") || String(response.status);
            return { outcome: "refused", reason: reason, clash: data.clash || null };
          });
        }
        if (response.status >= 500) return { outcome: "offline" }; // try again later
        return response.text().then(function (html) {
          // a page instead of an answer: the server's message says why
          var reason =
            text(html, "[data-messages] .notice p, .errorlist li, main h1") ||
            String(response.status);
          return { outcome: "refused", reason: reason };
        });
      },
      function () {
        return { outcome: "offline" };
      }
    );
  }

  /* One pass at a time, across this browser's tabs too (a Web Lock where there is
     one): two passes would send the same hand twice (stored once, by its key, but the
     later hands could overtake it) and a discard could land in the middle of one. */
  function exclusive(work) {
    if (navigator.locks && navigator.locks.request) {
      return navigator.locks.request("tarot-ledger-queue", work);
    }
    return work();
  }

  var passes = 0;

  function signal(state) {
    var root = document.documentElement;
    root.dataset.queue = state;
    root.dataset.queuePasses = String(passes);
  }

  /* Send what waits, oldest first; stops at the first hand the network does not take.
     Each entry is read again just before it goes: one discarded or refused meanwhile
     stays where the scorer left it. Answers {outcomes: {key: answer}}. */
  function pass() {
    var outcomes = {};
    // a sheet's hands go in order: after a refused one, its later hands wait for the
    // scorer (fixed, kept or dropped), numbered after it
    var held = {};
    return exclusive(function () {
      return all().then(function (entries) {
        var chain = Promise.resolve(true);
        entries.forEach(function (listed) {
          chain = chain.then(function (goOn) {
            if (!goOn) return false;
            return get(listed.key).then(function (entry) {
              if (!entry || held[entry.sheet]) return true;
              if (entry.status !== "waiting") {
                held[entry.sheet] = true;
                return true;
              }
              return send(entry).then(function (answer) {
                outcomes[entry.key] = answer;
                if (answer.outcome === "refused") held[entry.sheet] = true;
                return settle(entry, answer).then(function () {
                  return answer.outcome !== "offline";
                });
              });
            });
          });
        });
        return chain;
      });
    })
      .catch(function () {
        return false;
      })
      .then(function () {
        return { outcomes: outcomes };
      });
  }

  /* flush(): a pass now, or, when one runs, one more right after it (a pass that began
     offline misses the network coming back: the "online" event must not be lost in it). */
  var active = null;
  var pending = null;
  function flush() {
    if (!active) {
      signal("sending");
      active = pass().then(function (result) {
        active = null;
        passes += 1;
        return refresh().then(function () {
          if (!pending) signal("idle");
          return result;
        });
      });
      return active;
    }
    if (!pending) {
      pending = active.then(function () {
        pending = null;
        return flush();
      });
    }
    return pending;
  }

  /* Settled when no pass runs or waits to run (the tests wait on it). */
  function idle() {
    return (pending || active || Promise.resolve()).then(function () {
      return active || pending ? idle() : undefined;
    });
  }

  /* A form's Save: the hand into the queue (once per key), then sent in its turn after
     the hands waiting before it. Answers {outcome: "saved" | "refused" | "offline"}. */
  function submit(entry) {
    return add(entry)
      .then(function () {
        return flush();
      })
      .then(function (result) {
        if (result.outcomes[entry.key]) return result.outcomes[entry.key];
        return get(entry.key).then(function (left) {
          // sent by another tab's pass: gone from the queue once saved
          if (!left) return { outcome: "saved", url: entry.sheet };
          if (left.status === "refused") return { outcome: "refused", reason: left.reason };
          return { outcome: "offline" };
        });
      });
  }

  function settle(entry, answer) {
    if (answer.outcome === "saved") {
      remember(entry, answer.number);
      return run("readwrite", function (store) {
        store.delete(entry.key);
      }).then(function () {
        document.dispatchEvent(
          new CustomEvent("tarot-queue:saved", { detail: { key: entry.key, url: answer.url } })
        );
      });
    }
    if (answer.outcome === "refused") return mark(entry, "refused", answer.reason, answer.clash);
    return Promise.resolve();
  }

  // ------------------------------------------------------------ showing it

  function refresh() {
    return all()
      .then(function (entries) {
        showCount(entries);
        showSheet(entries);
        document.dispatchEvent(new CustomEvent("tarot-queue:changed", { detail: entries }));
        return entries;
      })
      .catch(function () {
        return [];
      });
  }

  function showCount(entries) {
    var badge = document.querySelector("[data-queue-count]");
    if (!badge) return;
    var waiting = entries.filter(function (e) {
      return e.status === "waiting";
    }).length;
    var refused = entries.length - waiting;
    var parts = [];
    if (waiting) parts.push(badge.dataset.waiting.replace("%(n)s", waiting));
    if (refused) parts.push(badge.dataset.refused.replace("%(n)s", refused));
    badge.textContent = parts.join(" · ");
    // a phone's top bar shows only the counts (CSS): the name is still the words
    badge.setAttribute("aria-label", parts.join(" · "));
    // a phone's top bar shows the counts only (CSS), so the account and the
    // languages keep their place; the words stay for screen readers
    badge.dataset.short = [
      waiting ? "\u2191\u00a0" + waiting : "",
      refused ? "\u2715\u00a0" + refused : "",
    ]
      .filter(Boolean)
      .join(" ");
    badge.dataset.waitingCount = String(waiting);
    badge.dataset.refusedCount = String(refused);
    badge.hidden = !entries.length;
    var first = entries[0];
    if (first && badge.tagName === "A") badge.href = first.sheet;
  }

  function showSheet(entries) {
    var box = document.querySelector("[data-queue-sheet]");
    if (!box) return;
    var here = box.dataset.queueSheet;
    var mine = entries.filter(function (entry) {
      return entry.sheet === here;
    });
    var list = box.querySelector("[data-queue-list]");
    list.textContent = "";
    mine.forEach(function (entry) {
      var item = document.createElement("li");
      item.className = "queue-hand queue-" + entry.status;
      item.dataset.queueKey = entry.key;
      var label = document.createElement("span");
      label.className = "queue-label";
      label.dataset.queueEntryLabel = "";
      var after = fieldOf(entry, "after");
      var number =
        after !== null && after !== "" && box.dataset.handNumber
          ? box.dataset.handNumber.replace("%N", String(Number(after) + 1))
          : "";
      label.textContent = [number, entry.label].filter(Boolean).join(" · ");
      item.appendChild(label);
      if (entry.scores) {
        var scores = document.createElement("span");
        scores.className = "queue-scores muted";
        scores.dataset.queueScores = "";
        scores.textContent = entry.scores;
        item.appendChild(scores);
      }
      var state = document.createElement("span");
      state.className = "queue-state";
      state.dataset.queueState = entry.status;
      state.textContent =
        entry.status === "waiting"
          ? box.dataset.waiting
          : box.dataset.refused + " " + (entry.reason || "");
      item.appendChild(state);
      if (entry.clash) {
        // both hands shown, and the choice: keep mine as the next hand, or drop it
        var theirs = document.createElement("ul");
        theirs.className = "queue-clash";
        theirs.dataset.queueClash = "";
        (entry.clash.theirs || []).forEach(function (hand) {
          var line = document.createElement("li");
          line.textContent =
            box.dataset.handNumber.replace("%N", String(hand.number)) + " · " + hand.summary;
          theirs.appendChild(line);
        });
        var mine = document.createElement("li");
        mine.textContent = box.dataset.mine + " " + (entry.clash.mine || "");
        theirs.appendChild(mine);
        item.appendChild(theirs);
        var keepButton = document.createElement("button");
        keepButton.type = "button";
        keepButton.className = "btn btn-primary btn-small";
        keepButton.dataset.queueKeep = entry.key;
        keepButton.textContent = box.dataset.keep.replace("%N", String(entry.clash.last + 1));
        item.appendChild(keepButton);
      } else if (entry.status === "refused") {
        var fix = document.createElement("a");
        fix.className = "btn btn-secondary btn-small";
        fix.href = entry.form + "#queued=" + encodeURIComponent(entry.key);
        fix.textContent = box.dataset.fix;
        item.appendChild(fix);
      }
      var discard = document.createElement("button");
      discard.type = "button";
      discard.className = "btn btn-secondary btn-small";
      discard.dataset.queueDiscard = entry.key;
      discard.textContent = box.dataset.discard;
      item.appendChild(discard);
      list.appendChild(item);
    });
    box.hidden = !mine.length;
  }

  document.addEventListener("click", function (event) {
    var keeping = event.target.closest("[data-queue-keep]");
    if (keeping) keep(keeping.dataset.queueKeep);
    var button = event.target.closest("[data-queue-discard]");
    if (!button) return;
    var box = button.closest("[data-queue-sheet]");
    if (box && !window.confirm(box.dataset.discardConfirm)) return;
    remove(button.dataset.queueDiscard);
  });

  window.TarotQueue = {
    add: add,
    keep: keep,
    known: known,
    get: get,
    remove: remove,
    all: all,
    send: send,
    settle: settle,
    submit: submit,
    flush: flush,
    idle: idle,
    refresh: refresh,
  };

  /* A tournament table's page, on the phone holding the table: says it is online and
     how many of the table's deals wait in the queue (the organiser's round page shows it). */
  function heartbeat() {
    var form = document.querySelector("form[data-table-heartbeat]");
    if (!form || navigator.onLine === false) return;
    var box = document.querySelector("[data-queue-sheet]");
    var here = box ? box.dataset.queueSheet : window.location.pathname;
    all()
      .then(function (entries) {
        var body = new FormData(form);
        body.set(
          "waiting",
          String(
            entries.filter(function (entry) {
              return entry.sheet === here;
            }).length
          )
        );
        return fetch(form.getAttribute("action"), {
          method: "POST",
          body: body,
          credentials: "same-origin",
          headers: { "X-Requested-With": "fetch" },
        });
      })
      .catch(function () {
        /* offline: the organiser sees it from the last report's age */
      });
  }
  window.setInterval(heartbeat, 30000);

  window.addEventListener("online", flush);
  window.setInterval(function () {
    if (navigator.onLine !== false) {
      all().then(function (entries) {
        if (entries.some(function (e) { return e.status === "waiting"; })) flush();
      });
    }
  }, RETRY_MS);
  signal("loading");
  refresh().then(flush).then(heartbeat);
})();
