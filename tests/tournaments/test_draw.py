"""The table draw (``tournaments.draw``, pure Python) and its ``draw_tables`` command.

No database: the draw module imports nothing from Django, and the command runs
without system checks or queries. Timings are printed by the command, never
asserted here.
"""

import itertools
import json
import pathlib
import random
from collections import Counter

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tournaments import draw
from tournaments.draw import (
    DrawError,
    draw_round,
    draw_schedule,
    least_repeats,
    meeting_counts,
    odd_seat_bounds,
    odd_table_counts,
    quality,
    repeats,
    swap,
    table_sizes,
)

EXPECTED_SIZES = {
    3: [3],
    4: [4],
    5: [5],
    6: [3, 3],
    7: [4, 3],
    8: [4, 4],
    9: [4, 5],
    10: [5, 5],
    11: [4, 4, 3],
    12: [4, 4, 4],
    13: [4, 4, 5],
    14: [4, 5, 5],
    15: [5, 5, 5],
    16: [4, 4, 4, 4],
    17: [4, 4, 4, 5],
    18: [4, 4, 5, 5],
    19: [4, 5, 5, 5],
    20: [4] * 5,
    21: [4] * 4 + [5],
    22: [4] * 3 + [5] * 2,
    23: [4] * 2 + [5] * 3,
    24: [4] * 6,
    25: [4] * 5 + [5],
    26: [4] * 4 + [5] * 2,
    27: [4] * 3 + [5] * 3,
    28: [4] * 7,
    29: [4] * 6 + [5],
    30: [4] * 5 + [5] * 2,
}


def assert_seated_once(round_tables, players):
    seated = [p for table in round_tables for p in table]
    assert sorted(seated) == sorted(players)
    assert sorted(len(t) for t in round_tables) == sorted(table_sizes(len(players)))


# ---------------------------------------------------------------- sizes


@pytest.mark.parametrize("n", range(3, 31))
def test_table_sizes(n):
    sizes = table_sizes(n)
    assert sizes == EXPECTED_SIZES[n]
    assert sum(sizes) == n
    # Tables of 3 only where 4s and 5s cannot seat everybody.
    assert (3 in sizes) == (n in {3, 6, 7, 11})


@pytest.mark.parametrize("n", [-1, 0, 1, 2])
def test_too_few_players(n):
    with pytest.raises(DrawError):
        table_sizes(n)
    with pytest.raises(DrawError):
        draw_round(range(n))


def test_the_package_imports_no_django():
    folder = pathlib.Path(draw.__file__).parent
    for path in folder.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "django" not in source.replace("no Django", ""), path.name


# ---------------------------------------------------------------- one round


@pytest.mark.parametrize("n", [3, 5, 6, 7, 11, 13, 17, 18, 23, 30])
def test_everybody_seated_once_each_round(n):
    players = list(range(101, 101 + n))
    history = []
    for r in range(4):
        tables = draw_round(players, history, seed=r)
        assert_seated_once(tables, players)
        history.append(tables)


def test_same_seed_same_draw_other_seed_other_draw():
    history = [draw_round(range(1, 23), seed="a")]
    first = draw_round(range(1, 23), history, seed="x")
    assert draw_round(range(1, 23), history, seed="x") == first
    assert draw_round(range(1, 23), history, seed="y") != first
    # Searches are bounded by a number of moves, never by the clock.
    assert draw_schedule(13, 3, seed=5, effort=0.2) == draw_schedule(13, 3, seed=5, effort=0.2)
    assert draw_schedule(13, 3, seed=5, effort=0.2) != draw_schedule(13, 3, seed=6, effort=0.2)


def test_players_may_be_given_in_any_order():
    assert draw_round([5, 3, 9, 1, 7], seed=1) == draw_round([1, 3, 5, 7, 9], seed=1)
    with pytest.raises(DrawError):
        draw_round([1, 2, 3, 3], seed=1)


def test_a_round_avoids_the_pairs_that_met():
    history = []
    for r in range(4):
        tables = draw_round(range(1, 25), history, seed=r)
        assert repeats(history, tables) == []
        history.append(tables)


def test_withdrawals_and_late_arrivals():
    history = [draw_round(range(1, 21), seed=1)]
    history.append(draw_round(range(1, 21), history, seed=2))
    # Round 3: players 4 and 11 withdrew, 21 and 22 arrived.
    present = [p for p in range(1, 23) if p not in (4, 11)]
    third = draw_round(present, history, seed=3)
    seated = {p for table in third for p in table}
    assert 4 not in seated and 11 not in seated
    assert {21, 22} <= seated
    assert_seated_once(third, present)
    assert repeats(history, third) == []
    # Round 4: player 4 is back; nobody has met twice yet.
    history.append(third)
    fourth = draw_round(present + [4], history, seed=4)
    assert_seated_once(fourth, present + [4])
    assert quality(history + [fourth]).max_meetings == 1


# ---------------------------------------------------------------- schedules


@pytest.mark.parametrize(
    ("n", "rounds"), [(16, 5), (20, 5), (24, 5), (32, 6), (40, 7)], ids=lambda v: str(v)
)
def test_no_repeated_meeting_in_the_target_schedules(n, rounds):
    schedule = draw_schedule(n, rounds, seed=11)
    assert len(schedule) == rounds
    for tables in schedule:
        assert_seated_once(tables, range(1, n + 1))
    assert quality(schedule).repeated_pairs == 0


@pytest.mark.parametrize(("n", "rounds"), [(16, 5), (20, 5), (24, 5)])
def test_the_search_alone_finds_them_too(n, rounds):
    """Without the finite-geometry constructions, the tabu search reaches zero."""
    schedule = draw_schedule(n, rounds, seed=3, constructions=False)
    assert quality(schedule).repeated_pairs == 0


@pytest.mark.parametrize("n", [16, 20, 28, 32, 36])
def test_constructions_meet_nobody_twice(n):
    built = draw.constructions._constructed_rounds(n)
    assert len(built) == (5 if n == 16 else n // 4)
    assert quality(built).max_meetings == 1
    assert draw.constructions._constructed_rounds(24) == []  # 6 is no prime power


def test_thirty_players_over_six_rounds_meet_nobody_twice_with_an_even_spread():
    built = draw.constructions._constructed_rounds(30)
    assert len(built) == 6
    for tables in built:
        assert_seated_once(tables, range(30))
    assert quality(built).max_meetings == 1
    assert set(odd_table_counts(built).values()) == {2}  # 60 seats at tables of 5
    for five in itertools.combinations(built, 5):  # any 5 rounds: 1 or 2 each
        counts = odd_table_counts(five)
        assert {counts.get(p, 0) for p in range(30)} == {1, 2}
    schedule = draw_schedule(30, 6, seed=4)
    assert quality(schedule).repeated_meetings == 0
    assert odd_spread(schedule, 30) == 0
    # Fewer rounds of it would not spread the tables of 5 evenly: the search draws them.
    schedule = draw_schedule(30, 3, seed=4, effort=0.1)
    assert odd_spread(schedule, 30) <= 1


@pytest.mark.parametrize(("n", "rounds"), [(13, 5), (17, 6)])
def test_few_repeats_where_none_is_impossible(n, rounds):
    schedule = draw_schedule(n, rounds, seed=2, effort=1)
    for tables in schedule:
        assert_seated_once(tables, range(1, n + 1))
    q = quality(schedule)
    # Lower bounds: 32 repeated meetings for both (pairs seated vs pairs that exist).
    assert least_repeats([table_sizes(n)] * rounds) == 32
    assert 32 <= q.repeated_meetings <= 40


# ---------------------------------------------------------------- the reference sizes

#: Seed 1, the default effort (what ``draw_tables`` prints): the reference figures (what a
#: search with no rule for the tables of 3 and 5 reaches), what the draw reaches
#: with its default even spread, and without the rule. Without the rule every figure
#: of the issue is reached. With an even spread some are out of reach: for 17 x 4
#: (one table of 5 among 4 tables) the five players of round r's table of 5 fill
#: the 4 tables of another round r', so one pair of them meets again if one of them
#: sits at r''s table of 5, two pairs if none does; only 3 players have two seats
#: at a table of 5, so at most 2 round pairs share one, and the 12 ordered couples
#: of rounds cost at least 17 repeated meetings (tournaments/draw/__init__.py's docstring);
#: the same count gives at least 12 for 21 x 5; for 13 x 4 every schedule was tried
#: (at least 22). All three are reached. For 18 x 5 and 22 x 5 the pairs a table of 5
#: carries into other rounds (``draw.bounds._carried_over``) prove at least 14 and 4 with an
#: even spread, above the issue's 11 and 3; the search reaches 25 and 10.
ISSUE_SIZES = {
    # (players, rounds): (issue's figure, with an even spread, without the rule)
    (12, 4): (13, 13, 13),
    (13, 4): (14, 22, 14),
    (22, 4): (6, 10, 0),
    (17, 4): (3, 17, 3),
    (18, 5): (11, 25, 11),
    (21, 5): (2, 12, 0),
    (22, 5): (3, 10, 2),
    (26, 6): (6, 6, 4),
    (30, 6): (0, 0, 0),
}
#: Reached with an even spread and proved the least possible (see above).
PROVED_LEAST = {(13, 4): 22, (17, 4): 17, (21, 5): 12}


def odd_spread(schedule, n):
    counts = odd_table_counts(schedule)
    seats = [counts.get(p, 0) for p in range(1, n + 1)]
    return max(seats) - min(seats)


@pytest.mark.slow
@pytest.mark.parametrize(("n", "rounds"), list(ISSUE_SIZES), ids=lambda v: str(v))
def test_issue_sizes_with_an_even_spread(n, rounds):
    _issue, even, _free = ISSUE_SIZES[n, rounds]
    schedule = draw_schedule(n, rounds, seed=1)
    for tables in schedule:
        assert_seated_once(tables, range(1, n + 1))
    assert odd_spread(schedule, n) <= 1
    assert quality(schedule).repeated_meetings <= even
    if (n, rounds) in PROVED_LEAST:
        assert quality(schedule).repeated_meetings == PROVED_LEAST[n, rounds]


#: The issue's figures that no evenly spread draw reaches, and the least it can.
OUT_OF_REACH = {(13, 4): 22, (17, 4): 17, (18, 5): 14, (21, 5): 12, (22, 5): 4}


def test_issue_figures_out_of_reach_with_an_even_spread():
    for (n, rounds), (issue, even, _free) in ISSUE_SIZES.items():
        least = least_repeats([table_sizes(n)] * rounds, n, even_spread=True)
        assert least <= even  # reached, or a lower bound under what the search reaches
        if (n, rounds) in OUT_OF_REACH:
            assert least == OUT_OF_REACH[n, rounds] > issue
        else:
            assert least <= issue


@pytest.mark.slow
@pytest.mark.parametrize(("n", "rounds"), list(ISSUE_SIZES), ids=lambda v: str(v))
def test_issue_sizes_without_the_spread_rule(n, rounds):
    issue, _even, free = ISSUE_SIZES[n, rounds]
    schedule = draw_schedule(n, rounds, seed=1, spread=None)
    assert quality(schedule).repeated_meetings <= free <= issue


@pytest.mark.slow
def test_the_least_with_an_even_spread_for_13_players():
    """Every schedule of 13 players over 4 rounds with an even spread has at least
    22 repeated meetings (the draw reaches 22): the exhaustive count finds none
    with 21, and finds one with 22. The search stops at these known least figures."""
    assert not draw.bounds._even_spread_reaches(13, 4, 21)
    assert draw.bounds._even_spread_reaches(13, 4, 22)
    # Small cases the search reaches too: 2 rounds cost 8, 11 players over 4 rounds 12.
    assert draw.bounds._even_spread_reaches(13, 2, 8) and not draw.bounds._even_spread_reaches(
        13, 2, 7
    )
    assert draw.bounds._even_spread_reaches(11, 4, 12) and not draw.bounds._even_spread_reaches(
        11, 4, 11
    )
    assert draw.EVEN_SPREAD_LEAST == PROVED_LEAST
    with pytest.raises(DrawError):
        draw.bounds._even_spread_reaches(18, 5, 25)  # two tables of 5: not exhaustive here


def test_the_spread_bounds():
    assert odd_seat_bounds(17, 4) == (1, 2)  # 20 seats for 17 players
    assert odd_seat_bounds(30, 6) == (2, 3)  # exactly 2 each: 60 seats, 30 players
    assert odd_seat_bounds(30, 6, 3) == (1, 4)
    assert odd_seat_bounds(17, 4, None) == (0, 4)
    with pytest.raises(DrawError):
        odd_seat_bounds(17, 4, 0)


def test_least_repeats():
    assert least_repeats([table_sizes(18)] * 5) == 7  # 160 pairs seated, 153 exist
    assert least_repeats([table_sizes(12)] * 4) == 6
    assert least_repeats([table_sizes(24)] * 5) == 0
    assert least_repeats([[4, 4]] * 3) == 8  # 8 players meet 3 others 3 times: 9 > 7
    assert least_repeats([[4, 4, 4, 5]] * 4) == 0
    assert least_repeats([]) == 0
    # With an even spread, the least figures proved for it.
    assert least_repeats([[4, 4, 5]] * 4, 13) == 10
    assert least_repeats([[4, 4, 5]] * 4, 13, even_spread=True) == 22
    assert least_repeats([[4, 4, 4, 5]] * 4, even_spread=True) == 17
    assert least_repeats([[4, 4, 4, 5]] * 3 + [[4, 4, 4, 4]], 17, even_spread=True) == 0
    # Pairs of a table of 5 carried over to another round, over the most seats at
    # tables of 5 a player has: 18 x 5, 40 pairs over 3 seats; 22 x 5, 12 over 3.
    assert least_repeats([table_sizes(18)] * 5, 18, even_spread=True) == 14
    assert least_repeats([table_sizes(22)] * 5, 22, even_spread=True) == 4
    assert least_repeats([table_sizes(22)] * 5, 22) == 0
    assert least_repeats([[5, 5]] * 2, even_spread=True) == 8  # 3 + 2 of each table meet again
    assert least_repeats([[3, 3]] * 2, even_spread=True) == 2
    # 21 x 4: 20 seats, nobody twice at the table of 5, whose players fill 4 tables of 4.
    assert least_repeats([table_sizes(21)] * 4, 21, even_spread=True) == 12
    assert draw.bounds._carried_over([[4, 4, 5], [4, 5, 4]], 13) == 8  # the order of the tables
    assert draw.bounds._carried_over([[4, 4, 5], [4, 4, 4, 1]], 13) == 0  # not the same tables


@pytest.mark.parametrize(
    ("n", "rounds"),
    [(6, 3), (10, 3), (11, 3), (14, 4), (17, 3), (18, 5), (21, 4), (22, 3), (22, 5), (23, 3)],
)
def test_no_evenly_spread_draw_beats_the_carried_over_pairs(n, rounds):
    """The bound of the pairs carried over from a table of 5 (or 3) holds for every
    evenly spread schedule drawn, first draws or searched, and, for 11 and 13
    players, for every schedule (``_even_spread_reaches``): a lower bound,
    sometimes reached."""
    least = draw.bounds._carried_over([table_sizes(n)] * rounds, n)
    assert least > least_repeats([table_sizes(n)] * rounds, n)  # it says more
    for seed in range(4):
        schedule = draw_schedule(n, rounds, seed=seed, effort=0.05 * (seed % 2))
        assert odd_spread(schedule, n) <= 1
        assert quality(schedule).repeated_meetings >= least


def test_the_carried_over_pairs_against_every_schedule():
    for n, rounds, exact in [(13, 2, 8), (13, 3, 16), (11, 2, 3), (11, 3, 6)]:
        least = draw.bounds._carried_over([table_sizes(n)] * rounds, n)
        assert least <= exact
        assert draw.bounds._even_spread_reaches(n, rounds, exact)
        assert not draw.bounds._even_spread_reaches(n, rounds, exact - 1)
    assert draw.bounds._carried_over([table_sizes(13)] * 2, 13) == 8  # reached
    assert draw.bounds._carried_over([table_sizes(11)] * 3, 11) == 6  # reached


def test_a_hundred_players_drawn():
    for n in (98, 100):
        schedule = draw_schedule(n, 6, seed=1)
        assert quality(schedule).repeated_meetings == 0
        assert odd_spread(schedule, n) <= 1


# ---------------------------------------------------------------- odd tables


def test_tables_of_5_spread_evenly():
    # 17 players: one table of 5 a round. Three rounds seat 15 players there, all different.
    schedule = draw_schedule(17, 3, seed=4, effort=0.5)
    assert max(odd_table_counts(schedule).values()) == 1
    # A fourth round gives 20 seats to 17 players: the three extra seats go to three
    # players once each; nobody has three, everybody has one.
    schedule = draw_schedule(17, 4, seed=4, effort=0.5)
    counts = odd_table_counts(schedule)
    assert sorted(Counter(counts[p] for p in range(1, 18)).items()) == [(1, 14), (2, 3)]


def test_round_by_round_spread_follows_the_counts():
    players = list(range(1, 23))  # two tables of 5 a round
    history = []
    for r in range(4):
        history.append(draw_round(players, history, seed=r))
        counts = [odd_table_counts(history).get(p, 0) for p in players]
        assert max(counts) - min(counts) <= 1
    # A late arrival has sat at no table of 5: he is among the first to go there.
    late = draw_round(players + [23], history, seed=9)
    assert any(23 in table for table in late if len(table) == 5)


def test_tables_of_3_spread_too():
    history = []
    for r in range(4):  # 7 players: one table of 3 a round, 12 seats in 4 rounds
        history.append(draw_round(range(1, 8), history, seed=r))
        counts = [odd_table_counts(history).get(p, 0) for p in range(1, 8)]
        assert max(counts) - min(counts) <= 1


# ---------------------------------------------------------------- seats


def distinct_seats(schedule, player):
    return len({t.index(player) for tables in schedule for t in tables if player in t})


def test_seats_rotate():
    # Four rounds at tables of 4: each player's seats vary. (All four seats for
    # everybody is not always possible: four players who all sat North before
    # may share a table.)
    schedule = draw_schedule(16, 4, seed=8)
    assert all(distinct_seats(schedule, p) >= 3 for p in range(1, 17))
    assert quality(schedule).seat_repeats <= 8
    # Second round: nobody keeps his seat when the table allows it.
    two = draw_schedule(16, 2, seed=8)
    assert quality(two).seat_repeats <= 1


def test_seats_rotate_round_by_round():
    history = []
    for r in range(4):
        history.append(draw_round(range(1, 21), history, seed=r))
    assert all(distinct_seats(history, p) >= 3 for p in range(1, 21))
    assert quality(history).seat_repeats <= 10


# ---------------------------------------------------------------- the organiser's tools


def test_repeats_and_swap():
    history = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 5, 2, 6], [3, 7, 4, 8]]]
    assert meeting_counts(history)[1, 2] == 2
    proposed = [[1, 3, 6, 8], [2, 4, 5, 7]]
    assert repeats(history, proposed) == [
        (1, 3, 1),
        (1, 6, 1),
        (2, 4, 1),
        (2, 5, 1),
        (3, 8, 1),
        (4, 7, 1),
        (5, 7, 1),
        (6, 8, 1),
    ]
    # The organiser tries swapping 3 and 2: 1 and 2 would meet a third time.
    swapped = swap(proposed, 3, 2)
    assert swapped == [[1, 2, 6, 8], [3, 4, 5, 7]]
    assert (1, 2, 2) in repeats(history, swapped)
    with pytest.raises(DrawError):
        swap(proposed, 1, 99)


def test_quality_summary():
    q = quality([[[1, 2, 3, 4]], [[1, 2, 3, 5, 6]]])
    assert (q.repeated_pairs, q.repeated_meetings, q.max_meetings) == (3, 3, 2)
    assert (q.odd_seats_min, q.odd_seats_max) == (0, 1)
    assert q.seat_repeats == 3
    assert "3 repeated pairs" in q.summary()


# ---------------------------------------------------------------- the command


def test_the_command_prints_json_and_a_summary(capsys):
    call_command("draw_tables", players=14, rounds=3, seed="7", effort=0.3)
    out, err = capsys.readouterr()
    schedule = json.loads(out)["rounds"]
    assert len(schedule) == 3
    for tables in schedule:
        assert_seated_once(tables, range(1, 15))
    assert schedule == draw_schedule(14, 3, seed=7, effort=0.3)
    assert "repeated meetings (least possible known" in err and " s" in err
    call_command("draw_tables", players=14, rounds=3, seed="7", effort=0.3, spread="any")
    out, _err = capsys.readouterr()
    assert json.loads(out)["rounds"] == draw_schedule(14, 3, seed=7, effort=0.3, spread=None)


def test_the_command_stats(capsys, monkeypatch):
    from tournaments.management.commands import draw_tables

    monkeypatch.setattr(draw_tables, "STATS_SIZES", [(13, 3), (16, 5)])
    call_command("draw_tables", "--stats", "--effort", "0.2")
    out, _err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == "seed 0, spread 1, effort 0.2"
    assert lines[1].startswith("13 players x 3 rounds: ")
    assert "16 players x 5 rounds: 0 repeated meetings (least possible known 0)" in lines[2]
    assert lines[3].startswith("total ")


def test_the_command_round_by_round(capsys):
    call_command("draw_tables", "--players", "12", "--rounds", "2", "--incremental")
    out, err = capsys.readouterr()
    assert len(json.loads(out)["rounds"]) == 2
    assert "round by round" in err and "last round" in err


def test_the_command_refuses_too_few_players():
    with pytest.raises(CommandError):
        call_command("draw_tables", players=2, rounds=1)
    for bad in ({"spread": "0"}, {"spread": "even"}, {"effort": -1}, {}):
        with pytest.raises(CommandError):
            call_command("draw_tables", **({"players": 8, "rounds": 2} if bad else {}), **bad)


@pytest.mark.parametrize(("n", "rounds"), [(30, 6), (17, 4), (22, 5), (7, 4)])
def test_the_plan_of_the_odd_tables(n, rounds):
    """The plan seats the right number at tables of 3 and 5 each round, spreads them
    evenly, and shares them evenly between rounds (30 x 6: 2 between any two rounds)."""
    seats = sum(s for s in table_sizes(n) if s != 4)
    low, high = odd_seat_bounds(n, rounds)
    plan = draw.searches._odd_plan(n, seats, rounds, low, high, random.Random(1))
    assert [len(chosen) for chosen in plan] == [seats] * rounds
    counts = Counter(x for chosen in plan for x in chosen)
    assert all(low <= counts[x] <= high for x in range(n))
    shared = [len(a & b) for i, a in enumerate(plan) for b in plan[i + 1 :]]
    if (n, rounds) == (30, 6):
        assert shared == [2] * 15
    assert max(shared) - min(shared) <= 2


def test_the_first_draw_follows_the_plan():
    rng = random.Random(3)
    schedule = draw.searches._first_draw(22, table_sizes(22), 5, 2, 3, random.Random(3))
    plan = draw.searches._odd_plan(22, 10, 5, 2, 3, rng)
    assert [{x for t in r if len(t) == 5 for x in t} for r in schedule] == plan


def test_the_round_page_says_the_carried_over_least():
    """The round page's summary (``queries.draw_meetings``) knows the least of an evenly
    spread 18 x 5 and 22 x 5, counted from the tables as drawn, in any order."""
    from tournaments import queries

    for n, least in ((18, 14), (22, 4)):
        schedule = draw_schedule(n, 5, seed=1, effort=0.05)
        assert odd_spread(schedule, n) <= 1
        summary = queries.draw_meetings(schedule[:4], schedule[4][::-1])
        assert summary["least"] == least <= summary["repeated"]
        uneven = [schedule[0]] * 5  # the same players at the tables of 5 every round
        assert queries.draw_meetings(uneven[:4], uneven[4])["least"] == least_repeats(
            [table_sizes(n)] * 5, n
        )


def test_the_least_said_is_an_evenly_spread_draws(capsys):
    """13 x 4 with an even spread cannot do better than 22 (``EVEN_SPREAD_LEAST``): the
    command says so, not the 10 of a draw free to give one player every table of 5."""
    call_command("draw_tables", players=13, rounds=4, seed="1")
    _out, err = capsys.readouterr()
    assert "22 repeated meetings (least possible known 22)" in err
    call_command("draw_tables", players=13, rounds=4, seed="1", spread="any")
    _out, err = capsys.readouterr()
    assert "(least possible known 10)" in err


def test_a_round_drawn_for_fewer_meetings_lets_a_table_of_5_sit_again():
    """17 players: after round 1, the five of its table of 5 must spread over the
    next round's tables. Fair seats keep them off the new table of 5: they fill 3
    tables of 4 (two pairs meet again), and the new table of 5 takes 5 of the 12
    who sat at round 1's 3 tables of 4 (two pairs more): 4. For fewer meetings they
    may use the 4 tables: one pair meets again (5 players, 4 tables: the least)."""
    players = range(1, 18)
    first = draw_round(players, seed=1)
    five = next(table for table in first if len(table) == 5)

    def meetings(even_spread):
        second = draw_round(players, [first], seed=1, even_spread=even_spread)
        return quality([first, second]).repeated_meetings, second

    fair, fair_round = meetings(True)
    free, free_round = meetings(False)
    assert fair == 4 and free == 1
    assert not set(five) & set(next(t for t in fair_round if len(t) == 5))
    assert set(five) & set(next(t for t in free_round if len(t) == 5))


#: The sizes an organiser's day was reported at (players, rounds).
DAY_SIZES = [(22, 4), (17, 4), (18, 5), (21, 5), (22, 5), (13, 4)]


@pytest.mark.slow
@pytest.mark.parametrize(("n", "rounds"), DAY_SIZES, ids=lambda v: str(v))
def test_the_default_draw_is_fair_by_the_end_and_beats_a_plain_search(n, rounds):
    """The default draw (fair by the end): everybody's tables of 5 within one after the
    last round, and no more repeated meetings than the best of three plain local
    searches (``draw.plain``) under the same rule; the proved least where known."""
    from tournaments.draw.plain import plain_search

    schedule = draw_schedule(n, rounds, seed=1)
    assert odd_spread(schedule, n) <= 1
    found = quality(schedule).repeated_meetings
    plain = [plain_search(n, rounds, seed=s) for s in range(3)]
    assert all(odd_spread(p, n) <= 1 for p in plain)
    assert found <= min(quality(p).repeated_meetings for p in plain)
    assert found >= least_repeats([table_sizes(n)] * rounds, n, even_spread=True)
    if (n, rounds) in PROVED_LEAST:
        assert found == PROVED_LEAST[n, rounds]


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"players": 100_000, "rounds": 3}, "--players must be from 3 to 500"),
        ({"players": 20, "rounds": 1000}, "--rounds must be from 1 to 30"),
        ({"players": 100_000, "rounds": 3, "incremental": True}, "--players must be from 3"),
    ],
)
def test_the_command_refuses_sizes_it_cannot_hold(options, said):
    """Sizes beyond the draw's (a MemoryError once) end in one clear line, at once."""
    with pytest.raises(CommandError, match=said):
        call_command("draw_tables", **options)


def test_the_draw_refuses_sizes_it_cannot_hold():
    with pytest.raises(DrawError, match="at most 500 players"):
        table_sizes(100_000)
    with pytest.raises(DrawError, match="at most 30 rounds"):
        draw_schedule(20, 31)
