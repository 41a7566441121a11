"""Import sheets in the JSON format of HAND_FORMAT.md, one sheet per line.

Each line is all or nothing. Beyond the format's ``rules``, ``players`` and
``hands``, a line may give ``date`` (ISO), ``table`` and ``season`` (a season's
name); otherwise the sheet goes to the season that covers its date.
"""

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Club, Season
from scoresheet import services
from scoresheet.scoring import ScoringError
from scoresheet.scoring.jsonformat import loads


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


def import_sheet_line(club: Club, text: str, *, season: Season | None = None, user=None):
    """Import one sheet; raises LedgerError (with ``hand`` set when a hand is refused)."""
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
    with transaction.atomic():
        season = season or _season_for(club, data.get("season"), date)
        seated = services.players_by_names(club, players, create=True)
        sheet = services.create_sheet(
            season=season,
            players=seated,
            date=date,
            table=str(data.get("table") or "")[:40],
            rules=data.get("rules"),
            user=user,
        )
        for number, hand in enumerate(hands, start=1):
            try:
                services.record_hand(sheet, hand, user=user)
            except services.LedgerError as error:
                error.hand = number
                raise
    return sheet


def import_sheets(club: Club, lines, *, season=None, user=None):
    """Import every line; yield a ``LineResult`` for each non-blank line."""
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            sheet = import_sheet_line(club, text, season=season, user=user)
        except services.LedgerError as error:
            yield LineResult(
                number, code=error.code, message=error.message, hand=getattr(error, "hand", None)
            )
        else:
            yield LineResult(number, sheet=sheet, hands=sheet.hands.count())
