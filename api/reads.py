"""What the API's operations share (``api.views``, ``api.league_views``): the path's
types, a write's ``Idempotency-Key`` header, the refusals an operation may answer, and a
bounded page of rows."""

import datetime
import math
import re
from typing import Annotated

from ninja import Header, Path, Query
from pydantic import BeforeValidator, WithJsonSchema

from api import schemas as s

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
