"""The engine's structure: the registry, the deck, the result's fields, the one
random-hand generator, and the public names the Django apps use."""

import ast
import dataclasses
import random
from decimal import Decimal
from pathlib import Path

import pytest

import tarot as scoring
from tarot import (
    CHELEM_OUTCOMES,
    PRESETS,
    REGISTRY,
    ROLES,
    TAROT,
    Chelem,
    Hand,
    HandResult,
    Rules,
    ScoringError,
    get_ruleset,
    score_hand,
    validate_hand,
)
from tarot.engine import TARGET_HALVES, TARGETS
from tarot.randomhands import BENCH, DEMO, EXTRAS, THOROUGH, random_hand
from tarot.rulesets import TAROT_PRESETS
from tarot.rulesets.base import Ruleset

ENGINE = Path(scoring.__file__).parent
FOUR = ("Anna", "Bert", "Carl", "Dora")
FIVE = (*FOUR, "Emil")


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield ("." * node.level) + (node.module or "")


def test_the_engine_never_imports_django():
    for path in ENGINE.rglob("*.py"):
        assert not any(m.startswith("django") for m in _imports(path)), path


def test_explain_does_not_import_the_engine():
    assert ".engine" not in set(_imports(ENGINE / "explain.py"))
    assert ".explain" not in set(_imports(ENGINE / "result.py"))


def test_registry_holds_every_preset_in_order():
    assert PRESETS == ("fft", "pousse", "contre5", "fixed", "mouches", "two_players", "savoyard")
    assert PRESETS[:-1] == TAROT_PRESETS
    for name in PRESETS:
        ruleset = get_ruleset(name)
        assert isinstance(ruleset, Ruleset)
        assert ruleset.name == name
        assert Rules(name).ruleset is ruleset is REGISTRY[name]
    for name in TAROT_PRESETS:
        assert get_ruleset(name).deck is TAROT
    assert Rules("mouches").has_pools and not Rules("fft").has_pools
    assert Rules("contre5").scores_petit_chelem and not Rules("pousse").scores_petit_chelem
    assert REGISTRY["two_players"].player_counts == (2,)
    assert Rules("fixed").contracts == ("garde", "garde_sans", "garde_contre")
    with pytest.raises(ScoringError):
        Rules("savoyard 1902")


def test_the_registry_states_the_facts_the_web_layer_asks():
    """Outside the engine nobody compares a preset's name: they ask these."""
    kinds = {name: REGISTRY[name].kind for name in PRESETS}
    assert kinds == dict.fromkeys(TAROT_PRESETS, "tarot") | {"savoyard": "savoyard"}
    assert [name for name in PRESETS if REGISTRY[name].heads_up] == ["two_players"]
    assert Rules("two_players").heads_up and not Rules("fft").heads_up
    assert Rules("savoyard").kind == "savoyard" and Rules("mouches").kind == "tarot"
    # who sits out at a table of one more: the dealer, or the player before him
    seats = {name: REGISTRY[name].sits_out_seat for name in PRESETS}
    assert seats == dict.fromkeys(TAROT_PRESETS, 0) | {"savoyard": -1}
    assert [name for name in PRESETS if 3 not in REGISTRY[name].player_counts] == ["two_players"]
    assert [name for name in PRESETS if not REGISTRY[name].has_poignees] == [
        "two_players",
        "savoyard",
    ]


def test_rules_are_unchanged_by_the_ruleset_field():
    assert Rules() == Rules("fft")
    assert hash(Rules()) == hash(Rules("fft"))
    assert Rules(rounding=5).as_dict() == {"preset": "fft", "rounding": 5}


def test_deck_numbers_as_plain_data():
    assert TARGETS == (56, 51, 41, 36) and TARGET_HALVES == (112, 102, 82, 72)
    data = TAROT.as_dict()
    assert data["total"] == 91
    assert data["targets"] == [56, 51, 41, 36]
    # a bout brings at least 4 (the excuse to a side without a trick): 4b to 91 − 4(3 − b)
    assert data["points_range"] == [[0, 79], [4, 83], [8, 87], [12, 91]]
    assert data["half_points_at"] == [3, 4, 5]
    assert data["chelem"] == {
        "attack": {"min_points": 87},
        "defence": {"max_points": 4, "max_bouts": 1},
    }
    assert TAROT.half_point_allowed(4) and not TAROT.half_point_allowed(2)
    described = Rules("fft", no_prise=True).describe()
    assert described["contracts"] == ["garde", "garde_sans", "garde_contre"]
    assert described["deck"] == data
    assert described["player_counts"] == [3, 4, 5]


def test_the_explanation_is_the_rulesets_choice():
    assert [REGISTRY[p].explanation for p in PRESETS] == [
        "base",
        "base",
        "base",
        "flat",
        "no_base",
        "two_players",
        "savoyard",
    ]


def test_roles_at_five_with_one_sitting_out():
    hand = Hand(
        players=(*FIVE, "Fritz"),
        sits_out="Fritz",
        taker="Carl",
        partner="Anna",
        contract="garde",
        bouts=2,
        points=56,
    )
    result = score_hand(Rules(), hand)
    assert result.roles == ("partner", "defender", "taker", "defender", "defender", "sits_out")
    assert result.role("Carl") == "taker"
    assert set(result.roles) <= set(ROLES)
    passed = score_hand(Rules(), Hand(players=FIVE, sits_out="Emil"))
    assert passed.roles == ("passed",) * 4 + ("sits_out",)
    assert passed.card_margin is None


def test_margins_under_fixed_differ():
    # fixed, 3 players, 55.5 with 2 bouts: points − target = 14.5 (29 halves); the card
    # margin, half point to the winner, is 15; the scoring margin is rounded to 20
    hand = Hand(players=FOUR[:3], taker="Anna", contract="garde", bouts=2, points=Decimal("55.5"))
    result = score_hand(Rules("fixed"), hand)
    assert (result.margin_halves, result.card_margin, result.margin) == (29, 15, 20)
    assert result.scoring_margin == 20


CHELEM_CASES = [
    (None, "none"),
    (Chelem(False, None), "none"),
    (Chelem(True, "attack"), "announced_made"),
    (Chelem(True, None), "announced_failed"),
    (Chelem(False, "attack"), "unannounced_made"),
    (Chelem(False, "defence"), "defence"),
    (Chelem(True, "defence"), "announced_defence"),
]


@pytest.mark.parametrize(("chelem", "outcome"), CHELEM_CASES)
def test_chelem_outcome(chelem, outcome):
    made_by = chelem.made_by if chelem else None
    points, bouts = {"attack": (91, 3), "defence": (0, 0), None: (56, 2)}[made_by]
    hand = Hand(
        players=FOUR, taker="Anna", contract="garde", bouts=bouts, points=points, chelem=chelem
    )
    assert score_hand(Rules(), hand).chelem_outcome == outcome
    assert outcome in CHELEM_OUTCOMES


def test_results_are_keyword_built_and_complete():
    with pytest.raises(TypeError):
        HandResult((), (), "passed")  # keywords only
    rng = random.Random(4)
    for preset in PRESETS:
        rules = Rules(preset, misere=10) if preset in TAROT_PRESETS else Rules(preset)
        players = FOUR[:2] if preset == "two_players" else FOUR
        for _ in range(50):
            hand = random_hand(rng, rules, players, None, "Anna", THOROUGH)
            result = score_hand(rules, hand)
            values = {f.name: getattr(result, f.name) for f in dataclasses.fields(result)}
            rebuilt = HandResult(**values)
            assert rebuilt == result
            assert rebuilt.explanation == result.explanation


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("profile", [BENCH, DEMO, THOROUGH], ids=["bench", "demo", "thorough"])
def test_the_generator_makes_valid_hands_at_every_table(preset, profile):
    rng = random.Random(preset)
    names = ("A", "B", "C", "D", "E", "F")
    variants = (Rules(preset), Rules(preset, misere=10)) if preset in TAROT_PRESETS else ()
    for rules in variants or [Rules(preset, options=o) for o in REGISTRY[preset].option_variants()]:
        for n in rules.ruleset.player_counts:
            for seats in (n, n + 1):
                players = names[:seats]
                for _ in range(60):
                    out = players[rng.randrange(seats)] if seats > n else None
                    hand = random_hand(rng, rules, players, out, None, profile)
                    validate_hand(rules, hand)
                    score_hand(rules, hand, (10,) if rules.has_pools else ())


def test_the_generator_forces_every_extra():
    rng = random.Random(1)
    rules = Rules(misere=10)
    for extra in EXTRAS:
        for _ in range(20):
            hand = random_hand(rng, rules, FOUR, None, "Dora", DEMO, (extra,))
            score_hand(rules, hand)
            if extra == "passed":
                assert hand.taker is None
            elif extra.startswith("petit_au_bout_"):
                assert hand.petit_au_bout == extra.rsplit("_", 1)[1]
            elif extra.startswith("poignee_"):
                assert hand.poignees[0].size == extra.rsplit("_", 1)[1]
            elif extra == "chelem_defence":
                assert hand.chelem == Chelem(False, "defence")
            elif extra.startswith("chelem_"):
                assert hand.chelem.made_by == "attack"
            else:
                assert hand.miseres


def test_the_generator_is_reproducible():
    rules = Rules("contre5")
    first = [random_hand(random.Random(9), rules, FIVE) for _ in range(3)]
    assert first[0] == first[1] == first[2]
