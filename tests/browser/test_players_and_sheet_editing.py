"""On a phone: a manager finds a typo'd player in the list, merges it into
the right one (and undoes it); a scorer changes a sheet's date, table and seating,
closes it, checks it against the paper sheet; a manager deletes and restores it."""

import datetime

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Player, Role
from scoresheet import services
from scoresheet.models import ScoreRow, SeasonTotal, Sheet
from tests.data import SEED_HANDS

pytestmark = pytest.mark.browser


@pytest.fixture
def manager(make_user, club):
    user = make_user("marie", first_name="Marie")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    return user


@pytest.fixture
def evenings(season, players, club):
    """The seed sheet, and a second evening where Dora was typed "Dorra"."""
    first = services.create_sheet(
        season=season, players=players[:4], date=datetime.date(2026, 3, 7), table="1"
    )
    for hand in SEED_HANDS:
        services.record_hand(first, hand)
    typo = Player.objects.create(club=club, name="Dorra")
    second = services.create_sheet(
        season=season,
        players=[players[4], players[5], players[1], typo],
        date=datetime.date(2026, 3, 14),
        table="1",
    )
    services.record_hand(
        second, {"dealer": "Emil", "taker": "Dorra", "contract": "garde", "bouts": 2, "points": 56}
    )
    return first, second, typo


def test_a_manager_merges_a_typo_into_the_player_and_undoes_it(
    page, live_server, log_in, manager, evenings, players
):
    first, second, typo = evenings
    dora = players[3]
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, manager)
    page.goto(f"{live_server.url}/clubs/rive/")
    page.get_by_role("link", name="Players", exact=True).click()
    row = page.locator('tr[data-player="Dorra"]')
    expect(row.locator("td").first).to_have_text("1")  # one hand played
    row.get_by_role("link", name="Manage").click()

    page.get_by_label("Merge into").select_option(label="Dora")
    page.get_by_role("button", name="Merge").click()
    expect(page.locator("[data-messages]")).to_contain_text("Dorra is merged into Dora")
    expect(page.locator('tr[data-player="Dorra"]')).to_have_count(0)
    expect(page.locator('tr[data-player="Dora"] td').first).to_have_text(str(len(SEED_HANDS) + 1))
    total = SeasonTotal.objects.get(player=dora)
    assert total.sheets == 2 and total.hands == len(SEED_HANDS) + 1
    assert not ScoreRow.objects.filter(player=typo).exists()

    page.get_by_role("button", name="Undo the merge").click()
    expect(page.locator("[data-messages]")).to_contain_text("The merge is undone")
    expect(page.locator('tr[data-player="Dorra"]')).to_have_count(1)
    assert SeasonTotal.objects.get(player=dora).hands == len(SEED_HANDS)


def test_a_manager_renames_and_makes_a_player_inactive(
    page, live_server, log_in, manager, evenings
):
    first, second, typo = evenings
    log_in(page, manager)
    page.goto(f"{live_server.url}/clubs/rive/players/{typo.pk}/edit/")
    page.get_by_label("Name").fill("Dorothée")
    page.get_by_role("button", name="Rename").click()
    expect(page.locator("[data-messages]")).to_contain_text("Player renamed.")
    expect(page.locator("h1")).to_have_text("Dorothée")
    page.get_by_role("button", name="Make inactive").click()
    heading = page.get_by_role("heading", level=1)
    expect(heading.get_by_text("inactive", exact=True)).to_be_visible()
    page.goto(f"{live_server.url}/clubs/rive/sheets/new/")
    expect(page.locator("#id_seat_1 option", has_text="Dorothée")).to_have_count(0)


def test_a_scorer_changes_a_sheet_and_checks_it_against_paper(
    page, live_server, log_in, scorer, manager, make_sheet, players
):
    sheet = make_sheet(4)
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, scorer)
    page.goto(f"{live_server.url}/clubs/rive/sheets/{sheet.pk}/")
    page.get_by_role("link", name="Change the sheet").click()
    page.get_by_label("Date").fill("2026-03-15")
    page.get_by_label("Table (optional)").fill("Terrasse")
    page.get_by_label("Seat 4").select_option(label="Emil")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("[data-messages]")).to_contain_text("Sheet changed.")
    expect(page.locator("h1")).to_contain_text("table Terrasse")
    sheet.refresh_from_db()
    assert sheet.date == datetime.date(2026, 3, 15)
    assert [s.player.name for s in sheet.seats.order_by("position")] == [
        "Anna",
        "Bert",
        "Carl",
        "Emil",
    ]

    hands = [
        {"dealer": "Anna", "taker": "Bert", "contract": "garde", "bouts": 2, "points": 56},
        {"dealer": "Bert", "taker": "Carl", "contract": "prise", "bouts": 1, "points": 40},
    ]
    for hand in hands:
        services.record_hand(sheet, hand)
    running = []
    total = [0, 0, 0, 0]
    for number in (1, 2):
        for row in ScoreRow.objects.filter(sheet=sheet, hand__number=number):
            total[row.position] += int(row.score)
        running.append(list(total))

    page.goto(f"{live_server.url}/clubs/rive/sheets/{sheet.pk}/")
    page.get_by_role("link", name="Check against the paper sheet").click()
    names = ["Anna", "Bert", "Carl", "Emil"]
    for number, totals in enumerate(running, 1):
        for name, value in zip(names, totals):
            page.get_by_label(f"{name} after hand {number}").fill(str(value))
    # Carl's total on the second line added up wrong on paper
    page.get_by_label("Carl after hand 2").fill(str(running[1][2] + 10))
    page.get_by_role("button", name="Check").click()
    finding = page.get_by_role("alert")
    expect(finding).to_contain_text("Hand 2: an arithmetic slip on paper.")
    expect(finding).to_contain_text("Carl")
    second = page.locator('tr[data-hand="2"]')
    expect(second.get_by_text("first difference", exact=True)).to_be_visible()

    page.goto(f"{live_server.url}/clubs/rive/sheets/{sheet.pk}/edit/")
    page.get_by_role("button", name="Close the sheet").click()
    closed = page.get_by_text("This sheet is closed: no more hands until a manager reopens it.")
    expect(closed).to_be_visible()
    assert Sheet.objects.get(pk=sheet.pk).is_closed

    # a manager reopens it, deletes it and restores it
    page.context.clear_cookies()
    log_in(page, manager)
    page.goto(f"{live_server.url}/clubs/rive/sheets/{sheet.pk}/edit/")
    page.get_by_role("button", name="Reopen the sheet").click()
    expect(closed).to_have_count(0)
    page.goto(f"{live_server.url}/clubs/rive/sheets/{sheet.pk}/edit/")
    page.get_by_role("button", name="Delete the sheet").click()
    expect(page.locator("h1")).to_have_text("Deleted sheets")
    assert not ScoreRow.objects.filter(sheet=sheet).exists()
    page.locator(f'li[data-sheet="{sheet.pk}"]').get_by_role("button", name="Restore").click()
    expect(page.locator("[data-messages]")).to_contain_text("Sheet restored.")
    assert ScoreRow.objects.filter(sheet=sheet).count() == 8


def test_a_near_duplicate_offers_the_existing_player(
    page, live_server, log_in, scorer, players, season, club
):
    Player.objects.create(club=club, name="Jean-Pierre")
    log_in(page, scorer)
    page.goto(f"{live_server.url}/clubs/rive/sheets/new/")
    page.get_by_label("Seat 1").select_option(label="Anna")
    page.get_by_label("Seat 2").select_option(label="Bert")
    page.get_by_label("Seat 3").select_option(label="Carl")
    page.get_by_label("New players").fill("Jean Pierre")
    page.get_by_role("button", name="Open the sheet").click()
    expect(
        page.get_by_role("group", name="“Jean Pierre” looks like a player of the club")
    ).to_be_visible()
    page.get_by_role("radio", name="Jean-Pierre", exact=True).check()
    page.get_by_role("button", name="Open the sheet").click()
    expect(page.locator("[data-messages]")).to_contain_text("Sheet opened.")
    sheet = Sheet.objects.get()
    assert "Jean-Pierre" in [p.name for p in sheet.players.all()]
    assert not Player.objects.filter(name="Jean Pierre").exists()
