"""The division table and its tie-breaks, and the next season's divisions
(``competitions/table.py``), worked by hand in the comments."""

import pytest

from competitions.table import MP_DIFFERENCE, POINTS, Played, division_table, next_divisions

WIN, DRAW, LOSS = (2, 0), (1, 1), (0, 2)
LP = {WIN: (3, 0), DRAW: (1, 1), LOSS: (0, 3)}


def played(home, away, mp, points):
    return Played(home, away, mp, LP[mp], points)


# A beats B and D, loses to C; B beats D and C (by 100 deal points); C draws with D.
#        W D L  MP     LP  deal points for/against
#   A    2 0 1  4–2    6   40 − 30 + 20 = +30 / −30
#   B    2 0 1  4–2    6   −40 + 50 + 100 = +110 / −110
#   C    1 1 1  3–3    4   10 + 30 − 100 = −60 / +60
#   D    0 1 2  1–5    1   −10 − 50 − 20 = −80 / +80
MATCHES = [
    played("A", "B", WIN, (40, -40)),
    played("C", "D", DRAW, (10, -10)),
    played("A", "C", LOSS, (-30, 30)),
    played("B", "D", WIN, (50, -50)),
    played("A", "D", WIN, (20, -20)),
    played("B", "C", WIN, (100, -100)),
]


def summary(table):
    return [(line.rank, line.team) for line in table]


def test_the_lines_by_hand():
    table = division_table("ABCD", MATCHES)
    a = next(line for line in table if line.team == "A")
    assert (a.played, a.won, a.drawn, a.lost) == (3, 2, 0, 1)
    assert (a.mp_for, a.mp_against, a.league_points) == (4, 2, 6)
    assert (a.points_for, a.points_against) == (30, -30)
    c = next(line for line in table if line.team == "C")
    assert (c.won, c.drawn, c.lost, c.league_points, c.points_difference) == (1, 1, 1, 4, -120)


def test_head_to_head_first_parts_a_and_b():
    # A and B both have 6; A beat B, so A is ahead, though B made more deal points
    assert summary(division_table("ABCD", MATCHES)) == [(1, "A"), (2, "B"), (3, "C"), (4, "D")]


def test_the_competitions_order_of_tie_breaks():
    # points first: B's +220 beats A's +60
    assert summary(division_table("ABCD", MATCHES, (POINTS,))) == [
        (1, "B"),
        (2, "A"),
        (3, "C"),
        (4, "D"),
    ]
    # match-point difference alone leaves A and B tied (both +2): they share 1st
    assert summary(division_table("ABCD", MATCHES, (MP_DIFFERENCE,)))[:2] == [(1, "A"), (1, "B")]


def test_a_three_way_tie_in_a_circle():
    # X beat Y, Y beat Z, Z beat X: 3 points each, 3 each between them too, MP even;
    # deal points: X −20, Y +40, Z −20: Y first, X and Z share 2nd
    matches = [
        played("X", "Y", WIN, (10, -10)),
        played("Y", "Z", WIN, (30, -30)),
        played("Z", "X", WIN, (20, -20)),
    ]
    table = division_table("XYZ", matches)
    assert summary(table) == [(1, "Y"), (2, "X"), (2, "Z")]
    assert table[0].tie_break == (3, 0, 40)


def test_head_to_head_counts_only_the_matches_between_the_tied_teams():
    # P: beat R (3), lost to Q (0), drew with S (1) = 4; Q: beat P (3), drew with R (1)
    # = 4; R 1, S 1. P made far more deal points, but Q beat P: Q ahead
    matches = [
        played("P", "R", WIN, (90, -90)),
        played("Q", "P", WIN, (5, -5)),
        played("R", "Q", DRAW, (0, 0)),
        played("S", "P", DRAW, (0, 0)),
    ]
    assert summary(division_table("PQRS", matches))[:2] == [(1, "Q"), (2, "P")]
    assert summary(division_table("PQRS", matches, (POINTS,)))[:2] == [(1, "P"), (2, "Q")]


def test_unknown_teams_and_tie_breaks_are_refused():
    with pytest.raises(ValueError):
        division_table("AB", MATCHES)
    with pytest.raises(ValueError):
        division_table("ABCD", MATCHES, ("coin",))


def test_promotion_and_relegation():
    divisions = [["A1", "A2", "A3", "A4"], ["B1", "B2", "B3", "B4"], ["C1", "C2", "C3", "C4"]]
    assert next_divisions(divisions, up=1, down=1) == [
        ["B1", "A1", "A2", "A3"],
        ["C1", "B2", "B3", "A4"],
        ["C2", "C3", "C4", "B4"],
    ]
    # two up, one down: the top division grows, the bottom one shrinks
    two_up = next_divisions(divisions, up=2, down=1)
    assert two_up[0] == ["B1", "B2", "A1", "A2", "A3"]
    assert two_up[2] == ["C3", "C4", "B4"]
    assert sorted(sum(two_up, [])) == sorted(sum(divisions, []))
    assert next_divisions(divisions, up=0, down=0) == divisions
    with pytest.raises(ValueError):
        next_divisions([["A1", "A2"], ["B1"], ["C1", "C2"]], up=1, down=1)


@pytest.mark.parametrize(
    ("up", "down", "expected"),
    [
        (
            1,
            2,
            [
                ["B1", "A1", "A2", "A3"],
                ["C1", "B2", "B3", "A4", "A5"],
                ["C2", "C3", "C4", "C5", "B4", "B5"],
            ],
        ),
        (
            2,
            1,
            [
                ["B1", "B2", "A1", "A2", "A3", "A4"],
                ["C1", "C2", "B3", "B4", "A5"],
                ["C3", "C4", "C5", "B5"],
            ],
        ),
    ],
)
def test_more_up_than_down_or_fewer_moves_each_team_the_right_way(up, down, expected):
    """Promoted ≠ relegated: the first ``up`` of a division go up one, its last ``down``
    go down one, whatever the other number; every division written out by hand."""
    divisions = [[f"{d}{i}" for i in range(1, 6)] for d in "ABC"]
    assert next_divisions(divisions, up=up, down=down) == expected
