"""A club's sheets on a phone: home → club → sheets → a new sheet; the feuille de marque."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from scoresheet import services
from scoresheet.models import Sheet
from tests.data import SEED_HANDS

pytestmark = pytest.mark.browser

MINUS = "\u2212"


def no_sideways_scroll(page):
    """The page fits a 390px phone; only the sheet's own table may scroll sideways."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_scorer_opens_a_sheet_from_the_home_page(
    page, live_server, log_in, club, season, players, scorer
):
    log_in(page, scorer)
    page.goto(live_server.url + "/")
    page.get_by_role("link", name=re.compile("Club de la Rive")).click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Club de la Rive")
    expect(page.get_by_role("region", name=season.name)).to_contain_text("FFT")
    no_sideways_scroll(page)
    page.get_by_role("link", name="All sheets").click()

    expect(page.get_by_role("heading", level=1)).to_have_text("Sheets of Club de la Rive")
    page.get_by_role("link", name="New sheet").click()

    expect(page.get_by_label("Season")).to_have_value(str(season.pk))
    no_sideways_scroll(page)
    for seat, name in enumerate(["Anna", "Bert", "Carl"], start=1):
        page.get_by_label(f"Seat {seat}").select_option(label=name)
    # a newcomer takes the first empty seat
    page.get_by_label("New players").fill("Zoé")
    page.get_by_label("Table (optional)").fill("2")
    page.get_by_role("button", name="Open the sheet").click()

    sheet = Sheet.objects.get()
    expect(page).to_have_url(f"{live_server.url}/clubs/rive/sheets/{sheet.pk}/")
    expect(page.locator("[data-messages]")).to_contain_text("Sheet opened")
    strip = page.locator("[data-totals]").get_by_role("listitem")
    expect(strip).to_have_count(4)
    for i, name in enumerate(["Anna", "Bert", "Carl", "Zoé"]):
        expect(strip.nth(i)).to_contain_text(name)
    expect(page.locator("[data-next-dealer]")).to_contain_text("Anna")
    expect(page.get_by_role("link", name="Enter a hand")).to_be_visible()
    no_sideways_scroll(page)


def test_form_errors_are_shown_and_nothing_is_stored(
    page, live_server, log_in, club, season, players, scorer
):
    log_in(page, scorer)
    page.goto(f"{live_server.url}/clubs/rive/sheets/new/")
    page.get_by_label("Seat 1").select_option(label="Anna")
    page.get_by_role("button", name="Open the sheet").click()

    expect(page.get_by_role("alert")).to_contain_text("Seat at least 2 players.")
    expect(page.get_by_label("Seat 1")).to_have_value(str(players[0].pk))
    assert not Sheet.objects.exists()


def test_scorer_opens_a_sheet_with_other_rules(
    page, live_server, log_in, club, season, players, scorer
):
    log_in(page, scorer)
    page.goto(f"{live_server.url}/clubs/rive/sheets/new/")
    for seat, name in enumerate(["Anna", "Bert", "Carl", "Dora"], start=1):
        page.get_by_label(f"Seat {seat}").select_option(label=name)
    page.get_by_text("Rules: the season's, or others for this table").tap()
    page.get_by_label("Play other rules at this table").check()
    # the same house-rules fields as a season's: the pools only for mouches
    ante = page.get_by_label("Ante")
    expect(ante).to_be_hidden()
    # the Savoyard options only for that game, and then none of French Tarot's
    savoyard = page.get_by_role("group", name="Savoyard rules")
    rounding = page.get_by_text("To 10", exact=True)
    expect(savoyard).to_be_hidden()
    page.get_by_label("Scoring rules").select_option("savoyard")
    expect(savoyard).to_be_visible()
    expect(rounding).to_be_hidden()
    expect(ante).to_be_hidden()
    page.get_by_label("Scoring rules").select_option("mouches")
    expect(ante).to_be_visible()
    expect(rounding).to_be_visible()
    expect(savoyard).to_be_hidden()
    no_sideways_scroll(page)
    ante.fill("20")
    page.get_by_text("To 10", exact=True).tap()
    page.get_by_label("Single").fill("10")
    page.get_by_role("button", name="Open the sheet").click()

    expect(page.locator("[data-messages]")).to_contain_text("Sheet opened")
    assert Sheet.objects.get().rules == {
        "preset": "mouches",
        "rounding": 10,
        "ante": 20,
        "poignee": [10, 30, 40],
    }
    rules = page.get_by_role("definition").filter(has_text="Mouches")
    expect(rules).to_contain_text(
        "Mouches: with pools, rounded to 10, poignées 10/30/40, ante 20, dealer's stake 5"
    )


def test_seeded_sheet_shows_the_totals_and_explains_a_hand(page, live_server, make_sheet, scorer):
    sheet = make_sheet()
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    page.goto(f"{live_server.url}/clubs/rive/sheets/{sheet.pk}/")

    expected = {"Anna": "+108", "Bert": "+172", "Carl": f"{MINUS}380", "Dora": "+100"}
    for name, total in expected.items():
        score = page.locator(f'[data-totals] [data-player="{name}"] [data-score]')
        expect(score).to_have_text(total)
    footer = page.locator("tfoot [data-score]")
    expect(footer).to_have_text(list(expected.values()))
    # each line's check, as a screen reader says it
    checks = page.locator("tbody").get_by_role("cell", name="sums to zero", exact=True)
    expect(checks).to_have_count(5)
    no_sideways_scroll(page)

    # a hand's details fold under its scores: who took what, then why
    details = page.locator('[data-hand-details="1"]')
    explanation = details.locator("[data-explanation]")
    expect(explanation).to_be_hidden()
    details.locator("summary").tap()
    expect(explanation).to_be_visible()
    expect(explanation).to_have_text("(25 + 15) × 2 = 80 per defender; taker +240")
    box = explanation.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390

    # every player's column is on screen: nothing to scroll sideways
    for name in expected:
        head = page.locator(f'thead th[data-player="{name}"]').bounding_box()
        assert head["x"] >= 0 and head["x"] + head["width"] <= 390


@pytest.mark.parametrize("browser_locale", ["fr-FR"])
def test_sheet_in_french(page, live_server, make_sheet, scorer):
    sheet = make_sheet()
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)
    page.goto(f"{live_server.url}/clubs/rive/sheets/{sheet.pk}/")

    score = page.locator('[data-totals] [data-player="Carl"] [data-score]')
    expect(score).to_have_text(f"{MINUS}380")
    expect(page.locator("[data-next-dealer]")).to_contain_text("Prochain donneur")
    details = page.locator('[data-hand-details="1"]')
    details.locator("summary").tap()
    expect(details.locator("summary")).to_contain_text("Pourquoi\u202f? Donne 1")
    expect(details.locator("[data-explanation]")).to_contain_text("par défenseur")

    # the club's name after "de" takes the article of the noun it begins with
    page.goto(f"{live_server.url}/clubs/rive/sheets/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Feuilles du Club de la Rive")


def test_sheets_list_filter(page, live_server, club, season, make_sheet):
    make_sheet(4, date=datetime.date(2026, 3, 1), table="A")
    make_sheet(5, date=datetime.date(2026, 4, 1), table="B")
    make_sheet(3, date=datetime.date(2026, 5, 1), table="C")
    page.goto(f"{live_server.url}/clubs/rive/sheets/")

    rows = page.locator("[data-sheets] tbody tr")
    expect(rows).to_have_count(3)
    no_sideways_scroll(page)
    page.get_by_text("Filter", exact=True).tap()
    search = page.get_by_role("search", name="Filter the sheets")
    search.locator("label", has_text=re.compile(r"^\s*5\s*$")).tap()
    page.get_by_role("button", name="Show").tap()

    expect(page).to_have_url(re.compile(r"players=5"))
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Emil")
    expect(page.locator("[data-filter]")).to_have_attribute("open", "")

    page.get_by_label("From").fill("2026-04-15")
    search.locator("label", has_text="Any").tap()
    page.get_by_role("button", name="Show").tap()
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("C")

    page.get_by_role("link", name="Clear").tap()
    expect(rows).to_have_count(3)
