"""The French catalogue: a word that agrees with its noun in French is one entry per noun
(``pgettext`` contexts), not one shared msgid that is wrong for some of them."""

import pytest
from django.utils import translation

from scoresheet.models import Sheet
from tournaments.models import Round, Tournament


@pytest.mark.parametrize(
    "label, french",
    [
        (lambda: Sheet._meta.get_field("closed_at").verbose_name, "clôturée"),  # la feuille
        (lambda: Tournament.State.CLOSED.label, "clôturé"),  # le tournoi
        (lambda: Tournament._meta.get_field("closed_at").verbose_name, "clôturé"),
        (lambda: Round.State.CLOSED.label, "clôturée"),  # la séquence
    ],
)
def test_closed_agrees_with_its_noun(label, french):
    with translation.override("fr"):
        assert str(label()) == french
    with translation.override("en"):
        assert str(label()) == "closed"
