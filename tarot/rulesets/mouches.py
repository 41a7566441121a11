"""Preset ``mouches``: pools carried along a sheet, no base (RULES.md §3)."""

from .base import TarotRuleset


class Mouches(TarotRuleset):
    name = "mouches"
    has_pools = True
    bases = dict.fromkeys(TarotRuleset.multipliers, 0)  # X = ceil(|margin|) × multiplier
    explanation = "no_base"

    def pools_after(self, rules, players, taker, made, dealer, pools, halves):
        """Antes, the dealer's stake, and the taker's take or payment (§3).

        Returns the pools before and after the hand and the payments, as
        (event, player, amount) with event "ante", "stake", "take" or "pay".
        """
        before = tuple(pools)
        pools = list(before)
        moves = []
        if not pools:  # no pool: every seated player antes into a new one
            ante = rules.ante
            for i, player in enumerate(players):
                halves[i] -= 2 * ante
                moves.append(("ante", player, -ante))
            pools.append(ante * len(players))
        largest = max(pools)
        index = pools.index(largest)  # the dealer's stake goes to the oldest of the largest
        pools[index] += rules.dealer_stake
        halves[players.index(dealer)] -= 2 * rules.dealer_stake
        moves.append(("stake", dealer, -rules.dealer_stake))
        if taker is not None:
            largest = max(pools)
            ti = players.index(taker)
            if made:  # the taker takes the largest pool
                pools.pop(pools.index(largest))
                halves[ti] += 2 * largest
                moves.append(("take", taker, largest))
            else:  # the taker pays as much into a new pool
                pools.append(largest)
                halves[ti] -= 2 * largest
                moves.append(("pay", taker, -largest))
        return before, tuple(pools), tuple(moves)


RULESET = Mouches()
