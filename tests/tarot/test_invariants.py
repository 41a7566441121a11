"""Properties of the engine over generated hands (Hypothesis).

The hands come from the engine's one generator (``scoring.randomhands``, profile
``THOROUGH``), driven by a ``random.Random`` that Hypothesis draws
(``st.randoms``), so the examples still shrink: every preset and option, 3, 4
and 5 players (and 2 under ``two_players``), a player sitting out at a table
seating one more, partners, petit au bout, poignées by anybody, chelems within
the deck's bounds, petit chelems where the preset scores them, misères,
rounding, the equal split, and whole sheets under ``mouches``. The fuzz tests
throw arbitrary (mostly invalid) JSON at the parser.
"""

import dataclasses
import json
from decimal import Decimal
from fractions import Fraction
from itertools import accumulate
from operator import add

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tarot import (
    CODES,
    REGISTRY,
    Chelem,
    Hand,
    Rules,
    ScoringError,
    Sheet,
    score_hand,
    score_sheet,
)
from tarot.jsonformat import (
    HAND_FIELDS,
    hand_to_dict,
    parse_hand,
    parse_sheet,
    score_line,
)
from tarot.randomhands import THOROUGH, random_hand
from tarot.rulesets import TAROT_PRESETS

NAMES = ("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz")
NEVER_PASSED = dataclasses.replace(THOROUGH, passed=0.0)

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- Strategies ------------------------------------------------------------------


@st.composite
def rules_st(draw, preset=None):
    preset = preset or draw(st.sampled_from(TAROT_PRESETS))  # Savoyard: test_savoyard.py
    has_prise = "prise" in REGISTRY[preset].multipliers
    return Rules(
        preset=preset,
        rounding=draw(st.sampled_from((1, 5, 10))),
        poignee=draw(st.sampled_from(((20, 30, 40), (10, 20, 40), (0, 15, 100)))),
        misere=draw(st.sampled_from((0, 10, 7))),
        no_prise=has_prise and draw(st.booleans()),
        five_player_split=draw(st.sampled_from(("two_to_one", "equal"))),
        ante=draw(st.integers(0, 20)),
        dealer_stake=draw(st.integers(0, 10)),
    )


def as_points(halves, kind):
    if halves % 2 == 0 and kind == "int":
        return halves // 2
    if kind == "fraction":
        return Fraction(halves, 2)
    return Decimal(halves) / 2


@st.composite
def seating_st(draw, rules):
    """(players, sits_out): everybody seated, and who sits this hand out."""
    n = draw(st.sampled_from(rules.ruleset.player_counts))
    seats = n + draw(st.integers(0, 1))
    players = NAMES[:seats]
    sits_out = draw(st.sampled_from(players)) if seats > n else None
    return players, sits_out


@st.composite
def hand_st(draw, rules, players, sits_out, passed=True):
    """A valid hand at this seating under these rules (taker None: all passed)."""
    rng = draw(st.randoms(use_true_random=False))
    return random_hand(rng, rules, players, sits_out, None, THOROUGH if passed else NEVER_PASSED)


pools_st = st.lists(st.integers(1, 200), max_size=3).map(tuple)


@st.composite
def scored_hand_st(draw, preset=None, passed=True):
    """(rules, hand, pools): a valid hand and, under mouches, the pools before it."""
    rules = draw(rules_st(preset))
    players, sits_out = draw(seating_st(rules))
    hand = draw(hand_st(rules, players, sits_out, passed))
    pools = draw(pools_st) if rules.has_pools else ()
    return rules, hand, pools


@st.composite
def sheet_st(draw, preset=None):
    rules = draw(rules_st(preset))
    n = draw(st.sampled_from(rules.ruleset.player_counts))
    seats = n + draw(st.integers(0, 1))
    players = NAMES[:seats]
    hands = []
    for _ in range(draw(st.integers(1, 8))):
        sits_out = draw(st.sampled_from(players)) if seats > n else None
        hands.append(draw(hand_st(rules, players, sits_out)))
    return Sheet(rules, players, tuple(hands))


# --- Scores always sum to zero ------------------------------------------------------


@FAST
@given(scored_hand_st())
def test_a_hand_sums_to_zero(case):
    rules, hand, pools = case
    result = score_hand(rules, hand, pools)
    paid_in = sum(result.pools) - sum(pools) if rules.has_pools else 0
    assert sum(result.halves) + 2 * paid_in == 0
    if hand.sits_out is not None and not rules.has_pools:
        assert result.score(hand.sits_out) == 0
    # the explanation of any valid hand can be built and rendered
    assert str(result.explanation)


@settings(max_examples=100, deadline=None)
@given(sheet_st("mouches"))
def test_a_mouches_sheet_with_its_pools_sums_to_zero(sheet):
    result = score_sheet(sheet)
    assert sum(result.totals_halves) + 2 * sum(result.pools) == 0
    running = accumulate([r.halves for r in result.hands], lambda a, b: tuple(map(add, a, b)))
    for row, hand in zip(running, result.hands):
        assert sum(row) + 2 * sum(hand.pools) == 0
        assert all(pool > 0 for pool in hand.pools) or sheet.rules.ante == 0


@settings(max_examples=50, deadline=None)
@given(sheet_st())
def test_a_sheet_sums_to_zero(sheet):
    result = score_sheet(sheet)
    pools = sum(result.pools) if result.pools is not None else 0
    assert sum(result.totals_halves) + 2 * pools == 0
    assert result.totals_halves == tuple(map(sum, zip(*(h.halves for h in result.hands))))


# --- More points never lower the taker's score ------------------------------------------


@FAST
@given(scored_hand_st(passed=False), st.data())
def test_more_points_never_lower_the_takers_score(case, data):
    rules, hand, pools = case
    deck = rules.deck
    low, high = deck.bounds_halves[hand.bouts]
    if hand.chelem is not None and hand.chelem.made_by == "defence":
        high = min(high, 2 * deck.chelem_defence_max_points)  # the chelem must still fit
    n = len(hand.players) - (hand.sits_out is not None)
    step = 1 if deck.half_point_allowed(n) else 2
    now = int(hand.points * 2)
    assume(now + step <= high)
    more = data.draw(st.integers(now + step, high).map(lambda h: h - (h - now) % step))
    better = hand.__class__(**{**_fields(hand), "points": as_points(more, "decimal")})
    before = score_hand(rules, hand, pools).score(hand.taker)
    after = score_hand(rules, better, pools).score(hand.taker)
    assert after >= before


def _fields(hand):
    return {name: getattr(hand, name) for name in hand.__slots__}


# --- Two players: recording either player gives the same result ---------------------------

MIRROR = {"attack": "defence", "defence": "attack", None: None}


@FAST
@given(scored_hand_st("two_players", passed=False))
def test_two_players_either_player_may_be_recorded(case):
    rules, hand, _ = case
    assume(hand.chelem is None or not hand.chelem.announced)
    other = next(p for p in hand.players if p not in (hand.taker, hand.sits_out))
    mirrored = Hand(
        **{
            **_fields(hand),
            "taker": other,
            "points": 91 - hand.points,
            "bouts": 3 - hand.bouts,
            "petit_au_bout": MIRROR[hand.petit_au_bout],
            "chelem": hand.chelem and Chelem(False, MIRROR[hand.chelem.made_by]),
        }
    )
    assert score_hand(rules, hand).halves == score_hand(rules, mirrored).halves


# --- The JSON path gives what the engine gives ----------------------------------------------


@FAST
@given(scored_hand_st())
def test_json_round_trip_scores_the_same(case):
    rules, hand, _ = case
    data = {"rules": rules.as_dict(), **hand_to_dict(hand, with_players=True)}
    line = json.dumps(data)
    parsed_rules, parsed = parse_hand(json.loads(line, parse_float=Decimal))
    assert parsed_rules == rules
    assert parsed == hand
    result = score_hand(rules, hand)
    expected = {p: h // 2 if h % 2 == 0 else h / 2 for p, h in zip(hand.players, result.halves)}
    out = score_line(line)
    assert out["scores"] == expected


@settings(max_examples=50, deadline=None)
@given(sheet_st())
def test_json_sheet_round_trip(sheet):
    data = {
        "rules": sheet.rules.as_dict(),
        "players": list(sheet.players),
        "hands": [hand_to_dict(h) for h in sheet.hands],
    }
    line = json.dumps(data)
    assert parse_sheet(json.loads(line, parse_float=Decimal)) == sheet
    out = score_line(line)
    result = score_sheet(sheet)
    assert out["totals"] == {
        p: h // 2 if h % 2 == 0 else h / 2 for p, h in zip(sheet.players, result.totals_halves)
    }


# --- Arbitrary input: nothing but ScoringError, ever ---------------------------------------

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(NAMES + ("", " ", "attack", "defence", "garde", "prise", "single", "fft"))
    | st.text(max_size=8)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)

# Every field a hand line may carry (sorted, so examples replay), and a sheet's hands.
FIELDS = (*sorted(HAND_FIELDS - {"number"}), "hands")
RULE_KEYS = ("preset", "rounding", "poignee", "misere", "no_prise", "five_player_split", "ante")


def _check_line(line):
    out = score_line(line)
    assert isinstance(out, dict)
    if "error" in out:
        assert set(out) == {"error"}
        assert out["error"]["code"] in CODES
    else:
        assert "scores" in out or "hands" in out
    json.dumps(out, allow_nan=False)  # only plain JSON numbers come out


@FAST
@given(json_values)
def test_arbitrary_json_is_refused_cleanly(value):
    _check_line(json.dumps(value))


@FAST
@given(st.dictionaries(st.sampled_from(FIELDS + ("number", "junk")), json_values, max_size=8))
def test_arbitrary_hand_objects_are_refused_cleanly(data):
    _check_line(json.dumps(data))


@FAST
@given(
    scored_hand_st(),
    st.lists(
        st.tuples(
            st.sampled_from(FIELDS + tuple("rules." + k for k in RULE_KEYS) + ("poignees.0",)),
            json_values,
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_mutated_valid_hands_are_refused_cleanly(case, changes):
    """Start from a valid hand and break one to three fields: the nastiest inputs."""
    rules, hand, _ = case
    data = {"rules": rules.as_dict(), **hand_to_dict(hand, with_players=True)}
    for key, value in changes:
        if key.startswith("rules."):
            if not isinstance(data["rules"], dict):
                data["rules"] = {}
            data["rules"][key[6:]] = value
        elif key == "poignees.0":
            data["poignees"] = [{"player": hand.players[0], "size": value}]
        else:
            data[key] = value
    _check_line(json.dumps(data))


@FAST
@given(st.text(max_size=40) | st.binary(max_size=40).map(lambda b: b.decode("latin-1")))
def test_arbitrary_text_is_refused_cleanly(line):
    _check_line(line)


@FAST
@given(scored_hand_st(), st.sampled_from(("bouts", "points", "partner", "sits_out", "taker")))
def test_engine_api_raises_only_scoring_errors(case, field):
    """The dataclass API with a field set to a wrong type still only refuses."""
    rules, hand, pools = case
    for value in ("x", -1, 2.5, None, 10**30, Decimal("1E+999999"), ("Anna",)):
        broken = Hand(**{**_fields(hand), field: value})
        try:
            score_hand(rules, broken, pools)
        except ScoringError as error:
            assert error.code in CODES
