"""A division's fixtures: the round robin by Berger's tables. Pure Python.

``round_robin(teams)`` gives the match days of a single round robin: every team
meets every other once, nobody plays twice on one day, and with an odd count of
teams one team rests each day (the bye), each team exactly once. ``double=True``
adds the return leg: the same days again with home and away swapped, so each pair
meets once at each venue.

The days follow Berger's tables (the circle method: the last team stays put, the
others turn one place a day), with the venues of Berger's tables: the team that
stays put alternates home and away, and the others alternate as far as a round
robin allows, so over a single round robin no team is at home more than one match
more than away, or the other way round.
"""

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

Team = TypeVar("Team", bound=Hashable)


@dataclass(frozen=True)
class Fixture(Generic[Team]):
    day: int  # from 1
    home: Team
    away: Team


@dataclass(frozen=True)
class Day(Generic[Team]):
    number: int
    fixtures: tuple[Fixture, ...]
    bye: Team | None  # the team resting that day, with an odd count


def round_robin(teams: Sequence[Team], *, double: bool = False) -> list[Day]:
    """Berger's tables for ``teams`` (in the order given: the draw's order)."""
    teams = list(teams)
    if len(set(teams)) != len(teams):
        raise ValueError("each team once")
    if len(teams) < 2:
        return []
    slots: list[Team | None] = teams + ([None] if len(teams) % 2 else [])
    n = len(slots)
    fixed = slots[-1]
    ring = slots[:-1]
    days = []
    for index in range(n - 1):
        # the circle: ring position k meets n − 1 − k; the fixed slot meets ring[0]
        pairs = [(ring[0], fixed)]
        pairs += [(ring[k], ring[n - 1 - k]) for k in range(1, n // 2)]
        fixtures, bye = [], None
        for position, (a, b) in enumerate(pairs):
            # Berger's venues: the fixed slot is away on even days, home on odd ones;
            # the other pairs keep the ring's order, which turns each day
            home, away = (a, b) if (position > 0 or index % 2 == 0) else (b, a)
            if home is None or away is None:
                bye = away if home is None else home
                continue
            fixtures.append((home, away))
        days.append((fixtures, bye))
        ring = ring[-1:] + ring[:-1]  # everyone but the fixed slot moves one place
    result = [
        Day(number, tuple(Fixture(number, h, a) for h, a in fixtures), bye)
        for number, (fixtures, bye) in enumerate(days, start=1)
    ]
    if double:
        leg = len(result)
        result += [
            Day(
                day.number + leg,
                tuple(Fixture(day.number + leg, f.away, f.home) for f in day.fixtures),
                day.bye,
            )
            for day in result[:leg]
        ]
    return result
