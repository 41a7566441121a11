"""A duplicate event's travellers carry what an arbitre needs to check a marque: the
contract, the taker's seat, the bouts and the points; the engine, given only what the
page prints, finds every seat's marque the page prints."""

import datetime
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Player, Role
from tarot.engine import score_hand
from tarot.hand import Hand
from tarot.jsonformat import parse_rules
from tests.tournaments.duplicate_helpers import play_round
from tournaments import services
from tournaments.duplicate import services as duplicate_services
from tournaments.models import Round

pytestmark = pytest.mark.browser

SEATS = ("N", "E", "S", "W")


def test_a_travellers_marques_recomputed_from_its_printed_fields(
    page, live_server, log_in, club, django_user_model
):
    organiser = django_user_model.objects.create_user("organiser", password="a-long-pass-1")
    Membership.objects.create(club=club, user=organiser, role=Role.MANAGER)
    players = [Player.objects.create(club=club, name=f"Joueur {i:02d}") for i in range(1, 9)]
    t = duplicate_services.create_duplicate(
        club, name="Donnes préparées", date=datetime.date(2026, 6, 6), rounds=2, deals_per_set=3
    )
    services.register(t, [("member", p) for p in players])
    duplicate_services.draw_movement(t)
    rnd = Round.objects.get(tournament=t, number=1)
    services.start_round(rnd)
    play_round(rnd)
    rules = parse_rules(t.rules)
    log_in(page, organiser)
    page.goto(f"{live_server.url}/clubs/{t.club.slug}/tournaments/{t.pk}/duplicate/travellers/")
    rows = page.locator("[data-traveller] tbody tr")
    expect(rows.first).to_be_visible()
    checked = 0
    for k in range(rows.count()):
        row = rows.nth(k)
        contract = row.locator("[data-contract]").get_attribute("data-contract")
        printed = [
            row.locator(f"[data-seat='{seat}']").get_attribute("data-marque") for seat in SEATS
        ]
        if not contract:  # everybody passed: nobody scores
            assert printed == ["0"] * 4
            continue
        taker = row.locator("[data-taker]").get_attribute("data-taker")
        bouts = int(row.locator("[data-bouts]").get_attribute("data-bouts"))
        points = Fraction(row.locator("[data-points]").get_attribute("data-points"))
        hand = Hand(players=SEATS, taker=taker, contract=contract, bouts=bouts, points=points)
        marques = [Fraction(h, 2) for h in score_hand(rules, hand).halves]
        assert [Fraction(p) for p in printed] == marques, (k, contract, taker, bouts, points)
        checked += 1
    assert checked >= 4
