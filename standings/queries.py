"""Club standings: the queries that rank the players from the standings' summary tables.

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
"""

from decimal import Decimal

from django.db import connection
from django.db.models import Count, F, FloatField, Q, Sum, Window
from django.db.models.functions import Cast, NullIf

from core.ranking import rank_sql, rank_window
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


def ranked_standings(season, ranking, *, date_from=None, date_to=None, seats=None):
    """One season's standings under its ranking rule (``clubs.ranking.Ranking``), as dicts.

    Each player's *evenings* are their SheetTotals grouped by date (the sheets of
    one date add up). Placement points: ``RANK() OVER (PARTITION BY date ORDER BY
    evening score DESC)`` mapped through the club's points table by a ``CASE``;
    best N evenings: ``ROW_NUMBER() OVER (PARTITION BY player ORDER BY the
    evening's value DESC) <= N``; a player with fewer than ``min_evenings``
    evenings is unranked (``rank`` None) and listed after the ranked players.

    Keys: those of ``standings()`` (``total`` and ``average`` over every evening)
    and ``evenings`` (played), ``counted`` (the evenings that count), ``value``
    (what ranks: the counted total, average or points), ``ranked`` (bool),
    ``order`` (the row's place in the ranking, for sorting). One query.
    """
    Player = SheetTotal._meta.get_field("player").related_model
    where, params = ["t.season_id = %s"], [getattr(season, "pk", season)]
    if date_from:
        where.append("t.date >= %s")
        params.append(date_from)
    if date_to:
        where.append("t.date <= %s")
        params.append(date_to)
    if seats:
        where.append("t.seats = %s")
        params.append(seats)
    if ranking.by == "points":
        cases = " ".join(f"WHEN {n} THEN %s" for n in range(1, len(ranking.points) + 1))
        value = f"CASE p.place {cases} ELSE 0 END"
        value_params = list(ranking.points)
    else:
        value, value_params = "p.score", []
    key = {
        "total": "pl.counted_value",
        "points": "pl.counted_value",
        "hand_average": "1.0 * pl.counted_value / NULLIF(pl.counted_hands, 0)",
        "evening_average": "1.0 * pl.counted_value / NULLIF(pl.counted, 0)",
    }[ranking.by]
    best = ranking.best or 1_000_000
    sql = f"""
        WITH evenings AS (
            SELECT t.player_id AS player_id, t.date AS date, SUM(t.score) AS score,
                   SUM(t.hands) AS hands, SUM(t.taken) AS taken, SUM(t.made) AS made,
                   SUM(CASE WHEN t.hands > 0 THEN 1 ELSE 0 END) AS sheets
            FROM {SheetTotal._meta.db_table} t
            WHERE {" AND ".join(where)}
            GROUP BY t.player_id, t.date
            HAVING SUM(t.hands) > 0
        ), placed AS (
            SELECT e.*, {rank_sql("e.score", partition_by="e.date")} AS place
            FROM evenings e
        ), valued AS (
            SELECT p.*, {value} AS value FROM placed p
        ), numbered AS (
            SELECT v.*, ROW_NUMBER() OVER (
                PARTITION BY v.player_id ORDER BY v.value DESC, v.date DESC
            ) AS nth
            FROM valued v
        ), players AS (
            SELECT n.player_id AS player_id, COUNT(*) AS evenings, SUM(n.score) AS total,
                   SUM(n.hands) AS hands, SUM(n.taken) AS taken, SUM(n.made) AS made,
                   SUM(n.sheets) AS sheets,
                   SUM(CASE WHEN n.nth <= %s THEN 1 ELSE 0 END) AS counted,
                   SUM(CASE WHEN n.nth <= %s THEN n.value ELSE 0 END) AS counted_value,
                   SUM(CASE WHEN n.nth <= %s THEN n.hands ELSE 0 END) AS counted_hands
            FROM numbered n
            GROUP BY n.player_id
        ), keyed AS (
            SELECT pl.*, {key} AS rank_key,
                   CASE WHEN pl.evenings >= %s THEN 1 ELSE 0 END AS ranked
            FROM players pl
        )
        SELECT k.player_id, pp.name, pp.sort_key, k.total, k.sheets, k.hands, k.taken, k.made,
               k.evenings, k.counted, k.rank_key, k.ranked,
               CASE WHEN k.ranked = 1
                    THEN {rank_sql("k.rank_key", partition_by="k.ranked")} END,
               COUNT(*) OVER ()
        FROM keyed k JOIN {Player._meta.db_table} pp ON pp.id = k.player_id
        ORDER BY k.ranked DESC, k.rank_key DESC, pp.sort_key, pp.id
    """
    params = params + value_params + [best, best, best, ranking.min_evenings]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    rows = []
    for order, row in enumerate(fetched, start=1):
        player_id, name, key, total, sheets, hands, taken, made = row[:8]
        evenings, counted, value, ranked, rank, count = row[8:]
        # PostgreSQL sums integers as numeric: plain ints here, whatever the database
        sheets, hands, taken, made, evenings, counted = (
            int(n) for n in (sheets, hands, taken, made, evenings, counted)
        )
        total = Decimal(str(total))
        rows.append(
            {
                "player_id": player_id,
                "name": name,
                "player__sort_key": key,
                "rank": rank,
                "order": order,
                "total": total,
                "sheets_played": sheets,
                "hands_played": hands,
                "hands_taken": taken,
                "contracts_made": made,
                "made_pct": made * 100.0 / taken if taken else None,
                "average": float(total) / hands if hands else None,
                "evenings": evenings,
                "counted": counted,
                "value": None if value is None else Decimal(str(value)),
                "ranked": bool(ranked),
                "players": count,
            }
        )
    return rows


def pools_held(club, *, season=None, date_from=None, date_to=None, seats=None):
    """What the pools hold at the end of the sheets the standings count (mouches), or 0.

    Every hand's scores and pool payments sum to zero, so what the pools hold is minus
    the players' totals: one small aggregate over the same summary rows the standings
    read (``SeasonTotal``, or the matching ``SheetTotal`` rows under a filter), never a
    scan of the sheets or their hands. A deleted sheet has no summary rows: it holds
    nothing.
    """
    rows = summary_rows(club, season=season, date_from=date_from, date_to=date_to, seats=seats)
    held = -(rows.aggregate(total=Sum("score"))["total"] or 0)
    return int(held) if held == int(held) else held
