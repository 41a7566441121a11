"""The room's screen at 1920 x 1080: a page of its own (no site navigation),
full width, large type; a 60-player ranking shown whole within one paging cycle, the
team ranking in turn, the round's tables still playing; paging and refreshing keep
the page laid out (no unpaged flash)."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Player, Role
from tests.tournaments.helpers import play_round
from tournaments import services

pytestmark = pytest.mark.browser


@pytest.fixture
def big(django_user_model, club):
    """60 members in 30 teams of two, round 1 started, all tables but two played and
    confirmed."""
    organiser = django_user_model.objects.create_user("organiser", password="a-long-pass-1")
    Membership.objects.create(club=club, user=organiser, role=Role.MANAGER)
    players = [
        Player.objects.create(club=club, name=f"Joueur numéro {i:02d}") for i in range(1, 61)
    ]
    t = services.create_tournament(
        club,
        name="Grand tournoi",
        date=datetime.date(2026, 5, 9),
        rules="fft",
        rounds=2,
        deals_per_round=1,
        seed=5,
        team_size=2,
    )
    for i in range(30):
        pair = [("member", players[2 * i]), ("member", players[2 * i + 1])]
        services.register_team(t, f"Équipe {i + 1}", pair)
    first = t.round_set.get(number=1)
    services.draw_round(first)
    services.start_round(first)
    play_round(t, first, skip={3, 7})
    for table in first.tables.exclude(number__in=(3, 7)):
        services.confirm_table(table)  # the organiser confirms the sheets handed in
    return t


def visible_rows(page):
    """The ranking's (or the teams') rows shown whole inside the 1920 x 1080 window."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('[data-row], [data-team]'))
            .filter((el) => {
              const r = el.getBoundingClientRect();
              return el.offsetParent !== null && r.height > 0 && r.top >= 0
                && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
            })
            .map((el) => el.dataset.row ? 'p' + el.dataset.row : 't' + el.dataset.team)"""
    )


def test_the_whole_ranking_and_the_teams_within_one_paging_cycle(new_context, live_server, big):
    t = big
    page = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/clubs/{t.club.slug}/tournaments/{t.pk}/screen/?page=5")
    expect(page.locator("[data-topbar]")).to_have_count(0)  # no site navigation
    expect(page.locator("nav")).to_have_count(0)
    width = page.evaluate("document.querySelector('[data-screen]').getBoundingClientRect().width")
    assert width == 1920  # full width
    row = "document.querySelector('[data-row]')"
    size = page.evaluate(f"parseFloat(getComputedStyle({row}).fontSize)")
    assert size >= 32  # 3 % of the height: readable across a room
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080  # nothing to scroll

    pages = int(page.locator("[data-screen]").get_attribute("data-pages"))
    assert 2 <= pages <= 4  # the players' ranking (one or two pages), then the teams
    seen = set()
    titles = set()
    for _ in range(pages):
        seen |= set(visible_rows(page))
        titles |= set(page.locator("[data-screen-part]:not([hidden]) h2").all_inner_texts())
        page.clock.run_for(5_000)
    assert {f"p{n}" for n in range(1, 61)} <= seen  # every player, whole, on screen
    assert {f"t{n}" for n in range(1, 31)} <= seen  # and every team
    assert "Team ranking" in titles
    # The round's tables: the two not played are still playing, the others finished.
    expect(page.locator("[data-playing] li")).to_have_count(2)
    expect(page.locator("[data-done]")).to_contain_text("Finished:")
    # A refresh brings a changed ranking in without losing the page laid out.
    page_now = page.locator("[data-screen]").get_attribute("data-page")
    first = t.round_set.get(number=1)
    others = set(first.tables.exclude(number__in=(3, 7)).values_list("number", flat=True))
    play_round(t, first, skip=others)  # tables 3 and 7 play their deal
    page.clock.run_for(11_000)  # a refresh comes within ten seconds
    expect(page.locator("[data-screen]")).to_have_attribute("data-refreshed", re.compile(r"\d+"))
    expect(page.locator('[data-playing] li[data-table="3"]')).to_contain_text("1/1")
    assert int(page.locator("[data-screen]").get_attribute("data-pages")) == pages
    assert page_now
    shown = visible_rows(page)  # still paged: one page's rows, whole, not all 90
    assert 0 < len(shown) <= 60
    assert page.locator("[data-row]:visible, [data-team]:visible").count() == len(shown)
