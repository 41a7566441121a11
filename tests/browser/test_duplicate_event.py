"""A duplicate event on phones: 20 players (5 tables, 4 rounds of 3 deals). The
organiser draws the movement on the event's page; table 1 enters its étui through
its private link each round (the page says which deal comes next, who deals and
where the étui goes), hands the sheet in, a second phone confirms it; one table's
two entries differ in round 1 and the organiser resolves it; the arbitre cancels a
deal at one table in round 2 on the arbitre's page. The barometer after round 2 and
the final ranking equal ``score_duplicate`` run on the event's own JSON export."""

import datetime
import json
import re
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Player, Role
from tarot.duplicate import SEATS, dealer_seat
from tests.browser.test_hands import tap_choice
from tests.tournaments.duplicate_helpers import confirm_table, enter_table
from tournaments import services, tokens
from tournaments.duplicate import services as duplicate_services
from tournaments.duplicate.event_ranking import score_event
from tournaments.models import Round, RoundTable

pytestmark = pytest.mark.browser

DATE = datetime.date(2026, 6, 6)


@pytest.fixture
def event(django_user_model, club):
    organiser = django_user_model.objects.create_user("organiser", password="a-long-pass-1")
    Membership.objects.create(club=club, user=organiser, role=Role.MANAGER)
    players = [Player.objects.create(club=club, name=f"Joueur {i:02d}") for i in range(1, 21)]
    t = duplicate_services.create_duplicate(
        club, name="Open en donnes préparées", date=DATE, rounds=4, deals_per_set=3, seed=3
    )
    services.register(t, [("member", p) for p in players])
    return t, organiser


def seated(table):
    return [s.player.name for s in table.sheet.seats.select_related("player").order_by("position")]


def totals(table):
    by_number = services.snapshot(table)[0]
    return [by_number[str(n)] for n in table.seats]


def table_of(t, round_number, number):
    return RoundTable.objects.select_related("round__tournament", "sheet").get(
        round__tournament=t, round__number=round_number, number=number
    )


def enter_set_on_phone(page, link, table):
    """Table 1 taps its three deals in: the next deal and its dealer as the page says."""
    names = seated(table)
    page.goto(link)
    for i in range(3):
        deal = (table.set_number - 1) * 3 + i + 1
        expect(page.locator("[data-next-deal]")).to_have_attribute("data-next-deal", str(deal))
        expect(page.locator("[data-duplicate-next]")).to_contain_text(
            f"dealt by {SEATS[dealer_seat(deal)]}"
        )
        page.get_by_role("link", name=f"Enter deal {i + 1}").first.tap()
        tap_choice(page, "taker", names[(deal + i) % 4])
        tap_choice(page, "contract", "garde" if i != 1 else "prise")
        tap_choice(page, "bouts", str((deal + 1) % 4))
        page.locator("#id_points").fill(str(40 + 3 * deal % 30))
        page.get_by_role("button", name="Save", exact=True).tap()
        page.wait_for_url(re.compile(r".*/table/[^/]+/(#deal-\d)?$"))
    expect(page.locator("[data-next-deal]")).to_have_attribute("data-next-deal", "")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def hand_in_and_confirm(first, second, link, table, *, wrong=False):
    first.get_by_label("Your name").fill(f"First {table.pk}")
    first.get_by_role("button", name="Hand the sheet in").tap()
    expect(first.locator("[data-table-state]")).to_have_attribute("data-table-state", "submitted")
    second.goto(link)
    scores = totals(table)
    if wrong:
        scores[0], scores[1] = scores[1], scores[0]
    for k, score in enumerate(scores):
        second.locator(f"#score-{k}").fill(str(score))
    second.get_by_label("Your name").fill(f"Second {table.pk}")
    second.get_by_role("button", name="Confirm the result").tap()
    expect(second.locator("[data-messages]")).to_be_visible()


def ranking_from_export(page, base, t):
    response = page.request.get(
        f"{base}/clubs/{t.club.slug}/tournaments/{t.pk}/duplicate/export/?format=json"
    )
    assert response.ok
    scored = score_event(json.loads(response.text()))
    return {row["player"]: (row["rank"], Fraction(str(row["score"]))) for row in scored["ranking"]}


def ranking_on_page(page, t):
    names = {e.number: e.name for e in t.entries.all()}
    rows = page.locator("[data-duplicate-ranking]").first.locator("tbody tr[data-entry]")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        number = int(row.get_attribute("data-entry"))
        out[names[number]] = (int(row.get_attribute("data-rank")), row.get_attribute("data-score"))
    return out


def same(page_rows, scored):
    """The page's rank and score (a percentage to two decimals) against the command's."""
    assert set(page_rows) == set(scored)
    for name, (rank, shown) in page_rows.items():
        assert rank == scored[name][0], name
        assert shown == f"{float(scored[name][1]):.2f}", name


def test_a_duplicate_event_entered_at_the_tables(new_context, live_server, log_in, event):
    t, organiser = event
    base = live_server.url
    event_url = f"{base}/clubs/{t.club.slug}/tournaments/{t.pk}/duplicate/"
    organiser_page = new_context().new_page()
    log_in(organiser_page, organiser)
    organiser_page.goto(event_url)
    organiser_page.locator("[data-draw-movement]").tap()
    expect(organiser_page.locator("[data-messages]")).to_contain_text("The movement is drawn")
    expect(organiser_page.locator("[data-repeated]")).to_have_attribute("data-repeated", "0")
    assert organiser_page.evaluate("document.documentElement.scrollWidth") <= 390

    first_phone = new_context().new_page()
    second_phone = new_context().new_page()
    for number in range(1, 5):
        services.start_round(Round.objects.get(tournament=t, number=number))
        one = table_of(t, number, 1)
        link = f"{base}{tokens.url(one)}"
        enter_set_on_phone(first_phone, link, one)
        nxt = RoundTable.objects.filter(
            round__tournament=t, round__number=number + 1, set_number=one.set_number
        ).first()
        if nxt is not None:
            expect(first_phone.locator("[data-pass-to]")).to_contain_text(
                f"pass the étui to table {nxt.number}"
            )
        hand_in_and_confirm(first_phone, second_phone, link, one)
        expect(second_phone.locator("[data-messages]")).to_contain_text("the sheet is confirmed")
        for table in RoundTable.objects.filter(round__tournament=t, round__number=number):
            if table.number == 1:
                continue
            enter_table(table)
            if number == 1 and table.number == 2:
                # table 2's two entries differ: the organiser checks the paper and confirms
                services.submit_table(table, by_name="Carl")
                two_link = f"{base}{tokens.url(table)}"
                second_phone.goto(two_link)
                scores = totals(table)
                scores[0], scores[1] = scores[1], scores[0]
                for k, score in enumerate(scores):
                    second_phone.locator(f"#score-{k}").fill(str(score))
                second_phone.get_by_label("Your name").fill("Dora")
                second_phone.get_by_role("button", name="Confirm the result").tap()
                expect(second_phone.locator("[data-messages]")).to_contain_text(
                    "The two entries differ"
                )
                table_url = f"{base}/clubs/{t.club.slug}/tournaments/{t.pk}/rounds/1/tables/2/"
                organiser_page.goto(table_url)
                organiser_page.get_by_role("button", name="Confirm the sheet (paper checked)").tap()
                expect(organiser_page.locator("[data-messages]")).to_contain_text(
                    "The sheet is confirmed."
                )
            else:
                confirm_table(table)
        if number == 2:
            # the arbitre cancels a deal at table 3 (a fouled étui), on the arbitre's page
            three = table_of(t, 2, 3)
            deal = (three.set_number - 1) * 3 + 2
            organiser_page.goto(event_url + "arbitre/")
            tap_choice(organiser_page, "kind", "Cancel the deal at this table")
            organiser_page.locator("#id_round").fill("2")
            organiser_page.locator("#id_table").fill("3")
            organiser_page.locator("#id_deal").fill(str(deal))
            organiser_page.locator("#id_reason").fill("Étui mélangé")
            organiser_page.get_by_role("button", name="Record the decision").tap()
            expect(organiser_page.locator("[data-decisions]")).to_contain_text("Étui mélangé")
            expect(organiser_page.locator("[data-decisions]")).to_contain_text("organiser")
        services.close_round(Round.objects.get(tournament=t, number=number))
        if number == 2:
            organiser_page.goto(event_url + "ranking/")
            expect(organiser_page.locator("[data-ranking-title]")).to_have_text("Barometer")
            same(ranking_on_page(organiser_page, t), ranking_from_export(organiser_page, base, t))
            travellers = organiser_page.request.get(event_url + "travellers/").text()
            assert "cancelled by the arbitre" in travellers

    services.close_tournament(t)
    reader = new_context().new_page()
    reader.goto(event_url + "ranking/")
    expect(reader.locator("[data-ranking-title]")).to_have_text("Final ranking")
    final = ranking_from_export(reader, base, t)
    same(ranking_on_page(reader, t), final)
    assert len(final) == 20
