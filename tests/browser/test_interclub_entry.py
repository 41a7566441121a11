"""The interclub match's per-deal entry on a 360 px phone: a table's second entry copies
every deal's four marques, and the grid fits the screen with no scrolling sideways."""

import pytest
from playwright.sync_api import expect

from competitions import services as competitions
from competitions.models import Match
from scoresheet import services as sheets
from tests.competitions.conftest import championship, clubs, line_ups  # noqa: F401
from tests.leagues.fixtures import boss, league  # noqa: F401
from tests.tournaments.helpers import deal
from tournaments import services as tournaments
from tournaments import tokens

pytestmark = pytest.mark.browser


def test_the_per_deal_entry_fits_a_360_px_phone(
    new_context,
    live_server,
    championship,  # noqa: F811
    boss,  # noqa: F811
):
    championship(deals=3)
    match = Match.objects.filter(day=1).first()
    line_ups(match)
    competitions.start_match(match, actor=boss)
    table = match.tables.get(number=1).round_table
    names = [s.player.name for s in table.sheet.seats.select_related("player")]
    for i in range(3):
        sheets.record_hand(table.sheet, deal(names, i))
    tournaments.submit_table(table, by_name="Anna")
    phone = new_context(viewport={"width": 360, "height": 740}).new_page()
    phone.goto(f"{live_server.url}{tokens.url(table)}")
    grid = phone.locator("[data-check-grid]")
    expect(grid.locator("tbody tr")).to_have_count(3)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    scroller = phone.locator("[data-check-form] [data-check-scroll]")
    assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth")
    for k in range(4):
        box = phone.locator(f"input[name='deal_2_{k}']").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, k
        assert box["height"] >= 44 and box["width"] >= 40, k
