"""The engine's refusals worded for a page, in its language (the engine's web adapter).

``tarot`` refuses with a stable ``code``, the ``field`` at fault and ``params`` (the
values it names); its own ``message`` is English for logs and commands. Pages show
``refusal_message(error)`` instead: the code's message from ``MESSAGES``, translated,
its numbers in the page's format. A code has its wordings in order, the first whose
parameters the error carries wins (an older caller that gives none gets the plain
one). The code itself never goes into the text: a page may keep it in a tooltip or
its JSON; nor does a field's identifier (``FIELD_LABELS`` words the fields; one it does
not know leaves the wording without it).

It sits in ``clubs``, right above the engine, so that every app that shows an engine
refusal uses it: the rules forms (``clubs.rules_forms``), the services' errors
(``core.errors.ServiceError.from_scoring`` with ``scoring_wording = message_of``), the
sheet, hand and import pages.
"""

import re
from decimal import Decimal
from fractions import Fraction

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubs.formatting import format_number

#: The input fields the engine names, as a scorer calls them.
FIELD_LABELS = {
    "players": pgettext_lazy("field", "players"),
    "taker": pgettext_lazy("field", "taker"),
    "partner": pgettext_lazy("field", "partner"),
    "dealer": pgettext_lazy("field", "dealer"),
    "sits_out": pgettext_lazy("field", "who sits out"),
    "contract": pgettext_lazy("field", "contract"),
    "bouts": pgettext_lazy("field", "bouts"),
    "points": pgettext_lazy("field", "points"),
    "petit_au_bout": pgettext_lazy("field", "petit au bout"),
    "poignees": pgettext_lazy("field", "poignées"),
    "chelem": pgettext_lazy("field", "chelem"),
    "miseres": pgettext_lazy("field", "misères"),
    "hands": pgettext_lazy("field", "hands"),
    "hand": pgettext_lazy("field", "hand"),
    "date": pgettext_lazy("field", "date"),
    "table": pgettext_lazy("field", "table"),
    "mode": pgettext_lazy("field", "mode"),
    "counts": pgettext_lazy("field", "counts"),
    "declarer": pgettext_lazy("field", "soloist"),
    "cards_asked": pgettext_lazy("field", "cards asked"),
    "petit_chelem": pgettext_lazy("field", "petit chelem"),
    # the rules' options, as the rules form names them
    "rounding": pgettext_lazy("field", "rounding"),
    "poignee": pgettext_lazy("field", "poignées"),
    "misere": pgettext_lazy("field", "misère"),
    "no_prise": pgettext_lazy("field", "no prise"),
    "five_player_split": pgettext_lazy("field", "the attack's share at five"),
    "ante": pgettext_lazy("field", "ante"),
    "dealer_stake": pgettext_lazy("field", "dealer's stake"),
    "deck": pgettext_lazy("field", "deck"),
    "count": pgettext_lazy("field", "count"),
    "baga": pgettext_lazy("field", "baga au bout"),
}
#: A ``field`` the engine may name that a page does not: the whole rules ("rules") or an
#: option nobody offers (a name read from a file). Its refusal takes the plain wording,
#: never the identifier.

MESSAGES = {
    "player_not_at_table": (
        _("%(name)s is not at the table."),
        _("A player named in the hand is not at the table."),
    ),
    "player_sits_out": (
        _("%(name)s sits out this hand."),
        _("A player who sits out this hand is named in it."),
    ),
    "seat_count": (_("A table seats 2 to 6 players."),),
    "duplicate_player": (_("Named twice: %(names)s."), _("A player is named twice.")),
    "player_count": (_("These rules are not played by this number of players."),),
    "partner_not_five": (_("A partner is called only when five play."),),
    "contract_unknown": (
        _("“%(value)s” is not a contract of these rules (%(allowed)s)."),
        _("These rules do not know this contract."),
    ),
    "bouts_out_of_range": (
        _("Bouts: %(value)s; a hand has 0 to %(most)s bouts."),
        _("Bouts go from 0 to 3."),
    ),
    "points_out_of_range": (
        _("Points: %(value)s; they go from 0 to %(total)s."),
        _("The points are outside what the deck holds."),
    ),
    "points_step": (_("Points go by halves: 40 or 40.5."),),
    "half_point_impossible": (
        _("No half points when %(n)s play."),
        _("No half points at this table."),
    ),
    "points_bouts_inconsistent": (
        _("Points: %(value)s; with %(bouts)s bouts the attack has %(low)s to %(high)s."),
        _("The points do not fit the bouts."),
    ),
    "petit_au_bout_inconsistent": (_("The petit au bout does not fit the bouts."),),
    "petit_au_bout_invalid": (_("The petit au bout goes to the attack, the defence or nobody."),),
    "poignee_twice": (_("%(name)s shows two poignées."), _("A player shows two poignées.")),
    "poignee_size_unknown": (_("A poignée is single, double or triple."),),
    "poignee_not_allowed": (_("These rules have no poignée."),),
    "chelem_points_inconsistent": (_("The chelem does not fit the points: check them."),),
    "chelem_invalid": (
        _("The chelem is announced or not, made by the attack, the defence or nobody."),
    ),
    "petit_chelem_not_scored": (_("These rules do not score a petit chelem."),),
    "misere_not_allowed": (_("These rules have no misère."),),
    "dealer_required": (_("These rules need the dealer of every hand."),),
    "rules_invalid": (
        _("“%(value)s” is not one of the rules known here (%(allowed)s)."),
        _("These rules are not valid (%(field)s)."),
        _("These rules are not valid."),
    ),
    "mode_unknown": (_("A Savoyard hand is a solo, a call, partners or each for himself."),),
    "mode_not_played": (_("This mode is not played by this number of players."),),
    "count_out_of_range": (_("A count is a whole number from 0 to the cards' total."),),
    "counts_inconsistent": (
        _("The counts must name every player and add up to the cards' total."),
    ),
    "cards_asked_out_of_range": (_("A soloist asks 0, 1 or 2 cards."),),
    "partner_is_dealer": (_("The dealer calls another player as partner."),),
    "baga_not_allowed": (_("No baga au bout at this table."),),
    "sits_out_invalid": (_("A player sits out only at a table of six."),),
    "invalid_field": (
        _("%(field)s: this value has the wrong type or shape."),
        _("A value has the wrong type or shape."),
    ),
    "json_invalid": (_("The line is not a JSON object (one sheet per line)."),),
}

_NAMES = re.compile(r"%\((\w+)\)s")


def _shown(value):
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | Decimal | Fraction | float):
        try:
            return format_number(value)
        except (TypeError, ValueError, ArithmeticError):
            return str(value)
    return str(value)


def refusal_message(code, field=None, params=None, fallback: str = "") -> str:
    """The refusal ``code`` (of the engine) in the active language; ``fallback`` for a
    code the catalogue does not word."""
    wordings = MESSAGES.get(code)
    if not wordings:
        return fallback
    values = {k: _shown(v) for k, v in (params or {}).items()}
    if field in FIELD_LABELS:
        values.setdefault("field", str(FIELD_LABELS[field]))
    for wording in wordings:
        text = str(wording)
        if all(name in values for name in _NAMES.findall(text)):
            return text % values if _NAMES.search(text) else text
    return str(wordings[-1])


def message_of(error) -> str:
    """A ``ScoringError`` (or an error passed on from one) worded for a page."""
    params = getattr(error, "params", None) or {}
    return refusal_message(error.code, error.field, params, fallback=error.message)
