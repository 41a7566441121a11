"""The page's scoring (static/js/tarot_engine.js, the offline preview) against the
engine: 20,000 random valid hands from the one generator (tarot.randomhands), under
every ported ruleset and its option variants, scored by both; the same half points
and the same pools, hand by hand. Then hands made invalid one field at a time: both
refuse them with the same code. Node runs the page's file as it is served."""

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from tarot import REGISTRY, ScoringError, score_hand
from tarot.jsonformat import hand_to_dict
from tarot.randomhands import THOROUGH, random_hand, random_seating, rule_variants

RUNNER = Path(__file__).with_name("js_engine_runner.js")
NODE = shutil.which("node")
HANDS = 20_000

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

#: What the page scores itself; the others say "score on save" offline.
PORTED = ("fft", "pousse", "contre5", "fixed", "mouches", "two_players")


def run_node(items):
    lines = "\n".join(json.dumps(item) for item in items) + "\n"
    done = subprocess.run(
        [NODE, str(RUNNER)], input=lines, capture_output=True, text=True, check=True, timeout=300
    )
    return [json.loads(line) for line in done.stdout.splitlines() if line]


def random_items(rng, count):
    variants = [v for name in PORTED for v in rule_variants(REGISTRY[name])]
    items = []
    for _ in range(count):
        rules = rng.choice(variants)
        players, sits_out = random_seating(rng, rules, THOROUGH)
        hand = random_hand(rng, rules, players, sits_out, profile=THOROUGH)
        pools = tuple(rng.randrange(1, 80) for _ in range(rng.randrange(4)))
        if not rules.has_pools:
            pools = ()
        items.append((rules, hand, pools))
    return items


def as_json(rules, hand, pools):
    return {
        "rules": rules.as_dict(),
        "hand": hand_to_dict(hand, with_players=True),
        "pools": list(pools),
    }


def test_the_page_scores_as_the_engine_on_20000_random_hands():
    rng = random.Random(29)
    items = random_items(rng, HANDS)
    answers = run_node([as_json(*item) for item in items])
    assert len(answers) == HANDS
    presets = set()
    for (rules, hand, pools), answer in zip(items, answers):
        result = score_hand(rules, hand, pools)
        expected = {
            "halves": list(result.halves),
            "pools": None if result.pools is None else list(result.pools),
        }
        assert answer == expected, (rules.as_dict(), hand_to_dict(hand, True), pools)
        presets.add(rules.preset)
    assert presets == set(PORTED)


def _spoil(rng, data):
    """One field of a valid hand made wrong, the way a form could get it wrong."""
    players = data["players"]
    choice = rng.randrange(7)
    if choice == 0 and data.get("taker") and len(players) - bool(data.get("sits_out")) == 2:
        data["points"], data["bouts"] = 40.5, 1  # no half point at two
    elif choice == 0:
        data["points"] = rng.choice([-1, 92, 40.25, 100])
    elif choice == 1:
        data["bouts"] = rng.choice([4, -1])
    elif choice == 2 and data.get("taker"):
        data["petit_au_bout"] = "attack"
        data["bouts"] = 0
        data["points"] = 30
    elif choice == 3 and data.get("taker"):
        data["chelem"] = {"announced": False, "made_by": "attack"}
        data["points"] = 50
        data["bouts"] = 1
    elif choice == 4 and data.get("taker"):
        data["contract"] = "pousse" if data.get("contract") != "pousse" else "nothing"
    elif choice == 5:
        data["taker"] = "Zora"
    else:
        data["sits_out"] = "Zora"
    return data


def test_the_page_refuses_as_the_engine():
    from tarot.jsonformat import loads, parse_hand

    rng = random.Random(2929)
    items = []
    expected = []
    for rules, hand, pools in random_items(rng, 2_000):
        data = _spoil(rng, hand_to_dict(hand, with_players=True))
        try:
            parsed_rules, parsed = parse_hand(loads(json.dumps({**data, "rules": rules.as_dict()})))
        except ScoringError:
            continue  # the JSON format's own refusal (a name not seated…): no form sends it
        try:
            result = score_hand(parsed_rules, parsed, pools)
        except ScoringError as error:
            expected.append({"code": error.code})
        else:
            expected.append(
                {
                    "halves": list(result.halves),
                    "pools": None if result.pools is None else list(result.pools),
                }
            )
        items.append({"rules": rules.as_dict(), "hand": data, "pools": list(pools)})
    answers = run_node(items)
    refused = 0
    for item, answer, want in zip(items, answers, expected):
        assert answer == want, json.dumps(item)
        refused += "code" in want
    assert refused > 500


def test_a_ruleset_not_ported_is_said_so():
    done = subprocess.run(
        [NODE, str(RUNNER)],
        input=json.dumps({"rules": {"preset": "savoyard"}, "hand": {"players": ["A", "B"]}}) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == {"code": "rules_invalid"}


#: Mouches sheets scored whole: the pools the page carries from hand to hand.
SHEETS = 300
SHEET_HANDS = 12


def test_the_page_carries_the_mouches_pools_as_the_engine_along_whole_sheets():
    """The offline preview of a mouches hand scores it with the pools the sheet's hands
    before it left (the server's, then the hands waiting in the queue, each scored by
    the page): 300 sheets of 12 random hands, every option variant of the preset, each
    hand's half points and pools equal to ``score_sheet``'s, the pools never a copy of
    the first hand's (they move: taken, doubled, paid into)."""
    from tarot import Sheet, score_sheet

    rng = random.Random(2930)
    variants = rule_variants(REGISTRY["mouches"])
    items, expected = [], []
    for _ in range(SHEETS):
        rules = rng.choice(variants)
        players, sits_out = random_seating(rng, rules, THOROUGH)
        hands = []
        for _ in range(SHEET_HANDS):
            dealer = rng.choice([p for p in players if p != sits_out])
            hands.append(
                random_hand(rng, rules, players, sits_out, dealer=dealer, profile=THOROUGH)
            )
        result = score_sheet(Sheet(rules=rules, players=tuple(players), hands=tuple(hands)))
        expected.append([{"halves": list(h.halves), "pools": list(h.pools)} for h in result.hands])
        items.append(
            {"rules": rules.as_dict(), "sheet": [hand_to_dict(h, with_players=True) for h in hands]}
        )
    answers = run_node(items)
    assert len(answers) == SHEETS
    moved = 0
    for item, answer, want in zip(items, answers, expected):
        assert answer == {"sheet": want}, json.dumps(item)
        moved += len({tuple(h["pools"]) for h in want}) > 1
    assert moved > SHEETS * 0.9
