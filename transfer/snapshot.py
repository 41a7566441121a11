"""One consistent view of the database for a long read: a club's backup
(``transfer.backup.chunks``) and a season's exports (``transfer.streams``) read
every row as the database was at their first query, so a hand recorded meanwhile
is wholly in the file or wholly out of it, and the counts and progress they
announce add up to the rows they write."""

import threading
from contextlib import contextmanager

from django.db import connection, transaction

_snapshots = threading.local()


def in_snapshot() -> bool:
    """Whether this thread reads a backup's snapshot (``snapshot``) now: its connection
    is in a read-only transaction, which writes nothing and shows others nothing."""
    return getattr(_snapshots, "open", False)


@contextmanager
def snapshot():
    """One consistent view of the database for the block: on PostgreSQL a ``REPEATABLE
    READ``, ``READ ONLY`` transaction (its snapshot taken at its first query; the
    server-side cursors of ``.iterator()`` live in it); on SQLite one read
    transaction (``BEGIN DEFERRED``: the settings' ``IMMEDIATE`` would take the write
    lock and stop every writer for the backup's length; in the WAL journal the
    settings choose, a read transaction sees the database as it began while writers
    commit beside it). Inside a
    transaction already (a test's, a caller's), its view is the block's: the
    isolation of a begun transaction cannot change."""
    if connection.in_atomic_block:
        yield
        return
    sqlite = connection.vendor == "sqlite"
    if sqlite:
        connection.ensure_connection()  # its mode is read from the settings when it opens
        saved, connection.transaction_mode = connection.transaction_mode, "DEFERRED"
    try:
        with transaction.atomic():
            if sqlite:
                connection.transaction_mode = saved
            else:
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            _snapshots.open = True
            try:
                yield
            finally:
                _snapshots.open = False
    finally:
        if sqlite:
            connection.transaction_mode = saved
