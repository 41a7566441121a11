"""Hostile input to every URL: no 5xx, and a refusal writes nothing.

Every URL the resolver knows (as ``tests/test_permissions.py`` walks it, so a new
URL is fuzzed without being listed here), as every kind of user (anonymous, a
stranger, a member, a scorer, a manager): GET with each hostile value in every
query parameter the project reads, and POST with each hostile value in every
form field any page shows, with the fields missing, repeated, or sent as JSON.
The list of values is fixed: the test is deterministic and bounded.

A 4xx, or a form shown again (200 to a POST), must leave the database as it was.
"""

import html
import itertools
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import NoReverseMatch, get_resolver, reverse
from django.urls.resolvers import URLResolver

from clubs.models import Invitation, Player
from tests.test_permissions import (
    CLUB_URLS,
    SITE_URLS,
    USERS,
    World,
    client_for,
    expected,
    state,
)

#: Negative, huge, non-ASCII digits, NUL, long, empty, wrong types, formula, bad date.
VALUES = [
    "-1",
    "4611686018427387904",
    "99999999999999999999999999",
    "²",
    "٣",
    "a\x00b",
    "A" * 10_000,
    "",
    "=HYPERLINK(1)",
    "2026-13-45",
]
#: For the other users: a huge number, a non-ASCII digit, a NUL.
FEW = ["4611686018427387904", "٣", "a\x00b"]
#: Every query parameter a page reads (request.GET, filter sets, tables, exports).
QUERY = [
    "page",
    "per_page",
    "sort",
    "_export",
    "season",
    "date_from",
    "date_to",
    "seats",
    "players",
    "hand",
    "next",
    "q",
]
#: URLs whose POST changes the session itself rather than the database.
NOT_POSTED = {"logout"}


def every_url_name():
    """{name: {argument: converter}} for every named URL (the admin's aside)."""
    names = {}

    def walk(resolver, namespace=None, converters=None):
        for pattern in resolver.url_patterns:
            found = {**(converters or {}), **pattern.pattern.converters}
            if isinstance(pattern, URLResolver):
                ns = pattern.namespace or namespace
                if ns != "admin":
                    walk(pattern, ns, found)
            elif pattern.name:
                names[f"{namespace}:{pattern.name}" if namespace else pattern.name] = found

    walk(get_resolver())
    return names


def site_url(name, converters):
    """A site URL, its arguments made up (an unknown token, a big id)."""
    made_up = {"IntConverter": 999999, "UUIDConverter": "00000000-0000-4000-8000-000000000000"}
    kwargs = {
        argument: made_up.get(type(converter).__name__, "MQ-x")
        for argument, converter in converters.items()
    }
    # the converters met on the way may hold more than this name's own arguments (a
    # name mounted twice): the largest set of them that reverses
    for size in range(len(kwargs), -1, -1):
        for chosen in itertools.combinations(sorted(kwargs), size):
            try:
                return reverse(name, kwargs={argument: kwargs[argument] for argument in chosen})
            except NoReverseMatch:
                continue
    raise NoReverseMatch(name)


def urls(world):
    """(name, url, methods) for every URL: the open and the closed club's."""
    out = []
    for name, converters in sorted(every_url_name().items()):
        if name in CLUB_URLS:
            methods = CLUB_URLS[name][1]
            for slug in ("open", "closed"):
                try:
                    out.append((name, world.url(name, slug), methods))
                except KeyError:  # an object the world lacks: test_permissions says so
                    continue
        elif name in SITE_URLS:
            out.append((name, site_url(name, converters), "GP"))
    return out


def db_state():
    User = get_user_model()
    return (
        state(),
        list(User.objects.order_by("pk").values_list("pk", "username", "password", "email")),
        list(Player.objects.order_by("pk").values_list("pk", "name", "user_id")),
        list(Invitation.objects.order_by("pk").values_list("pk", "token_hash", "accepted_at")),
    )


@pytest.fixture(scope="module")
def _module_world(django_db_setup, django_db_blocker):
    from django.db import transaction

    with django_db_blocker.unblock(), transaction.atomic():
        yield World()
        transaction.set_rollback(True)


@pytest.fixture
def world(_module_world, db):
    return _module_world


@pytest.fixture(scope="module")
def _targets(_module_world, django_db_blocker):
    """The URLs and the fields their forms post, found once for the module."""
    from django.test import Client

    with django_db_blocker.unblock():
        targets = urls(_module_world)
        return targets, form_fields(Client(), _module_world, targets)


FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
FIELD = re.compile(r'<(?:input|select|textarea)[^>]*\bname="([^"]+)"')
ACTION = re.compile(r'\baction="([^"]*)"')


def form_fields(client, world, targets):
    """{url: field names} of every form the GET pages show (as a manager), by the URL
    each form posts to; ``None``: the union of them all."""
    client.force_login(world.users["manager"])
    forms = {}
    for _name, url, methods in targets:
        if "G" not in methods:
            continue
        response = client.get(url)
        if not response.get("Content-Type", "").startswith("text/html"):
            continue
        for attrs, body in FORM.findall(response.content.decode()):
            action = ACTION.search(attrs)
            target = html.unescape(action.group(1)) if action and action.group(1) else url
            forms.setdefault(target.split("?")[0], set()).update(FIELD.findall(body))
    client.logout()
    every = set().union(*forms.values())
    fields = {url: sorted(names - {"csrfmiddlewaretoken"}) for url, names in forms.items()}
    fields[None] = sorted(every - {"csrfmiddlewaretoken"})
    return fields


def refused(response, method):
    return response.status_code >= 400 or (method == "POST" and response.status_code == 200)


def denied(name, slug, who):
    """Whether the permission gate turns ``who`` away before any input is read."""
    if name not in CLUB_URLS:
        return False
    level = CLUB_URLS[name][0]
    return expected(level, slug, who, "G") != "ok"


@pytest.mark.fuzz
@pytest.mark.parametrize("who", USERS)
def test_hostile_input_never_breaks_a_page(world, _targets, client, who, settings):
    """A manager, who reaches every view past the gate, gets every value; the other
    users the gate lets in get a few (a huge number, a non-ASCII digit, a NUL); those
    it turns away get one, on both clubs (the gate reads no input)."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    client.raise_request_exception = False
    targets, fields = _targets
    assert "taker" in fields[None] and "name" in fields[None]  # the hand and season forms
    wrong = []
    for name, url, methods in targets:
        slug = "closed" if "/clubs/closed/" in url else "open"
        if denied(name, slug, who):
            values = FEW[:1]  # turned away at the gate, which reads no input
        elif slug == "closed" and name in CLUB_URLS:
            continue  # the same code as the open club's, past the gate
        else:
            values = VALUES if who == "manager" else FEW
        posted = fields.get(url) or fields[None]
        client.logout()
        client_for(client, world, who)
        for value in values:
            response = client.get(url, dict.fromkeys(QUERY, value))
            if response.status_code >= 500:
                wrong.append(f"GET {name} {value[:20]!r}: {response.status_code}")
        if "P" not in methods or name in NOT_POSTED:
            continue
        bodies = [dict.fromkeys(posted, value) for value in values]
        if len(values) > 1:  # missing and repeated fields
            bodies += [{}, {field: [VALUES[0], VALUES[3]] for field in posted}]
        before = db_state()
        for body in bodies:
            response = client.post(url, body)
            shown = repr(next(iter(body.values()), "")[:20])
            after = db_state()
            if response.status_code >= 500:
                wrong.append(f"POST {name} {shown}: {response.status_code}")
            elif refused(response, "POST") and after != before:
                wrong.append(f"POST {name} {shown}: refused ({response.status_code}) but wrote")
            before = after  # the state the next post starts from
        if len(values) > 1:  # a body of the wrong type
            response = client.post(url, "[1, 2]", content_type="application/json")
            if response.status_code >= 500:
                wrong.append(f"POST {name} JSON: {response.status_code}")
    mail.outbox.clear()
    assert not wrong, f"{len(wrong)} failures:\n" + "\n".join(wrong[:40])
