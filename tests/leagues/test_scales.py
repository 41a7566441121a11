"""Placement points by hand: a points table by field size, points proportional to the
field beaten, ties sharing their rank's points."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.scales import ScaleError, parse_scale, placement_points, points_of_ranks

TABLE = parse_scale(
    {
        "kind": "table",
        "tables": [{"from": 10, "points": [20, 15, 10]}, {"from": 1, "points": [10, 6, 4, 2]}],
    }
)


def test_a_table_by_field_size():
    assert points_of_ranks(TABLE, [1, 2, 3, 4, 5]) == [10, 6, 4, 2, 0]
    # ten entries or more: the second row
    assert points_of_ranks(TABLE, list(range(1, 11)))[:4] == [20, 15, 10, 0]


def test_ties_share_the_rank_points():
    assert points_of_ranks(TABLE, [1, 2, 2, 4]) == [10, 6, 6, 2]


def test_proportional_to_the_field_beaten():
    scale = parse_scale({"kind": "proportional", "points": 100})
    # 5 entries: 4 beaten is 100, 3 is 75…; a tie for 2nd: both beat 2 → 50
    assert points_of_ranks(scale, [1, 2, 2, 4, 5]) == [100, 50, 50, 25, 0]
    assert placement_points(scale, 1, 1, 0) == 100
    assert points_of_ranks(scale, [1, 2, 3, 4]) == [100, Fraction(200, 3), Fraction(100, 3), 0]


@pytest.mark.parametrize(
    "bad",
    [
        None,
        {"kind": "elo"},
        {"kind": "table", "tables": []},
        {"kind": "table", "tables": [{"from": 0, "points": [1]}]},
        {"kind": "table", "tables": [{"from": 1, "points": ["x"]}]},
        {"kind": "table", "tables": [{"from": 1, "points": [1]}, {"from": 1, "points": [2]}]},
        {"kind": "proportional", "points": -1},
        {"kind": "proportional", "points": True},
    ],
)
def test_a_bad_scale_is_refused(bad):
    with pytest.raises(ScaleError):
        parse_scale(bad)


@settings(deadline=None)
@given(st.lists(st.integers(1, 30), min_size=1, max_size=30))
def test_a_better_rank_never_earns_less(ranks):
    scale = parse_scale({"kind": "proportional", "points": 100})
    points = dict(zip(ranks, points_of_ranks(scale, ranks), strict=True))
    ordered = [points[r] for r in sorted(points)]
    assert ordered == sorted(ordered, reverse=True)
    assert all(0 <= p <= 100 for p in ordered)
