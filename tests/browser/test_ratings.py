"""The ratings on a phone: the club's ratings table, and a player's rating chart."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clubs.models import Player
from ratings import queries, scopes
from tests.browser.test_standings import season  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser


def test_the_ratings_table_and_a_players_rating_chart(page, live_server, season):  # noqa: F811
    club = season.club
    rows = queries.scope_rows(scopes.club(club.pk))
    page.goto(live_server.url + reverse("standings:ratings", args=[club.slug]))
    table = page.locator("table[data-ratings]")
    expect(table.locator("tbody tr")).to_have_count(5)
    shown = table.locator("tbody tr td:nth-child(2)").all_inner_texts()
    assert shown == [row.name for row in rows]  # ranked by μ − 3σ
    expect(table.locator("thead")).to_contain_text("μ ± 3σ")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    anna = Player.objects.get(club=club, name="Anna")
    page.goto(live_server.url + reverse("stats:player", args=[club.slug, anna.pk]))
    chart = page.locator("[data-rating-history] canvas#chart-rating")
    expect(chart).to_be_visible()
    # drawn by the page's script: the canvas holds pixels
    page.wait_for_function(
        "() => { const c = document.getElementById('chart-rating');"
        " return c && c.width > 0 && c.toDataURL().length > 1000; }"
    )
