"""The league ranking: summed from the stored per-event results, never from a ledger.

Per person: the weighted points (placement points × the event's coefficient) of the
season's events not withdrawn, the best N counted (``best_events``; every event when
empty). Ranked overall and within each of the league's séries by the one rank rule
(``core.ranking.rank``: 1, 2, 2, 4); the first K of each série (``qualified``) are
above the qualification line. Two queries: the sums (a window and an aggregate over
the season's results) and the persons' member clubs (for the club filter, and to
name a members-only club's players only if that club allows it).
"""

from decimal import ROUND_HALF_UP, Decimal

from django.db import connection

from clubs.models import Club, Person, Player
from core.ranking import rank
from leagues.models import EventResult, LeagueClub, LeagueEvent

THOUSANDTH = Decimal("0.001")


def _decimal(value) -> Decimal:
    if value is None:
        return Decimal(0)
    return Decimal(str(value)).quantize(THOUSANDTH, rounding=ROUND_HALF_UP)


def _table(model):
    return connection.ops.quote_name(model._meta.db_table)


def season_sums(season) -> list[tuple]:
    """``(person_id, name, licence, serie, total, counted, played)`` per person ranked."""
    best = season.best_events or 1_000_000
    sql = f"""
        SELECT t.person_id, p.name, p.licence, p.serie,
               SUM(CASE WHEN t.n <= %s THEN t.weighted ELSE 0 END) AS total,
               SUM(CASE WHEN t.n <= %s THEN 1 ELSE 0 END) AS counted,
               COUNT(*) AS played
        FROM (
            SELECT er.person_id, er.weighted,
                   ROW_NUMBER() OVER (
                       PARTITION BY er.person_id ORDER BY er.weighted DESC, er.event_id
                   ) AS n
            FROM {_table(EventResult)} er
            JOIN {_table(LeagueEvent)} e ON e.id = er.event_id
            WHERE er.season_id = %s AND er.person_id IS NOT NULL AND e.withdrawn_at IS NULL
        ) t
        JOIN {_table(Person)} p ON p.id = t.person_id
        GROUP BY t.person_id, p.name, p.licence, p.serie, p.sort_key
        ORDER BY p.sort_key, t.person_id
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [best, best, season.pk])
        return cursor.fetchall()


def person_clubs(season, person_ids=None) -> dict[int, list[dict]]:
    """The member clubs of each person ranked in ``season`` (through their linked players):
    ``{person_id: [{"id", "name", "slug", "named"}]}``; ``named``: public, or allows naming."""
    sql = f"""
        SELECT DISTINCT pl.person_id, c.id, c.name, c.slug, c.is_public, lc.names_players
        FROM {_table(Player)} pl
        JOIN {_table(Club)} c ON c.id = pl.club_id
        JOIN {_table(LeagueClub)} lc ON lc.club_id = c.id
        WHERE lc.league_id = %s AND lc.accepted_at IS NOT NULL AND pl.person_id IN (
            SELECT er.person_id FROM {_table(EventResult)} er WHERE er.season_id = %s
        )
        ORDER BY c.name
    """
    out: dict[int, list[dict]] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, [season.league_id, season.pk])
        for person_id, club_id, name, slug, public, names in cursor.fetchall():
            out.setdefault(person_id, []).append(
                {"id": club_id, "name": name, "slug": slug, "named": bool(public or names)}
            )
    return out


def season_ranking(season, *, viewer_person_id=None) -> list[dict]:
    """Every person ranked in the season: ``person_id``, ``name`` (None: not to be named),
    ``licence``, ``serie``, ``clubs``, ``total``, ``counted``, ``played``, ``rank``,
    ``serie_rank`` (None outside the league's séries), ``qualified``. Rank order, ties by
    name."""
    clubs = person_clubs(season)
    series = set(season.league.series)
    rows = []
    for person_id, name, licence, serie, total, counted, played in season_sums(season):
        mine = clubs.get(person_id, [])
        named = any(c["named"] for c in mine) or person_id == viewer_person_id
        rows.append(
            {
                "person_id": person_id,
                "name": name if named else None,
                "licence": licence if named else None,
                "serie": serie,
                "clubs": mine,
                "total": _decimal(total),
                "counted": int(counted or 0),
                "played": int(played or 0),
                "serie_rank": None,
                "qualified": False,
            }
        )
    for place, row in rank(rows, key=lambda r: r["total"]):
        row["rank"] = place
    by_serie: dict[str, list[dict]] = {}
    for row in rows:
        if row["serie"] in series:
            by_serie.setdefault(row["serie"], []).append(row)
    for members in by_serie.values():
        for place, row in rank(members, key=lambda r: r["total"]):
            row["serie_rank"] = place
            row["qualified"] = bool(season.qualified and place <= season.qualified)
    rows.sort(key=lambda r: r["rank"])
    return rows


def filtered(rows, *, serie=None, club_id=None, order="rank") -> list[dict]:
    """The ranking filtered by série (its rows, by their série rank) and club, sorted."""
    if serie:
        rows = [r for r in rows if r["serie"] == serie]
    if club_id:
        rows = [r for r in rows if any(c["id"] == club_id for c in r["clubs"])]
    keys = {
        "rank": lambda r: (r["serie_rank"] or r["rank"]) if serie else r["rank"],
        "name": lambda r: ((r["name"] or "~").casefold(),),
        "total": lambda r: -r["total"],
        "played": lambda r: -r["played"],
        "serie": lambda r: (r["serie"], r["rank"]),
    }
    return sorted(
        rows, key=keys.get(order.lstrip("-"), keys["rank"]), reverse=order.startswith("-")
    )
