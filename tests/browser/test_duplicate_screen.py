"""A duplicate event's room screen at 1920 x 1080, in the free tournament's design: a
page of its own in large type, every player and every série shown, page by page."""

import datetime

import pytest
from playwright.sync_api import expect

from clubs.models import Player
from tests.tournaments.duplicate_helpers import play_round
from tournaments import services
from tournaments.duplicate import services as duplicate_services
from tournaments.models import Round

pytestmark = pytest.mark.browser


@pytest.fixture
def event(club):
    """64 players in three séries, round 1 played and confirmed."""
    players = [
        Player.objects.create(club=club, name=f"Joueur numéro {i:02d}") for i in range(1, 65)
    ]
    t = duplicate_services.create_duplicate(
        club, name="Grand duplicate", date=datetime.date(2026, 6, 6), rounds=2, deals_per_set=1
    )
    services.register(t, [("member", p) for p in players])
    duplicate_services.set_series(t, {n: "ABC"[n % 3] for n in range(1, 65)})
    duplicate_services.draw_movement(t)
    rnd = Round.objects.get(tournament=t, number=1)
    services.start_round(rnd)
    play_round(rnd)
    return t


def shown(page, attribute):
    return set(
        page.locator(f"[data-screen-part]:not([hidden]) [{attribute}]:visible").evaluate_all(
            f"rows => rows.map(r => r.getAttribute('{attribute}'))"
        )
    )


def test_the_screen_shows_every_player_and_serie_by_pages(new_context, live_server, event):
    t = event
    page = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/clubs/{t.club.slug}/tournaments/{t.pk}/duplicate/screen/?page=5")
    expect(page.locator("nav")).to_have_count(0)  # a page of its own
    width = page.evaluate("document.querySelector('[data-screen]').getBoundingClientRect().width")
    assert width == 1920
    size = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('[data-row]')).fontSize)"
    )
    assert size >= 32  # the shared screen's large type
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    pages = int(page.locator("[data-screen]").get_attribute("data-pages"))
    assert pages >= 4  # the barometer, then the three séries
    players, series_rows, series = set(), set(), set()
    for _ in range(pages):
        players |= shown(page, "data-row")
        series_rows |= shown(page, "data-series-row")
        series |= set(
            page.locator("[data-screen-part]:not([hidden])").evaluate_all(
                "parts => parts.map(p => p.dataset.series).filter(Boolean)"
            )
        )
        assert len(shown(page, "data-row")) <= 64
        page.clock.run_for(5_000)
    assert players == {str(n) for n in range(1, 65)}
    assert series == {"A", "B", "C"}
    assert series_rows == {str(n) for n in range(1, 65)}
