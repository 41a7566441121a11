"""Each table's private link: ``/table/<token>/``, no account needed.

The token is derived from a random salt kept on the ``RoundTable`` and the site's
secret key (an HMAC), so the organiser can print it again, while the database
alone gives nobody a working link: it keeps the salt and a SHA-256 hash of the
token, and a request's table is found by the hash of the token it shows. A new
salt (``revoke``) makes a new link and kills the old one. A round drawn again
makes new tables, hence new links; swapping two players keeps them.

The same mechanism serves any row with ``token_salt`` and ``token_hash`` fields (a
team competition's captains' links, ``competitions.links``): ``issue``, ``token_of``
and ``find_in`` take the link's own ``key`` (an HMAC salt of its kind), so a token of
one kind never opens a row of another.
"""

import hashlib
import re
import secrets
from base64 import urlsafe_b64encode

from django.urls import reverse
from django.utils.crypto import constant_time_compare, salted_hmac

from tournaments.models import RoundTable

KEY_SALT = "tournaments.table-link"
TOKEN_LENGTH = 32  # characters: 24 bytes of HMAC, URL-safe base64


def new_salt() -> str:
    return secrets.token_urlsafe(24)


def token_of(salt: str, key: str = KEY_SALT) -> str:
    digest = salted_hmac(key, salt, algorithm="sha256").digest()
    return urlsafe_b64encode(digest[:24]).decode("ascii")


def hash_of(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def issue(table, key: str = KEY_SALT) -> None:
    """Give ``table`` (a ``RoundTable``, or any row with ``token_salt`` and
    ``token_hash``) a fresh link: salt and hash set; the caller saves."""
    table.token_salt = new_salt()
    table.token_hash = hash_of(token_of(table.token_salt, key))


def token(table: RoundTable) -> str:
    """The table's current token (a table drawn before links existed gets one)."""
    if not table.token_salt:
        issue(table)
        RoundTable.objects.filter(pk=table.pk).update(
            token_salt=table.token_salt, token_hash=table.token_hash
        )
    return token_of(table.token_salt)


def url(table: RoundTable, request=None) -> str:
    """The table's link, absolute when ``request`` is given (for the QR code)."""
    path = reverse("table:sheet", args=[token(table)])
    return request.build_absolute_uri(path) if request is not None else path


def find_in(queryset, raw: str):
    """The row of ``queryset`` whose link shows ``raw``, or None (a wrong or revoked
    token)."""
    if not raw or not isinstance(raw, str) or len(raw) != TOKEN_LENGTH:
        return None
    return queryset.filter(token_hash=hash_of(raw)).first()


def find(raw: str):
    """The table whose link shows ``raw``, or None (a wrong or revoked token)."""
    return find_in(RoundTable.objects.select_related("round__tournament__club", "sheet"), raw)


def qr_svg(text: str) -> str:
    """``text`` as a QR code, an inline SVG (segno; error correction M)."""
    import segno

    return segno.make(text, error="m").svg_inline(scale=4, border=2, omitsize=True)


# ---------------------------------------------------------------- one phone per table

TAKEOVER_SALT = "tournaments.takeover-code"
DEVICE_COOKIE = "tarot_device"  # a random id per browser, set by a table's link
DEVICE_PATTERN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def takeover_code(rnd) -> str:
    """The organiser's code of a round (six digits, shown on the round's page): another
    phone takes a table of this round over with it (``services.take_over_table``).
    Derived from the site's secret, nothing stored."""
    digest = salted_hmac(TAKEOVER_SALT, f"{rnd.pk}:{rnd.tournament_id}", algorithm="sha256")
    return f"{int.from_bytes(digest.digest()[:6], 'big') % 1_000_000:06d}"


def code_matches(rnd, code) -> bool:
    typed = re.sub(r"\s", "", str(code or ""))
    return constant_time_compare(typed, takeover_code(rnd))


def new_device() -> str:
    return secrets.token_urlsafe(24)


def device_of(raw) -> str:
    """What a table stores of a device cookie: its hash ("" for none or a malformed one)."""
    if not raw or not DEVICE_PATTERN.fullmatch(raw):
        return ""
    return hashlib.sha256(f"device:{raw}".encode()).hexdigest()
