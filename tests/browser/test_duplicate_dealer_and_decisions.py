"""A duplicate table's hand form on a phone: the étui fixes the dealer (DUPLICATE.md §1),
so the form shows who deals and asks nothing about it; the organiser takes an
arbitre's decision back on the arbitre's page, after confirming."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Player, Role
from tests.browser.test_hands import tap_choice
from tournaments import services, tokens
from tournaments.duplicate import services as duplicate_services
from tournaments.models import DealDecision, Round, RoundTable

pytestmark = pytest.mark.browser


@pytest.fixture
def event(django_user_model, club):
    organiser = django_user_model.objects.create_user("organiser", password="a-long-pass-1")
    Membership.objects.create(club=club, user=organiser, role=Role.MANAGER)
    players = [Player.objects.create(club=club, name=f"Joueur {i:02d}") for i in range(1, 9)]
    t = duplicate_services.create_duplicate(
        club,
        name="Donnes préparées",
        date=datetime.date(2026, 6, 6),
        rounds=2,
        deals_per_set=3,
        seed=3,
    )
    services.register(t, [("member", p) for p in players])
    duplicate_services.draw_movement(t)
    services.start_round(Round.objects.get(tournament=t, number=1))
    return t, organiser


def test_the_dealer_is_shown_fixed_by_the_deal(page, live_server, event):
    t, _organiser = event
    table = RoundTable.objects.select_related("sheet").get(
        round__tournament=t, round__number=1, set_number=2
    )
    names = [s.player.name for s in table.sheet.seats.select_related("player")]
    page.goto(f"{live_server.url}{tokens.url(table)}")
    page.get_by_role("link", name="Enter deal 1").first.tap()
    # set 2 is deals 4–6: deal 4 is dealt by West (its fourth seat)
    fixed = page.locator("[data-fixed-dealer]")
    expect(fixed).to_be_visible()
    expect(fixed).to_have_text(f"Deal 4 of étui 2 · dealer: {names[3]} (W), fixed by the deal.")
    expect(page.locator("input[name='dealer']")).to_have_count(0)
    tap_choice(page, "taker", names[0])
    tap_choice(page, "contract", "garde")
    tap_choice(page, "bouts", "2")
    page.locator("#id_points").fill("50")
    expect(page.locator("[data-preview]")).to_contain_text(names[0])
    page.get_by_role("button", name="Save", exact=True).tap()
    page.wait_for_url(re.compile(r".*/table/[^/]+/(#deal-\d)?$"))
    assert table.sheet.hands.get(number=1).dealer.name == names[3]
    page.get_by_role("link", name="Enter deal 2").first.tap()
    expect(page.locator("[data-fixed-dealer]")).to_have_attribute("data-fixed-dealer", "N")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_organiser_removes_a_decision_after_confirming(page, live_server, log_in, event):
    t, organiser = event
    table = RoundTable.objects.get(round__tournament=t, round__number=1, number=1)
    first = (table.set_number - 1) * 3 + 1
    duplicate_services.cancel_deal(table, first, "étui mélangé")
    duplicate_services.give_arbitral_score(table, first + 1, "E", "30", "saisie erronée")
    log_in(page, organiser)
    page.goto(f"{live_server.url}/clubs/{t.club.slug}/tournaments/{t.pk}/duplicate/arbitre/")
    row = page.locator("[data-decisions] tbody tr").filter(has_text="saisie erronée")
    # dismissed: nothing removed
    page.once("dialog", lambda dialog: dialog.dismiss())
    row.get_by_role("button", name="Remove").tap()
    expect(page.locator("[data-decisions] tbody tr")).to_have_count(2)
    assert DealDecision.objects.count() == 2
    dialogs = []
    page.once("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    row.get_by_role("button", name="Remove").tap()
    expect(page.locator("[data-messages]")).to_contain_text(
        f"The decision on deal {first + 1} at table 1 is removed."
    )
    assert dialogs == [
        f"Remove the decision on deal {first + 1} at table 1 (round 1)? "
        "The deal is compared again as the table entered it."
    ]
    expect(page.locator("[data-decisions] tbody tr")).to_have_count(1)
    expect(page.locator("[data-decisions]")).to_contain_text("étui mélangé")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
