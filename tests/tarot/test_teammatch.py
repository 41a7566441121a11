"""A team match at two tables (``tarot/teammatch.py``): examples worked by hand in the
comments, and the symmetries a match must keep."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tarot.teammatch import (
    DealResult,
    LeaguePoints,
    Scale,
    TeamMatchError,
    deal_result,
    free_match,
    match_result,
)


def four(taker, x):
    """A four-player marque: the taker gets 3 × x, each defender −x."""
    return {seat: (3 * x if seat == taker else -x) for seat in "NESW"}


# Team A sits N–S at table 1 and E–W at table 2 (the default seating).
# Deal 1: N makes a garde worth 50 at table 1 (N +150, the others −50) and worth 60
#   at table 2 (N +180, the others −60).
#   A = (N + S at table 1) + (E + W at table 2) = (150 − 50) + (−60 − 60) = −20
#   B = (E + W at table 1) + (N + S at table 2) = (−50 − 50) + (180 − 60) = +20
# Deal 2: W goes down, −70 a defender at table 1 (W −210, the others +70), −35 at
#   table 2 (W −105, the others +35).
#   A = (70 + 70) + (35 − 105) = +70 ; B = (70 − 210) + (35 + 35) = −70
# Deal 3: E makes 40 at both tables: A = (−40 − 40) + (120 − 40) = 0 ; B = 0.
# Match: A = −20 + 70 + 0 = +50, B = −50: a difference of +100 for A.
DEALS = [
    (1, [four("N", 50), four("N", 60)]),
    (2, [four("W", -70), four("W", -35)]),
    (3, [four("E", 40), four("E", 40)]),
]


def deals():
    return [deal_result(number, tables) for number, tables in DEALS]


def test_each_deal_sums_each_teams_marques_at_both_tables():
    assert deals() == [DealResult(1, -20, 20), DealResult(2, 70, -70), DealResult(3, 0, 0)]


def test_the_default_scale_is_a_plain_win():
    result = match_result(deals())
    assert (result.points_a, result.points_b, result.difference) == (50, -50, 100)
    assert result.match_points == (2, 0)  # a win: 2–0
    assert result.league_points == (3, 0)  # 3/1/0


def test_a_draw_margin_makes_the_same_match_a_draw():
    # |100| is within a margin of 100: a draw, 1–1, one league point each
    result = match_result(deals(), Scale.plain(draw_margin=100))
    assert result.match_points == (1, 1)
    assert result.league_points == (1, 1)
    # one point more than the margin is a win
    assert match_result(deals(), Scale.plain(draw_margin=99)).match_points == (2, 0)


def test_a_two_line_scale():
    # 0–99: 10–10; from 100: 15–5. A difference of 100 takes the second line.
    scale = Scale(((0, 10, 10), (100, 15, 5)))
    assert match_result(deals(), scale).match_points == (15, 5)
    # the same match seen from the other side: B is 100 behind
    swapped = [DealResult(d.number, d.team_b, d.team_a) for d in deals()]
    assert match_result(swapped, scale).match_points == (5, 15)
    assert match_result(swapped, scale).league_points == (0, 3)
    # 99 is still on the first line: 10–10 is a draw in league points too
    assert scale.convert(99) == (10, 10)
    assert match_result([DealResult(1, 50, -49)], scale).league_points == (1, 1)


def test_league_points_are_the_competitions():
    result = match_result(deals(), league=LeaguePoints(win=2, draw=1, loss=0))
    assert result.league_points == (2, 0)


def test_a_free_deal_match_sums_the_totals():
    # A's four players made +30, −12, +5, +7 (= +30); B's −10, −8, −4, −8 (= −30)
    result = free_match([30, -12, 5, 7], [-10, -8, -4, -8])
    assert (result.points_a, result.points_b, result.match_points) == (30, -30, (2, 0))


@pytest.mark.parametrize(
    "lines, code",
    [
        ((), "scale_start"),
        (((10, 1, 1),), "scale_start"),
        (((0, 1, 1), (0, 2, 0)), "scale_order"),
        (((0, 1, 1), (50, 2, 0), (20, 3, 0)), "scale_order"),
        (((0, 1, 2),), "scale_points"),
        (((0, 1, 1), (10, 2, -1)), "scale_points"),
    ],
)
def test_a_bad_scale_is_refused(lines, code):
    with pytest.raises(TeamMatchError) as caught:
        Scale(lines)
    assert caught.value.code == code


def test_a_scale_from_stored_data():
    assert Scale.from_data([[0, 1, 1], [30, 2, 0]]).as_data() == [[0, 1, 1], [30, 2, 0]]
    with pytest.raises(TeamMatchError) as caught:
        Scale.from_data([["x"]])
    assert caught.value.code == "scale_shape"


@pytest.mark.parametrize(
    "tables, code",
    [
        ([four("N", 10)], "tables"),
        ([{"N": 30, "E": -10, "S": -10}, four("N", 10)], "seats"),
        ([{"N": 30, "E": -10, "S": -10, "W": -9}, four("N", 10)], "zero_sum"),
    ],
)
def test_a_bad_deal_is_refused(tables, code):
    with pytest.raises(TeamMatchError) as caught:
        deal_result(1, tables)
    assert caught.value.code == code


marques = st.builds(four, st.sampled_from("NESW"), st.integers(min_value=-400, max_value=400))


@given(st.lists(st.tuples(marques, marques), min_size=1, max_size=8), st.integers(0, 200))
def test_the_match_is_symmetric_and_the_same_cards_cancel(tables, margin):
    results = [deal_result(n, list(pair)) for n, pair in enumerate(tables, start=1)]
    scale = Scale.plain(draw_margin=margin)
    match = match_result(results, scale)
    # each deal's sums are opposite (each table sums to zero)
    assert all(deal.team_a == -deal.team_b for deal in results)
    # swapping the teams swaps everything
    swapped = match_result([DealResult(d.number, d.team_b, d.team_a) for d in results], scale)
    assert swapped.match_points == match.match_points[::-1]
    assert swapped.league_points == match.league_points[::-1]
    # the same marque in the same seats at both tables is a difference of 0
    same = [deal_result(n, [a, a]) for n, (a, _) in enumerate(tables, start=1)]
    assert match_result(same, scale).difference == 0


def test_an_exact_tie_on_a_first_line_not_symmetric_puts_nobody_ahead():
    # first line 12–8 (from 0), then 20–0 from 50: a tie is 8–8, a draw, whichever side
    # is called A; one point ahead is 12–8, a win
    scale = Scale(((0, 12, 8), (50, 20, 0)))
    tie = [DealResult(1, 30, -30), DealResult(2, -30, 30)]
    assert match_result(tie, scale).match_points == (8, 8)
    assert match_result(tie, scale).league_points == (1, 1)
    swapped = [DealResult(d.number, d.team_b, d.team_a) for d in tie]
    assert match_result(swapped, scale).match_points == (8, 8)
    assert match_result([DealResult(1, 1, 0)], scale).match_points == (12, 8)
    assert match_result([DealResult(1, 0, 1)], scale).match_points == (8, 12)


first_lines = st.tuples(st.integers(0, 30), st.integers(0, 30)).map(
    lambda two: (0, max(two), min(two))
)


@given(st.lists(st.tuples(marques, marques), min_size=1, max_size=4), first_lines)
def test_any_scale_scores_a_match_the_same_whichever_team_is_a(tables, first):
    scale = Scale((first, (300, first[1] + 5, 0)))
    results = [deal_result(n, list(pair)) for n, pair in enumerate(tables, start=1)]
    match = match_result(results, scale)
    swapped = match_result([DealResult(d.number, d.team_b, d.team_a) for d in results], scale)
    assert swapped.match_points == match.match_points[::-1]
    assert swapped.league_points == match.league_points[::-1]
