"""Restoring a club's backup: ``restore(data)``, a validated import into a site that does
not hold the club yet, all or nothing (see ``restore``)."""

from collections.abc import Iterator

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Club
from scoresheet import signals
from scoresheet.totals import rebuild_season_totals
from transfer.backup.hands import check_hands, renumber
from transfer.backup.logins import restore_persons, restore_users, user_ids_of
from transfer.backup.reading import Source
from transfer.backup.refusals import FORMAT, VERSIONS, BackupError, first_line, invalid
from transfer.backup.writer import Writer


def restore(data, *, actor=None, logins=()) -> Club:
    """Write a backup (a dict, its JSON text, or a binary file open on it) into this
    instance; returns the club.

    A validated import, all or nothing: every row must belong to the file's club
    (each of its keys names a row of the file, and its path leads to the club);
    logins are matched by username or created without any privilege; rules are
    read by the engine; every live hand is scored again and must give its score
    rows; the standings' totals and facts are counted again from the ledger, never
    taken from the file. The first row refused is named in the ``BackupError``.

    A person of the file is this site's person of its licence only when the names
    match too (a licence held here by another name refuses the file). ``logins``: the
    usernames the site administrator confirmed (``named.EVERY_LOGIN``: all); the
    memberships of the others are left out, and so are the links to players of those
    that existed here before (``named``).

    Without model instances: each row becomes a tuple of column values (converters
    and checks made once per model, ``Columns``), written in batches (COPY on
    PostgreSQL, ``executemany`` on SQLite) with its key, in the file's order; the
    keys of the file go to a temporary table, against which one query per model
    finds a key naming no row of the file. A file of version 3 is read line by
    line: the memory it takes does not grow with the club.

    On PostgreSQL the database works while the next rows are read, and each batch's
    foreign keys are checked as it is written when it can be
    (``transfer.backup.database``). On SQLite each batch is written at once.

    Faster still where the site's login may set ``session_replication_role`` (a
    superuser, or ``GRANT SET ON PARAMETER session_replication_role TO …``,
    PostgreSQL 15): the rows are written in the replica role, for this transaction
    only, so that none of the 2.3 million foreign-key triggers fires (at 100,000
    hands: the database's CPU 16.1 → 10.0 s, the restore 24.0 → 20.0 s with the
    checks below; ``benchmarks/HISTORY.md``). Nothing goes unchecked:
    ``check_links`` finds a key naming no row of the file, ``check_foreign_keys``
    then a key naming no row of its table, one join per model, as the triggers would
    have; the logins and persons the rows name are locked as a trigger would lock
    them (``logins.hold``); the role is set back before anything else is written. A
    login that may not set it restores with the triggers, as above. (The replica role
    turns every trigger off, not only the foreign keys': the tables written have no
    other, and
    ``test_the_replica_role_turns_off_no_trigger_but_the_foreign_keys`` fails the day
    one has.)"""
    try:
        return _restore(Source.of(data), actor, logins)
    except RecursionError:
        raise invalid(_("nested too deeply")) from None


def _restore(source, actor, logins) -> Club:
    data = source.head
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise invalid(_("not a Tarot Ledger club backup"))
    if data.get("version") not in VERSIONS:
        raise invalid(_("version %(v)s is not one this site reads") % {"v": data.get("version")})
    if not isinstance(data.get("users"), list) or not isinstance(source.rows(), (list, Iterator)):
        raise invalid(_("users and objects: lists"))
    persons = data.get("persons", [])
    if not isinstance(persons, list) or not all(
        isinstance(p, dict) and isinstance(p.get("id"), int) and isinstance(p.get("name"), str)
        for p in persons
    ):
        raise invalid(_("persons: a list of ids and names"))
    user_ids = user_ids_of(data["users"])
    slug = str(data.get("club"))
    if Club.objects.filter(slug=slug).exists():
        raise BackupError(
            "club_exists", _("This site already has the club %(slug)s.") % {"slug": slug}
        )
    if isinstance(source.rows(), list):  # read whole: its counts checked before anything
        found = {}
        for row in source.rows():
            label = row.get("model") if isinstance(row, dict) else None
            found[label] = found.get(label, 0) + 1
        _check_counts(data["version"], source.counts, found)
    writer = None
    try:
        with transaction.atomic():
            users, existing = restore_users(data["users"])
            writer = Writer(slug, user_ids, users, restore_persons(persons), source.read_by_orjson)
            writer.confirm(data["users"], logins, existing)
            with connection.constraint_checks_disabled():
                try:
                    for number, row in enumerate(source.rows(), start=1):
                        writer.add(number, row)
                    writer.finish()
                    writer.triggers_on()
                except Exception:
                    # the connection free again for the rollback; a batch sent before
                    # the refused row and refused by the database holds the first bad row
                    earlier = writer.stop()
                    if earlier is not None:
                        raise earlier  # noqa: B904 (its own cause: the driver's error)
                    raise
                except BaseException:
                    writer.stop()
                    raise
            writer.analyse()
            _check_counts(data["version"], source.counts, writer.found)
            writer.check()
            writer.check_links()
            writer.check_foreign_keys()
            club = Club.objects.get(pk=writer.club_pk)
            connection.check_constraints(table_names=[m._meta.db_table for m in writer.written])
            _reset_sequences(list(writer.written) + [get_user_model()])
            renumber(club)
            check_hands(club)
            writer.drop()
            for season in club.seasons.all():  # (its sheets' totals: ``check_hands``)
                rebuild_season_totals(season, sheets=False)
            signals.changed(club.pk)
            after = {"sha256": source.digest, "rows": writer.rows, "users": len(data["users"])}
            if writer.left_out:
                after["logins_left_out"] = sorted(writer.left_out)
            audit.record(club, actor, audit.Action.CLUB_RESTORED, club, after=after)
    except IntegrityError as error:
        if writer is not None and writer.failed is not None:
            writer.refuse_held(*writer.failed)
        raise invalid(first_line(error)) from None
    except DatabaseError as error:
        where = writer.where_failed(error) if writer is not None else None
        raise invalid(f"{where}: {first_line(error)}" if where else first_line(error)) from None
    except (KeyError, TypeError, ValueError, ValidationError) as error:
        raise invalid(first_line(error)) from None
    return club


def _check_counts(version, counts, found) -> None:
    """A file of version 2 or 3 ends with the rows of each model: a file cut short,
    or rows added or taken out by hand, do not add up."""
    if version == 1:
        return
    if not isinstance(counts, dict) or not all(
        isinstance(c, int) and not isinstance(c, bool) for c in counts.values()
    ):
        raise invalid(_("the counts of rows are missing at the end"))
    for label in sorted(set(found) | set(counts), key=str):
        if found.get(label, 0) != counts.get(label, 0):
            raise invalid(
                _("%(count)s rows of %(model)s where the file counts %(counted)s")
                % {"count": found.get(label, 0), "model": label, "counted": counts.get(label, 0)}
            )


def _reset_sequences(model_list) -> None:
    """PostgreSQL: the id sequences after rows written with their ids."""
    statements = connection.ops.sequence_reset_sql(no_style(), model_list)
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)
