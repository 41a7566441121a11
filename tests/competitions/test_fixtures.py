"""Round-robin fixtures (``competitions/fixtures.py``) for 3 to 20 teams: every pair met,
the byes spread, and the fewest breaks (two matches in a row at one venue), never three
in a row."""

from collections import Counter
from itertools import combinations

import pytest

from competitions.fixtures import round_robin


@pytest.mark.parametrize("count", range(3, 21))
@pytest.mark.parametrize("double", [False, True])
def test_every_pair_meets_the_right_number_of_times(count, double):
    teams = [f"T{i}" for i in range(count)]
    days = round_robin(teams, double=double)
    legs = 2 if double else 1
    # an even count plays n − 1 days a leg, an odd count n (one team rests each day)
    assert len(days) == legs * (count - 1 if count % 2 == 0 else count)
    met = Counter(frozenset((f.home, f.away)) for day in days for f in day.fixtures)
    assert set(met) == {frozenset(pair) for pair in combinations(teams, 2)}
    assert set(met.values()) == {legs}
    if double:  # once at each venue
        venues = Counter((f.home, f.away) for day in days for f in day.fixtures)
        assert set(venues.values()) == {1}
    for day in days:  # nobody plays twice a day, and the bye is the one left out
        playing = [t for f in day.fixtures for t in (f.home, f.away)]
        assert len(playing) == len(set(playing))
        assert set(playing) | ({day.bye} if day.bye else set()) == set(teams)
        assert (day.bye is None) == (count % 2 == 0)
    # the byes are spread: with an odd count each team rests once a leg
    byes = Counter(day.bye for day in days if day.bye is not None)
    assert byes == (Counter(dict.fromkeys(teams, legs)) if count % 2 else Counter())
    # venues balanced: at most one home match more than away, or the reverse, a leg
    home = Counter(f.home for day in days for f in day.fixtures)
    away = Counter(f.away for day in days for f in day.fixtures)
    assert all(abs(home[t] - away[t]) <= (0 if double else 1) for t in teams)


def test_four_teams_by_hand():
    # the circle: D stays put, A B C turn; D away on days 1 and 3, home on day 2; the
    # other pair's home side one place ahead. B and C each have one break, A and D none.
    days = round_robin("ABCD")
    assert [[(f.home, f.away) for f in day.fixtures] for day in days] == [
        [("A", "D"), ("B", "C")],
        [("D", "B"), ("C", "A")],
        [("C", "D"), ("A", "B")],
    ]
    back = round_robin("ABCD", double=True)[3:]
    assert [[(f.home, f.away) for f in day.fixtures] for day in back] == [
        [("D", "C"), ("B", "A")],
        [("B", "D"), ("A", "C")],
        [("D", "A"), ("C", "B")],
    ]


def venues(days, team) -> str:
    """The team's venues in match order ("H"/"A"), its byes skipped."""
    out = ""
    for day in days:
        for f in day.fixtures:
            if team in (f.home, f.away):
                out += "H" if f.home == team else "A"
    return out


@pytest.mark.parametrize("count", range(4, 21))
@pytest.mark.parametrize("double", [False, True])
def test_the_fewest_breaks_and_never_three_in_a_row(count, double):
    """A break is two matches in a row at one venue. A single round robin of 2n teams has
    at least 2n − 2 (de Werra), each leg of a double one as many; an odd count can have
    none. Nobody plays three in a row at home or away."""
    teams = list(range(count))
    days = round_robin(teams, double=double)
    breaks = 0
    for team in teams:
        seen = venues(days, team)
        assert "HHH" not in seen and "AAA" not in seen, (team, seen)
        breaks += sum(1 for a, b in zip(seen, seen[1:]) if a == b)
    least = 0 if count % 2 else count - 2
    assert breaks == least * (2 if double else 1)


def test_degenerate_divisions():
    assert round_robin(["A"]) == []
    with pytest.raises(ValueError):
        round_robin(["A", "A"])
