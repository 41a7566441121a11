"""A whole club in one file, and back: ``backup(club)`` and ``restore(data)``.

The backup holds every row of the club in the apps that keep its data (clubs,
scoresheet, tournaments): the club, seasons, players, memberships and roles,
invitations, the audit trail, sheets, seats, hands, score rows, hand
revisions, sheet and season totals, tournaments — each model reached through
foreign keys that are never null (``PATHS``, written out: a test fails when a
model of these apps has none) — and the logins those rows name (username,
names, email, dates; never a password hash: a restored login sets its password
through "Forgot your password?", or a manager invites it again). The file ends
with the number of rows of each model (``counts``).

``restore`` is a validated import into an instance that does not hold the club
yet, with the same primary keys (so history entries and links between rows stay
exactly as they were). Every row must belong to the file's club: each of its
keys names a row of the file (or one of its logins) and its path leads to the
club, so a row naming another club's rows, or a membership there, refuses the
file. Fields hold their choices and bounds; rules are read by the engine; every
live hand is scored again and must give its score rows; the totals and facts
are counted again from the ledger, never read from the file. A login whose
username exists is reused, others are created without privileges (with their
old id when free). It is one transaction, with an audit entry; it refuses
(``BackupError``: ``backup_invalid`` naming the first bad row, ``club_exists``,
``not_empty``) without writing anything.
"""

import hashlib
import itertools
import json
import os
import re
import uuid
from decimal import Decimal

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, connection, transaction
from django.db.models import OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Club, Person, Season
from clubs.ranking import RankingError, parse_ranking
from clubs.refusals import message_of
from core.errors import ServiceError
from scoresheet import signals
from scoresheet.handmap import Table, hand_data, score_rows
from scoresheet.models import Hand, ScoreRow, Sheet
from scoresheet.totals import rebuild_season_totals
from tarot import ScoringError, score_hand
from tarot.jsonformat import parse_hand, parse_rules

FORMAT = "tarot-ledger-club-backup"
#: 2: the file ends with ``counts``; a file of version 1 (without) is still read.
VERSION = 2
VERSIONS = (1, 2)
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
    """The club's backup as text, in chunks (``transfer.backup``'s format, version 2).

    Not a snapshot: it reads each model in turn, outside any transaction (so the
    job's progress, written meanwhile, shows at once); a hand recorded while it
    runs may be missing from it or have half its rows, which the restore refuses
    (take it when nobody scores). ``counts`` (a dict, optional) receives the rows
    of each model written, as the file's end says."""
    counts = {} if counts is None else counts
    progress = progress or _nothing
    tables = club_rows(club)
    user_ids, total = set(), 0
    for model, rows in tables.items():
        total += rows.count()
        for field in _user_fields(model):
            found = rows.order_by().exclude(**{field.attname: None})
            user_ids.update(found.values_list(field.attname, flat=True).distinct())
    users = get_user_model().objects.filter(pk__in=user_ids).order_by("pk")
    head = {"format": FORMAT, "version": VERSION, "club": club.slug}
    head["users"] = [
        {"id": user.pk, **{f: _plain(getattr(user, f)) for f in USER_FIELDS}} for user in users
    ]
    text = json.dumps(head, ensure_ascii=False)
    yield text[:-1] + ', "objects": ['
    done, first = 0, True
    progress(done, total)
    for model, rows in tables.items():
        count = 0
        for chunk in _batches(rows.iterator(chunk_size=CHUNK), CHUNK):
            lines = [
                json.dumps(row, ensure_ascii=False, default=_text)
                for row in serializers.serialize("python", chunk)
            ]
            yield ("" if first else ", ") + ", ".join(lines)
            first = False
            count += len(lines)
            done += len(lines)
            progress(done, total)
        counts[model._meta.label_lower] = count
    # the persons its players and entries name (``PERSON_KEYS``): name, licence, série;
    # never their login nor another club's players (before the counts, which end the file)
    person_ids = set()
    for model, rows in tables.items():
        attname = PERSON_KEYS.get(model._meta.label)
        if attname:
            found = rows.order_by().exclude(**{attname: None})
            person_ids.update(found.values_list(attname, flat=True).distinct())
    persons = [
        {"id": p.pk, "name": p.name, "licence": p.licence, "serie": p.serie}
        for p in Person.objects.filter(pk__in=person_ids).order_by("pk")
    ]
    yield '], "persons": ' + json.dumps(persons, ensure_ascii=False)
    yield ', "counts": ' + json.dumps(counts) + "}"


def write(club, out, progress=None) -> tuple[dict, str]:
    """Write the backup to ``out`` (a binary file) in chunks; returns its counts per
    model and the SHA-256 of what was written."""
    counts, digest = {}, hashlib.sha256()
    for text in chunks(club, progress, counts):
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
    return {"club": club.group(1), "counts": counts, "bytes": size}


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


def restore(data, *, actor=None) -> Club:
    """Write a backup (a dict, or its JSON text) into this instance; returns the club.

    A validated import, all or nothing: every row must belong to the file's club
    (each of its keys names a row of the file, and its path leads to the club);
    logins are matched by username or created without any privilege; rules are
    read by the engine; every live hand is scored again and must give its score
    rows; the standings' totals and facts are counted again from the ledger, never
    taken from the file. The first row refused is named in the ``BackupError``."""
    try:
        return _restore(data, actor)
    except RecursionError:
        raise _invalid(_("nested too deeply")) from None


def _restore(data, actor) -> Club:
    digest = None
    if isinstance(data, (bytes, str)):
        raw = data.encode() if isinstance(data, str) else data
        digest = hashlib.sha256(raw).hexdigest()
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            raise _invalid(_("not JSON")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _invalid(_("not a Tarot Ledger club backup"))
    if data.get("version") not in VERSIONS:
        raise _invalid(_("version %(v)s is not one this site reads") % {"v": data.get("version")})
    if not isinstance(data.get("users"), list) or not isinstance(data.get("objects"), list):
        raise _invalid(_("users and objects: lists"))
    _check_counts(data)
    if Club.objects.filter(slug=str(data.get("club"))).exists():
        raise BackupError(
            "club_exists", _("This site already has the club %(slug)s.") % {"slug": data["club"]}
        )
    try:
        objects = _deserialize(data["objects"])
        links = _take_person_links(objects, data.get("persons", []))
        with transaction.atomic():
            _check_not_held(objects)
            club = _check_rows(objects, data["club"], _user_ids(data["users"]))
            users = _restore_users(data["users"])
            _restore_person_links(links, data.get("persons", []))
            _restore_objects(objects, users)
            _renumber(club)
            _check_hands(club)
            for season in club.seasons.all():
                rebuild_season_totals(season)
            signals.changed(club.pk)
            after = {"sha256": digest, "rows": len(objects), "users": len(data["users"])}
            audit.record(club, actor, audit.Action.CLUB_RESTORED, club, after=after)
    except (DeserializationError, DatabaseError, KeyError, TypeError, ValueError) as error:
        raise _invalid(str(error).splitlines()[0] if str(error) else type(error).__name__) from None
    return club


def _check_counts(data) -> None:
    """A file of version 2 ends with the rows of each model: a file cut short, or rows
    added or taken out by hand, do not add up."""
    if data["version"] == 1:
        return
    counts = data.get("counts")
    if not isinstance(counts, dict) or not all(
        isinstance(c, int) and not isinstance(c, bool) for c in counts.values()
    ):
        raise _invalid(_("the counts of rows are missing at the end"))
    found = {}
    for row in data["objects"]:
        label = row.get("model") if isinstance(row, dict) else None
        found[label] = found.get(label, 0) + 1
    for label in sorted(set(found) | set(counts), key=str):
        if found.get(label, 0) != counts.get(label, 0):
            raise _invalid(
                _("%(count)s rows of %(model)s where the file counts %(counted)s")
                % {"count": found.get(label, 0), "model": label, "counted": counts.get(label, 0)}
            )


#: Rows the restore counts again from the ledger (``rebuild_season_totals``) rather
#: than write from the file.
REBUILT = ("scoresheet.SheetTotal", "scoresheet.SheetFacts", "scoresheet.SeasonTotal")


def _label(item) -> str:
    return f"{item.object._meta.label_lower} {item.object.pk}"


def _deserialize(rows) -> list:
    """The file's rows as unsaved models, each of a model of ``PATHS``."""
    labels = {label.lower() for label in PATHS}
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict) or not isinstance(row.get("fields"), dict):
            raise _invalid(_("row %(n)s is not a row of a model") % {"n": number})
        if row.get("model") not in labels:
            raise _invalid(_("%(model)s is not club data") % {"model": row.get("model")})
    return list(serializers.deserialize("python", rows))


def _check_not_held(objects) -> None:
    """Refuse a row whose key this site holds already (one query per model and 900
    keys, not one per row: SQLite and PostgreSQL both cap a query's parameters)."""
    pks = {}  # model → the primary keys of its rows in the backup, in order
    for item in objects:
        pks.setdefault(type(item.object), []).append(item.object.pk)
    held = {model: set() for model in pks}
    for model, keys in pks.items():
        if model._meta.label in REBUILT:
            continue
        for start in range(0, len(keys), 900):
            found = model._default_manager.filter(pk__in=keys[start : start + 900]).order_by()
            held[model].update(found.values_list("pk", flat=True))
    for item in objects:
        model = type(item.object)
        if item.object.pk in held[model]:
            raise BackupError(
                "not_empty",
                _("This site already holds %(model)s %(pk)s: restore into an empty site.")
                % {"model": model._meta.label, "pk": item.object.pk},
            )


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


def _check_rows(objects, slug, user_ids) -> Club:
    """Every row belongs to the file's one club: its keys name rows of the file (or
    logins of its users), its path (``PATHS``) leads to the club, its fields hold
    what their model allows; rules are read by the engine. Returns the club (unsaved)."""
    User = get_user_model()
    index = {}
    for item in objects:
        key = (type(item.object), item.object.pk)
        if item.object.pk is None or key in index:
            raise _invalid(_("%(row)s: its key is missing or twice") % {"row": _label(item)})
        index[key] = item.object
    clubs = [item.object for item in objects if isinstance(item.object, Club)]
    if len(clubs) != 1 or clubs[0].slug != slug:
        raise _invalid(_("the file must hold one club, %(slug)s") % {"slug": slug})
    club = clubs[0]
    paths = club_paths()
    for item in objects:
        row = item.object
        model = type(row)
        for field in model._meta.concrete_fields:
            value = getattr(row, field.attname)
            if value is None:
                if not field.null:
                    raise _refused(item, field.name, _("empty"))
                continue
            if field.is_relation:
                if field.related_model is User:
                    if value not in user_ids:
                        raise _refused(item, field.name, _("a login not in the file"))
                elif (field.related_model, value) not in index:
                    raise _refused(item, field.name, _("a row not in the file"))
                continue
            if model._meta.label not in REBUILT:  # written from the ledger, not the file
                _check_value(item, field, value)
        target = row
        for field in path_fields(model, paths[model]):
            target = index[(field.related_model, getattr(target, field.attname))]
        if target is not club:
            raise _refused(item, "club", _("another club"))
        if model._meta.label in RULES:
            _check_rules(item)
    _check_seats(objects, index)
    return club


def _check_seats(objects, index) -> None:
    """A tournament table's seats are entry numbers of its own tournament (the pages
    read them as such)."""
    entries = {}
    for item in objects:
        if item.object._meta.label == "tournaments.Entry":
            entries.setdefault(item.object.tournament_id, set()).add(item.object.number)
    for item in objects:
        table = item.object
        if table._meta.label != "tournaments.RoundTable":
            continue
        rnd = index[(apps.get_model("tournaments.Round"), table.round_id)]
        numbers = entries.get(rnd.tournament_id, set())
        seats = table.seats
        if not isinstance(seats, list) or not all(type(n) is int and n in numbers for n in seats):
            raise _refused(item, "seats", _("not entries of its tournament"))


#: The models whose rules the engine reads (``tarot.jsonformat.parse_rules``).
RULES = ("clubs.Season", "scoresheet.Sheet", "tournaments.Tournament")


def _check_value(item, field, value) -> None:
    """A field's own checks: its choices, its length, its bounds."""
    if hasattr(value, "resolve_expression"):  # a database default, for a field the file lacks
        return
    choices = {choice for choice, _label in field.flatchoices} if field.choices else None
    if choices is not None and value not in choices and not (field.blank and value == ""):
        raise _refused(item, field.name, _("not one of its choices"))
    try:
        field.run_validators(value)
    except ValidationError as error:
        raise _refused(item, field.name, " ".join(error.messages)) from None


def _check_rules(item) -> None:
    row = item.object
    try:
        parse_rules(row.rules)
        if isinstance(row, Season):
            parse_ranking(row.ranking)
    except ScoringError as error:
        raise _refused(item, "rules", message_of(error)) from None
    except RankingError as error:
        raise _refused(item, "rules", error.message) from None


def _refused(item, field, reason) -> BackupError:
    return _invalid(
        _("%(row)s, %(field)s: %(reason)s")
        % {"row": _label(item), "field": field, "reason": reason}
    )


def _take_person_links(objects, persons) -> list:
    """The rows naming a shared person (``PERSON_KEYS``), with the person's id in the
    file, their key emptied until the persons are restored (it names no row of the file)."""
    if not isinstance(persons, list) or not all(
        isinstance(p, dict) and isinstance(p.get("id"), int) and isinstance(p.get("name"), str)
        for p in persons
    ):
        raise _invalid(_("persons: a list of ids and names"))
    ids = {p["id"] for p in persons}
    links = []
    for item in objects:
        attname = PERSON_KEYS.get(type(item.object)._meta.label)
        old = getattr(item.object, attname) if attname else None
        if old is None:
            continue
        if old not in ids:
            raise _refused(item, "person", _("a row not in the file"))
        setattr(item.object, attname, None)
        links.append((item, attname, old))
    return links


def _restore_person_links(links, persons) -> None:
    """Each person of the file found by their licence, else created; the rows naming
    them linked again."""
    mapping = {}
    for row in persons:
        licence = str(row.get("licence") or "")[:20] or None
        person = Person.objects.filter(licence=licence).first() if licence else None
        if person is None:
            person = Person.objects.create(
                name=row["name"][:80], licence=licence, serie=str(row.get("serie") or "")[:30]
            )
        mapping[row["id"]] = person.pk
    for item, attname, old in links:
        setattr(item.object, attname, mapping[old])


def _restore_users(rows) -> dict:
    """Old user id → the id of the login it is now: found by username, else created
    with the file's names and dates only (never a password nor any privilege)."""
    User = get_user_model()
    mapping = {}
    for row in rows:
        user = User.objects.filter(username=row["username"]).first()
        if user is None:
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
    return mapping


def _restore_objects(objects, users) -> None:
    models_seen = []
    for item in objects:
        model = type(item.object)
        if model not in models_seen:
            models_seen.append(model)
        for field in _user_fields(model):
            old = getattr(item.object, field.attname)
            if old is not None:
                setattr(item.object, field.attname, users[old])
    with connection.constraint_checks_disabled():
        _insert([item.object for item in objects if type(item.object)._meta.label not in REBUILT])
    connection.check_constraints(table_names=[m._meta.db_table for m in models_seen])
    _reset_sequences(models_seen + [get_user_model()])


def _insert(rows) -> None:
    """Insert the rows as they are (their keys, their dates: a raw insert, as a
    deserialised row's ``save`` makes, ``auto_now`` left alone), in multi-row
    statements of a model each, in the order given (a row's targets first)."""
    for model, group in itertools.groupby(rows, key=type):
        group = list(group)
        fields = list(model._meta.concrete_fields)
        size = connection.ops.bulk_batch_size(fields, group) or len(group)
        size = max(1, min(size, INSERT_BATCH))
        manager = model._base_manager
        for start in range(0, len(group), size):
            manager._insert(group[start : start + size], fields=fields, raw=True, using="default")


#: rows of one INSERT statement of a restore
INSERT_BATCH = 2000


def _check_hands(club) -> None:
    """Every live hand of a live sheet scored again by the engine under its sheet's
    rules (pools carried along the sheet), and its score rows compared with what
    the engine gives, every column; deleted hands and the hands of deleted sheets
    read by the engine too, and without score rows."""
    fields = [f.attname for f in ScoreRow._meta.concrete_fields if f.attname != "id"]
    stray = ScoreRow.objects.filter(hand__sheet__club=club).filter(
        Q(hand__is_deleted=True) | Q(hand__sheet__deleted_at__isnull=False)
    )
    for row in stray.order_by("pk")[:1]:
        raise _invalid(_("scoresheet.scorerow %(pk)s: a row of no live hand") % {"pk": row.pk})
    for sheet in club.sheets.order_by("pk"):
        table = Table.of(sheet)
        ruleset = sheet.ruleset
        pools = ()
        hands = sheet.hands.order_by("number").prefetch_related("scores")
        for hand in hands:
            where = f"scoresheet.hand {hand.pk}"
            try:
                engine_hand = parse_hand(hand_data(hand, table), ruleset, table.names)[1]
                if hand.is_deleted or sheet.deleted_at is not None:
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
            expected = sorted(
                tuple(getattr(row, name) for name in fields)
                for row in score_rows(hand, sheet, table, result)
            )
            stored = sorted(
                tuple(getattr(row, name) for name in fields) for row in hand.scores.all()
            )
            if stored != expected:
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


#: rows the backup reads and serialises at a time
CHUNK = 2000


def _nothing(done, total):
    pass


def _batches(iterable, size):
    batch = []
    for item in iterable:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


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
