"""One guard against creating the same thing twice: the idempotency key of a create form.

A form that creates something carries a hidden random key, generated when the
form is rendered (``{% load idempotency %}{% idempotency_field %}``; a form
shown again after an error keeps the key it was posted with). The view runs
the creation through ``once``, which writes the key (``core.models.IdempotencyKey``,
unique) in the same transaction as the creation, with the URL of the result.
A second post with the same key — a double tap, a retry after a lost answer,
two posts at the same instant — creates nothing: ``once`` raises ``Repeated``,
and the view decorated with ``@idempotent`` answers with a redirect to the first
result. When two posts race, the second one's insert of the key waits for the
first one's transaction and then finds the key taken (``INSERT … ON CONFLICT DO
NOTHING``): it answers with the first one's result. If the first one was refused
(rolled back), its key was never stored and the second one runs.

In a view::

    @club_view("score")
    @idempotent
    def hand_create(request, slug, sheet_id):
        ...
        hand = once(request, lambda: services.record_hand(...), url=sheet_url)

A post without a (well-formed) key runs unguarded (in a transaction all the same).
"""

import re
import secrets
from functools import wraps

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import InterfaceError, OperationalError, connection, transaction
from django.http import JsonResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _

from core.db import retry_on_conflict
from core.models import IdempotencyKey

FIELD_NAME = "idempotency_key"
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def new_key() -> str:
    """A fresh random key (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


def posted_key(request) -> str | None:
    """The well-formed key the request posted, if any."""
    if request is None or request.method != "POST":
        return None
    key = request.POST.get(FIELD_NAME, "")
    return key if KEY_PATTERN.fullmatch(key) else None


class Repeated(Exception):
    """This form was already posted and did its work: ``url`` is its result."""

    def __init__(self, url: str):
        super().__init__(url)
        self.url = url


def header_key(request, header="Idempotency-Key") -> str | None:
    """The key sent in a request's ``Idempotency-Key`` header (the JSON API), if any;
    ``ValueError`` if it is there but not well-formed (16 to 64 of ``A-Za-z0-9_-``)."""
    key = request.headers.get(header)
    if key is None:
        return None
    if not KEY_PATTERN.fullmatch(key):
        raise ValueError(key)
    return key


def once(request, create, *, url, key=None, user=None):
    """Run ``create()`` once per key of the posted form; return what it returned.

    ``url``: the page of the result (a string, or a function of ``create()``'s
    result), where a repeated post is sent. Raises ``Repeated`` for a key already
    used; any error of ``create()`` goes up with nothing written (the key neither).
    ``create()`` runs in the transaction of the key, opened here with or without a
    key; it is durable (the outermost one: it goes whole on any error), so what runs
    in it may leave its savepoint out (``scoresheet.services.record_hand``).
    Runs again on a deadlock (``core.db.retry_on_conflict``), and once more on a
    fresh connection when the database connection died before the commit (a
    restarted server, a killed backend: ``OperationalError``/``InterfaceError`` and
    the connection unusable), for a post with a key only: if the first attempt did
    commit after all, its key is stored and the second one answers ``Repeated``,
    so nothing is saved twice.

    ``key`` and ``user``: a key read elsewhere than the posted form (the API's
    ``Idempotency-Key`` header, ``header_key``) and the user it belongs to.
    """
    if key is None:
        key = posted_key(request)
        user = request.user if key is not None and request.user.is_authenticated else None

    @retry_on_conflict
    def attempt():
        with transaction.atomic(durable=True):
            row_id = None if key is None else _claim(key, user)
            result = create()
            if row_id is not None:
                result_url = url(result) if callable(url) else url
                IdempotencyKey.objects.filter(pk=row_id).update(result_url=result_url)
            return result

    try:
        return attempt()
    except (OperationalError, InterfaceError) as error:
        if key is None or connection.in_atomic_block or not _connection_lost(error):
            raise
        connection.close()  # the next query opens a fresh connection
        return attempt()


#: SQLSTATEs of a connection gone: class 08 (connection exception), and the server
#: ending it (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now)
LOST_STATES = ("57P01", "57P02", "57P03")


def _connection_lost(error) -> bool:
    """Whether ``error`` says the connection died (not a refusal of the statement)."""
    if isinstance(error, InterfaceError) or connection.connection is None:
        return True
    cause = error.__cause__
    state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    if state is not None:
        return state.startswith("08") or state in LOST_STATES
    try:
        return not connection.is_usable()
    except Exception:  # noqa: BLE001 (a broken connection may raise anything)
        return True


def _claim(key, user) -> int:
    """Store ``key`` (its row's id); raise ``Repeated`` if it is already stored.

    One ``INSERT … ON CONFLICT DO NOTHING``: no savepoint to recover from a clash.
    When two posts race, the second one's insert waits for the first one's
    transaction: committed, the key is there to read now; rolled back, it is
    inserted."""
    quote = connection.ops.quote_name
    created_at = IdempotencyKey._meta.get_field("created_at")
    sql = (
        f"INSERT INTO {quote(IdempotencyKey._meta.db_table)} "
        f"({quote('key')}, {quote('user_id')}, {quote('created_at')}, {quote('result_url')}) "
        f"VALUES (%s, %s, %s, '') ON CONFLICT ({quote('key')}) DO NOTHING RETURNING {quote('id')}"
    )
    now = created_at.get_db_prep_save(timezone.now(), connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, [key, user.pk if user else None, now])
        inserted = cursor.fetchone()
    if inserted is not None:
        return inserted[0]
    used = IdempotencyKey.objects.get(key=key)
    if used.user_id != (user.pk if user else None):
        raise PermissionDenied
    raise Repeated(used.result_url)


def idempotent(view):
    """Answer a repeated post (``Repeated``) with a redirect to the first result; a
    post from the phone's queue of hands (header ``X-Tarot-Queue``, static/js/offline.js)
    gets the first result's URL as JSON: already stored, it leaves the queue."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except Repeated as repeated:
            if request.headers.get("X-Tarot-Queue") == "1":
                return JsonResponse({"saved": None, "url": repeated.url or request.path})
            messages.info(request, _("This form was already sent: it was saved once."))
            return redirect(repeated.url or request.path)

    return wrapped
