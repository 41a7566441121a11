"""A duplicate event closed from its page: the page lists what is still open, then,
everything played and confirmed, the organiser closes it and lands on the final
ranking; the event's page says it is closed."""

import datetime

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Player, Role
from tests.tournaments.duplicate_helpers import confirm_table, enter_table, play_round
from tournaments import services
from tournaments.duplicate import services as duplicate_services
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.browser


@pytest.fixture
def event(django_user_model, club):
    organiser = django_user_model.objects.create_user("organiser", password="a-long-pass-1")
    Membership.objects.create(club=club, user=organiser, role=Role.MANAGER)
    players = [Player.objects.create(club=club, name=f"Joueur {i:02d}") for i in range(1, 9)]
    t = duplicate_services.create_duplicate(
        club, name="Donnes préparées", date=datetime.date(2026, 6, 6), rounds=2, deals_per_set=2
    )
    services.register(t, [("member", p) for p in players])
    duplicate_services.draw_movement(t)
    for number in (1, 2):
        rnd = Round.objects.get(tournament=t, number=number)
        services.start_round(rnd)
        play_round(rnd, skip={1} if number == 2 else ())
        if number == 1:
            services.close_round(Round.objects.get(pk=rnd.pk))
    return t, organiser


def test_a_duplicate_event_closed_from_its_page(page, live_server, log_in, event):
    t, organiser = event
    log_in(page, organiser)
    url = f"{live_server.url}/clubs/{t.club.slug}/tournaments/{t.pk}/duplicate/"
    page.goto(url)
    still_open = page.locator("[data-still-open] li")
    expect(still_open).to_have_text(["Round 2: under way", "Round 2, table 1: in progress"])
    expect(page.locator("[data-close]")).to_have_count(0)
    # the last table comes in and the round is closed
    table = Round.objects.get(tournament=t, number=2).tables.get(number=1)
    enter_table(table)
    confirm_table(table)
    services.close_round(Round.objects.get(tournament=t, number=2))
    page.reload()
    expect(page.locator("[data-still-open]")).to_have_count(0)
    page.locator("[data-close]").tap()
    expect(page.locator("[data-messages]")).to_contain_text("The tournament is closed")
    assert page.url.endswith(f"/tournaments/{t.pk}/duplicate/ranking/")
    assert Tournament.objects.get(pk=t.pk).is_closed
    page.goto(url)
    expect(page.locator("[data-event-closed]")).to_contain_text("its ranking is final")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
