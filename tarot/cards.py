"""The 78 cards, and the deals of a duplicate event made from a seed (``DUPLICATE.md``
§1: four hands of 18 and a chien of 6, the dealer fixed by the deal number).

A card is a short code: ``"T1"`` … ``"T21"`` the trumps, ``"EX"`` the excuse, and
a rank and a suit for the others: ``"1S"`` … ``"10S"``, ``"VS"`` (valet), ``"CS"``
(cavalier), ``"DS"`` (dame), ``"RS"`` (roi) in spades (S), hearts (H), diamonds (D)
and clubs (C). ``sort_hand`` orders a hand as a player holds it (by suit, then
rank; the trumps last, the excuse after them), as the étui sheets print it.

The same seed always gives the same deals on every machine (Python's ``random``
with an integer seed is specified to be reproducible), so the arbitre can print
the sheets again, and the hand records published after the event can be checked.
"""

import random
from dataclasses import dataclass

from .duplicate import SEATS, dealer_seat

SUITS = ("S", "H", "D", "C")
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "C", "D", "R")
TRUMPS = tuple(f"T{n}" for n in range(1, 22))
EXCUSE = "EX"
DECK = tuple(f"{rank}{suit}" for suit in SUITS for rank in RANKS) + TRUMPS + (EXCUSE,)
BOUTS = frozenset({"T1", "T21", EXCUSE})
HAND_SIZE = 18
CHIEN_SIZE = 6
ORDER = {card: index for index, card in enumerate(DECK)}


def card_points(card: str):
    """A card's value in the count (RULES.md §1.1): 4.5 for a bout, a king 4.5, a queen
    3.5, a cavalier 2.5, a valet 1.5, any other card 0.5. Returned in half points."""
    if card in BOUTS:
        return 9
    return {"R": 9, "D": 7, "C": 5, "V": 3}.get(card[:-1] if card not in TRUMPS else "", 1)


def sort_hand(cards) -> list:
    return sorted(cards, key=ORDER.__getitem__)


@dataclass(frozen=True)
class Deal:
    """One prepared deal: each seat's 18 cards (N, E, S, W) and the chien."""

    number: int
    dealer: str
    hands: tuple  # four tuples of 18 cards, in seat order N, E, S, W
    chien: tuple

    def as_dict(self) -> dict:
        return {
            "deal": self.number,
            "dealer": self.dealer,
            "hands": {seat: list(hand) for seat, hand in zip(SEATS, self.hands)},
            "chien": list(self.chien),
        }


def deal_cards(number: int, seed: int) -> Deal:
    """Deal ``number`` of the event seeded ``seed``: a shuffle of the 78 cards, each seat
    18 and the chien 6, every hand sorted as a player holds it."""
    shuffled = list(DECK)
    random.Random(f"tarot-ledger:{seed}:{number}").shuffle(shuffled)
    hands = tuple(tuple(sort_hand(shuffled[i * HAND_SIZE : (i + 1) * HAND_SIZE])) for i in range(4))
    chien = tuple(sort_hand(shuffled[4 * HAND_SIZE :]))
    return Deal(number, SEATS[dealer_seat(number)], hands, chien)
