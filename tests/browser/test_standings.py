"""The standings page on a phone: sort by a column, filter, download what is shown."""

import csv
import datetime
import io
import re

import openpyxl
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clubs.models import Club, Player, Season
from scoresheet import services
from tests.data import NAMES, SEED_HANDS

pytestmark = pytest.mark.browser

#: At five, Anna takes alone and makes a garde by 15: +320, the four others −80.
FIVE = {"dealer": "Emil", "taker": "Anna", "contract": "garde", "bouts": 2, "points": 56}


@pytest.fixture
def season(db):
    club = Club.objects.create(name="Club de la Rive", slug="rive")
    season = Season.objects.create(club=club, name="2026", start_date=datetime.date(2026, 1, 1))
    players = [Player.objects.create(club=club, name=name) for name in NAMES[:5]]
    four = services.create_sheet(
        season=season, players=players[:4], date=datetime.date(2026, 3, 14)
    )
    for data in SEED_HANDS:  # Bert 172, Anna 108, Dora 100, Carl −380
        services.record_hand(four, data)
    five = services.create_sheet(season=season, players=players, date=datetime.date(2026, 4, 18))
    services.record_hand(five, FIVE)
    return season


def names_shown(page):
    return page.locator("[data-standings] tbody td[data-player]").all_inner_texts()


def test_sort_filter_and_export_from_the_standings_page(page, live_server, season):
    page.goto(live_server.url + reverse("standings:season", args=["rive", season.pk]))

    # Ranked by total: Anna 428, Bert 92, Dora 20, Emil −80, Carl −460.
    expect(page.locator("[data-standings] tbody tr")).to_have_count(5)
    assert names_shown(page) == ["Anna", "Bert", "Dora", "Emil", "Carl"]
    expect(page.get_by_text("5 players")).to_be_visible()
    # The table scrolls sideways inside its frame; the page itself does not.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # Sort: a tap on "Hands" puts the most hands first; the ranks stay by total.
    page.locator("[data-standings] thead").get_by_role("link", name="Hands").tap()
    expect(page).to_have_url(re.compile(r"sort=-hands_played"))
    assert names_shown(page) == ["Anna", "Bert", "Carl", "Dora", "Emil"]
    ranks = page.locator("[data-standings] tbody td:first-child").all_inner_texts()
    assert ranks == ["1", "2", "5", "3", "4"]
    page.locator("[data-standings] thead").get_by_role("link", name="Player").tap()
    expect(page).to_have_url(re.compile(r"sort=name"))
    page.locator("[data-standings] thead").get_by_role("link", name="Player").tap()
    expect(page).to_have_url(re.compile(r"sort=-name"))
    assert names_shown(page) == ["Emil", "Dora", "Carl", "Bert", "Anna"]

    # Filter: tables of four only (the sort stays).
    page.locator("[data-filter] summary").tap()
    page.get_by_role("search", name="Filter the standings").locator("label", has_text="4").tap()
    page.get_by_role("button", name="Show").tap()
    expect(page).to_have_url(re.compile(r"sort=-name.*seats=4"))
    expect(page.locator("[data-standings] tbody tr")).to_have_count(4)
    assert names_shown(page) == ["Dora", "Carl", "Bert", "Anna"]
    expect(page.locator("[data-filter]")).to_have_attribute("open", "")
    # …and a date range that ends before the April sheet gives the same players.
    page.get_by_label("To").fill("2026-03-31")
    page.get_by_role("button", name="Show").tap()
    expect(page).to_have_url(re.compile(r"date_to=2026-03-31"))
    expect(page.locator("[data-standings] tbody tr")).to_have_count(4)

    # Export what is shown: filtered and sorted, every row.
    with page.expect_download() as download:
        page.get_by_role("link", name="CSV").tap()
    assert download.value.suggested_filename == "standings-rive-2026.csv"
    with open(download.value.path(), encoding="utf-8-sig") as file:
        rows = list(csv.reader(file))
    assert [row[:3] for row in rows] == [
        ["Rank", "Player", "Total"],
        ["3", "Dora", "100"],
        ["4", "Carl", "-380"],
        ["1", "Bert", "172"],
        ["2", "Anna", "108"],
    ]

    with page.expect_download() as download:
        page.get_by_role("link", name="Excel").tap()
    assert download.value.suggested_filename == "standings-rive-2026.xlsx"
    with open(download.value.path(), "rb") as file:
        sheet = openpyxl.load_workbook(io.BytesIO(file.read())).active
    assert [row[1] for row in sheet.iter_rows(values_only=True)] == [
        "Player",
        "Dora",
        "Carl",
        "Bert",
        "Anna",
    ]

    # Clear: back to the whole season.
    page.get_by_role("link", name="Clear").tap()
    expect(page.locator("[data-standings] tbody tr")).to_have_count(5)


def test_season_links_lead_from_all_seasons_to_one(page, live_server, season):
    Season.objects.create(club=season.club, name="2025", start_date=datetime.date(2025, 1, 1))
    page.goto(live_server.url + reverse("standings:club", args=["rive"]))

    links = page.get_by_role("navigation", name="Seasons")
    expect(links.get_by_role("link", name="All seasons")).to_have_attribute("aria-current", "page")
    links.get_by_role("link", name="2026").tap()
    expect(page).to_have_url(
        live_server.url + reverse("standings:season", args=["rive", season.pk])
    )
    expect(page.get_by_role("heading", level=1)).to_contain_text("2026")
    expect(links.get_by_role("link", name="2026")).to_have_attribute("aria-current", "page")
    # The season's own page has no season filter.
    page.locator("[data-filter] summary").tap()
    expect(page.get_by_label("From")).to_be_visible()
    expect(page.locator("select[name=season]")).to_have_count(0)
