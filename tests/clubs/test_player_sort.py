"""Names sort without regard to accents or case: Élodie before Zoë."""

import pytest

from clubs.models import Player
from core.text import sort_key
from scoresheet.forms.sheets import SheetForm

NAMES = ["Zoë", "hugo", "Élodie", "Hélène", "Anna", "Œdipe", "Ève"]
EXPECTED = ["Anna", "Élodie", "Ève", "Hélène", "hugo", "Œdipe", "Zoë"]


def test_sort_key_drops_accents_and_case():
    assert sort_key("Élodie") == "elodie"
    assert sort_key("HÉLÈNE") == "helene"
    assert sort_key("Straße") == "strasse"
    assert sorted(NAMES, key=sort_key) == EXPECTED
    assert sorted(NAMES) != EXPECTED  # code-point order puts É and Œ after Z


@pytest.mark.django_db
def test_players_are_listed_by_their_sort_key(club):
    for name in NAMES:
        Player.objects.create(club=club, name=name)
    assert [p.name for p in club.players.all()] == EXPECTED
    assert Player.objects.get(name="Élodie").sort_key == "elodie"


@pytest.mark.django_db
def test_a_renamed_player_moves_in_the_list(club):
    for name in ("Anna", "Bert"):
        Player.objects.create(club=club, name=name)
    anna = Player.objects.get(name="Anna")
    anna.name = "Zélie"
    anna.save(update_fields=["name"])
    anna.refresh_from_db()
    assert anna.sort_key == "zelie"
    assert [p.name for p in club.players.all()] == ["Bert", "Zélie"]


@pytest.mark.django_db
def test_the_seat_choices_of_a_new_sheet_sort_by_the_key(club):
    for name in NAMES:
        Player.objects.create(club=club, name=name)
    form = SheetForm(club=club)
    assert [p.name for p in form.fields["seat_1"].queryset] == EXPECTED
