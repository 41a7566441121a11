"""Importing a licence list (CSV) into a league: it creates or updates the persons of its
licence numbers, and links each to their club's player where the name tells which.

The file has a header line naming its columns, in any order, French or English:
licence (``licence``, ``numéro de licence``…), the name (``name``, or ``nom`` and
``prénom``), ``club`` (a member club's name or address) and ``série`` (one of the
league's; empty: unchanged). Separators ``;``, ``,`` or tab; UTF-8 (with or without
BOM) or Windows-1252, as a spreadsheet saves it.

``import_licences(league, text, actor=…, commit=False)`` reads every line and says
what it would do (the preview: create, update, unchanged, or the refusal of that line
in the reader's language); with ``commit=True`` it does it, in one transaction with
one league audit entry (and the club's audit entry of each link), the refused lines
left out. A league manager imports for every member club; a manager of a member club
only the lines of the clubs they manage, and a line of theirs with a licence new to
them (no person holds it, or one they may not see: ``clubs.visibility``) is held for
the league's managers, with the same words either way, so the answer never tells
whether a hidden person holds that licence. A held line is kept (``HeldLicence``,
pending) for the league's managers, who confirm it (``leagues.held``: this import of
that line, as their own) or dismiss it; any league manager's import of a line settles
the pending line of its club and licence. The league's history lists the held lines.
"""

import csv
import io
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _lazy

from clubs import audit, visibility
from clubs.models import Club, Membership, Person, Player
from clubs.permissions import LEVELS as CLUB_LEVELS
from clubs.permissions import can as can_club
from core.db import is_conflict
from core.errors import ServiceError
from core.text import sort_key
from leagues import permissions, season_standings
from leagues import services as league_services
from leagues.models import HeldLicence, LeagueAuditEntry

MAX_BYTES = 1_000_000
MAX_LINES = 10_000
#: how many times the import is run in all when a concurrent write gets in its way
ATTEMPTS = 3
LICENCE_MAX = Person._meta.get_field("licence").max_length
NAME_MAX = Person._meta.get_field("name").max_length

error_messages = {
    "forbidden": _lazy("Only a manager of the league or of one of its clubs may import."),
    "file_empty": _lazy("The file is empty."),
    "file_too_large": _lazy("The file is too large (at most 1 MB and 10,000 lines)."),
    "file_unreadable": _lazy("The file is not a text CSV file."),
    "columns_missing": _lazy(
        "The first line names the columns: it needs a licence, a name (or a surname and a "
        "given name) and a club."
    ),
    "licence_required": _lazy("No licence number."),
    "licence_invalid": _lazy("The licence %(licence)s is not a licence number."),
    "licence_twice": _lazy("The licence %(licence)s is already on line %(line)s."),
    "name_required": _lazy("No name."),
    "club_unknown": _lazy("%(club)s is not a member club of the league."),
    "club_not_yours": _lazy("You do not manage %(club)s."),
    "serie_unknown": _lazy("The série %(serie)s is not one of the league's."),
    "person_not_yours": _lazy(
        "The licence %(licence)s is held by a login or by players of other clubs: "
        "ask the league's managers to change it."
    ),
    "held": _lazy(
        "The licence %(licence)s is held for the league's managers to confirm: they add "
        "the licences new to your club."
    ),
    "conflict": _lazy(
        "Other changes to these persons were being saved at the same time: import the list again."
    ),
}


class LicenceError(ServiceError):
    error_messages = error_messages


#: header (as ``sort_key`` reads it) → column
HEADERS = {
    "licence": "licence",
    "license": "licence",
    "licence number": "licence",
    "license number": "licence",
    "numero de licence": "licence",
    "n de licence": "licence",
    "n licence": "licence",
    "no licence": "licence",
    "name": "name",
    "nom complet": "name",
    "full name": "name",
    "nom": "surname",
    "surname": "surname",
    "last name": "surname",
    "family name": "surname",
    "prenom": "given",
    "given name": "given",
    "first name": "given",
    "club": "club",
    "serie": "serie",
    "series": "serie",
    "categorie": "serie",
    "category": "serie",
}


@dataclass
class Line:
    """One line of the file and what it does (``action``: create, update, unchanged,
    held, refused); ``message`` the refusal or the hold; ``changes`` field → (before,
    after)."""

    number: int
    licence: str = ""
    name: str = ""
    serie: str = ""
    club: str = ""
    action: str = "refused"
    code: str = ""
    message: str = ""
    changes: dict = field(default_factory=dict)
    link: str = ""  # the club's player linked to the person (their name), if any

    @property
    def refused(self) -> bool:
        return self.action == "refused"


@dataclass
class Preview:
    lines: list
    committed: bool = False

    def count(self, action) -> int:
        return sum(1 for line in self.lines if line.action == action)

    @property
    def counts(self) -> dict:
        actions = ("create", "update", "unchanged", "held", "refused")
        return {action: self.count(action) for action in actions} | {
            "linked": sum(1 for line in self.lines if line.link)
        }


def decode(data: bytes) -> str:
    """An uploaded file's text: UTF-8 (a BOM dropped), else Windows-1252."""
    if len(data) > MAX_BYTES:
        raise LicenceError("file_too_large", field="file")
    if b"\x00" in data:
        raise LicenceError("file_unreadable", field="file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _rows(text: str) -> list[list[str]]:
    text = "".join(ch for ch in str(text or "") if ch.isprintable() or ch in "\t\r\n")
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise LicenceError("file_too_large", field="file")
    text = text.lstrip("\ufeff")
    if not text.strip():
        raise LicenceError("file_empty", field="file")
    first = text.splitlines()[0]
    delimiter = max(";,\t", key=first.count)
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    except csv.Error:  # a field past the csv module's limit (128 kB)
        raise LicenceError("file_unreadable", field="file") from None
    if len(rows) > MAX_LINES + 1:
        raise LicenceError("file_too_large", field="file")
    return rows


def _columns(header) -> dict:
    columns = {}
    for index, title in enumerate(header):
        key = HEADERS.get(" ".join(sort_key(title).replace("°", " ").split()))
        if key and key not in columns:
            columns[key] = index
    has_name = "name" in columns or "surname" in columns
    if "licence" not in columns or not has_name or "club" not in columns:
        raise LicenceError("columns_missing", field="file")
    return columns


def _cell(row, columns, key) -> str:
    index = columns.get(key)
    if index is None or index >= len(row):
        return ""
    return " ".join(row[index].split())


def _refuse(target, code, **params):
    target.action, target.code = "refused", code
    target.message = LicenceError(code, **params).message
    return target


def _read(league, rows, actor, only_club=None) -> tuple[list[Line], dict]:
    """Each line's values and action, against the database as it is now."""
    columns = _columns(rows[0])
    members = list(
        Club.objects.filter(league_links__league=league, league_links__accepted_at__isnull=False)
    )
    by_name = {sort_key(club.name): club for club in members}
    by_slug = {club.slug.lower(): club for club in members}
    manager = actor is None or permissions.is_manager(actor, league)
    lines, seen, found = [], {}, {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        line = Line(number)
        lines.append(line)
        line.licence = _cell(row, columns, "licence")[: LICENCE_MAX + 1]
        name = _cell(row, columns, "name")
        if not name:
            name = " ".join(
                part
                for part in (_cell(row, columns, "given"), _cell(row, columns, "surname"))
                if part
            )
        line.name = name[:NAME_MAX]
        line.serie = _cell(row, columns, "serie")[:30]
        line.club = _cell(row, columns, "club")[:120]
        club = by_name.get(sort_key(line.club)) or by_slug.get(line.club.lower())
        if not line.licence:
            _refuse(line, "licence_required")
        elif len(line.licence) > LICENCE_MAX or " " in line.licence:
            _refuse(line, "licence_invalid", licence=line.licence)
        elif line.licence in seen:
            _refuse(line, "licence_twice", licence=line.licence, line=seen[line.licence])
        elif not line.name:
            _refuse(line, "name_required")
        elif club is None:
            _refuse(line, "club_unknown", club=line.club or "—")
        elif not manager and (
            not can_club(actor, club, "manage") or only_club not in (None, club.pk)
        ):
            _refuse(line, "club_not_yours", club=club.name)
        elif line.serie and line.serie not in league.series:
            _refuse(line, "serie_unknown", serie=line.serie)
        else:
            seen[line.licence] = number
            line.action = "pending"
            found[number] = club
    return lines, found


#: a person's name the one reading may not see, where an update shows the one it replaces
HIDDEN = _lazy("A player of a members-only club")


def _hidden(actor, persons, league) -> set[int]:
    """Of ``persons``, those with players of whom none is named to ``actor``
    (``clubs.visibility``): a league's manager updating one by its licence is not told
    the name it held (a person of no player is the league's own)."""
    ids = {p.pk for p in persons}
    if actor is None or not ids:
        return set()
    played = set(Player.objects.filter(person__in=ids).values_list("person_id", flat=True))
    return played - visibility.named_person_ids(actor, played, league=league)


def _plan(lines, clubs, manager=True, actor=None, league=None):
    """Create, update or unchanged, and the player to link, for the lines not refused.
    A person is shared by every club and league: a club's manager (``actor``, not
    ``manager`` of the league) changes only the persons of no login whose players are
    all of clubs they import for, and creates none: a licence no person holds, or one
    held by a person they may not see, is held for the league's managers alike."""
    pending = [line for line in lines if line.action == "pending"]
    persons = {
        p.licence: p for p in Person.objects.filter(licence__in=[line.licence for line in pending])
    }
    elsewhere = defaultdict(set)  # person → the clubs of their players
    hidden = _hidden(actor, persons.values(), league) if manager else set()
    if not manager:
        seen = visibility.named_person_ids(actor, {p.pk for p in persons.values()})
        for line in pending:
            person = persons.get(line.licence)
            if person is None or person.pk not in seen:
                _hold(line)
        pending = [line for line in pending if line.action == "pending"]
        persons = {line.licence: persons[line.licence] for line in pending}
        for person_id, club_id in Player.objects.filter(
            person__in=list(persons.values())
        ).values_list("person_id", "club_id"):
            elsewhere[person_id].add(club_id)
    players = {}
    for player in Player.objects.filter(
        club__in={clubs[line.number].pk for line in pending}, merged_into__isnull=True
    ).only("pk", "club_id", "name", "sort_key", "person_id"):
        players.setdefault((player.club_id, player.sort_key), []).append(player)
    plan = []
    for line in pending:
        person = persons.get(line.licence)
        if person is None:
            line.action = "create"
        else:
            theirs = person.user_id is not None or elsewhere[person.pk] - {clubs[line.number].pk}
            if not manager and theirs:
                # one refusal whatever the person holds: neither their name nor whether
                # the line would change them reaches a club's manager
                _refuse(line, "person_not_yours", licence=line.licence)
                continue
            if person.name != line.name:
                before = str(HIDDEN) if person.pk in hidden else person.name
                line.changes["name"] = (before, line.name)
            if line.serie and person.serie != line.serie:
                line.changes["serie"] = (person.serie, line.serie)
            line.action = "update" if line.changes else "unchanged"
        club = clubs[line.number]
        words = line.name.split()
        keys = {sort_key(line.name), sort_key(" ".join(words[1:] + words[:1]))}
        keys.add(sort_key(" ".join(words[-1:] + words[:-1])))
        candidates = {p.pk: p for key in keys for p in players.get((club.pk, key), [])}
        player = None
        if len(candidates) == 1:
            player = next(iter(candidates.values()))
            if player.person_id is not None and (person is None or player.person_id != person.pk):
                player = None  # linked to another person: left as it is
            elif person is not None and player.person_id == person.pk:
                player = None  # already linked
        plan.append([line, person, player])
    # a player two lines would link is left to a manager (two persons of one name)
    chosen = [player.pk for _line, _person, player in plan if player is not None]
    for item in plan:
        line, _person, player = item
        if player is not None and chosen.count(player.pk) > 1:
            item[2] = None
        elif player is not None:
            line.link = player.name
    return plan


def _hold(line):
    """The same answer for a licence no person holds and one a hidden person holds."""
    line.action, line.code = "held", "held"
    line.message = LicenceError("held", licence=line.licence).message
    line.changes, line.link = {}, ""


def may_import(actor, league) -> bool:
    """A manager of the league, or of one of its member clubs (``None``: code)."""
    if actor is None or permissions.is_manager(actor, league):
        return True
    if not actor.is_authenticated:
        return False
    # one query, not one a member club (``clubs.permissions``' "manage": the manager role)
    return Membership.objects.filter(
        user=actor,
        role__in=CLUB_LEVELS["manage"],
        club__league_links__league=league,
        club__league_links__accepted_at__isnull=False,
    ).exists()


def import_licences(
    league, text, *, actor, commit=False, only_club=None, confirming=False
) -> Preview:
    """Read the licence list ``text``; with ``commit``, create and update the persons and
    link the players (the refused lines left out). Refuses the whole file only when it
    cannot be read (empty, too large, its columns not named). ``only_club`` (an API
    token's club): a club manager's lines of that club only. ``confirming``: held lines
    a league manager confirms (``leagues.held``), which its audit entry says."""
    if not may_import(actor, league):
        raise LicenceError("forbidden")
    rows = _rows(text)
    manager = actor is None or permissions.is_manager(actor, league)
    if not commit:
        lines, clubs = _read(league, rows, actor, only_club)
        _plan(lines, clubs, manager, actor, league)
        return Preview(lines)
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return _commit(league, rows, actor, only_club, manager, confirming)
        except (IntegrityError, OperationalError) as error:
            # a person of one of the licences created, or a deadlock, by a concurrent
            # write (another import, a link, My account): read everything again
            if isinstance(error, OperationalError) and not is_conflict(error):
                raise
            if attempt == ATTEMPTS:
                raise LicenceError("conflict") from error
    raise AssertionError("unreachable")  # pragma: no cover


def _commit(league, rows, actor, only_club, manager, confirming=False) -> Preview:
    """The import's writes, in one transaction (rolled back whole when a concurrent write
    gets in the way: ``import_licences`` runs it again)."""
    with transaction.atomic():
        lines, clubs = _read(league, rows, actor, only_club)
        plan = _plan(lines, clubs, manager, actor, league)
        moved = []  # persons whose série changed: their ranks in the league's seasons
        for line, person, player in plan:
            if person is None:
                person = Person.objects.create(
                    licence=line.licence, name=line.name, serie=line.serie
                )
            elif line.changes:
                person.name = line.name
                person.serie = line.serie or person.serie
                person.save(update_fields=["name", "serie"])
                if "serie" in line.changes:
                    moved.append(person.pk)
            if player is not None:
                player = Player.objects.select_for_update().filter(pk=player.pk).first()
                if player and player.merged_into_id is None and player.person_id is None:
                    league_services.link_player(player, person, actor=actor)
                else:  # linked, merged or deleted meanwhile: left as it is now
                    line.link = ""
        if moved:
            season_standings.rerank_persons(moved)
        _keep_held(league, lines, clubs, actor)
        settled = _settle_held(league, lines, clubs, actor) if manager else []
        preview = Preview(lines, committed=True)
        counts = preview.counts
        LeagueAuditEntry.objects.create(
            league=league,
            actor=audit.actor_of(actor),
            action=(
                LeagueAuditEntry.Action.HELD_CONFIRMED
                if confirming
                else LeagueAuditEntry.Action.LICENCES_IMPORTED
            ),
            label=(
                f"{counts['create']} created, {counts['update']} updated, "
                f"{counts['linked']} linked, {counts['held']} held, {counts['refused']} refused"
            ),
            after={
                **counts,
                "refused_lines": [line.number for line in lines if line.refused],
                # for the league's managers to confirm (the held licences' page): as a
                # line of a list "licence;name;club;série", the history shows them so
                "held_lines": [held_text(x) for x in lines if x.action == "held"],
                # the held lines this import settled (confirmed, or imported again)
                **({"confirmed_lines": settled} if settled else {}),
            },
        )
    return preview


def held_text(line) -> str:
    """A line as the history shows it: "licence;name;club;série"."""
    return ";".join((line.licence, line.name, line.club, line.serie))


def _keep_held(league, lines, clubs, actor) -> None:
    """A club manager's held lines, pending for the league's managers: a line of a club
    and licence already pending replaces it (the club's latest word, sent now)."""
    held = [line for line in lines if line.action == "held"]
    if not held:
        return
    now, by = timezone.now(), audit.actor_of(actor)
    pending = {
        (row.club_id, row.licence): row
        for row in HeldLicence.objects.select_for_update().filter(
            league=league,
            status=HeldLicence.Status.PENDING,
            licence__in=[line.licence for line in held],
        )
    }
    new, changed = [], []
    for line in held:
        club = clubs[line.number]
        row = pending.get((club.pk, line.licence))
        if row is None:
            row = HeldLicence(league=league, club=club, licence=line.licence)
            new.append(row)
        else:
            changed.append(row)
        row.name, row.serie, row.sent_by, row.sent_at = line.name, line.serie, by, now
    # a line held by two imports at once: the unique pending line refuses the second
    # (IntegrityError), which ``import_licences`` runs again
    HeldLicence.objects.bulk_create(new, batch_size=500)
    HeldLicence.objects.bulk_update(changed, ["name", "serie", "sent_by", "sent_at"], 500)


def _settle_held(league, lines, clubs, actor) -> list[str]:
    """A league manager's import settles the pending held line of each club and licence
    it imported (created, updated or found unchanged): confirmed, by them, now. Returns
    those lines as the history shows them."""
    done = {
        (clubs[line.number].pk, line.licence)
        for line in lines
        if line.action in ("create", "update", "unchanged")
    }
    if not done:
        return []
    rows = [
        row
        for row in HeldLicence.objects.filter(
            league=league,
            status=HeldLicence.Status.PENDING,
            licence__in={licence for _club, licence in done},
        ).select_related("club")
        if (row.club_id, row.licence) in done
    ]
    HeldLicence.objects.filter(pk__in=[row.pk for row in rows]).update(
        status=HeldLicence.Status.CONFIRMED,
        decided_by=audit.actor_of(actor),
        decided_at=timezone.now(),
    )
    return [";".join((row.licence, row.name, row.club.name, row.serie)) for row in rows]
