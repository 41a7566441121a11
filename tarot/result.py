"""What scoring returns: ``HandResult`` and ``SheetResult``, built by keyword.

This module imports nothing from the engine, the rulesets or the explanations:
the explanation of a result is built by its ruleset (``result.ruleset.explain``),
so ``engine`` → ``rulesets`` → ``explain`` → ``result`` has no cycle.

Units: ``halves`` and every ``*_halves`` field are integers of half points (a
score of 22.5 is 45); the other amounts are whole points, signed from the
attack's side (positive: each defender pays).
"""

from dataclasses import dataclass, field
from decimal import Decimal

# Roles of a seated player in one hand (``HandResult.roles``).
TAKER = "taker"
PARTNER = "partner"
DEFENDER = "defender"
SITS_OUT = "sits_out"
PASSED = "passed"
ROLES = (TAKER, PARTNER, DEFENDER, SITS_OUT, PASSED)

# ``HandResult.chelem_outcome``: what happened to the (grand) chelem.
CHELEM_OUTCOMES = (
    "none",  # no chelem recorded, or not announced and not made
    "announced_made",  # announced and made by the attack (+400 under fft)
    "announced_failed",  # announced by the attack, made by nobody (−200)
    "unannounced_made",  # made by the attack without announcement (+200)
    "defence",  # made by the defence, nothing announced (+200 to the defence)
    "announced_defence",  # announced by the attack and made by the defence (−200 − 200)
)
CHELEM_OUTCOME = {
    (True, "attack"): "announced_made",
    (True, None): "announced_failed",
    (False, "attack"): "unannounced_made",
    (False, "defence"): "defence",
    (True, "defence"): "announced_defence",
    (False, None): "none",
}


def halves_to_decimal(halves: int) -> Decimal:
    if halves & 1:
        return Decimal(halves) / 2
    return Decimal(halves >> 1)


@dataclass(kw_only=True)
class HandResult:
    """The scores of one hand, and every component they were computed from.

    Build it by keyword. The engine's hot path instead creates it empty
    (``new_result()``) and sets by name only the fields it computes: the others
    read their defaults from the class. Measured on Python 3.11, a class call
    with two dozen keywords costs about 2 µs (the keywords are packed in a dict
    for ``__init__``), 40 % of scoring a hand (``benchmarks/HISTORY.md``). No
    ``slots`` for that reason: the class attributes are the defaults.

    ``halves`` holds each seated player's score in half points, in seat order,
    pool payments and misères included. Signed amounts (``pab``, ``chelem``,
    ``petit_chelem``, ``exact``, ``per_defender``) are seen from the attack:
    positive means each defender pays.

    Three margins, not to be confused:

    - ``margin_halves``: the raw signed card margin, the attack's points minus
      its target, in **half points** (with two players: the recorded player's).
      40.5 points with 2 bouts gives −1.
    - ``card_margin`` (property): the same in whole points with the half point
      given to the side that wins (RULES.md §1.2), signed: +1 for 41.5, −1 for
      40.5 with 2 bouts. This is what the ledger's ``ScoreRow.margin`` stores,
      under every preset. None when everybody passed.
    - ``margin``: the unsigned margin that enters the score: ``ceil(|points −
      target|)``, then rounded to 10 under ``fixed`` (so ``fixed`` gives 20
      where ``card_margin`` is 14 or −15), and with two players the **winner's**
      margin over the winner's own target. ``scoring_margin`` is it signed
      (positive when the contract is made).
    """

    players: tuple
    halves: tuple
    kind: str  # "passed", "contract" or "two_players" (a ruleset may add its own)
    ruleset: object = field(default=None, repr=False, compare=False)  # who explains it
    taker: str | None = None
    partner: str | None = None  # the called partner at five, None when alone
    contract: str | None = None
    multiplier: int = 0
    base: int = 0  # 25, the fixed preset's base by contract, or 0 under mouches
    margin: int = 0  # see above: the unsigned scoring margin
    margin_halves: int = 0  # see above: points − target, signed, in half points
    made: bool = False
    pab: int = 0
    poignee: int = 0  # total poignée value, to the side that wins the contract
    chelem: int = 0
    chelem_outcome: str = "none"  # one of CHELEM_OUTCOMES
    petit_chelem: int = 0
    exact: int = 0  # per-defender amount before rounding
    per_defender: int = 0  # after rounding
    playing: tuple = ()  # seat indexes of the attack: (taker,) or (taker, partner)
    sits_out: str | None = None
    miseres: tuple = ()  # names
    misere_value: int = 0
    pools_before: tuple | None = None
    pools: tuple | None = None  # pools after the hand (mouches only)
    pool_moves: tuple = ()  # (event, player, amount): ("ante"|"stake"|"take"|"pay", …)
    points_halves: int = 0
    bouts: int = 0
    split: str = "two_to_one"
    # A ruleset other than French Tarot keeps its own components here (the
    # Savoyard rules: ``rulesets.savoyard.Detail``); None for French Tarot.
    detail: object = None

    @property
    def scores(self) -> dict[str, Decimal]:
        """Each seated player's score as an exact number (pool payments included)."""
        return {name: halves_to_decimal(h) for name, h in zip(self.players, self.halves)}

    def score(self, player: str) -> Decimal:
        return halves_to_decimal(self.halves[self.players.index(player)])

    @property
    def roles(self) -> tuple[str, ...]:
        """Each seated player's role, in seat order: taker, partner, defender,
        sits_out or passed (everybody who plays a hand where all passed)."""
        out = self.sits_out
        if self.kind == "passed":
            return tuple(SITS_OUT if p == out else PASSED for p in self.players)
        taker, partner = self.taker, self.partner
        return tuple(
            SITS_OUT if p == out else TAKER if p == taker else PARTNER if p == partner else DEFENDER
            for p in self.players
        )

    def role(self, player: str) -> str:
        return self.roles[self.players.index(player)]

    @property
    def card_margin(self) -> int | None:
        """Points − target in whole points, the half point to the winner, signed."""
        if self.kind == "passed":
            return None
        m = self.margin_halves
        return (m + 1) // 2 if m >= 0 else -((1 - m) // 2)

    @property
    def scoring_margin(self) -> int:
        """``margin`` signed: positive when the contract is made (0 if all passed)."""
        return self.margin if self.made else -self.margin

    @property
    def explanation(self):
        """The ``Explanation`` of this result, built by its ruleset on demand."""
        return self.ruleset.explain(self)


def new_result() -> HandResult:
    """An empty ``HandResult`` whose fields all read their defaults, to be filled
    by name (``result.kind = ...``); ``players``, ``halves`` and ``kind`` must be set."""
    return _new(HandResult)


_new = object.__new__


@dataclass(slots=True, kw_only=True)
class SheetResult:
    players: tuple
    hands: tuple  # HandResult, in order
    totals_halves: tuple
    pools: tuple | None

    @property
    def totals(self) -> dict[str, Decimal]:
        return {n: halves_to_decimal(h) for n, h in zip(self.players, self.totals_halves)}
