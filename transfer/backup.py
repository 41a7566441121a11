"""A whole club in one file, and back: ``backup(club)`` and ``restore(data)``.

The backup holds every row of the club in the apps that keep its data (clubs,
scoresheet, tournaments): the club, seasons, players, memberships and roles,
invitations, the audit trail, sheets, seats, hands, score rows, hand
revisions, sheet and season totals, tournaments — each model found by its
foreign keys leading to the club, so a model added later is backed up too —
and the logins those rows name (username, names, email, dates; never a
password hash: a restored login sets its password through "Forgot your
password?", or a manager invites it again).

``restore`` writes it all into an instance that does not hold the club yet,
with the same primary keys (so the totals, history entries and links between
rows stay exactly as they were): a login whose username exists is reused,
others are created (with their old id when free). It is one transaction; it
refuses (``BackupError``: ``backup_invalid``, ``club_exists``, ``not_empty``)
without writing anything.
"""

import json
import uuid
from decimal import Decimal

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, connection, transaction
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from clubs.models import Club
from core.errors import ServiceError
from scoresheet import facts
from scoresheet.models import Hand, Sheet
from scoresheet.totals import rebuild_season_totals

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
}


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
    (``counts``: the restore refuses a file whose rows do not add up to them)."""
    objects, user_ids, counts = [], set(), {}
    for model, rows in club_rows(club).items():
        fields = _user_fields(model)
        for row in rows:
            user_ids.update(getattr(row, f.attname) for f in fields)
        # the "python" serializer and our own encoder: Django's JSON one cuts times to
        # the millisecond, and a restored row must equal the row backed up
        serialized = json.loads(json.dumps(serializers.serialize("python", rows), default=_text))
        counts[model._meta.label_lower] = len(serialized)
        objects.extend(serialized)
    users = get_user_model().objects.filter(pk__in=user_ids - {None}).order_by("pk")
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": club.slug,
        "users": [
            {"id": user.pk, **{f: _plain(getattr(user, f)) for f in USER_FIELDS}} for user in users
        ],
        "objects": objects,
        "counts": counts,
    }


def dumps(club) -> str:
    # in the order written (the counts last), not sorted
    return json.dumps(backup(club), ensure_ascii=False, indent=None)


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


def restore(data) -> Club:
    """Write a backup (a dict, or its JSON text) into this instance; returns the club."""
    if isinstance(data, (bytes, str)):
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
        with transaction.atomic():
            users = _restore_users(data["users"])
            saved = _restore_objects(data["objects"], users)
            club = next(obj for obj in saved if isinstance(obj, Club))
            _renumber(club)
            if _without_facts(data["objects"]):
                for season in club.seasons.all():
                    rebuild_season_totals(season)
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


def _restore_users(rows) -> dict:
    """Old user id → the id of the login it is now (found by username, else created)."""
    User = get_user_model()
    mapping = {}
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("username"), str):
            raise _invalid(_("a user without a username"))
        user = User.objects.filter(username=row["username"]).first()
        if user is None:
            fields = {f: row[f] for f in USER_FIELDS if f in row}
            user = User(**fields)
            if not User.objects.filter(pk=row.get("id")).exists():
                user.pk = row.get("id")
            user.set_unusable_password()
            user.save()
        mapping[row.get("id")] = user.pk
    return mapping


def _restore_objects(rows, users) -> list:
    objects = list(serializers.deserialize("python", rows))
    paths = club_paths()
    pks = {}  # model → the primary keys of its rows in the backup, in order
    for item in objects:
        model = type(item.object)
        if model not in paths:
            raise _invalid(_("%(model)s is not club data") % {"model": model._meta.label})
        pks.setdefault(model, []).append(item.object.pk)
    models_seen = list(pks)
    # the rows this site already holds: a query per model and 900 keys (not one per row;
    # SQLite and PostgreSQL both cap the parameters of one query)
    held = {model: set() for model in pks}
    for model, keys in pks.items():
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
        for field in _user_fields(model):
            old = getattr(item.object, field.attname)
            if old is not None:
                setattr(item.object, field.attname, users.get(old))
    with connection.constraint_checks_disabled():
        for item in objects:
            item.save()
    connection.check_constraints(table_names=[m._meta.db_table for m in models_seen])
    _reset_sequences(models_seen + [get_user_model()])
    return [item.object for item in objects]


def _without_facts(rows) -> bool:
    """Whether the backup was written before the sheets' totals kept the statistics'
    facts (``scoresheet.facts``): its SheetTotals lack them and it has no SheetFacts,
    so the restore counts them again from the ledger (``rebuild_season_totals``)."""
    return any(
        row.get("model") == "scoresheet.sheettotal"
        and not set(facts.RUNS) <= set(row.get("fields", {}))
        for row in rows
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
