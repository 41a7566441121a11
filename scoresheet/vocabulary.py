"""The words of a hand, once: contracts, sides, roles, chelem outcomes, poignée sizes.

Each is a code (what the engine, the JSON format, the forms and the ledger store)
with its label in the active language. The ledger's columns take their choices
from here; forms, tables, statistics and the hand page take their labels from
here. Tarot words keep their French names in English (preneur, garde, chelem).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tarot.deck import ATTACK, DEFENCE
from tarot.rules import POIGNEE_SIZES


class Contract(models.TextChoices):
    PRISE = "prise", "prise"
    POUSSE = "pousse", "pousse"
    GARDE = "garde", "garde"
    GARDE_SANS = "garde_sans", "garde sans"
    GARDE_CONTRE = "garde_contre", "garde contre"


class Side(models.TextChoices):
    ATTACK = "attack", _("attack")
    DEFENCE = "defence", _("defence")


class Role(models.TextChoices):
    """A seated player's part in one hand, as the ledger stores it."""

    TAKER = "taker", _("taker")
    PARTNER = "partner", _("partner")
    DEFENDER = "defender", _("defender")
    SITS_OUT = "out", _("sits out")
    PASSED = "passed", _("passed")


#: The engine's role words (``HandResult.roles``) → the ledger's codes.
ROLE_OF_ENGINE = {
    "taker": Role.TAKER,
    "partner": Role.PARTNER,
    "defender": Role.DEFENDER,
    "sits_out": Role.SITS_OUT,
    "passed": Role.PASSED,
}

#: Sides as a scorer reads them on the form's buttons (capitalised).
SIDE_LABELS = {
    ATTACK: pgettext_lazy("side", "Attack"),
    DEFENCE: pgettext_lazy("side", "Defence"),
}

POIGNEE_LABELS = {
    "single": pgettext_lazy("poignée", "single"),
    "double": pgettext_lazy("poignée", "double"),
    "triple": pgettext_lazy("poignée", "triple"),
}
assert tuple(POIGNEE_LABELS) == POIGNEE_SIZES


class Chelem(models.TextChoices):
    """A chelem's (or petit chelem's) outcome: the form's choice and the ledger's code.

    Most glorious first. The JSON format says the same as
    ``{"announced": bool, "made_by": "attack" | "defence" | null}`` (``PAIRS``).
    """

    ANNOUNCED_MADE = "announced_made", _("announced and made")
    MADE = "made", _("made without announcement")
    ANNOUNCED_FAILED = "announced_failed", _("announced and failed")
    ANNOUNCED_DEFENCE = "announced_defence", _("announced, made by the defence")
    DEFENCE = "defence", _("made by the defence")


#: Chelem code → (announced, made_by) of the JSON format and the engine.
CHELEM_PAIRS = {
    Chelem.ANNOUNCED_MADE: (True, ATTACK),
    Chelem.ANNOUNCED_FAILED: (True, None),
    Chelem.MADE: (False, ATTACK),
    Chelem.DEFENCE: (False, DEFENCE),
    Chelem.ANNOUNCED_DEFENCE: (True, DEFENCE),
}
_CODE_OF_PAIR = {pair: code for code, pair in CHELEM_PAIRS.items()}

#: The engine's ``HandResult.chelem_outcome`` → the ledger's code ("" for none).
CHELEM_OF_ENGINE = {
    "none": "",
    "announced_made": Chelem.ANNOUNCED_MADE,
    "announced_failed": Chelem.ANNOUNCED_FAILED,
    "unannounced_made": Chelem.MADE,
    "defence": Chelem.DEFENCE,
    "announced_defence": Chelem.ANNOUNCED_DEFENCE,
}


def chelem_code(value) -> str:
    """A chelem in the JSON format (a dict, or None) → its code ("" when none)."""
    if not value:
        return ""
    return _CODE_OF_PAIR.get((value.get("announced", False), value.get("made_by")), "")


def chelem_json(code) -> dict | None:
    """A chelem code → the JSON format's object (None for "")."""
    if not code:
        return None
    announced, made_by = CHELEM_PAIRS[code]
    return {"announced": announced, "made_by": made_by}


NO_CONTRACT_LABEL = _("no bidding (two players)")


def contract_label(value):
    """A contract's label; a hand with no contract is a two-player hand."""
    return Contract(value).label if value in Contract.values else NO_CONTRACT_LABEL
