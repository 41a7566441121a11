"""A whole club in one file, and back: ``backup(club)`` and ``restore(data)``.

The backup holds every row of the club in the apps that keep its data (clubs,
scoresheet, tournaments): the club, seasons, players, memberships and roles,
invitations, the audit trail, sheets, seats, hands, score rows, hand
revisions, sheet and season totals, tournaments — each model reached through
foreign keys that are never null (``PATHS``, written out: a test fails when a
model of these apps has none) — and the logins those rows name (username,
names, email, dates; never a password hash: a restored login sets its password
through "Forgot your password?", or a manager invites it again). The file ends
with the number of rows of each model (``counts``). It is read in one snapshot
(``snapshot``: a hand recorded meanwhile is wholly in it or wholly out), from the
database's cursor, a batch of rows at a time (``BATCH``): its memory does not grow
with the club.

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
sheets at a time. Files of versions 1 and 2 (one JSON document) are read whole, as before.
"""

import datetime
import hashlib
import io
import json
import operator
import os
import re
import uuid
from array import array
from collections.abc import Iterator
from contextlib import closing
from decimal import Decimal

import orjson
import psycopg
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator
from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.db.models import OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _
from psycopg import errors as psycopg_errors
from psycopg import generators, pq
from psycopg.copy import LibpqWriter
from psycopg.waiting import Wait

from clubs import audit, visibility
from clubs.models import Club, Person, Player
from clubs.ranking import RankingError, parse_ranking
from clubs.refusals import message_of
from core.bulk import _copy_type, batches
from core.errors import ServiceError
from scoresheet import signals
from scoresheet.handmap import ROW_INPUTS, Table, hand_data, score_row_fields
from scoresheet.models import Hand, ScoreRow, Seat, Sheet
from scoresheet.totals import rebuild_season_totals, sheet_statements
from tarot import ScoringError, score_hand
from tarot.jsonformat import parse_hand, parse_rules
from transfer import named
from transfer.snapshot import snapshot

FORMAT = "tarot-ledger-club-backup"
#: 2: the file ends with ``counts``; a file of version 1 (without) is still read.
#: 3: one line per row (the persons in the head): the restore reads it as a stream.
VERSION = 3
VERSIONS = (1, 2, 3)
APPS = ("clubs", "scoresheet", "tournaments")
USER_FIELDS = ("username", "first_name", "last_name", "email", "is_active", "date_joined")


class BackupError(ServiceError):
    pass


#: Each model of ``APPS`` → the lookup from its rows to their club, through foreign
#: keys that are never null (``"pk"``: the club itself). Written out, not searched:
#: a row reached through an optional key (a hand's dealer, a table's sheet) would be
#: left out of the backup when the key is empty. A model added to these apps without
#: a path here fails ``tests/transfer`` (``test_every_model_has_a_path``).
PATHS = {
    "clubs.Club": "pk",
    "clubs.Player": "club",
    "clubs.Season": "club",
    "clubs.Membership": "club",
    "clubs.AuditEntry": "club",
    "clubs.Invitation": "club",
    "scoresheet.Sheet": "club",
    "scoresheet.Seat": "sheet__club",
    "scoresheet.Hand": "sheet__club",
    "scoresheet.ScoreRow": "hand__sheet__club",
    "scoresheet.HandRevision": "hand__sheet__club",
    "scoresheet.SheetTotal": "sheet__club",
    "scoresheet.SheetFacts": "sheet__club",
    "scoresheet.SeasonTotal": "season__club",
    "tournaments.Tournament": "club",
    "tournaments.Team": "tournament__club",
    "tournaments.Entry": "tournament__club",
    "tournaments.Round": "tournament__club",
    "tournaments.RoundTable": "round__tournament__club",
    "tournaments.TableResult": "round_table__round__tournament__club",
    "tournaments.Adjustment": "entry__tournament__club",
    "tournaments.TableTotal": "round_table__round__tournament__club",
    "tournaments.DealDecision": "round_table__round__tournament__club",
}


#: Rows several clubs share, which no path leads to one club: a person (a licence) is
#: linked to the players of several clubs. The backup carries the persons its rows name
#: beside them (``persons``: name, licence, série; never their login nor another club's
#: links), as it carries logins; the restore finds each by its licence, else creates it.
SHARED = {"clubs.Person"}
#: Rows of the club apps a backup leaves out on purpose: personal API tokens are a
#: login's credentials, not the club's data (a restored club's members make new ones).
LEFT_OUT = {"clubs.ApiToken"}
#: The keys of the club's rows that name a shared person.
PERSON_KEYS = {"clubs.Player": "person_id", "tournaments.Entry": "person_id"}


def club_paths() -> dict:
    """Each model of ``APPS`` that belongs to a club → the lookup from it to the club
    (``PATHS``), in an order where a row's targets come before it."""
    return {apps.get_model(label): path for label, path in PATHS.items()}


def path_fields(model, path) -> list:
    """The foreign keys ``path`` follows from ``model`` (empty for the club)."""
    fields = []
    if path == "pk":
        return fields
    for name in path.split("__"):
        field = model._meta.get_field(name)
        fields.append(field)
        model = field.related_model
    if model is not Club:
        raise ValueError(f"{path} leads to {model._meta.label}, not the club")
    return fields


def club_rows(club) -> dict:
    """Each model → its rows of ``club`` (a queryset ordered by primary key)."""
    return {
        model: model._default_manager.filter(**{path: club.pk}).order_by("pk")
        for model, path in club_paths().items()
    }


def _user_fields(model):
    User = get_user_model()
    return [f for f in model._meta.concrete_fields if f.is_relation and f.related_model is User]


def backup(club) -> dict:
    """The club as a JSON-ready dict, ending with the number of rows of each model
    (``counts``: the restore refuses a file whose rows do not add up to them).
    In memory: for tests and small clubs; the site and the command write ``chunks``."""
    return json.loads("".join(chunks(club)))


def chunks(club, progress=None, counts=None):
    """The club's backup as text, in chunks (``transfer.backup``'s format, version 3).

    One line for the head (format, version, club, users, persons), then one line per
    row, then one line for the counts: still one JSON document, which the restore
    reads line by line, in memory that does not grow with the club.

    One snapshot (``snapshot``): every query of the backup sees the database as it
    was at its first, so a hand recorded while it runs is wholly in the file or
    wholly out of it (its score rows, revisions and totals with it) and the counts
    add up. ``progress`` is called inside the snapshot: a writer of progress writes
    apart (``transfer.jobs.Progress``; ``in_snapshot``). ``counts`` (a dict,
    optional) receives the rows of each model written, as the file's end says."""
    counts = {} if counts is None else counts
    progress = progress or _nothing
    with snapshot():
        yield from _chunks(club, progress, counts)


def _persons(club, person_ids) -> list[dict]:
    """The persons the club's rows name: a person who plays for the club, or whom
    anybody may see named (``clubs.visibility``), as they are; a hidden person named
    only by a guest's record (another club's player) under that record's name, without
    their name, licence or série."""
    own = set(
        Player.objects.filter(club=club, is_guest=False, person_id__in=person_ids).values_list(
            "person_id", flat=True
        )
    )
    named = own | visibility.named_person_ids(None, person_ids - own)
    guests = dict(
        Player.objects.filter(club=club, is_guest=True, person_id__in=person_ids - named)
        .order_by("-pk")
        .values_list("person_id", "name")
    )
    return [
        {"id": p.pk, "name": p.name, "licence": p.licence, "serie": p.serie}
        if p.pk in named
        else {"id": p.pk, "name": guests.get(p.pk, "?"), "licence": None, "serie": ""}
        for p in Person.objects.filter(pk__in=person_ids).order_by("pk")
    ]


def _chunks(club, progress, counts):
    tables = club_rows(club)
    user_ids, person_ids, total = set(), set(), 0
    for model, rows in tables.items():
        total += rows.count()
        for field in _user_fields(model):
            found = rows.order_by().exclude(**{field.attname: None})
            user_ids.update(found.values_list(field.attname, flat=True).distinct())
        # the persons its players and entries name (``PERSON_KEYS``): name, licence,
        # série; never their login nor another club's players
        attname = PERSON_KEYS.get(model._meta.label)
        if attname:
            found = rows.order_by().exclude(**{attname: None})
            person_ids.update(found.values_list(attname, flat=True).distinct())
    users = get_user_model().objects.filter(pk__in=user_ids).order_by("pk")
    head = {"format": FORMAT, "version": VERSION, "club": club.slug}
    head["users"] = [
        {"id": user.pk, **{f: _plain(getattr(user, f)) for f in USER_FIELDS}} for user in users
    ]
    head["persons"] = _persons(club, person_ids)
    text = json.dumps(head, ensure_ascii=False)
    yield text[:-1] + ', "objects": ['
    done, first = 0, True
    progress(done, total)
    for model, rows in tables.items():
        count = 0
        # read CHUNK rows at a time from the cursor (its plain values), but made into
        # instances, dicts and text only BATCH at a time: the widest rows (a hand's
        # explanation, a sheet total's facts) held four times over for 2,000 rows were
        # the backup's peak, reached only once a model had 2,000 rows (so it grew with
        # the club up to there)
        for chunk in batches(rows.iterator(chunk_size=CHUNK), BATCH):
            lines = [
                json.dumps(row, ensure_ascii=False, default=_text)
                for row in serializers.serialize("python", chunk)
            ]
            yield ("\n" if first else ",\n") + ",\n".join(lines)
            first = False
            count += len(lines)
            done += len(lines)
            progress(done, total)
        counts[model._meta.label_lower] = count
    yield '\n], "counts": ' + json.dumps(counts) + "}\n"


def write(club, out, progress=None) -> tuple[dict, str]:
    """Write the backup to ``out`` (a binary file) in chunks; returns its counts per
    model and the SHA-256 of what was written."""
    counts, digest = {}, hashlib.sha256()
    # closed at once when writing fails (a full disk): its snapshot's read-only
    # transaction ends then, not when the error is forgotten (the job records it first)
    with closing(chunks(club, progress, counts)) as texts:
        for text in texts:
            data = text.encode()
            digest.update(data)
            out.write(data)
    return counts, digest.hexdigest()


def dumps(club) -> str:
    # in the order written (the counts last), not sorted
    return "".join(chunks(club))


def preview(source) -> dict:
    """What a backup file (binary, open) would create, read from its start and its
    end without reading it whole: ``{"club": slug, "counts": {model: rows}}``. A
    preview only: ``restore`` checks every row."""
    head = source.read(PREVIEW_BYTES).decode("utf-8", "replace")
    source.seek(0, os.SEEK_END)
    size = source.tell()
    source.seek(max(0, size - PREVIEW_BYTES))
    tail = source.read().decode("utf-8", "replace")
    found = re.search(r'"format":\s*"([^"]*)"', head)
    club = re.search(r'"club":\s*"([^"]*)"', head)
    counts_at = tail.rfind('"counts":')
    counts = None
    if counts_at >= 0:
        try:
            counts = json.loads(tail[counts_at + len('"counts":') :].rstrip().rstrip("}") + "}")
        except ValueError:
            counts = None
    if found is None or found.group(1) != FORMAT or club is None:
        raise _invalid(_("not a Tarot Ledger club backup"))
    if not isinstance(counts, dict) or not all(isinstance(c, int) for c in counts.values()):
        raise _invalid(_("the counts of rows are missing at the end"))
    if Club.objects.filter(slug=club.group(1)).exists():
        raise BackupError(
            "club_exists", _("This site already has the club %(slug)s.") % {"slug": club.group(1)}
        )
    source.seek(0)
    try:
        head = named.head(source)
        reason = named.refusal(head.get("persons"))
        if reason:
            raise _invalid(reason)
        logins = named.logins(source, head)
    except (ValueError, TypeError, KeyError, AttributeError):
        raise _invalid(_("not JSON")) from None
    return {"club": club.group(1), "counts": counts, "bytes": size, "logins": logins}


#: what ``preview`` reads of a file's start and of its end
PREVIEW_BYTES = 64 * 1024


def summary(counts: dict) -> str:
    """What a backup holds, for a person: ``1 club, 2 seasons, 40 hands…`` (rows
    of each model, the empty ones left out)."""
    parts = []
    for label, count in counts.items():
        if count:
            model = apps.get_model(label)
            name = model._meta.verbose_name if count == 1 else model._meta.verbose_name_plural
            parts.append(f"{count} {name}")
    return ", ".join(parts)


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
    and checks made once per model, ``_Spec``), written in batches (COPY on
    PostgreSQL, ``executemany`` on SQLite) with its key, in the file's order; the
    keys of the file go to a temporary table, against which one query per model
    finds a key naming no row of the file. A file of version 3 is read line by
    line: the memory it takes does not grow with the club.

    On PostgreSQL the database works while the next rows are read: each batch's
    COPY is sent, and its result read only before the connection's next statement
    (``_Writer._collect``; a refusal then names that batch). Before it, the batch's
    keys (each value once) are looked up among the file's keys read so far: when
    all are found, the COPY's query also fires the batch's deferred foreign-key
    triggers (``SET CONSTRAINTS ALL IMMEDIATE``, then ``DEFERRED`` again), so
    that neither the links' query per model nor the 2.3 million trigger checks of
    a 100,000-hand club wait for the end. The first key not found (a row named
    before it comes, such as a player merged into a later one, or a row not in the
    file) sends every check left to the end, as before: ``check_links`` names the
    row, ``check_constraints`` fires the triggers. One connection, no thread: a
    writing thread cost more CPU in handing the interpreter's lock over than it
    won (``benchmarks/HISTORY.md``). On SQLite each batch is written at once.

    Faster still where the site's login may set ``session_replication_role`` (a
    superuser, or ``GRANT SET ON PARAMETER session_replication_role TO …``,
    PostgreSQL 15): the rows are written in the replica role, for this transaction
    only, so that none of the 2.3 million foreign-key triggers fires (at 100,000
    hands: the database's CPU 16.1 → 10.0 s, the restore 24.0 → 20.0 s with the
    checks below; ``benchmarks/HISTORY.md``). Nothing goes unchecked: ``check_links`` finds a
    key naming no row of the file, ``check_foreign_keys`` then a key naming no row
    of its table, one join per model, as the triggers would have; the logins and
    persons the rows name are locked as a trigger would lock them (``_hold``); the
    role is set back before anything else is written. A login that may not set it
    restores with the triggers, as above. (The replica role turns every trigger off,
    not only the foreign keys': the tables written have no other, and
    ``test_the_replica_role_turns_off_no_trigger_but_the_foreign_keys`` fails the day
    one has.)"""
    try:
        return _restore(_Source.of(data), actor, logins)
    except RecursionError:
        raise _invalid(_("nested too deeply")) from None


class _Source:
    """A backup being read: its head (format, version, club, users, persons), its
    rows (an iterator, read once) and, once they are read, its ``counts``."""

    def __init__(self, head, rows, digest=None):
        self.head, self._rows, self._digest = head, rows, digest
        self.read_by_orjson = False  # True: its rows read by ``_lines``
        self.counts = head.get("counts") if isinstance(head, dict) else None

    @classmethod
    def of(cls, data) -> "_Source":
        if isinstance(data, dict):
            return cls(data, data.get("objects"))
        if isinstance(data, str):
            data = data.encode()
        if isinstance(data, (bytes, bytearray)):
            data = io.BytesIO(data)
        digest = hashlib.sha256()
        first = data.readline()
        digest.update(first)
        text = first.decode("utf-8", "replace").rstrip("\r\n")
        if text.endswith(OBJECTS):  # version 3: a row a line
            head = _loads(text[: -len(OBJECTS)].rstrip().rstrip(",") + "}")
            if isinstance(head, dict) and head.get("version") == 3:
                source = cls(head, None, digest)
                source._rows = source._lines(data)
                source.read_by_orjson = True
                return source
        rest = data.read()
        digest.update(rest)
        whole = _loads(first + rest)
        return cls(whole, whole.get("objects") if isinstance(whole, dict) else None, digest)

    def _lines(self, data):
        """The rows of a file of version 3, a line each, read by orjson (a tenth of
        ``json.loads``' time; it refuses what ``json`` refuses, and NaN, numbers
        beyond 64 bits and lines nested over 1,024 deep too: "not JSON"), then
        the counts at the end."""
        digest, loads = self._digest.update, orjson.loads
        for line in data:
            digest(line)
            if line.startswith(b"]"):  # the end: the counts
                text = line.decode("utf-8").rstrip("\r\n")
                tail = _loads("{" + text[1:].strip().lstrip(","))
                if not isinstance(tail, dict):
                    break
                self.counts = tail.get("counts")
                self._ended = True
                for line in data:
                    digest(line)
                    if line.strip():
                        raise _invalid(_("text after the end of the backup"))
                return
            line = line.rstrip(b"\r\n")
            try:
                yield loads(line[:-1] if line.endswith(b",") else line)
            except orjson.JSONDecodeError:
                raise _invalid(_("not JSON")) from None
        raise _invalid(_("the counts of rows are missing at the end"))

    @property
    def digest(self):
        return self._digest.hexdigest() if self._digest is not None else None

    def rows(self):
        return self._rows


#: where a head of version 3 ends and its rows begin
OBJECTS = '"objects": ['


def _loads(text):
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise _invalid(_("not JSON")) from None


def _restore(source, actor, logins) -> Club:
    data = source.head
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _invalid(_("not a Tarot Ledger club backup"))
    if data.get("version") not in VERSIONS:
        raise _invalid(_("version %(v)s is not one this site reads") % {"v": data.get("version")})
    if not isinstance(data.get("users"), list) or not isinstance(source.rows(), (list, Iterator)):
        raise _invalid(_("users and objects: lists"))
    persons = data.get("persons", [])
    if not isinstance(persons, list) or not all(
        isinstance(p, dict) and isinstance(p.get("id"), int) and isinstance(p.get("name"), str)
        for p in persons
    ):
        raise _invalid(_("persons: a list of ids and names"))
    user_ids = _user_ids(data["users"])
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
            users, existing = _restore_users(data["users"])
            writer = _Writer(
                slug, user_ids, users, _restore_persons(persons), source.read_by_orjson
            )
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
            _renumber(club)
            _check_hands(club)
            writer.drop()
            for season in club.seasons.all():  # (its sheets' totals: ``_check_hands``)
                rebuild_season_totals(season, sheets=False)
            signals.changed(club.pk)
            after = {"sha256": source.digest, "rows": writer.rows, "users": len(data["users"])}
            if writer.left_out:
                after["logins_left_out"] = sorted(writer.left_out)
            audit.record(club, actor, audit.Action.CLUB_RESTORED, club, after=after)
    except IntegrityError as error:
        if writer is not None and writer.failed is not None:
            writer.refuse_held(*writer.failed)
        raise _invalid(_first_line(error)) from None
    except DatabaseError as error:
        where = writer.where_failed(error) if writer is not None else None
        raise _invalid(f"{where}: {_first_line(error)}" if where else _first_line(error)) from None
    except (KeyError, TypeError, ValueError, ValidationError) as error:
        raise _invalid(_first_line(error)) from None
    return club


def _first_line(error) -> str:
    text = str(getattr(error, "message", None) or error)
    return text.splitlines()[0] if text else type(error).__name__


def _check_counts(version, counts, found) -> None:
    """A file of version 2 or 3 ends with the rows of each model: a file cut short,
    or rows added or taken out by hand, do not add up."""
    if version == 1:
        return
    if not isinstance(counts, dict) or not all(
        isinstance(c, int) and not isinstance(c, bool) for c in counts.values()
    ):
        raise _invalid(_("the counts of rows are missing at the end"))
    for label in sorted(set(found) | set(counts), key=str):
        if found.get(label, 0) != counts.get(label, 0):
            raise _invalid(
                _("%(count)s rows of %(model)s where the file counts %(counted)s")
                % {"count": found.get(label, 0), "model": label, "counted": counts.get(label, 0)}
            )


#: Rows the restore counts again from the ledger (``rebuild_season_totals``) rather
#: than write from the file.
REBUILT = ("scoresheet.SheetTotal", "scoresheet.SheetFacts", "scoresheet.SeasonTotal")
#: The models whose rules the engine reads (``tarot.jsonformat.parse_rules``).
RULES = ("clubs.Season", "scoresheet.Sheet", "tournaments.Tournament")
#: rows of one COPY or INSERT of a restore
INSERT_BATCH = 5000
#: the temporary tables of a restore: every key of the file (``model``: its place in
#: ``PATHS``), and the keys the rows it does not write (``REBUILT``) name
KEYS_TABLE = "transfer_restore_keys"
REFS_TABLE = "transfer_restore_refs"
#: field classes whose values SQLite takes through ``get_db_prep_save`` (text dates,
#: JSON text, decimals); the others go as they are
_PREPARED_ON_SQLITE = (
    models.DateTimeField,
    models.DateField,
    models.DecimalField,
    models.JSONField,
    models.UUIDField,
    models.TimeField,
)


def _refused(row, field, reason) -> BackupError:
    return _invalid(
        _("%(row)s, %(field)s: %(reason)s") % {"row": row, "field": field, "reason": reason}
    )


class _Spec:
    """What the restore does with a model's rows, made once per model: each column's
    converter (``to_python``), default, checks (null, choices, validators), and what
    its key names (a login, a person, a row of the file)."""

    def __init__(self, model, number):
        User = get_user_model()
        meta = model._meta
        self.model, self.number = model, number
        self.label, self.lower = meta.label, meta.label_lower
        self.rebuilt = meta.label in REBUILT
        self.rules = meta.label in RULES
        self.pk = meta.pk
        self.fields = list(meta.concrete_fields)
        self.columns = [f.column for f in self.fields]
        self.m2m = {f.name for f in meta.many_to_many}
        self.slots = []  # (name, kind, converter, default, null, choices, blank, validators)
        self.links = []  # (index, field, target spec label): keys naming rows of the file
        self.json = []
        self.prepared = []
        person = PERSON_KEYS.get(meta.label)
        for index, field in enumerate(self.fields):
            if field.primary_key:
                continue
            kind = "value"
            convert = field.to_python
            if field.is_relation:
                target = field.remote_field.model._meta.get_field(field.remote_field.field_name)
                convert = target.to_python
                if field.related_model is User:
                    kind = "user"
                elif field.attname == person:
                    kind = "person"
                else:
                    kind = "link"
                    self.links.append((index, field, field.related_model._meta.label))
            elif isinstance(field, models.JSONField):
                self.json.append(index)
            if not field.is_relation and isinstance(field, _PREPARED_ON_SQLITE):
                self.prepared.append((index, field))
            choices = None
            if kind == "value" and field.choices:
                choices = {choice for choice, _label in field.flatchoices}
            validators = field.validators if kind == "value" and field.validators else None
            plain, low, high = _as_is(field, kind, target if field.is_relation else None)
            cache = {} if kind == "value" and type(field) in _CACHED else None
            self.slots.append(
                (
                    index,
                    field.name,
                    field,
                    kind,
                    convert,
                    field.null,
                    choices,
                    field.blank,
                    validators,
                    plain,
                    low,
                    high,
                    cache,
                )
            )
        self.names = {field.name for field in self.fields}
        self.allowed = self.names | self.m2m
        self.fill = _fill(self)
        # PostgreSQL: the type COPY formats each column's values as (JSON: the text
        # ``_Writer._prepared`` makes of it); None when one is unknown
        self.copy_types = None
        if connection.vendor == "postgresql":
            types = [_copy_type(field, connection) for field in self.fields]
            self.copy_types = types if None not in types else None
        self.special = meta.label if meta.label in _SPECIAL else None
        index = self.columns.index
        self.special_columns = {
            name: index(name)
            for name in ("tournament_id", "number", "round_id", "seats")
            if name in self.columns
        }


#: the models whose rows the restore also remembers (the club, a tournament's rounds,
#: entries and tables, for ``_Writer.check``)
_SPECIAL = ("clubs.Club", "tournaments.Round", "tournaments.Entry", "tournaments.RoundTable")
#: field classes whose converted and checked values the restore remembers by their
#: text (a sheet's date, a score): the same few values on many rows
_CACHED = (models.DecimalField, models.DateField)
#: values remembered per field at most
CACHE_SIZE = 4096


def _as_is(field, kind, target):
    """``(type, low, high)``: a value of exactly that Python type that ``field`` takes
    as it is (``to_python`` gives it back unchanged) and that passes every validator
    of the field when ``low <= value <= high`` (an integer) or ``low <= len(value)
    <= high`` (a text); ``low`` None: no validator to pass. ``(None, None, None)``:
    every value goes through ``to_python`` and the validators."""
    if kind != "value":  # a key: the validators are not run, the value is an id
        if isinstance(target, models.IntegerField):
            return int, None, None
        return None, None, None
    validators = field.validators
    if isinstance(field, models.IntegerField):
        low, high = None, None
        for validator in validators:
            limit = validator.limit_value if type(validator) in _BOUNDS else None
            if type(limit) is not int:
                return None, None, None
            if type(validator) is MinValueValidator:
                low = limit if low is None else max(low, limit)
            else:
                high = limit if high is None else min(high, limit)
        if (low is None) != (high is None):
            low = -(2**63) if low is None else low
            high = 2**63 - 1 if high is None else high
        return int, low, high
    if type(field) in (models.CharField, models.TextField):
        high = None
        for validator in validators:
            if type(validator) is not MaxLengthValidator or type(validator.limit_value) is not int:
                return None, None, None
            high = validator.limit_value if high is None else min(high, validator.limit_value)
        return str, (None if high is None else 0), high
    if type(field) is models.BooleanField and not validators:
        return bool, None, None
    return None, None, None


_BOUNDS = (MinValueValidator, MaxValueValidator)
_MISSING = object()


def _aware(text):
    """A date and time with its offset read from ISO 8601 text, as Django's
    ``parse_datetime`` reads it first; None for any other text (``_value`` reads it,
    or names the refusal)."""
    try:
        value = datetime.datetime.fromisoformat(text)
    except ValueError:
        return None
    return value if value.tzinfo is not None else None


def _fill(spec):
    """``fill(given, values, where, pk, value)``: a row's columns into ``values``, made
    once per model as Python code, one test a column: a value of its field's plain
    type within its bounds and choices (``_as_is``) or a date or decimal remembered
    by its text is taken as it is; any other (missing, None, another type, out of
    bounds, a login or person key, a key of a rebuilt row) goes through
    ``_Writer._value`` (``value``), which converts, checks and names the refusal.
    The columns are filled in order, so the first bad one is the one named.

    Also taken without ``_value``: a JSON column's list or object (``to_python``
    gives it back; no validator, no choices); a date and time written as the backup
    writes it, with its offset (``datetime.fromisoformat``, which Django's
    ``parse_datetime`` tries first). A rebuilt row's values are not read at all, only
    its keys: the row is not written, its model counted again from the ledger.
    (100,000 hands: 736,000 calls of ``_value`` fewer, the rows read in 8.1 s of
    CPU instead of 9.1; a nullable column's None, 400,000 more;
    ``benchmarks/HISTORY.md``.)"""
    lines = ["def fill(given, values, where, pk, value):"]
    names = {"MISSING": _MISSING, "spec": spec, "aware": _aware}
    for number, slot in enumerate(spec.slots):
        index, name, field, kind, convert, null, choices, blank = slot[:8]
        validators, plain, low, high, cache = slot[8:]
        if spec.rebuilt and kind == "value":
            continue  # not written: only its keys are checked
        names[f"slot{number}"] = slot
        slow = f"value(spec, slot{number}, given, where, pk)"
        lines.append(f"    v = given.get({name!r}, MISSING)")
        fast = None  # a test of its own: a JSON list or object, a date and time
        if kind == "value" and validators is None and choices is None:
            if isinstance(field, models.JSONField):
                fast, taken = "type(v) is list or type(v) is dict", "v"
            elif type(field) is models.DateTimeField:
                fast, taken = "type(v) is str and (d := aware(v)) is not None", "d"
        if fast is not None:
            if null and convert(None) is None:  # None: NULL, as ``_value`` gives
                lines.append(f"    if v is None:\n        values[{index}] = None")
                lines.append(f"    elif {fast}:")
            else:
                lines.append(f"    if {fast}:")
            lines.append(f"        values[{index}] = {taken}")
            lines.append(f"    else:\n        values[{index}] = {slow}")
            continue
        tests = []
        if plain is not None and (kind == "value" or (kind == "link" and not spec.rebuilt)):
            names[f"type{number}"] = plain
            tests.append(f"type(v) is type{number}")
            if kind == "value" and not spec.rebuilt:
                if low is not None:
                    measure = "len(v)" if plain is str else "v"
                    tests.append(f"{low!r} <= {measure} <= {high!r}")
                if choices is not None:
                    names[f"choices{number}"] = choices
                    either = ' or v == ""' if blank else ""
                    tests.append(f"(v in choices{number}{either})")
        # an empty value of a column that may be empty: None, as ``_value`` gives
        none = null and convert(None) is None
        if none:
            lines.append("    if v is None:")
            lines.append(f"        values[{index}] = None")
        if tests:
            lines.append(f"    {'elif' if none else 'if'} {' and '.join(tests)}:")
            lines.append(f"        values[{index}] = v")
            lines.append("    else:")
            lines.append(f"        values[{index}] = {slow}")
        elif cache is not None and choices is None and not spec.rebuilt:
            names[f"cache{number}"] = cache
            lines.append(f"    {'elif' if none else 'if'} type(v) is str and v in cache{number}:")
            lines.append(f"        values[{index}] = cache{number}[v]")
            lines.append("    else:")
            lines.append(f"        values[{index}] = {slow}")
        elif none:
            lines.append("    else:")
            lines.append(f"        values[{index}] = {slow}")
        else:
            lines.append(f"    values[{index}] = {slow}")
    lines.append("    return values")
    exec("\n".join(lines), names)  # noqa: S102 (our own text: field names and bounds)
    return names["fill"]


class _Writer:
    """The rows of a backup, checked one by one and written in batches."""

    def __init__(self, slug, user_ids, users, persons, read_by_orjson=False):
        self.slug, self.user_ids, self.users, self.persons = slug, user_ids, users, persons
        # a JSON column's value as text for COPY: orjson's for rows orjson read (only
        # what it writes back: no NaN, no integer beyond 64 bits, text keys)
        self.dumps = _orjson_text if read_by_orjson else json.dumps
        self.labels = {label.lower(): number for number, label in enumerate(PATHS)}
        self.specs = {}
        self.found = {}  # label → rows read
        self.last = {}  # label → the last key read (keys rise within a model)
        self.written = {}  # model → True, in the order written
        self.rows = 0
        self.club_pk = self.club_slug = None
        self.batch, self.batch_spec, self.refs = [], None, []
        self.rounds, self.entries, self.tables = {}, {}, []
        self.failed = None
        self.guarded, self.kept, self.known, self.left_out = {}, set(), set(), set()
        self.cursor = connection.cursor()
        self.postgres = connection.vendor == "postgresql"
        self.pending = None  # the connection whose last statement's result is unread
        quote = connection.ops.quote_name
        for name, columns in (
            (KEYS_TABLE, "model integer NOT NULL, id bigint NOT NULL, PRIMARY KEY (model, id)"),
            (
                REFS_TABLE,
                "model integer NOT NULL, id bigint NOT NULL, field varchar(100) NOT NULL, "
                "target integer NOT NULL, target_id bigint NOT NULL",
            ),
        ):
            self.cursor.execute(f"DROP TABLE IF EXISTS {quote(name)}")
            self.cursor.execute(f"CREATE TEMPORARY TABLE {quote(name)} ({columns})")
        # PostgreSQL, where this login may set it (a superuser, or a login granted
        # ``SET ON PARAMETER session_replication_role``): the foreign keys' triggers
        # do not fire while the rows are written; ``check_foreign_keys`` checks them
        self.unchecked = self.postgres and self._triggers_off()
        # PostgreSQL, triggers on: the keys of each batch checked and its foreign
        # keys' deferred triggers fired as it is written (``_known``); False once a
        # batch names a key the file has not given yet: then every check runs at the
        # end, as before
        self.immediate = self.postgres and not self.unchecked

    def _triggers_off(self) -> bool:
        """PostgreSQL: the session in the replica role until ``triggers_on``, for this
        transaction only, when this login may set it; False when it may not (the
        attempt undone by its savepoint)."""
        self.cursor.execute("SELECT current_setting('session_replication_role')")
        self.role = self.cursor.fetchone()[0]
        try:
            with transaction.atomic():
                self.cursor.execute(
                    "SELECT set_config('session_replication_role', 'replica', true)"
                )
        except DatabaseError:
            return False
        return True

    def triggers_on(self) -> None:
        """The session's role as it was: every write after the rows fires its triggers."""
        if self.unchecked:
            self.cursor.execute(
                "SELECT set_config('session_replication_role', %s, true)", [self.role]
            )

    def confirm(self, users, logins, existing) -> None:
        """The logins the site administrator confirmed (usernames): the others' rows of
        ``GUARDED`` are held back (``_guard``)."""
        names = {self.users[row["id"]]: row["username"] for row in users}
        self.kept = {pk for pk, username in names.items() if username in logins}
        self.known = set(existing) - self.kept
        self.names = names

    def spec(self, label):
        spec = self.specs.get(label)
        if spec is None:
            number = self.labels[label]
            spec = self.specs[label] = _Spec(apps.get_model(label), number)
            if spec.label in GUARDED:
                self.guarded[spec] = spec.columns.index("user_id")
                self.membership_club = spec.columns.index("club_id")
        return spec

    def _guard(self, spec, values) -> bool:
        """False: the row is left out (a membership of a login not confirmed); a
        player's link to a login that existed here and was not confirmed is emptied."""
        index = self.guarded[spec]
        user = values[index]
        if user is None or user in self.kept:
            return True
        if spec.label == "clubs.Membership":
            if values[self.membership_club] != self.club_pk:
                return True  # refused by the links' check, naming the row
            self.left_out.add(self.names[user])
            return False
        if user in self.known:
            self.left_out.add(self.names[user])
            values[index] = None
        return True

    def add(self, number, row) -> None:
        if not isinstance(row, dict) or not isinstance(row.get("fields"), dict):
            raise _invalid(_("row %(n)s is not a row of a model") % {"n": number})
        label = row.get("model")
        if label not in self.labels:
            raise _invalid(_("%(model)s is not club data") % {"model": label})
        self.found[label] = self.found.get(label, 0) + 1
        spec = self.spec(label)
        given = row["fields"]
        pk = row.get("pk")
        if type(pk) is not int:
            try:
                pk = spec.pk.to_python(pk)
            except ValidationError:
                pk = None
        where = f"{label} {row.get('pk')}"
        last = self.last.get(label)
        if pk is None or (last is not None and pk <= last and self._read(spec, pk)):
            raise _invalid(_("%(row)s: its key is missing or twice") % {"row": where})
        if last is None or pk > last:
            self.last[label] = pk
        if not given.keys() <= spec.allowed:
            for name in given:
                if name not in spec.allowed:
                    raise _refused(where, name, _("not a field"))
        values = [None] * len(spec.fields)
        values[0] = pk
        spec.fill(given, values, where, pk, self._value)
        if spec in self.guarded and not self._guard(spec, values):
            return
        if spec.rules:
            self._check_rules(spec, where, values)
        if spec.special is not None:
            self._remember(spec, pk, where, given, values)
        if spec is not self.batch_spec:
            self.flush()
            self.batch_spec = spec
        self.batch.append(values)
        if len(self.batch) >= INSERT_BATCH or len(self.refs) >= INSERT_BATCH:
            self.flush()

    def _value(self, spec, slot, given, where, pk):
        """One column's value of a row: converted, checked (null, choices, validators;
        a key names a login, a person, a row of the file). The way every value went
        before ``_Spec.fill``, which takes this one for any value but the usual ones."""
        index, name, field, kind, convert, null, choices, blank = slot[:8]
        validators, plain, low, high, cache = slot[8:]
        rebuilt = spec.rebuilt
        checked, text = False, None
        if name in given:
            value = given[name]
            if type(value) is plain:
                # taken as it is (``to_python`` gives it back); its validators
                # passed when within its bounds, else run below for their message
                checked = low is None or low <= (len(value) if plain is str else value) <= high
            elif cache is not None and type(value) is str and value in cache:
                value, checked = cache[value], True
            else:
                text = value
                try:
                    value = convert(value)
                except ValidationError as error:
                    raise _refused(where, name, " ".join(error.messages)) from None
        else:
            value = field.get_default()
        if value is None:
            if not null:
                raise _refused(where, name, _("empty"))
        elif kind == "user":
            if value not in self.user_ids:
                raise _refused(where, name, _("a login not in the file"))
            value = self.users[value]
        elif kind == "person":
            if value not in self.persons:
                raise _refused(where, "person", _("a row not in the file"))
            value = self.persons[value]
        elif kind == "link":
            if rebuilt:
                target = self.labels.get(field.related_model._meta.label_lower, -1)
                self.refs.append((spec.number, pk, name, target, value))
        elif not rebuilt and (checked or not hasattr(value, "resolve_expression")):
            if choices is not None and value not in choices and not (blank and value == ""):
                raise _refused(where, name, _("not one of its choices"))
            if validators is not None and not checked:
                try:
                    field.run_validators(value)
                except ValidationError as error:
                    raise _refused(where, name, " ".join(error.messages)) from None
            if cache is not None and type(text) is str and len(cache) < CACHE_SIZE:
                cache[text] = value  # converted and checked: the next rows take it
        return value

    def _remember(self, spec, pk, where, given, values) -> None:
        """The club's key and slug, a tournament's rounds, entries and tables: what
        ``check`` reads once every row is in."""
        index = spec.special_columns
        if spec.label == "clubs.Club":
            if self.club_pk is not None:
                raise _invalid(_("the file must hold one club, %(slug)s") % {"slug": self.slug})
            self.club_pk, self.club_slug = pk, given.get("slug")
        elif spec.label == "tournaments.Round":
            self.rounds[pk] = values[index["tournament_id"]]
        elif spec.label == "tournaments.Entry":
            tournament = values[index["tournament_id"]]
            self.entries.setdefault(tournament, set()).add(values[index["number"]])
        elif spec.label == "tournaments.RoundTable":
            self.tables.append((where, values[index["round_id"]], values[index["seats"]]))

    def _read(self, spec, pk) -> bool:
        """Whether the file had a row of ``spec`` under ``pk`` already: asked only of
        a key below the model's last (a backup writes them rising)."""
        self.flush()
        with connection.wrap_database_errors:
            self._collect()
        self.cursor.execute(
            f"SELECT 1 FROM {connection.ops.quote_name(KEYS_TABLE)} WHERE model = %s AND id = %s",
            [spec.number, pk],
        )
        return self.cursor.fetchone() is not None

    def _check_rules(self, spec, where, values) -> None:
        index = spec.columns.index
        try:
            parse_rules(values[index("rules")])
            if spec.label == "clubs.Season":
                parse_ranking(values[index("ranking")])
        except ScoringError as error:
            raise _refused(where, "rules", message_of(error)) from None
        except RankingError as error:
            raise _refused(where, "rules", error.message) from None

    def flush(self) -> None:
        """The batch read so far (and the rebuilt rows' keys) to the database."""
        spec, batch, refs = self.batch_spec, self.batch, self.refs
        if not batch and not refs:
            return
        self.batch, self.refs = [], []
        if batch:
            if not spec.rebuilt:
                self.written[spec.model] = True
            self.rows += len(batch)
        with connection.wrap_database_errors:  # as Django's errors of their kinds
            self._flush(spec, batch, refs, self.cursor.cursor)

    def _flush(self, spec, batch, refs, raw) -> None:
        """Write one batch through ``raw`` (a cursor of the driver): its keys, the
        rebuilt rows' keys, then its rows. On PostgreSQL the rows' COPY is sent
        without waiting for its end (``_SentWriter``): the database adds them to its
        indexes and, when every key of the batch names a row of the file read so far
        (``_known``), fires their foreign keys' triggers, while this thread reads the
        next rows; their result is read before the connection's next statement
        (``_collect``), and a refusal then names this batch (``failed``)."""
        self._collect()
        if batch:
            ids = [values[0] for values in batch]
            self.failed = (spec, ids)
            if self.postgres:  # the keys as COPY's text, at once: integers only
                number = spec.number
                self._write_text(
                    KEYS_TABLE, ["model", "id"], "".join(f"{number}\t{pk}\n" for pk in ids), raw
                )
            else:
                self._write(
                    KEYS_TABLE, ["model", "id"], [(spec.number, pk) for pk in ids], None, raw
                )
        if refs:
            self._write(
                REFS_TABLE, ["model", "id", "field", "target", "target_id"], refs, None, raw
            )
        if batch and not spec.rebuilt:
            rows = self._prepared(spec, batch)
            table = spec.model._meta.db_table
            if not self.postgres:
                self._write(table, spec.columns, rows, None, raw)
            else:
                fire = self.immediate and self._known(spec, batch, raw)
                self._write(table, spec.columns, rows, spec.copy_types, raw, fire=fire)
                self.pending = raw.connection
                return  # ``failed`` until its result is read
        self.failed = None

    def where_failed(self, error) -> str | None:
        """The row of the batch the database refused (a value its column refuses, such
        as a NUL in a JSON text): the line PostgreSQL's COPY names, else the batch's
        first and last keys; None when no batch was being written."""
        if self.failed is None:
            return None
        spec, ids = self.failed
        diag = getattr(getattr(error, "__cause__", None), "diag", None)
        line = re.search(r"\bCOPY \S+, line (\d+)", getattr(diag, "context", None) or "")
        if line and 1 <= int(line.group(1)) <= len(ids):
            return f"{spec.lower} {ids[int(line.group(1)) - 1]}"
        return f"{spec.lower} {ids[0]}–{ids[-1]}" if len(ids) > 1 else f"{spec.lower} {ids[0]}"

    def _known(self, spec, batch, raw) -> bool:
        """PostgreSQL: whether every key of the batch's rows (each value once) names a
        key of the file read so far (its own batch's too). Once one does not (a key
        naming a later row, such as a player merged into a later one, or a row not in
        the file), ``immediate`` is False: the checks wait for the end, as before
        (``check_links`` names the row, ``check_constraints`` fires the triggers
        left). While they do, each batch's deferred foreign-key triggers fire as it
        is written, on the database's side while the next rows are read, rather
        than 2.3 million row checks at 100,000 hands after the reading."""
        models_, ids = [], []
        for index, _field, target in spec.links:
            found = {values[index] for values in batch}
            found.discard(None)
            models_ += [self.labels.get(target.lower(), -1)] * len(found)
            ids += found
        if ids:
            raw.execute(
                f"SELECT 1 FROM unnest(%s::integer[], %s::bigint[]) AS v(model, id)"
                f" WHERE NOT EXISTS (SELECT 1 FROM {connection.ops.quote_name(KEYS_TABLE)} k"
                " WHERE k.model = v.model AND k.id = v.id) LIMIT 1",
                [models_, ids],
            )
            if raw.fetchone() is not None:
                self.immediate = False
        return self.immediate

    def _collect(self) -> None:
        """The result of the last batch's COPY (and of its triggers, ``_flush``): read
        before the connection's next statement; its error raised (the driver's)."""
        conn, self.pending = self.pending, None
        if conn is None:
            return
        with conn.lock:
            results = conn.wait(generators.fetch_many(conn.pgconn))
        for result in results:
            if result.status == pq.ExecStatus.FATAL_ERROR:
                raise psycopg_errors.error_from_result(result, encoding=conn.info.encoding)
        self.failed = None

    def _prepared(self, spec, batch):
        if self.postgres:
            if spec.json:
                # as the text ``Jsonb`` would send (``json.dumps``), its column's COPY
                # type being text (``_Spec.copy_types``); orjson's text for values orjson
                # read (``dumps``): the same value once in jsonb, in a tenth of the time
                dumps = self.dumps
                for values in batch:
                    for index in spec.json:
                        value = values[index]
                        if value is not None:
                            values[index] = "[]" if value == [] else dumps(value)
            return batch
        if spec.prepared:
            for values in batch:
                for index, field in spec.prepared:
                    values[index] = field.get_db_prep_save(values[index], connection)
        return batch

    def _write(self, table, columns, rows, types, raw, fire=None) -> None:
        """``rows`` into ``table`` through ``raw`` (a cursor of the driver): COPY on
        PostgreSQL, each column's values formatted for ``types`` when given (psycopg
        then need not find each value's own). ``fire`` (PostgreSQL), not None: the
        COPY's end sent without waiting for its result (``_collect`` reads it), and
        when True, the deferred triggers fired after it in the same query."""
        quote = connection.ops.quote_name
        names = ", ".join(quote(c) for c in columns)
        if self.postgres:
            statement = f"COPY {quote(table)} ({names}) FROM STDIN"
            if fire:
                statement += "; SET CONSTRAINTS ALL IMMEDIATE; SET CONSTRAINTS ALL DEFERRED"
            writer = None if fire is None else _SentWriter(raw)
            with raw.copy(statement, writer=writer) as copy:
                if types is not None:
                    copy.set_types(types)
                write_row = copy.write_row
                for row in rows:
                    write_row(row)
        else:
            marks = ", ".join(["%s"] * len(columns))
            raw.executemany(f"INSERT INTO {quote(table)} ({names}) VALUES ({marks})", rows)

    def _write_text(self, table, columns, text, raw) -> None:
        """PostgreSQL: rows already in COPY's text format into ``table``."""
        quote = connection.ops.quote_name
        names = ", ".join(quote(c) for c in columns)
        statement = f"COPY {quote(table)} ({names}) FROM STDIN"
        with raw.copy(statement) as copy:
            copy.write(text)

    def finish(self) -> None:
        """The last batch written and its result read."""
        self.flush()
        with connection.wrap_database_errors:
            self._collect()

    def stop(self) -> DatabaseError | None:
        """After a refusal: the last batch's result read, so the connection takes the
        rollback; returns its error (Django's), if the database refused that batch:
        its rows came before the refusal's, so it names the first bad row."""
        try:
            with connection.wrap_database_errors:
                self._collect()
        except DatabaseError as error:
            return error
        return None

    def analyse(self) -> None:
        """PostgreSQL: fresh statistics of the tables written (and the temporary ones,
        which autovacuum never reads): the checks that follow join them, and a plan
        made for the empty tables they were would loop over every row.

        Of the tables written, only the key and the foreign keys, which the checks
        and the totals join on (a tenth of the time of every column: 0.6 s against
        5.3 s for 110,000 hands); autovacuum counts the others after the commit."""
        if not self.postgres:
            return
        quote = connection.ops.quote_name
        for model in self.written:
            columns = [f.column for f in model._meta.concrete_fields if f.primary_key]
            columns += [f.column for f in model._meta.concrete_fields if f.is_relation]
            names = ", ".join(quote(column) for column in columns)
            self.cursor.execute(f"ANALYZE {quote(model._meta.db_table)} ({names})")
        for table in (KEYS_TABLE, REFS_TABLE):
            self.cursor.execute(f"ANALYZE {quote(table)}")

    def check(self) -> None:
        """After the rows (and their counts): the file's one club, and the seats."""
        if self.club_pk is None or self.club_slug != self.slug:
            raise _invalid(_("the file must hold one club, %(slug)s") % {"slug": self.slug})
        # a tournament table's seats are entry numbers of its own tournament
        for where, round_id, seats in self.tables:
            numbers = self.entries.get(self.rounds.get(round_id), set())
            if not isinstance(seats, list) or not all(
                type(n) is int and n in numbers for n in seats
            ):
                raise _refused(where, "seats", _("not entries of its tournament"))

    def check_links(self) -> None:
        """Every key of every row names a row of the file: one query per model (and
        one for the rows rebuilt). With one club in the file, every row's path
        (``PATHS``) then leads to it: no row names, nor belongs to, another club."""
        quote = connection.ops.quote_name
        keys = quote(KEYS_TABLE)
        for spec in self.specs.values():
            if spec.rebuilt or not spec.links or self.immediate:
                # (``immediate``: every batch's keys were found as it was written)
                continue
            self._first_orphan(
                spec,
                [
                    (field, keys, "id", self.labels.get(target.lower(), -1))
                    for _index, field, target in spec.links
                ],
            )
        self.cursor.execute(
            f"SELECT f.model, f.id, f.field FROM {quote(REFS_TABLE)} f WHERE NOT EXISTS"
            f" (SELECT 1 FROM {keys} r WHERE r.model = f.target AND r.id = f.target_id)"
            " ORDER BY f.model, f.id LIMIT 1"
        )
        found = self.cursor.fetchone()
        if found is not None:
            label = list(PATHS)[found[0]].lower()
            raise _refused(f"{label} {found[1]}", found[2], _("a row not in the file"))

    def check_foreign_keys(self) -> None:
        """After rows written with the triggers off (``unchecked``): every foreign key
        of every row written names a row of its table, as the triggers would have
        checked, one query per model. ``check_links`` has named a key naming no row
        of the file already; this one also sees what no check of the file sees (a
        login or a person gone, a key naming a row the restore does not write)."""
        if not self.unchecked:
            return
        quote = connection.ops.quote_name
        for spec in self.specs.values():
            if spec.model not in self.written:
                continue
            targets = []
            for field in spec.fields:
                if field.is_relation and field.db_constraint:
                    target = field.related_model._meta
                    column = target.get_field(field.remote_field.field_name).column
                    targets.append((field, quote(target.db_table), column, None))
            if targets:
                self._first_orphan(spec, targets)

    def _first_orphan(self, spec, targets) -> None:
        """The first row of ``spec`` written by this restore with a key naming no row
        of its target, refused by name. ``targets``: per key field, the table and
        column it must be found in, and the model's number in the file's keys table
        (``None``: another table). One query: a left join per key (each a hash join
        of the restore's rows, rather than a lookup a row)."""
        quote = connection.ops.quote_name
        joins, tests = [], []
        for n, (field, table, column, number) in enumerate(targets):
            on = f"j{n}.{quote(column)} = t.{quote(field.column)}"
            if number is not None:
                on += f" AND j{n}.model = {int(number)}"
            joins.append(f" LEFT JOIN {table} j{n} ON {on}")
            tests.append(f"(t.{quote(field.column)} IS NOT NULL AND j{n}.{quote(column)} IS NULL)")
        pk = quote(spec.pk.column)
        self.cursor.execute(
            f"SELECT t.{pk}, {', '.join(tests)} FROM {quote(KEYS_TABLE)} k"
            f" JOIN {quote(spec.model._meta.db_table)} t ON t.{pk} = k.id{''.join(joins)}"
            f" WHERE k.model = %s AND ({' OR '.join(tests)}) ORDER BY t.{pk} LIMIT 1",
            [spec.number],
        )
        found = self.cursor.fetchone()
        if found is not None:
            field = next(target[0] for target, bad in zip(targets, found[1:]) if bad)
            raise _refused(f"{spec.lower} {found[0]}", field.name, _("a row not in the file"))

    def drop(self) -> None:
        for name in (KEYS_TABLE, REFS_TABLE):
            self.cursor.execute(f"DROP TABLE IF EXISTS {connection.ops.quote_name(name)}")

    def refuse_held(self, spec, keys) -> None:
        """After a batch refused by the database (the transaction rolled back): a key
        this site holds already refuses the file as ``not_empty``."""
        for start in range(0, len(keys), 900):
            held = spec.model._default_manager.filter(pk__in=keys[start : start + 900])
            first = held.order_by("pk").values_list("pk", flat=True).first()
            if first is not None:
                raise BackupError(
                    "not_empty",
                    _("This site already holds %(model)s %(pk)s: restore into an empty site.")
                    % {"model": spec.label, "pk": first},
                )


class _SentWriter(LibpqWriter):
    """How psycopg writes a COPY, but its end sent without waiting for its result (nor
    for the statements after it in the same query): the restore reads it later
    (``_Writer._collect``), before the connection's next statement. A COPY failing on
    this side (an error while its rows are sent) ends as psycopg ends it."""

    def finish(self, exc=None):
        if exc:
            return super().finish(exc)
        self.connection.wait(_copy_end_sent(self._pgconn))
        return None


def _copy_end_sent(pgconn):
    """psycopg's ``generators.copy_end`` without reading the result."""
    while pgconn.put_copy_end(None) == 0:
        while not (yield Wait.W):
            continue
    while True:
        while not (yield Wait.W):
            continue
        if pgconn.flush() == 0:
            break


def _user_ids(rows) -> set:
    ids, names = set(), set()
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("username"), str):
            raise _invalid(_("a user without a username"))
        if not isinstance(row.get("id"), int) or row["id"] in ids or row["username"] in names:
            raise _invalid(_("user %(name)s: id missing or twice") % {"name": row["username"]})
        ids.add(row["id"])
        names.add(row["username"])
    return ids


#: the rows that give a login a role in the club, or make it a player: kept for the
#: logins the site administrator confirmed only (``_Writer._guard``)
GUARDED = ("clubs.Membership", "clubs.Player")


def _restore_persons(persons) -> dict:
    """Each person of the file found by their licence and name, else created: their id
    in the file → their id here. A licence held here by another name refuses the file
    (``named.person_here``)."""
    mapping = {}
    for row in persons:
        person, reason = named.person_here(row)
        if reason:
            raise _invalid(reason)
        licence = str(row.get("licence") or "")[:20] or None
        if person is None:
            person = Person.objects.create(
                name=row["name"][:80], licence=licence, serie=str(row.get("serie") or "")[:30]
            )
        mapping[row["id"]] = person.pk
    _hold(Person, mapping.values())
    return mapping


def _restore_users(rows) -> tuple[dict, set]:
    """Old user id → the id of the login it is now: found by username, else created
    with the file's names and dates only (never a password nor any privilege); and the
    ids of the logins found (which existed before the restore)."""
    User = get_user_model()
    mapping, existing = {}, set()
    for row in rows:
        user = User.objects.filter(username=row["username"]).first()
        if user is not None:
            existing.add(user.pk)
        else:
            fields = {f: row[f] for f in USER_FIELDS if f in row}
            user = User(**fields)
            user.set_unusable_password()
            try:
                user.full_clean(exclude=["password"])
            except ValidationError as error:
                raise _invalid(
                    _("user %(name)s: %(reason)s")
                    % {"name": row["username"], "reason": " ".join(error.messages)}
                ) from None
            user.is_staff = user.is_superuser = False
            if not User.objects.filter(pk=row["id"]).exists():
                user.pk = row["id"]
            user.save()
        mapping[row["id"]] = user.pk
    _hold(User, mapping.values())
    return mapping, existing


def _hold(model, ids) -> None:
    """PostgreSQL: these rows (the logins and persons the file's rows will name, found
    here or created) kept from being deleted until the restore ends, as a foreign
    key's trigger keeps the row it checks (``FOR KEY SHARE``): with the triggers off
    (``_Writer.unchecked``) no trigger does."""
    ids = sorted(set(ids))
    if connection.vendor != "postgresql" or not ids:
        return
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {quote(model._meta.db_table)}"
            f" WHERE {quote(model._meta.pk.column)} = ANY(%s) FOR KEY SHARE",
            [ids],
        )


#: sheets whose hands ``_check_hands`` reads at a time; two batches are in memory at
#: once on PostgreSQL (one scored, the next read): at 100,000 hands 200 took the
#: restore's peak from 113 to 140 MiB, 50 keeps it at 114 MiB for 0.3 s more
CHECK_SHEETS = 50


class _Player:
    __slots__ = ("pk", "name")

    def __init__(self, pk, name):
        self.pk, self.name = pk, name


class _Hand:
    """A stored hand's columns, read as attributes (``hand_data`` reads them so)."""

    def __init__(self, values):
        self.__dict__.update(values)


#: the hand columns ``_check_hands`` reads
HAND_COLUMNS = (
    "id",
    "sheet_id",
    "number",
    "is_deleted",
    "dealer_id",
    "taker_id",
    "partner_id",
    "sits_out_id",
    "contract",
    "bouts",
    "points",
    "petit_au_bout",
    "poignees",
    "chelem",
    "petit_chelem",
    "miseres",
    "pools",
    "extra",
)


def _check_hands(club) -> None:
    """Every live hand of a live sheet scored again by the engine under its sheet's
    rules (pools carried along the sheet), and its score rows compared with what
    the engine gives, every column; deleted hands and the hands of deleted sheets
    read by the engine too, and without score rows. From plain values, a batch of
    sheets at a time (``CHECK_SHEETS``, read by ``_sheet_batches``): no model
    instances."""
    fields = [f.attname for f in ScoreRow._meta.concrete_fields if f.attname != "id"]
    defaults = {
        f.attname: f.get_default() for f in ScoreRow._meta.concrete_fields if f.attname != "id"
    }
    order = (fields.index("position"), fields.index("player_id"))
    stray = ScoreRow.objects.filter(hand__sheet__club=club).filter(
        Q(hand__is_deleted=True) | Q(hand__sheet__deleted_at__isnull=False)
    )
    for pk in stray.order_by("pk").values_list("pk", flat=True)[:1]:
        raise _invalid(_("scoresheet.scorerow %(pk)s: a row of no live hand") % {"pk": pk})
    sheets = Sheet.objects.filter(club=club).order_by("pk").values_list("pk", flat=True)
    sheet_ids = array("q", sheets)  # 8 bytes a sheet
    with closing(_sheet_batches(sheet_ids, fields, _Counted())) as batches:
        for batch, seat_rows, hand_rows, score_rows in batches:
            seated = {}
            for sheet_id, player_id, name in seat_rows:
                seated.setdefault(sheet_id, []).append(_Player(player_id, name))
            hands = {}
            for values in hand_rows:
                hands.setdefault(values["sheet_id"], []).append(values)
            stored = {}
            for row in score_rows:
                stored.setdefault(row[0], []).append(row[1:])
            for pk, rules, season_id, date, deleted_at in batch:
                table = Table.seating(seated.get(pk, []))
                sheet = {
                    "sheet_id": pk,
                    "season_id": season_id,
                    "date": date,
                    "seats": len(table.names),
                }
                _check_sheet_hands(
                    parse_rules(rules),
                    table,
                    sorted(hands.get(pk, ()), key=lambda h: h["number"]),
                    deleted_at is not None,
                    sheet,
                    stored,
                    fields,
                    defaults,
                    order,
                )
            if stored:
                hand = min(stored)
                raise _invalid(
                    _("%(row)s: its score rows are not what the engine gives")
                    % {"row": f"scoresheet.hand {hand}"}
                )


class _Counted:
    """``scoresheet.totals.sheet_statements`` of a batch of sheets, its ORM queries
    compiled once per number of sheets (with stand-in keys, then each batch's keys in
    their places): compiled per batch, they cost 2.5 s of CPU at 100,000 hands."""

    STAND_IN = -(10**15)  # keys below it stand in for the batch's: no row has one

    def __init__(self):
        self.made = {}

    def __call__(self, ids):
        made = self.made.get(len(ids))
        if made is None:
            marks = [self.STAND_IN - i for i in range(len(ids))]
            made = self.made[len(ids)] = [
                (
                    sql,
                    [
                        self.STAND_IN - p if type(p) is int and p <= self.STAND_IN else None
                        for p in params
                    ],
                    params,
                )
                for sql, params in sheet_statements(sheet_ids=marks)
            ]
        return [
            (sql, [ids[slot] if slot is not None else p for slot, p in zip(slots, params)])
            for sql, slots, params in made
        ]


def _sheet_batches(sheet_ids, fields, counted):
    """What ``_check_hands`` reads of each batch of ``CHECK_SHEETS`` sheets: the
    sheets ``(pk, rules, season_id, date, deleted_at)``, their seats ``(sheet_id,
    player_id, name)`` in order, their hands (dicts of ``HAND_COLUMNS``) and their
    hands' score rows ``(hand_id, *fields)``. Once a batch is checked (the caller
    asks for the next), its statements ``counted(ids)`` run: the sheets' totals and
    facts counted from the ledger (``scoresheet.totals.sheet_statements``); never
    before, so that a bad score row is refused by the check, which names its hand,
    not by a constraint of the totals.

    On PostgreSQL the four queries of the next batch are sent (pipeline mode) before
    this batch is handed over, with the statements of the batch checked before it:
    the database reads and counts while the engine scores this one (at 100,000
    hands: the reads 6.1–6.4 s → 5.1–5.4 s, and the totals' 2.1 s after the check
    gone; ``benchmarks/HISTORY.md``). Fetching a batch's results waits for every
    query sent before them, so a batch is fetched before the next is sent.
    Elsewhere, one after another."""
    queries = [
        lambda ids: (
            Sheet.objects.filter(pk__in=ids)
            .order_by("pk")
            .values_list("pk", "rules", "season_id", "date", "deleted_at")
        ),
        lambda ids: (
            Seat.objects.filter(sheet_id__in=ids)
            .order_by("sheet_id", "position")
            .values_list("sheet_id", "player_id", "player__name")
        ),
        lambda ids: Hand.objects.filter(sheet_id__in=ids).values(*HAND_COLUMNS),
        lambda ids: (
            ScoreRow.objects.filter(hand__sheet_id__in=ids)
            .order_by()
            .values_list("hand_id", *fields)
        ),
    ]
    batches = [sheet_ids[i : i + CHECK_SHEETS] for i in range(0, len(sheet_ids), CHECK_SHEETS)]
    if connection.vendor != "postgresql":
        for ids in batches:
            yield tuple(list(query(list(ids))) for query in queries)
            with connection.cursor() as cursor:
                for sql, params in counted(list(ids)):
                    cursor.execute(sql, params)
        return
    connection.ensure_connection()
    conn = connection.connection
    # JSON columns come as their text (Django's loader): read by orjson (the ORM's
    # ``.values()`` reads them through ``json.loads`` and its converters)
    hand_fields = {f.attname: f for f in Hand._meta.concrete_fields}
    json_columns = [
        i for i, name in enumerate(HAND_COLUMNS) if isinstance(hand_fields[name], models.JSONField)
    ]

    def send(ids, checked):
        """The reads of ``ids`` (None: none) after the statements of ``checked``
        (None: none), all sent; the cursors, whose results come at the next fetch."""
        cursors = [psycopg.Cursor(conn)]
        if checked is not None:
            for sql, params in counted(list(checked)):
                cursors[0].execute(sql, params)
        if ids is not None:
            for query in queries:
                sql, params = query(list(ids)).query.sql_with_params()
                cursor = psycopg.Cursor(conn)
                cursor.execute(sql, params)
                cursors.append(cursor)
        return cursors

    def received(cursors):
        sheets, seats, hands, rows = (cursor.fetchall() for cursor in cursors[1:])
        for cursor in cursors:
            cursor.close()
        sheets = [
            (pk, _json_value(rules) if type(rules) is str else rules, *rest)
            for pk, rules, *rest in sheets
        ]
        dicts = []
        for row in hands:
            row = list(row)
            for i in json_columns:
                if row[i] is not None and type(row[i]) is str:
                    row[i] = _json_value(row[i])
            dicts.append(dict(zip(HAND_COLUMNS, row)))
        return sheets, seats, dicts, rows

    with connection.wrap_database_errors, conn.pipeline():
        sent = send(batches[0], None) if batches else None
        for k in range(len(batches)):
            batch = received(sent)
            # the next batch's reads, and the statements of the batch checked last
            following = batches[k + 1] if k + 1 < len(batches) else None
            sent = send(following, batches[k - 1] if k else None)
            yield batch  # checked when the caller asks for the next
        if batches:  # the last batch checked: its statements (their results at the exit)
            for cursor in sent + send(None, batches[-1]):
                cursor.close()


def _orjson_text(value) -> str:
    return orjson.dumps(value).decode()


def _json_value(text):
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # what json reads and orjson does not (big integers)
        return json.loads(text)


def _check_sheet_hands(ruleset, table, hands, deleted, sheet, stored, fields, defaults, order):
    pools = ()
    key = operator.itemgetter(*order)
    columns = operator.itemgetter(*fields)
    base = dict(defaults, **sheet)  # a score row of this sheet, before its hand's columns
    for values in hands:
        where = f"scoresheet.hand {values['id']}"
        hand = _Hand(values)
        try:
            engine_hand = parse_hand(hand_data(hand, table), ruleset, table.names)[1]
            if hand.is_deleted or deleted:
                continue
            result = score_hand(ruleset, engine_hand, pools)
        except KeyError:
            raise _invalid(
                _("%(row)s: a player not seated at its sheet") % {"row": where}
            ) from None
        except ScoringError as error:
            raise _invalid(f"{where}: {message_of(error)}") from None
        except (TypeError, ValueError, AttributeError) as error:
            raise _invalid(f"{where}: {error}") from None
        if result.pools is not None:
            pools = result.pools
            if list(result.pools) != list(hand.pools or ()):
                raise _invalid(_("%(row)s: its pools are not the engine's") % {"row": where})
        inputs = {name: values[name] for name in ROW_INPUTS}
        expected = []
        for row in score_row_fields(inputs, hand.number, table, result):
            full = base.copy()
            full["hand_id"] = hand.id
            full.update(row)
            expected.append(columns(full))
        found = stored.pop(hand.id, [])
        if sorted(found, key=key) != sorted(expected, key=key):
            raise _invalid(
                _("%(row)s: its score rows are not what the engine gives") % {"row": where}
            )


def _renumber(club) -> None:
    """Each sheet's last hand number from its hands (deleted ones too): a backup made
    before ``Sheet.last_number`` existed reads it as 0, and the next hand recorded
    would take the number of a deleted one."""
    last = Hand.objects.filter(sheet=OuterRef("pk")).order_by("-number").values("number")[:1]
    Sheet.objects.filter(club=club).update(last_number=Coalesce(Subquery(last), 0))


def _reset_sequences(model_list) -> None:
    """PostgreSQL: the id sequences after rows written with their ids."""
    statements = connection.ops.sequence_reset_sql(no_style(), model_list)
    if statements:
        with connection.cursor() as cursor:
            for sql in statements:
                cursor.execute(sql)


#: rows the backup reads from the database's cursor at a time
CHUNK = 2000
#: rows it turns into instances and text at a time (``_chunks``)
BATCH = 200


def _nothing(done, total):
    pass


def _invalid(reason) -> BackupError:
    return BackupError("backup_invalid", _("Not a usable backup: %(reason)s") % {"reason": reason})


def _text(value):
    """Dates and times in full (ISO 8601, microseconds kept), decimals as text."""
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, (Decimal, uuid.UUID)):
        return str(value)
    raise TypeError(type(value).__name__)


def _plain(value):
    return value.isoformat() if hasattr(value, "isoformat") else value
