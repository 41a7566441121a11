"""A whole club in one file, and back: ``backup(club)`` and ``restore(data)``.

The backup holds every row of the club in the apps that keep its data (clubs,
scoresheet, tournaments): the club, seasons, players, memberships and roles,
invitations, the audit trail, sheets, seats, hands, score rows, hand revisions, sheet
and season totals, tournaments — each model reached through foreign keys that are never
null (each app registers its rows itself, ``core.backup_rows``; a test fails when a
model of these apps has none) — and the logins those rows name (username, names, email,
dates; never a password hash: a restored login sets its password through "Forgot your
password?", or a manager invites it again). The file ends with the number of rows of
each model (``counts``). It is read in one snapshot (``snapshot``: a hand recorded
meanwhile is wholly in it or wholly out), from the database's cursor, a batch of rows
at a time (``dump.BATCH``): its memory does not grow with the club.

``restore`` is a validated import into an instance that does not hold the club
yet, with the same primary keys (so history entries and links between rows stay
exactly as they were). Every row must belong to the file's club: each of its
keys names a row of the file (or one of its logins) and its path leads to the
club, so a row naming another club's rows, or a membership there, refuses the
file. Fields hold their choices and bounds; rules are read by the engine; every
live hand is scored again and must give its score rows; the totals and facts
are counted again from the ledger, never read from the file. A login whose
username exists is reused, others are created without privileges (with their
old id when free); a login gets its membership (and, existing before, its player)
only when the site administrator confirmed it (``named``: a file may name anyone).
A person is this site's person of the licence only when the name matches too. It
is one transaction, with an audit entry; it refuses
(``BackupError``: ``backup_invalid`` naming the first bad row, ``club_exists``,
``not_empty``) without writing anything.

The file (version 3) holds a row a line, so the restore reads it as a stream and
holds only a batch of rows at a time: no model instances, each row a tuple of
column values (COPY on PostgreSQL, sent while the next rows are read), the links
between rows checked in SQL against a temporary table of the file's keys (a batch
at a time as it is written, on PostgreSQL), the hands scored again a batch of
sheets at a time. Files of versions 1 and 2 (one JSON document) are read whole, as
before.

Where each part lives:

* ``rows``: the rows the apps registered (``core.backup_rows``), in the file's order;
* ``dump``: writing the file (``chunks``, ``write``);
* ``reading``: reading it (``Source``), its ``preview`` and ``summary``;
* ``restoring``: ``restore``, the order of its steps;
* ``writer`` and ``columns``: each row checked and its values taken (``Writer``,
  ``Columns``); ``database``: the batches written, the keys' tables and checks;
* ``logins``: the logins and persons the rows name; ``hands``: the ledger scored again.
"""

from transfer.backup.dump import backup, chunks, dumps, write
from transfer.backup.reading import preview, summary
from transfer.backup.refusals import FORMAT, VERSION, VERSIONS, BackupError
from transfer.backup.restoring import restore
from transfer.backup.rows import club_paths, club_rows, path_fields, paths

__all__ = [
    "FORMAT",
    "VERSION",
    "VERSIONS",
    "BackupError",
    "backup",
    "chunks",
    "club_paths",
    "club_rows",
    "dumps",
    "path_fields",
    "paths",
    "preview",
    "restore",
    "summary",
    "write",
]
