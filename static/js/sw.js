/* The service worker of the installable app, served at /sw.js by config.pwa (which
   puts self.TAROT_LEDGER = {version, shell, static, manifest} before this file).

   - install: caches the app shell (styles, scripts, icons, the manifest);
   - pages (a navigation, GET): the network first, and a copy kept once opened;
     with no network the copy answers, so the sheet, the hand form and a table's
     link open offline once they have been opened (offline.js asks for the hand
     form's copy when the sheet opens: {warm: [urls]});
   - static files: the cache first (the version changes with every file of the
     shell, and a new version drops the old caches);
   - a post (a hand saved, the preview) is never answered here: offline.js keeps
     the hands in IndexedDB and sends them when the network is back;
   - logging out drops the pages kept (another person may use the phone next). */
/* global self, caches, fetch, Response, URL */
"use strict";

var FACTS = self.TAROT_LEDGER || { version: "dev", shell: [], static: "/static/", manifest: "" };
var LANG = FACTS.language || "en";
var SHELL_CACHE = "tarot-ledger-shell-" + FACTS.version;
var PAGES_CACHE = "tarot-ledger-pages";
var NOT_KEPT = /^\/(accounts|admin|i18n)\//;

self.addEventListener("install", function (event) {
  var urls = FACTS.shell.concat(FACTS.manifest ? [FACTS.manifest] : []);
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then(function (cache) {
        return cache.addAll(urls);
      })
      .then(function () {
        return self.skipWaiting();
      })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches
      .keys()
      .then(function (names) {
        return Promise.all(
          names
            .filter(function (name) {
              return name.indexOf("tarot-ledger-shell-") === 0 && name !== SHELL_CACHE;
            })
            .map(function (name) {
              return caches.delete(name);
            })
        );
      })
      .then(function () {
        return self.clients.claim();
      })
  );
});

/* Keep a copy of a page (a promise, settled once the copy is stored or left out). */
function keepPage(request, response) {
  if (!response || !response.ok || response.redirected || response.type !== "basic") {
    return Promise.resolve();
  }
  var type = response.headers.get("Content-Type") || "";
  if (type.indexOf("text/html") !== 0) return Promise.resolve();
  var copy = response.clone();
  return caches
    .open(PAGES_CACHE)
    .then(function (cache) {
      return cache.put(request.url, copy);
    })
    .catch(function () {
      /* a full disk: the page still shows, online */
    });
}

function offlineAnswer() {
  var text = String(FACTS.offline || "No network.").replace(/[<&]/g, "");
  return new Response(
    "<!doctype html><html lang=" + LANG + "><meta charset=utf-8>" +
      "<meta name=viewport content='width=device-width'>" +
      "<title>Tarot Ledger</title><p>" + text + "</p>",
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }
  );
}

function page(request) {
  return fetch(request)
    .then(function (response) {
      // kept before it shows: a page seen online opens offline from then on (its scripts
      // may cut the network the moment it shows: the browser tests do)
      return keepPage(request, response).then(function () {
        return response;
      });
    })
    .catch(function () {
      return caches
        .match(request.url, { cacheName: PAGES_CACHE, ignoreVary: true })
        .then(function (kept) {
          return kept || offlineAnswer();
        });
    });
}

function staticFile(request) {
  return caches.match(request, { ignoreVary: true }).then(function (kept) {
    if (kept) return kept;
    return fetch(request).then(function (response) {
      if (response.ok && response.type === "basic") {
        var copy = response.clone();
        caches.open(SHELL_CACHE).then(function (cache) {
          return cache.put(request, copy);
        });
      }
      return response;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && /\/accounts\/logout\/$/.test(url.pathname)) {
    caches.delete(PAGES_CACHE);
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.indexOf(FACTS.static) === 0 || url.pathname === FACTS.manifest) {
    event.respondWith(staticFile(request));
  } else if (request.mode === "navigate" && !NOT_KEPT.test(url.pathname)) {
    event.respondWith(page(request));
  }
});

/* offline.js: {warm: [urls], fresh} keeps a copy of pages the scorer will need
   offline: fetched when not kept yet (or always, with fresh); answered on the
   message's port once they are kept. */
function warmOne(href, fresh) {
  var url = new URL(href, self.location.origin);
  url.hash = "";
  if (url.origin !== self.location.origin || NOT_KEPT.test(url.pathname)) return null;
  return caches
    .match(url.href, { cacheName: PAGES_CACHE, ignoreVary: true })
    .then(function (kept) {
      if (kept && !fresh) return null;
      return fetch(url.href, { credentials: "same-origin" })
          .then(function (response) {
            return keepPage({ url: url.href }, response);
          })
          .catch(function () {
            /* offline: the copy kept earlier, if any, stays */
          });
    });
}

self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (!Array.isArray(data.warm)) return;
  var port = event.ports && event.ports[0];
  event.waitUntil(
    Promise.all(
      data.warm.map(function (href) {
        return warmOne(href, !!data.fresh);
      })
    ).then(function () {
      // the page waits for this answer to say it works offline (offline.js)
      if (port) port.postMessage({ warmed: data.warm.length });
    })
  );
});
