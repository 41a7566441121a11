"""Statistics pages: a player's (all seasons, or one) and a club's season.

Every figure comes from ``stats.queries`` (SQL aggregates over the ledger)
and the total and rank from ``standings.queries`` (the standings' summary), so a
page runs a fixed number of queries whatever the number of hands: see
``tests/stats/test_statistics.py`` where each count is pinned. Nothing here
scores a hand.

The charts are drawn by ``static/js/charts.js`` with the vendored Chart.js from
the data of ``{{ …|json_script }}``; each has a table of the same numbers.
The tables are ``stats.tables`` tables, built here from those same
figures (no query of their own), in the context's ``tables``.
"""

from decimal import Decimal

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.models import Player
from clubs.permissions import club_view
from scoresheet.models import ScoreRow
from standings.queries import standings
from stats import queries as stats
from stats import tables as t

#: How many of the best players the side-by-side chart shows.
TOP = 5


def _number(value):
    """A Decimal for JSON: an int when whole, else a float (json_script would quote it)."""
    value = Decimal(value)
    return int(value) if value == value.to_integral_value() else float(value)


def _short_date(date):
    # "N": the month abbreviated in each language's own style ("4 sept." in French,
    # "4 Sept." in English); "M" read "4 Sep" on French pages (issue 14)
    return date_format(date, "j N")


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
            "data": [_number(v) for v in running["series"][row["player_id"]]],
            "main": player is not None and row["player_id"] == player.pk,
        }
        for row in shown
    ]
    chart = {
        "labels": [_short_date(d) for d in dates],
        "titles": [date_format(d, "DATE_FORMAT") for d in dates],
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


@club_view("read")
def player_statistics(request, slug, player_id, season_id=None):
    """A player's statistics: in one season, or in all the club's seasons."""
    club = request.club
    player = get_object_or_404(Player, club=club, pk=player_id)
    seasons, season = _seasons(club, season_id)
    rows = ScoreRow.objects.of_player(player, season)
    scope = ScoreRow.objects.of_season(season) if season else ScoreRow.objects.of_club(club)
    if season is None:  # all seasons: the club's own, not its tournaments'
        rows, scope = rows.filter(season__kind="season"), scope.filter(season__kind="season")

    ranking = list(standings(club, season=season))
    standing = next((row for row in ranking if row["player_id"] == player.pk), None)
    tied = standing is not None and sum(r["rank"] == standing["rank"] for r in ranking) > 1
    summary = stats.player_summary(rows)
    per_evening = stats.evenings(rows)
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
        if season is not None:
            # The season by hand: a window SUM over the player's rows in hand order.
            hands = stats.running_by_hand(rows)
            title = _("%(date)s, table %(table)s, hand %(number)s")
            dates = {h["date"]: date_format(h["date"], "SHORT_DATE_FORMAT") for h in hands}
            for h in hands:  # the tooltip's title, and the table's link to the hand
                h["title"] = title % {
                    "date": dates[h["date"]],
                    "table": h["table"] or "–",
                    "number": h["number"],
                }
            running = {
                "labels": [str(i) for i in range(1, len(hands) + 1)],
                "titles": [h["title"] for h in hands],
                "xTitle": _("Hands"),
            }
            values = [h["running"] for h in hands]
            context["hands"] = hands
            running_table = t.RunningHandsTable(hands, table_id="table-running", club=club)
        else:
            # All seasons by evening: the running total after each date.
            running = {
                "labels": [_short_date(e["date"]) for e in per_evening],
                "titles": [date_format(e["date"], "DATE_FORMAT") for e in per_evening],
                "xTitle": _("Evenings"),
            }
            values = [e["running"] for e in per_evening]
            context["season_ranks"] = stats.season_ranks(club, player)
            running_table = t.RunningEveningsTable(per_evening, table_id="table-running")
        running["yTitle"] = _("Running total")
        running["datasets"] = [
            {"label": player.name, "data": [_number(v) for v in values], "main": True}
        ]
        top = _top_chart(scope, ranking, player)
        contracts = stats.contracts(rows)
        context.update(
            running_chart=running,
            running_points=len(values),
            top=top,
            contracts=contracts,
            streak=stats.taker_streak(rows),
            evenings=per_evening,
            best=stats.best_hands(rows),
            worst=stats.worst_hands(rows),
        )
        context["tables"] = {
            "running": running_table,
            "top": t.TopTable(top, player=player, table_id="table-top"),
            "contracts": t.PlayerContractsTable(
                contracts, totals=summary, table_id="table-contracts"
            ),
            "bouts": t.BoutsTable(summary["bouts"], table_id="table-bouts"),
            "margins": t.MarginsTable(
                summary["margins"], table_id="table-margins", css="table bars"
            ),
            "pab": t.PetitAuBoutTable(summary["petit_au_bout"], table_id="table-pab"),
            "poignees": t.PoigneesTable(summary["poignees"], table_id="table-poignees"),
            "chelems": t.ChelemsTable(summary["chelems"], table_id="table-chelems"),
            "evenings": t.PlayerEveningsTable(per_evening, table_id="table-evenings", club=club),
            "best": t.HandsTable(context["best"], table_id="table-best", club=club),
            "worst": t.HandsTable(context["worst"], table_id="table-worst", club=club),
        }
        if context.get("season_ranks"):
            context["tables"]["seasons"] = t.SeasonRanksTable(
                context["season_ranks"], player=player, table_id="table-seasons", club=club
            )
    if summary["seated"] and stats.is_savoyard(season):
        # a Savoyard season: its own figures in place of contracts, bouts and bonuses
        context["savoyard"] = stats.savoyard_summary(rows)
    return render(request, "clubs/stats/player.html", context)


@club_view("read")
def season_statistics(request, slug, season_id):
    """A club's season: contracts, everybody passed, table sizes, bonuses, players."""
    club = request.club
    seasons, season = _seasons(club, season_id)
    rows = ScoreRow.objects.of_season(season)
    summary = stats.season_summary(rows)
    context = {"club": club, "season": season, "seasons": seasons, "summary": summary}
    if summary["hands"]:
        ranking = list(standings(club, season=season))
        contracts = stats.contracts(rows, hands=summary["hands"])
        sizes = stats.table_sizes(rows)
        evenings = stats.season_evenings(rows)
        top = _top_chart(rows, ranking)
        context.update(
            contracts=contracts,
            table_sizes=sizes,
            evenings=evenings,
            ranking=ranking,
            top=top,
        )
        context["tables"] = {
            "top": t.TopTable(top, table_id="table-top"),
            "contracts": t.SeasonContractsTable(
                contracts, totals=summary, table_id="table-contracts"
            ),
            "sizes": t.TableSizesTable(sizes, table_id="table-sizes"),
            "players": t.PlayersTable(ranking, season=season, table_id="table-players", club=club),
            "evenings": t.SeasonEveningsTable(evenings, table_id="table-evenings"),
        }
    if summary["hands"] and stats.is_savoyard(season):
        context["savoyard"] = stats.savoyard_summary(rows)
    return render(request, "clubs/stats/season.html", context)
