"""The scoring engine: pure Python, no Django.

Frozen dataclasses in (``Rules``, ``Hand``, ``Sheet``), a ``HandResult`` or
``SheetResult`` out with exact scores and an ``Explanation``. Every refusal is a
``ScoringError`` with a stable ``code``.

Layout:

- ``rules``: ``Rules`` (a preset and a club's options; ``rules.ruleset`` is the
  registry object, ``rules.deck`` its deck, ``rules.describe()`` plain data);
- ``rulesets/``: the registry (``REGISTRY``, ``PRESETS``, ``get_ruleset``), one
  module per preset and ``base.Ruleset``, the interface of a ruleset;
- ``deck``: ``Deck`` (total, targets, bounds by bouts, half points, chelem bounds);
- ``validate``: the refusals of RULES.md §5 (``validate_hand``);
- ``result``: ``HandResult`` and ``SheetResult`` (keyword-built dataclasses);
- ``explain``: explanations as structured terms, in the shape the ruleset picks;
- ``engine``: ``score_hand`` and ``score_sheet``;
- ``randomhands``: the one generator of random valid hands;
- ``jsonformat``: the JSON format of HAND_FORMAT.md.
"""

from .deck import TAROT, Deck
from .engine import HandResult, SheetResult, halves_to_decimal, score_hand, score_sheet
from .errors import CODES, ScoringError
from .explain import LABELS, Explanation, Term
from .hand import ATTACK, DEFENCE, Chelem, Hand, Poignee, Sheet
from .result import CHELEM_OUTCOMES, ROLES
from .rules import CONTRACTS, POIGNEE_SIZES, PRESETS, Rules
from .rulesets import REGISTRY, Ruleset, get_ruleset
from .validate import validate_hand

__all__ = [
    "ATTACK",
    "CHELEM_OUTCOMES",
    "CODES",
    "CONTRACTS",
    "DEFENCE",
    "LABELS",
    "POIGNEE_SIZES",
    "PRESETS",
    "REGISTRY",
    "ROLES",
    "TAROT",
    "Chelem",
    "Deck",
    "Explanation",
    "Hand",
    "HandResult",
    "Poignee",
    "Rules",
    "Ruleset",
    "ScoringError",
    "Sheet",
    "SheetResult",
    "Term",
    "get_ruleset",
    "halves_to_decimal",
    "score_hand",
    "score_sheet",
    "validate_hand",
]
