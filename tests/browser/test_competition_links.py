"""A match day of a four-team division through the links: each captain hands
in the line-up from their private link on a phone; the league's manager starts both
matches; each of the four tables enters its deals through its table link on a phone and
a second player's phone enters them again; both tables confirmed, each match's result is
recorded, provisional; one captain's claim goes to the manager, who dismisses it (the
league's history says so); the division table counts the two matches."""

import re

import pytest
from playwright.sync_api import expect

from clubs.models import Club, Membership, Player, Role
from competitions import services as competitions
from competitions.models import Competition, Match
from leagues import services as leagues
from tests.browser.test_hands import tap_choice
from tournaments import services as tournaments

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Bruno", "Carla", "Denis", "Emma", "Fabien", "Gaby", "Hugo"]
#: each table's deals (the same cards at both tables: the takers and results differ)
DEALS = {
    1: [("garde", "2", "56", 0), ("prise", "1", "45", 1)],
    2: [("garde", "2", "48", 1), ("prise", "1", "38", 0)],
}


def world(django_user_model):
    boss = django_user_model.objects.create_user("boss", password="pw-long-12345")
    league = leagues.create_league("Comité du Rhône", "comite", managers=[boss])
    clubs = {}
    for key in ("a", "b"):
        club = Club.objects.create(name=f"Club {key.upper()}", slug=f"club-{key}")
        manager = django_user_model.objects.create_user(f"manager_{key}", password="pw-1")
        Membership.objects.create(club=club, user=manager, role=Role.MANAGER)
        leagues.accept_invitation(leagues.invite_club(league, club))
        clubs[key] = (
            club,
            [Player.objects.create(club=club, name=f"{n} {key.upper()}") for n in NAMES],
        )
    competition = competitions.create_competition(
        league, name="Interclubs", kind=Competition.Kind.CHAMPIONSHIP, deals=2, actor=boss
    )
    division = competitions.add_division(competition, "Honneur", actor=boss)
    for index, key in enumerate("abab"):
        club, players = clubs[key]
        squad = players[4 * (index // 2) : 4 * (index // 2) + 4]
        competitions.enter_team(
            competition,
            club,
            name=f"{key.upper()}{index // 2 + 1}",
            players=squad,
            captain=squad[0],
            division=division,
            actor=boss,
        )
    competitions.generate_fixtures(division, actor=boss)
    return boss, competition


def enter_table(phone, link, table_number, names):
    """The table's phone enters both deals by the hand form and hands the sheet in."""
    phone.goto(link)
    for number, (contract, bouts, points, taker) in enumerate(DEALS[table_number], start=1):
        phone.get_by_role("link", name=f"Enter deal {number}").tap()
        tap_choice(phone, "taker", names[taker])
        tap_choice(phone, "contract", contract)
        tap_choice(phone, "bouts", bouts)
        phone.locator("#id_points").fill(points)
        phone.get_by_role("button", name="Save", exact=True).tap()
        phone.wait_for_url(re.compile(rf".*/table/[^/]+/(#deal-{number})?$"))
        expect(phone.locator(f"#deal-{number}")).to_be_visible()
    phone.get_by_label("Your name").fill(names[0])
    phone.get_by_role("button", name="Hand the sheet in").tap()
    expect(phone.locator("[data-table-state]")).to_have_attribute("data-table-state", "submitted")


def check_table(phone, link, round_table, name):
    """A second player's phone copies every deal from the paper sheet: confirmed."""
    phone.goto(link)
    for row, scores in enumerate(tournaments.snapshot(round_table)[1]):
        for seat, score in enumerate(scores):
            phone.locator(f'input[name="deal_{row}_{seat}"]').fill(score)
    phone.get_by_label("Your name").fill(name)
    phone.get_by_role("button", name="Confirm the result").tap()
    expect(phone.locator("[data-messages]")).to_contain_text("the sheet is confirmed")


def test_a_match_day_through_the_links(new_context, live_server, log_in, django_user_model):
    base = live_server.url
    boss, competition = world(django_user_model)
    day_one = list(Match.objects.filter(day=1).select_related("home", "away"))
    assert len(day_one) == 2
    manager = new_context(permissions=["clipboard-read", "clipboard-write"]).new_page()
    log_in(manager, boss)

    # the captains hand in their line-ups from their links (the manager sends them)
    for match in day_one:
        manager.goto(f"{base}{match.get_absolute_url()}")
        # the manager copies a link to send it
        copy = manager.locator(f"[data-captain-link='{match.home.name}'] [data-copy]")
        copy.click()
        expect(copy).to_have_text("Copied")
        copied = manager.evaluate("navigator.clipboard.readText()")
        assert copied.startswith(f"{base}/captain/")
        for team in (match.home, match.away):
            link = manager.locator(f"[data-captain-link='{team.name}'] [data-link-url]")
            captain = new_context().new_page()
            captain.goto(link.input_value())
            expect(captain.locator("h1")).to_have_text(f"Captain of {team.name}")
            form = captain.locator("[data-captain-line-up]")
            for order, player in enumerate(team.squad.order_by("pk"), start=1):
                form.get_by_label(f"player {order}", exact=False).select_option(label=player.name)
            form.get_by_role("button").tap()
            expect(captain.locator("[data-messages]")).to_contain_text("The line-up is handed in.")
            expect(captain.locator("[data-line-ups]")).to_contain_text(team.squad.first().name)
            captain.context.close()

    # the manager starts both matches; each table enters its deals from its link
    first_phone = new_context().new_page()
    second_phone = new_context().new_page()
    for match in day_one:
        manager.goto(f"{base}{match.get_absolute_url()}")
        manager.locator("[data-start-match] button").click()
        expect(manager.locator("[data-table-link]")).to_have_count(2)
        for number in (1, 2):
            link = manager.locator(f"[data-table-link='{number}'] [data-link-url]").input_value()
            round_table = match.tables.get(number=number).round_table
            names = [s.player.name for s in round_table.sheet.seats.order_by("position")]
            enter_table(first_phone, link, number, names)
            check_table(second_phone, link, round_table, names[1])
            if number == 2:  # the last table: told the result is provisional, not final
                expect(second_phone.locator("[data-messages]")).to_contain_text(
                    "It is provisional: either captain may file a claim within 24 hours"
                )
                expect(second_phone.locator("main")).not_to_contain_text("results are final")
        match.refresh_from_db()
        assert match.played, match
        manager.goto(f"{base}{match.get_absolute_url()}")
        expect(manager.locator("[data-result-state]")).to_have_attribute(
            "data-result-state", "provisional"
        )
        expect(manager.locator("[data-mp-home]")).to_have_text(str(match.mp_home))

    # a captain claims against the first match's result from the link
    claimed = day_one[0]
    manager.goto(f"{base}{claimed.get_absolute_url()}")
    link = manager.locator(f"[data-captain-link='{claimed.away.name}'] [data-link-url]")
    captain = new_context().new_page()
    captain.goto(link.input_value())
    expect(captain.locator("[data-locked]")).to_be_visible()
    captain.get_by_label("A claim against the result", exact=False).fill(
        "Deal 2 at table 1 was a garde, not a prise."
    )
    captain.get_by_role("button", name="File the claim").tap()
    expect(captain.locator("[data-messages]")).to_contain_text("Your claim is filed")
    expect(captain.locator("[data-result-state]")).to_have_attribute("data-result-state", "claimed")

    # the manager sees it on the competition's page and dismisses it on the match page
    manager.goto(f"{base}{competition.get_absolute_url()}")
    expect(manager.locator("[data-open-claims]")).to_contain_text("garde, not a prise")
    manager.locator("[data-open-claims] a").first.click()
    manager.get_by_label("Decision").fill("The paper sheet says prise.")
    manager.locator("[data-dismiss]").click()
    expect(manager.locator("[data-messages]")).to_contain_text("The claim is dismissed.")
    expect(manager.locator("[data-claim-state]")).to_have_attribute("data-claim-state", "dismissed")
    captain.reload()
    expect(captain.locator("[data-claims]")).to_contain_text("The paper sheet says prise.")
    manager.goto(f"{base}/leagues/comite/manage/history/")
    expect(manager.locator("tr[data-action='claim_decided']")).to_have_count(1)
    expect(manager.locator("tr[data-action='match_recorded']")).to_have_count(2)

    # the division table counts both matches, marked provisional
    manager.goto(f"{base}{competition.get_absolute_url()}")
    for match in day_one:
        match.refresh_from_db()
        for team, lp in ((match.home, match.lp_home), (match.away, match.lp_away)):
            line = manager.locator(f"[data-team-line='{team.name}']")
            expect(line.locator("td").nth(2)).to_have_text("1")  # played
            expect(line.locator("[data-league-points]")).to_have_text(str(lp))
    expect(manager.locator("[data-provisional]")).to_have_count(2)
