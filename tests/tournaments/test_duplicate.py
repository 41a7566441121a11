"""The duplicate commands (DUPLICATE.md §5, §6): score_duplicate's ranking, séries and
teams, its refusals, and the movements duplicate_movement prints."""

import itertools
import json
from collections import Counter
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.duplicate import movement as movement_module
from tournaments.duplicate.movement import movement

SEATS_T1 = {"N": "Anna", "E": "Bert", "S": "Carl", "W": "Dora"}
SEATS_T2 = {"N": "Emil", "E": "Fred", "S": "Gina", "W": "Hugo"}
GARDE_DOWN = {
    "taker": "Bert",
    "contract": "garde",
    "bouts": 1,
    "points": 45,
}  # −(25+6)×2… see below
PRISE_MADE = {"taker": "Fred", "contract": "prise", "bouts": 2, "points": 45}


def run(*events):
    out = StringIO()
    lines = "".join((json.dumps(e) if not isinstance(e, str) else e) + "\n" for e in events)
    call_command("score_duplicate", stdin=StringIO(lines), stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def event(method="matchpoints", **extra):
    # Deal 1 at two tables, East takes both times:
    # table 1: garde, 1 bout, 45 points (target 51): lost by 6 → (25 + 6) × 2 = 62 per
    #   defender: N, S, W +62, E −186;
    # table 2: prise, 2 bouts, 45 points (target 41): made by 4 → 25 + 4 = 29 per
    #   defender: N, S, W −29, E +87.
    # Matchpoints (top 2): table 1 N, S, W 100 %, E 0 %; table 2 N, S, W 0 %, E 100 %.
    return {
        "rules": "fft",
        "method": method,
        "results": [
            {"deal": 1, "table": 1, "seats": SEATS_T1, "hand": GARDE_DOWN},
            {"deal": 1, "table": 2, "seats": SEATS_T2, "hand": PRISE_MADE},
        ],
        **extra,
    }


def test_score_duplicate_ranks_with_shared_ranks_and_writes_every_seat():
    (result,) = run(event())
    assert result["ranking"] == [
        {"rank": 1, "player": "Anna", "score": 100, "deals": 1},
        {"rank": 1, "player": "Carl", "score": 100, "deals": 1},
        {"rank": 1, "player": "Dora", "score": 100, "deals": 1},
        {"rank": 1, "player": "Fred", "score": 100, "deals": 1},
        {"rank": 5, "player": "Bert", "score": 0, "deals": 1},
        {"rank": 5, "player": "Emil", "score": 0, "deals": 1},
        {"rank": 5, "player": "Gina", "score": 0, "deals": 1},
        {"rank": 5, "player": "Hugo", "score": 0, "deals": 1},
    ]
    first = result["deals"][0]
    assert first == {
        "deal": 1,
        "table": 1,
        "seat": "N",
        "player": "Anna",
        "marque": 62,
        "score": 100,
    }
    assert [d["marque"] for d in result["deals"][4:]] == [-29, 87, -29, -29]


def test_score_duplicate_average_series_and_teams():
    # Average: seat N mean (62 − 29) / 2 = 16.5: Anna +45.5, Emil −45.5; seat E mean
    # (−186 + 87) / 2 = −49.5: Bert −136.5, Fred +136.5.
    # Série "Open" = Bert, Emil, Fred: Fred 136.5 (1), Emil −45.5 (2), Bert −136.5 (3).
    # Teams (sum under average): "Nord" Anna + Emil = 0; "Est" Bert + Fred = 0 → tie;
    # "Sud" Carl + Gina = 45.5 − 45.5 = 0 too: all three share rank 1.
    (result,) = run(
        event(
            "average",
            series={"Bert": "Open", "Emil": "Open", "Fred": "Open", "Anna": "Promotion"},
            teams={"Nord": ["Anna", "Emil"], "Est": ["Bert", "Fred"], "Sud": ["Carl", "Gina"]},
        )
    )
    scores = {row["player"]: row["score"] for row in result["ranking"]}
    assert scores["Anna"] == 45.5 and scores["Emil"] == -45.5
    assert scores["Fred"] == 136.5 and scores["Bert"] == -136.5
    assert [(r["rank"], r["player"]) for r in result["series"]["Open"]] == [
        (1, "Fred"),
        (2, "Emil"),
        (3, "Bert"),
    ]
    assert [(r["rank"], r["player"]) for r in result["series"]["Promotion"]] == [(1, "Anna")]
    assert [(r["rank"], r["team"], r["score"]) for r in result["teams"]] == [
        (1, "Est", 0),
        (1, "Nord", 0),
        (1, "Sud", 0),
    ]


def test_team_ranking_under_matchpoints_is_the_mean():
    # Matchpoints: "AB" = Anna 100 and Bert 0 → 50; "AC" = Carl 100, Dora 100 → 100.
    (result,) = run(event(teams={"AB": ["Anna", "Bert"], "CD": ["Carl", "Dora"]}))
    assert [(r["rank"], r["team"], r["score"]) for r in result["teams"]] == [
        (1, "CD", 100),
        (2, "AB", 50),
    ]


@pytest.mark.parametrize(
    "mutate, code",
    [
        (lambda e: e["results"][0]["seats"].update({"O": "Zoé"}), "seat_unknown"),
        (lambda e: e["results"][0]["seats"].pop("W"), "seats_incomplete"),
        (lambda e: e["results"][1]["seats"].update({"N": "Anna"}), "player_twice"),
        (lambda e: e["results"][1].update({"table": 1}), "deal_twice"),
        (lambda e: e.update({"method": "butler"}), "method_unknown"),
        (lambda e: e["results"][0]["hand"].update({"bouts": 5}), "bouts_out_of_range"),
    ],
)
def test_score_duplicate_refusals_one_line_each(mutate, code):
    bad = json.loads(json.dumps(event()))
    mutate(bad)
    refused, fine, blank = run(bad, event(), "")
    assert refused["error"]["code"] == code
    assert "ranking" in fine
    assert blank["error"]["code"] == "json_invalid"


def test_the_engine_refusal_names_the_deal_and_table():
    bad = event()
    bad["results"][1]["hand"] = {**PRISE_MADE, "points": 92}
    (refused,) = run(bad)
    assert refused["error"]["code"] == "points_out_of_range"
    assert (refused["error"]["deal"], refused["error"]["table"]) == (1, 2)


# ------------------------------------------------------------------ movements


def meetings_and_check(tables, rounds, printed):
    """Check §6 on a printed movement; the repeated meetings it has."""
    assert len(printed["rounds"]) == rounds
    orientation, sets_played, met = {}, set(), Counter()
    for seating in printed["rounds"]:
        assert sorted(t["table"] for t in seating) == list(range(1, tables + 1))
        assert sorted(t["set"] for t in seating) == list(range(1, tables + 1))
        seated = [p for t in seating for p in t["seats"]]
        assert sorted(seated) == list(range(1, 4 * tables + 1))
        for table in seating:
            for seat, player in enumerate(table["seats"]):
                assert orientation.setdefault(player, seat) == seat
                assert (player, table["set"]) not in sets_played
                sets_played.add((player, table["set"]))
            for pair in itertools.combinations(sorted(table["seats"]), 2):
                met[pair] += 1
    return sum(count - 1 for count in met.values())


def print_movement(tables, rounds):
    out = StringIO()
    call_command("duplicate_movement", tables=tables, rounds=rounds, stdout=out)
    return json.loads(out.getvalue())


@pytest.fixture
def short_search(monkeypatch):
    """The search with a small budget (its rules hold for any budget), and no movement
    cached from it for the tests after."""
    monkeypatch.setattr(movement_module, "SEARCH_BUDGET", 20_000)
    movement.cache_clear()
    yield
    movement.cache_clear()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.integers(3, 30).flatmap(lambda t: st.tuples(st.just(t), st.integers(1, t))))
def test_every_printed_movement_meets_the_contract(short_search, size):
    tables, rounds = size
    printed = print_movement(tables, rounds)
    assert meetings_and_check(tables, rounds, printed) == printed["repeated"]


@pytest.mark.parametrize(
    "tables, rounds, cyclic, at_most",
    [(6, 6, 132, 60), (6, 5, 96, 0), (4, 4, 56, 40), (12, 6, 84, 10)],
)
def test_the_search_improves_on_the_best_cyclic_movement(tables, rounds, cyclic, at_most):
    # ``cyclic``: the fewest repeated meetings of a playable cyclic movement (what
    # ``duplicate_movement`` printed before the search); the search, with its real
    # budget, finds a playable movement with far fewer
    assert at_most < cyclic
    printed = print_movement(tables, rounds)
    assert meetings_and_check(tables, rounds, printed) == printed["repeated"] <= at_most


def test_each_table_passes_its_set_to_the_table_that_plays_it_next():
    chosen = movement(6, 4)
    for round_ in range(3):
        following = {set_: table for table, set_, _ in chosen.seating(round_ + 1)}
        passes = chosen.passes(round_)
        for table, set_, _ in chosen.seating(round_):
            assert passes[table] == following[set_]
    assert set(chosen.passes(3).values()) == {None}  # after the last round, nowhere


@pytest.mark.parametrize("tables", [5, 7, 8, 9, 11, 13, 16])
def test_nobody_meets_twice_on_prime_and_prime_power_table_counts(tables):
    printed = print_movement(tables, tables)
    assert meetings_and_check(tables, tables, printed) == 0


def test_a_movement_needs_a_set_per_round():
    with pytest.raises(CommandError, match="sets"):
        print_movement(4, 5)
    assert movement(4, 4).repeated > 0  # four tables cannot avoid meetings, and say so


def _counted(plan) -> int:
    """Repeated meetings of a plan, pair by pair: meetings beyond each pair's first."""
    met = Counter()
    for tables in plan:
        for _set, seats in tables:
            for pair in itertools.combinations(sorted(seats), 2):
                met[pair] += 1
    return sum(count - 1 for count in met.values())


@pytest.mark.parametrize("tables", [3, 4, 6, 7, 8, 10, 12, 15])
def test_count_repeats_is_the_cyclic_movements_own_count(tables):
    """``count_repeats`` (the closed form the choice between cyclic movements rests on)
    gives, for every choice of shifts and every number of rounds, the repeated meetings
    counted pair by pair in the movement those shifts make."""
    ring = movement_module.Ring.integers(tables)
    for rounds in range(1, tables + 1):
        for rest in itertools.combinations_with_replacement(range(tables), 3):
            shifts = (0, *rest)
            plan = movement_module._cyclic_plan(tables, rounds, shifts, 1, ring)
            assert movement_module.count_repeats(shifts, tables, rounds) == _counted(plan), (
                shifts,
                rounds,
            )


def test_the_movement_chosen_has_the_repeats_it_says():
    """The movement made (cyclic or searched) says its repeated meetings right."""
    for tables, rounds in [(4, 3), (6, 5), (7, 7), (10, 6), (12, 8)]:
        chosen = movement(tables, rounds)
        assert chosen.repeated == _counted(chosen.plan)


@pytest.mark.parametrize(
    ("tables", "rounds"), [(99_999_999_999, 3), (1000, 1000), (101, 3), (40, 31)]
)
def test_the_movement_refuses_sizes_it_cannot_hold(tables, rounds):
    """Beyond 100 tables or 30 rounds, one clear line at once (a MemoryError, or minutes
    of search, once)."""
    with pytest.raises(CommandError, match="at most 100 tables and 30 rounds"):
        print_movement(tables, rounds)
