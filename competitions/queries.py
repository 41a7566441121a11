"""The competition pages' reads: the division tables from the results kept on the match
rows (``competitions.table``), the fixtures by round, a match's seats and deals, the
cup's rounds. No read computes a match again."""

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, F, Q
from django.utils import timezone

from competitions import table as tables
from competitions.models import (
    CaptainLink,
    Competition,
    Division,
    LineUpSeat,
    Match,
    MatchClaim,
    TableDeal,
    Team,
)
from competitions.services import AWAY_SEATS, HOME_SEATS, bracket_of, state_of


@dataclass
class DivisionView:
    division: Division
    lines: list  # table.Line, ranked; line.team a Team; line.move "up" / "down" / ""
    days: list  # (day number, [matches]) in order
    provisional: bool = False  # a result of the table is still provisional or claimed


def championship(competition: Competition) -> list[DivisionView]:
    """Each division's table and fixtures, the results' states: five queries whatever
    the size."""
    divisions = list(competition.divisions.all())
    teams = defaultdict(list)
    for team in competition.teams.filter(division__isnull=False).order_by("seed", "pk"):
        teams[team.division_id].append(team)
    matches = defaultdict(list)
    for match in competition.matches.select_related("home", "away").order_by("day", "slot"):
        matches[match.division_id].append(match)
    result_states([m for ms in matches.values() for m in ms])
    last = len(divisions) - 1
    views = []
    for index, division in enumerate(divisions):
        played = [
            tables.Played(
                m.home,
                m.away,
                (m.mp_home, m.mp_away),
                (m.lp_home, m.lp_away),
                (m.points_home, m.points_away),
            )
            for m in matches[division.pk]
            if m.played
        ]
        lines = tables.division_table(teams[division.pk], played, competition.tie_breaks)
        count = len(lines)
        for position, line in enumerate(lines):
            line.move = ""
            if index > 0 and position < competition.promoted:
                line.move = "up"
            elif index < last and position >= count - competition.relegated:
                line.move = "down"
        days = defaultdict(list)
        for match in matches[division.pk]:
            days[match.day].append(match)
        provisional = any(
            m.result_state in ("provisional", "claimed") for m in matches[division.pk]
        )
        views.append(DivisionView(division, lines, sorted(days.items()), provisional))
    return views


def cup_rounds(competition: Competition) -> list[list[dict]]:
    """The bracket's rounds: each tie's two teams (or None), its match if made."""
    drawn = bracket_of(competition)
    if drawn is None:
        return []
    teams = {t.pk: t for t in competition.teams.all()}
    matches = {m.tie_key: m for m in competition.matches.all()}
    winners = {key: m.winner_id for key, m in matches.items() if m.winner_id}
    return [
        [
            {
                "tie": tie,
                "top": teams.get(tie.top),
                "bottom": teams.get(tie.bottom),
                "match": matches.get(tie.key),
                "through": teams.get(tie.decided_without_play),
            }
            for tie in ties
        ]
        for ties in drawn.rounds(winners)
    ]


@dataclass
class MatchSheet:
    match: Match
    seats: dict  # table number -> {seat: (team, player)}
    home_line_up: list
    away_line_up: list
    deals: list  # (number, table 1 deal, table 2 deal, home's result, away's result)


def match_sheet(match: Match) -> MatchSheet:
    line_up = list(LineUpSeat.objects.filter(match=match).select_related("player"))
    home = [s for s in line_up if s.team_id == match.home_id]
    away = [s for s in line_up if s.team_id == match.away_id]
    seats = {1: {}, 2: {}}
    for seat in home:
        table, where = HOME_SEATS[seat.order]
        seats[table][where] = (match.home, seat.player)
    for seat in away:
        table, where = AWAY_SEATS[seat.order]
        seats[table][where] = (match.away, seat.player)
    by_number = defaultdict(dict)
    for deal in TableDeal.objects.filter(table__match=match).select_related("table"):
        by_number[deal.number][deal.table.number] = deal
    deals = []
    for number, pair in sorted(by_number.items()):
        one, two = pair.get(1), pair.get(2)
        home_points = (one.north + one.south if one else 0) + (two.east + two.west if two else 0)
        away_points = (one.east + one.west if one else 0) + (two.north + two.south if two else 0)
        deals.append((number, one, two, home_points, away_points))
    return MatchSheet(match, seats, home, away, deals)


def team_matches(team: Team) -> list[Match]:
    return list(
        team.competition.matches.filter(Q(home=team) | Q(away=team))
        .select_related("home", "away")
        .order_by("day", "slot")
    )


def result_states(matches, now=None) -> None:
    """Set each match's ``result_state`` (``services.result_state``: provisional, claimed,
    final), in two queries for all."""
    ids = [m.pk for m in matches if m.recorded_at is not None]
    claimed = set(
        MatchClaim.objects.filter(match_id__in=ids, state=MatchClaim.State.OPEN).values_list(
            "match_id", flat=True
        )
    )
    confirmed = dict(
        CaptainLink.objects.filter(match_id__in=ids, confirmed_at__gte=F("match__recorded_at"))
        .values("match_id")
        .annotate(n=Count("pk"))
        .values_list("match_id", "n")
    )
    now = now or timezone.now()
    for match in matches:
        match.result_state = state_of(
            match.recorded_at, match.pk in claimed, confirmed.get(match.pk, 0), now
        )


def open_claims(competition) -> list[MatchClaim]:
    """The claims awaiting the league's decision, oldest first."""
    return list(
        MatchClaim.objects.filter(match__competition=competition, state=MatchClaim.State.OPEN)
        .select_related("match__home", "match__away", "team")
        .order_by("filed_at", "pk")
    )
