"""Preset ``contre5``: garde contre ×5, and the petit chelem scored (RULES.md §2)."""

from ..deck import ATTACK, DEFENCE
from .base import TarotRuleset

# (announced, made_by) → amount to the attack. RULES.md: announced and made +300,
# announced and failed −150, made unannounced 0. A petit chelem announced by the
# attack and made by the defence is announced and failed for the attack: −150.
PETIT_CHELEM = {
    (True, ATTACK): 300,
    (True, None): -150,
    (True, DEFENCE): -150,
    (False, ATTACK): 0,
    (False, None): 0,
    (False, DEFENCE): 0,
}


class Contre5(TarotRuleset):
    name = "contre5"
    multipliers = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 5}
    petit_chelem_table = PETIT_CHELEM


RULESET = Contre5()
