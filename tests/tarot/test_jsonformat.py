"""The JSON interchange format (HAND_FORMAT.md): parsing, writing, round trips."""

import json
from decimal import Decimal

import pytest

from tarot import Chelem, Hand, Poignee, Rules, Sheet, score_hand
from tarot.jsonformat import (
    hand_result_dict,
    hand_to_dict,
    loads,
    number,
    parse_hand,
    parse_rules,
    parse_sheet,
    score_line,
)

FOUR = ["Anna", "Bert", "Carl", "Dora"]
FIVE = [*FOUR, "Emil"]

# The example hand of HAND_FORMAT.md: garde 56/2 is 80, + 20 for Bert's poignée
# (to the attack, which wins): 100 per defender.
FORMAT_EXAMPLE = """{"rules": "fft",
 "players": ["Anna", "Bert", "Carl", "Dora"],
 "dealer": "Dora",
 "taker": "Anna", "contract": "garde",
 "bouts": 2, "points": 56,
 "petit_au_bout": null,
 "poignees": [{"player": "Bert", "size": "single"}],
 "chelem": null}"""


def test_parse_the_format_example():
    rules, hand = parse_hand(loads(FORMAT_EXAMPLE))
    assert rules == Rules("fft")
    assert hand == Hand(
        players=tuple(FOUR),
        dealer="Dora",
        taker="Anna",
        contract="garde",
        bouts=2,
        points=56,
        poignees=(Poignee("Bert", "single"),),
    )


def test_score_the_format_example():
    assert score_line(FORMAT_EXAMPLE.replace("\n", "")) == {
        "scores": {"Anna": 300, "Bert": -100, "Carl": -100, "Dora": -100}
    }


def test_score_the_format_sheet_example():
    line = json.dumps(
        {
            "rules": "fft",
            "players": FOUR,
            "hands": [
                {"dealer": "Dora", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
            ],
        }
    )
    assert score_line(line) == {
        "hands": [{"scores": {"Anna": 240, "Bert": -80, "Carl": -80, "Dora": -80}}],
        "totals": {"Anna": 240, "Bert": -80, "Carl": -80, "Dora": -80},
    }


ROUND_TRIP_HANDS = [
    pytest.param(Hand(players=tuple(FOUR)), id="passed"),
    pytest.param(Hand(players=tuple(FOUR), dealer="Bert", miseres=("Carl",)), id="passed-misere"),
    pytest.param(
        Hand(
            players=tuple(FIVE),
            dealer="Emil",
            taker="Carl",
            contract="garde_sans",
            partner="Anna",
            bouts=1,
            points=Decimal("52.5"),
            petit_au_bout="defence",
            poignees=(Poignee("Anna", "double"), Poignee("Dora", "triple")),
            chelem=Chelem(True, None),
            petit_chelem=Chelem(False, "attack"),
        ),
        id="everything",
    ),
    pytest.param(
        Hand(
            players=tuple(FIVE),
            sits_out="Emil",
            taker="Anna",
            contract="prise",
            bouts=3,
            points=91,
            chelem=Chelem(False, "attack"),
        ),
        id="sitting-out",
    ),
]


@pytest.mark.parametrize("hand", ROUND_TRIP_HANDS)
def test_hand_round_trip(hand):
    data = hand_to_dict(hand, with_players=True)
    line = json.dumps(data, ensure_ascii=False)
    assert parse_hand(loads(line))[1] == hand
    # and once more: the written form is stable
    assert hand_to_dict(parse_hand(loads(line))[1], with_players=True) == data


def test_hand_to_dict_leaves_out_empty_fields():
    hand = Hand(players=tuple(FOUR), taker="Anna", contract="garde", bouts=2, points=56)
    assert hand_to_dict(hand) == {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
    assert hand_to_dict(Hand(players=tuple(FOUR), dealer="Dora")) == {"dealer": "Dora"}


def test_half_points_are_written_as_json_numbers():
    hand = Hand(
        players=tuple(FIVE), taker="Anna", contract="prise", bouts=2, points=Decimal("41.5")
    )
    assert json.dumps(hand_to_dict(hand)["points"]) == "41.5"


RULES_ROUND_TRIP = [
    Rules(),
    Rules("pousse", rounding=10),
    Rules("contre5", poignee=(10, 20, 40), misere=10),
    Rules("fixed", five_player_split="equal"),
    Rules("mouches", ante=4, dealer_stake=2, no_prise=True),
    Rules("two_players", rounding=5),
]


@pytest.mark.parametrize("rules", RULES_ROUND_TRIP, ids=lambda r: r.preset)
def test_rules_round_trip(rules):
    assert parse_rules(json.loads(json.dumps(rules.as_dict()))) == rules


def test_rules_as_dict_only_what_differs():
    assert Rules().as_dict() == {"preset": "fft"}
    assert Rules("mouches", dealer_stake=2, poignee=(10, 20, 40)).as_dict() == {
        "preset": "mouches",
        "dealer_stake": 2,
        "poignee": [10, 20, 40],
    }


def test_parse_rules_forms():
    assert parse_rules(None) == Rules()
    assert parse_rules("pousse") == Rules("pousse")
    assert parse_rules({"rounding": 10}) == Rules(rounding=10)
    assert parse_rules({"preset": None, "misere": None}) == Rules()
    # misère as a flag takes the usual value
    assert parse_rules({"misere": True}) == Rules(misere=10)
    assert parse_rules({"misere": False}) == Rules()


def test_sheet_round_trip():
    data = {
        "rules": {"preset": "mouches", "ante": 10, "dealer_stake": 5},
        "players": FOUR,
        "hands": [
            {"dealer": "Dora"},
            {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56},
        ],
    }
    sheet = parse_sheet(loads(json.dumps(data)))
    assert sheet == Sheet(
        Rules("mouches"),
        tuple(FOUR),
        (
            Hand(players=tuple(FOUR), dealer="Dora"),
            Hand(
                players=tuple(FOUR),
                dealer="Anna",
                taker="Bert",
                contract="garde",
                bouts=2,
                points=56,
            ),
        ),
    )
    assert [hand_to_dict(h) for h in sheet.hands] == data["hands"]


def test_a_sheet_hand_may_repeat_the_sheets_players():
    line = json.dumps({"players": FOUR, "hands": [{"players": FOUR, "taker": "Anna", **_GARDE}]})
    assert score_line(line)["totals"]["Anna"] == 240


_GARDE = {"contract": "garde", "bouts": 2, "points": 56}


def test_half_point_scores_come_out_as_22_5():
    # five, equal split: prise 41/2 with the petit lost at the end: 25 − 10 = 15;
    # taker and partner 1.5 × 15 = 22.5 each
    line = json.dumps(
        {
            "rules": {"preset": "fft", "five_player_split": "equal"},
            "players": FIVE,
            "taker": "Anna",
            "partner": "Bert",
            "contract": "prise",
            "bouts": 2,
            "points": 41,
            "petit_au_bout": "defence",
        }
    )
    out = score_line(line)
    assert out == {"scores": {"Anna": 22.5, "Bert": 22.5, "Carl": -15, "Dora": -15, "Emil": -15}}
    text = json.dumps(out)
    assert '"Anna": 22.5' in text
    assert '"Carl": -15,' in text  # whole numbers stay integers, not -15.0


def test_number():
    assert number(45) == 22.5
    assert number(-45) == -22.5
    assert number(44) == 22
    assert isinstance(number(44), int)
    assert number(0) == 0


def test_explanation_is_added_on_request():
    line = FORMAT_EXAMPLE.replace("\n", "")
    assert "explanation" not in score_line(line)
    assert score_line(line, explain=True)["explanation"] == (
        "(25 + 15) × 2 + 20 poignée = 100 per defender; taker +300"
    )


def test_explanation_in_every_hand_of_a_sheet():
    line = json.dumps({"players": FOUR, "hands": [{}, {"taker": "Anna", **_GARDE}]})
    out = score_line(line, explain=True)
    assert [h["explanation"] for h in out["hands"]] == [
        "everybody passed",
        "(25 + 15) × 2 = 80 per defender; taker +240",
    ]


def test_hand_result_dict_pools_only_with_mouches():
    hand = Hand(players=tuple(FOUR), dealer="Dora")
    assert hand_result_dict(score_hand(Rules(), hand)) == {
        "scores": {"Anna": 0, "Bert": 0, "Carl": 0, "Dora": 0}
    }
    assert hand_result_dict(score_hand(Rules("mouches"), hand)) == {
        "scores": {"Anna": -10, "Bert": -10, "Carl": -10, "Dora": -15},
        "pools": [45],
    }


def test_sheet_error_names_the_hand_and_nothing_else():
    line = json.dumps(
        {
            "players": FOUR,
            "hands": [
                {"taker": "Anna", **_GARDE},
                {"taker": "Anna", **_GARDE},
                {"taker": "Anna", "contract": "garde", "bouts": 1, "points": 90},
            ],
        }
    )
    out = score_line(line)
    assert list(out) == ["error"]
    assert out["error"]["hand"] == 3
    assert out["error"]["code"] == "points_bouts_inconsistent"
    assert out["error"]["field"] == "points"
    assert "4 to 83" in out["error"]["message"]


def test_hand_error_has_no_hand_number():
    out = score_line(json.dumps({"players": FOUR, "taker": "Anna", **_GARDE, "bouts": 5}))
    assert out == {
        "error": {
            "code": "bouts_out_of_range",
            "message": "bouts: 5 is not 0, 1, 2 or 3",
            "field": "bouts",
        }
    }


@pytest.mark.parametrize(
    "line",
    ['{"players": ["Anna", "Bert", "Carl", "Dora"], "taker": "Anna",', "{'players': []}", "", "42"],
)
def test_malformed_json_line(line):
    out = score_line(line)
    assert list(out) == ["error"]
    assert out["error"]["code"] == "json_invalid"
    assert out["error"]["message"]
    assert "field" not in out["error"]


def test_loads_keeps_fractions_exact():
    assert loads('{"points": 41.5}') == {"points": Decimal("41.5")}
    assert isinstance(loads('{"points": 41.5}')["points"], Decimal)


def test_names_keep_their_unicode():
    players = ["Anaïs", "Béa", "Çelik", "Dörte"]
    line = json.dumps({"players": players, "taker": "Béa", **_GARDE}, ensure_ascii=False)
    assert score_line(line) == {"scores": {"Anaïs": -80, "Béa": 240, "Çelik": -80, "Dörte": -80}}
