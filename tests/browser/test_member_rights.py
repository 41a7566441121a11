"""A member downloads their data from My account; a club's manager downloads a player's
data and erases a former player from the player's page, through the confirmation page
that says what happens."""

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from clubs.models import AuditEntry, Person, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_member_downloads_their_data_from_my_account(page, live_server, log_in, scorer, seeded):
    player = seeded.seats.order_by("position").first().player
    player.user = scorer
    player.save()
    log_in(page, scorer)
    page.goto(live_server.url + "/accounts/profile/")
    page.locator("[data-my-data]").click()
    expect(page.get_by_role("heading", name="My data")).to_be_visible()
    expect(page.get_by_text("It covers 1 player.")).to_be_visible()
    with page.expect_download() as caught:
        page.get_by_role("button", name="Download my data").click()
    download = caught.value
    assert download.suggested_filename.startswith(
        "scorer-"
    ) and download.suggested_filename.endswith(".json")
    data = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert data["logins"][0]["username"] == "scorer"
    assert data["players"][0]["name"] == player.name and data["players"][0]["hands"]
    assert AuditEntry.objects.filter(action="data_downloaded", actor=scorer).exists()


def test_a_manager_downloads_then_erases_a_former_player(
    page, live_server, log_in, manager, seeded, club
):
    player = seeded.seats.order_by("position").first().player
    old = player.name
    player.person = Person.objects.create(name=old, licence="L-4242")
    player.save()
    log_in(page, manager)
    page.goto(f"{live_server.url}/clubs/{club.slug}/players/{player.pk}/")
    rights = page.locator("#player-rights")
    rights.get_by_role("link", name="Download this player's data").click()
    with page.expect_download() as caught:
        page.get_by_role("button", name="Download this player's data").click()
    data = json.loads(Path(caught.value.path()).read_text(encoding="utf-8"))
    assert data["person"]["licence"] == "L-4242" and data["players"][0]["name"] == old

    page.goto(f"{live_server.url}/clubs/{club.slug}/players/{player.pk}/")
    page.locator("#player-rights").get_by_role("link", name="Erase this former player").click()
    expect(page.get_by_role("heading", name=f"Erase {old}")).to_be_visible()
    expect(page.locator("#erase-does")).to_contain_text("stays exactly as it was")
    page.get_by_label(f"{old} asked to be erased").check()
    page.get_by_role("button", name="Erase this player").click()
    expect(page.get_by_text("Erased: the player is now Ancien joueur 1.")).to_be_visible()
    expect(page.get_by_text("Ancien joueur 1").first).to_be_visible()
    assert old not in page.content()
    player.refresh_from_db()
    assert player.name == "Ancien joueur 1" and Person.objects.get().licence is None
    assert Player.objects.filter(club=club, name=old).count() == 0


@pytest.mark.parametrize("browser_locale", ["fr-FR"])
def test_the_erasure_page_in_french(page, live_server, log_in, manager, seeded, club):
    player = seeded.seats.order_by("position").first().player
    log_in(page, manager)
    page.goto(f"{live_server.url}/clubs/{club.slug}/players/{player.pk}/erase/")
    expect(page.get_by_role("heading", name=f"Effacer {player.name}")).to_be_visible()
    expect(page.locator("#erase-does")).to_contain_text("« Ancien joueur »")
    page.get_by_role("button", name="Effacer ce joueur").click()  # the box not ticked
    assert Player.objects.get(pk=player.pk).name == player.name
