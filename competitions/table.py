"""A division's table, its tie-breaks, and the promotions and relegations that make
the next season's divisions. Pure Python; ranks by the project's one rank rule
(``core.ranking.rank``).

A team's line: matches played, won, drawn, lost (by league points: more than the
other side is a win), match points for and against, league points, and the deal
points of its matches for and against. Teams rank by league points, then by the
tie-breaks the competition chooses, in its order:

``head_to_head``
    the league points of the matches between the teams still tied, only;
``mp_difference``
    match points for minus against, over the season;
``points``
    the deal points the team made over the season (the sum of its players'
    marques), minus those made against it.

Each tie-break only parts the teams that every earlier key left tied (the
head-to-head of three teams tied on league points is their own mini-table). Teams
equal on every key share a rank.
"""

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from core.ranking import rank

Team = TypeVar("Team", bound=Hashable)

HEAD_TO_HEAD = "head_to_head"
MP_DIFFERENCE = "mp_difference"
POINTS = "points"
TIE_BREAKS = (HEAD_TO_HEAD, MP_DIFFERENCE, POINTS)


@dataclass(frozen=True)
class Played(Generic[Team]):
    """A match with its result: ``(home's, away's)`` for each pair."""

    home: Team
    away: Team
    match_points: tuple[int, int]
    league_points: tuple[int, int]
    points: tuple[int, int] = (0, 0)


@dataclass
class Line(Generic[Team]):
    team: Team
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    mp_for: int = 0
    mp_against: int = 0
    league_points: int = 0
    points_for: int = 0
    points_against: int = 0
    rank: int = 0
    tie_break: tuple = field(default=(), repr=False)

    @property
    def mp_difference(self) -> int:
        return self.mp_for - self.mp_against

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against


def _sides(match: Played):
    yield match.home, match.away, 0
    yield match.away, match.home, 1


def division_table(
    teams: Iterable[Team], matches: Iterable[Played], tie_breaks: Sequence[str] = TIE_BREAKS
) -> list[Line]:
    """The table, ranked; tied teams listed in the order of ``teams``."""
    unknown = set(tie_breaks) - set(TIE_BREAKS)
    if unknown:
        raise ValueError(f"unknown tie-breaks: {sorted(unknown)}")
    lines = {team: Line(team) for team in teams}
    matches = list(matches)
    for match in matches:
        for team, _, side in _sides(match):
            if team not in lines:
                raise ValueError(f"{team!r} is not in the division")
            line, other = lines[team], 1 - side
            line.played += 1
            line.mp_for += match.match_points[side]
            line.mp_against += match.match_points[other]
            line.league_points += match.league_points[side]
            line.points_for += match.points[side]
            line.points_against += match.points[other]
            mine, theirs = match.league_points[side], match.league_points[other]
            if mine > theirs:
                line.won += 1
            elif mine == theirs:
                line.drawn += 1
            else:
                line.lost += 1
    keys = {team: (line.league_points,) for team, line in lines.items()}
    for tie_break in tie_breaks:
        groups = defaultdict(list)
        for team in lines:
            groups[keys[team]].append(team)
        for group in groups.values():
            values = _values(tie_break, group, lines, matches)
            for team in group:
                keys[team] += (values[team],)
    for place, line in rank(lines.values(), key=lambda line: keys[line.team]):
        line.rank = place
        line.tie_break = keys[line.team][1:]
    return sorted(lines.values(), key=lambda line: line.rank)


def _values(tie_break, group, lines, matches) -> dict:
    if tie_break == MP_DIFFERENCE:
        return {team: lines[team].mp_difference for team in group}
    if tie_break == POINTS:
        return {team: lines[team].points_difference for team in group}
    # head to head: league points of the matches inside the group
    inside = set(group)
    values = dict.fromkeys(group, 0)
    if len(group) > 1:
        for match in matches:
            if match.home in inside and match.away in inside:
                for team, _, side in _sides(match):
                    values[team] += match.league_points[side]
    return values


def next_divisions(divisions: Sequence[Sequence[Team]], *, up: int, down: int) -> list[list[Team]]:
    """Next season's divisions from this season's final tables (division 1 first, each
    ranked best first): the first ``up`` of each division but the top go up one, the
    last ``down`` of each but the bottom go down one. The manager adjusts after."""
    if up < 0 or down < 0:
        raise ValueError("promotions and relegations are 0 or more")
    divisions = [list(division) for division in divisions]
    last = len(divisions) - 1
    result = []
    for index, division in enumerate(divisions):
        going_up = up if index > 0 else 0
        going_down = down if index < last else 0
        if going_up + going_down > len(division):
            raise ValueError("more teams move than a division holds")
        stays = division[going_up : len(division) - going_down]
        came_down = divisions[index - 1][len(divisions[index - 1]) - down :] if index else []
        came_up = divisions[index + 1][:up] if index < last else []
        result.append(came_up + stays + came_down)
    return result


def ties_at_lines(lines: Sequence[Line], *, up: int, down: int) -> list[list]:
    """The groups of teams equal on every key (one rank) that a promotion line (after the
    first ``up``) or a relegation line (before the last ``down``) cuts through, in the
    table's order (``up``/``down`` 0: the division has no such line). The table lists
    them by seed, and ``next_divisions`` moves them in that order: the stated rule a
    league manager confirms."""
    cuts = set()
    if up:
        cuts.add(up)
    if down:
        cuts.add(len(lines) - down)
    groups = []
    for cut in sorted(cuts):
        if not 0 < cut < len(lines) or lines[cut - 1].rank != lines[cut].rank:
            continue
        group = [line.team for line in lines if line.rank == lines[cut].rank]
        if group not in groups:
            groups.append(group)
    return groups
