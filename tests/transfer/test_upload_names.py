"""The upload's near-duplicate names: "Berte" in a file beside the club's Bert is asked
about in the preview (Bert, or a new player), never created silently."""

import json

import pytest
from django.urls import reverse

from clubs.models import Player
from scoresheet.models import Sheet
from tests.data import SEED_HANDS
from tests.transfer.test_upload import jsonl, manager, post_file  # noqa: F401 (fixture)
from transfer import upload

pytestmark = pytest.mark.django_db


def berte_sheet():
    """The seed sheet with Bert typed "Berte" in the players and every hand."""
    text = json.dumps(
        {"players": ["Anna", "Bert", "Carl", "Dora"], "date": "2026-03-14", "hands": SEED_HANDS}
    )
    return json.loads(text.replace('"Bert"', '"Berte"'))


@pytest.fixture
def bert(club):
    for name in ("Anna", "Bert", "Carl", "Dora"):
        Player.objects.create(club=club, name=name)
    return Player.objects.get(club=club, name="Bert")


def import_url(club):
    return reverse("transfer:import", args=[club.slug])


def test_the_preview_asks_who_a_near_name_is(client, manager, season, bert):  # noqa: F811
    client.force_login(manager)
    response = post_file(client, season.club, jsonl(berte_sheet()))
    near = response.context["near"]
    assert [(n.name, [p.name for p in n.players]) for n in near] == [("Berte", ["Bert"])]
    page = response.content.decode()
    assert "“Berte” looks like a player of the club: who is it?" in page
    assert "A new player called Berte" in page

    # no answer: asked again, nothing written
    response = client.post(
        import_url(season.club), {"step": "import", "digest": response.context["digest"]}
    )
    assert response.status_code == 400 and Sheet.objects.count() == 0
    assert "Say who each of these players is." in response.content.decode()

    # Bert: the sheet seats Bert, no Berte is created, every hand is his
    digest = response.context["digest"]
    client.post(
        import_url(season.club),
        {"step": "import", "digest": digest, "same_0_name": "Berte", "same_0": str(bert.pk)},
    )
    sheet = Sheet.objects.get()
    assert sorted(p.name for p in sheet.players.all()) == ["Anna", "Bert", "Carl", "Dora"]
    assert not Player.objects.filter(name="Berte").exists()
    assert sheet.hands.count() == len(SEED_HANDS)


def test_a_new_player_anyway(client, manager, season, bert):  # noqa: F811
    client.force_login(manager)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    response = post_file(client, season.club, jsonl(berte_sheet()))
    page = response.content.decode()
    question = "«\u00a0Berte\u00a0» ressemble à un joueur du club\u00a0: de qui s’agit-il\u202f?"
    assert question in page
    assert "Un nouveau joueur appelé Berte" in page and "Berte (déjà au club)" not in page
    client.post(
        import_url(season.club),
        {
            "step": "import",
            "digest": response.context["digest"],
            "same_0_name": "Berte",
            "same_0": "new",
        },
    )
    assert Player.objects.filter(name="Berte").exists() and Sheet.objects.count() == 1


def test_known_names_accents_aside_are_not_asked_about(club, bert):
    Player.objects.create(club=club, name="Hélène")
    found = upload.chunks(
        jsonl({"players": ["helene", "Berte", "Zoé", "berte"], "hands": []}), "x.jsonl"
    )
    near = upload.near_names(club, found)
    assert [n.name for n in near] == ["Berte"]  # once; Hélène is known; Zoé is like nobody
    renamed = upload.with_aliases(found, {"berte": "Bert"})
    assert json.loads(renamed[0].text)["players"] == ["helene", "Bert", "Zoé", "Bert"]
