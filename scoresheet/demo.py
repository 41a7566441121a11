"""Realistic random hands for the demo club, reproducible from a seed.

The hands come from the engine's one generator (``scoring.randomhands``, profile
``DEMO``: contracts and bouts weighted as at a club, points around the target),
so they are valid by the same rules the engine checks, chelems included.
"""

import random

from tarot.jsonformat import hand_to_dict, parse_rules
from tarot.randomhands import DEMO, EXTRAS
from tarot.randomhands import random_hand as engine_hand

__all__ = ["EXTRAS", "random_hand"]


def random_hand(rng: random.Random, names, rules, dealer: str, *, extras=()) -> dict:
    """One plausible hand (a HAND_FORMAT dict without players and rules).

    ``rules`` is the sheet's rules (a preset name or options dict, or ``Rules``).
    At a table seating more than the rules play (six at French Tarot), the dealer
    sits out. ``extras`` forces rarer events so a demo shows each at least once
    (``randomhands.EXTRAS``): "petit_au_bout_attack", "petit_au_bout_defence",
    "poignee_<size>", "chelem_announced", "chelem_unannounced", "chelem_defence",
    "misere", "passed".
    """
    if not hasattr(rules, "ruleset"):
        rules = parse_rules(rules)
    names = tuple(names)
    sits_out = None
    if len(names) > max(rules.ruleset.player_counts):
        # the dealer at French Tarot; the player on his left (before him) at the Savoyard
        sits_out = names[(names.index(dealer) + rules.ruleset.sits_out_seat) % len(names)]
    hand = engine_hand(rng, rules, names, sits_out, dealer, DEMO, tuple(extras))
    data = hand_to_dict(hand)
    if not hasattr(hand, "taker"):  # a game of its own: its JSON hand as it is
        return data
    if hand.taker is not None:
        data["points"] = hand.points  # exact (int or Decimal), not the export's float
    else:
        data["taker"] = None
    return data
