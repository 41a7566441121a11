"""Abuse limits: the client's address behind reverse proxies, and counters in the cache.

``client_address(request)``: with ``PROXY_COUNT`` (``DJANGO_PROXY_COUNT``) reverse
proxies in front, each appending the address it saw to ``X-Forwarded-For``, the
client is the ``PROXY_COUNT``-th entry from the right (the leftmost entries are
whatever the client sent, so they are never trusted); with none, the header is
ignored and ``REMOTE_ADDR`` is the client. django-axes uses the same function
(``AXES_CLIENT_IP_CALLABLE``), so the login lockout and these limits agree.

``Limit(scope, limit, window)``: at most ``limit`` hits per key in ``window``
seconds, counted in Django's cache (``CACHES["default"]``: the database cache
in ``config.settings``, shared by every worker process). ``limited(request)``
renders the translated 429 page.
"""

import ipaddress
from dataclasses import dataclass
from functools import wraps
from hashlib import sha256

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.template.loader import render_to_string


def client_address(request) -> str:
    count = getattr(settings, "PROXY_COUNT", 0)
    remote = _address(request.META.get("REMOTE_ADDR")) or UNKNOWN
    if count <= 0:
        return remote
    chain = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    chain = [a for a in chain if a]
    if len(chain) < count:
        return remote  # not through all the proxies: the nearest one is all we know
    return _address(chain[-count]) or remote


#: Where no address can be read (axes stores addresses in an IP field).
UNKNOWN = "0.0.0.0"


def _address(value) -> str | None:
    """``value`` if it is an IP address (as written by a proxy), else None."""
    try:
        return str(ipaddress.ip_address(str(value or "").strip()))
    except ValueError:
        return None


@dataclass(frozen=True)
class Limit:
    scope: str
    limit: int
    window: int  # seconds

    def _key(self, key) -> str:
        digest = sha256(str(key).strip().lower().encode("utf-8", "replace")).hexdigest()
        return f"throttle:{self.scope}:{digest[:32]}"

    def count(self, key) -> int:
        return cache.get(self._key(key), 0)

    def exceeded(self, key) -> bool:
        """Whether ``key`` has used up its hits (without counting one)."""
        return self.count(key) >= self.limit

    def hit(self, key) -> bool:
        """Count one hit for ``key``; whether it was within the limit."""
        name = self._key(key)
        if cache.add(name, 1, self.window):
            return self.limit >= 1
        try:
            value = cache.incr(name)
        except ValueError:  # expired between add and incr
            cache.add(name, 1, self.window)
            value = 1
        return value <= self.limit

    def reset(self, key) -> None:
        cache.delete(self._key(key))


def limited(request) -> HttpResponse:
    """The 429 answer: the translated "too many attempts" page."""
    return HttpResponse(render_to_string("429.html", request=request), status=429)


def private_link(find, *, link_limit: "Limit", miss_limit: "Limit"):
    """A view decorator for the pages reached by a private link's token (a table's, a
    captain's): ``find(token)`` gives the link's object, or ``None`` for a wrong or
    revoked token, which answers 404 and counts towards the address's misses (the
    address is refused for a while past ``miss_limit``); each link's requests count
    towards ``link_limit``. Calls ``view(request, token, found, …)``."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, token, *args, **kwargs):
            address = client_address(request)
            if miss_limit.exceeded(address):
                return limited(request)
            found = find(token)
            if found is None:
                miss_limit.hit(address)
                raise Http404
            if not link_limit.hit(found.pk):
                return limited(request)
            return view(request, token, found, *args, **kwargs)

        return wrapped

    return decorator
