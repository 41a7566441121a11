"""The ratings' arithmetic is openskill's: the shortcut of ``Rater.rate`` gives the
library's ``rate`` to the last bit, and a hand's match is the one of its sides."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.compute import Rater
from tarot.rating import Match, match_of

PLAYERS = range(8)


@st.composite
def matches(draw):
    """A hand's match: attack against defence (either winning, or a draw), or three
    players each for himself with ties."""
    players = draw(st.permutations(PLAYERS))
    if draw(st.booleans()):
        attack = draw(st.integers(1, 2))
        defence = draw(st.integers(1, 4))
        ranks = draw(st.sampled_from([(0, 1), (1, 0), (0, 0)]))
        return Match((tuple(players[:attack]), tuple(players[attack : attack + defence])), ranks)
    ranks = tuple(draw(st.lists(st.integers(0, 2), min_size=3, max_size=3)))
    return Match(tuple((p,) for p in players[:3]), ranks)


# openskill itself: slow under load
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(matches(), min_size=1, max_size=40))
def test_the_shortcut_rates_as_the_library_does(played):
    fast, library = Rater(), Rater()
    for match in played:
        fast.rate(match)
        library.rate_by_library(match)
        for player in match.players:
            assert fast.get(player) == library.get(player)  # floats equal, bit for bit


def test_sides_of_a_hand():
    seats = [
        ("A", "taker", True, 5, 100),
        ("B", "partner", True, 5, 50),
        ("C", "defender", True, 5, -50),
        ("D", "defender", True, 5, -50),
        ("E", "defender", True, 5, -50),
        ("F", "out", None, None, 0),
    ]
    assert match_of("tarot", seats) == Match((("A", "B"), ("C", "D", "E")), (0, 1))
    failed = [(p, r, False, -3, -s) for p, r, _m, _g, s in seats]
    assert match_of("tarot", failed).ranks == (1, 0)
    passed = [(p, "passed" if r != "out" else r, None, None, 0) for p, r, *_ in seats]
    assert match_of("tarot", passed) is None
    # the Savoyard tie line: a draw; ``each``: ranked by score, ties shared
    tie = [("A", "taker", None, 0, 0), ("B", "defender", None, 0, 0), ("C", "defender", None, 0, 0)]
    assert match_of("savoyard", tie) == Match((("A",), ("B", "C")), (0, 0))
    each = [
        ("A", "defender", None, 3, 6),
        ("B", "defender", None, -5, -12),
        ("C", "defender", None, 3, 6),
    ]
    assert match_of("savoyard", each) == Match((("A",), ("B",), ("C",)), (0, 1, 0))
