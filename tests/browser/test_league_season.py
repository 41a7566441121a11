"""A league season through its pages only: a site with three clubs (their managers and
players) and no league; a site administrator creates the league, invites the clubs, each
club's manager accepts on the club's page, the season's placement scale and the team
championship's barème are typed in their editors (the barème changed before any match),
players are linked to licensed persons, two free-deal tournaments are created, filled (a
guest typed with his licence), played (the organiser types each table's totals), counted
and closed, and a duplicate event (a guest by licence too) is played on table phones and
closed, counted by its own published ranking; a four-team division and a two-team one
play their match days through captains' links and table phones (one claim, dismissed),
and the next season is made with a promotion and a relegation. The league ranking and
the division tables equal an independent computation written here, exactly: the scale
applied to the totals typed and to the duplicate event's published ranking, the hands
scored by the rules of the game, the barème applied. Only reading a paper sheet's totals
for a second phone and the rows' identities reads the database."""

import re
from fractions import Fraction

import pytest
from playwright.sync_api import expect

from clubs.models import Club, Membership, Person, Player, Role
from competitions.models import Competition, Match, Team
from leagues.models import League
from tests.browser.test_competition_links import check_table
from tests.browser.test_hands import tap_choice
from tournaments.models import RoundTable
from tournaments.services import snapshot

pytestmark = pytest.mark.browser

CLUBS = (("Tarot Club Lyon", "lyon", "L"), ("Les Rois de Vienne", "vienne", "V"))
CLUBS += (("Excuse Annecy", "annecy", "A"),)
FIRST = ["Anna", "Bruno", "Carla", "Denis", "Emma", "Fabien", "Gaby", "Hugo"]
#: the placement scale: points of the 1st, 2nd… place (a field of any size)
SCALE = [12, 9, 7, 5, 4, 3, 2, 1]
#: the barème typed at creation (a 640-point lead still a draw), then the one kept
FIRST_BAREME = [(0, 1, 1), (1000, 3, 0)]
BAREME = [(0, 1, 1), (10, 2, 0), (40, 3, 0)]
#: players linked to a licensed person by the league (club letter, first name, licence)
LICENCES = [
    ("L", "Anna", "0101"),
    ("L", "Bruno", "0102"),
    ("L", "Carla", "0103"),
    ("V", "Anna", "0420"),
    ("V", "Bruno", "0202"),
    ("A", "Anna", "0301"),
]
#: the teams (club letter, name, the squad's first names; the first is the captain)
DIVISIONS = {
    "Division 1": [
        ("L", "Lyon 1", FIRST[:4]),
        ("V", "Vienne 1", FIRST[:4]),
        ("A", "Annecy 1", FIRST[:4]),
        ("L", "Lyon 2", FIRST[4:]),
    ],
    "Division 2": [("V", "Vienne 2", FIRST[4:]), ("A", "Annecy 2", FIRST[4:])],
}
#: who wins each match: the team listed first of the two in this order
STRENGTH = ["Lyon 1", "Vienne 1", "Annecy 1", "Lyon 2", "Annecy 2", "Vienne 2"]
#: the one hand of each table: the winner's player takes a garde, 2 bouts, 56 points
HAND = ("garde", 2, 56)


def name(letter, first):
    return f"{first} {letter}"


def hand_scores(contract, bouts, points, taker, seats=4):
    """The rules of the game, written again here: a garde doubles a prise; the target
    by bouts (56, 51, 41, 36); 25 and the margin, the taker paid by each defender."""
    target = {0: 56, 1: 51, 2: 41, 3: 36}[bouts]
    multiplier = {"prise": 1, "garde": 2}[contract]
    margin = points - target
    each = (25 + abs(margin)) * multiplier * (1 if margin >= 0 else -1)
    return [each * (seats - 1) if i == taker else -each for i in range(seats)]


def match_points(difference):
    """The barème kept, applied to the lead: the last line the lead reaches."""
    line = [b for b in BAREME if b[0] <= abs(difference)][-1]
    return (line[1], line[2]) if difference >= 0 else (line[2], line[1])


def ranks(totals):
    """1, 2, 2, 4 on the totals, highest first."""
    return {k: 1 + sum(1 for o in totals.values() if o > v) for k, v in totals.items()}


@pytest.fixture
def site(django_user_model):
    """What a site has before a league: a site administrator, three clubs with a
    manager and eight players each."""
    admin = django_user_model.objects.create_user("admin", password="pw-long-12345")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    managers = {}
    for club_name, slug, letter in CLUBS:
        club = Club.objects.create(name=club_name, slug=slug)
        user = django_user_model.objects.create_user(f"manager_{slug}", password="pw-long-12345")
        Membership.objects.create(club=club, user=user, role=Role.MANAGER)
        for first in FIRST:
            Player.objects.create(club=club, name=name(letter, first))
        managers[letter] = (club, user)
    return admin, managers


def create_league(page, base, managers):
    page.goto(f"{base}/")
    page.locator("[data-nav-leagues]").click()
    page.locator("[data-create-league]").click()
    page.get_by_label("Name").fill("Comité des Alpes")
    page.get_by_role("button", name="Create the league").click()
    expect(page.locator("[data-messages]")).to_contain_text("Comité des Alpes is created")
    league = League.objects.get()
    for club_name, _slug, _letter in CLUBS:
        search = page.locator("[data-club-search]")
        search.get_by_label("Find a club by its name").fill(club_name.split()[-1])
        search.get_by_role("button").click()
        page.locator("[data-invite]").get_by_label("Club").select_option(label=club_name)
        page.locator("[data-invite]").get_by_role("button").click()
        expect(page.locator("[data-messages]")).to_contain_text(f"{club_name} is invited.")
    return league


def accept_invitations(page, base, log_in, league, managers):
    """Each club's manager accepts on the club's page (its notices)."""
    for club_name, slug, letter in CLUBS:
        log_in(page, managers[letter][1])
        page.goto(f"{base}/clubs/{slug}/")
        invitation = page.locator("[data-league-invitations]")
        expect(invitation).to_contain_text("Comité des Alpes")
        invitation.locator(f"[data-accept='{league.slug}']").click()
        expect(page.locator("[data-messages]")).to_contain_text(
            f"{club_name} joined Comité des Alpes."
        )


def season_and_scale(page, base, league):
    page.goto(f"{base}/leagues/{league.slug}/manage/")
    form = page.locator("[data-season-form]")
    form.get_by_label("Name").fill("2026")
    form.get_by_label("Start").fill("2026-01-01")
    form.get_by_label("End").fill("2026-12-31")
    form.get_by_role("button").click()
    editor = page.locator("[data-season-edit]")
    editor.get_by_text("a table by place and field size").click()
    row = editor.locator("[data-scale-row]").nth(0)
    row.get_by_label("From a field of").fill("1")
    row.get_by_label("Points of the 1st, 2nd, 3rd… place").fill(" ".join(map(str, SCALE)))
    editor.locator("[data-save]").click()
    expect(page.locator("[data-messages]")).to_contain_text("The season 2026 is saved.")
    return league.seasons.get()


def link_licences(page, base, league):
    page.goto(f"{base}/leagues/{league.slug}/manage/")
    clubs = {letter: club_name for club_name, _slug, letter in CLUBS}
    for letter, first, licence in LICENCES:
        link = page.locator("[data-link]")
        link.get_by_label("Club").select_option(label=clubs[letter])
        link.get_by_label("Player").fill(name(letter, first))
        link.get_by_label("Licence").fill(licence)
        link.get_by_role("button").click()
        expect(page.locator("[data-messages]")).to_contain_text(f"{name(letter, first)} is linked")


def tournament(page, base, slug, title, members, guest=None):
    """A one-round tournament of one deal on the club's pages, counted in the season,
    its tables' totals typed by the organiser, closed. Returns ``{entry name: total}``."""
    page.goto(f"{base}/clubs/{slug}/tournaments/new/")
    page.get_by_label("Name").fill(title)
    page.get_by_label("Date").fill("2026-03-07")
    page.get_by_label("Rounds").fill("1")
    page.get_by_label("Deals per round").fill("1")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator("[data-messages]")).to_contain_text("Tournament created")
    t_url = page.url.split("#")[0].rstrip("/")
    t_url = re.sub(r"(/tournaments/\d+).*", r"\1", t_url)
    page.locator("#add-list > summary").click()
    page.get_by_label("Paste a list").fill("\n".join(members))
    page.get_by_role("button", name="Enter the list").click()
    if guest:
        guest_name, club_name, licence = guest
        page.locator("#add-guest > summary").click()
        page.get_by_label("Guest's name").fill(guest_name)
        page.get_by_label("Their club").fill(club_name)
        page.get_by_label("FFT licence (optional)").fill(licence)
        page.get_by_role("button", name="Enter the guest").click()
    expect(page.locator("h2#entries")).to_contain_text("8 players entered")
    # counted in the league season from the club's league page
    page.goto(f"{base}/clubs/{slug}/leagues/")
    page.locator("[data-count]").get_by_role("button").click()
    expect(page.locator("[data-messages]")).to_contain_text(f"{title} counts in Comité des Alpes")
    # drawn, started, each table's totals typed, closed
    page.goto(f"{t_url}/")
    page.get_by_role("button", name="Draw every round in advance").click(timeout=90_000)
    expect(page.locator("[data-messages]")).to_contain_text("drawn", timeout=90_000)
    page.goto(f"{t_url}/rounds/1/")
    page.get_by_role("button", name="Start the round").click()
    expect(page.locator("[data-messages]")).to_contain_text("Round 1 has started")
    totals = {}
    for number, values in ((1, [60, 20, -30, -50]), (2, [90, 10, -40, -60])):
        table = page.locator(f'[data-table="{number}"]')
        table.get_by_text("Enter the totals (the table cannot use its link)").click()
        labels = table.locator("[data-totals-form] input[type='number'], [data-totals-form] input")
        names = [
            table.locator(f"label[for='{labels.nth(i).get_attribute('id')}']").inner_text()
            for i in range(labels.count())
            if labels.nth(i).get_attribute("type") not in ("hidden",)
        ]
        for entry, value in zip(names, values, strict=True):
            table.get_by_label(entry, exact=True).fill(str(value))
            totals[entry.split(" · ")[-1]] = value  # "N · Anna L": the seat, the name
        table.get_by_role("button", name="Save the totals").click()
        expect(page.locator("[data-messages]")).to_contain_text(f"Table {number}'s totals")
    page.get_by_role("button", name="Close the round").click()
    expect(page.locator("[data-messages]")).to_contain_text("Round 1 is closed.")
    page.goto(f"{t_url}/ranking/")
    page.locator("#close").get_by_role("button", name="Close the tournament").click()
    expect(page.locator("main")).to_contain_text("this ranking is final")
    return totals


def fill_bareme(form, lines):
    rows = form.locator("[data-bareme-line]")
    for i in range(rows.count()):
        start, ahead, behind = lines[i] if i < len(lines) else ("", "", "")
        rows.nth(i).get_by_label("From a difference of").fill(str(start))
        rows.nth(i).get_by_label("Match points ahead").fill(str(ahead))
        rows.nth(i).get_by_label("Match points behind").fill(str(behind))


def championship(page, base, league, axe_check):
    """The championship created with a first barème, which is then changed in the same
    editor (no match recorded yet); two divisions, six teams, the fixtures."""
    page.goto(f"{base}/leagues/{league.slug}/competitions/new/")
    form = page.locator("[data-competition-form]")
    form.get_by_label("Name").fill("Interclubs 2026")
    form.get_by_label("Play").select_option("free")
    form.get_by_label("Deals per match").fill("1")
    form.get_by_label("Promoted per division").fill("1")
    form.get_by_label("Relegated per division").fill("1")
    fill_bareme(form, FIRST_BAREME)
    form.locator("[data-create]").click()
    expect(page.locator("[data-messages]")).to_contain_text("Interclubs 2026 is created")
    page.locator("[data-bareme-link]").click()
    form = page.locator("[data-bareme-form]")
    fill_bareme(form, BAREME)
    form.locator("[data-preview]").click()
    preview = page.locator("[data-bareme-preview]")
    expect(preview.locator("[data-difference='39'] td")).to_have_text(["39", "2", "0"])
    axe_check(page, "the barème's editor")
    page.locator("[data-bareme-form] [data-save]").click()
    expect(page.locator("[data-messages]")).to_contain_text("The barème is saved.")
    competition = Competition.objects.get()
    assert competition.scale == [list(line) for line in BAREME]
    clubs = {letter: club_name for club_name, _slug, letter in CLUBS}
    for division, teams in DIVISIONS.items():
        page.locator("[data-division-form]").get_by_label("Division").fill(division)
        page.locator("[data-division-form]").get_by_role("button").click()
        expect(page.locator("[data-messages]")).to_contain_text("The division is added.")
        for letter, team_name, squad in teams:
            form = page.locator("[data-team-form]")
            form.locator("#id_team-club").select_option(label=clubs[letter])
            form.get_by_label("Team name").fill(team_name)
            form.get_by_label("Squad", exact=False).fill("\n".join(name(letter, f) for f in squad))
            form.locator("#id_team-division").select_option(label=division)
            form.get_by_role("button").click()
            expect(page.locator("[data-messages]")).to_contain_text("The team is entered.")
    for division in DIVISIONS:
        page.goto(f"{base}/leagues/{league.slug}/competitions/{competition.pk}/manage/")
        page.locator(f"[data-fixtures='{division}']").click()
        expect(page.locator("[data-messages]")).to_contain_text("The fixtures are made.")
    return competition


def line_up(new_context, manager, team):
    """The captain hands the line-up in from the link the manager sends."""
    link = manager.locator(f"[data-captain-link='{team.name}'] [data-link-url]").input_value()
    captain = new_context().new_page()
    captain.goto(link)
    form = captain.locator("[data-captain-line-up]")
    for order, player in enumerate(team.squad.order_by("pk"), start=1):
        form.get_by_label(f"player {order}", exact=False).select_option(label=player.name)
    form.get_by_role("button").tap()
    expect(captain.locator("[data-messages]")).to_contain_text("The line-up is handed in.")
    captain.context.close()


def play_table(phone, link, names, taker):
    """The table's phone enters its one hand, the winner's player taking, and hands the
    sheet in."""
    contract, bouts, points = HAND
    phone.goto(link)
    phone.get_by_role("link", name="Enter deal 1").tap()
    tap_choice(phone, "taker", names[taker])
    tap_choice(phone, "contract", contract)
    tap_choice(phone, "bouts", str(bouts))
    phone.locator("#id_points").fill(str(points))
    phone.get_by_role("button", name="Save", exact=True).tap()
    phone.wait_for_url(re.compile(r".*/table/[^/]+/(#deal-1)?$"))
    phone.get_by_label("Your name").fill(names[0])
    phone.get_by_role("button", name="Hand the sheet in").tap()
    expect(phone.locator("[data-table-state]")).to_have_attribute("data-table-state", "submitted")


def play_match(new_context, manager, base, match):
    """Line-ups from the captains' links, the match started, each table's hand entered
    on one phone and confirmed on another. Returns the match's points, home and away,
    scored here: each table's hand by the rules, each team's players summed."""
    manager.goto(f"{base}{match.get_absolute_url()}")
    for team in (match.home, match.away):
        line_up(new_context, manager, team)
    manager.goto(f"{base}{match.get_absolute_url()}")
    manager.locator("[data-start-match] button").click()
    expect(manager.locator("[data-table-link]")).to_have_count(2)
    winner = min((match.home, match.away), key=lambda t: STRENGTH.index(t.name))
    squads = {t.pk: set(t.squad.values_list("name", flat=True)) for t in (match.home, match.away)}
    points = {match.home.pk: 0, match.away.pk: 0}
    first, second = new_context().new_page(), new_context().new_page()
    for number in (1, 2):
        link = manager.locator(f"[data-table-link='{number}'] [data-link-url]").input_value()
        round_table = match.tables.get(number=number).round_table
        names = [s.player.name for s in round_table.sheet.seats.order_by("position")]
        # an away player sits as the home club's guest: "Anna A (Excuse Annecy)"
        players = [n.split(" (")[0] for n in names]
        taker = next(i for i, n in enumerate(players) if n in squads[winner.pk])
        play_table(first, link, names, taker)
        check_table(second, link, round_table, names[1])
        for seat, score in zip(players, hand_scores(*HAND, taker), strict=True):
            side = match.home.pk if seat in squads[match.home.pk] else match.away.pk
            points[side] += score
    first.context.close()
    second.context.close()
    return points[match.home.pk], points[match.away.pk]


def division_tables(results):
    """Each division's teams with their league points (3 a win, 1 a draw, 0 a loss, the
    barème deciding), highest first."""
    out = {}
    for division, teams in DIVISIONS.items():
        lp = {t[1]: 0 for t in teams}
        for (home, away), (home_points, away_points) in results.items():
            if home not in lp:
                continue
            mp_home, mp_away = match_points(home_points - away_points)
            lp[home] += 3 if mp_home > mp_away else 1 if mp_home == mp_away else 0
            lp[away] += 3 if mp_away > mp_home else 1 if mp_home == mp_away else 0
        out[division] = sorted(lp.items(), key=lambda item: -item[1])
    return out


def duplicate_event(page, new_context, base, slug, title, members, guest):
    """A duplicate event of two tables on the club's pages: two rounds, one deal a set,
    each table's hand tapped on its phone (its link read on the table's page) and its
    totals confirmed on a second phone; counted, closed. Returns its published final
    ranking, ``{entry name: rank}``, as its page shows it."""
    page.goto(f"{base}/clubs/{slug}/tournaments/new-duplicate/")
    page.get_by_label("Name").fill(title)
    page.get_by_label("Date").fill("2026-04-11")
    page.get_by_label("Rounds").fill("2")
    page.get_by_label("Deals per set (étui)").fill("1")
    page.get_by_role("button", name="Create the duplicate event").click()
    expect(page.locator("[data-messages]")).to_contain_text("Duplicate event created.")
    t_url = re.sub(r"(/tournaments/\d+).*", r"\1", page.url)
    page.locator("#add-list > summary").click()
    page.get_by_label("Paste a list").fill("\n".join(members))
    page.get_by_role("button", name="Enter the list").click()
    guest_name, club_name, licence = guest
    page.locator("#add-guest > summary").click()
    page.get_by_label("Guest's name").fill(guest_name)
    page.get_by_label("Their club").fill(club_name)
    page.get_by_label("FFT licence (optional)").fill(licence)
    page.get_by_role("button", name="Enter the guest").click()
    expect(page.locator("h2#entries")).to_contain_text("8 players entered")
    page.goto(f"{base}/clubs/{slug}/leagues/")
    page.locator("[data-count]").get_by_role("button").click()
    expect(page.locator("[data-messages]")).to_contain_text(f"{title} counts in Comité des Alpes")
    page.goto(f"{t_url}/duplicate/")
    # the movement's search takes seconds of CPU: a loaded machine needs more than 20 s
    page.locator("[data-draw-movement]").click(timeout=90_000)
    expect(page.locator("[data-messages]")).to_contain_text("The movement is drawn", timeout=90_000)
    first, second = new_context().new_page(), new_context().new_page()
    for number in (1, 2):
        page.goto(f"{t_url}/rounds/{number}/")
        page.get_by_role("button", name="Start the round").click()
        expect(page.locator("[data-messages]")).to_contain_text(f"Round {number} has started")
        for table in (1, 2):
            page.goto(f"{t_url}/rounds/{number}/tables/{table}/")
            link = page.locator("[data-table-link-url]").first.get_attribute("href")
            if link.startswith("/"):
                link = f"{base}{link}"
            first.goto(link)
            first.get_by_role("link", name="Enter deal 1").first.tap()
            round_table = RoundTable.objects.get(
                round__tournament__name=title, round__number=number, number=table
            )
            seated = [s.player.name for s in round_table.sheet.seats.order_by("position")]
            tap_choice(first, "taker", seated[(number + table) % 4])
            tap_choice(first, "contract", "garde" if table == 1 else "prise")
            tap_choice(first, "bouts", "2")
            first.locator("#id_points").fill(str(44 + 4 * number + 3 * table))
            first.get_by_role("button", name="Save", exact=True).tap()
            first.wait_for_url(re.compile(r".*/table/[^/]+/(#deal-\d)?$"))
            first.get_by_label("Your name").fill("Première")
            first.get_by_role("button", name="Hand the sheet in").tap()
            expect(first.locator("[data-table-state]")).to_have_attribute(
                "data-table-state", "submitted"
            )
            # the second phone types the paper sheet's totals (read here from the sheet)
            by_number = snapshot(round_table)[0]
            second.goto(link)
            for k, entry in enumerate(round_table.seats):
                second.locator(f"#score-{k}").fill(by_number[str(entry)])
            second.get_by_label("Your name").fill("Seconde")
            second.get_by_role("button", name="Confirm the result").tap()
            expect(second.locator("[data-messages]")).to_contain_text("the sheet is confirmed")
        page.goto(f"{t_url}/rounds/{number}/")
        page.get_by_role("button", name="Close the round").click()
        expect(page.locator("[data-messages]")).to_contain_text(f"Round {number} is closed.")
    first.context.close()
    second.context.close()
    page.goto(f"{t_url}/duplicate/")
    page.locator("[data-close]").click()
    expect(page.locator("[data-messages]")).to_contain_text("The tournament is closed")
    expect(page.locator("[data-ranking-title]")).to_have_text("Final ranking")
    rows = page.locator("[data-duplicate-ranking]").first.locator("tbody tr[data-entry]")
    names = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        names[row.locator("td").nth(2).inner_text().strip()] = int(row.get_attribute("data-rank"))
    return names


def test_a_league_season_through_its_pages(new_context, live_server, log_in, site, axe_check):
    admin, managers = site
    base = live_server.url
    page = new_context(viewport={"width": 1280, "height": 900}, is_mobile=False).new_page()
    log_in(page, admin)
    league = create_league(page, base, managers)
    accept_invitations(page, base, log_in, league, managers)
    log_in(page, admin)
    season = season_and_scale(page, base, league)
    assert season.scale["tables"][0]["points"] == [str(p) for p in SCALE]
    link_licences(page, base, league)

    # two free-deal tournaments: Lyon's with Anna of Vienne as a guest by her licence
    log_in(page, managers["L"][1])
    lyon = tournament(
        page,
        base,
        "lyon",
        "Open de Lyon",
        [name("L", f) for f in FIRST[:7]],
        guest=("Anna V", "Les Rois de Vienne", "0420"),
    )
    log_in(page, managers["V"][1])
    vienne = tournament(page, base, "vienne", "Coupe de Vienne", [name("V", f) for f in FIRST])
    log_in(page, managers["A"][1])
    annecy = duplicate_event(
        page,
        new_context,
        base,
        "annecy",
        "Donnes préparées d'Annecy",
        [name("A", f) for f in FIRST[:7]],
        guest=("Bruno L", "Tarot Club Lyon", "0102"),
    )
    persons = dict(Person.objects.values_list("name", "pk"))
    assert set(persons) >= {name(letter, first) for letter, first, _l in LICENCES}

    # the league ranking: the scale on each event's places, summed
    expected = {}
    for places in (ranks(lyon), ranks(vienne), annecy):
        for entry, place in places.items():
            if entry in persons:
                expected[persons[entry]] = expected.get(persons[entry], 0) + Fraction(
                    SCALE[place - 1] if place <= len(SCALE) else 0
                )
    assert persons["Anna V"] in expected and len(expected) == len(LICENCES)
    page.goto(f"{base}/leagues/{league.slug}/")
    page.locator("[data-season='2026']").click()
    table = page.locator("[data-league-ranking]")
    expect(table.locator("tbody tr[data-person]")).to_have_count(len(expected))
    places = ranks(expected)
    for person_id, points in expected.items():
        row = table.locator(f"[data-person='{person_id}']")
        expect(row.locator("[data-points]")).to_have_text(f"{float(points):.3f}")
        expect(row.locator("td").first).to_have_text(str(places[person_id]))

    # the championship: its barème changed before any match, two divisions, six teams
    log_in(page, admin)
    competition = championship(page, base, league, axe_check)
    manager = new_context().new_page()
    log_in(manager, admin)
    results = {}
    matches = Match.objects.select_related("home", "away").order_by("division__level", "day")
    for match in matches:
        results[(match.home.name, match.away.name)] = play_match(new_context, manager, base, match)
    assert len(results) == 7  # three match days of two, and the second division's one

    # a captain claims against the first match; the manager dismisses it
    claimed = matches[0]
    manager.goto(f"{base}{claimed.get_absolute_url()}")
    link = manager.locator(f"[data-captain-link='{claimed.away.name}'] [data-link-url]")
    captain = new_context().new_page()
    captain.goto(link.input_value())
    captain.get_by_label("A claim against the result", exact=False).fill("Our garde was 57.")
    captain.get_by_role("button", name="File the claim").tap()
    expect(captain.locator("[data-messages]")).to_contain_text("Your claim is filed")
    manager.goto(f"{base}{competition.get_absolute_url()}")
    manager.locator("[data-open-claims] a").first.click()
    manager.get_by_label("Decision").fill("The paper sheet says 56.")
    manager.locator("[data-dismiss]").click()
    expect(manager.locator("[data-messages]")).to_contain_text("The claim is dismissed.")

    # the division tables equal the barème applied to the hands scored here
    manager.goto(f"{base}{competition.get_absolute_url()}")
    for division, lines in division_tables(results).items():
        section = manager.locator(f"section[data-division='{division}']")
        expect(section.locator("[data-team-line]")).to_have_count(len(lines))
        shown = section.locator("[data-team-line]")
        assert [shown.nth(i).get_attribute("data-team-line") for i in range(len(lines))] == [
            team for team, _lp in lines
        ]
        for team, lp in lines:
            line = section.locator(f"[data-team-line='{team}']")
            expect(line.locator("[data-league-points]")).to_have_text(str(lp))

    # the next season: the last of Division 1 down, the first of Division 2 up
    manager.goto(f"{base}/leagues/{league.slug}/competitions/{competition.pk}/manage/")
    form = manager.locator("[data-next-season-form]")
    form.get_by_label("Name of the next season's championship").fill("Interclubs 2027")
    form.get_by_role("button").click()
    expect(manager.locator("[data-messages]")).to_contain_text(
        "The next season's competition is made."
    )
    following = Competition.objects.get(name="Interclubs 2027")
    tables = division_tables(results)
    down, up = tables["Division 1"][-1][0], tables["Division 2"][0][0]
    expected_divisions = {
        "Division 1": {t for t, _lp in tables["Division 1"][:-1]} | {up},
        "Division 2": {t for t, _lp in tables["Division 2"][1:]} | {down},
    }
    assert (down, up) == ("Lyon 2", "Annecy 2")
    manager.goto(f"{base}{following.get_absolute_url()}")
    for division, teams in expected_divisions.items():
        section = manager.locator(f"section[data-division='{division}']")
        for team in teams:
            expect(section).to_contain_text(team)
    assert {
        d.name: set(Team.objects.filter(division=d).values_list("name", flat=True))
        for d in following.divisions.all()
    } == expected_divisions
