"""The installable web app: its manifest and its service worker, at the site's root.

The service worker's code is a static file (``static/js/sw.js``); this view serves it
at ``/sw.js`` so that its scope is the whole site (a worker's scope is at most the
folder it is served from), preceded by one line of facts: the version (a digest of the
app shell's files, so a new deploy installs a new worker and drops the old caches) and
the app shell's URLs (as ``{% static %}`` writes them, hashed in production). The
manifest names the app in the visitor's language and points at the PNG icons under
``static/img/`` (drawn once from ``icon.svg``).
"""

import hashlib
import json
from functools import lru_cache
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

#: What every page needs offline: styles, scripts, icons. Pages themselves are
#: cached by the worker once opened (the sheet, the hand form, a table's link).
SHELL = (
    "css/app.css",
    "css/hand.css",
    "css/sheet.css",
    "css/tournament_day.css",
    "css/theme.css",
    "js/theme.js",
    "js/app.js",
    "js/offline.js",
    "js/form_common.js",
    "js/hand_form.js",
    "js/savoyard_form.js",
    "js/sheet.js",
    "js/tarot_engine.js",
    "img/icon.svg",
    "img/icon-192.png",
)
ICONS = (
    ("img/icon-192.png", "192x192", "any"),
    ("img/icon-512.png", "512x512", "any"),
    ("img/icon-maskable-512.png", "512x512", "maskable"),
)
THEME = "#17694b"


def _read(name: str) -> bytes:
    """A static file's bytes: from the app's folders, or collected (production)."""
    path = finders.find(name)
    if path:
        with open(path, "rb") as handle:
            return handle.read()
    with staticfiles_storage.open(name) as handle:
        return handle.read()


def static_prefix() -> str:
    """The path every static file's URL starts with (STATIC_URL's path, with its slashes)."""
    path = urlsplit(settings.STATIC_URL).path
    return "/" + path.strip("/") + "/" if path.strip("/") else "/"


@lru_cache(maxsize=8)
def worker_source(language: str) -> bytes:
    """``static/js/sw.js`` preceded by its facts (read once per process and language)."""
    digest = hashlib.sha256()
    for name in ("js/sw.js", *SHELL):
        digest.update(_read(name))
    facts = {
        "version": digest.hexdigest()[:16],
        "shell": [static(name) for name in SHELL],
        # the prefix itself, not static(""): a manifest storage refuses a file named ""
        "static": static_prefix(),
        "manifest": reverse("manifest"),
        # the page a navigation gets offline when the page was never kept
        "offline": _("No network, and this page was not opened on this phone before."),
        "language": language,
    }
    head = f"self.TAROT_LEDGER = {json.dumps(facts)};\n"
    return head.encode() + _read("js/sw.js")


@require_safe
def service_worker(request):
    response = HttpResponse(
        worker_source(get_language()), content_type="text/javascript; charset=utf-8"
    )
    # the browser checks for a new worker at each visit; never serve a stale one
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def manifest(request):
    name = _("Tarot Ledger")
    data = {
        "name": name,
        "short_name": name,
        "description": _("French Tarot scores for clubs"),
        "lang": get_language(),
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME,
        "icons": [
            {"src": static(src), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for src, sizes, purpose in ICONS
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response
