"""A withdrawal on the organiser's phone: the Withdraw link asks first, saying
which tables of the rounds already drawn will change; once confirmed, those rounds
keep their draw, and the round page marks the changed tables' cards for reprinting."""

import datetime

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Player, Role
from tests.tournaments.helpers import play_round
from tournaments import services

pytestmark = pytest.mark.browser


@pytest.fixture
def tournament(django_user_model, club):
    """17 members, 3 rounds drawn in advance, round 1 played and closed."""
    organiser = django_user_model.objects.create_user("organiser", password="a-long-pass-1")
    Membership.objects.create(club=club, user=organiser, role=Role.MANAGER)
    players = [Player.objects.create(club=club, name=f"Player {i:02d}") for i in range(1, 18)]
    t = services.create_tournament(
        club,
        name="Open",
        date=datetime.date(2026, 5, 9),
        rules="fft",
        rounds=3,
        deals_per_round=1,
        seed=5,
    )
    services.register(t, [("member", p) for p in players])
    services.draw_schedule(t)
    first = t.round_set.get(number=1)
    services.start_round(first)
    play_round(t, first)
    services.close_round(first)
    return t, organiser


def test_a_withdrawal_confirmed_and_its_effect_shown(page, live_server, log_in, tournament):
    t, organiser = tournament
    second = t.round_set.get(number=2)
    # A player of a table of 4 in round 2: his table and the table of 5 will change.
    leaving = next(n for table in second.tables.all() if len(table.seats) == 4 for n in table.seats)
    name = f"Player {leaving:02d}"
    before = {table.number: table.seats for table in second.tables.all()}
    log_in(page, organiser)
    base = f"{live_server.url}/clubs/{t.club.slug}/tournaments/{t.pk}"
    page.goto(f"{base}/players/")
    page.get_by_role("link", name=f"Withdraw {name}").tap()

    expect(page.get_by_role("heading", name=f"Withdraw {leaving}. {name}?")).to_be_visible()
    effect = page.locator("[data-withdraw-effect]")
    expect(effect).to_contain_text("Their scores up to round 1 stay in the ranking")
    expect(effect).to_contain_text("Rounds already drawn keep their draw")
    expect(effect.locator('[data-round="2"]')).to_contain_text("Round 2: tables ")
    expect(page.get_by_label("Keep their draw, changing only those tables")).to_be_checked()
    assert t.entries.get(number=leaving).withdrawn_after_round is None  # nothing yet
    page.get_by_role("button", name="Confirm the withdrawal").tap()
    expect(page.locator("[data-messages]")).to_contain_text(f"{name} withdrew after round 1.")

    page.goto(f"{base}/rounds/2/")
    heading = page.get_by_role("heading", level=2, name="Round 2")
    expect(heading.get_by_text("drawn", exact=True)).to_be_visible()  # still drawn
    tables = page.locator("[data-round-tables]")
    expect(tables).not_to_contain_text(name)
    changed = [t.number for t in second.tables.filter(changed=True)]
    assert len(changed) == 2
    expect(tables.locator("[data-changed]")).to_have_count(2)
    for number in changed:
        expect(tables.locator(f'[data-table="{number}"] [data-changed]')).to_contain_text(
            "print its card again"
        )
    unchanged = [n for n in before if n not in changed]
    for number in unchanged:
        assert second.tables.get(number=number).seats == before[number]
        expect(tables.locator(f'[data-table="{number}"] [data-changed]')).to_have_count(0)
    page.get_by_role("link", name="Print the 2 changed cards again").tap()
    expect(page.locator("[data-table-card]")).to_have_count(2)
