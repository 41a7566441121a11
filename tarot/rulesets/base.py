"""What a ruleset is, and the French Tarot family's scoring (RULES.md §1 to §4).

A ruleset is one object in the registry (``rulesets.REGISTRY``), named by its
preset. It declares its deck, the player counts it plays, its contracts and
multipliers, its bonuses, whether it keeps pools and which explanation it
gives, and it validates and scores a hand. ``Ruleset`` is the interface every
ruleset offers (a game with another count, such as the Savoyard rules, subclasses
it directly and brings its own hand fields, validation, scoring, explanation and
random hands); ``TarotRuleset`` implements French Tarot, and the presets are
``TarotRuleset`` subclasses that change its class attributes.

All arithmetic is on integers of half points where a score can split a point
(``halves``); the amounts of the formula are whole points. Each step cites the
RULES.md section it implements.
"""

from ..deck import ATTACK, DEFENCE, TAROT, Deck
from ..errors import ScoringError
from ..explain import explain_hand
from ..result import CHELEM_OUTCOME, HandResult, new_result
from ..validate import POIGNEE_INDEX, tarot

#: The fields of a hand in the JSON format (HAND_FORMAT.md), "number" included.
TAROT_HAND_FIELDS = frozenset(
    {
        "rules",
        "players",
        "sits_out",
        "dealer",
        "taker",
        "contract",
        "partner",
        "bouts",
        "points",
        "petit_au_bout",
        "poignees",
        "chelem",
        "petit_chelem",
        "miseres",
        "number",
    }
)

# Chelem tables: (announced, made_by) → amount to the attack, never multiplied.
FFT_CHELEM = {
    (True, ATTACK): 400,  # §1.6 announced and made
    (True, None): -200,  # §1.6 announced and failed
    (True, DEFENCE): -400,  # announced and failed (−200), and the defence's chelem (−200)
    (False, ATTACK): 200,  # §1.6 made without announcement
    (False, None): 0,
    (False, DEFENCE): -200,  # §1.6 made by the defence
}


def round_to(value: int, step: int) -> int:
    """Round to the nearest multiple of step, halves away from zero (RULES.md §2)."""
    if step == 1:
        return value
    magnitude = abs(value)
    rest = magnitude % step
    magnitude -= rest
    if 2 * rest >= step:
        magnitude += step
    return magnitude if value >= 0 else -magnitude


class Ruleset:
    """The interface of a ruleset. Subclass it for a new game; register an instance.

    Class attributes a ruleset sets:

    - ``name``: the preset's name in ``Rules(preset=...)`` and the JSON format;
      only the registry and the JSON format read it: everybody else asks the
      facts below, never the name;
    - ``kind``: the game it scores, "tarot" (French Tarot: bids, bouts, attack
      and defence; its hand form, model columns, options and statistics) or
      "savoyard" (a game of its own with all of these its own);
    - ``heads_up``: one player against the other (two players): no attack and
      defence, the points entered are one player's and the other has the rest;
    - ``deck``: a ``Deck`` (totals, targets, bounds, chelem bounds);
    - ``player_counts``: how many may play one hand (a table may seat one more);
    - ``multipliers``: contract → multiplier, lowest contract first;
    - ``has_pools``: whether a sheet carries pools from hand to hand;
    - ``petit_chelem_table``: None when the petit chelem is not scored;
    - ``hand_fields``: the fields its hands may carry in the JSON format;
    - ``has_poignees``: whether a poignée may be shown;
    - ``explanation``: which explanation it gives (a style of ``explain``);
    - ``tarot_options``: whether ``Rules``' French Tarot options (rounding,
      poignée, misère…) apply; a game of its own leaves them at their defaults;
    - ``option_defaults``: the ruleset's own options and their defaults, carried
      by ``Rules.options`` and checked by ``check_options``;
    - ``extra_seat_at``: the counts of players at which a table seats one more
      who sits out each hand;
    - ``sits_out_seat``: at such a table, who sits out, as seats after the dealer
      (0 the dealer himself, −1 the player before him, on his left);
    - ``parse_hand``: None, or a method ``(data, rules, players) -> hand`` that
      reads its hands from the JSON format (the fields of ``hand_fields``);
      its hand dataclass then has ``as_dict(with_players)`` for the export.
    """

    name = ""
    kind = "tarot"
    heads_up = False
    deck: Deck = TAROT
    player_counts: tuple[int, ...] = (3, 4, 5)
    multipliers: dict[str, int] = {}
    has_pools = False
    petit_chelem_table: dict | None = None
    hand_fields = TAROT_HAND_FIELDS
    has_poignees = True
    explanation = "base"
    tarot_options = False
    option_defaults: dict = {}
    extra_seat_at: tuple[int, ...] = (2, 3, 4, 5)
    sits_out_seat = 0
    parse_hand = None

    def check_options(self, options: dict) -> dict:
        """The ruleset's own options, checked, with the defaults filled in; raise
        ``ScoringError("rules_invalid")`` naming the option at fault."""
        if options:
            name = sorted(options)[0]
            raise ScoringError(
                "rules_invalid",
                f"rules: {name} is not an option of {self.name}",
                field=name,
            )
        return {}

    def option_variants(self) -> list[dict]:
        """Combinations of its own options the benchmark and tests draw from."""
        return [{}]

    @property
    def scores_petit_chelem(self) -> bool:
        return self.petit_chelem_table is not None

    def contracts(self, no_prise: bool = False) -> dict[str, int]:
        """Contract → multiplier under these options (``no_prise`` drops the prise)."""
        multipliers = dict(self.multipliers)
        if no_prise:
            multipliers.pop("prise", None)
        return multipliers

    def player_count_message(self, n: int) -> str:
        counts = " or ".join(map(str, self.player_counts))
        return f"players: {n} play this hand; {self.name} scores {counts} players"

    def validate(self, rules, hand) -> tuple:
        """Raise the refusals of RULES.md §5; return the input ready for ``score``."""
        raise NotImplementedError

    def score(self, rules, hand, pools: tuple = ()) -> HandResult:
        raise NotImplementedError

    def explain(self, result: HandResult):
        """The ``Explanation`` of a result this ruleset computed."""
        return explain_hand(result, self.explanation)

    #: A game other than French Tarot brings its own generator of random valid
    #: hands: a method ``(rng, rules, players, sits_out, dealer, profile, extras)
    #: -> hand``. None: ``randomhands.tarot_hand``, driven by the deck.
    random_hand = None

    def describe(self, rules) -> dict:
        """Plain data for the hand form: what this ruleset allows (JSON-ready)."""
        return {
            "preset": self.name,
            "contracts": list(rules.multipliers),
            "player_counts": list(self.player_counts),
            "has_pools": self.has_pools,
            "scores_petit_chelem": self.scores_petit_chelem,
            "deck": self.deck.as_dict(),
        }

    def __repr__(self) -> str:
        return f"<ruleset {self.name}>"


class TarotRuleset(Ruleset):
    """French Tarot: the FFT formula (RULES.md §1), its bonuses and options (§2).

    ``X = (bases[contract] + margin) × multiplier`` covers fft (base 25), pousse
    and contre5 (other multipliers), fixed (a base by contract, multiplier 1,
    margin rounded to ``margin_step``) and mouches (base 0).
    """

    multipliers = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
    tarot_options = True
    bases = dict.fromkeys(multipliers, 25)  # §1.3: the 25 of (25 + margin)
    margin_step = 1  # §2 fixed: 10
    petit_au_bout = 10  # §1.4: 10 × multiplier
    chelem_table = FFT_CHELEM

    #: The refusals (RULES.md §5): a function of ``validate`` (ruleset, rules, hand).
    checks = staticmethod(tarot)

    def validate(self, rules, hand) -> tuple:
        """``(n, out, taker, partner, multiplier, bouts, points_halves, chelem_key,
        petit_chelem_key)``; everything after ``out`` is None or 0 when all passed."""
        return self.checks(self, rules, hand)

    def score(self, rules, hand, pools: tuple = ()) -> HandResult:
        # validate first: nothing below refuses
        n, out, taker, partner, multiplier, bouts, ph, ckey, pkey = self.checks(self, rules, hand)
        players = hand.players
        halves = [0] * len(players)
        if taker is None:  # §1.8: everybody passed
            return self.passed(rules, hand, n, out, halves, pools)
        contract = hand.contract
        margin_h = ph - self.deck.target_halves[bouts]  # §1.1: points − target
        made = margin_h >= 0  # §1.1: made at the target or above
        margin = (abs(margin_h) + 1) >> 1  # §1.2: ceil(|margin|), the half to the winner
        if self.margin_step != 1:
            margin = round_to(margin, self.margin_step)  # §2 fixed: nearest 10
        base = self.bases[contract]
        won = (base + margin) * multiplier  # §1.3 (§2 fixed, §3 mouches: other bases)
        amount = won if made else -won
        pab = hand.petit_au_bout
        pab_signed = 0
        if pab is not None:  # §1.4: to the side that took the last trick with the petit
            pab_signed = self.petit_au_bout * multiplier
            if pab != ATTACK:
                pab_signed = -pab_signed
            amount += pab_signed
        poignee = 0
        if hand.poignees:  # §1.5: never multiplied, to the side that wins the contract
            values = rules.poignee
            for shown in hand.poignees:
                poignee += values[POIGNEE_INDEX[shown.size]]
            amount += poignee if made else -poignee
        chelem = 0
        outcome = "none"
        if ckey is not None:  # §1.6 (§2 fixed): never multiplied
            chelem = self.chelem_table[ckey]
            outcome = CHELEM_OUTCOME[ckey]
            amount += chelem
        petit = 0
        if pkey is not None:  # §2 contre5, fixed
            petit = self.petit_chelem_table[pkey]
            amount += petit
        per_defender = amount
        if rules.rounding != 1:  # §2 rounding, before the distribution
            per_defender = round_to(amount, rules.rounding)

        # §1.7 distribution, in half points: each defender pays per_defender.
        s2 = per_defender * 2
        for i, player in enumerate(players):
            if player != out:
                halves[i] = -s2
        ti = players.index(taker)
        if partner is None:
            halves[ti] = s2 * (n - 1)  # 4 players 3S, 3 players 2S, alone at five 4S
            playing = (ti,)
        else:
            pi = players.index(partner)
            if rules.five_player_split == "equal":  # §2: 1.5S each
                halves[ti] = halves[pi] = 3 * per_defender
            else:  # 2S and S
                halves[ti] = 2 * s2
                halves[pi] = s2
            playing = (ti, pi)
        extra = None
        if hand.miseres or self.has_pools:
            extra = self.extras(rules, hand, n, out, halves, taker, made, pools)
        result = new_result()  # filled by name; see HandResult on why not by keyword
        result.players = players
        result.halves = tuple(halves)
        result.kind = "contract"
        result.ruleset = self
        result.taker = taker
        result.partner = partner
        result.contract = contract
        result.multiplier = multiplier
        result.base = base
        result.margin = margin
        result.margin_halves = margin_h
        result.made = made
        result.pab = pab_signed
        result.poignee = poignee
        result.chelem = chelem
        result.chelem_outcome = outcome
        result.petit_chelem = petit
        result.exact = amount
        result.per_defender = per_defender
        result.playing = playing
        result.sits_out = out
        result.points_halves = ph
        result.bouts = bouts
        result.split = rules.five_player_split
        if extra is not None:
            (
                result.miseres,
                result.misere_value,
                result.pools_before,
                result.pools,
                result.pool_moves,
            ) = extra
        return result

    def passed(self, rules, hand, n, out, halves, pools) -> HandResult:
        """A hand where everybody passed (§1.8): misères and pools only."""
        result = new_result()
        result.players = hand.players
        extra = None
        if hand.miseres or self.has_pools:
            extra = self.extras(rules, hand, n, out, halves, None, False, pools)
        result.halves = tuple(halves)
        result.kind = "passed"
        result.ruleset = self
        result.sits_out = out
        if extra is not None:
            (
                result.miseres,
                result.misere_value,
                result.pools_before,
                result.pools,
                result.pool_moves,
            ) = extra
        return result

    def extras(self, rules, hand, n, out, halves, taker, made, pools) -> tuple:
        """Misère payments (§2) and pools (§3) on top of the card scores, paid in
        ``halves``: ``(miseres, misere_value, pools_before, pools, pool_moves)``."""
        players = hand.players
        miseres = hand.miseres
        value = 0
        if miseres:  # §2 misère: the value from every other player of the hand
            value = rules.misere
            for name in miseres:
                for i, player in enumerate(players):
                    if player != out:
                        halves[i] -= 2 * value
                halves[players.index(name)] += 2 * value * n
        before = after = None
        moves = ()
        if self.has_pools:
            before, after, moves = self.pools_after(
                rules, players, taker, made, hand.dealer, pools, halves
            )
        return tuple(miseres), value, before, after, moves

    def pools_after(self, rules, players, taker, made, dealer, pools, halves):
        """Pools (§3), for a ruleset with ``has_pools``: ``(before, after, moves)``;
        the payments are made in ``halves``."""
        raise NotImplementedError
