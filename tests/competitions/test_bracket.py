"""The cup's bracket (``competitions/bracket.py``)."""

import pytest

from competitions.bracket import Bracket, draw_bracket, seed_order

TEAMS = [f"S{i}" for i in range(1, 12)]  # S1 is seed 1 … S11 seed 11


def champion(bracket, winners):
    """The final's winner (or the side it went to without play)."""
    final = bracket.rounds(winners)[-1][0]
    winner = winners.get(final.key)
    return final.decided_without_play if winner is None else winner


def test_seed_order():
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    with pytest.raises(ValueError):
        seed_order(6)


def test_eleven_teams_by_hand():
    # 16 places, 5 byes for seeds 1–5. Top to bottom the seeds are
    # 1 16 | 8 9 | 4 13 | 5 12 | 2 15 | 7 10 | 3 14 | 6 11; seeds 12–16 are empty.
    bracket = draw_bracket(TEAMS)
    first, second, semis, final = bracket.rounds()
    assert [(t.top, t.bottom, t.bye) for t in first] == [
        ("S1", None, True),
        ("S8", "S9", False),
        ("S4", None, True),
        ("S5", None, True),
        ("S2", None, True),
        ("S7", "S10", False),
        ("S3", None, True),
        ("S6", "S11", False),
    ]
    # the byes are through; the other ties wait for their winners
    assert [(t.top, t.bottom) for t in second] == [
        ("S1", None),
        ("S4", "S5"),
        ("S2", None),
        ("S3", None),
    ]
    winners = {"1-1": "S9", "1-5": "S7", "1-7": "S11"}
    second = bracket.rounds(winners)[1]
    assert [(t.top, t.bottom) for t in second] == [
        ("S1", "S9"),
        ("S4", "S5"),
        ("S2", "S7"),
        ("S3", "S11"),
    ]
    winners |= {"2-0": "S9", "2-1": "S4", "2-2": "S2", "2-3": "S3"}
    winners |= {"3-0": "S4", "3-1": "S2", "4-0": "S4"}
    assert [(t.top, t.bottom) for t in bracket.rounds(winners)[3]] == [("S4", "S2")]
    assert champion(bracket, winners) == "S4"
    assert len(semis) == 2 and len(final) == 1


def test_a_winner_who_did_not_play_the_tie_is_refused():
    with pytest.raises(ValueError):
        draw_bracket(TEAMS).rounds({"1-1": "S1"})


def test_the_random_draw_is_reproducible_and_keeps_the_seeds():
    one = draw_bracket(TEAMS, seeded=4, seed=7)
    assert one == draw_bracket(TEAMS, seeded=4, seed=7)
    others = {draw_bracket(TEAMS, seeded=4, seed=s).places for s in range(10)}
    assert len(others) > 1  # the seed changes the draw
    for places in others:  # seeds 1–4 keep their places; byes stay with seeds 1–5
        assert [places[i] for i in (0, 8, 12, 4)] == ["S1", "S2", "S3", "S4"]
        assert set(places) - {None} == set(TEAMS) and places.count(None) == 5
    fully_random = draw_bracket(TEAMS, seeded=0, seed=3)
    assert set(fully_random.places) - {None} == set(TEAMS)


@pytest.mark.parametrize("count", range(2, 33))
def test_every_size_has_one_champion_and_byes_only_in_round_one(count):
    teams = list(range(count))
    bracket = draw_bracket(teams)
    winners = {}
    for number in range(bracket.round_count):  # the top side always wins
        for tie in bracket.rounds(winners)[number]:
            if not tie.bye:
                winners[tie.key] = tie.top
    assert champion(bracket, winners) == 0
    rounds = bracket.rounds(winners)
    assert all(not tie.bye for later in rounds[1:] for tie in later)
    assert sum(tie.bye for tie in rounds[0]) == bracket.size - count


def test_bracket_needs_teams():
    with pytest.raises(ValueError):
        draw_bracket(["A"])
    assert Bracket(("A", "B")).rounds()[0][0].key == "1-0"
