"""The prepared deals of a duplicate event: every card once, 91 points, reproducible."""

from hypothesis import given
from hypothesis import strategies as st

from tarot.cards import BOUTS, DECK, card_points, deal_cards, sort_hand


def test_the_deck_holds_78_cards_worth_91_points_with_three_bouts():
    assert len(DECK) == len(set(DECK)) == 78
    assert sum(card_points(card) for card in DECK) == 2 * 91
    assert set(DECK) >= BOUTS
    # RULES.md §1.1: king 4.5, queen 3.5, cavalier 2.5, valet 1.5, others 0.5
    assert [card_points(c) for c in ("RH", "DH", "CH", "VH", "10H", "T2", "T21", "EX")] == [
        9,
        7,
        5,
        3,
        1,
        1,
        9,
        9,
    ]


@given(st.integers(1, 40), st.integers(0, 2**32))
def test_a_deal_gives_each_card_once(number, seed):
    deal = deal_cards(number, seed)
    cards = [card for hand in deal.hands for card in hand] + list(deal.chien)
    assert sorted(cards) == sorted(DECK)
    assert [len(hand) for hand in deal.hands] == [18, 18, 18, 18] and len(deal.chien) == 6
    assert all(list(hand) == sort_hand(hand) for hand in deal.hands)
    assert deal.dealer == "NESW"[(number - 1) % 4]


def test_the_same_seed_deals_the_same_cards():
    assert deal_cards(3, 7) == deal_cards(3, 7)
    assert deal_cards(3, 7) != deal_cards(3, 8)
    assert deal_cards(3, 7) != deal_cards(4, 7)
    printed = deal_cards(5, 7).as_dict()
    assert printed["dealer"] == "N" and set(printed["hands"]) == {"N", "E", "S", "W"}
    assert printed["chien"] == list(deal_cards(5, 7).chien)
