"""The club's standings read from the ledger's summary tables: who is ahead, and by how much.

The summary tables (``SheetTotal``, ``SeasonTotal``) are kept beside the ledger
by the write side (``scoresheet.totals``), in the transaction of every hand
write. A season's (or the club's) standings read SeasonTotal: one row per player
and season, whatever the number of hands. With a date range or a table size they
aggregate the SheetTotals of the matching sheets.

Definitions: a hand is *played* by every seated player but the one who sits out;
*sheets* counts sheets with at least one hand played; *made %* is contracts made
over contracts taken; *average* is the total over the hands played. Equal totals
share a rank and the next rank skips (1, 2, 2, 4): ``core.ranking``'s ``RANK()``
over the whole result, so ranks do not depend on the page or the column sorted by.

Here, beside the tables they read, rather than in a read-side app: the standings
pages (``standings``) and the statistics pages (``stats``) both rank the club's
players, and read-side apps do not import each other.
"""

from django.db.models import Count, F, FloatField, Q, Sum, Window
from django.db.models.functions import Cast, NullIf

from core.ranking import rank_window
from scoresheet.models import SeasonTotal, SheetTotal


def summary_rows(club, *, season=None, date_from=None, date_to=None, seats=None):
    """The summary rows the standings read: the SeasonTotals of ``season`` (else of the
    club's seasons), or under a date range or a table size the matching SheetTotals."""
    if date_from or date_to or seats:
        rows = SheetTotal.objects.all()
        if date_from:
            rows = rows.filter(date__gte=date_from)
        if date_to:
            rows = rows.filter(date__lte=date_to)
        if seats:
            rows = rows.filter(seats=seats)
    else:
        rows = SeasonTotal.objects.all()
    if season is not None:
        return rows.filter(season_id=getattr(season, "pk", season))
    return rows.filter(season__club=club, season__kind="season")


def standings(club, *, season=None, date_from=None, date_to=None, seats=None):
    """The club's standings, as dicts, ranked by total (ties share a rank).

    Keys: ``player_id``, ``name``, ``rank``, ``total``, ``sheets_played``,
    ``hands_played``, ``hands_taken``, ``contracts_made``, ``made_pct`` (None
    without a take), ``average`` (None without a hand played), ``players``
    (the number of rows of the whole result, for the pagination). One query,
    ordered by rank then name; order it by any key instead and the ranks stay
    those of the whole result.

    ``season``: one season (already known to be the club's), else all seasons.
    ``date_from``/``date_to``/``seats`` narrow to the matching sheets.
    """
    rows = summary_rows(club, season=season, date_from=date_from, date_to=date_to, seats=seats)
    if rows.model is SheetTotal:
        sheets = Count("pk", filter=Q(hands__gt=0))
    else:
        sheets = Sum("sheets")
    return (
        rows.values("player_id")
        .annotate(
            name=F("player__name"),
            total=Sum("score"),
            sheets_played=sheets,
            hands_played=Sum("hands"),
            hands_taken=Sum("taken"),
            contracts_made=Sum("made"),
        )
        .annotate(
            made_pct=Cast("contracts_made", FloatField()) * 100 / NullIf(F("hands_taken"), 0),
            average=Cast("total", FloatField()) / NullIf(F("hands_played"), 0),
            rank=rank_window("total"),
            players=Window(Count("*")),  # COUNT(*) OVER (): the pagination's count
        )
        .order_by("rank", "player__sort_key")
    )
