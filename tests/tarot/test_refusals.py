"""RULES.md §5: every refusal gives a ScoringError with a stable code.

Each row of ``REFUSALS`` is a JSON line (a hand, a sheet or not JSON at all), the
code it must be refused with and the field at fault. ``ENGINE_REFUSALS`` does the
same through the dataclass API. Every code in ``CODES`` must appear in a table.
"""

import json
from decimal import Decimal
from fractions import Fraction

import pytest

from tarot import (
    CODES,
    Chelem,
    Hand,
    Poignee,
    Rules,
    ScoringError,
    Sheet,
    score_hand,
    score_sheet,
)
from tarot.jsonformat import parse_hand, parse_rules, score_line

FOUR = ["Anna", "Bert", "Carl", "Dora"]
FIVE = [*FOUR, "Emil"]
DROP = object()


def hand(**changes):
    """A valid four-player hand (garde, 56 points, 2 bouts) with some fields changed."""
    data = {
        "rules": "fft",
        "players": FOUR,
        "dealer": "Dora",
        "taker": "Anna",
        "contract": "garde",
        "bouts": 2,
        "points": 56,
    }
    for key, value in changes.items():
        if value is DROP:
            data.pop(key, None)
        else:
            data[key] = value
    return json.dumps(data)


def two(**changes):
    """A valid two-player hand (Anna 56 points with 2 bouts) with some fields changed."""
    base = {"rules": "two_players", "players": ["Anna", "Bert"], "dealer": DROP, "contract": DROP}
    return hand(**{**base, **changes})


def case(line, code, field=None, id=None, hand=None):
    """A refused line, its code, the field at fault and, in a sheet, the hand number."""
    return pytest.param(line, code, field, hand, id=id or code)


REFUSALS = [
    # players
    case(
        hand(players=["Anna", "Bert"], dealer=DROP), "player_count", "players", "player_count-2-fft"
    ),
    case(hand(players=[*FIVE, "Fritz"]), "player_count", "players", "player_count-6-play"),
    case(two(players=["Anna", "Bert", "Carl"]), "player_count", "players", "player_count-3-two"),
    case(
        two(players=["Anna", "Bert", "Carl", "Dora"], sits_out="Carl"),
        "player_count",
        "players",
        "player_count-3-two-after-sitting-out",
    ),
    case(hand(players=[*FIVE, "Fritz", "Gus"], sits_out="Gus"), "seat_count", "players"),
    case(hand(players=["Anna"], dealer=DROP), "seat_count", "players", "seat_count-1"),
    case(hand(players=["Anna", "Anna", "Bert", "Carl"]), "duplicate_player", "players"),
    case(
        hand(rules={"misere": 10}, miseres=["Bert", "Bert"]),
        "duplicate_player",
        "miseres",
        "duplicate_player-misere",
    ),
    case(hand(taker="Zoe"), "player_not_at_table", "taker"),
    case(
        hand(players=FIVE, partner="Zoe"),
        "player_not_at_table",
        "partner",
        "player_not_at_table-partner",
    ),
    case(hand(sits_out="Zoe"), "player_not_at_table", "sits_out", "player_not_at_table-out"),
    case(hand(dealer="Zoe"), "player_not_at_table", "dealer", "player_not_at_table-dealer"),
    case(
        hand(poignees=[{"player": "Zoe", "size": "single"}]),
        "player_not_at_table",
        "poignees",
        "player_not_at_table-poignee",
    ),
    case(
        hand(rules={"misere": 10}, miseres=["Zoe"]),
        "player_not_at_table",
        "miseres",
        "player_not_at_table-misere",
    ),
    case(hand(players=FIVE, sits_out="Anna"), "player_sits_out", "taker"),
    case(
        hand(players=[*FIVE, "Fritz"], sits_out="Bert", partner="Bert"),
        "player_sits_out",
        "partner",
        "player_sits_out-partner",
    ),
    case(
        hand(players=FIVE, sits_out="Emil", poignees=[{"player": "Emil", "size": "single"}]),
        "player_sits_out",
        "poignees",
        "player_sits_out-poignee",
    ),
    case(
        hand(rules={"misere": 10}, players=FIVE, sits_out="Emil", miseres=["Emil"]),
        "player_sits_out",
        "miseres",
        "player_sits_out-misere",
    ),
    case(
        two(players=["Anna", "Bert", "Carl"], sits_out="Anna"),
        "player_sits_out",
        "taker",
        "player_sits_out-two",
    ),
    case(hand(partner="Bert"), "partner_not_five", "partner"),
    case(
        hand(players=FIVE, sits_out="Emil", partner="Bert"),
        "partner_not_five",
        "partner",
        "partner_not_five-five-seats-playing-four",
    ),
    case(two(partner="Bert"), "partner_not_five", "partner", "partner_not_five-two"),
    # contracts
    case(hand(contract="pousse"), "contract_unknown", "contract", "contract_unknown-pousse-fft"),
    case(
        hand(rules={"no_prise": True}, contract="prise"),
        "contract_unknown",
        "contract",
        "contract_unknown-no_prise",
    ),
    case(
        hand(rules="fixed", contract="prise"),
        "contract_unknown",
        "contract",
        "contract_unknown-prise-fixed",
    ),
    case(hand(contract=DROP), "contract_unknown", "contract", "contract_unknown-none"),
    case(hand(contract="petite"), "contract_unknown", "contract", "contract_unknown-name"),
    case(two(contract="garde"), "contract_unknown", "contract", "contract_unknown-two"),
    # bouts and points
    case(hand(bouts=4), "bouts_out_of_range", "bouts"),
    case(hand(bouts=-1), "bouts_out_of_range", "bouts", "bouts_out_of_range-negative"),
    case(hand(bouts=True), "bouts_out_of_range", "bouts", "bouts_out_of_range-bool"),
    case(hand(bouts="2"), "bouts_out_of_range", "bouts", "bouts_out_of_range-string"),
    case(hand(points=92, bouts=3), "points_out_of_range", "points"),
    case(hand(points=-1, bouts=0), "points_out_of_range", "points", "points_out_of_range-neg"),
    # a huge exponent must be refused at once, not turned into a huge integer
    case(
        '{"players": ["Anna", "Bert", "Carl", "Dora"], "taker": "Anna", "contract": "garde",'
        ' "bouts": 2, "points": 1e999999}',
        "points_out_of_range",
        "points",
        "points_out_of_range-huge-exponent",
    ),
    case(
        hand(points=41.25),
        "points_step",
        "points",
    ),
    # a half point is possible at 3, 4 and 5 players (RULES.md §1.2), not at two
    case(two(points=41.5), "half_point_impossible", "points"),
    case(
        two(players=["Anna", "Bert", "Carl"], sits_out="Carl", points=41.5),
        "half_point_impossible",
        "points",
        "half_point_impossible-two-of-three-seats",
    ),
    # a bout is worth 4.5, but the excuse counts 4 for a side without a trick
    case(hand(points=88, bouts=2), "points_bouts_inconsistent", "points"),
    case(
        hand(points=7, bouts=2),
        "points_bouts_inconsistent",
        "points",
        "points_bouts_inconsistent-low",
    ),
    case(
        hand(points=80, bouts=0),
        "points_bouts_inconsistent",
        "points",
        "points_bouts_inconsistent-0-bouts-high",
    ),
    case(
        hand(points=11, bouts=3),
        "points_bouts_inconsistent",
        "points",
        "points_bouts_inconsistent-3-bouts-low",
    ),
    case(
        hand(bouts=0, points=40, petit_au_bout="attack"),
        "petit_au_bout_inconsistent",
        "petit_au_bout",
    ),
    case(
        hand(bouts=3, petit_au_bout="defence"),
        "petit_au_bout_inconsistent",
        "petit_au_bout",
        "petit_au_bout_inconsistent-defence-3-bouts",
    ),
    case(
        two(bouts=0, points=40, petit_au_bout="attack"),
        "petit_au_bout_inconsistent",
        "petit_au_bout",
        "petit_au_bout_inconsistent-two",
    ),
    case(hand(petit_au_bout="taker"), "petit_au_bout_invalid", "petit_au_bout"),
    # poignées
    case(
        hand(poignees=[{"player": "Bert", "size": "single"}, {"player": "Bert", "size": "double"}]),
        "poignee_twice",
        "poignees",
    ),
    case(
        hand(poignees=[{"player": "Bert", "size": "quadruple"}]), "poignee_size_unknown", "poignees"
    ),
    case(
        hand(poignees=[{"player": "Bert", "size": ["single"]}]),
        "poignee_size_unknown",
        "poignees",
        "poignee_size_unknown-not-a-string",
    ),
    case(two(poignees=[{"player": "Anna", "size": "single"}]), "poignee_not_allowed", "poignees"),
    # chelem: the card points must allow it (RULES.md §5)
    # the attack's chelem leaves the defence at most the excuse: 86.5 < 87
    case(
        hand(points=86.5, bouts=3, chelem={"announced": True, "made_by": "attack"}),
        "chelem_points_inconsistent",
        "chelem",
    ),
    case(
        hand(points=56, bouts=2, chelem={"announced": False, "made_by": "attack"}),
        "chelem_points_inconsistent",
        "chelem",
        "chelem_points_inconsistent-unannounced",
    ),
    # the defence's chelem leaves the attack at most the excuse: 4 points, 1 bout
    case(
        hand(points=4.5, bouts=1, chelem={"announced": False, "made_by": "defence"}),
        "chelem_points_inconsistent",
        "chelem",
        "chelem_points_inconsistent-defence-4.5",
    ),
    case(
        hand(points=8, bouts=2, chelem={"announced": True, "made_by": "defence"}),
        "chelem_points_inconsistent",
        "chelem",
        "chelem_points_inconsistent-defence-2-bouts",
    ),
    # two players: the recorded player is the attack
    case(
        two(points=80, bouts=3, chelem={"announced": False, "made_by": "attack"}),
        "chelem_points_inconsistent",
        "chelem",
        "chelem_points_inconsistent-two",
    ),
    # chelem
    case(hand(chelem={"announced": "yes", "made_by": "attack"}), "chelem_invalid", "chelem"),
    case(
        hand(chelem={"announced": True, "made_by": "taker"}),
        "chelem_invalid",
        "chelem",
        "chelem_invalid-made_by",
    ),
    case(hand(chelem=True), "chelem_invalid", "chelem", "chelem_invalid-not-an-object"),
    case(
        hand(chelem={"announced": True, "by": "attack"}),
        "chelem_invalid",
        "chelem",
        "chelem_invalid-unknown-key",
    ),
    case(
        hand(rules="contre5", petit_chelem={"announced": 1, "made_by": None}),
        "chelem_invalid",
        "petit_chelem",
        "chelem_invalid-petit-chelem",
    ),
    case(
        hand(petit_chelem={"announced": True, "made_by": "attack"}),
        "petit_chelem_not_scored",
        "petit_chelem",
    ),
    case(
        two(petit_chelem={"announced": False, "made_by": "attack"}),
        "petit_chelem_not_scored",
        "petit_chelem",
        "petit_chelem_not_scored-two",
    ),
    case(hand(miseres=["Bert"]), "misere_not_allowed", "miseres"),
    case(hand(rules="mouches", dealer=DROP), "dealer_required", "dealer"),
    case(
        hand(rules="mouches", dealer=None, taker=None),
        "dealer_required",
        "dealer",
        "dealer_required-passed",
    ),
    # rules
    case(hand(rules="belote"), "rules_invalid", "rules"),
    case(hand(rules={"preset": "fft", "rounding": 3}), "rules_invalid", "rounding", "rounding-3"),
    case(
        hand(rules={"rounding": 5.0}),
        "rules_invalid",
        "rounding",
        "rules_invalid-rounding-5.0",
    ),
    case(
        hand(rules={"rounding": True}), "rules_invalid", "rounding", "rules_invalid-rounding-true"
    ),
    case(hand(rules={"poignee": [10, 20]}), "rules_invalid", "poignee", "rules_invalid-poignee"),
    case(hand(rules={"poignee": 20}), "rules_invalid", "poignee", "rules_invalid-poignee-number"),
    case(
        hand(rules={"poignee": [10, 20, -40]}),
        "rules_invalid",
        "poignee",
        "rules_invalid-poignee-negative",
    ),
    case(hand(rules={"misere": -10}), "rules_invalid", "misere", "rules_invalid-misere"),
    case(hand(rules={"ante": 2.5}), "rules_invalid", "ante", "rules_invalid-ante"),
    case(
        hand(rules={"dealer_stake": "5"}),
        "rules_invalid",
        "dealer_stake",
        "rules_invalid-dealer_stake",
    ),
    case(hand(rules={"no_prise": "yes"}), "rules_invalid", "no_prise", "rules_invalid-no_prise"),
    case(
        hand(rules={"five_player_split": "thirds"}),
        "rules_invalid",
        "five_player_split",
        "rules_invalid-split",
    ),
    case(hand(rules={"preset": 3}), "rules_invalid", "rules", "rules_invalid-preset-number"),
    case(hand(rules={"house": 1}), "rules_invalid", "rules", "rules_invalid-unknown-option"),
    case(hand(rules=[1]), "rules_invalid", "rules", "rules_invalid-list"),
    # shape of the input
    case(hand(trumps=13), "invalid_field", "trumps"),
    case(hand(players="Anna, Bert"), "invalid_field", "players", "invalid_field-players"),
    case(hand(players=["Anna", ""]), "invalid_field", "players", "invalid_field-empty-name"),
    case(hand(taker=5), "invalid_field", "taker", "invalid_field-taker"),
    case(hand(contract=2), "invalid_field", "contract", "invalid_field-contract"),
    case(hand(bouts=DROP), "invalid_field", "bouts", "invalid_field-bouts-missing"),
    case(hand(points="forty"), "invalid_field", "points", "invalid_field-points"),
    case(hand(points=DROP), "invalid_field", "points", "invalid_field-points-missing"),
    case(hand(petit_au_bout=1), "invalid_field", "petit_au_bout", "invalid_field-pab"),
    case(hand(poignees={"Bert": "single"}), "invalid_field", "poignees", "invalid_field-poignees"),
    case(
        hand(poignees=[{"player": "Bert"}]),
        "invalid_field",
        "poignees",
        "invalid_field-poignee-shape",
    ),
    case(hand(miseres="Bert"), "invalid_field", "miseres", "invalid_field-miseres"),
    case(
        json.dumps({"players": FOUR, "hands": {"taker": "Anna"}}),
        "invalid_field",
        "hands",
        "invalid_field-hands",
    ),
    case(
        json.dumps({"players": FOUR, "hands": [[]]}),
        "invalid_field",
        "hand",
        "invalid_field-hand-not-object",
        hand=1,
    ),
    case(
        json.dumps({"players": FOUR, "hands": [{"players": FOUR[:3]}]}),
        "invalid_field",
        "players",
        "invalid_field-sheet-hand-players",
        hand=1,
    ),
    case(
        json.dumps({"players": FOUR, "hands": [{"rules": "fft"}]}),
        "invalid_field",
        "rules",
        "invalid_field-sheet-hand-rules",
        hand=1,
    ),
    case("not json", "json_invalid"),
    case("", "json_invalid", id="json_invalid-blank"),
    case("[1, 2]", "json_invalid", id="json_invalid-array"),
    case('{"players": ["Anna"', "json_invalid", id="json_invalid-truncated"),
    case("[" * 100_000 + "]" * 100_000, "json_invalid", id="json_invalid-deep"),
]


@pytest.mark.parametrize(("line", "code", "field", "number"), REFUSALS)
def test_refusal(line, code, field, number):
    result = score_line(line)
    assert set(result) == {"error"}
    error = result["error"]
    assert error["code"] == code, error
    assert error.get("field") == field, error
    assert error["message"]
    assert error.get("hand") == number
    json.dumps(result)  # the error object is itself valid JSON


# Refusals through the dataclass API (what the web forms call).
FOUR_T = tuple(FOUR)


def _hand(**fields):
    base = {"players": FOUR_T, "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
    return Hand(**{**base, **fields})


ENGINE_REFUSALS = [
    pytest.param(Rules(), _hand(points=Fraction(83, 4)), "points_step", "points", id="fraction"),
    pytest.param(Rules(), _hand(points="56"), "invalid_field", "points", id="points-string"),
    pytest.param(Rules(), _hand(points=None), "invalid_field", "points", id="points-none"),
    pytest.param(Rules(), _hand(points=True), "invalid_field", "points", id="points-bool"),
    pytest.param(Rules(), _hand(points=float("nan")), "invalid_field", "points", id="points-nan"),
    pytest.param(
        Rules(), _hand(points=Decimal("NaN")), "invalid_field", "points", id="points-decimal-nan"
    ),
    pytest.param(
        Rules(), _hand(points=float("inf")), "points_out_of_range", "points", id="points-inf"
    ),
    pytest.param(Rules(), _hand(bouts=2.0), "bouts_out_of_range", "bouts", id="bouts-float"),
    pytest.param(
        Rules(),
        _hand(chelem=Chelem(True, "both")),
        "chelem_invalid",
        "chelem",
        id="chelem-made_by",
    ),
    pytest.param(
        Rules(),
        _hand(poignees=(Poignee("Bert", None),)),
        "poignee_size_unknown",
        "poignees",
        id="poignee-size-none",
    ),
    pytest.param(
        Rules("fixed"),
        _hand(contract="prise"),
        "contract_unknown",
        "contract",
        id="fixed-has-no-prise",
    ),
]


@pytest.mark.parametrize(("rules", "hand_", "code", "field"), ENGINE_REFUSALS)
def test_engine_refusal(rules, hand_, code, field):
    with pytest.raises(ScoringError) as caught:
        score_hand(rules, hand_)
    assert caught.value.code == code
    assert caught.value.field == field
    assert caught.value.hand is None


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"preset": "belote"}, "rules"),
        ({"rounding": 2}, "rounding"),
        ({"rounding": 5.0}, "rounding"),
        ({"rounding": True}, "rounding"),
        ({"poignee": (20, 30)}, "poignee"),
        ({"poignee": (20, 30, 40.0)}, "poignee"),
        ({"misere": True}, "misere"),
        ({"ante": -1}, "ante"),
        ({"dealer_stake": 0.5}, "dealer_stake"),
        ({"no_prise": 1}, "no_prise"),
        ({"five_player_split": "half"}, "five_player_split"),
    ],
)
def test_rules_refusal(options, field):
    with pytest.raises(ScoringError) as caught:
        Rules(**options)
    assert caught.value.code == "rules_invalid"
    assert caught.value.field == field


def test_sheet_refusal_names_the_hand():
    sheet = {
        "rules": "fft",
        "players": FOUR,
        "hands": [
            {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56},
            {"taker": "Bert", "contract": "garde", "bouts": 2, "points": 88},
        ],
    }
    assert score_line(json.dumps(sheet))["error"]["hand"] == 2
    assert score_line(json.dumps(sheet))["error"]["code"] == "points_bouts_inconsistent"
    sheet["hands"].append({"taker": "Carl", "contract": "garde", "bouts": 2, "points": "x"})
    error = score_line(json.dumps(sheet))["error"]
    # parsing comes first: hand 3's shape is refused before hand 2 is scored
    assert (error["code"], error["field"], error["hand"]) == ("invalid_field", "points", 3)


def test_engine_sheet_refusal_names_the_hand():
    rules = Rules("mouches")
    hands = (
        Hand(players=FOUR_T, dealer="Dora"),
        Hand(players=FOUR_T, dealer="Anna"),
        Hand(players=FOUR_T),
    )
    with pytest.raises(ScoringError) as caught:
        score_sheet(Sheet(rules, FOUR_T, hands))
    assert (caught.value.code, caught.value.hand) == ("dealer_required", 3)
    assert caught.value.as_dict()["error"]["hand"] == 3


def test_parse_refuses_before_scoring():
    with pytest.raises(ScoringError) as caught:
        parse_hand({"players": FOUR, "taker": "Anna", "contract": "garde", "bouts": 2})
    assert (caught.value.code, caught.value.field) == ("invalid_field", "points")
    with pytest.raises(ScoringError) as caught:
        parse_rules({"preset": "fft", "poignee": "20/30/40"})
    assert (caught.value.code, caught.value.field) == ("rules_invalid", "poignee")


def test_every_code_is_exercised():
    """A new code in CODES without a row in a refusal table fails here."""
    from tests.tarot.test_savoyard import SAVOYARD_REFUSALS

    exercised = {p.values[1] for p in REFUSALS} | {p.values[2] for p in ENGINE_REFUSALS}
    exercised |= {p.values[1] for p in SAVOYARD_REFUSALS}
    assert exercised == set(CODES)


def test_codes_are_documented():
    for code, meaning in CODES.items():
        assert code == code.lower() and " " not in code
        assert meaning
