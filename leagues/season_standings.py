"""The league ranking: kept on write from the stored per-event results, read in order.

Per person and season, ``Standing`` keeps the weighted points (placement points × the
event's coefficient) of the season's events not withdrawn, the best N counted
(``best_events``; every event when empty), how many counted and how many played:
``restand`` writes it (the persons whose results changed) in the transaction that
stores, withdraws, rescores or relinks results, and ``rerank`` then writes the season's
ranks, overall and within each série, by the one rank rule (``core.ranking.rank``: 1, 2,
2, 4), in the rows whose rank moved (and again when a person's série changes:
``rerank_persons``); a whole season summed again is ranked before it is written, the
rows written once (``COPY`` on PostgreSQL). Sums and ties are exact: each result keeps
its weighted points as a fraction (``EventResult.exact``), each standing its total
(``Standing.exact``), summed and compared exactly; the decimal columns are those values
rounded once, to show and to sort a page by total (3 × 100/3 is 100, and ties with 100).
A page reads the kept rows in rank order, filtered (série, club), sorted and paged in
SQL, with no window over the season (at 9,000 persons the windows cost the page 250 ms
under load, the whole read 20 ms); the first K of each of the league's séries
(``qualified``) are above the qualification line. A second query reads the page's
persons' member clubs (the club column, and to name a members-only club's players only
if that club allows it).
"""

import math
from collections import defaultdict
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db import connection

from clubs import visibility
from clubs.models import Club, Person, Player
from core.bulk import RowWriter
from core.ranking import rank
from leagues.models import EventResult, LeagueClub, LeagueSeason, Standing

THOUSANDTH = Decimal("0.001")
CHUNK = 500


def _decimal(value) -> Decimal:
    if value is None:
        return Decimal(0)
    return Decimal(str(value)).quantize(THOUSANDTH, rounding=ROUND_HALF_UP)


def shown(value: Fraction) -> Decimal:
    """An exact value rounded once, to the thousandth, to show."""
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        THOUSANDTH, rounding=ROUND_HALF_UP
    )


def sums(results, best=None) -> dict:
    """``{person: (total, counted, played)}`` from ``(person, event, weighted)`` triples
    (``weighted`` exact: a ``Fraction`` or the text ``EventResult.exact`` keeps): each
    person's best ``best`` weighted points summed (every result when None; equal points
    taken in event order). Sorted and summed as whole numbers over the results' common
    denominator, one ``Fraction`` a person at the end (a ``Fraction`` a result, parsed,
    compared and added, was most of a season's re-sum)."""
    parsed = [(person, event, *_parts(weighted)) for person, event, weighted in results]
    common = math.lcm(*{d for _p, _e, _n, d in parsed}) if parsed else 1
    per = defaultdict(list)
    for person, event, numerator, denominator in parsed:
        per[person].append((-numerator * (common // denominator), event))
    out = {}
    for person, found in per.items():
        found.sort()
        kept = found[:best] if best else found
        out[person] = (Fraction(-sum(w for w, _e in kept), common), len(kept), len(found))
    return out


def _parts(value) -> tuple[int, int]:
    """``(numerator, denominator)`` of a ``Fraction`` or of its text (``"7/2"``, ``"3"``)."""
    if isinstance(value, str):
        numerator, _, denominator = value.partition("/")
        return int(numerator), int(denominator or 1)
    return value.numerator, value.denominator


def places(totals: dict, series: dict) -> dict:
    """``{person: (place, serie_place)}``: ranks on the exact totals (fractions, or the
    text ``Standing.exact`` keeps), overall and within each person's série (1, 2, 2, 4)."""
    key = _whole(totals)
    out = {person: [0, 0] for person in totals}
    for place, person in rank(sorted(totals), key=key.__getitem__):
        out[person][0] = place
    by_serie = defaultdict(list)
    for person in sorted(totals):
        by_serie[series.get(person) or ""].append(person)
    for members in by_serie.values():
        for place, person in rank(members, key=key.__getitem__):
            out[person][1] = place
    return {person: tuple(p) for person, p in out.items()}


def _whole(totals: dict) -> dict:
    """Each exact total as a whole number over the totals' common denominator: the same
    order and ties as the fractions', compared several times faster."""
    parts = {person: _parts(total) for person, total in totals.items()}
    common = math.lcm(*{d for _n, d in parts.values()}) if parts else 1
    return {person: n * (common // d) for person, (n, d) in parts.items()}


def _table(model):
    return connection.ops.quote_name(model._meta.db_table)


def restand(season, person_ids=None) -> None:
    """Sum ``person_ids``' results in ``season`` again (every person's when None), then
    rank the season again. Season by season one at a time: the season's row is locked
    first, so two events closing at once write their sums and ranks one after the other.
    A whole season's sums are ranked before they are written, in the same rows (no
    second read of the season's rows, no second write)."""
    _lock_seasons([season.pk])
    if person_ids is None:
        _restand(season, None, ranked_=True)
        return
    person_ids = sorted({p for p in person_ids if p is not None})
    for start in range(0, len(person_ids), CHUNK):
        _restand(season, person_ids[start : start + CHUNK])
    rerank(season.pk)


def _lock_seasons(season_ids) -> None:
    """Lock the seasons' rows (in id order) until the transaction ends: the writers of a
    season's sums and ranks (``restand``, ``rerank_persons``) go one after the other."""
    if connection.in_atomic_block and season_ids:
        list(
            LeagueSeason.objects.select_for_update()
            .filter(pk__in=season_ids)
            .order_by("pk")
            .values_list("pk")
        )


def rerank(season_id) -> None:
    """The season's ranks, overall and within each série (the person's), from the exact
    totals, written in the rows whose rank moved."""
    rows = list(
        Standing.objects.filter(season_id=season_id).values_list(
            "pk", "person_id", "exact", "person__serie", "place", "serie_place"
        )
    )
    ranked_ = places({row[1]: row[2] for row in rows}, {row[1]: row[3] for row in rows})
    moved = [
        (pk, *ranked_[person])
        for pk, person, _exact, _serie, place, serie_place in rows
        if ranked_[person] != (place, serie_place)
    ]
    _write_places(moved)


def _write_places(moved) -> None:
    """``(pk, place, serie_place)`` rows written, a thousand a statement (an UPDATE from a
    list of values: Django's ``bulk_update`` CASE of as many branches took seconds for
    the thousands of rows a closing can move)."""
    table = _table(Standing)
    with connection.cursor() as cursor:
        for start in range(0, len(moved), 1000):
            chunk = moved[start : start + 1000]
            values = ", ".join(["(%s, %s, %s)"] * len(chunk))
            cursor.execute(
                f"WITH v(id, place, serie_place) AS (VALUES {values}) "
                f"UPDATE {table} SET place = v.place, serie_place = v.serie_place "
                f"FROM v WHERE {table}.id = v.id",
                [value for row in chunk for value in row],
            )


def rerank_persons(person_ids) -> None:
    """The ranks of every season where ``person_ids`` stand, again (their série changed);
    the seasons locked first, as ``restand`` locks its season."""
    seasons = sorted(
        Standing.objects.filter(person_id__in=list(person_ids))
        .values_list("season_id", flat=True)
        .distinct()
    )
    _lock_seasons(seasons)
    for season_id in seasons:
        rerank(season_id)


def _restand(season, person_ids, ranked_=False):
    """The persons' sums written again (every person's when None), by one ``COPY`` on
    PostgreSQL (``core.bulk``); ``ranked_``: with their ranks (a whole season's)."""
    if person_ids is not None and not person_ids:
        return
    only = {"person_id__in": person_ids} if person_ids is not None else {}
    Standing.objects.filter(season=season, **only).delete()
    results = EventResult.objects.filter(
        season=season, person__isnull=False, event__withdrawn_at__isnull=True, **only
    ).values_list("person_id", "event_id", "exact", "person__serie")
    series, triples = {}, []
    for person, event, exact, serie in results.iterator(chunk_size=5000):
        series[person] = serie
        triples.append((person, event, exact))
    summed = sums(triples, season.best_events)
    if ranked_:
        placed = places({person: total for person, (total, _c, _p) in summed.items()}, series)
    RowWriter(Standing).write(
        {
            "season_id": season.pk,
            "person_id": person,
            "total": shown(total),
            "exact": str(total),
            "counted": counted,
            "played": played,
            "place": placed[person][0] if ranked_ else 0,
            "serie_place": placed[person][1] if ranked_ else 0,
        }
        for person, (total, counted, played) in summed.items()
    )


#: the orders a page may ask for → SQL (then by name)
ORDERS = {
    "rank": "s.place",
    "-rank": "s.place DESC",
    "name": "p.sort_key",
    "-name": "p.sort_key DESC",
    "total": "s.total",
    "-total": "s.total DESC",
    "played": "s.played DESC",
    "-played": "s.played",
    "serie": "p.serie, s.place",
}


def ranked(season, *, serie=None, club_id=None, order="rank", limit=None, offset=0):
    """``(rows, count)``: the season's ranked persons, filtered, sorted, one page of them
    (``limit`` None: all). Each row: ``person_id``, ``name``, ``licence``, ``serie``,
    ``total``, ``counted``, ``played``, ``rank``, ``serie_rank`` (None outside the
    league's séries), ``qualified``; ``name`` and ``licence`` not yet hidden (``name_rows``).
    One query, and a count when the page is full or not the first."""
    where, params = ["s.season_id = %s"], [season.pk]
    if serie:
        where.append("p.serie = %s")
        params.append(serie)
    if club_id:
        where.append(
            f"EXISTS (SELECT 1 FROM {_table(Player)} pl "
            "WHERE pl.person_id = s.person_id AND pl.club_id = %s)"
        )
        params.append(club_id)
    matching = f"""
        FROM {_table(Standing)} s
        JOIN {_table(Person)} p ON p.id = s.person_id
        WHERE {" AND ".join(where)}
    """
    page = ""
    if limit is not None:
        page = " LIMIT %s OFFSET %s"
    sql = f"""
        SELECT s.person_id, p.name, p.licence, p.serie, s.total, s.counted, s.played,
               s.place, s.serie_place
        {matching}
        ORDER BY {ORDERS.get(order, ORDERS["rank"])}, p.sort_key, s.person_id{page}
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, params + ([limit, offset] if limit is not None else []))
        found = cursor.fetchall()
        if limit is None or (not offset and len(found) < limit):
            count = len(found)
        else:
            if not serie:  # no need of the persons' rows to count
                matching = matching.replace(f"JOIN {_table(Person)} p ON p.id = s.person_id", "")
            cursor.execute(f"SELECT COUNT(*) {matching}", params)
            count = cursor.fetchone()[0]
    series = set(season.league.series)
    rows = []
    for person_id, name, licence, serie_, total, counted, played, place, serie_place in found:
        in_series = serie_ in series
        rows.append(
            {
                "person_id": person_id,
                "name": name,
                "licence": licence,
                "serie": serie_,
                "total": _decimal(total),
                "counted": int(counted),
                "played": int(played),
                "rank": int(place),
                "serie_rank": int(serie_place) if in_series else None,
                "qualified": bool(
                    in_series and season.qualified and serie_place <= season.qualified
                ),
                "clubs": [],
            }
        )
    return rows, count


def person_clubs(season, person_ids) -> dict[int, list[dict]]:
    """The league's member clubs of each of ``person_ids`` (through their linked players):
    ``{person_id: [{"id", "name", "slug", "named"}]}``; ``named``: public, or allows naming."""
    out: dict[int, list[dict]] = {}
    person_ids = list(person_ids)
    for start in range(0, len(person_ids), CHUNK):
        chunk = person_ids[start : start + CHUNK]
        sql = f"""
            SELECT DISTINCT pl.person_id, c.id, c.name, c.slug, c.is_public, lc.names_players
            FROM {_table(Player)} pl
            JOIN {_table(Club)} c ON c.id = pl.club_id
            JOIN {_table(LeagueClub)} lc ON lc.club_id = c.id
            WHERE lc.league_id = %s AND lc.accepted_at IS NOT NULL AND pl.is_guest = %s
              AND pl.person_id IN ({", ".join(["%s"] * len(chunk))})
            ORDER BY c.name
        """
        with connection.cursor() as cursor:
            cursor.execute(sql, [season.league_id, False, *chunk])
            for person_id, club_id, name, slug, public, names in cursor.fetchall():
                out.setdefault(person_id, []).append(
                    {"id": club_id, "name": name, "slug": slug, "named": bool(public or names)}
                )
    return out


def name_rows(season, rows, viewer=None) -> list[dict]:
    """Each row's member clubs; the name and licence hidden unless the one rule
    (``clubs.visibility``) names the person to ``viewer`` (a user, or ``None``)."""
    clubs = person_clubs(season, [r["person_id"] for r in rows])
    named = visibility.named_person_ids(
        viewer, {r["person_id"] for r in rows}, league=season.league_id
    )
    for row in rows:
        row["clubs"] = clubs.get(row["person_id"], [])
        if row["person_id"] not in named:
            row["name"] = row["licence"] = None
    return rows


def season_ranking(season, *, viewer=None, **filters) -> list[dict]:
    """Every ranked person of the season (rank order, ties by name), named or not."""
    rows, _count = ranked(season, **filters)
    return name_rows(season, rows, viewer)


def filtered(rows, *, serie=None, club_id=None, order="rank") -> list[dict]:
    """Rows already read, filtered by série and club (for callers holding every row)."""
    if serie:
        rows = [r for r in rows if r["serie"] == serie]
    if club_id:
        rows = [r for r in rows if any(c["id"] == club_id for c in r["clubs"])]
    return rows
