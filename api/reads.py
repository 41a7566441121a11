"""What the API's operations share (``api.views``, ``api.league_views``): the path's
types, a write's ``Idempotency-Key`` header and its one run per key, the refusals an
operation may answer, and a bounded page of rows."""

import datetime
import math
import re
from typing import Annotated

from django.utils.translation import gettext as _
from ninja import Header, Path, Query
from pydantic import BeforeValidator, WithJsonSchema

from api import schemas as s
from api.errors import ApiError
from core.idempotency import Repeated, header_key, once

MAX_ID = 2**31 - 1
Slug = Annotated[str, Path(pattern=r"^[-a-zA-Z0-9_]{1,60}$")]
Id = Annotated[int, Path(ge=1, le=MAX_ID)]
PageNo = Annotated[int, Query(ge=1, le=1_000_000)]
#: A write's key (``core.idempotency``): posted again with it, the write is not repeated.
KeyHeader = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        pattern=r"^[A-Za-z0-9_-]{16,64}$",
        description="16 to 64 of A-Z a-z 0-9 _ -: posted again, the write is not repeated.",
    ),
]

#: the header a repeated write's answer carries
REPLAYED = "Idempotent-Replayed"


def once_per_key(request, response, create, *, url, key):
    """Run ``create`` once per ``Idempotency-Key`` (``core.idempotency.once``, the key
    stored in the write's transaction with ``url``): ``(result, None)``; a repeat runs
    nothing, marks ``response`` ``Idempotent-Replayed: true`` and gives ``(None, the
    URL stored with the key)``. A malformed key: 400 ``idempotency_key_invalid``."""
    try:
        key = header_key(request) if key is not None else None
    except ValueError:
        raise ApiError(
            400, "idempotency_key_invalid", _("The Idempotency-Key is not valid.")
        ) from None
    user = request.auth.user
    try:
        return once(request, create, url=url, key=key, user=user if key else None), None
    except Repeated as repeated:
        response[REPLAYED] = "true"
        return None, repeated.url


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _iso_date(value):
    """A date is written YYYY-MM-DD: pydantic would take ``0`` as 1 January 1970."""
    if isinstance(value, str) and not _ISO_DATE.fullmatch(value):
        raise ValueError("a date is written YYYY-MM-DD")
    if not isinstance(value, (str, datetime.date)):
        raise ValueError("a date is written YYYY-MM-DD")
    return value


#: A date in the query, ISO only.
IsoDate = Annotated[
    datetime.date,
    BeforeValidator(_iso_date),
    WithJsonSchema({"type": "string", "format": "date"}),
]
#: The refusals an operation may answer (api.errors), all with one body.
ERRORS = {frozenset({400, 401, 403, 404, 405, 409, 413, 415, 422, 429}): s.ErrorOut}


def answers(ok):
    return {**ok, **ERRORS}


def bounds(count, page, per_page) -> dict:
    """A page's figures: a page past the end is the last."""
    pages = max(1, math.ceil(count / per_page))
    return {"count": count, "page": min(page, pages), "per_page": per_page, "pages": pages}


def page_of(rows, page, per_page, count=None):
    """``(figures, rows)``: a bounded page of ``rows`` (a queryset or list)."""
    if count is None:
        count = len(rows) if isinstance(rows, list) else rows.count()
    info = bounds(count, page, per_page)
    start = (info["page"] - 1) * per_page
    return info, list(rows[start : start + per_page])
