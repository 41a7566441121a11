"""Every figure RULES.md asks for, computed by hand and written literally.

No expectation here is computed with the engine: each row says the sum it comes
from, so a reader can check it against RULES.md without running anything.
"""

import json
from decimal import Decimal
from fractions import Fraction
from itertools import accumulate
from operator import add

import pytest

from tarot import (
    Chelem,
    Hand,
    Poignee,
    Rules,
    ScoringError,
    Sheet,
    halves_to_decimal,
    score_hand,
    score_sheet,
)
from tarot.jsonformat import score_line

FOUR = ("Anna", "Bert", "Carl", "Dora")
THREE = ("Anna", "Bert", "Carl")
FIVE = ("Anna", "Bert", "Carl", "Dora", "Emil")
SIX = ("Anna", "Bert", "Carl", "Dora", "Emil", "Fritz")
TWO = ("Anna", "Bert")

FFT = Rules()
ATT = "attack"
DEF = "defence"


def scores(rules, players=FOUR, pools=(), **fields):
    """Each seated player's score, as plain numbers in seat order."""
    result = score_hand(rules, Hand(players=players, **fields), pools)
    return [result.score(p) for p in players]


def single(player):
    return (Poignee(player, "single"),)


def running_totals(result):
    """A sheet's running totals after each hand, in half points, seat order."""
    return list(accumulate([r.halves for r in result.hands], lambda a, b: tuple(map(add, a, b))))


# --- RULES.md §1: the worked examples (4 players) -----------------------------

WORKED = [
    # (25 + 15) × 2 = 80
    pytest.param(
        {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56},
        [240, -80, -80, -80],
        id="garde-56-2-bouts",
    ),
    # (25 + 13 + 10) × 2 = 96
    pytest.param(
        {
            "taker": "Bert",
            "contract": "garde",
            "bouts": 3,
            "points": 49,
            "petit_au_bout": ATT,
        },
        [-96, 288, -96, -96],
        id="garde-49-3-bouts-pab-attack",
    ),
    # −(25 + 1) × 2 − 10 × 2 = −72: the taker pays 72 to each
    pytest.param(
        {
            "taker": "Carl",
            "contract": "garde",
            "bouts": 2,
            "points": 40,
            "petit_au_bout": DEF,
        },
        [72, 72, -216, 72],
        id="garde-40-2-bouts-pab-defence",
    ),
    # (25 + 0 − 10) × 2 = 30
    pytest.param(
        {
            "taker": "Carl",
            "contract": "garde",
            "bouts": 2,
            "points": 41,
            "petit_au_bout": DEF,
        },
        [-30, -30, 90, -30],
        id="garde-41-2-bouts-pab-defence",
    ),
    # (25 + 4) × 2 + 20 = 78: the defence's poignée goes to the winner, the taker
    pytest.param(
        {
            "taker": "Dora",
            "contract": "garde",
            "bouts": 3,
            "points": 40,
            "poignees": single("Anna"),
        },
        [-78, -78, -78, 234],
        id="garde-40-3-bouts-poignee-by-defence",
    ),
]


@pytest.mark.parametrize(("fields", "expected"), WORKED)
def test_worked_examples(fields, expected):
    assert scores(FFT, **fields) == expected


def test_seed_table_running_totals():
    """The German seed's five-hand table (the corrected one)."""
    hands = tuple(Hand(players=FOUR, **p.values[0]) for p in WORKED)
    result = score_sheet(Sheet(FFT, FOUR, hands))
    running = [tuple(halves_to_decimal(h) for h in row) for row in running_totals(result)]
    assert running == [
        (240, -80, -80, -80),
        (144, 208, -176, -176),
        (216, 280, -392, -104),
        (186, 250, -302, -134),
        (108, 172, -380, 100),
    ]
    assert result.totals == {"Anna": 108, "Bert": 172, "Carl": -380, "Dora": 100}
    assert result.pools is None


EXPLAINED = [
    (WORKED[0], "(25 + 15) × 2 = 80 per defender; taker +240"),
    (WORKED[1], "(25 + 13 + 10 petit au bout) × 2 = 96 per defender; taker +288"),
    (WORKED[2], "(25 + 1 + 10 petit au bout) × 2 = 72 to each defender; taker −216"),
    (WORKED[3], "(25 + 0 − 10 petit au bout) × 2 = 30 per defender; taker +90"),
    (WORKED[4], "(25 + 4) × 2 + 20 poignée = 78 per defender; taker +234"),
]


@pytest.mark.parametrize(("param", "text"), EXPLAINED)
def test_worked_examples_explained(param, text):
    result = score_hand(FFT, Hand(players=FOUR, **param.values[0]))
    assert str(result.explanation) == text


# --- The FFT's own chelem example ----------------------------------------------


def test_fft_chelem_example():
    # (25 + 46 + 10) × 2 + 20 + 400 = 582; 87 points with 2 bouts is accepted
    result = score_hand(
        FFT,
        Hand(
            players=FOUR,
            taker="Anna",
            contract="garde",
            bouts=2,
            points=87,
            petit_au_bout=ATT,
            poignees=single("Anna"),
            chelem=Chelem(announced=True, made_by=ATT),
        ),
    )
    assert result.per_defender == 582
    assert [result.score(p) for p in FOUR] == [1746, -582, -582, -582]
    assert str(result.explanation) == (
        "(25 + 46 + 10 petit au bout) × 2 + 20 poignée + 400 chelem = 582 per defender; taker +1746"
    )


# --- Distribution by number of players (§1.7) --------------------------------

GARDE_56_2 = {"contract": "garde", "bouts": 2, "points": 56}  # S = (25 + 15) × 2 = 80

DISTRIBUTIONS = [
    pytest.param(FFT, THREE, {"taker": "Anna"}, [160, -80, -80], id="3-players-taker-2S"),
    pytest.param(
        FFT,
        FIVE,
        {"taker": "Anna", "partner": "Carl"},
        [160, -80, 80, -80, -80],
        id="5-players-taker-2S-partner-S",
    ),
    pytest.param(
        FFT, FIVE, {"taker": "Anna"}, [320, -80, -80, -80, -80], id="5-players-alone-no-partner"
    ),
    pytest.param(
        FFT,
        FIVE,
        {"taker": "Anna", "partner": "Anna"},
        [320, -80, -80, -80, -80],
        id="5-players-called-himself",
    ),
    pytest.param(
        Rules(five_player_split="equal"),
        FIVE,
        {"taker": "Anna", "partner": "Bert"},
        [120, 120, -80, -80, -80],
        id="5-players-equal-split-1.5S",
    ),
    pytest.param(
        Rules(five_player_split="equal"),
        FIVE,
        {"taker": "Anna"},
        [320, -80, -80, -80, -80],
        id="5-players-equal-split-alone-4S",
    ),
    pytest.param(
        FFT,
        FIVE,
        {"taker": "Anna", "sits_out": "Emil", "dealer": "Emil"},
        [240, -80, -80, -80, 0],
        id="five-seats-playing-four-mort-scores-0",
    ),
    pytest.param(
        FFT,
        SIX,
        {"taker": "Bert", "partner": "Dora", "sits_out": "Anna"},
        [0, 160, -80, 80, -80, -80],
        id="six-seats-playing-five",
    ),
    pytest.param(
        FFT,
        FOUR,
        {"taker": "Bert", "sits_out": "Dora"},
        [-80, 160, -80, 0],
        id="four-seats-playing-three",
    ),
]


@pytest.mark.parametrize(("rules", "players", "fields", "expected"), DISTRIBUTIONS)
def test_distribution(rules, players, fields, expected):
    assert scores(rules, players, **GARDE_56_2, **fields) == expected


def test_equal_split_half_points_exact():
    # prise, 47 points, 2 bouts: 25 + 6 = 31; taker and partner 1.5 × 31 = 46.5
    rules = Rules(five_player_split="equal")
    fields = {"taker": "Anna", "partner": "Bert", "contract": "prise", "bouts": 2, "points": 47}
    assert scores(rules, FIVE, **fields) == [
        Decimal("46.5"),
        Decimal("46.5"),
        -31,
        -31,
        -31,
    ]
    result = score_hand(rules, Hand(players=FIVE, **fields))
    assert result.halves == (93, 93, -62, -62, -62)
    assert str(result.explanation) == ("(25 + 6) × 1 = 31 per defender; taker +46.5, partner +46.5")


# --- Half points at 3, 4 and 5 players (§1.2) ---------------------------------

HALF_POINTS = [
    # garde: (25 + ceil(0.5)) × 2 = 52, made by 1
    pytest.param(THREE, {}, Decimal("41.5"), [104, -52, -52], id="3-players-41.5-made-by-1"),
    # garde: failed by ceil(0.5) = 1: −52
    pytest.param(THREE, {}, Decimal("40.5"), [-104, 52, 52], id="3-players-40.5-failed-by-1"),
    pytest.param(
        FIVE,
        {"partner": "Bert"},
        Decimal("41.5"),
        [104, 52, -52, -52, -52],
        id="5-players-41.5-made-by-1",
    ),
    pytest.param(
        FIVE,
        {"partner": "Bert"},
        Fraction(81, 2),
        [-104, -52, 52, 52, 52],
        id="5-players-40.5-failed-by-1-fraction",
    ),
    # 4 players (the excuse changed sides in the last trick): garde, 2 bouts, target 41;
    # 40.5 − 41 = −0.5, failed by ceil(0.5) = 1 → (25 + 1) × 2 = 52 per defender,
    # the taker pays 3 × 52 = 156
    pytest.param(FOUR, {}, Decimal("40.5"), [-156, 52, 52, 52], id="4-players-40.5-failed-by-1"),
    # 4 players: 44.5 − 41 = 3.5, made by 4 → (25 + 4) × 2 = 58; taker 3 × 58 = 174
    pytest.param(FOUR, {}, Decimal("44.5"), [174, -58, -58, -58], id="4-players-44.5-made-by-4"),
    # five seated, four play: the same hand, the fifth scores 0
    pytest.param(
        FIVE,
        {"sits_out": "Emil"},
        Decimal("40.5"),
        [-156, 52, 52, 52, 0],
        id="4-of-5-seats-40.5-failed-by-1",
    ),
    # 3 bouts: target 36; 35.5 fails by 1 → (25 + 1) × 2
    pytest.param(
        THREE,
        {"bouts": 3},
        Decimal("35.5"),
        [-104, 52, 52],
        id="3-players-35.5-3-bouts-failed-by-1",
    ),
]


@pytest.mark.parametrize(("players", "extra", "points", "expected"), HALF_POINTS)
def test_half_points(players, extra, points, expected):
    fields = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": points, **extra}
    assert scores(FFT, players, **fields) == expected


def test_four_player_half_point_result_fields():
    # garde, 2 bouts, 40.5: points − target = 40.5 − 41 = −0.5 = −1 half point;
    # the half point goes to the defence, which wins: failed by 1
    fields = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": Decimal("40.5")}
    result = score_hand(FFT, Hand(players=FOUR, **fields))
    assert result.margin_halves == -1
    assert result.card_margin == -1
    assert result.margin == 1
    assert result.scoring_margin == -1
    assert result.made is False
    assert result.per_defender == -52
    assert result.roles == ("taker", "defender", "defender", "defender")
    assert str(result.explanation) == "(25 + 1) × 2 = 52 to each defender; taker −156"


def test_half_point_through_json():
    line = json.dumps(
        {"players": list(THREE), "taker": "Anna", "contract": "garde", "bouts": 2, "points": 41.5}
    )
    assert score_line(line) == {"scores": {"Anna": 104, "Bert": -52, "Carl": -52}}


# --- Chelem (§1.6): never multiplied -------------------------------------------

CHELEMS = [
    # garde 91 / 3 bouts: (25 + 55) × 2 = 160; + 400
    pytest.param(91, 3, Chelem(True, ATT), 560, id="announced-and-made"),
    # garde 60 / 3 bouts: (25 + 24) × 2 = 98; − 200
    pytest.param(60, 3, Chelem(True, None), -102, id="announced-and-failed"),
    # garde 91 / 3 bouts: 160 + 200
    pytest.param(91, 3, Chelem(False, ATT), 360, id="made-unannounced"),
    # garde 0 / 0 bouts: −(25 + 56) × 2 = −162; − 200 to the attack
    pytest.param(0, 0, Chelem(False, DEF), -362, id="made-by-the-defence"),
    # RULES.md is silent on combining: announced and failed (−200) *and* the
    # defence's chelem (+200 to the defence): −162 − 400
    pytest.param(0, 0, Chelem(True, DEF), -562, id="announced-and-defence-made-it"),
    pytest.param(56, 2, Chelem(False, None), 80, id="no-chelem-object-is-nothing"),
    # §5 bounds, the lowest the attack's chelem allows: 87 points (the defence kept the
    # excuse, 4 points, so the attack has 2 bouts): (25 + 87 − 41) × 2 = 142; + 200
    pytest.param(87, 2, Chelem(False, ATT), 342, id="attack-chelem-at-87"),
    # the most the defence's chelem leaves the attack: the excuse, 4 points and 1 bout:
    # −(25 + 51 − 4) × 2 = −144; − 200
    pytest.param(4, 1, Chelem(False, DEF), -344, id="defence-chelem-excuse-4-points-1-bout"),
    # 0 points with 1 bout is impossible (a bout is at least 4): 4 with 0 bouts is fine:
    # −(25 + 56 − 4) × 2 = −154; − 200
    pytest.param(4, 0, Chelem(False, DEF), -354, id="defence-chelem-4-points-0-bouts"),
]


@pytest.mark.parametrize(("points", "bouts", "chelem", "per_defender"), CHELEMS)
def test_chelem(points, bouts, chelem, per_defender):
    fields = {"taker": "Anna", "contract": "garde", "bouts": bouts, "points": points}
    result = score_hand(FFT, Hand(players=FOUR, chelem=chelem, **fields))
    assert result.per_defender == per_defender
    assert [result.score(p) for p in FOUR] == [3 * per_defender] + [-per_defender] * 3


CHELEM_REFUSED = [
    # the attack's chelem with 86.5 points: the defence would have 4.5, more than the excuse
    pytest.param(Decimal("86.5"), 3, Chelem(True, ATT), id="attack-86.5"),
    pytest.param(56, 2, Chelem(False, ATT), id="attack-56-unannounced"),
    # the defence's chelem with 4.5 points for the attack: more than the excuse
    pytest.param(Decimal("4.5"), 1, Chelem(False, DEF), id="defence-4.5"),
    # the defence's chelem with 2 bouts for the attack: it keeps at most one, the excuse
    pytest.param(8, 2, Chelem(False, DEF), id="defence-2-bouts"),
    pytest.param(8, 2, Chelem(True, DEF), id="defence-2-bouts-announced"),
]


@pytest.mark.parametrize(("points", "bouts", "chelem"), CHELEM_REFUSED)
def test_chelem_the_points_contradict_is_refused(points, bouts, chelem):
    fields = {"taker": "Anna", "contract": "garde", "bouts": bouts, "points": points}
    with pytest.raises(ScoringError) as caught:
        score_hand(FFT, Hand(players=FOUR, chelem=chelem, **fields))
    assert caught.value.code == "chelem_points_inconsistent"
    assert caught.value.field == "chelem"
    assert "excuse" in caught.value.message


def test_chelem_bounds_on_the_deck():
    # the deck's refusal the validation gives (in half points): None when it fits
    refusal = FFT.deck.chelem_refusal
    assert refusal(ATT, 2 * 87, 2) is None
    assert refusal(ATT, 173, 3) is not None  # 86.5
    assert refusal(DEF, 2 * 4, 1) is None
    assert refusal(DEF, 9, 1) is not None  # 4.5
    assert refusal(DEF, 2 * 4, 2) is not None
    assert refusal(None, 2 * 40, 2) is None  # announced and failed: no bound


def test_two_players_chelem_bounds_see_the_recorded_player_as_attack():
    # Anna recorded with 87 points and 2 bouts made the chelem: 25 + 87 − 41 = 71; + 200
    fields = {"taker": "Anna", "bouts": 2, "points": 87, "chelem": Chelem(False, ATT)}
    assert scores(TWO_PLAYERS, TWO, **fields) == [271, -271]
    # Anna recorded with 4 points, Bert made the chelem ("defence"):
    # Bert has 87 with 2 bouts: 25 + 46 = 71, + 200
    fields = {"taker": "Anna", "bouts": 1, "points": 4, "chelem": Chelem(False, DEF)}
    assert scores(TWO_PLAYERS, TWO, **fields) == [-271, 271]
    with pytest.raises(ScoringError) as caught:
        hand = Hand(players=TWO, taker="Anna", bouts=3, points=86, chelem=Chelem(False, ATT))
        score_hand(TWO_PLAYERS, hand)
    assert caught.value.code == "chelem_points_inconsistent"


def test_chelem_at_five_with_partner():
    # prise 91 / 3: (25 + 55) × 1 = 80; + 400 = 480; taker 960, partner 480
    fields = {"taker": "Anna", "partner": "Bert", "contract": "prise", "bouts": 3, "points": 91}
    assert scores(FFT, FIVE, chelem=Chelem(True, ATT), **fields) == [960, 480, -480, -480, -480]


# --- Poignée (§1.5) ------------------------------------------------------------

POIGNEES = [
    # garde 56/2: 80 + 20 single by the taker
    pytest.param(FFT, 56, (Poignee("Anna", "single"),), 100, id="single-attack-made"),
    pytest.param(FFT, 56, (Poignee("Bert", "double"),), 110, id="double-defence-made"),
    pytest.param(FFT, 56, (Poignee("Anna", "triple"),), 120, id="triple-attack-made"),
    # garde 40/2: −(25 + 1) × 2 = −52; the taker's poignée goes to the defence: −20
    pytest.param(FFT, 40, (Poignee("Anna", "single"),), -72, id="single-attack-failed"),
    # both sides show: 80 + 20 + 30, all to the winner
    pytest.param(
        FFT,
        56,
        (Poignee("Anna", "single"), Poignee("Carl", "double")),
        130,
        id="both-sides-made",
    ),
    # poignee option 10/20/40
    pytest.param(
        Rules(poignee=(10, 20, 40)), 56, (Poignee("Bert", "single"),), 90, id="option-single-10"
    ),
    pytest.param(
        Rules(poignee=(10, 20, 40)), 56, (Poignee("Anna", "double"),), 100, id="option-double-20"
    ),
    pytest.param(
        Rules(poignee=(10, 20, 40)), 40, (Poignee("Anna", "triple"),), -92, id="option-triple-40"
    ),
]


@pytest.mark.parametrize(("rules", "points", "poignees", "per_defender"), POIGNEES)
def test_poignee(rules, points, poignees, per_defender):
    result = score_hand(
        rules,
        Hand(
            players=FOUR,
            taker="Anna",
            contract="garde",
            bouts=2,
            points=points,
            poignees=poignees,
        ),
    )
    assert result.per_defender == per_defender


def test_everybody_passed():
    result = score_hand(FFT, Hand(players=FOUR, dealer="Dora"))
    assert [result.score(p) for p in FOUR] == [0, 0, 0, 0]
    assert str(result.explanation) == "everybody passed"


# --- Presets (§2) -----------------------------------------------------------------

POUSSE = Rules("pousse")


@pytest.mark.parametrize(
    ("contract", "per_defender"),
    [
        # 56/2: (25 + 15) = 40 × 1, 2, 4, 8, 12
        ("prise", 40),
        ("pousse", 80),
        ("garde", 160),
        ("garde_sans", 320),
        ("garde_contre", 480),
    ],
)
def test_pousse_multipliers(contract, per_defender):
    fields = {"taker": "Anna", "contract": contract, "bouts": 2, "points": 56}
    assert scores(POUSSE, **fields) == [3 * per_defender] + [-per_defender] * 3


def test_pousse_pab_is_multiplied():
    # pousse ×2: (25 + 15 + 10) × 2 = 100
    fields = {"taker": "Anna", "contract": "pousse", "bouts": 2, "points": 56}
    assert scores(POUSSE, petit_au_bout=ATT, **fields) == [300, -100, -100, -100]


CONTRE5 = Rules("contre5")


@pytest.mark.parametrize(
    ("contract", "per_defender"),
    [
        # 56/2: (25 + 15) = 40 × 1, 2, 4, 5
        ("prise", 40),
        ("garde", 80),
        ("garde_sans", 160),
        ("garde_contre", 200),
    ],
)
def test_contre5_multipliers(contract, per_defender):
    fields = {"taker": "Anna", "contract": contract, "bouts": 2, "points": 56}
    assert scores(CONTRE5, **fields) == [3 * per_defender] + [-per_defender] * 3


@pytest.mark.parametrize(
    ("petit_chelem", "per_defender"),
    [
        # garde 80/3: (25 + 44) × 2 = 138
        pytest.param(Chelem(True, ATT), 438, id="announced-made-plus-300"),
        pytest.param(Chelem(True, None), -12, id="announced-failed-minus-150"),
        pytest.param(Chelem(False, ATT), 138, id="made-unannounced-0"),
        pytest.param(None, 138, id="none"),
    ],
)
def test_contre5_petit_chelem(petit_chelem, per_defender):
    fields = {"taker": "Anna", "contract": "garde", "bouts": 3, "points": 80}
    result = score_hand(CONTRE5, Hand(players=FOUR, petit_chelem=petit_chelem, **fields))
    assert result.per_defender == per_defender
    assert result.score("Anna") == 3 * per_defender


@pytest.mark.parametrize(
    ("petit_chelem", "per_defender"),
    [
        # The defence takes every trick but one; the attack keeps 10 points, no bout.
        # garde 10/0: target 56, failed by 46: −(25 + 46) × 2 = −142.
        # Announced by the attack and made by the defence: RULES.md §2 contre5,
        # "announced and failed −150" (the attack announced it and did not make it):
        # −142 − 150 = −292.
        pytest.param(Chelem(True, DEF), -292, id="announced-by-attack-made-by-defence-minus-150"),
        # Not announced, made by the defence: neither "announced and made" nor
        # "announced and failed"; the defence's petit chelem scores nothing: −142.
        pytest.param(Chelem(False, DEF), -142, id="made-by-defence-unannounced-0"),
    ],
)
def test_contre5_petit_chelem_of_the_defence(petit_chelem, per_defender):
    fields = {"taker": "Anna", "contract": "garde", "bouts": 0, "points": 10}
    result = score_hand(CONTRE5, Hand(players=FOUR, petit_chelem=petit_chelem, **fields))
    assert result.per_defender == per_defender
    assert [result.score(p) for p in FOUR] == [3 * per_defender] + [-per_defender] * 3


def test_contre5_petit_chelem_explained():
    fields = {"taker": "Anna", "contract": "garde", "bouts": 3, "points": 80}
    result = score_hand(CONTRE5, Hand(players=FOUR, petit_chelem=Chelem(True, None), **fields))
    assert str(result.explanation) == (
        "(25 + 44) × 2 − 150 petit chelem = −12 per defender; taker −36"
    )


FIXED = Rules("fixed")

FIXED_CASES = [
    # margin 15 → 20 (halves away from zero): 80 + 20
    pytest.param("garde", 2, 56, {}, 100, id="garde-margin-15-to-20"),
    # margin 14 → 10: 80 + 10
    pytest.param("garde", 2, 55, {}, 90, id="garde-margin-14-to-10"),
    # failed by 15 → 20: −(80 + 20)
    pytest.param("garde", 2, 26, {}, -100, id="garde-failed-by-15"),
    # failed by 14 → 10
    pytest.param("garde", 2, 27, {}, -90, id="garde-failed-by-14"),
    # margin 0
    pytest.param("garde_sans", 1, 51, {}, 160, id="garde-sans-made-by-0"),
    pytest.param("garde_contre", 3, 36, {}, 320, id="garde-contre-made-by-0"),
    # margin 5 → 10
    pytest.param("garde_contre", 3, 41, {}, 330, id="garde-contre-margin-5-to-10"),
    # margin 4 → 0
    pytest.param("garde_sans", 3, 40, {}, 160, id="garde-sans-margin-4-to-0"),
    # petit au bout 10, not multiplied
    pytest.param("garde_sans", 2, 56, {"petit_au_bout": ATT}, 190, id="pab-attack-10"),
    pytest.param("garde", 2, 56, {"petit_au_bout": DEF}, 90, id="pab-defence-10"),
    # garde 91/3: margin 55 → 60; 80 + 60 + 1000
    pytest.param("garde", 3, 91, {"chelem": Chelem(True, ATT)}, 1140, id="chelem-announced"),
    pytest.param("garde", 3, 91, {"chelem": Chelem(False, ATT)}, 1140, id="chelem-unannounced"),
    # garde 60/3: margin 24 → 20; 100 − 200
    pytest.param("garde", 3, 60, {"chelem": Chelem(True, None)}, -100, id="chelem-failed"),
    # garde 80/3: margin 44 → 40; 120 + 500
    pytest.param(
        "garde", 3, 80, {"petit_chelem": Chelem(True, ATT)}, 620, id="petit-chelem-announced"
    ),
    pytest.param(
        "garde", 3, 80, {"petit_chelem": Chelem(False, ATT)}, 620, id="petit-chelem-unannounced"
    ),
    # RULES.md only says "petit chelem made +500": announced and failed scores 0
    pytest.param(
        "garde", 3, 80, {"petit_chelem": Chelem(True, None)}, 120, id="petit-chelem-failed-0"
    ),
    # the poignée keeps its fft values: 80 + 20 + 20
    pytest.param("garde", 2, 56, {"poignees": single("Bert")}, 120, id="poignee-not-multiplied"),
]


@pytest.mark.parametrize(("contract", "bouts", "points", "extra", "per_defender"), FIXED_CASES)
def test_fixed(contract, bouts, points, extra, per_defender):
    fields = {"taker": "Anna", "contract": contract, "bouts": bouts, "points": points}
    result = score_hand(FIXED, Hand(players=FOUR, **fields, **extra))
    assert result.per_defender == per_defender
    assert [result.score(p) for p in FOUR] == [3 * per_defender] + [-per_defender] * 3


def test_fixed_half_point_ceil_then_round():
    # 3 players, 55.5 with 2 bouts: margin 14.5 → ceil 15 (§1.2) → 20 (§2 fixed)
    fields = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": Decimal("55.5")}
    assert scores(FIXED, THREE, **fields) == [200, -100, -100]


def test_fixed_explained():
    fields = {"taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}
    result = score_hand(FIXED, Hand(players=FOUR, petit_au_bout=ATT, **fields))
    assert (
        str(result.explanation) == "80 garde + 20 + 10 petit au bout = 110 per defender; taker +330"
    )


# --- Mouches (§3): pools across a sheet ----------------------------------------

MOUCHES = Rules("mouches", ante=10, dealer_stake=5)

MOUCHES_SHEET = (
    # 1. all pass, no pool: everybody antes 10 → [40]; dealer Dora adds 5 → [45]
    Hand(players=FOUR, dealer="Dora"),
    # 2. dealer Anna adds 5 → [50]; Bert garde 56/2: 15 × 2 = 30 per defender,
    #    Bert takes the pool of 50 → []
    Hand(players=FOUR, dealer="Anna", taker="Bert", contract="garde", bouts=2, points=56),
    # 3. no pool: antes → [40]; dealer Bert adds 5 → [45]; Carl garde 40/2 fails
    #    by 1: 1 × 2 = 2 to each defender; Carl pays 45 into a new pool → [45, 45]
    Hand(players=FOUR, dealer="Bert", taker="Carl", contract="garde", bouts=2, points=40),
    # 4. all pass; dealer Carl adds 5 to the oldest of the largest → [50, 45]
    Hand(players=FOUR, dealer="Carl"),
    # 5. dealer Dora adds 5 to the largest → [55, 45]; Anna prise 60/1 made by 9:
    #    9 per defender; Anna takes 55 → [45]
    Hand(players=FOUR, dealer="Dora", taker="Anna", contract="prise", bouts=1, points=60),
)


def test_mouches_sheet():
    result = score_sheet(Sheet(MOUCHES, FOUR, MOUCHES_SHEET))
    per_hand = [[r.score(p) for p in FOUR] for r in result.hands]
    assert per_hand == [
        [-10, -10, -10, -15],
        [-35, 140, -30, -30],
        [-8, -13, -61, -8],
        [0, 0, -5, 0],
        [82, -9, -9, -14],
    ]
    assert [r.pools for r in result.hands] == [(45,), (), (45, 45), (50, 45), (45,)]
    running = [list(map(halves_to_decimal, row)) for row in running_totals(result)]
    assert running == [
        [-10, -10, -10, -15],
        [-45, 130, -40, -45],
        [-53, 117, -101, -53],
        [-53, 117, -106, -53],
        [29, 108, -115, -67],
    ]
    assert result.totals == {"Anna": 29, "Bert": 108, "Carl": -115, "Dora": -67}
    assert result.pools == (45,)
    # players' totals plus the pools always sum to zero
    assert sum(result.totals.values()) + sum(result.pools) == 0
    for row, hand in zip(running_totals(result), result.hands):
        assert sum(row) + 2 * sum(hand.pools) == 0


def test_mouches_sheet_explained():
    result = score_sheet(Sheet(MOUCHES, FOUR, MOUCHES_SHEET))
    assert [str(r.explanation) for r in result.hands] == [
        "everybody passed; each seated player antes 10 into a new pool;"
        " Dora (dealer) adds 5 to the pool; pools 45",
        "15 × 2 = 30 per defender; taker +90; Anna (dealer) adds 5 to the pool;"
        " Bert takes the pool of 50; no pool left",
        "1 × 2 = 2 to each defender; taker −6; each seated player antes 10 into a new pool;"
        " Bert (dealer) adds 5 to the pool; Carl pays 45 into a new pool; pools 45, 45",
        "everybody passed; Carl (dealer) adds 5 to the pool; pools 50, 45",
        "9 × 1 = 9 per defender; taker +27; Dora (dealer) adds 5 to the pool;"
        " Anna takes the pool of 55; pools 45",
    ]


def test_mouches_sheet_through_json():
    sheet = {
        "rules": {"preset": "mouches", "ante": 10, "dealer_stake": 5},
        "players": list(FOUR),
        "hands": [
            {"dealer": "Dora"},
            {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56},
        ],
    }
    assert score_line(json.dumps(sheet)) == {
        "hands": [
            {"scores": {"Anna": -10, "Bert": -10, "Carl": -10, "Dora": -15}, "pools": [45]},
            {"scores": {"Anna": -35, "Bert": 140, "Carl": -30, "Dora": -30}, "pools": []},
        ],
        "totals": {"Anna": -45, "Bert": 130, "Carl": -40, "Dora": -45},
        "pools": [],
    }


def test_mouches_oldest_of_the_largest():
    # pools (40, 30, 40): the dealer's 5 go to the oldest 40 → (45, 30, 40); the
    # taker (prise 51/1, made by 0: 0 × 1) takes the largest, 45 → (30, 40)
    hand = Hand(players=FOUR, dealer="Dora", taker="Anna", contract="prise", bouts=1, points=51)
    result = score_hand(MOUCHES, hand, (40, 30, 40))
    assert result.pools == (30, 40)
    assert [result.score(p) for p in FOUR] == [45, 0, 0, -5]
    # no dealer's stake: a tie between the largest; the taker takes the oldest
    result = score_hand(Rules("mouches", dealer_stake=0), hand, (40, 30, 40))
    assert result.pools == (30, 40)
    assert [result.score(p) for p in FOUR] == [40, 0, 0, 0]


def test_mouches_failed_taker_pays_the_largest():
    # pools (20, 60); dealer's 5 → (20, 65); garde_sans 50/1 fails by 1:
    # −1 × 4 = −4 per defender; Anna pays 65 into a new pool
    hand = Hand(
        players=FOUR, dealer="Bert", taker="Anna", contract="garde_sans", bouts=1, points=50
    )
    result = score_hand(MOUCHES, hand, (20, 60))
    assert result.pools == (20, 65, 65)
    assert [result.score(p) for p in FOUR] == [-77, -1, 4, 4]


def test_mouches_sitting_out_player_antes():
    # five seats playing four: every *seated* player antes; the mort plays no cards
    hand = Hand(
        players=FIVE,
        sits_out="Emil",
        dealer="Emil",
        taker="Anna",
        contract="garde",
        bouts=2,
        points=56,
    )
    result = score_hand(MOUCHES, hand)
    # antes 5 × 10 = 50, Emil adds 5 → 55; 15 × 2 = 30 per defender; Anna takes 55
    assert [result.score(p) for p in FIVE] == [-10 + 90 + 55, -40, -40, -40, -15]
    assert result.pools == ()


def test_mouches_options():
    rules = Rules("mouches", ante=2, dealer_stake=1)
    result = score_hand(rules, Hand(players=THREE, dealer="Carl"))
    assert [result.score(p) for p in THREE] == [-2, -2, -3]
    assert result.pools == (7,)


# --- Two players (§4) ------------------------------------------------------------

TWO_PLAYERS = Rules("two_players")

TWO_CASES = [
    # Anna 50/1 (target 51) fails; Bert has 41/2 (target 41): Bert wins 25 + 0
    pytest.param("Anna", 50, 1, None, [-25, 25], id="anna-recorded-bert-wins"),
    pytest.param("Bert", 41, 2, None, [-25, 25], id="bert-recorded-bert-wins"),
    # Anna 60/2: 25 + 19 = 44
    pytest.param("Anna", 60, 2, None, [44, -44], id="anna-recorded-anna-wins"),
    pytest.param("Bert", 31, 1, None, [44, -44], id="bert-recorded-anna-wins"),
    # petit au bout 10 to whoever took it: Bert's petit → 44 − 10
    pytest.param("Anna", 60, 2, DEF, [34, -34], id="pab-to-the-loser-anna"),
    pytest.param("Bert", 31, 1, ATT, [34, -34], id="pab-to-the-loser-bert"),
    pytest.param("Anna", 60, 2, ATT, [54, -54], id="pab-to-the-winner-anna"),
    pytest.param("Bert", 31, 1, DEF, [54, -54], id="pab-to-the-winner-bert"),
]


@pytest.mark.parametrize(("taker", "points", "bouts", "pab", "expected"), TWO_CASES)
def test_two_players(taker, points, bouts, pab, expected):
    fields = {"taker": taker, "bouts": bouts, "points": points, "petit_au_bout": pab}
    assert scores(TWO_PLAYERS, TWO, **fields) == expected


def test_two_players_explained():
    result = score_hand(TWO_PLAYERS, Hand(players=TWO, taker="Anna", bouts=2, points=60))
    assert str(result.explanation) == "Anna wins: 25 + 19 = 44; Anna +44, Bert −44"


def test_two_players_sitting_out():
    fields = {"taker": "Bert", "bouts": 2, "points": 60, "sits_out": "Carl"}
    assert scores(TWO_PLAYERS, THREE, **fields) == [-44, 44, 0]


# --- Options (§2) ---------------------------------------------------------------

ROUNDING = [
    # prise: S = 25 + margin; rounded to the nearest multiple, halves away from zero
    pytest.param(5, 42, 25, id="5: 26 → 25"),
    pytest.param(5, 43, 25, id="5: 27 → 25"),
    pytest.param(5, 44, 30, id="5: 28 → 30"),
    pytest.param(5, 39, -25, id="5: −27 → −25"),
    pytest.param(5, 38, -30, id="5: −28 → −30"),
    pytest.param(10, 71, 60, id="10: 55 → 60"),
    pytest.param(10, 70, 50, id="10: 54 → 50"),
    pytest.param(10, 11, -60, id="10: −55 → −60"),
    pytest.param(10, 12, -50, id="10: −54 → −50"),
    pytest.param(1, 43, 27, id="1: none"),
]


@pytest.mark.parametrize(("rounding", "points", "per_defender"), ROUNDING)
def test_rounding(rounding, points, per_defender):
    fields = {"taker": "Anna", "contract": "prise", "bouts": 2, "points": points}
    assert scores(Rules(rounding=rounding), **fields) == [3 * per_defender] + [-per_defender] * 3


def test_rounding_explained():
    fields = {"taker": "Anna", "contract": "prise", "bouts": 2, "points": 71}
    result = score_hand(Rules(rounding=10), Hand(players=FOUR, **fields))
    assert str(result.explanation) == "(25 + 30) × 1 = 55, rounded to 60 per defender; taker +180"


def test_rounding_before_equal_split():
    # prise 47/2: 31 → 30 (rounding 5); taker and partner 1.5 × 30 = 45
    rules = Rules(rounding=5, five_player_split="equal")
    fields = {"taker": "Anna", "partner": "Bert", "contract": "prise", "bouts": 2, "points": 47}
    assert scores(rules, FIVE, **fields) == [45, 45, -30, -30, -30]


MISERE = Rules(misere=10)

MISERES = [
    # card scores 240/−80/−80/−80; Carl receives 10 from each of the 3 others
    pytest.param(
        FOUR,
        {"taker": "Anna", **GARDE_56_2, "miseres": ("Carl",)},
        [230, -90, -50, -90],
        id="with-a-contract",
    ),
    pytest.param(FOUR, {"miseres": ("Carl",)}, [-10, -10, 30, -10], id="everybody-passed"),
    pytest.param(
        FOUR,
        {"taker": "Anna", **GARDE_56_2, "miseres": ("Anna", "Bert")},
        # Anna 240 + 30 − 10; Bert −80 + 30 − 10; Carl, Dora −80 − 20
        [260, -60, -100, -100],
        id="two-miseres",
    ),
    pytest.param(
        FIVE,
        {"sits_out": "Emil", "miseres": ("Carl",)},
        [-10, -10, 30, -10, 0],
        id="the-mort-pays-nothing",
    ),
    pytest.param(TWO, {"miseres": ("Bert",)}, [-10, 10], id="two-players-passed"),
]


@pytest.mark.parametrize(("players", "fields", "expected"), MISERES)
def test_misere(players, fields, expected):
    rules = MISERE if len(players) > 2 else Rules("two_players", misere=10)
    assert scores(rules, players, **fields) == expected


def test_misere_explained():
    fields = {"taker": "Anna", **GARDE_56_2, "miseres": ("Carl",)}
    result = score_hand(MISERE, Hand(players=FOUR, **fields))
    assert str(result.explanation) == (
        "(25 + 15) × 2 = 80 per defender; taker +240; misère: Carl +30 (10 from each)"
    )


def test_no_prise_accepts_garde():
    assert scores(Rules(no_prise=True), taker="Anna", **GARDE_56_2) == [240, -80, -80, -80]
    assert Rules(no_prise=True).contracts == ("garde", "garde_sans", "garde_contre")
