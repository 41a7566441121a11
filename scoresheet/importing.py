"""Import sheets in the JSON format of HAND_FORMAT.md, one sheet per line.

Each line is all or nothing. Beyond the format's ``rules``, ``players`` and
``hands``, a line may give ``date`` (ISO), ``table`` and ``season`` (a season's
name); otherwise the sheet goes to the season that covers its date.

A bad line never stops the import: bytes that are not UTF-8, JSON that is not a
sheet, a hand the engine refuses, a name that is empty, too long or holds
control characters, amounts the ledger cannot hold, or anything the database
refuses — each is a ``LineResult`` with a code and a reason, and the import goes
on with the next line. Players are matched ignoring case and accents
(``services.players_by_names``). A line that meets a deadlock is run again.
"""

import datetime
import unicodedata
from dataclasses import dataclass

from django.db import DatabaseError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Season
from core.bulk import RowWriter
from core.db import retry_on_conflict
from scoresheet import handmap, services
from scoresheet.models import Hand, HandRevision, ScoreRow, Sheet
from scoresheet.scoring import ScoringError, score_sheet
from scoresheet.scoring import Sheet as EngineSheet
from scoresheet.scoring.jsonformat import loads, parse_hand
from scoresheet.totals import add_new_sheet_totals

TABLE_MAX = Sheet._meta.get_field("table").max_length


@dataclass
class LineResult:
    line: int
    sheet: object = None
    hands: int = 0
    code: str = ""
    message: str = ""
    hand: int | None = None

    @property
    def ok(self):
        return not self.code


def _season_for(club: Club, name, date):
    """The season named ``name``, else the one covering ``date`` (else the latest)."""
    if name:
        season = club.seasons.regular().filter(name=name).first()
        if season is None:
            raise services.LedgerError(
                "season_unknown", _("No season named %(name)s") % {"name": name}, "season"
            )
        return season
    season = club.seasons.regular().covering(date)
    if season is None:
        raise services.LedgerError(
            "season_missing", _("The club has no season to put the sheet in."), "season"
        )
    return season


@retry_on_conflict
def import_sheet_line(club: Club, text, *, season: Season | None = None, user=None):
    """Import one sheet; raises LedgerError (with ``hand`` set when a hand is refused).

    ``text``: the line, as text or as bytes (UTF-8).
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise services.LedgerError(
                "invalid_utf8", _("not UTF-8 text (byte %(n)s)") % {"n": error.start + 1}
            ) from None
    if "\x00" in text:
        raise services.LedgerError("invalid_text", _("the line holds a NUL character"))
    try:
        data = loads(text)
    except ScoringError as error:
        raise services.LedgerError.from_scoring(error) from None
    players = data.get("players")
    hands = data.get("hands")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise services.LedgerError("invalid_field", _("players: a list of names"), "players")
    if not isinstance(hands, list):
        raise services.LedgerError("invalid_field", _("hands: a list of hands"), "hands")
    date = data.get("date") or datetime.date.today().isoformat()
    try:
        date = datetime.date.fromisoformat(str(date))
    except ValueError:
        raise services.LedgerError("invalid_field", _("date: YYYY-MM-DD"), "date") from None
    table = _text(data.get("table"), "table")
    if len(table) > TABLE_MAX:
        raise services.LedgerError(
            "table_too_long", _("table: at most %(n)s characters") % {"n": TABLE_MAX}, "table"
        )
    season_name = _text(data.get("season"), "season")
    with transaction.atomic():
        season = season or _season_for(club, season_name, date)
        seated = services.players_by_names(club, players, create=True, user=user)
        sheet = services.create_sheet(
            season=season,
            players=seated,
            date=date,
            table=table,
            rules=data.get("rules"),
            user=user,
        )
        # the hands name the players as the line does ("ann"): use the stored names ("Ann")
        renamed = {name: player.name for name, player in zip(players, seated)}
        seating = handmap.Table.seating(seated)
        _bulk_hands(sheet, seating, [_renamed(hand, renamed) for hand in hands], user)
    return sheet


def _bulk_hands(sheet, table, hands, user) -> None:
    """Record a new sheet's hands at once, as ``services.record_hand`` would one by one.

    Each hand is read and checked as the services do (``parse_hand``; refusals are the
    same ``LedgerError`` with ``hand`` set), the sheet is scored once by the engine
    (``score_sheet``: mouches pools carry), and the hands, score rows and history
    entries are written as plain rows (``handmap.hand_fields``, ``score_row_fields``,
    ``snapshot``: the columns ``record_hand`` writes) with one ``COPY`` per table on
    PostgreSQL (``core.bulk``), then the totals made once from those rows
    (``totals.add_new_sheet_totals``); all in the caller's transaction, so a refused
    hand leaves nothing. ``table``: the sheet's seating.
    """
    ruleset = sheet.ruleset
    engine_hands = []
    for number, data in enumerate(hands, start=1):
        try:
            if not isinstance(data, dict):
                raise services.LedgerError("invalid_field", _("A hand must be an object."))
            if "players" in data or "rules" in data:
                data = {k: v for k, v in data.items() if k not in ("players", "rules")}
            try:
                engine_hands.append(parse_hand(data, ruleset, table.names)[1])
            except ScoringError as error:
                raise services.LedgerError.from_scoring(error) from None
        except services.LedgerError as error:
            error.hand = number
            raise
    try:
        results = score_sheet(EngineSheet(ruleset, table.names, tuple(engine_hands))).hands
    except ScoringError as error:
        refusal = services.LedgerError.from_scoring(error)
        refusal.hand = getattr(error, "hand", None)
        raise refusal from None
    for number, result in enumerate(results, start=1):
        try:
            services._check_fits(result)
        except services.LedgerError as error:
            error.hand = number
            raise
    if not results:
        return
    now = timezone.now()
    user_id = user.pk if user is not None else None
    scored = list(zip(engine_hands, results))
    fields = [handmap.hand_fields(engine_hand, result, table) for engine_hand, result in scored]
    RowWriter(Hand).write(
        {
            **columns,
            "sheet_id": sheet.pk,
            "number": number,
            "entered_by_id": user_id,
            "entered_at": now,
            "updated_at": now,
        }
        for number, columns in enumerate(fields, start=1)
    )
    ids = dict(Hand.objects.filter(sheet_id=sheet.pk).order_by().values_list("number", "pk"))
    per_sheet = {
        "sheet_id": sheet.pk,
        "season_id": sheet.season_id,
        "date": sheet.date,
        "seats": len(table.names),
    }
    rows = []
    for number, (columns, (_hand, result)) in enumerate(zip(fields, scored), start=1):
        hand_id = ids[number]
        for row in handmap.score_row_fields(columns, number, table, result):
            row.update(per_sheet, hand_id=hand_id)
            rows.append(row)
    RowWriter(ScoreRow).write(rows)
    RowWriter(HandRevision).write(
        {
            "hand_id": ids[number],
            "action": HandRevision.Action.CREATED.value,
            "user_id": user_id,
            "at": now,
            "after": handmap.snapshot(engine_hand, result),
        }
        for number, (engine_hand, result) in enumerate(scored, start=1)
    )
    add_new_sheet_totals(sheet, rows)


def import_sheets(club: Club, lines, *, season=None, user=None):
    """Import every line (text or UTF-8 bytes); yield a ``LineResult`` for each
    non-blank line. A refused line is a result, never an exception."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            sheet = import_sheet_line(club, text, season=season, user=user)
        except services.LedgerError as error:
            yield LineResult(
                number, code=error.code, message=error.message, hand=getattr(error, "hand", None)
            )
        except DatabaseError as error:  # the database's reason, on one line
            yield LineResult(number, code="database_refused", message=_first_line(error))
        except ValueError as error:  # e.g. text the database driver cannot send
            yield LineResult(number, code="invalid_value", message=_first_line(error))
        else:
            yield LineResult(number, sheet=sheet, hands=sheet.hand_count)


#: The fields of a hand (HAND_FORMAT.md) that hold a player's name, or a list of names.
NAME_FIELDS = ("dealer", "taker", "partner", "sits_out")
NAME_LIST_FIELDS = ("miseres",)


def _renamed(hand, names: dict):
    """``hand`` with the players' names as stored (unknown values left to the engine)."""
    if not isinstance(hand, dict) or all(old == new for old, new in names.items()):
        return hand

    def name(value):
        return names.get(value, value) if isinstance(value, str) else value

    hand = dict(hand)
    for field in NAME_FIELDS:
        if field in hand:
            hand[field] = name(hand[field])
    for field in NAME_LIST_FIELDS:
        if isinstance(hand.get(field), list):
            hand[field] = [name(v) for v in hand[field]]
    if isinstance(hand.get("poignees"), list):
        hand["poignees"] = [
            dict(p, player=name(p.get("player"))) if isinstance(p, dict) else p
            for p in hand["poignees"]
        ]
    return hand


def _text(value, field) -> str:
    """A text field of the line (table, season), spaces collapsed; no control characters."""
    text = " ".join(str(value if value is not None else "").split())
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in text):
        raise services.LedgerError(
            "invalid_text",
            _("%(field)s: no control characters") % {"field": field},
            field,
        )
    return text


def _first_line(error) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]
