"""Club standings beyond the plain total: a season's ranking rule, what the pools hold.

The plain standings (ranked by total) are ``scoresheet.summaries.standings``, which the
statistics pages read too; the definitions of the figures are said there. Here: a
season ranked by its rule (``ranked_standings``, from the same ``SheetTotal`` summary
rows) and the pools (``pools_held``).
"""

from decimal import Decimal

from django.db import connection
from django.db.models import Sum

from core.ranking import rank_sql
from scoresheet.models import SheetTotal
from scoresheet.summaries import summary_rows


def ranked_standings(season, ranking, *, date_from=None, date_to=None, seats=None):
    """One season's standings under its ranking rule (``clubs.ranking_rule.Ranking``), as dicts.

    Each player's *evenings* are their SheetTotals grouped by date (the sheets of
    one date add up). Placement points: ``RANK() OVER (PARTITION BY date ORDER BY
    evening score DESC)`` mapped through the club's points table by a ``CASE``;
    best N evenings: ``ROW_NUMBER() OVER (PARTITION BY player ORDER BY the
    evening's value DESC) <= N``; a player with fewer than ``min_evenings``
    evenings is unranked (``rank`` None) and listed after the ranked players.

    Keys: those of ``scoresheet.summaries.standings()`` (``total`` and ``average``
    over every evening) and ``evenings`` (played), ``counted`` (the evenings that count), ``value``
    (what ranks: the counted total, average or points), ``ranked`` (bool),
    ``order`` (the row's place in the ranking, for sorting). One query.
    """
    where, params = _filters(season, date_from, date_to, seats)
    sql, more = _ranked_sql(ranking, where)
    with connection.cursor() as cursor:
        cursor.execute(sql, params + more)
        fetched = cursor.fetchall()
    return [_standing(order, row) for order, row in enumerate(fetched, start=1)]


def _filters(season, date_from, date_to, seats):
    """The WHERE of a season's SheetTotals (``t``) and its parameters."""
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
    return where, params


def _ranked_sql(ranking, where):
    """The statement of ``ranked_standings`` and the parameters after the filters'."""
    Player = SheetTotal._meta.get_field("player").related_model
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
    return sql, value_params + [best, best, best, ranking.min_evenings]


def _standing(order, row) -> dict:
    """A row of the statement as the standings' dict."""
    player_id, name, key, total, sheets, hands, taken, made = row[:8]
    evenings, counted, value, ranked, rank, count = row[8:]
    # PostgreSQL sums integers as numeric: plain ints here, whatever the database
    sheets, hands, taken, made, evenings, counted = (
        int(n) for n in (sheets, hands, taken, made, evenings, counted)
    )
    total = Decimal(str(total))
    return {
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
