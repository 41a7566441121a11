"""A 17-player tournament on a phone: set-up, the draw, deals, a correction, a withdrawal
and a late arrival, the ranking checked against the sheets, the table cards as a PDF.

The organiser's steps go through the pages; most deals are entered through the
services (one deal is tapped in, and corrected, through the hand form), so the
test stays fast.
"""

import re

import pytest
from playwright.sync_api import expect

from clubs.models import Membership, Player, Role
from scoresheet import services as sheets
from scoresheet.formatting import format_signed
from tests.browser.test_hands import tap_choice
from tests.tournaments.helpers import deal, totals_from_sheets
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.browser

MEMBERS = [f"Member {i:02d}" for i in range(1, 17)]


@pytest.fixture
def organiser(django_user_model, club):
    user = django_user_model.objects.create_user("organiser", password="a-long-passphrase-1")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    for name in MEMBERS:
        Player.objects.create(club=club, name=name)
    return user


def play_rest(tournament, number, *, skip_first_deal_of=None):
    """Enter the deals of round ``number`` through the services (all but those done)."""
    rnd = tournament.round_set.get(number=number)
    for table in rnd.tables.select_related("sheet").order_by("number"):
        names = [s.player.name for s in table.sheet.seats.select_related("player")]
        start = table.sheet.hands.count()
        for i in range(start, services.deals_for_table(tournament, len(names))):
            sheets.record_hand(table.sheet, deal(names, i))


def test_a_tournament_from_set_up_to_printed_cards(page, live_server, log_in, club, organiser):
    log_in(page, organiser)
    base = live_server.url
    page.goto(f"{base}/clubs/{club.slug}/")
    page.get_by_role("link", name="Tournaments").tap()
    page.get_by_role("link", name="New tournament").tap()
    page.get_by_label("Name").fill("Tournoi de la Rive")
    page.get_by_label("Date").fill("2026-05-09")
    page.get_by_label("Rounds").fill("3")
    page.get_by_label("Deals per round").fill("4")
    # what the draw puts first: fair by the end unless the organiser says
    fair = page.get_by_label("fair by the end: after the last round", exact=False)
    expect(fair).to_be_checked()
    page.get_by_label("fair every round: nobody sits", exact=False).check()
    page.get_by_label("fewer repeated meetings: some players", exact=False).check()
    fair.check()
    page.get_by_role("button", name="Create the tournament").tap()
    expect(page.locator("[data-messages]")).to_contain_text("Tournament created")
    tournament = Tournament.objects.get()
    assert tournament.draw_rule == "end"
    t_url = f"{base}/clubs/{club.slug}/tournaments/{tournament.pk}"

    # 15 members and 2 guests, pasted
    page.locator("#add-list > summary").tap()
    names = "\n".join(MEMBERS[:15] + ["Ada Guest; TC Lyon; 123456", "Bob Guest; Nice"])
    page.get_by_label("Paste a list").fill(names)
    page.get_by_role("button", name="Enter the list").tap()
    expect(page.locator("h2#entries")).to_have_text("17 players entered")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # the whole schedule in advance
    page.get_by_role("link", name="Overview").tap()
    page.get_by_role("button", name="Draw every round in advance").tap()
    # the schedule's search takes seconds of CPU (tournaments/draw/): a loaded CI
    # machine needs more than the 5 s Playwright waits by default
    expect(page.locator("[data-messages]")).to_contain_text(
        "Rounds 1, 2, 3 are drawn.", timeout=60_000
    )

    # round 1: start, one deal tapped in at a table of four, corrected, the rest entered
    page.goto(f"{t_url}/rounds/1/")
    expect(page.locator("[data-round-tables] [data-table]")).to_have_count(4)
    page.get_by_role("button", name="Start the round").tap()
    expect(page.locator('[data-table][data-state="empty"]')).to_have_count(4)
    rnd = tournament.round_set.get(number=1)
    table = next(t for t in rnd.tables.select_related("sheet") if len(t.seats) == 4)
    seated = [s.player.name for s in table.sheet.seats.select_related("player")]
    page.goto(f"{base}/clubs/{club.slug}/sheets/{table.sheet_id}/hands/new/")
    tap_choice(page, "taker", seated[1])
    tap_choice(page, "contract", "garde")
    tap_choice(page, "bouts", "2")
    page.locator("#id_points").fill("56")
    expect(page.locator(f'#hand-preview [data-player="{seated[1]}"]')).to_have_text("+240")
    page.get_by_role("button", name="Save", exact=True).tap()
    page.wait_for_url(re.compile(rf".*/sheets/{table.sheet_id}/(#hand-1)?$"))
    # a correction: 36 points, the garde fails
    page.goto(f"{base}/clubs/{club.slug}/sheets/{table.sheet_id}/hands/1/edit/")
    page.locator("#id_points").fill("36")
    expect(page.locator(f'#hand-preview [data-player="{seated[1]}"]')).to_have_text("−180")
    page.get_by_role("button", name="Save the correction").tap()
    page.wait_for_url(re.compile(rf".*/sheets/{table.sheet_id}/(hands/1/)?$"))
    assert table.sheet.hands.get().revisions.count() == 2
    play_rest(tournament, 1)
    page.goto(f"{t_url}/rounds/1/")
    expect(page.locator('[data-table][data-state="complete"]')).to_have_count(4)
    page.get_by_role("button", name="Close the round").tap()
    expect(page.locator("[data-messages]")).to_contain_text("Round 1 is closed.")

    # round 2
    page.goto(f"{t_url}/rounds/2/")
    page.get_by_role("button", name="Start the round").tap()
    expect(page.locator("[data-messages]")).to_contain_text("Round 2 has started")
    play_rest(tournament, 2)
    page.get_by_role("button", name="Close the round").tap()
    expect(page.locator("[data-messages]")).to_contain_text("Round 2 is closed.")

    # before round 3: number 5 withdraws, a guest arrives late
    page.goto(f"{t_url}/players/")
    page.get_by_role("link", name="Withdraw Member 05").tap()
    page.get_by_role("button", name="Confirm the withdrawal").tap()
    expect(page.locator("[data-messages]")).to_contain_text("Member 05 withdrew after round 2.")
    page.locator("#add-guest > summary").tap()
    page.get_by_label("Guest's name").fill("Late Comer")
    page.get_by_label("Their club").fill("Paris")
    page.get_by_role("button", name="Enter the guest").tap()
    expect(page.locator("[data-messages]")).to_contain_text("18. Late Comer")
    page.goto(f"{t_url}/rounds/3/")
    heading = page.get_by_role("heading", level=2, name="Round 3")
    expect(heading.get_by_text("not drawn", exact=True)).to_be_visible()
    page.get_by_role("button", name="Draw this round").tap()
    expect(page.locator("[data-messages]")).to_contain_text("Round 3 is drawn.")
    expect(page.locator("[data-round-tables] [data-table]")).to_have_count(4)
    expect(page.locator("[data-round-tables]")).not_to_contain_text("Member 05")
    expect(page.locator("[data-round-tables]")).to_contain_text("Late Comer")
    page.get_by_role("button", name="Start the round").tap()
    expect(page.locator("[data-messages]")).to_contain_text("Round 3 has started")
    play_rest(tournament, 3)
    page.get_by_role("button", name="Close the round").tap()
    expect(page.locator("[data-messages]")).to_contain_text("Round 3 is closed.")

    # the ranking, against sums computed from the sheets
    page.get_by_role("link", name="Ranking").first.tap()
    sums = totals_from_sheets(tournament)
    rows = page.get_by_role("table").locator("tbody tr")
    expect(rows).to_have_count(18)
    # the organiser may see licence numbers: their column comes before the rounds'
    shift = page.get_by_role("columnheader", name="Licence").count()
    totals = []
    for i in range(18):
        cells = rows.nth(i).locator("td")
        number = int(cells.nth(1).inner_text())
        per_round = sums.get(number, {})
        total = sum(per_round.values())
        assert cells.nth(7 + shift).inner_text() == format_signed(total), number
        for r in (1, 2, 3):
            want = format_signed(per_round[r]) if r in per_round else "—"
            # no sheet is confirmed in this test: every score played is marked provisional
            text = cells.nth(3 + shift + r).inner_text()
            assert text.removesuffix("*") == want, (number, r)
            assert text.endswith("*") == (r in per_round), (number, r)
        totals.append((int(cells.nth(0).inner_text()), total))
    assert totals == sorted(totals, key=lambda pair: pair[0])
    assert [t for _p, t in totals] == sorted((t for _p, t in totals), reverse=True)
    assert sum(t for _p, t in totals) == 0
    page.get_by_label("Guests").check()
    page.get_by_role("button", name="Show").tap()
    expect(rows).to_have_count(3)

    # the printed table cards of round 3: A4, one page a table
    page.goto(f"{t_url}/rounds/3/table-cards/")
    page.emulate_media(media="print")
    expect(page.get_by_role("banner", include_hidden=True)).to_be_hidden()
    cards = page.get_by_role("region", name=re.compile(r"^Table \d+ · Round 3$"))
    expect(cards).to_have_count(4)
    expect(cards.first).to_contain_text("Table 1 · Round 3")
    expect(cards.first).to_contain_text("Bilan (sums to zero)")
    pdf = page.pdf(format="A4", print_background=False)
    assert pdf.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 4
