"""Getting started on a phone: sign up, confirm by email, create a club, open its first
season; and a manager's upload with one refused sheet."""

import json
import re

import pytest
from playwright.sync_api import expect

from clubs.models import Club, Membership, Role
from scoresheet.models import Sheet
from tests.conftest import PASSWORD
from tests.data import SEED_HANDS

pytestmark = pytest.mark.browser


def test_sign_up_confirm_by_email_create_a_club_and_its_first_season(
    page, live_server, settings, mailoutbox
):
    settings.ALLOW_SIGNUP = True
    settings.ALLOW_CLUB_CREATION = True
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Username").fill("nina")
    page.get_by_label("Email address").fill("nina@example.org")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.locator("#signup-sent")).to_contain_text("nina@example.org")

    [message] = mailoutbox
    link = re.search(r"https?://\S+", message.body).group(0)
    page.goto(link)
    page.get_by_role("button", name="Confirm my account").click()
    expect(page.get_by_role("heading", name="Create a club")).to_be_visible()
    page.get_by_label("Name of the club").fill("Les Excuses")
    page.get_by_role("button", name="Create the club").click()

    expect(page.get_by_role("heading", name="Getting started")).to_be_visible()
    page.get_by_label("Name", exact=True).fill("Printemps")
    page.get_by_text("Placement points per evening").click()
    page.get_by_label("Points of the first, second… of each evening").fill("10, 6, 3")
    page.get_by_role("button", name="Open the season").click()
    expect(page.locator("#step-season")).to_contain_text("Printemps")
    expect(page.get_by_role("link", name="Open a sheet")).to_be_visible()

    club = Club.objects.get(name="Les Excuses")
    assert Membership.objects.get(club=club).role == Role.MANAGER
    assert club.seasons.get().ranking == {"by": "points", "points": [10, 6, 3]}


def test_an_upload_with_one_refused_sheet(page, live_server, log_in, make_user, season):
    manager = make_user("marie")
    Membership.objects.create(club=season.club, user=manager, role=Role.MANAGER)
    log_in(page, manager)
    good = {"players": ["Anna", "Bert", "Carl", "Dora"], "date": "2026-03-14", "table": "1"}
    sheets = [
        dict(good, hands=SEED_HANDS[:2]),
        dict(good, table="2", hands=[SEED_HANDS[0], dict(SEED_HANDS[1], bouts=7)]),
        dict(good, table="3", hands=SEED_HANDS[2:]),
    ]
    text = "\n".join(json.dumps(s) for s in sheets) + "\n"

    page.goto(f"{live_server.url}/clubs/{season.club.slug}/manage/data/")
    page.get_by_label("File").set_input_files(
        files=[{"name": "march.jsonl", "mimeType": "application/jsonl", "buffer": text.encode()}]
    )
    page.get_by_role("button", name="Check the file").click()
    expect(page.locator("#upload-summary")).to_contain_text("2 sheets can be imported, 1 refused")
    refused = page.locator('#upload-lines tr[data-outcome="refused"]')
    expect(refused).to_have_count(1)
    expect(refused.locator("td").first).to_have_text("2")
    expect(refused).to_contain_text("hand 2:")
    assert Sheet.objects.count() == 0

    page.get_by_role("button", name="Import 2 sheets").click()
    expect(page.locator("#upload-summary")).to_contain_text("2 sheets imported, 1 refused")
    assert sorted(Sheet.objects.values_list("table", flat=True)) == ["1", "3"]
