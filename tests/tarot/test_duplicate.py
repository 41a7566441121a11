"""Duplicate comparison (DUPLICATE.md §1–§3), worked by hand in the comments.

Three tables play deal 1. Seat by seat the marques are:

    table   N     E     S     W
    1      58  −174    58    58     (E took a garde and went down: −58 × 3)
    2      58  −174    58    58     (the same result)
    3     −20    60   −20   −20     (E took a prise and made it: 20 × 3)
"""

from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tarot.duplicate import (
    AVERAGE,
    MATCHPOINTS,
    NEUTRAL,
    DuplicateError,
    TableDeal,
    compare,
    dealer_seat,
    json_score,
    parse_event,
    team_score,
)
from tarot.duplicate import _seat_scorer as seat_scorer

T1 = ("A", "B", "C", "D")
T2 = ("E", "F", "G", "H")
T3 = ("I", "J", "K", "L")
DEAL_1 = [
    TableDeal(1, 1, T1, (58, -174, 58, 58)),
    TableDeal(1, 2, T2, (58, -174, 58, 58)),
    TableDeal(1, 3, T3, (-20, 60, -20, -20)),
]


def _matchpoints(x, others) -> F:
    """§3's matchpoints of a marque among the same seat's marques (itself included),
    written as the definition reads: 2 for each marque beaten, 1 for each tie."""
    n = len(others)
    if n == 1:
        return NEUTRAL[MATCHPOINTS]
    mp = 2 * sum(1 for y in others if y < x) + sum(1 for y in others if y == x) - 1
    return F(100 * mp, 2 * (n - 1))


def _difference(x, others) -> F:
    """§3's difference of a marque to the mean of the same seat's marques."""
    return F(x) - F(sum(F(y) for y in others), len(others))


def scores(comparison):
    return {(s.deal, s.table, s.seat): s.score for s in comparison.seats}


def test_matchpoints_with_ties():
    # Seat N, top 2 × (3 − 1) = 4. Table 1: beats table 3 (2), ties table 2 (1):
    # MP = 2 × 1 + 2 − 1 = 3 → 75 %. Table 2 likewise 75 %. Table 3 beats nobody:
    # MP = 0 + 1 − 1 = 0 → 0 %. Seat E: table 3 beats both (4 → 100 %); tables 1 and 2
    # tie with each other (MP 1 → 25 %).
    got = scores(compare(DEAL_1, MATCHPOINTS))
    assert got[(1, 1, "N")] == got[(1, 2, "N")] == 75
    assert got[(1, 3, "N")] == 0
    assert got[(1, 3, "E")] == 100
    assert got[(1, 1, "E")] == got[(1, 2, "E")] == 25
    assert got[(1, 1, "W")] == 75 and got[(1, 3, "S")] == 0


def test_average_difference_to_the_seat_mean():
    # Seat N: mean (58 + 58 − 20) / 3 = 32: tables 1 and 2 get +26, table 3 −52.
    # Seat E: mean (−174 − 174 + 60) / 3 = −96: tables 1 and 2 −78, table 3 +156.
    got = scores(compare(DEAL_1, AVERAGE))
    assert got[(1, 1, "N")] == 26 and got[(1, 3, "N")] == -52
    assert got[(1, 2, "E")] == -78 and got[(1, 3, "E")] == 156
    # a seat's differences sum to zero over the tables
    assert sum(got[(1, t, "E")] for t in (1, 2, 3)) == 0


def test_average_keeps_thirds_exact():
    # Seat N at 10, 0, 0: mean 10/3; table 1 gets 20/3 exactly, not 6.67
    results = [
        TableDeal(1, 1, T1, (10, -10, 0, 0)),
        TableDeal(1, 2, T2, (0, 0, 0, 0)),
        TableDeal(1, 3, T3, (0, 0, 0, 0)),
    ]
    got = scores(compare(results, AVERAGE))
    assert got[(1, 1, "N")] == F(20, 3)
    assert got[(1, 2, "N")] == F(-10, 3)


def test_a_deal_played_at_one_table_is_neutral():
    # n = 1: 50 % under matchpoints, 0 under average, whatever the marque
    alone = [TableDeal(2, 1, T1, (150, -50, -50, -50))]
    assert set(scores(compare(alone, MATCHPOINTS)).values()) == {50}
    assert set(scores(compare(alone, AVERAGE)).values()) == {0}


def test_a_cancelled_deal_is_left_out_and_neutral_for_its_table():
    # Table 2's étui was fouled on deal 1: its four players get 50 % (0 under average);
    # tables 1 and 3 are compared between themselves (top 2): seat N at table 1 beats
    # table 3: MP 2 → 100 %; table 3: 0 %.
    results = [DEAL_1[0], TableDeal(1, 2, T2, None), DEAL_1[2]]
    got = scores(compare(results, MATCHPOINTS))
    assert [got[(1, 2, seat)] for seat in "NESW"] == [50, 50, 50, 50]
    assert got[(1, 1, "N")] == 100 and got[(1, 3, "N")] == 0
    avg = scores(compare(results, AVERAGE))
    # seat N: mean of 58 and −20 is 19: table 1 +39, table 3 −39
    assert avg[(1, 2, "N")] == 0 and avg[(1, 1, "N")] == 39 and avg[(1, 3, "N")] == -39


def test_an_arbitral_score_replaces_one_seat_only():
    # The arbitre gives table 3's South 60 %: the others still compare with table 3's
    # marque (seat S at table 1 keeps 75 %).
    results = [*DEAL_1[:2], TableDeal(1, 3, T3, (-20, 60, -20, -20), arbitral=((2, F(60)),))]
    got = scores(compare(results, MATCHPOINTS))
    assert got[(1, 3, "S")] == 60
    assert got[(1, 3, "N")] == 0
    assert got[(1, 1, "S")] == 75


def test_event_scores_mean_of_percentages_or_sum_of_points():
    # Deal 2 at tables 1 and 2 only (table 3 has a bye that round: its players rest).
    # Seat N: 10 against 0: table 1 100 %, table 2 0 %.
    results = [
        *DEAL_1,
        TableDeal(2, 1, T1, (10, -30, 10, 10)),
        TableDeal(2, 2, T2, (0, 0, 0, 0)),
    ]
    mp = compare(results, MATCHPOINTS)
    # A: 75 % and 100 % → mean 87.5 over 2 deals; E: 75 % and 0 % → 37.5; I rested on
    # deal 2: 0 % over 1 deal.
    assert mp.totals["A"] == F(175, 2) and mp.deals["A"] == 2
    assert mp.totals["E"] == F(75, 2)
    assert mp.totals["I"] == 0 and mp.deals["I"] == 1
    avg = compare(results, AVERAGE)
    # A: +26 on deal 1, +5 on deal 2 (mean 5) → 31; B: −78 and −15 → −93
    assert avg.totals["A"] == 31 and avg.totals["B"] == -93


def test_team_scores():
    # A triplette A, B, E: sum under average, mean under matchpoints
    assert team_score([F(31), F(-93), F(21)], AVERAGE) == -41
    assert team_score([F(175, 2), F(25), F(75, 2)], MATCHPOINTS) == F(50)


def test_the_dealer_follows_the_deal():
    assert [dealer_seat(d) for d in (1, 2, 3, 4, 5, 8)] == [0, 1, 2, 3, 0, 3]


def test_refusals():
    with pytest.raises(DuplicateError) as twice:
        compare([DEAL_1[0], DEAL_1[0]])
    assert twice.value.code == "deal_twice"
    moved = TableDeal(1, 2, ("A", "X", "Y", "Z"), (0, 0, 0, 0))
    with pytest.raises(DuplicateError) as two_tables:
        compare([DEAL_1[0], moved])
    assert two_tables.value.code == "player_twice"
    with pytest.raises(DuplicateError) as method:
        compare(DEAL_1, "butler")
    assert method.value.code == "method_unknown"


SEATS = {"N": "Anna", "E": "Bert", "S": "Carl", "W": "Dora"}


def event(*results, method="matchpoints"):
    return {"rules": "fft", "method": method, "results": list(results)}


def test_parse_event_scores_each_hand_at_four_with_the_dealer_of_the_deal():
    # garde by East, 2 bouts, 45 points (target 41): (25 + 4) × 2 = 58 per defender
    _rules, method, results = parse_event(
        event(
            {
                "deal": 2,
                "table": 1,
                "seats": SEATS,
                "hand": {"taker": "Bert", "contract": "garde", "bouts": 2, "points": 45},
            }
        )
    )
    assert method == MATCHPOINTS
    assert results[0].marques == (-58, 174, -58, -58)


@pytest.mark.parametrize(
    "change, code",
    [
        ({"seats": {**SEATS, "X": "Emil"}}, "seat_unknown"),
        ({"seats": {"N": "Anna", "E": "Bert", "S": "Carl"}}, "seats_incomplete"),
        ({"seats": {**SEATS, "W": "Anna"}}, "player_twice"),
        (
            {"hand": {"taker": "Bert", "contract": "garde", "bouts": 4, "points": 45}},
            "bouts_out_of_range",
        ),
        (
            {
                "hand": {
                    "taker": "Bert",
                    "contract": "garde",
                    "bouts": 2,
                    "points": 45,
                    "dealer": "Anna",
                }
            },
            "invalid_field",
        ),
    ],
)
def test_parse_event_refusals(change, code):
    result = {"deal": 1, "table": 1, "seats": SEATS, "hand": {"taker": None}, **change}
    with pytest.raises(DuplicateError) as refused:
        parse_event(event(result))
    assert refused.value.code == code
    if code != "player_twice":
        assert refused.value.where == {"deal": 1, "table": 1}


def test_an_unknown_method_is_refused():
    with pytest.raises(DuplicateError) as refused:
        parse_event(event(method="butler"))
    assert refused.value.code == "method_unknown"


def test_json_scores_are_exact_where_a_decimal_is():
    assert json_score(F(125, 2)) == 62.5
    assert json_score(F(100)) == 100 and isinstance(json_score(F(100)), int)
    assert json_score(F(200, 3)) == pytest.approx(66.6666666666)


@given(
    st.lists(st.builds(F, st.integers(-600, 600), st.sampled_from([1, 2])), min_size=1, max_size=12)
)
def test_the_per_seat_scorer_is_the_per_table_definition(marques):
    """``compare`` sorts a seat's marques once per deal (bisect) and takes their mean once;
    each score is still exactly §3's definition, computed table by table."""
    for x in marques:  # the scorer gives (numerator, denominator), not reduced
        assert F(*seat_scorer(MATCHPOINTS, marques)(x)) == _matchpoints(x, marques)
        assert F(*seat_scorer(AVERAGE, marques)(x)) == _difference(x, marques)
