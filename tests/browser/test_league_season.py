"""A league season through its pages only, from an empty site: its first administrator
(made by ``createsuperuser``, as every site's first one is: the one row written here)
logs in; three managers sign up, open the link mailed to them (read from the mail
outbox, as their mail reader would), create their club, open its first season and name
its eight players as the first evening's two sheets seat them; the administrator creates
the league, invites the clubs, each club's manager accepts on the club's page, the
season's placement scale and the team championship's barème are typed in their editors
(the barème changed before any match, each editor opened again on what it kept), players
are linked to licensed persons, two free-deal tournaments are created, filled (a guest
typed with his licence), played (the organiser types each table's totals), counted and
closed, and a duplicate event (a guest by licence too) is played on table phones and
closed, counted by its own published ranking; a four-team division and a two-team one
play their match days through captains' links and table phones (one claim, dismissed),
and the next season is made with a promotion and a relegation. The league ranking and
the division tables equal an independent computation written here, exactly: the scale
applied to the totals typed and to the duplicate event's published ranking, the hands
scored by the rules of the game, the barème applied.

Nothing is read from the database: slugs and the competitions' addresses come from the
URLs the pages open at, the matches from the competition's fixtures, who sits where from
each table's page, the persons from the league ranking's names, the teams moved from the
next season's tables; the paper sheet a second phone copies is the hand scored here."""

import re
from fractions import Fraction
from io import StringIO

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.browser.test_hands import tap_choice
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

#: the clubs: name, the letter their players' names end with, their manager's login
CLUBS = (("Tarot Club Lyon", "L", "marc"), ("Les Rois de Vienne", "V", "vera"))
CLUBS += (("Excuse Annecy", "A", "alain"),)
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


#: each team's squad, in the order its captain lines it up, and each player's team
SQUADS = {
    team: [name(letter, first) for first in squad]
    for teams in DIVISIONS.values()
    for letter, team, squad in teams
}
TEAM_OF = {player: team for team, squad in SQUADS.items() for player in squad}


@pytest.fixture
def site(settings, mailoutbox, monkeypatch):
    """An empty site but its first administrator, made as every site makes its first one:
    by ``createsuperuser``. Visitors may sign up and create a club. Returns the mail
    outbox: the new managers' mailboxes."""
    settings.ALLOW_SIGNUP = True
    settings.ALLOW_CLUB_CREATION = True
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    call_command(
        "createsuperuser",
        interactive=False,
        username="admin",
        email="admin@example.org",
        stdout=StringIO(),
    )
    return mailoutbox


def desk(new_context):
    """A page on a computer's screen (the managers' and the administrator's)."""
    return new_context(viewport={"width": 1280, "height": 900}, is_mobile=False).new_page()


def log_in(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).not_to_have_url(re.compile(r".*/accounts/login/.*"))


def open_club(page, base, outbox, club_name, letter, username):
    """A manager signs up, opens the link mailed to them, creates the club, opens its
    first season and names its eight players as the first evening's two sheets seat
    them (how a club's players are made). Returns the club's slug, read from its URL."""
    email = f"{username}@example.org"
    page.goto(f"{base}/")
    page.get_by_role("link", name="Create an account").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Email address").fill(email)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    expect(page.locator("#signup-sent")).to_contain_text(email)
    [message] = [m for m in outbox if m.to == [email]]
    page.goto(re.search(r"https?://\S+", message.body).group(0))
    page.get_by_role("button", name="Confirm my account").click()
    page.get_by_label("Name of the club").fill(club_name)
    page.get_by_role("button", name="Create the club").click()
    expect(page.get_by_role("heading", name="Getting started")).to_be_visible()
    welcome = page.url
    slug = re.search(r"/clubs/([^/]+)/", welcome).group(1)
    page.get_by_label("Name", exact=True).fill("2026")
    page.get_by_role("button", name="Open the season").click()
    for table, firsts in enumerate((FIRST[:4], FIRST[4:]), start=1):
        page.goto(welcome)
        page.get_by_role("link", name="Open a sheet").click()
        page.get_by_label("Table (optional)").fill(str(table))
        page.get_by_label("New players").fill(", ".join(name(letter, f) for f in firsts))
        page.get_by_role("button", name="Open the sheet").click()
        expect(page.get_by_role("link", name="Enter a hand")).to_be_visible()
    page.goto(f"{base}/clubs/{slug}/players/")
    expect(page.locator("tr[data-player]")).to_have_count(len(FIRST))
    return slug


def create_league(page, base):
    """The administrator creates the league and invites the clubs. Returns its slug,
    read from the URL its page opens at."""
    page.goto(f"{base}/")
    page.locator("[data-nav-leagues]").click()
    page.locator("[data-create-league]").click()
    page.get_by_label("Name").fill("Comité des Alpes")
    page.get_by_role("button", name="Create the league").click()
    expect(page.locator("[data-messages]")).to_contain_text("Comité des Alpes is created")
    league = re.search(r"/leagues/([^/]+)/manage/", page.url).group(1)
    for club_name, _letter, _username in CLUBS:
        search = page.locator("[data-club-search]")
        search.get_by_label("Find a club by its name").fill(club_name.split()[-1])
        search.get_by_role("button").click()
        page.locator("[data-invite]").get_by_label("Club").select_option(label=club_name)
        page.locator("[data-invite]").get_by_role("button").click()
        expect(page.locator("[data-messages]")).to_contain_text(f"{club_name} is invited.")
    return league


def accept_invitations(managers, base, slugs, league):
    """Each club's manager accepts on the club's page (its notices)."""
    for club_name, letter, _username in CLUBS:
        page = managers[letter]
        page.goto(f"{base}/clubs/{slugs[letter]}/")
        invitation = page.locator("[data-league-invitations]")
        expect(invitation).to_contain_text("Comité des Alpes")
        invitation.locator(f"[data-accept='{league}']").click()
        expect(page.locator("[data-messages]")).to_contain_text(
            f"{club_name} joined Comité des Alpes."
        )


def season_and_scale(page, base, league):
    """The season and its placement scale, saved; the editor opens again on the scale
    kept."""
    page.goto(f"{base}/leagues/{league}/manage/")
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
    page.reload()
    row = page.locator("[data-season-edit] [data-scale-row]").nth(0)
    expect(row.get_by_label("Points of the 1st, 2nd, 3rd… place")).to_have_value(
        " ".join(map(str, SCALE))
    )


def link_licences(page, base, league):
    page.goto(f"{base}/leagues/{league}/manage/")
    clubs = {letter: club_name for club_name, letter, _username in CLUBS}
    for letter, first, licence in LICENCES:
        link = page.locator("[data-link]")
        link.get_by_label("Club").select_option(label=clubs[letter])
        link.get_by_label("Player").fill(name(letter, first))
        link.get_by_label("Licence").fill(licence)
        link.get_by_role("button").click()
        expect(page.locator("[data-messages]")).to_contain_text(f"{name(letter, first)} is linked")


def seated(phone):
    """A table's seats as its page lists them: ``[(entry number, name)]``."""
    return phone.locator("[data-seats] > li").evaluate_all(
        "items => items.map(li => [li.dataset.entry, li.lastChild.textContent.trim()])"
    )


def tap_taker(phone, seat):
    """Tap the taker the table's page names ``seat``: the deal form names a guest with
    their club ("Bruno L (Tarot Club Lyon)")."""
    shown = re.compile(rf"^\s*{re.escape(seat)}( \(.*\))?\s*$")
    phone.locator("#id_taker label").filter(has_text=shown).tap()


def enter_and_count(page, base, slug, title, members, guest=None):
    """On the event's page (open): its members pasted as a list, ``guest`` (name, club,
    licence) entered by licence, eight players in all; then counted in the league season
    from the club's league page."""
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
    page.goto(f"{base}/clubs/{slug}/leagues/")
    page.locator("[data-count]").get_by_role("button").click()
    expect(page.locator("[data-messages]")).to_contain_text(f"{title} counts in Comité des Alpes")


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
    enter_and_count(page, base, slug, title, members, guest)
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
    editor (no match recorded yet) and shown as kept; two divisions, six teams, the
    fixtures. Returns the competition's page, read from the URL it opens at."""
    page.goto(f"{base}/leagues/{league}/competitions/new/")
    form = page.locator("[data-competition-form]")
    form.get_by_label("Name").fill("Interclubs 2026")
    form.get_by_label("Play").select_option("free")
    form.get_by_label("Deals per match").fill("1")
    form.get_by_label("Promoted per division").fill("1")
    form.get_by_label("Relegated per division").fill("1")
    fill_bareme(form, FIRST_BAREME)
    form.locator("[data-create]").click()
    expect(page.locator("[data-messages]")).to_contain_text("Interclubs 2026 is created")
    manage = page.url
    page.locator("[data-bareme-link]").click()
    form = page.locator("[data-bareme-form]")
    fill_bareme(form, BAREME)
    form.locator("[data-preview]").click()
    preview = page.locator("[data-bareme-preview]")
    expect(preview.locator("[data-difference='39'] td")).to_have_text(["39", "2", "0"])
    axe_check(page, "the barème's editor")
    page.locator("[data-bareme-form] [data-save]").click()
    expect(page.locator("[data-messages]")).to_contain_text("The barème is saved.")
    # opened again, the barème's page shows the one kept (the first drew at 39)
    page.locator("[data-bareme-link]").click()
    expect(preview.locator("[data-difference='39'] td")).to_have_text(["39", "2", "0"])
    page.goto(manage)
    clubs = {letter: club_name for club_name, letter, _username in CLUBS}
    for division, teams in DIVISIONS.items():
        page.locator("[data-division-form]").get_by_label("Division").fill(division)
        page.locator("[data-division-form]").get_by_role("button").click()
        expect(page.locator("[data-messages]")).to_contain_text("The division is added.")
        for letter, team_name, _squad in teams:
            form = page.locator("[data-team-form]")
            form.locator("#id_team-club").select_option(label=clubs[letter])
            form.get_by_label("Team name").fill(team_name)
            form.get_by_label("Squad", exact=False).fill("\n".join(SQUADS[team_name]))
            form.locator("#id_team-division").select_option(label=division)
            form.get_by_role("button").click()
            expect(page.locator("[data-messages]")).to_contain_text("The team is entered.")
    for division in DIVISIONS:
        page.goto(manage)
        page.locator(f"[data-fixtures='{division}']").click()
        expect(page.locator("[data-messages]")).to_contain_text("The fixtures are made.")
    return re.sub(r"manage/$", "", manage)


def fixtures(page, base, competition):
    """The matches as the competition's page lists them, division by division and day by
    day: ``[(home, away, the match's page)]``."""
    page.goto(competition)
    matches = []
    for division in DIVISIONS:
        links = page.locator(f"section[data-division='{division}'] a[data-fixture]")
        for i in range(links.count()):
            home, away = links.nth(i).get_attribute("data-fixture").split(" – ")
            matches.append((home, away, f"{base}{links.nth(i).get_attribute('href')}"))
    return matches


def line_up(new_context, manager, team):
    """The captain hands the line-up in from the link the manager sends."""
    link = manager.locator(f"[data-captain-link='{team}'] [data-link-url]").input_value()
    captain = new_context().new_page()
    captain.goto(link)
    form = captain.locator("[data-captain-line-up]")
    for order, player in enumerate(SQUADS[team], start=1):
        form.get_by_label(f"player {order}", exact=False).select_option(label=player)
    form.get_by_role("button").tap()
    expect(captain.locator("[data-messages]")).to_contain_text("The line-up is handed in.")
    captain.context.close()


def play_table(phone, names, taker):
    """The table's phone, on the table's page, enters its one hand, the winner's player
    taking, and hands the sheet in."""
    contract, bouts, points = HAND
    phone.get_by_role("link", name="Enter deal 1").tap()
    tap_taker(phone, names[taker])
    tap_choice(phone, "contract", contract)
    tap_choice(phone, "bouts", str(bouts))
    phone.locator("#id_points").fill(str(points))
    phone.get_by_role("button", name="Save", exact=True).tap()
    phone.wait_for_url(re.compile(r".*/table/[^/]+/(#deal-1)?$"))
    phone.get_by_label("Your name").fill(names[0])
    phone.get_by_role("button", name="Hand the sheet in").tap()
    expect(phone.locator("[data-table-state]")).to_have_attribute("data-table-state", "submitted")


def check_table(phone, link, names, scores):
    """A second player's phone copies the deal from the paper sheet: confirmed."""
    phone.goto(link)
    for seat, score in zip(names, scores, strict=True):
        phone.get_by_label(f"Deal 1, {seat}", exact=True).fill(str(score))
    phone.get_by_label("Your name").fill(names[1])
    phone.get_by_role("button", name="Confirm the result").tap()
    expect(phone.locator("[data-messages]")).to_contain_text("the sheet is confirmed")


def play_match(new_context, manager, home, away, url):
    """Line-ups from the captains' links, the match started, each table's hand entered
    on one phone and confirmed on another. Who sits where is read on the table's page.
    Returns the match's points, home and away, scored here: each table's hand by the
    rules, each team's players summed."""
    manager.goto(url)
    for team in (home, away):
        line_up(new_context, manager, team)
    manager.goto(url)
    manager.locator("[data-start-match] button").click()
    expect(manager.locator("[data-table-link]")).to_have_count(2)
    winner = min((home, away), key=STRENGTH.index)
    points = {home: 0, away: 0}
    first, second = new_context().new_page(), new_context().new_page()
    for number in (1, 2):
        link = manager.locator(f"[data-table-link='{number}'] [data-link-url]").input_value()
        first.goto(link)
        names = [seat for _number, seat in seated(first)]
        # an away player sits as the home club's guest: "Anna A (Excuse Annecy)"
        teams = [TEAM_OF[seat.split(" (")[0]] for seat in names]
        assert sorted(teams) == sorted([home, away] * 2)
        taker = teams.index(winner)
        scores = hand_scores(*HAND, taker)
        play_table(first, names, taker)
        check_table(second, link, names, scores)
        for team, score in zip(teams, scores, strict=True):
            points[team] += score
    first.context.close()
    second.context.close()
    return points[home], points[away]


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
    totals confirmed on a second phone, typed from the paper sheet (the hand scored here
    by the rules); counted, closed. Returns its published final ranking,
    ``{entry name: rank}``, as its page shows it."""
    page.goto(f"{base}/clubs/{slug}/tournaments/new-duplicate/")
    page.get_by_label("Name").fill(title)
    page.get_by_label("Date").fill("2026-04-11")
    page.get_by_label("Rounds").fill("2")
    page.get_by_label("Deals per set (étui)").fill("1")
    page.get_by_role("button", name="Create the duplicate event").click()
    expect(page.locator("[data-messages]")).to_contain_text("Duplicate event created.")
    t_url = re.sub(r"(/tournaments/\d+).*", r"\1", page.url)
    enter_and_count(page, base, slug, title, members, guest)
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
            seats = seated(first)
            taker = (number + table) % 4
            contract, points = ("garde" if table == 1 else "prise"), 44 + 4 * number + 3 * table
            first.get_by_role("link", name="Enter deal 1").first.tap()
            tap_taker(first, seats[taker][1])
            tap_choice(first, "contract", contract)
            tap_choice(first, "bouts", "2")
            first.locator("#id_points").fill(str(points))
            first.get_by_role("button", name="Save", exact=True).tap()
            first.wait_for_url(re.compile(r".*/table/[^/]+/(#deal-\d)?$"))
            first.get_by_label("Your name").fill("Première")
            first.get_by_role("button", name="Hand the sheet in").tap()
            expect(first.locator("[data-table-state]")).to_have_attribute(
                "data-table-state", "submitted"
            )
            second.goto(link)
            paper = hand_scores(contract, 2, points, taker)
            for (entry, seat), score in zip(seats, paper, strict=True):
                second.get_by_label(f"{entry}. {seat}", exact=True).fill(str(score))
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


def test_a_league_season_through_its_pages(new_context, live_server, site, axe_check):
    base = live_server.url
    managers, slugs = {}, {}
    for club_name, letter, username in CLUBS:
        managers[letter] = desk(new_context)
        slugs[letter] = open_club(managers[letter], base, site, club_name, letter, username)
    page = desk(new_context)
    log_in(page, base, "admin")
    league = create_league(page, base)
    accept_invitations(managers, base, slugs, league)
    season_and_scale(page, base, league)
    link_licences(page, base, league)

    # two free-deal tournaments: Lyon's with Anna of Vienne as a guest by her licence
    lyon = tournament(
        managers["L"],
        base,
        slugs["L"],
        "Open de Lyon",
        [name("L", f) for f in FIRST[:7]],
        guest=("Anna V", "Les Rois de Vienne", "0420"),
    )
    vienne = tournament(
        managers["V"], base, slugs["V"], "Coupe de Vienne", [name("V", f) for f in FIRST]
    )
    annecy = duplicate_event(
        managers["A"],
        new_context,
        base,
        slugs["A"],
        "Donnes préparées d'Annecy",
        [name("A", f) for f in FIRST[:7]],
        guest=("Bruno L", "Tarot Club Lyon", "0102"),
    )

    # the league ranking: the scale on each licensed player's places, summed
    licensed = {name(letter, first) for letter, first, _licence in LICENCES}
    expected = {}
    for places in (ranks(lyon), ranks(vienne), annecy):
        for entry, place in places.items():
            if entry in licensed:
                expected[entry] = expected.get(entry, 0) + Fraction(
                    SCALE[place - 1] if place <= len(SCALE) else 0
                )
    assert "Anna V" in expected and len(expected) == len(LICENCES)
    page.goto(f"{base}/leagues/{league}/")
    page.locator("[data-season='2026']").click()
    rows = page.locator("[data-league-ranking] tbody tr[data-person]")
    expect(rows).to_have_count(len(expected))
    places = ranks(expected)
    for person, points in expected.items():
        row = rows.filter(has=page.get_by_role("link", name=person, exact=True))
        expect(row.locator("[data-points]")).to_have_text(f"{float(points):.3f}")
        expect(row.locator("td").first).to_have_text(str(places[person]))

    # the championship: its barème changed before any match, two divisions, six teams
    competition = championship(page, base, league, axe_check)
    manager = new_context().new_page()
    log_in(manager, base, "admin")
    matches = fixtures(manager, base, competition)
    results = {}
    for home, away, url in matches:
        results[(home, away)] = play_match(new_context, manager, home, away, url)
    assert len(results) == 7  # three match days of two, and the second division's one

    # a captain claims against the first match; the manager dismisses it
    _home, claimed, url = matches[0]
    manager.goto(url)
    link = manager.locator(f"[data-captain-link='{claimed}'] [data-link-url]")
    captain = new_context().new_page()
    captain.goto(link.input_value())
    captain.get_by_label("A claim against the result", exact=False).fill("Our garde was 57.")
    captain.get_by_role("button", name="File the claim").tap()
    expect(captain.locator("[data-messages]")).to_contain_text("Your claim is filed")
    manager.goto(competition)
    manager.locator("[data-open-claims] a").first.click()
    manager.get_by_label("Decision").fill("The paper sheet says 56.")
    manager.locator("[data-dismiss]").click()
    expect(manager.locator("[data-messages]")).to_contain_text("The claim is dismissed.")

    # the division tables equal the barème applied to the hands scored here
    manager.goto(competition)
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
    manager.goto(f"{competition}manage/")
    form = manager.locator("[data-next-season-form]")
    form.get_by_label("Name of the next season's championship").fill("Interclubs 2027")
    form.get_by_role("button").click()
    expect(manager.locator("[data-messages]")).to_contain_text(
        "The next season's competition is made."
    )
    following = re.sub(r"manage/$", "", manager.url)
    assert following != competition
    tables = division_tables(results)
    down, up = tables["Division 1"][-1][0], tables["Division 2"][0][0]
    expected_divisions = {
        "Division 1": {t for t, _lp in tables["Division 1"][:-1]} | {up},
        "Division 2": {t for t, _lp in tables["Division 2"][1:]} | {down},
    }
    assert (down, up) == ("Lyon 2", "Annecy 2")
    manager.goto(following)
    expect(manager.locator("[data-competition-name]")).to_have_text("Interclubs 2027")
    expect(manager.locator("section[data-division]")).to_have_count(len(expected_divisions))
    for division, teams in expected_divisions.items():
        shown = manager.locator(f"section[data-division='{division}'] [data-team-line]")
        expect(shown).to_have_count(len(teams))
        assert {shown.nth(i).get_attribute("data-team-line") for i in range(len(teams))} == teams
