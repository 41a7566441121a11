"""Who is ahead: one rank rule, for the ORM, for raw SQL and for rows already in Python.

The rule (standard competition ranking, SQL's ``RANK()``):

- the highest key is ahead: rank 1 goes to the greatest value;
- equal keys share a rank, and the next rank skips as many places as there were
  tied rows: 1, 2, 2, 4 (never 1, 2, 2, 3);
- with several keys, the first decides and the next ones only part its ties; rows
  equal on every key share a rank;
- a missing key (SQL ``NULL``, Python ``None``) is behind every value, and the
  missing ones tie with each other (``DESC NULLS LAST``: the same on SQLite and
  PostgreSQL, which otherwise put ``NULL`` at opposite ends);
- a partition ranks on its own (1, 2, 2, 4 again in each).

The rank says nothing of the order the tied rows are *listed* in: each caller orders
its rows by rank, then by its own tie-breaker (a name, an entry number).

Three faces of the one rule, which the tests hold to each other
(``tests/core/test_ranking.py``):

``rank_window(*keys, partition_by=...)``
    the ORM's ``Window(Rank(), ...)``, to ``annotate(rank=...)`` a queryset;
``rank_sql(*keys, partition_by=...)``
    the same window as a SQL fragment, for a query kept in raw SQL for its speed;
``rank(rows, key=...)``
    the same ranks for rows already fetched (a sum made in Python).
"""

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.db.models import Expression, F, Window
from django.db.models.functions import Rank

Row = TypeVar("Row")


def _expression(key):
    return F(key) if isinstance(key, str) else key


def rank_window(*keys, partition_by=None) -> Window:
    """``RANK() OVER ([PARTITION BY …] ORDER BY key DESC NULLS LAST, …)`` for ``annotate``.

    ``keys``: field names or expressions, highest first (never a ready ``.desc()``:
    the direction is the rule's). ``partition_by``: a field name or expression, or
    a list of them."""
    if not keys:
        raise ValueError("rank_window needs at least one key")
    if partition_by is not None and not isinstance(partition_by, list | tuple):
        partition_by = [partition_by]
    return Window(
        Rank(),
        partition_by=[_expression(p) for p in partition_by] if partition_by else None,
        order_by=[_desc(_expression(key)) for key in keys],
    )


def _desc(expression):
    if not isinstance(expression, Expression | F):
        raise TypeError(f"rank_window ranks a field or an expression, not {expression!r}")
    if hasattr(expression, "descending"):  # an OrderBy: the caller chose a direction
        raise TypeError("rank_window chooses the direction: pass the key without .desc()/.asc()")
    return expression.desc(nulls_last=True)


def rank_sql(*keys: str, partition_by: str | Iterable[str] = ()) -> str:
    """The same window as SQL: ``RANK() OVER ([PARTITION BY …] ORDER BY k DESC NULLS LAST, …)``.

    ``keys`` and ``partition_by`` are SQL expressions written by the caller (column
    names, an aggregate), never user input: they are pasted into the statement."""
    if not keys:
        raise ValueError("rank_sql needs at least one key")
    if isinstance(partition_by, str):
        partition_by = [partition_by]
    partition = ", ".join(partition_by)
    over = f"PARTITION BY {partition} " if partition else ""
    order = ", ".join(f"{key} DESC NULLS LAST" for key in keys)
    return f"RANK() OVER ({over}ORDER BY {order})"


def _sort_key(value) -> tuple:
    """A key that sorts, highest first under ``reverse=True``, with ``None`` behind
    (per part of a tuple key, as ``NULLS LAST`` per ORDER BY term)."""
    parts = value if isinstance(value, tuple) else (value,)
    return tuple((part is not None, 0 if part is None else part) for part in parts)


def rank(rows: Iterable[Row], *, key: Callable[[Row], Any]) -> list[tuple[int, Row]]:
    """``rows`` ranked on ``key(row)`` (a value, or a tuple of keys in order), highest
    first: a list of ``(rank, row)`` in rank order. Tied rows keep the order they came
    in (a stable sort): list them in the tie-breaker's order first."""
    rows = list(rows)
    keys = [key(row) for row in rows]
    if any(k is None or isinstance(k, tuple) for k in keys):
        keys = [_sort_key(k) for k in keys]
    # else plain values, sorted as they are (thousands of rows: several times faster)
    order = sorted(range(len(rows)), key=keys.__getitem__, reverse=True)  # stable
    out, previous, place = [], None, 0
    for position, index in enumerate(order, start=1):
        if position == 1 or keys[index] != previous:
            place = position
        previous = keys[index]
        out.append((place, rows[index]))
    return out
