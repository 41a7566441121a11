"""The registry of rulesets: one module per preset, one instance per module.

``REGISTRY`` maps a preset's name to its ruleset object (see ``base.Ruleset``
for what a ruleset declares). To add a game, write a module with a ``Ruleset``
subclass and its ``RULESET`` instance, add it to ``_MODULES`` below, and give
its explanation labels (a module's ``LABELS``, merged into ``explain.LABELS``
here; the web layer's catalogue is ``scoresheet.explain_labels``).
"""

from ..explain import LABELS
from . import contre5, fft, fixed, mouches, pousse, savoyard, two_players
from .base import Ruleset, TarotRuleset

_MODULES = (fft, pousse, contre5, fixed, mouches, two_players, savoyard)

#: preset name → ruleset, in the order the presets are offered.
REGISTRY: dict[str, Ruleset] = {m.RULESET.name: m.RULESET for m in _MODULES}

#: The preset names, in order.
PRESETS: tuple[str, ...] = tuple(REGISTRY)

#: The French Tarot presets (those that take ``Rules``' tarot options).
TAROT_PRESETS: tuple[str, ...] = tuple(n for n, r in REGISTRY.items() if r.tarot_options)

for _module in _MODULES:
    LABELS.update(getattr(_module, "LABELS", {}))


def get_ruleset(name: str) -> Ruleset:
    """The ruleset of a preset name; ``KeyError`` for an unknown one."""
    return REGISTRY[name]


__all__ = ["PRESETS", "REGISTRY", "TAROT_PRESETS", "Ruleset", "TarotRuleset", "get_ruleset"]
