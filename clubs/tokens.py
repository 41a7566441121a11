"""Personal API tokens (``clubs.models.ApiToken``): made and revoked on My account.

``create_token`` returns the token with its text, shown once (only its SHA-256 is
kept); ``revoke_token`` stops it at once (the API looks the token up at every
request). ``authenticate(text)`` is what the API calls: the live token with its user
and club in one query, or None. Each write is one transaction with an audit entry
in the token's club; refusals raise ``TokenError``: ``forbidden`` (not a member of the
club; a "write" token needs the score level), ``name_required``, ``scope_invalid``,
``token_revoked``.
"""

import datetime
import hashlib
import secrets

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _lazy

from clubs import audit
from clubs.models import ApiToken, Club
from clubs.permissions import require, role_of
from core.errors import ServiceError

#: Every token starts so (a secret scanner, or a reader, knows one when it sees one).
PREFIX = "tl_"
NAME_MAX = ApiToken._meta.get_field("name").max_length

error_messages = {
    "forbidden": _lazy("Only a member of the club may make a token for it."),
    "name_required": _lazy("Give the token a name (where it is used)."),
    "scope_invalid": _lazy("A token reads, or reads and writes."),
    "token_revoked": _lazy("This token is revoked already."),
    "not_yours": _lazy("This token is not yours."),
}


class TokenError(ServiceError):
    error_messages = error_messages


def token_hash(text: str) -> str:
    return hashlib.sha256(str(text).encode("utf-8", "replace")).hexdigest()


def create_token(*, club: Club, name: str, scope: str, actor) -> tuple[ApiToken, str]:
    """A new token of ``actor`` for ``club``; returns it and its text (shown once)."""
    if scope not in ApiToken.Scope.values:
        raise TokenError("scope_invalid", field="scope")
    name = " ".join(str(name or "").split())[:NAME_MAX]
    if not name:
        raise TokenError("name_required", field="name")
    if not (actor.is_superuser or role_of(actor, club) is not None):
        raise TokenError("forbidden", field="club")
    if scope == ApiToken.Scope.WRITE:
        require(actor, club, "score", TokenError)
    text = PREFIX + secrets.token_urlsafe(32)
    with transaction.atomic():
        token = ApiToken.objects.create(
            user=actor,
            club=club,
            name=name,
            scope=scope,
            prefix=text[: len(PREFIX) + 6],
            token_hash=token_hash(text),
        )
        after = {"name": name, "scope": scope, "prefix": token.prefix}
        audit.record(club, actor, audit.Action.TOKEN_CREATED, token, after=after)
    return token, text


def revoke_token(token: ApiToken, *, actor) -> ApiToken:
    """Stop ``token`` now; only its owner (or a superuser) may."""
    if token.user_id != actor.pk and not actor.is_superuser:
        raise TokenError("not_yours")
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().get(pk=token.pk)
        if token.revoked_at is not None:
            raise TokenError("token_revoked")
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        before = {"name": token.name, "scope": token.scope, "prefix": token.prefix}
        audit.record(token.club_id, actor, audit.Action.TOKEN_REVOKED, token, before=before)
    return token


def hit(token: ApiToken, limit: int, window: int = 60) -> bool:
    """Count one request of ``token``; whether it is within ``limit`` per ``window``
    seconds (a fixed window). One UPDATE of the token's row while its window runs (its
    row lock orders two requests at once), a second one when a new window starts: no
    cache round trips."""
    now = timezone.now()
    start = now - datetime.timedelta(seconds=window)
    rows = ApiToken.objects.filter(pk=token.pk)
    if rows.filter(window_start__gt=start, hits__lt=limit).update(hits=F("hits") + 1):
        return True
    renewed = Q(window_start__isnull=True) | Q(window_start__lte=start)
    return bool(limit >= 1 and rows.filter(renewed).update(window_start=now, hits=1))


def authenticate(text: str) -> ApiToken | None:
    """The live token whose text this is, with its user and club (one query), or None.
    A token of an inactive login opens nothing."""
    text = str(text or "").strip()
    if not text.startswith(PREFIX) or len(text) > 100:
        return None
    token = (
        ApiToken.objects.live()
        .select_related("user", "club")
        .filter(token_hash=token_hash(text))
        .first()
    )
    if token is None or not token.user.is_active:
        return None
    return token
