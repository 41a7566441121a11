"""Writes that survive a deadlock: ``retry_on_conflict`` reruns a whole transaction.

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

from django.db import DEFAULT_DB_ALIAS, OperationalError, connections

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
# only lose the last commits, each whole, never half a sheet. Its last commit
# waits for the disk (``commit_waits_for_disk``), which flushes every commit
# before it; or the load waits until the disk holds everything committed so far
# (``wait_for_disk``). What it reports as written is on disk when it reports.


def commit_without_waiting(using: str = DEFAULT_DB_ALIAS) -> None:
    """This connection's commits stop waiting for the disk (PostgreSQL; elsewhere
    nothing changes)."""
    connection = connections[using]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO off")


def commit_waits_for_disk(using: str = DEFAULT_DB_ALIAS) -> None:
    """The open transaction's commit waits for the disk (PostgreSQL), and so for
    every commit made before it, on any connection (the WAL is flushed in order)."""
    connection = connections[using]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO on")


def wait_for_disk(using: str = DEFAULT_DB_ALIAS, timeout: float = 30.0) -> bool:
    """Wait until every commit made so far, on any connection, is on disk
    (PostgreSQL's WAL flushed up to where it is now: the WAL writer does it within
    a few hundred ms). True once it is; False if ``timeout`` passed first (or on
    another database, where commits always wait)."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_insert_lsn()")
        (written,) = cursor.fetchone()
        deadline = time.monotonic() + timeout
        while True:
            cursor.execute("SELECT pg_current_wal_flush_lsn() >= %s::pg_lsn", [written])
            if cursor.fetchone()[0]:
                return True
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
