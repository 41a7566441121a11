"""Properties of the engine over generated hands (Hypothesis).

The strategies build only *valid* hands, for every preset and option: 3, 4 and 5
players (and 2 under ``two_players``), a player sitting out at a table seating
one more, partners, petit au bout, poignées by anybody, chelems, petit chelems
where the preset scores them, misères, rounding, the equal split, and whole
sheets under ``mouches``. The fuzz tests throw arbitrary (mostly invalid) JSON
at the parser.
"""

import json
from decimal import Decimal
from fractions import Fraction

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoresheet.scoring import (
    CODES,
    PRESETS,
    Chelem,
    Hand,
    Poignee,
    Rules,
    ScoringError,
    Sheet,
    score_hand,
    score_sheet,
)
from scoresheet.scoring.jsonformat import (
    HAND_FIELDS,
    hand_to_dict,
    parse_hand,
    parse_sheet,
    score_line,
)

NAMES = ("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz")
SIDES = ("attack", "defence", None)

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- Strategies ------------------------------------------------------------------


@st.composite
def rules_st(draw, preset=None):
    preset = preset or draw(st.sampled_from(PRESETS))
    has_prise = preset not in ("fixed", "two_players")
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


def bounds(bouts):
    """Lowest and highest points, in half points, the bouts allow (RULES.md §5)."""
    return 8 * bouts, 182 - 8 * (3 - bouts)


def as_points(halves, kind):
    if halves % 2 == 0 and kind == "int":
        return halves // 2
    if kind == "fraction":
        return Fraction(halves, 2)
    return Decimal(halves) / 2


@st.composite
def seating_st(draw, rules):
    """(players, sits_out, playing): everybody seated, and who plays the hand."""
    n = 2 if rules.preset == "two_players" else draw(st.integers(3, 5))
    seats = n + draw(st.integers(0, 1))
    players = NAMES[:seats]
    sits_out = draw(st.sampled_from(players)) if seats > n else None
    playing = tuple(p for p in players if p != sits_out)
    return players, sits_out, playing


@st.composite
def hand_st(draw, rules, players, sits_out, playing, passed=True):
    """A valid hand at this seating under these rules (taker None: all passed)."""
    n = len(playing)
    two = rules.preset == "two_players"
    dealer = draw(st.sampled_from(players))
    if rules.preset != "mouches" and draw(st.booleans()):
        dealer = None
    miseres = ()
    if rules.misere:
        miseres = tuple(draw(st.lists(st.sampled_from(playing), unique=True, max_size=2)))
    if passed and draw(st.integers(0, 9)) == 0:
        return Hand(players=players, sits_out=sits_out, dealer=dealer, miseres=miseres)
    taker = draw(st.sampled_from(playing))
    contract = None if two else draw(st.sampled_from(rules.contracts))
    partner = None
    if n == 5:
        partner = draw(st.sampled_from((None, *playing)))
    bouts = draw(st.integers(0, 3))
    low, high = bounds(bouts)
    points_halves = draw(st.integers(low, high))
    if n in (2, 4):
        points_halves -= points_halves % 2
        if points_halves < low:
            points_halves += 2
    points = as_points(points_halves, draw(st.sampled_from(("int", "decimal", "fraction"))))
    pab_choices = [None]
    if bouts > 0:
        pab_choices.append("attack")
    if bouts < 3:
        pab_choices.append("defence")
    pab = draw(st.sampled_from(pab_choices))
    poignees = ()
    if not two:
        shown = draw(st.lists(st.sampled_from(playing), unique=True, max_size=3))
        poignees = tuple(
            Poignee(p, draw(st.sampled_from(("single", "double", "triple")))) for p in shown
        )
    chelem = draw(st.none() | st.builds(Chelem, st.booleans(), st.sampled_from(SIDES)))
    if rules.scores_petit_chelem:
        petit = draw(st.none() | st.builds(Chelem, st.booleans(), st.sampled_from(SIDES)))
    else:
        petit = draw(st.sampled_from((None, Chelem(False, None))))
    return Hand(
        players=players,
        taker=taker,
        contract=contract,
        bouts=bouts,
        points=points,
        partner=partner,
        sits_out=sits_out,
        dealer=dealer,
        petit_au_bout=pab,
        poignees=poignees,
        chelem=chelem,
        petit_chelem=petit,
        miseres=miseres,
    )


pools_st = st.lists(st.integers(1, 200), max_size=3).map(tuple)


@st.composite
def scored_hand_st(draw, preset=None, passed=True):
    """(rules, hand, pools): a valid hand and, under mouches, the pools before it."""
    rules = draw(rules_st(preset))
    players, sits_out, playing = draw(seating_st(rules))
    hand = draw(hand_st(rules, players, sits_out, playing, passed))
    pools = draw(pools_st) if rules.has_pools else ()
    return rules, hand, pools


@st.composite
def sheet_st(draw, preset=None):
    rules = draw(rules_st(preset))
    n = 2 if rules.preset == "two_players" else draw(st.integers(3, 5))
    seats = n + draw(st.integers(0, 1))
    players = NAMES[:seats]
    hands = []
    for _ in range(draw(st.integers(1, 8))):
        sits_out = draw(st.sampled_from(players)) if seats > n else None
        playing = tuple(p for p in players if p != sits_out)
        hands.append(draw(hand_st(rules, players, sits_out, playing)))
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
    for row, hand in zip(result.running_totals(), result.hands):
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
    low, high = bounds(hand.bouts)
    n = len(hand.players) - (hand.sits_out is not None)
    step = 2 if n in (2, 4) else 1
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
