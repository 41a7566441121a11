"""Tournament day on phones: each table enters its deal through its own link, hands its
sheet in, and a second player's phone confirms it; one table's two entries differ and
the organiser resolves it; two second entries are sent at once and exactly one
confirmed version exists; a link reaches its own table only."""

import datetime
import re

import pytest
from django.db import connection
from playwright.sync_api import expect

from clubs.models import Membership, Player, Role
from scoresheet import services as sheets
from tests.browser.test_hands import tap_choice
from tests.tournaments.helpers import deal
from tournaments import services, tokens
from tournaments.models import TableResult, Tournament

pytestmark = pytest.mark.browser

DATE = datetime.date(2026, 5, 9)


@pytest.fixture
def day(django_user_model, club):
    """12 members, one round of one deal a table (three tables of four), started."""
    organiser = django_user_model.objects.create_user("organiser", password="a-long-pass-1")
    Membership.objects.create(club=club, user=organiser, role=Role.MANAGER)
    players = [Player.objects.create(club=club, name=f"Player {i:02d}") for i in range(1, 13)]
    t = services.create_tournament(
        club, name="Open", date=DATE, rules="fft", rounds=1, deals_per_round=1, seed=5
    )
    services.register(t, [("member", p) for p in players])
    rnd = t.round_set.get()
    services.draw_round(rnd)
    services.start_round(rnd)
    tables = list(rnd.tables.select_related("sheet").order_by("number"))
    return t, organiser, tables


def seated(table):
    return [s.player.name for s in table.sheet.seats.select_related("player")]


def totals(table):
    by_number = services.snapshot(table)[0]
    return [by_number[str(n)] for n in table.seats]


def hand_in(page, name):
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Hand the sheet in").tap()
    expect(page.locator("[data-table-state]")).to_have_attribute("data-table-state", "submitted")


def fill_check(page, scores, name):
    for k, score in enumerate(scores):
        page.locator(f"#score-{k}").fill(str(score))
    page.get_by_label("Your name").fill(name)


def test_a_round_entered_from_the_tables(new_context, live_server, log_in, day):
    t, organiser, (one, two, three) = day
    base = live_server.url
    first_phone = new_context().new_page()
    second_phone = new_context().new_page()

    # table 1 taps its deal in through its link, hands the sheet in; a second phone confirms
    link = f"{base}{tokens.url(one)}"
    first_phone.goto(link)
    expect(first_phone.locator("h1")).to_have_text("Round 1, table 1")
    first_phone.get_by_role("link", name="Enter deal 1").tap()
    names = seated(one)
    tap_choice(first_phone, "taker", names[1])
    tap_choice(first_phone, "contract", "garde")
    tap_choice(first_phone, "bouts", "2")
    first_phone.locator("#id_points").fill("56")
    expect(first_phone.locator(f'#hand-preview [data-player="{names[1]}"]')).to_have_text("+240")
    first_phone.get_by_role("button", name="Save", exact=True).tap()
    first_phone.wait_for_url(re.compile(r".*/table/[^/]+/(#deal-1)?$"))
    expect(first_phone.locator("#deal-1")).to_be_visible()
    assert first_phone.evaluate("document.documentElement.scrollWidth") <= 390
    hand_in(first_phone, "Anna")
    # the phone that handed it in cannot confirm it
    second_entry = {"name": "Second entry", "include_hidden": True}
    expect(first_phone.get_by_role("region", **second_entry)).to_have_count(0)
    second_phone.goto(link)
    expect(second_phone.get_by_role("region", **second_entry)).to_be_visible()
    expect(second_phone.locator("[data-deals]")).to_have_count(0)  # blind: no scores shown
    fill_check(second_phone, totals(one), "Bert")
    second_phone.get_by_role("button", name="Confirm the result").tap()
    expect(second_phone.locator("[data-messages]")).to_contain_text("the sheet is confirmed")

    # table 2: the second entry differs; the organiser sees where and resolves it
    sheets.record_hand(two.sheet, deal(seated(two), 0))
    link_two = f"{base}{tokens.url(two)}"
    first_phone.goto(link_two)
    hand_in(first_phone, "Carl")
    second_phone.goto(link_two)
    wrong = totals(two)
    wrong[0], wrong[1] = wrong[1], wrong[0]
    fill_check(second_phone, wrong, "Dora")
    second_phone.get_by_role("button", name="Confirm the result").tap()
    expect(second_phone.locator("[data-messages]")).to_contain_text("The two entries differ")
    expect(second_phone.locator('[data-differs="1"]')).to_have_count(2)

    organiser_page = new_context().new_page()
    log_in(organiser_page, organiser)
    round_url = f"{base}/clubs/{t.club.slug}/tournaments/{t.pk}/rounds/1/"
    organiser_page.goto(round_url)
    cards = organiser_page.locator("[data-round-tables]")
    expect(cards.locator('[data-table="1"] [data-status]')).to_have_text("confirmed")
    card = cards.locator('[data-table="2"]')
    expect(card.locator("[data-status]")).to_have_text("in dispute")
    expect(card.locator("[data-next-action]")).to_contain_text("Resolve the differences")
    card.get_by_role("link", name="Check, confirm, link").tap()
    differing = organiser_page.locator('[data-differences="players"] [data-differs="1"]')
    expect(differing).to_have_count(2)
    organiser_page.get_by_role("button", name="Confirm the sheet (paper checked)").tap()
    expect(organiser_page.locator("[data-messages]")).to_contain_text("The sheet is confirmed.")

    # the ranking is provisional while table 3 is not confirmed
    organiser_page.goto(f"{base}/clubs/{t.club.slug}/tournaments/{t.pk}/ranking/")
    provisional = organiser_page.get_by_text("Provisional: these tables' sheets are not confirmed")
    expect(provisional).to_contain_text("R1 T3")

    # table 3: two second entries sent at the same instant: one confirmed version
    sheets.record_hand(three.sheet, deal(seated(three), 0))
    services.submit_table(three, by_name="Emma")
    link_three = f"{base}{tokens.url(three)}"
    racers = [new_context().new_page() for _ in range(2)]
    for page, name in zip(racers, ("Fred", "Gina")):
        page.goto(link_three)
        fill_check(page, totals(three), name)
    # At the same instant on PostgreSQL. SQLite's in-memory test database is one
    # connection that the live server's threads share: two requests at once would
    # share its transaction, so there the second entry follows the first.
    at_once = connection.vendor == "postgresql"
    for page in racers:
        page.get_by_role("button", name="Confirm the result").click(no_wait_after=at_once)
        if not at_once:
            expect(page.locator("[data-messages]")).to_be_visible()
    for page in racers:
        expect(page.locator("[data-messages]")).to_be_visible()
    said = [page.locator("[data-messages]").inner_text() for page in racers]
    assert sum("the sheet is confirmed" in text for text in said) == 1, said
    assert TableResult.objects.filter(round_table=three, confirmed=True).count() == 1

    # a link reaches its own table only: another table's deal, a tampered token
    first_phone.goto(f"{base}{tokens.url(one)}")
    expect(first_phone.locator("body")).not_to_contain_text(seated(two)[0])
    token = tokens.token(one)
    tampered = token[:-1] + ("A" if token[-1] != "A" else "B")
    response = first_phone.goto(f"{base}/table/{tampered}/")
    assert response.status == 404

    # every sheet confirmed: the round closes, the tournament closes, links expire
    organiser_page.goto(round_url)
    organiser_page.get_by_role("button", name="Close the round").tap()
    expect(organiser_page.locator("[data-messages]")).to_contain_text("Round 1 is closed.")
    organiser_page.goto(f"{base}/clubs/{t.club.slug}/tournaments/{t.pk}/ranking/")
    organiser_page.get_by_role("button", name="Close the tournament").tap()
    expect(organiser_page.locator("[data-messages]")).to_contain_text("final ranking is frozen")
    assert Tournament.objects.get(pk=t.pk).state == "closed"
    assert first_phone.goto(link).status == 410


def test_the_room_screen_refreshes_itself(new_context, live_server, day):
    t, _organiser, (one, _two, _three) = day
    page = new_context(viewport={"width": 1280, "height": 720}).new_page()
    page.clock.install()
    page.goto(f"{live_server.url}/clubs/{t.club.slug}/tournaments/{t.pk}/screen/")
    expect(page.locator("[data-playing] li")).to_have_count(3)
    sheets.record_hand(one.sheet, deal(seated(one), 0))
    services.confirm_table(one)
    page.clock.run_for(11_000)
    expect(page.locator("[data-playing] li")).to_have_count(2)
    # find my table, by name
    phone = new_context().new_page()
    phone.goto(f"{live_server.url}/clubs/{t.club.slug}/tournaments/{t.pk}/find/")
    phone.get_by_label("Your number or your name").fill("player 05")
    phone.get_by_role("button", name="Find").tap()
    expect(phone.get_by_text(re.compile(r"^Table \d+, seat \w+$"))).to_be_visible()
