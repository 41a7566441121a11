"""A league run from its pages, from a site with clubs and no league: "Leagues" in the
navigation, "Create a league", three clubs invited from the searchable list and each
accepting on its own home page, the season's placement scale and the team competition's
barème set in their editors (previewed first), a tournament of one club created and
filled on its pages (a guest typed with his licence, linked to the league's person),
counted in the league, and the league ranking equal to an independent computation from
the tournament's score rows. The deals are entered through the services (the tournament
day has its own browser tests)."""

from fractions import Fraction

import pytest
from playwright.sync_api import expect

from clubs.models import Club, Membership, Person, Player, Role
from competitions.models import Competition
from leagues.models import League
from tests.leagues.test_events import close
from tests.tournaments.helpers import totals_from_sheets
from tournaments.models import Tournament

pytestmark = pytest.mark.browser

CLUBS = (("Tarot Club Lyon", "lyon"), ("Les Rois de Vienne", "vienne"), ("Excuse Annecy", "annecy"))
TABLE = ["10", "6", "4", "2"]


def test_a_league_from_an_empty_site_through_its_pages(
    page, live_server, log_in, django_user_model, settings
):
    settings.ALLOW_LEAGUE_CREATION = True
    base = live_server.url
    boss = django_user_model.objects.create_user("boss", password="pw-long-12345")
    managers = {}
    for name, slug in CLUBS:
        club = Club.objects.create(name=name, slug=slug)
        user = django_user_model.objects.create_user(f"manager_{slug}", password="pw-long-12345")
        Membership.objects.create(club=club, user=user, role=Role.MANAGER)
        managers[slug] = (club, user)
    lyon, lyon_boss = managers["lyon"]
    for name in ("Zoé", "Anna", "Marc"):
        Player.objects.create(club=lyon, name=name)
    Player.objects.create(club=managers["vienne"][0], name="Bruno")

    # the front door: Leagues in the navigation, then Create a league
    log_in(page, boss)
    page.goto(f"{base}/")
    page.locator("[data-nav-leagues]").click()
    page.locator("[data-create-league]").click()
    page.get_by_label("Name").fill("Comité des Alpes")
    page.get_by_role("button", name="Create the league").click()
    expect(page.locator("[data-messages]")).to_contain_text("Comité des Alpes is created")
    league = League.objects.get()

    # three clubs found by name in the list and invited
    for name, _slug in CLUBS:
        search = page.locator("[data-club-search]")
        search.get_by_label("Find a club by its name").fill(name.split()[-1])
        search.get_by_role("button").click()
        page.locator("[data-invite]").get_by_label("Club").select_option(label=name)
        page.locator("[data-invite]").get_by_role("button").click()
        expect(page.locator("[data-messages]")).to_contain_text(f"{name} is invited.")
    expect(page.locator("[data-no-club]")).to_be_visible()

    # each club's manager accepts on the club's home page
    for name, slug in CLUBS:
        log_in(page, managers[slug][1])
        page.goto(f"{base}/clubs/{slug}/")
        invitation = page.locator("[data-league-invitations]")
        expect(invitation).to_contain_text("Comité des Alpes")
        invitation.locator(f"[data-accept='{league.slug}']").click()
        expect(page.locator("[data-messages]")).to_contain_text(f"{name} joined Comité des Alpes.")
        expect(page.locator("[data-league-invitations]")).to_have_count(0)
    log_in(page, boss)
    page.goto(f"{base}/leagues/{league.slug}/manage/")
    for name, _slug in CLUBS:
        expect(page.locator("[data-league-clubs]")).to_contain_text(f"{name} — member")

    # a season, its placement scale typed in rows: previewed, refused in words, saved
    form = page.locator("[data-season-form]")
    form.get_by_label("Name").fill("2026")
    form.get_by_label("Start").fill("2026-01-01")
    form.get_by_label("End").fill("2026-12-31")
    form.get_by_role("button").click()
    editor = page.locator("[data-season-edit]")
    editor.get_by_text("a table by place and field size").click()
    rows = editor.locator("[data-scale-row]")
    rows.nth(0).get_by_label("From a field of").fill("1")
    rows.nth(0).get_by_label("Points of the 1st, 2nd, 3rd… place").fill("10 6 4 deux")
    editor.locator("[data-save]").click()
    expect(page.locator("[data-season-edit]")).to_contain_text("Place 4: “deux” is not a number.")
    rows = page.locator("[data-season-edit] [data-scale-row]")
    rows.nth(0).get_by_label("Points of the 1st, 2nd, 3rd… place").fill(" ".join(TABLE))
    rows.nth(1).get_by_label("From a field of").fill("9")
    rows.nth(1).get_by_label("Points of the 1st, 2nd, 3rd… place").fill("20 15 10 5 2,5")
    page.locator("[data-season-edit] [data-preview]").click()
    preview = page.locator("[data-scale-preview]")
    expect(preview).to_contain_text("1 to 8 players")
    expect(preview).to_contain_text("5. 2.5")
    page.locator("[data-season-edit] [data-save]").click()
    expect(page.locator("[data-messages]")).to_contain_text("The season 2026 is saved.")
    season = league.seasons.get()
    assert season.scale["tables"][0] == {"from": 1, "points": TABLE}

    # the team competition's barème in its editor, previewed on a few differences
    page.goto(f"{base}/leagues/{league.slug}/competitions/new/")
    comp = page.locator("[data-competition-form]")
    comp.get_by_label("Name").fill("Interclubs 2026")
    lines = comp.locator("[data-bareme-line]")
    for i, (start, ahead, behind) in enumerate(((0, 1, 1), (10, 2, 0), (40, 3, 0))):
        lines.nth(i).get_by_label("From a difference of").fill(str(start))
        lines.nth(i).get_by_label("Match points ahead").fill(str(ahead))
        lines.nth(i).get_by_label("Match points behind").fill(str(behind))
    comp.locator("[data-preview]").click()
    preview = page.locator("[data-bareme-preview]")
    for difference, cells in ((9, ["9", "1", "1"]), (10, ["10", "2", "0"]), (90, ["90", "3", "0"])):
        expect(preview.locator(f"[data-difference='{difference}'] td")).to_have_text(cells)
    page.locator("[data-competition-form] [data-create]").click()
    expect(page.locator("[data-messages]")).to_contain_text("Interclubs 2026 is created")
    assert Competition.objects.get().scale == [[0, 1, 1], [10, 2, 0], [40, 3, 0]]

    # the league links two players to licensed persons: Zoé of Lyon, Bruno of Vienne
    page.goto(f"{base}/leagues/{league.slug}/manage/")
    for club, player, licence in (
        ("Tarot Club Lyon", "Zoé", "0777"),
        ("Les Rois de Vienne", "Bruno", "0420"),
    ):
        link = page.locator("[data-link]")
        link.get_by_label("Club").select_option(label=club)
        link.get_by_label("Player").fill(player)
        link.get_by_label("Licence").fill(licence)
        link.get_by_role("button").click()
        expect(page.locator("[data-messages]")).to_contain_text(f"{player} is linked")

    # Lyon's tournament on its pages: three members and Bruno typed with his licence
    log_in(page, lyon_boss)
    page.goto(f"{base}/clubs/lyon/tournaments/new/")
    page.get_by_label("Name").fill("Open de Lyon")
    page.get_by_label("Date").fill("2026-03-07")
    page.get_by_label("Rounds").fill("1")
    page.get_by_label("Deals per round").fill("4")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator("[data-messages]")).to_contain_text("Tournament created")
    t = Tournament.objects.get()
    page.locator("#add-list > summary").click()
    page.get_by_label("Paste a list").fill("Zoé\nAnna\nMarc")
    page.get_by_role("button", name="Enter the list").click()
    page.locator("#add-guest > summary").click()
    page.get_by_label("Guest's name").fill("Bruno")
    page.get_by_label("Their club").fill("Les Rois de Vienne")
    page.get_by_label("FFT licence (optional)").fill("0420")
    page.get_by_role("button", name="Enter the guest").click()
    expect(page.locator("h2#entries")).to_contain_text("4 players entered")
    bruno = Person.objects.get(licence="0420")
    assert t.entries.get(name="Bruno").person == bruno

    # counted in the season from the club's league page, then played and closed
    page.goto(f"{base}/clubs/lyon/leagues/")
    page.locator("[data-count]").get_by_role("button").click()
    expect(page.locator("[data-messages]")).to_contain_text(
        "Open de Lyon counts in Comité des Alpes — 2026."
    )
    close(t)

    # the ranking equals the scale applied to the ranks summed from the score rows
    totals = totals_from_sheets(t)
    numbers = {e.number: e for e in t.entries.all()}
    scores = {n: sum(per_round.values()) for n, per_round in totals.items()}
    expected = {}
    for number, entry in numbers.items():
        if entry.person_id is None:
            continue
        rank = 1 + sum(1 for other in scores.values() if other > scores[number])
        expected[entry.person_id] = Fraction(TABLE[rank - 1]) if rank <= len(TABLE) else 0
    assert set(expected) == {bruno.pk, Person.objects.get(licence="0777").pk}
    page.goto(f"{base}/leagues/{league.slug}/")
    page.locator("[data-season='2026']").click()
    ranking = page.locator("[data-league-ranking]")
    for person_id, points in expected.items():
        row = ranking.locator(f"[data-person='{person_id}']")
        expect(row.locator("[data-points]")).to_have_text(f"{float(points):.3f}")
