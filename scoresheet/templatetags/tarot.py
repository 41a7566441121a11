"""Template helpers for scores and their explanations: ``{% load tarot %}``.

{{ hand.explanation|render_explanation }} the explanation, in the active language
{{ row.score|score }}                     22,5 in French, −12 with a real minus
{{ row.score|signed_score }}              +12, −12, 0
<span class="x{{ v|long_score }}">        " long" at 5 characters (−1068), " long longer" from 6
<td class="num {{ row.score|score_class }}">  pos, neg or zero (colours)
"""

import logging
from decimal import Decimal, InvalidOperation

from django import template

from scoresheet import explain_labels, formatting

register = template.Library()
logger = logging.getLogger(__name__)


def _render(terms) -> str:
    try:
        return explain_labels.render_explanation(terms)
    except (KeyError, IndexError, TypeError, ValueError):
        # A page must still show when one stored explanation is malformed.
        logger.exception("cannot render explanation %r", terms)
        return ""


@register.filter
def render_explanation(terms):
    """Render stored explanation terms (JSON list, JSON string or ``Explanation``)."""
    return _render(terms)


def _is_blank(value):
    return value is None or value == ""


@register.filter
def short_in(name, shorts):
    """``name`` as ``shorts`` (name → short label) shortens it, else as it is."""
    return shorts.get(name, name) if name else name


@register.filter
def score(value):
    """A score in the active locale: no decimals when whole, "−" for negatives."""
    if _is_blank(value):
        return ""
    return formatting.format_number(value)


@register.filter
def signed_score(value):
    """A score with its sign always shown: "+12", "−12", "0"."""
    if _is_blank(value):
        return ""
    return formatting.format_signed(value)


@register.filter
def long_score(value):
    """The classes of a signed score too long for a phone's narrowest columns: " long"
    when its text (``signed_score``) has five characters (−1068, +22,5), " long
    longer" from six (+11840, −1 068 where thousands are grouped); "" otherwise. The
    sheet's CSS (static/css/sheet.css) shrinks those where the columns are narrow."""
    if _is_blank(value):
        return ""
    return long_classes(formatting.format_signed(value))


def long_classes(text) -> str:
    """``long_score``'s classes for a score already written (``format_signed``)."""
    if len(text) <= 4:
        return ""
    return " long" if len(text) == 5 else " long longer"


@register.filter
def score_class(value):
    """The CSS class colouring a score: "pos", "neg" or "zero" ("" when blank)."""
    if _is_blank(value):
        return ""
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return ""
    if number > 0:
        return "pos"
    if number < 0:
        return "neg"
    return "zero"
