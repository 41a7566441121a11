"""Numbers in the active locale, as every page shows scores: 22,5 in French, a real minus."""

from decimal import Decimal, InvalidOperation
from functools import lru_cache

from django.utils import formats
from django.utils.translation import get_language

from tarot.explain import MINUS


def _to_decimal(value):
    if isinstance(value, Decimal):
        return value
    if isinstance(value, float):
        return Decimal(repr(value))
    return Decimal(value)


def format_number(value, language=None) -> str:
    """A number in the active locale: 22.5 → "22,5" in French; −5 with a real minus.

    Whole numbers show no decimals; others show exactly the decimals they have. A page
    shows the same few scores hundreds of times (a 250-hand sheet: 2,500 numbers), so
    each (language, number) is formatted once per process: equal numbers (28, 28.0,
    Decimal("28")) format alike, whatever their type. ``language``: the active one
    unless given (a caller formatting thousands of numbers reads it once).
    """
    try:
        number = _to_decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        return str(value)
    if not number.is_finite():
        return str(value)
    return _format_decimal(language or get_language(), number)


@lru_cache(maxsize=8192)
def _format_decimal(language, number) -> str:
    if number == number.to_integral_value():
        places = 0
        number = number.to_integral_value()
    else:
        places = max(0, -number.normalize().as_tuple().exponent)
    text = formats.number_format(abs(number), places, use_l10n=True)
    return MINUS + text if number < 0 else text


def format_signed(value, language=None) -> str:
    """Like ``format_number`` with an explicit "+" on positive numbers; zero stays "0"."""
    text = format_number(value, language)
    try:
        positive = _to_decimal(value) > 0
    except (InvalidOperation, TypeError, ValueError):
        return text
    return "+" + text if positive else text
