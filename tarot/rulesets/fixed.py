"""Preset ``fixed``: flat amounts, no multiplier, no prise (RULES.md §2).

``X = base + margin`` with the base by contract and the margin rounded to the
nearest 10 (halves away from zero); petit au bout 10. Written as the family's
``(base + margin) × multiplier`` with every multiplier 1.
"""

from ..deck import ATTACK, DEFENCE
from .base import TarotRuleset

CHELEM = {
    (True, ATTACK): 1000,  # chelem made, announced or not, +1000
    (True, None): -200,  # announced and failed −200
    (True, DEFENCE): -400,  # announced and failed, and the defence's chelem (as fft)
    (False, ATTACK): 1000,
    (False, None): 0,
    (False, DEFENCE): -200,  # the defence's chelem, as fft
}
# RULES.md only says "petit chelem made +500": announced and failed scores 0.
PETIT_CHELEM = {
    (True, ATTACK): 500,
    (True, None): 0,
    (True, DEFENCE): 0,
    (False, ATTACK): 500,
    (False, None): 0,
    (False, DEFENCE): 0,
}


class Fixed(TarotRuleset):
    name = "fixed"
    multipliers = {"garde": 1, "garde_sans": 1, "garde_contre": 1}
    bases = {"garde": 80, "garde_sans": 160, "garde_contre": 320}
    margin_step = 10
    chelem_table = CHELEM
    petit_chelem_table = PETIT_CHELEM
    explanation = "flat"


RULESET = Fixed()
