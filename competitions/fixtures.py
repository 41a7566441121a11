"""A division's fixtures: a round robin by the circle method, with the fewest breaks.
Pure Python.

``round_robin(teams)`` gives the match days of a single round robin: every team
meets every other once, nobody plays twice on one day, and with an odd count of
teams one team rests each day (the bye), each team exactly once. ``double=True``
adds the return leg: the first leg's days again in reverse order, home and away
swapped, so each pair meets once at each venue.

The days follow Berger's circle (the last slot stays put, the others turn one place a
day) with de Werra's venues: on day i the fixed slot is away on even days and home on
odd ones, and the pair k places either side of i's slot has its home side at i + k
when k is odd, at i − k when k is even. A *break* is two matches in a row at the same
venue (a bye skipped). Over a single round robin of 2n teams this gives the fewest
possible, 2n − 2 (no team more than one; two teams none), and none at all with an odd
count; each team's venues alternate otherwise, so no team plays more than two matches
in a row at home or away. The return leg in reverse order keeps both bounds: its first
day mirrors the first leg's last one (no break where the legs meet), and each leg has
the least breaks it can have, 4n − 4 over the season (0 with an odd count).
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
    turning = n - 1  # the slots on the circle; slot n − 1 stays put
    days = []
    for i in range(turning):
        pairs = [(slots[i], slots[-1]) if i % 2 == 0 else (slots[-1], slots[i])]
        for k in range(1, n // 2):
            ahead, behind = slots[(i + k) % turning], slots[(i - k) % turning]
            pairs.append((ahead, behind) if k % 2 else (behind, ahead))
        fixtures, bye = [], None
        for home, away in pairs:
            if home is None or away is None:
                bye = away if home is None else home
                continue
            fixtures.append((home, away))
        days.append((fixtures, bye))
    result = [
        Day(number, tuple(Fixture(number, h, a) for h, a in fixtures), bye)
        for number, (fixtures, bye) in enumerate(days, start=1)
    ]
    if double:  # the return leg: the days in reverse order, venues swapped
        leg = len(result)
        result += [
            Day(
                leg + number,
                tuple(Fixture(leg + number, f.away, f.home) for f in day.fixtures),
                day.bye,
            )
            for number, day in enumerate(reversed(result[:leg]), start=1)
        ]
    return result
