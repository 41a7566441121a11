"""A league's manager uploads a licence list from the manage page, reads the preview
(what each line does, the refused line and why, in French) and imports it: the persons
are made and the club's player is linked."""

import pytest
from playwright.sync_api import expect

from clubs.models import Club, Person, Player
from leagues import services as leagues

pytestmark = pytest.mark.browser

LIST = (
    "Numéro de licence;Nom;Prénom;Club;Série\n"
    "1001;Dupont;Jean;Club A;Open\n"
    "1002;Loin;Zoé;Club Z;Open\n"
)


def test_the_manager_previews_then_imports_a_licence_list(
    page, new_context, live_server, log_in, django_user_model, tmp_path
):
    boss = django_user_model.objects.create_user("boss", password="pw-long-12345")
    league = leagues.create_league("Comité du Rhône", "comite", managers=[boss])
    club = Club.objects.create(name="Club A", slug="club-a")
    leagues.accept_invitation(leagues.invite_club(league, club))
    jean = Player.objects.create(club=club, name="Jean Dupont")
    upload = tmp_path / "licences.csv"
    upload.write_bytes(LIST.encode("cp1252"))

    log_in(page, boss)
    page.goto(f"{live_server.url}/leagues/comite/manage/")
    page.locator("[data-licences-link]").click()
    page.locator("[data-licence-upload] input[type=file]").set_input_files(str(upload))
    page.locator("[data-licence-upload] button[type=submit]").click()
    preview = page.locator("[data-licence-preview]")
    expect(preview.locator('[data-action="create"]')).to_contain_text("Jean Dupont")
    expect(preview.locator('[data-action="create"]')).to_contain_text("links the club's player")
    expect(preview.locator('[data-action="refused"]')).to_contain_text(
        "Club Z is not a member club of the league."
    )
    assert not Person.objects.exists()  # the preview writes nothing

    page.locator("[data-licence-commit]").get_by_role("button", name="Import these lines").click()
    expect(page.get_by_text("1 created, 0 updated, 1 linked, 1 refused")).to_be_visible()
    jean.refresh_from_db()
    assert jean.person.licence == "1001" and jean.person.serie == "Open"

    # in French, the refusal is in French
    page = new_context(locale="fr-FR").new_page()
    log_in(page, boss)
    page.goto(f"{live_server.url}/leagues/comite/manage/licences/")
    page.locator("[data-licence-upload] input[type=file]").set_input_files(str(upload))
    page.locator("[data-licence-upload] button[type=submit]").click()
    expect(page.locator('[data-action="refused"]')).to_contain_text(
        "Club Z n’est pas un club membre de la ligue."
    )
