"""Score one hand or a whole sheet under a ruleset (RULES.md §1 to §5).

``score_hand`` hands the hand to the ruleset of its rules (``Rules.ruleset``,
from the registry in ``rulesets``), which validates it (``validate``) and
computes it. All arithmetic is on integers of half points: a score of 22.5 is
held as 45. The hot path builds no explanation: ``HandResult.explanation`` is
built by the ruleset from the recorded components only when somebody asks.
"""

from .deck import TAROT
from .errors import ScoringError
from .hand import Hand, Sheet
from .result import HandResult, SheetResult, halves_to_decimal
from .rules import Rules

__all__ = [
    "TARGETS",
    "TARGET_HALVES",
    "HandResult",
    "SheetResult",
    "halves_to_decimal",
    "score_hand",
    "score_sheet",
]

# Target by bouts (kept for older callers; the deck holds them): 0 → 56, 1 → 51,
# 2 → 41, 3 → 36, and the same in half points.
TARGETS = TAROT.targets
TARGET_HALVES = TAROT.target_halves


def score_hand(rules: Rules, hand: Hand, pools: tuple = ()) -> HandResult:
    """Score one hand. ``pools`` are the mouches pools before it (oldest first)."""
    return rules.ruleset.score(rules, hand, pools)


def score_sheet(sheet: Sheet) -> SheetResult:
    """Score a sheet's hands in order; mouches pools carry from hand to hand."""
    rules = sheet.rules
    score = rules.ruleset.score
    players = sheet.players
    results = []
    pools = ()
    for number, hand in enumerate(sheet.hands, start=1):
        try:
            result = score(rules, hand, pools)
        except ScoringError as error:
            error.hand = number
            raise
        if result.pools is not None:
            pools = result.pools
        results.append(result)
    if results:
        totals = tuple(sum(column) for column in zip(*(r.halves for r in results)))
    else:
        totals = (0,) * len(players)
    return SheetResult(
        players=players,
        hands=tuple(results),
        totals_halves=totals,
        pools=pools if rules.has_pools else None,
    )
