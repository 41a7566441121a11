"""The scoring engine: pure Python, no Django.

Frozen dataclasses in (``Rules``, ``Hand``, ``Sheet``), a ``HandResult`` or
``SheetResult`` out with exact scores and an ``Explanation``. Every refusal is a
``ScoringError`` with a stable ``code``.
"""

from .engine import HandResult, SheetResult, halves_to_decimal, score_hand, score_sheet
from .errors import CODES, ScoringError
from .explain import LABELS, Explanation, Term
from .hand import ATTACK, DEFENCE, Chelem, Hand, Poignee, Sheet
from .rules import CONTRACTS, POIGNEE_SIZES, PRESETS, Rules

__all__ = [
    "ATTACK",
    "CODES",
    "CONTRACTS",
    "DEFENCE",
    "LABELS",
    "POIGNEE_SIZES",
    "PRESETS",
    "Chelem",
    "Explanation",
    "Hand",
    "HandResult",
    "Poignee",
    "Rules",
    "ScoringError",
    "Sheet",
    "SheetResult",
    "Term",
    "halves_to_decimal",
    "score_hand",
    "score_sheet",
]
