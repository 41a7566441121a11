"""Preset ``pousse``: the old bid pousse between prise and garde (RULES.md §2)."""

from .base import TarotRuleset


class Pousse(TarotRuleset):
    name = "pousse"
    multipliers = {"prise": 1, "pousse": 2, "garde": 4, "garde_sans": 8, "garde_contre": 12}
    bases = dict.fromkeys(multipliers, 25)


RULESET = Pousse()
