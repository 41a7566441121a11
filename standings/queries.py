"""Club standings: the queries that rank the players from the standings' summary tables.

The summary tables (``SheetTotal``, ``SeasonTotal``) are kept beside the ledger
by the write side (``scoresheet.totals``), in the transaction of every hand
write. A season's (or the club's) standings read SeasonTotal: one row per player
and season, whatever the number of hands. With a date range or a table size they
aggregate the SheetTotals of the matching sheets.

Definitions: a hand is *played* by every seated player but the one who sits out;
*sheets* counts sheets with at least one hand played; *made %* is contracts made
over contracts taken; *average* is the total over the hands played. Equal totals
share a rank and the next rank skips (1, 2, 2, 4): ``RANK()`` over the whole
result, so ranks do not depend on the page or the column sorted by.
"""

import json

from django.db.models import Count, F, FloatField, OuterRef, Q, Subquery, Sum, Window
from django.db.models.functions import Cast, NullIf, Rank

from scoresheet.models import Hand, SeasonTotal, Sheet, SheetTotal


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
    if date_from or date_to or seats:
        rows = SheetTotal.objects.all()
        if date_from:
            rows = rows.filter(date__gte=date_from)
        if date_to:
            rows = rows.filter(date__lte=date_to)
        if seats:
            rows = rows.filter(seats=seats)
        sheets = Count("pk", filter=Q(hands__gt=0))
    else:
        rows = SeasonTotal.objects.all()
        sheets = Sum("sheets")
    if season is not None:
        rows = rows.filter(season_id=getattr(season, "pk", season))
    else:
        rows = rows.filter(season__club=club, season__kind="season")
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
            rank=Window(Rank(), order_by=F("total").desc()),
            players=Window(Count("*")),  # COUNT(*) OVER (): the pagination's count
        )
        .order_by("rank", "player__sort_key")
    )


def pools_held(club, *, season=None, date_from=None, date_to=None, seats=None):
    """What the pools hold at the end of the sheets the standings count (mouches), or 0.

    Each sheet's pools are those after its last live hand (``Hand.pools``, a list
    of amounts); the players' totals sum to minus their sum. One query: the
    matching sheets, each with its last live hand's pools (a subquery); the lists
    are added up here.
    """
    sheets = Sheet.objects.filter(club=club)
    if season is not None:
        sheets = sheets.filter(season_id=getattr(season, "pk", season))
    else:
        sheets = sheets.filter(season__kind="season")
    if date_from:
        sheets = sheets.filter(date__gte=date_from)
    if date_to:
        sheets = sheets.filter(date__lte=date_to)
    if seats:
        sheets = sheets.filter(seat_count=seats)
    last = Hand.objects.live().filter(sheet=OuterRef("pk")).order_by("-number").values("pools")
    held = 0
    for pools in sheets.annotate(last_pools=Subquery(last[:1])).values_list(
        "last_pools", flat=True
    ):
        if isinstance(pools, str):  # a JSON text where the database returns no JSON type
            pools = json.loads(pools)
        if isinstance(pools, list):
            held += sum(p for p in pools if isinstance(p, (int, float)))
    return held
