"""The arbitre's totals-only result: a table without a phone hands its paper
sheet in; the organiser types its totals on the round page, a sum that is not zero is
refused naming the player a slip explains, then the totals show on the round page and in
the ranking, and can be cancelled."""

import datetime

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Player, Role
from tests.tournaments.helpers import play_round
from tournaments import services

pytestmark = pytest.mark.browser


@pytest.fixture
def tournament(django_user_model, club):
    """8 members, round 1 started; table 1 played through its sheet, table 2 not at all."""
    organiser = django_user_model.objects.create_user("organiser", password="a-long-pass-1")
    Membership.objects.create(club=club, user=organiser, role=Role.MANAGER)
    players = [Player.objects.create(club=club, name=f"Player {i:02d}") for i in range(1, 9)]
    t = services.create_tournament(
        club,
        name="Open",
        date=datetime.date(2026, 5, 9),
        rules="fft",
        rounds=2,
        deals_per_round=1,
        seed=5,
    )
    services.register(t, [("member", p) for p in players])
    services.draw_schedule(t)
    first = t.round_set.get(number=1)
    services.start_round(first)
    play_round(t, first, skip=(2,))
    return t, organiser


def test_the_organiser_types_a_tables_totals(page, live_server, log_in, tournament):
    t, organiser = tournament
    seats = t.round_set.get(number=1).tables.get(number=2).seats
    names = [f"Player {n:02d}" for n in seats]
    log_in(page, organiser)
    base = f"{live_server.url}/clubs/{t.club.slug}/tournaments/{t.pk}"
    page.goto(f"{base}/rounds/1/")
    table = page.locator('[data-table="2"]')
    expect(page.locator('[data-table="1"] [data-totals-form]')).to_have_count(0)  # it has deals
    table.get_by_text("Enter the totals (the table cannot use its link)").click()
    for name, value in zip(names, ["105", "-49", "-3", "-33"]):
        table.get_by_label(name).fill(value)
    table.get_by_role("button", name="Save the totals").click()
    messages = page.locator("[data-messages]")
    expect(messages).to_contain_text("The totals add up to +20, not zero")
    expect(messages).to_contain_text(names[1])
    expect(messages).not_to_contain_text(names[0])
    expect(page.locator('[data-table="2"] [data-totals-only]')).to_have_count(0)

    table = page.locator('[data-table="2"]')
    table.get_by_text("Enter the totals (the table cannot use its link)").click()
    for name, value in zip(names, ["105", "-69", "-3", "-33"]):
        table.get_by_label(name).fill(value)
    table.get_by_role("button", name="Save the totals").click()
    expect(page.locator("[data-messages]")).to_contain_text("Table 2's totals are entered")
    table = page.locator('[data-table="2"]')
    expect(table.locator("[data-status]")).to_have_text("confirmed")
    expect(table.locator("[data-totals-only]")).to_contain_text(f"{names[0]} +105")
    expect(table.locator("[data-totals-only]")).to_contain_text(f"{names[1]} −69")

    page.goto(f"{base}/ranking/")
    row = page.locator("tr", has_text=names[0])
    expect(row).to_contain_text("+105")

    page.goto(f"{base}/rounds/1/")
    page.locator('[data-table="2"]').get_by_role("button", name="Cancel the totals").click()
    expect(page.locator("[data-messages]")).to_contain_text("Table 2's totals are cancelled")
    expect(page.locator('[data-table="2"] [data-totals-only]')).to_have_count(0)
