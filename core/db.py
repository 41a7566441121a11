"""Writes that survive a deadlock: ``retry_on_conflict`` reruns a whole transaction.
Also: commits that do not wait for the disk, many rows read as the driver gives
them (``plain_values``), and savepoints left out where they would be lost work
(``savepoint_needed``).

PostgreSQL breaks a deadlock by killing one of the transactions in it
(``40P01``), and a serializable transaction may be refused at any statement or
at commit (``40001``). Both are safe to run again from the start: the decorated
function opens its own ``transaction.atomic()``, which rolled everything back.

Only the outermost transaction can be run again: a function called inside an
open ``atomic`` block (a savepoint of somebody else's transaction) runs once,
and the error goes up to whoever opened the outer block.
"""

import random
import time
from functools import wraps

from django.core.exceptions import EmptyResultSet
from django.db import DEFAULT_DB_ALIAS, OperationalError, connections, transaction
from django.db.models.query import ValuesIterable

#: Deadlock detected, serialization failure.
RETRY_SQLSTATES = frozenset({"40P01", "40001"})
#: How many times a transaction is run in all before the error goes up.
ATTEMPTS = 5


def is_conflict(error: BaseException) -> bool:
    """Whether ``error`` is a deadlock or serialization failure (worth running again)."""
    if not isinstance(error, OperationalError):
        return False
    cause = error.__cause__
    sqlstate = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    return sqlstate in RETRY_SQLSTATES


def retry_on_conflict(func=None, *, attempts: int = ATTEMPTS, using: str = DEFAULT_DB_ALIAS):
    """Run ``func`` again (up to ``attempts`` times in all) when its transaction meets a
    deadlock or a serialization failure; any other error goes up at once.

    ``func`` must open its transaction itself (``with transaction.atomic():``) and
    change nothing outside the database before it commits.
    """

    def decorator(func):
        @wraps(func)
        def wrapper(*args, **kwargs):
            if connections[using].in_atomic_block:  # a savepoint: the outer block decides
                return func(*args, **kwargs)
            for attempt in range(1, attempts + 1):
                try:
                    return func(*args, **kwargs)
                except OperationalError as error:
                    if attempt == attempts or not is_conflict(error):
                        raise
                # the other transaction goes on: wait a little, more each time
                time.sleep(random.uniform(0, 0.01 * 2**attempt))  # noqa: S311
            raise AssertionError("unreachable")  # pragma: no cover

        return wrapper

    return decorator(func) if func is not None else decorator


# ------------------------------------------------------- bulk loads and the disk
#
# A bulk load (the import's writer processes) commits each sheet without waiting
# for the disk (``commit_without_waiting``: PostgreSQL's ``synchronous_commit
# off``, for that connection only). The database stays consistent: a crash can
# only lose the last commits, each whole, never half a sheet. Before it reports,
# the load flushes them (``flush_to_disk``): what it reports as written is on
# disk when it reports.


#: The class of the advisory locks that serialise one club's ledger writes.
CLUB_LOCK_CLASS = 7342


def club_write_lock(club_id, using: str = DEFAULT_DB_ALIAS) -> None:
    """Serialise the ledger writes of one club until the transaction ends (PostgreSQL's
    ``pg_advisory_xact_lock``; SQLite writes one transaction at a time anyway).

    A hand's write locks its sheet, then the season's totals of its players, then
    (through ``scoresheet.signals``) their ratings, re-rated from a corrected sheet
    on: two writes of a club sharing players could each hold what the other waits
    for and deadlock again and again. Taken first, this one lock orders them. One
    query a write; a club's tables still write side by side with other clubs'."""
    connection = connections[using]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [CLUB_LOCK_CLASS, club_id])


def savepoint_needed(using: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether a block about to open needs a savepoint of its own to be rolled back alone.

    Not when the open blocks, from the innermost out, reach a durable one (the
    outermost transaction, as ``core.idempotency.once`` opens it) without any
    asking for a savepoint: whatever the new block raises goes up through them and
    rolls the durable one back whole, so a savepoint (two queries) would be lost
    work. ``transaction.atomic(savepoint=savepoint_needed())``."""
    for block in reversed(connections[using].atomic_blocks):
        if block.durable:
            return False
        if block.savepoint:
            return True
    return True


def commit_without_waiting(using: str = DEFAULT_DB_ALIAS) -> None:
    """This connection's commits stop waiting for the disk (PostgreSQL; elsewhere
    nothing changes)."""
    connection = connections[using]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO off")


def flush_to_disk(using: str = DEFAULT_DB_ALIAS) -> None:
    """Return once every commit made so far, on any connection, is on disk.

    PostgreSQL writes its log in order and, on a commit that waits for the disk,
    flushes it up to that commit: a transaction that writes one record to the log
    (``pg_logical_emit_message``, transactional: a message no table keeps; any user
    may, at any ``wal_level``) and commits with ``synchronous_commit on`` flushes
    every commit before it at once, where the WAL writer would take up to a few
    hundred milliseconds. (A transaction that writes nothing to the log, even one
    with a transaction id, commits without flushing.) Elsewhere commits always
    wait: nothing to do. Not inside a transaction (its commit is the flush).
    """
    connection = connections[using]
    if connection.vendor != "postgresql":
        return
    if connection.in_atomic_block:
        raise RuntimeError("flush_to_disk() commits: call it outside a transaction")
    with transaction.atomic(using=using), connection.cursor() as cursor:
        cursor.execute("SET LOCAL synchronous_commit TO on")
        cursor.execute("SELECT pg_logical_emit_message(true, 'tarot-ledger', 'flush')")


# ------------------------------------------------------- reading many rows


def plain_values(queryset) -> list[dict]:
    """``list(queryset)`` of a ``values()`` queryset, read without Django's converters
    where the driver already gives Python's own types (PostgreSQL: ``int`` for
    integers, sums of integers and counts, ``Decimal`` for numeric, ``date``):
    Django converts every value of an aggregate again (``int(value)`` for each
    ``Sum`` of an integer column), 147,000 calls and some 30 ms for a season's 600
    rows of 56 sums. Elsewhere (SQLite gives dates as text, decimals as floats) the
    queryset as Django reads it."""
    if queryset._iterable_class is not ValuesIterable:
        raise TypeError("plain_values() reads a values() queryset")
    connection = connections[queryset.db]
    if connection.vendor != "postgresql":
        return list(queryset)
    query = queryset.query
    if query.selected:
        names = list(query.selected)
    else:  # as ValuesIterable names them
        names = [*query.extra_select, *query.values_select, *query.annotation_select]
    try:
        sql, params = query.get_compiler(queryset.db).as_sql()
    except EmptyResultSet:
        return []
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
