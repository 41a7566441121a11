"""``{{ "W"|seat }}``: a seat's letter (N, E, S, W of ``DUPLICATE.md``) as the page's
language writes it (French: N, E, S, O), the translations of ``queries.SEAT_LETTERS``."""

from django import template

from tarot.duplicate import SEATS
from tournaments.queries import SEAT_LETTERS

register = template.Library()


@register.filter
def seat(letter):
    return SEAT_LETTERS[SEATS.index(letter)] if letter in SEATS else letter
