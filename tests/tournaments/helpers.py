"""Playing a tournament's tables through the services: a deal per table and the sums."""

from decimal import Decimal

from scoresheet import services as sheets
from scoresheet.models import ScoreRow
from tournaments import services


def deal(names, i, points=56):
    """The i-th deal of a table (0-based): the dealer turns, the next seat takes a garde."""
    n = len(names)
    taker = names[(i + 1) % n]
    data = {"dealer": names[i % n], "taker": taker, "contract": "garde", "bouts": 2}
    data["points"] = points + i
    if n == 5:
        data["partner"] = names[(i + 3) % n]
    return data


def play_round(tournament, rnd, *, skip=()):
    """Enter every table's deals of a started round (tables in ``skip`` left empty)."""
    for table in rnd.tables.select_related("sheet").order_by("number"):
        if table.number in skip:
            continue
        names = [s.player.name for s in table.sheet.seats.select_related("player")]
        for i in range(services.deals_for_table(tournament, len(names))):
            sheets.record_hand(table.sheet, deal(names, i))


def totals_from_sheets(tournament):
    """Each entry number's score per round and total, summed from the ledger rows."""
    entries = {e.player_id: e.number for e in tournament.entries.all()}
    out = {}
    rows = ScoreRow.objects.filter(season=tournament.season).values_list(
        "player_id", "sheet__tournament_table__round__number", "score"
    )
    for player_id, round_number, score in rows:
        per = out.setdefault(entries[player_id], {})
        per[round_number] = per.get(round_number, Decimal(0)) + score
    return out
