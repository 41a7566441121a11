"""Statistics pages: a player's (all seasons, or one) and a club's season.

Every figure comes from ``stats.queries`` (SQL aggregates over the sheets' totals
and facts, and a few sheets' ledger rows) and the total and rank from
``scoresheet.summaries`` (the standings' summary), so a page runs a fixed number of
queries whatever the number of hands (one more on a player's season once their
hands outnumber the chart's points): see ``tests/stats/test_statistics.py``
where each count is pinned. Nothing here scores a hand.

The charts are drawn by ``static/js/charts.js`` with the vendored Chart.js from
the data of ``{{ …|json_script }}``; each has a table of the same numbers.
The tables are ``stats.listings`` tables, built here from those same
figures (no query of their own; the season's evenings table has the players of the
evenings it shows counted for it: ``_count_players``), in the context's ``tables``.
"""

import functools

from django.core.cache import caches
from django.db.models import Count, Sum
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from clubs.models import Player
from clubs.permissions import club_view
from core.jsonnumbers import json_number
from ratings import queries as rating_queries
from ratings import scopes as rating_scopes
from scoresheet.models import Role, ScoreRow, SeasonTotal, SheetFacts, SheetTotal
from scoresheet.summaries import standings, summary_rows
from stats import listings as t
from stats import queries as stats

#: How many of the best players the side-by-side chart shows.
TOP = 5
#: The per-hand table's page size, and the most points a chart draws (thinned evenly).
HANDS_PER_PAGE = 25
CHART_POINTS = 200

#: The statistics computed from the ledger are kept in the ``"stats"`` cache
#: (``settings.CACHES``: each process's memory, or Redis shared by the workers),
#: keyed by the revisions of the seasons' summaries (``SeasonTotal.revision``: every
#: hand write sets it), so a page costs one small query until a hand of the season
#: changes.
CACHE = "stats"


def _stamp(season_totals):
    """A key part that changes with every write to these summary rows (one query)."""
    found = season_totals.aggregate(r=Sum("revision"), n=Count("pk"), s=Sum("seated"))
    return f"{found['r'] or 0}.{found['n']}.{found['s'] or 0}"


def _cached(key, stamp, compute):
    key = f"{key}:{get_language()}:{stamp}"
    cache = caches[CACHE]
    value = cache.get(key)
    if value is None:
        value = compute()
        # keys starting with "_" serve this request only (not kept)
        cache.set(key, {k: v for k, v in value.items() if not k.startswith("_")})
    return value


def _thin(n, limit=None):
    """The indexes of at most ``limit`` points among ``n``, evenly spread, the last kept."""
    limit = limit or CHART_POINTS
    if n <= limit:
        return list(range(n))
    step = n / limit
    picked = sorted({min(n - 1, int(i * step)) for i in range(limit)} | {n - 1})
    return picked


def _short_date(date):
    # "N": the month abbreviated in each language's own style ("4 sept." in French,
    # "4 Sept." in English); "M" read "4 Sep" on French pages
    return _formatted(date, "j N", get_language())


def _date(date, format_name="DATE_FORMAT"):
    return _formatted(date, format_name, get_language())


@functools.lru_cache(maxsize=8192)
def _formatted(date, format_name, language):
    """A date in a format of the active language (``language`` keys the cache): the
    charts label every evening of a season twice, and Django's formatting of one
    date takes some 50 µs (30 ms a page of 300 evenings)."""
    return date_format(date, format_name)


def _season(seasons, season_id):
    if season_id is None:
        return None
    for season in seasons:
        if season.pk == season_id:
            return season
    raise Http404


def _seasons(club, season_id):
    """The club's seasons to list (not its tournaments'), and the season asked for: any
    of the club's, a tournament's too (its table sheets link to their players' figures)."""
    every = list(club.seasons.newest_first())
    return [s for s in every if s.kind == "season"], _season(every, season_id)


def _top_chart(rows, ranking, player=None):
    """The running totals of the top players (and ``player`` if not among them), by evening."""
    shown = ranking[:TOP]
    if player is not None and all(row["player_id"] != player.pk for row in shown):
        shown += [row for row in ranking if row["player_id"] == player.pk]
    running = stats.running_by_evening(rows, [row["player_id"] for row in shown])
    dates = running["dates"]
    datasets = [
        {
            "label": f"{row['rank']}. {row['name']}",
            "data": [json_number(v) for v in running["series"][row["player_id"]]],
            "main": player is not None and row["player_id"] == player.pk,
        }
        for row in shown
    ]
    chart = {
        "labels": [_short_date(d) for d in dates],
        "titles": [_date(d) for d in dates],
        "datasets": datasets,
        "xTitle": _("Evenings"),
        "yTitle": _("Running total"),
    }
    table = [
        {"date": date, "values": [running["series"][row["player_id"]][i] for row in shown]}
        for i, date in enumerate(dates)
    ]
    return {
        "chart": chart,
        "players": shown,
        "count": min(TOP, len(ranking)),
        "rows": table,
        "points": len(dates),
    }


def _player_figures(club, player, season, rows, totals, scope, ranking):
    """Everything of a player's page that comes from the sheets' totals and the ledger
    (cached by ``_stamp``)."""
    summary, contracts = stats.player_summary_and_contracts(totals)
    figures = {"summary": summary}
    if not summary["seated"]:
        return figures
    sheets = stats.player_sheets(totals)
    per_evening = stats.evenings(sheets)
    if season is not None:
        ends = figures["sheet_ends"] = stats.SheetEnds.of(sheets)
        # The season by hand: every hand while they are at most CHART_POINTS, then the
        # end of each sheet (at most CHART_POINTS of them): the running total after so
        # many hands. The per-hand table is paged from the same points (``hands_from``).
        count = sheets[-1]["rows"] if sheets else 0
        if count <= CHART_POINTS:
            shown = figures["_hands"] = stats.hands_from(rows, ends, 0, count)
            labels = [str(i + 1) for i in range(count)]
            title = _("%(date)s, table %(table)s, hand %(number)s")
        else:
            shown = [sheets[i] for i in _thin(len(sheets))]
            tables = stats.sheet_tables([end["sheet_id"] for end in shown])
            shown = [dict(end, table=tables.get(end["sheet_id"], "")) for end in shown]
            labels = [str(end["rows"]) for end in shown]
            title = _("%(date)s, table %(table)s, end of the sheet")
        running = {
            "labels": labels,
            "titles": [
                title
                % {
                    "date": _date(point["date"], "SHORT_DATE_FORMAT"),
                    "table": point["table"] or "–",
                    "number": point.get("number"),
                }
                for point in shown
            ],
            "xTitle": _("Hands"),
        }
        values = [point["running"] for point in shown]
        figures["points"] = count
    else:
        shown = [per_evening[i] for i in _thin(len(per_evening))]
        running = {
            "labels": [_short_date(e["date"]) for e in shown],
            "titles": [_date(e["date"]) for e in shown],
            "xTitle": _("Evenings"),
        }
        values = [e["running"] for e in shown]
        figures["points"] = len(per_evening)
        figures["season_ranks"] = stats.season_ranks(club, player)
    running["yTitle"] = _("Running total")
    running["datasets"] = [
        {"label": player.name, "data": [json_number(v) for v in values], "main": True}
    ]
    figures.update(
        running_chart=running,
        top=_top_chart(scope, ranking, player),
        contracts=contracts,
        streak=stats.taker_streak(rows, sheets),
        evenings=per_evening,
        best=stats.best_hands(rows, sheets),
        worst=stats.worst_hands(rows, sheets),
    )
    if stats.is_savoyard(season):
        figures["savoyard"] = stats.savoyard_summary(rows)
    return figures


def _hands_page(request, rows, figures):
    """One page of the per-hand table: its rows with their running totals, and the pager."""
    count = figures["points"]
    pages = max(1, -(-count // HANDS_PER_PAGE))
    try:
        number = int(request.GET.get("hands", pages))
    except ValueError:
        number = pages
    number = min(max(number, 1), pages)
    start = (number - 1) * HANDS_PER_PAGE
    size = min(HANDS_PER_PAGE, count - start)
    if "_hands" in figures:  # every hand was just read for the chart: the page is among them
        found = [dict(h) for h in figures["_hands"][start : start + size]]
    else:
        found = stats.hands_from(rows, figures["sheet_ends"], start, size)
    title = _("%(date)s, table %(table)s, hand %(number)s")
    labels = {role: str(label) for role, label in Role.choices}
    for i, h in enumerate(found):
        h["role_label"] = labels[h["role"]]
        h["counter"] = start + i + 1
        h["title"] = title % {
            "date": _date(h["date"], "SHORT_DATE_FORMAT"),
            "table": h["table"] or "–",
            "number": h["number"],
        }
    pager = {
        "number": number,
        "pages": pages,
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < pages else None,
        "first": start + 1,
        "last": start + len(found),
        "count": count,
    }
    return found, pager


@club_view("read")
def player_statistics(request, slug, player_id, season_id=None):
    """A player's statistics: in one season, or in all the club's seasons.

    The figures from the ledger are cached per season revision; the per-hand table
    is paged (``?hands=N``, the last page by default) and the charts keep at most
    CHART_POINTS points, so the page does not grow with the hands played.
    """
    club = request.club
    player = get_object_or_404(Player, club=club, pk=player_id)
    seasons, season = _seasons(club, season_id)
    rows = ScoreRow.objects.of_player(player, season)
    totals = SheetTotal.objects.of_player(player, season)
    # the top players' running totals by evening: from the sheets' totals (a row per
    # sheet and player), not the ledger's rows (one per hand and player)
    if season is None:  # all seasons: the club's own, not its tournaments'
        # by their ids (read above), not a join with the seasons: the player's sum
        # over 3,000 sheet totals takes 15 ms instead of 20-27 at 1M hands
        ids = [one.pk for one in seasons]
        rows = rows.filter(season_id__in=ids)
        totals = totals.filter(season_id__in=ids)
        scope = SheetTotal.objects.filter(season_id__in=ids)
    else:
        scope = SheetTotal.objects.filter(season=season)
    # the standings' season totals: their revisions stamp the cached figures
    season_totals = summary_rows(club, season=season)

    ranking = list(standings(club, season=season))
    standing = next((row for row in ranking if row["player_id"] == player.pk), None)
    tied = standing is not None and sum(r["rank"] == standing["rank"] for r in ranking) > 1
    key = f"player:{club.pk}:{player.pk}:{season.pk if season else 'all'}"
    figures = _cached(
        key,
        _stamp(season_totals),
        lambda: _player_figures(club, player, season, rows, totals, scope, ranking),
    )
    summary = figures["summary"]
    context = {
        "club": club,
        "player": player,
        "season": season,
        "seasons": seasons,
        "standing": standing,
        "tied": tied,
        "ranked": len(ranking),
        "summary": summary,
    }
    if summary["seated"]:
        context.update(figures)
        context["running_points"] = figures["points"]
        top, per_evening = figures["top"], figures["evenings"]
        if season is not None:
            hands, pager = _hands_page(request, rows, figures)
            context["hands"], context["hands_pager"] = hands, pager
            running_table = t.RunningHandsTable(hands, table_id="table-running", club=club)
        else:
            running_table = t.RunningEveningsTable(
                per_evening, table_id="table-running", paged=True, request=request
            )
        context["tables"] = {
            "running": running_table,
            "top": t.TopTable(
                top, player=player, table_id="table-top", paged=True, request=request
            ),
            "contracts": t.PlayerContractsTable(
                figures["contracts"], totals=summary, table_id="table-contracts"
            ),
            "bouts": t.BoutsTable(summary["bouts"], table_id="table-bouts"),
            "margins": t.MarginsTable(
                summary["margins"], table_id="table-margins", css="table bars"
            ),
            "pab": t.PetitAuBoutTable(summary["petit_au_bout"], table_id="table-pab"),
            "poignees": t.PoigneesTable(summary["poignees"], table_id="table-poignees"),
            "chelems": t.ChelemsTable(summary["chelems"], table_id="table-chelems"),
            "evenings": t.PlayerEveningsTable(
                per_evening, table_id="table-evenings", club=club, paged=True, request=request
            ),
            "best": t.HandsTable(figures["best"], table_id="table-best", club=club),
            "worst": t.HandsTable(figures["worst"], table_id="table-worst", club=club),
        }
        if figures.get("season_ranks"):
            context["tables"]["seasons"] = t.SeasonRanksTable(
                figures["season_ranks"], player=player, table_id="table-seasons", club=club
            )
    context["rating_chart"] = _rating_chart(club, player, season)
    return render(request, "stats/player.html", context)


def _rating_chart(club, player, season):
    """The player's rating after each evening (``ratings``: the club's, or the season's
    rated on its own), on the rating's scale: the skill's estimate and the rating the
    ratings rank by (the estimate less its uncertainty); None if unrated.
    Two queries (the history, the rating now), not cached: a hand moves it."""
    key = rating_scopes.season(season.pk) if season else rating_scopes.club(club.pk)
    points = rating_queries.history(key, player.pk)
    if not points:
        return None
    recomputing = rating_queries.recomputing(key)
    shown = [points[i] for i in _thin(len(points))]
    return {
        "labels": [_short_date(date) for date, *_rest in shown],
        "titles": [_date(date) for date, *_rest in shown],
        "datasets": [
            {
                "label": _("Skill estimate"),
                "data": [round(rating_queries.estimate(mu)) for _d, mu, _s, _h in shown],
                "main": True,
            },
            {
                "label": _("Rating"),
                "data": [round(rating_queries.shown(mu, sigma)) for _d, mu, sigma, _h in shown],
                "main": False,
            },
        ],
        "xTitle": _("Evenings"),
        "yTitle": _("Rating"),
        "recomputing": recomputing,
    }


def _season_figures(season, rows, totals, ranking):
    sheets = SheetFacts.objects.filter(season=season)
    by_evening = stats.season_rows(sheets)  # every figure below is folded from these
    summary = stats.season_summary(sheets, season, by_evening)
    figures = {"summary": summary}
    if summary["hands"]:
        figures.update(
            contracts=stats.season_contracts(sheets, summary["hands"], by_evening),
            table_sizes=stats.table_sizes(sheets, by_evening),
            evenings=stats.season_evenings(sheets, by_evening),
            top=_top_chart(totals, ranking),
        )
        if stats.is_savoyard(season):
            figures["savoyard"] = stats.savoyard_summary(rows)
    return figures


def _count_players(table, key, stamp, totals):
    """The players of the evenings ``table`` shows (its page: at most ROWS_PER_PAGE
    evenings), counted once per season revision like the figures (``_cached``)."""
    shown = [row.record for row in table.paginated_rows]
    if not shown:
        return
    dates = [evening["date"] for evening in shown]
    found = _cached(
        f"{key}:players:{dates[0]}:{dates[-1]}",
        stamp,
        lambda: {"players": stats.evening_players(totals, dates)},
    )
    stats.add_players(shown, totals, found["players"])


@club_view("read")
def season_statistics(request, slug, season_id):
    """A club's season: contracts, everybody passed, table sizes, bonuses, players.

    The figures from the ledger are cached per season revision (``_stamp``)."""
    club = request.club
    seasons, season = _seasons(club, season_id)
    rows = ScoreRow.objects.of_season(season)
    totals = SheetTotal.objects.of_season(season)
    ranking = list(standings(club, season=season))
    stamp = _stamp(SeasonTotal.objects.filter(season=season))
    key = f"season:{club.pk}:{season.pk}"
    figures = _cached(key, stamp, lambda: _season_figures(season, rows, totals, ranking))
    summary = figures["summary"]
    context = {"club": club, "season": season, "seasons": seasons, "summary": summary}
    if summary["hands"]:
        context.update(figures, ranking=ranking)
        top = figures["top"]
        context["tables"] = {
            "top": t.TopTable(top, table_id="table-top", paged=True, request=request),
            "contracts": t.SeasonContractsTable(
                figures["contracts"], totals=summary, table_id="table-contracts"
            ),
            "sizes": t.TableSizesTable(figures["table_sizes"], table_id="table-sizes"),
            "players": t.PlayersTable(ranking, season=season, table_id="table-players", club=club),
            "evenings": t.SeasonEveningsTable(
                figures["evenings"], table_id="table-evenings", paged=True, request=request
            ),
        }
        _count_players(context["tables"]["evenings"], key, stamp, totals)
    return render(request, "stats/season.html", context)
