"""French: seats N, E, S, O; plural forms, not "refusée(s)"; a non-breaking
space before colons; one word for a closed tournament. Needs the compiled catalogue
(``msgfmt`` of locale/fr/LC_MESSAGES/django.po)."""

import re

from django.template import Context, Template
from django.urls import reverse
from django.utils import translation
from django.utils.translation import npgettext

from tournaments import queries, services
from tournaments.models import Tournament

NBSP = "\u00a0"


def test_seats_and_states_in_french():
    with translation.override("fr"):
        assert [str(letter) for letter in queries.SEAT_LETTERS] == ["N", "E", "S", "O", "5"]
        assert str(Tournament.State.CLOSED.label) == "clôturé"
        assert str(Tournament.State.FINISHED.label) == "à clôturer"  # not "terminé"
        assert npgettext("sheets", "%(n)s refused.", "%(n)s refused.", 0) % {"n": 0} == (
            "0 refusée."
        )
        assert npgettext("sheets", "%(n)s refused.", "%(n)s refused.", 3) % {"n": 3} == (
            "3 refusées."
        )
    with translation.override("en"):
        assert str(queries.SEAT_LETTERS[3]) == "W"


def test_the_import_summary_in_french_has_plurals_and_a_space_before_the_colon():
    with open("templates/transfer/import.html", encoding="utf-8") as page:
        summary = page.read().split('<p id="upload-summary">')[1].split("</p>")[0]
    template = Template("{% load i18n %}" + summary)
    with translation.override("fr"):
        context = Context({"preview": True, "good": 2, "refused": 1, "name": "club.csv"})
        text = re.sub(r"[ \n]+", " ", template.render(context)).strip()  # keeps the NBSP
    assert text == f"club.csv{NBSP}: 2 feuilles peuvent être importées, 1 refusée."


def test_the_round_page_in_french(client, make_tournament, manager):
    t = make_tournament(players=8, rounds=2)
    services.draw_schedule(t)
    client.force_login(manager)
    url = reverse("tournaments:round", args=[t.club.slug, t.pk, 1])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<span class="seat">O</span>' in page and '<span class="seat">W</span>' not in page
    assert f"Rencontres répétées dans le tirage des séquences 1 à 1{NBSP}: 0" in page
