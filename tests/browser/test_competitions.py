"""A short championship on a phone: the league's manager creates it, adds a division,
enters four teams of two clubs and makes the fixtures; a club's manager hands in a
line-up; the manager enters the first match day's two matches (two deals at two
tables); the division table and the match sheet show the results."""

import pytest
from playwright.sync_api import expect

from clubs.models import Club, Membership, Player, Role
from competitions import services as competitions
from competitions.models import Competition, Match
from leagues import services as leagues

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Bruno", "Carla", "Denis", "Emma", "Fabien", "Gaby", "Hugo"]
# home wins deal 2 at both tables (160); deal 1 the same at both tables (0)
DEALS = [
    ((120, -40, -40, -40), (120, -40, -40, -40)),
    ((150, -50, -50, -50), (-30, 90, -30, -30)),
]


def test_a_short_championship(page, live_server, log_in, django_user_model):
    base = live_server.url
    boss = django_user_model.objects.create_user("boss", password="pw-long-12345")
    league = leagues.create_league("Comité du Rhône", "comite", managers=[boss])
    managers = {}
    for key in ("a", "b"):
        club = Club.objects.create(name=f"Club {key.upper()}", slug=f"club-{key}")
        managers[key] = django_user_model.objects.create_user(f"manager_{key}", password="pw-1")
        Membership.objects.create(club=club, user=managers[key], role=Role.MANAGER)
        leagues.accept_invitation(leagues.invite_club(league, club))
        for name in NAMES:
            Player.objects.create(club=club, name=f"{name} {key.upper()}")

    log_in(page, boss)
    page.goto(f"{base}/leagues/comite/")
    page.locator("[data-competitions-link]").click()
    page.locator("[data-new-competition]").click()
    form = page.locator("[data-competition-form]")
    form.get_by_label("Name").fill("Interclubs 2026")
    form.get_by_label("Deals per match").fill("2")
    form.locator("[data-create]").click()
    page.locator("[data-division-form]").get_by_label("Division").fill("Honneur")
    page.locator("[data-division-form]").get_by_role("button").click()
    for index, key in enumerate("abab"):
        team = page.locator("[data-team-form]")
        team.locator("select[name='team-club']").select_option(value=f"club-{key}")
        team.get_by_label("Team name").fill(f"{key.upper()}{index // 2 + 1}")
        first = 4 * (index // 2)
        squad = "\n".join(f"{n} {key.upper()}" for n in NAMES[first : first + 4])
        team.get_by_label("Squad: the club's players, one a line").fill(squad)
        team.get_by_label("Division").select_option(label="Honneur")
        team.get_by_role("button").click()
        expect(page.locator("[data-teams]")).to_contain_text(f"{key.upper()}{index // 2 + 1}")
    page.locator("[data-fixtures='Honneur']").click()
    expect(page.locator("[data-fixture]")).to_have_count(6)

    competition = Competition.objects.get()
    day_one = list(Match.objects.filter(day=1).select_related("home__club", "away__club"))
    # club A's manager hands in the line-up of one of its teams on the match's page
    match = next(m for m in day_one if m.home.club.slug == "club-a")
    log_in(page, managers["a"])
    page.goto(f"{base}{match.get_absolute_url()}")
    expect(page.locator(f"[data-line-up='{match.away.name}']")).to_have_count(0)
    page.locator(f"[data-line-up='{match.home.name}']").click()
    squad = list(match.home.squad.order_by("pk"))
    form = page.locator("[data-line-up-form]")
    for order, player in enumerate(squad, start=1):
        form.get_by_label(f"player {order}", exact=False).select_option(label=player.name)
    form.get_by_role("button").click()
    expect(page.locator("[data-line-ups]")).to_contain_text(squad[0].name)
    # the other line-ups through the service (a club manager's page is the same form)
    for m in day_one:
        for side in (m.home, m.away):
            if not m.line_up.filter(team=side).exists():
                competitions.submit_line_up(m, side, list(side.squad.order_by("pk")))

    # the league's manager enters both matches' marques
    log_in(page, boss)
    for m in day_one:
        page.goto(f"{base}{m.get_absolute_url()}")
        page.locator("[data-enter-results]").click()
        for number, tables in enumerate(DEALS, start=1):
            deal = page.locator(f"[data-deal='{number}']")
            for table, marques in enumerate(tables, start=1):
                line = deal.locator(f"[data-table='{table}']")
                for seat, value in zip(("North", "East", "South", "West"), marques):
                    line.get_by_label(seat).fill(str(value))
        page.locator("[data-results-form] button[type=submit]").click()
        expect(page.locator("[data-mp-home]")).to_have_text("2")
        expect(page.locator("[data-deals]")).to_contain_text("160")

    page.goto(f"{base}{competition.get_absolute_url()}")
    table = page.locator("[data-division-table]")
    for m in day_one:
        expect(
            table.locator(f"[data-team-line='{m.home.name}'] [data-league-points]")
        ).to_have_text("3")
        expect(
            table.locator(f"[data-team-line='{m.away.name}'] [data-league-points]")
        ).to_have_text("0")
    winners = sorted(m.home.name for m in day_one)
    first_two = table.locator("tbody tr").all_inner_texts()[:2]
    assert sorted(text.split("\t")[1].strip() for text in first_two) == winners
