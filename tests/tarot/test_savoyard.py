"""The Savoyard rules of 1902 (../shared/SAVOYARD.md): worked examples, refusals,
properties and the JSON format.

Every figure of a worked example is worked out by hand in its comment, from the
contract: D = |count − tie line|; f doubles for a losing count strictly below
half the line, a solo with at most one card, a solo as dealt.
"""

import json
import random
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tarot import CODES, Rules, ScoringError, Sheet, score_hand, score_sheet
from tarot.jsonformat import hand_to_dict, parse_hand, parse_rules, score_line
from tarot.randomhands import random_hand, rule_variants
from tarot.rulesets.savoyard import RULESET, Baga, SavoyardHand

SAVOYARD = Rules("savoyard")
FIVE = ("Amélie", "Béatrice", "Cécile", "Denis", "Émile")
FOUR = FIVE[:4]
THREE = FIVE[:3]
SIX = (*FIVE, "Fanny")
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def rules(**options):
    return Rules("savoyard", options=options)


def scores(line_or_data):
    data = line_or_data if isinstance(line_or_data, str) else json.dumps(line_or_data)
    out = score_line(data, explain=True)
    assert "error" not in out, out
    return out


def hand(players=FIVE, **fields):
    return SavoyardHand(players=tuple(players), **fields)


def points(rules_, hand_):
    return {p: int(v) for p, v in score_hand(rules_, hand_).scores.items()}


# --- The contract's own examples ------------------------------------------------------


def test_the_contracts_json_example():
    # 5 players, 78 cards, classic: total 68, tie 34, doubled below 17.
    # count 40: D = |40 − 34| = 6; losers 68 − 40 = 28 ≥ 17, f = 1.
    # three pay 6 = 18: the dealer (Amélie) 9, the partner (Denis) 9.
    # baga 10 to the declarers, paid like the game: three pay 10 = 30, 15 and 15.
    # Amélie 9 + 15 = 24, Denis 24, the others −6 − 10 = −16 (sum 48 − 48 = 0).
    out = scores(
        {
            "rules": {"preset": "savoyard", "deck": 78, "count": "classic", "baga": 10},
            "players": list(FIVE),
            "dealer": "Amélie",
            "sits_out": None,
            "mode": "call",
            "partner": "Denis",
            "count": 40,
            "baga": {"to": "declarers", "announced": False},
        }
    )
    assert out["scores"] == {
        "Amélie": 24,
        "Béatrice": -16,
        "Cécile": -16,
        "Denis": 24,
        "Émile": -16,
    }
    assert out["explanation"].startswith(
        "|40 − 34| = 6 × 1; three pay 6, the dealer takes 9 and the partner 9; "
        "baga au bout worth 10 to the declarers: "
        "three pay 10, the dealer takes 15 and the partner 15"
    )


def test_the_seeds_example_at_three_each_for_himself():
    # 78 cards at three: total 78, each line 26, doubled under 13.
    # Amélie 37 − 26 = +11, Béatrice 29 − 26 = +3, Cécile 12 − 26 = −14, under 13: −28.
    # The 28 shared in proportion 11 : 3 → 22 and 6.
    out = scores(
        {
            "rules": "savoyard",
            "players": list(THREE),
            "dealer": "Cécile",
            "mode": "each",
            "counts": {"Amélie": 37, "Béatrice": 29, "Cécile": 12},
        }
    )
    assert out["scores"] == {"Amélie": 22, "Béatrice": 6, "Cécile": -28}
    assert out["explanation"] == (
        "Cécile pays 26 − 12 = 14 × 2 (under 13) = 28; "
        "shared by the excess over 26: Amélie 11 → +22, Béatrice 3 → +6"
    )


# --- Worked examples, mode by mode ----------------------------------------------------

WORKED = [
    # solo at five, two cards asked, 40: D 6, f 1: soloist 4 × 6 = +24, each −6
    pytest.param(
        SAVOYARD,
        hand(dealer="Amélie", mode="solo", declarer="Cécile", cards_asked=2, count=40),
        {"Amélie": -6, "Béatrice": -6, "Cécile": 24, "Denis": -6, "Émile": -6},
        id="solo-two-cards-won",
    ),
    # solo as dealt, 52: losers 16 < 17 ×2, one card or none ×2, as dealt ×2 = ×8;
    # D 18 × 8 = 144 each, soloist 4 × 144 = 576
    pytest.param(
        SAVOYARD,
        hand(dealer="Amélie", mode="solo", declarer="Cécile", cards_asked=0, count=52),
        {"Amélie": -144, "Béatrice": -144, "Cécile": 576, "Denis": -144, "Émile": -144},
        id="solo-as-dealt-x8",
    ),
    # solo with one card lost, 30: D 4; the soloist's 30 ≥ 17; one card ×2 → 8 each
    pytest.param(
        SAVOYARD,
        hand(dealer="Amélie", mode="solo", declarer="Denis", cards_asked=1, count=30),
        {"Amélie": 8, "Béatrice": 8, "Cécile": 8, "Denis": -32, "Émile": 8},
        id="solo-one-card-lost",
    ),
    # call at five lost, 13: D 21, the declarers' 13 < 17 ×2 → 42 to each of three;
    # the two pay 126: dealer 63, partner 63
    pytest.param(
        SAVOYARD,
        hand(dealer="Béatrice", mode="call", partner="Émile", count=13),
        {"Amélie": 42, "Béatrice": -63, "Cécile": 42, "Denis": 42, "Émile": -63},
        id="call-five-lost-doubled",
    ),
    # call at five lost by one, 33: D 1; three take 1; the two pay 3: dealer 2 (odd point)
    pytest.param(
        SAVOYARD,
        hand(dealer="Béatrice", mode="call", partner="Émile", count=33),
        {"Amélie": 1, "Béatrice": -2, "Cécile": 1, "Denis": 1, "Émile": -1},
        id="call-five-odd-point",
    ),
    # call at five won by one, 35: three pay 1; the dealer takes 2, the partner 1
    pytest.param(
        SAVOYARD,
        hand(dealer="Béatrice", mode="call", partner="Émile", count=35),
        {"Amélie": -1, "Béatrice": 2, "Cécile": -1, "Denis": -1, "Émile": 1},
        id="call-five-odd-point-won",
    ),
    # a tie at five: 34 is the tie line, nobody pays
    pytest.param(
        SAVOYARD,
        hand(dealer="Béatrice", mode="call", partner="Émile", count=34),
        dict.fromkeys(FIVE, 0),
        id="tie-five",
    ),
    # four, 78 cards: total 72, tie 36; a call at 36 is a tie
    pytest.param(
        SAVOYARD,
        hand(FOUR, dealer="Amélie", mode="call", partner="Cécile", count=36),
        dict.fromkeys(FOUR, 0),
        id="tie-four",
    ),
    # partners at four, dealer Béatrice: her partner sits two places after, Denis.
    # 50: D 14, losers 22 ≥ 18: each loser pays 14 to one winner
    pytest.param(
        SAVOYARD,
        hand(FOUR, dealer="Béatrice", mode="partners", count=50),
        {"Amélie": -14, "Béatrice": 14, "Cécile": -14, "Denis": 14},
        id="partners-four",
    ),
    # partners at four, dealer Denis (last): partner Béatrice (wraps); 17 < 18 lost doubled:
    # D 19 × 2 = 38
    pytest.param(
        SAVOYARD,
        hand(FOUR, dealer="Denis", mode="partners", count=17),
        {"Amélie": 38, "Béatrice": -38, "Cécile": 38, "Denis": -38},
        id="partners-four-doubled",
    ),
    # call at four (two against two): 40 of 72: D 4; each loser pays 4
    pytest.param(
        SAVOYARD,
        hand(FOUR, dealer="Amélie", mode="call", partner="Béatrice", count=40),
        {"Amélie": 4, "Béatrice": 4, "Cécile": -4, "Denis": -4},
        id="call-four",
    ),
    # solo at four, two cards, 30 of 72: D 6, lost; soloist −3 × 6 = −18
    pytest.param(
        SAVOYARD,
        hand(FOUR, dealer="Amélie", mode="solo", declarer="Béatrice", cards_asked=2, count=30),
        {"Amélie": 6, "Béatrice": -18, "Cécile": 6, "Denis": 6},
        id="solo-four",
    ),
    # 78 cards at three, solo: total 78, tie 39, doubled below 19.5.
    # 59: losers 19 < 19.5 ×2, D 20 → 40 each, soloist +80
    pytest.param(
        SAVOYARD,
        hand(THREE, dealer="Amélie", mode="solo", declarer="Béatrice", cards_asked=2, count=59),
        {"Amélie": -40, "Béatrice": 80, "Cécile": -40},
        id="solo-three-doubled-below-19.5",
    ),
    # 58: losers 20 ≥ 19.5, D 19 → 19 each, soloist +38
    pytest.param(
        SAVOYARD,
        hand(THREE, dealer="Amélie", mode="solo", declarer="Béatrice", cards_asked=2, count=58),
        {"Amélie": -19, "Béatrice": 38, "Cécile": -19},
        id="solo-three",
    ),
    # 62 cards at five: total 64 (no skat point), tie 32, doubled below 16.
    # call 10: D 22, 10 < 16 ×2 → 44 to each of three; the two pay 132: 66 and 66
    pytest.param(
        rules(deck=62),
        hand(dealer="Amélie", mode="call", partner="Cécile", count=10),
        {"Amélie": -66, "Béatrice": 44, "Cécile": -66, "Denis": 44, "Émile": 44},
        id="62-five-call",
    ),
    # 62 cards at four: total 68, tie 34. solo, two cards, 35: D 1, soloist +3
    pytest.param(
        rules(deck=62),
        hand(FOUR, dealer="Amélie", mode="solo", declarer="Denis", cards_asked=2, count=35),
        {"Amélie": -1, "Béatrice": -1, "Cécile": -1, "Denis": 3},
        id="62-four-solo",
    ),
    # 62 cards at three: total 72, tie 36, doubled below 18. 54: losers 18, not below;
    # D 18, soloist +36
    pytest.param(
        rules(deck=62),
        hand(THREE, dealer="Amélie", mode="solo", declarer="Amélie", cards_asked=2, count=54),
        {"Amélie": 36, "Béatrice": -18, "Cécile": -18},
        id="62-three-solo-at-18",
    ),
    # 55: losers 17 < 18 ×2, D 19 → 38 each, soloist +76
    pytest.param(
        rules(deck=62),
        hand(THREE, dealer="Amélie", mode="solo", declarer="Amélie", cards_asked=2, count=55),
        {"Amélie": 76, "Béatrice": -38, "Cécile": -38},
        id="62-three-solo-doubled",
    ),
    # 62 cards at three, each: line 24, doubled under 12. 30 / 30 / 12: 12 pays 12
    # (12 is not under 12), shared 6 : 6
    pytest.param(
        rules(deck=62),
        hand(
            THREE,
            dealer="Amélie",
            mode="each",
            counts=(("Amélie", 30), ("Béatrice", 30), ("Cécile", 12)),
        ),
        {"Amélie": 6, "Béatrice": 6, "Cécile": -12},
        id="62-three-each",
    ),
    # Ticino count: total 72 whatever the table; at five tie 36. call 40: D 4, f 1;
    # three pay 4 = 12: dealer 6, partner 6
    pytest.param(
        rules(count="ticino"),
        hand(dealer="Amélie", mode="call", partner="Denis", count=40),
        {"Amélie": 6, "Béatrice": -4, "Cécile": -4, "Denis": 6, "Émile": -4},
        id="ticino-five-call",
    ),
    # Ticino at three, each: line 24. 40 / 20 / 12: 20 pays 4, 12 pays 12 (not under 12);
    # Amélie alone over the line takes 16
    pytest.param(
        rules(count="ticino", deck=62),
        hand(
            THREE,
            dealer="Cécile",
            mode="each",
            counts=(("Amélie", 40), ("Béatrice", 20), ("Cécile", 12)),
        ),
        {"Amélie": 16, "Béatrice": -4, "Cécile": -12},
        id="ticino-three-each",
    ),
    # each, two under the line: 52 / 14 / 12 of 78: 14 pays 12; 12 pays 14 × 2 = 28 (under 13);
    # Amélie takes 40
    pytest.param(
        SAVOYARD,
        hand(
            THREE,
            dealer="Amélie",
            mode="each",
            counts=(("Amélie", 52), ("Béatrice", 14), ("Cécile", 12)),
        ),
        {"Amélie": 40, "Béatrice": -12, "Cécile": -28},
        id="each-two-losers",
    ),
    # each, all at the line: 26 / 26 / 26, nobody pays
    pytest.param(
        SAVOYARD,
        hand(
            THREE,
            dealer="Amélie",
            mode="each",
            counts=(("Amélie", 26), ("Béatrice", 26), ("Cécile", 26)),
        ),
        dict.fromkeys(THREE, 0),
        id="each-even",
    ),
    # six at the table: Fanny sits out and scores 0; solo at five, two cards, 40 → +24
    pytest.param(
        SAVOYARD,
        hand(
            SIX,
            dealer="Amélie",
            sits_out="Fanny",
            mode="solo",
            declarer="Cécile",
            cards_asked=2,
            count=40,
        ),
        {"Amélie": -6, "Béatrice": -6, "Cécile": 24, "Denis": -6, "Émile": -6, "Fanny": 0},
        id="six-one-sits-out",
    ),
    # baga in a solo with one card, announced, to the declarers at four:
    # 10 × 2 (one card) × 2 (announced) = 40, paid like the game: each opponent 40,
    # the soloist 3 × 40 = 120. The game: 36 is the tie line, nothing.
    pytest.param(
        SAVOYARD,
        hand(
            FOUR,
            dealer="Amélie",
            mode="solo",
            declarer="Béatrice",
            cards_asked=1,
            count=36,
            baga=Baga("declarers", True),
        ),
        {"Amélie": -40, "Béatrice": 120, "Cécile": -40, "Denis": -40},
        id="baga-solo-one-card-announced",
    ),
    # baga in a solo as dealt to the opponents: 10 × 4 = 40 from the soloist to each;
    # the game: 40 of 72, D 4 × 4 (one card or none, as dealt) = 16 each way.
    # soloist 3 × 16 − 3 × 40 = −72; each opponent −16 + 40 = +24
    pytest.param(
        SAVOYARD,
        hand(
            FOUR,
            dealer="Amélie",
            mode="solo",
            declarer="Béatrice",
            cards_asked=0,
            count=40,
            baga=Baga("opponents"),
        ),
        {"Amélie": 24, "Béatrice": -72, "Cécile": 24, "Denis": 24},
        id="baga-solo-as-dealt-lost",
    ),
    # baga at four in a call, to the opponents: each declarer pays 10 to one opponent;
    # the game: a tie at 36
    pytest.param(
        SAVOYARD,
        hand(
            FOUR, dealer="Amélie", mode="call", partner="Cécile", count=36, baga=Baga("opponents")
        ),
        {"Amélie": -10, "Béatrice": 10, "Cécile": -10, "Denis": 10},
        id="baga-two-against-two",
    ),
    # baga 15 at five in a call, to the declarers: three pay 15 = 45: dealer 23 (the odd
    # point), partner 22; the game: a tie at 34
    pytest.param(
        rules(baga=15),
        hand(dealer="Amélie", mode="call", partner="Denis", count=34, baga=Baga("declarers")),
        {"Amélie": 23, "Béatrice": -15, "Cécile": -15, "Denis": 22, "Émile": -15},
        id="baga-odd-point",
    ),
    # announced baga lost at five in a call: 20 to each of the three; the two pay 60: 30, 30
    pytest.param(
        SAVOYARD,
        hand(dealer="Amélie", mode="call", partner="Denis", count=34, baga=Baga("opponents", True)),
        {"Amélie": -30, "Béatrice": 20, "Cécile": 20, "Denis": -30, "Émile": 20},
        id="baga-announced-lost-five",
    ),
]


@pytest.mark.parametrize(("rules_", "hand_", "expected"), WORKED)
def test_worked_example(rules_, hand_, expected):
    assert points(rules_, hand_) == expected
    result = score_hand(rules_, hand_)
    assert sum(result.halves) == 0
    assert all(h % 2 == 0 for h in result.halves)  # whole points
    assert str(result.explanation)


def test_the_tables_totals_and_lines():
    table = {
        (5, 78): (68, 34),
        (4, 78): (72, 36),
        (3, 78): (78, 39),
        (5, 62): (64, 32),
        (4, 62): (68, 34),
        (3, 62): (72, 36),
    }
    for (n, deck), (total, line) in table.items():
        described = Rules("savoyard", options={"deck": deck}).describe()["tables"][n]
        assert (described["total"], described["line"]) == (total, line)
    assert Rules("savoyard").describe()["tables"][3]["each_line"] == 26
    assert rules(deck=62).describe()["tables"][3]["each_line"] == 24
    for n in (3, 4, 5):
        for deck in (78, 62):
            assert rules(count="ticino", deck=deck).describe()["tables"][n]["total"] == 72


def test_explanations_name_the_doubling_reasons():
    as_dealt = score_hand(
        SAVOYARD, hand(dealer="Amélie", mode="solo", declarer="Cécile", cards_asked=0, count=52)
    )
    assert str(as_dealt.explanation) == (
        "|52 − 34| = 18 × 8 (losers under 17) (solo with one card or none) (solo as dealt); "
        "each opponent pays 144, the soloist takes 576"
    )
    lost = score_hand(SAVOYARD, hand(dealer="Béatrice", mode="call", partner="Émile", count=13))
    assert str(lost.explanation) == (
        "|13 − 34| = 21 × 2 (losers under 17); three take 42, the dealer pays 63 and the partner 63"
    )
    tie = score_hand(SAVOYARD, hand(dealer="Béatrice", mode="call", partner="Émile", count=34))
    assert str(tie.explanation) == "34: exactly the tie line, nobody pays"
    baga = score_hand(
        SAVOYARD,
        hand(
            FOUR,
            dealer="Amélie",
            mode="solo",
            declarer="Béatrice",
            cards_asked=1,
            count=36,
            baga=Baga("declarers", True),
        ),
    )
    assert str(baga.explanation).endswith(
        "; baga au bout worth 10 × 2 (solo with one card) × 2 (announced) = 40 to the declarers: "
        "each opponent pays 40, the soloist takes 120"
    )


def test_roles_of_the_result():
    call = score_hand(SAVOYARD, hand(dealer="Amélie", mode="call", partner="Denis", count=40))
    assert call.roles == ("taker", "defender", "defender", "partner", "defender")
    solo = score_hand(
        SAVOYARD,
        hand(
            SIX,
            dealer="Amélie",
            sits_out="Fanny",
            mode="solo",
            declarer="Cécile",
            cards_asked=2,
            count=40,
        ),
    )
    assert solo.roles == ("defender", "defender", "taker", "defender", "defender", "sits_out")
    partners = score_hand(SAVOYARD, hand(FOUR, dealer="Béatrice", mode="partners", count=50))
    assert partners.partner == "Denis" and partners.taker == "Béatrice"
    each = score_hand(
        SAVOYARD,
        hand(
            THREE,
            dealer="Amélie",
            mode="each",
            counts=(("Amélie", 26), ("Béatrice", 26), ("Cécile", 26)),
        ),
    )
    assert each.roles == ("defender",) * 3
    assert call.detail.factor == 1 and call.card_margin == 6 and call.made


# --- Options -------------------------------------------------------------------------


def test_options_are_carried_checked_and_round_trip():
    assert SAVOYARD.options == (("deck", 78), ("count", "classic"), ("baga", 10))
    assert SAVOYARD == rules(deck=78) == Rules("savoyard", options=(("baga", 10),))
    assert SAVOYARD.as_dict() == {"preset": "savoyard", "deck": 78, "count": "classic", "baga": 10}
    no_baga = parse_rules({"preset": "savoyard", "baga": None, "deck": 62, "count": "ticino"})
    assert no_baga.option("baga") is None and no_baga.option("deck") == 62
    assert parse_rules(no_baga.as_dict()) == no_baga
    assert parse_rules("savoyard") == SAVOYARD
    assert Rules().options == () and Rules().as_dict() == {"preset": "fft"}


# --- Refusals: every Savoyard code, the field named ----------------------------------


def line(**changes):
    """A valid five-player call (the contract's example) with some fields changed."""
    data = {
        "rules": "savoyard",
        "players": list(FIVE),
        "dealer": "Amélie",
        "mode": "call",
        "partner": "Denis",
        "count": 40,
    }
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return json.dumps(data)


def solo(**changes):
    return line(
        **{"mode": "solo", "partner": None, "declarer": "Cécile", "cards_asked": 2, **changes}
    )


def each(**changes):
    base = {
        "players": list(THREE),
        "mode": "each",
        "partner": None,
        "count": None,
        "counts": {"Amélie": 37, "Béatrice": 29, "Cécile": 12},
    }
    return line(**{**base, **changes})


SAVOYARD_REFUSALS = [
    pytest.param(line(count=69), "count_out_of_range", "count", id="count-over-total"),
    pytest.param(line(count=-1), "count_out_of_range", "count", id="count-negative"),
    pytest.param(line(count=40.5), "count_out_of_range", "count", id="count-not-whole"),
    pytest.param(line(count=None), "count_out_of_range", "count", id="count-missing"),
    pytest.param(line(count="40"), "invalid_field", "count", id="count-string"),
    pytest.param(
        line(players=list(FOUR), count=73), "count_out_of_range", "count", id="count-over-72"
    ),
    pytest.param(
        each(counts={"Amélie": 37, "Béatrice": 41}),
        "counts_inconsistent",
        "counts",
        id="counts-missing-a-player",
    ),
    pytest.param(
        each(counts={"Amélie": 37, "Béatrice": 29, "Cécile": 13}),
        "counts_inconsistent",
        "counts",
        id="counts-not-adding-up",
    ),
    pytest.param(
        each(counts={"Amélie": 37, "Béatrice": 29, "Cécile": 12, "Denis": 0}),
        "counts_inconsistent",
        "counts",
        id="counts-extra-player",
    ),
    pytest.param(
        each(counts={"Amélie": 90, "Béatrice": 0, "Cécile": -12}),
        "count_out_of_range",
        "counts",
        id="counts-out-of-range",
    ),
    pytest.param(each(counts=[37, 29, 12]), "invalid_field", "counts", id="counts-list"),
    pytest.param(line(mode="whist"), "mode_unknown", "mode", id="mode-unknown"),
    pytest.param(line(mode=None), "mode_unknown", "mode", id="mode-missing"),
    pytest.param(
        line(mode="partners", partner=None), "mode_not_played", "mode", id="partners-at-five"
    ),
    pytest.param(each(players=list(FOUR)), "mode_not_played", "mode", id="each-at-four"),
    pytest.param(
        line(players=list(THREE), count=40), "mode_not_played", "mode", id="call-at-three"
    ),
    pytest.param(solo(cards_asked=3), "cards_asked_out_of_range", "cards_asked", id="cards-3"),
    pytest.param(solo(cards_asked=-1), "cards_asked_out_of_range", "cards_asked", id="cards-neg"),
    pytest.param(
        solo(cards_asked=None), "cards_asked_out_of_range", "cards_asked", id="cards-missing"
    ),
    pytest.param(
        solo(cards_asked=1.5), "cards_asked_out_of_range", "cards_asked", id="cards-not-whole"
    ),
    pytest.param(line(partner="Amélie"), "partner_is_dealer", "partner", id="partner-dealer"),
    pytest.param(line(partner="Zoé"), "player_not_at_table", "partner", id="partner-not-seated"),
    pytest.param(line(partner=None), "invalid_field", "partner", id="partner-missing"),
    pytest.param(
        line(players=list(SIX), sits_out="Denis"),
        "player_sits_out",
        "partner",
        id="partner-sits-out",
    ),
    pytest.param(each(baga={"to": "declarers"}), "baga_not_allowed", "baga", id="baga-at-three"),
    pytest.param(
        line(rules={"preset": "savoyard", "baga": None}, baga={"to": "opponents"}),
        "baga_not_allowed",
        "baga",
        id="baga-without-baga",
    ),
    pytest.param(line(baga={"to": "attack"}), "invalid_field", "baga", id="baga-side"),
    pytest.param(line(baga=True), "invalid_field", "baga", id="baga-shape"),
    pytest.param(
        line(players=["Amélie", "Béatrice", "Amélie", "Denis"]),
        "duplicate_player",
        "players",
        id="player-twice",
    ),
    pytest.param(line(players=list(SIX)), "sits_out_invalid", "sits_out", id="six-no-sits-out"),
    pytest.param(line(sits_out="Émile"), "sits_out_invalid", "sits_out", id="sits-out-at-five"),
    pytest.param(
        line(players=list(SIX), sits_out="Amélie"),
        "player_sits_out",
        "dealer",
        id="dealer-sits-out",
    ),
    pytest.param(line(dealer=None), "dealer_required", "dealer", id="dealer-missing"),
    pytest.param(line(dealer="Zoé"), "player_not_at_table", "dealer", id="dealer-not-seated"),
    pytest.param(line(players=["Amélie", "Denis"]), "seat_count", "players", id="two-seated"),
    pytest.param(solo(declarer=None), "invalid_field", "declarer", id="declarer-missing"),
    pytest.param(solo(declarer="Zoé"), "player_not_at_table", "declarer", id="declarer-unseated"),
    pytest.param(solo(partner="Denis"), "invalid_field", "partner", id="partner-in-a-solo"),
    pytest.param(line(cards_asked=1), "invalid_field", "cards_asked", id="cards-in-a-call"),
    pytest.param(
        line(mode="partners", players=list(FOUR), partner="Béatrice"),
        "invalid_field",
        "partner",
        id="partners-wrong-partner",
    ),
    pytest.param(line(bouts=2), "invalid_field", "bouts", id="a-tarot-field"),
    pytest.param(
        line(rules={"preset": "savoyard", "deck": 52}), "rules_invalid", "deck", id="deck-52"
    ),
    pytest.param(
        line(rules={"preset": "savoyard", "count": "pagat"}),
        "rules_invalid",
        "count",
        id="count-option",
    ),
    pytest.param(
        line(rules={"preset": "savoyard", "baga": -5}), "rules_invalid", "baga", id="baga-option"
    ),
    pytest.param(
        line(rules={"preset": "savoyard", "rounding": 10}),
        "rules_invalid",
        "rules",
        id="tarot-option",
    ),
]


@pytest.mark.parametrize(("line_", "code", "field"), SAVOYARD_REFUSALS)
def test_savoyard_refusal(line_, code, field):
    out = score_line(line_)
    assert out["error"]["code"] == code, out
    assert out["error"].get("field") == field, out
    assert code in CODES
    assert (
        field is None
        or out["error"]["message"].startswith(field.split(".")[0])
        or (out["error"]["message"].startswith("rules"))
    )


def test_tarot_options_on_savoyard_rules_are_refused_in_python_too():
    with pytest.raises(ScoringError) as caught:
        Rules("savoyard", misere=10)
    assert (caught.value.code, caught.value.field) == ("rules_invalid", "misere")
    with pytest.raises(ScoringError) as caught:
        Rules("fft", options={"deck": 62})
    assert (caught.value.code, caught.value.field) == ("rules_invalid", "deck")


def test_a_tarot_hand_under_savoyard_rules_is_refused():
    from tarot import Hand

    with pytest.raises(ScoringError) as caught:
        score_hand(SAVOYARD, Hand(players=FIVE, taker="Anna"))
    assert caught.value.code == "invalid_field"


# --- Properties --------------------------------------------------------------------------

VARIANTS = rule_variants(RULESET)
TABLES = (THREE, FOUR, FIVE, SIX)


@st.composite
def savoyard_case(draw):
    rules_ = draw(st.sampled_from(VARIANTS))
    players = draw(st.sampled_from(TABLES))
    rng = draw(st.randoms(use_true_random=False))
    sits_out = players[rng.randrange(6)] if len(players) == 6 else None
    return rules_, random_hand(rng, rules_, players, sits_out)


@FAST
@given(savoyard_case())
def test_a_savoyard_hand_sums_to_zero_in_whole_points(case):
    rules_, hand_ = case
    result = score_hand(rules_, hand_)
    assert sum(result.halves) == 0
    assert all(h % 2 == 0 for h in result.halves)
    if hand_.sits_out is not None:
        assert result.score(hand_.sits_out) == 0
    assert str(result.explanation)


@FAST
@given(savoyard_case(), st.integers(1, 20))
def test_a_higher_declaring_count_never_lowers_the_declarers_score(case, more):
    rules_, hand_ = case
    assume(hand_.mode != "each")
    total = RULESET.total(rules_, len(hand_.players) - (hand_.sits_out is not None))
    assume(hand_.count + more <= total)
    higher = SavoyardHand(**{**_fields(hand_), "count": hand_.count + more})
    before, after = score_hand(rules_, hand_), score_hand(rules_, higher)
    declarers = [p for p in (before.taker, before.partner) if p is not None]
    for name in declarers:
        assert after.score(name) >= before.score(name)


def _fields(hand_):
    return {name: getattr(hand_, name) for name in hand_.__slots__}


@FAST
@given(savoyard_case())
def test_json_round_trip(case):
    rules_, hand_ = case
    data = {"rules": rules_.as_dict(), **hand_to_dict(hand_, with_players=True)}
    text = json.dumps(data)
    parsed_rules, parsed = parse_hand(json.loads(text, parse_float=Decimal))
    assert parsed_rules == rules_ and parsed == hand_
    result = score_hand(rules_, hand_)
    assert score_line(text)["scores"] == {p: h // 2 for p, h in zip(hand_.players, result.halves)}


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(VARIANTS))
def test_a_sheet_sums_to_zero(rng, rules_):
    players = rng.choice(TABLES)
    hands = []
    for number in range(rng.randrange(1, 8)):
        dealer = players[number % len(players)]
        out = players[(players.index(dealer) - 1) % 6] if len(players) == 6 else None
        hands.append(random_hand(rng, rules_, players, out, dealer))
    sheet = Sheet(rules_, players, tuple(hands))
    result = score_sheet(sheet)
    assert sum(result.totals_halves) == 0
    text = json.dumps(
        {
            "rules": rules_.as_dict(),
            "players": list(players),
            "hands": [hand_to_dict(h) for h in hands],
        }
    )
    assert score_line(text)["totals"] == {p: h // 2 for p, h in zip(players, result.totals_halves)}


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-100, 100)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from((*SIX, "", "solo", "call", "partners", "each", "declarers", "opponents"))
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from((*SIX, "to", "announced", "x")), inner, max_size=4)
    ),
    max_leaves=10,
)
FIELDS = (
    "dealer",
    "sits_out",
    "mode",
    "declarer",
    "cards_asked",
    "partner",
    "count",
    "counts",
    "baga",
    "players",
    "rules.deck",
    "rules.count",
    "rules.baga",
    "junk",
)


@FAST
@given(
    savoyard_case(),
    st.lists(st.tuples(st.sampled_from(FIELDS), json_values), min_size=1, max_size=3),
)
def test_refused_input_raises_only_the_engines_error(case, changes):
    rules_, hand_ = case
    data = {"rules": rules_.as_dict(), **hand_to_dict(hand_, with_players=True)}
    for key, value in changes:
        if key.startswith("rules."):
            data["rules"][key[6:]] = value
        else:
            data[key] = value
    out = score_line(json.dumps(data))
    if "error" in out:
        assert out["error"]["code"] in CODES
    else:
        assert sum(out["scores"].values()) == 0
    json.dumps(out, allow_nan=False)


@FAST
@given(
    savoyard_case(),
    st.sampled_from(
        (
            "players",
            "dealer",
            "mode",
            "declarer",
            "cards_asked",
            "partner",
            "count",
            "counts",
            "sits_out",
            "baga",
        )
    ),
    st.sampled_from(("x", -1, 2.5, None, 10**30, Decimal("NaN"), ("Anna",), (("Anna", 1),), [])),
)
def test_the_dataclass_api_raises_only_the_engines_error(case, field, value):
    rules_, hand_ = case
    broken = SavoyardHand(**{**_fields(hand_), field: value})
    try:
        result = score_hand(rules_, broken)
    except ScoringError as error:
        assert error.code in CODES
    else:
        assert sum(result.halves) == 0


def test_each_for_himself_shares_exactly_at_three():
    """At three the shares are always exact: with one loser the pot is the excess
    (or twice it), with one winner he takes it all; the largest-remainder rule
    (ours) never has a remainder to give. Checked over every split of 78 and 72."""
    for rules_ in (SAVOYARD, rules(deck=62)):
        total = RULESET.total(rules_, 3)
        for a in range(total + 1):
            for b in range(0, total - a + 1, 3):
                counts = (("Amélie", a), ("Béatrice", b), ("Cécile", total - a - b))
                result = score_hand(
                    rules_, hand(THREE, dealer="Amélie", mode="each", counts=counts)
                )
                assert sum(result.halves) == 0
                line_ = total // 3
                for (_name, count), h in zip(counts, result.halves):
                    if count > line_:
                        assert h > 0
                    elif count == line_:
                        assert h == 0
                    else:
                        assert h < 0


def test_the_generator_is_reproducible_and_valid():
    def draw(seed):
        rng = random.Random(seed)
        return [
            (rules_, random_hand(rng, rules_, players))
            for rules_ in VARIANTS
            for players in TABLES
            for _ in range(30)
        ]

    def as_json(drawn):
        return [hand_to_dict(hand, with_players=True) for _rules, hand in drawn]

    drawn = draw(5)
    assert as_json(drawn) == as_json(draw(5))  # the same seed, the same hands
    assert as_json(drawn) != as_json(draw(6))  # the hands come from the seed
    for rules_, hand in drawn:
        score_hand(rules_, hand)  # valid: the engine scores every one
