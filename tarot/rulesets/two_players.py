"""Preset ``two_players`` (RULES.md §4): no bidding, no poignée, whole points.

The scorer records one player's points and bouts (the "attack" of the JSON
format); the other player has the rest. The winner scores ``25 + (winner's
points − winner's target)``, seen from the winner's side.
"""

from ..deck import ATTACK
from ..result import CHELEM_OUTCOME, HandResult, new_result
from ..validate import two_players
from .base import FFT_CHELEM, TarotRuleset, round_to


class TwoPlayers(TarotRuleset):
    name = "two_players"
    heads_up = True
    player_counts = (2,)
    multipliers = {}
    bases = {}
    has_poignees = False
    explanation = "two_players"

    def player_count_message(self, n: int) -> str:
        return f"players: {n} play this hand; the two_players preset is for exactly 2"

    checks = staticmethod(two_players)

    def score(self, rules, hand, pools: tuple = ()) -> HandResult:
        n, out, taker, _, _, bouts, ph, ckey, pkey = self.checks(self, rules, hand)
        players = hand.players
        halves = [0] * len(players)
        if taker is None:
            return self.passed(rules, hand, n, out, halves, pools)
        deck = self.deck
        margin_h = ph - deck.target_halves[bouts]  # §1.1, the recorded player's
        made = margin_h >= 0
        if made:
            margin = margin_h >> 1
        else:  # §4: the other player reaches their own target with the rest
            margin = (deck.total_halves - ph - deck.target_halves[deck.bouts - bouts]) >> 1
        won = 25 + margin  # §4: 25 + the winner's margin
        amount = won if made else -won
        pab = hand.petit_au_bout
        pab_signed = 0 if pab is None else (10 if pab == ATTACK else -10)  # §4: 10, unmultiplied
        amount += pab_signed
        chelem = 0
        outcome = "none"
        if ckey is not None:  # §1.6
            chelem = FFT_CHELEM[ckey]
            outcome = CHELEM_OUTCOME[ckey]
            amount += chelem
        # (the preset scores no petit chelem: validate refused one that counts)
        per_defender = amount
        if rules.rounding != 1:  # §2 rounding
            per_defender = round_to(amount, rules.rounding)
        ti = players.index(taker)
        for i in range(len(players)):
            if players[i] != out:
                halves[i] = -2 * per_defender
        halves[ti] = 2 * per_defender
        extra = None
        if hand.miseres:
            extra = self.extras(rules, hand, n, out, halves, taker, made, pools)
        result = new_result()  # filled by name; see HandResult on why not by keyword
        result.players = players
        result.halves = tuple(halves)
        result.kind = "two_players"
        result.ruleset = self
        result.taker = taker
        result.multiplier = 1
        result.base = 25
        result.margin = margin
        result.margin_halves = margin_h
        result.made = made
        result.pab = pab_signed
        result.chelem = chelem
        result.chelem_outcome = outcome
        result.exact = amount
        result.per_defender = per_defender
        result.playing = (ti,)
        result.sits_out = out
        result.points_halves = ph
        result.bouts = bouts
        if extra is not None:
            result.miseres, result.misere_value = extra[0], extra[1]
        return result


RULESET = TwoPlayers()
