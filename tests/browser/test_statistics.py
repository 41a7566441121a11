"""Statistics pages in a phone-sized Chromium: the charts draw (the vendored Chart.js,
no console error) with one point per hand or evening, and the numbers on a player's
page are the sheets' own totals.

The ledger is tests/stats/test_statistics.py's: the seed's five hands on 14 March,
five more on 21 March (Anna 108 then 444: 552 in all).
"""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.data import SEED_HANDS, SEED_TOTALS
from tests.stats.test_statistics import (
    MARCH_14,
    MARCH_21,
    SECOND_EVENING,
    SECOND_TOTALS,
    record,
)

pytestmark = pytest.mark.browser

TOTALS = {name: SEED_TOTALS[name] + SECOND_TOTALS[name] for name in SEED_TOTALS}
MINUS = "\u2212"


@pytest.fixture
def ledger(make_sheet, scorer):
    first = record(make_sheet(4, date=MARCH_14), SEED_HANDS, scorer)
    second = record(make_sheet(4, date=MARCH_21), SECOND_EVENING, scorer)
    return first, second


def signed(value):
    return f"+{value}" if value > 0 else str(value).replace("-", MINUS)


def watch_errors(page):
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("requestfailed", lambda request: errors.append(f"failed: {request.url}"))
    return errors


def chart_points(page, canvas_id):
    """Points of each line of the chart drawn on ``canvas_id``, read from Chart.js itself."""
    expect(page.locator(f"#{canvas_id}")).to_have_attribute("data-ready", "true")
    return page.evaluate(
        """id => window.Chart.getChart(document.getElementById(id))
                 .data.datasets.map(set => set.data)""",
        canvas_id,
    )


def assert_fits_the_phone(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]
    box = page.locator("#chart-running, #chart-top").first.bounding_box()
    assert box["width"] > 300 and box["height"] > 200


def test_player_season_charts(page, live_server, ledger, club, season, players):
    errors = watch_errors(page)
    anna = players[0]
    url = reverse("stats:player_season", args=[club.slug, anna.pk, season.pk])
    page.goto(live_server.url + url)

    running = chart_points(page, "chart-running")
    assert [len(line) for line in running] == [10]  # one point per hand Anna played
    assert running[0] == [240, 144, 216, 186, 108, 195, 345, 252, 252, 552]
    assert page.locator("#chart-running").get_attribute("data-points") == "10"

    top = chart_points(page, "chart-top")
    assert [len(line) for line in top] == [2, 2, 2, 2]  # four players, two evenings
    assert [line[-1] for line in top] == [552, 24, -48, -528]
    assert page.evaluate("typeof window.Chart.version") == "string"

    assert_fits_the_phone(page)
    assert errors == []

    # the same numbers, as tables, one tap away
    page.locator("#progress details").first.locator("summary").tap()
    expect(page.locator("#table-running tbody tr")).to_have_count(10)
    expect(page.locator("#table-running tbody tr").last.locator("td").nth(1)).to_have_text("552")


def test_the_numbers_match_the_sheets(page, live_server, ledger, club, season, players):
    """Each player's evening scores are their totals on that evening's sheet page,
    and their season total is the sum."""
    errors = watch_errors(page)
    sheet_totals = {}
    for sheet in ledger:
        page.goto(live_server.url + reverse("scoresheet:sheet", args=[club.slug, sheet.pk]))
        for player in players[:4]:
            score = page.locator(f'[data-totals] [data-player="{player.name}"] [data-score]')
            text = score.inner_text()
            sheet_totals[sheet.date, player.name] = text.strip()
    assert sheet_totals[ledger[0].date, "Carl"] == signed(-380)

    for player in players[:4]:
        page.goto(
            live_server.url + reverse("stats:player_season", args=[club.slug, player.pk, season.pk])
        )
        expect(page.locator('[data-stat="total"]')).to_have_text(signed(TOTALS[player.name]))
        for sheet in ledger:
            row = page.locator(f'#table-evenings tr[data-date="{sheet.date:%Y-%m-%d}"]')
            expect(row.locator('[data-col="score"]')).to_have_text(
                sheet_totals[sheet.date, player.name]
            )
        last = chart_points(page, "chart-running")[0][-1]
        assert last == TOTALS[player.name]
    expect(page.locator('[data-stat="rank"]')).to_contain_text("3")  # Dora, third
    assert errors == []


def test_player_all_seasons_chart_by_evening(page, live_server, ledger, club, players):
    errors = watch_errors(page)
    page.goto(live_server.url + reverse("stats:player", args=[club.slug, players[1].pk]))
    assert chart_points(page, "chart-running") == [[172, 24]]
    expect(page.locator('[data-stat="total"]')).to_have_text("+24")
    assert errors == []


@pytest.mark.parametrize("browser_locale", ["fr-FR"])
def test_club_season_statistics(page, live_server, ledger, club, season):
    errors = watch_errors(page)
    page.goto(live_server.url + reverse("stats:season", args=[club.slug, season.pk]))
    top = chart_points(page, "chart-top")
    assert [len(line) for line in top] == [2, 2, 2, 2]
    legend = page.evaluate(
        "window.Chart.getChart(document.getElementById('chart-top')).data.datasets"
        ".map(set => set.label)"
    )
    assert legend == ["1. Anna", "2. Bert", "3. Dora", "4. Carl"]
    expect(page.locator('[data-stat="hands"]')).to_contain_text("10")
    expect(page.locator('[data-stat="passed"]')).to_contain_text("1")
    expect(page.locator('#table-contracts tr[data-contract="garde"] td').first).to_have_text("6")
    assert_fits_the_phone(page)
    assert errors == []


def test_without_javascript_the_tables_remain(new_context, live_server, ledger, club, season):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(live_server.url + reverse("stats:season", args=[club.slug, season.pk]))
    expect(page.locator("#chart-top")).to_be_hidden()
    page.locator("#leaders details summary").click()
    expect(page.locator("#table-top tbody tr")).to_have_count(2)
    expect(page.locator("#table-top tbody tr").last).to_contain_text(re.compile("552"))
