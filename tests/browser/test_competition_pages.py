"""A team competition in the room and on paper: the match day's screen at
1920 x 1080 (a page of its own, large type, each division's matches of the day with
their state and score beside its table, paged in turn, refreshed in place), an export
downloaded from the competition page and read back, a cup's bracket printed on one
landscape sheet."""

import io
import re
from pathlib import Path

import openpyxl
import pytest
from playwright.sync_api import expect

from clubs.models import Club, Player
from competitions import services as competitions
from competitions.models import Competition
from leagues import services as leagues

pytestmark = pytest.mark.browser

DEALS = [
    ({"N": 120, "E": -40, "S": -40, "W": -40}, {"N": 120, "E": -40, "S": -40, "W": -40}),
    ({"N": 150, "E": -50, "S": -50, "W": -50}, {"N": -30, "E": 90, "S": -30, "W": -30}),
]


@pytest.fixture
def league(db, django_user_model):
    boss = django_user_model.objects.create_user("boss", password="pw-long-12345")
    league = leagues.create_league("Comité du Rhône", "comite", managers=[boss])
    clubs = []
    for key in "ab":
        club = Club.objects.create(name=f"Club {key.upper()}", slug=f"club-{key}")
        leagues.accept_invitation(leagues.invite_club(league, club))
        for n in range(24):
            Player.objects.create(club=club, name=f"Joueur {key.upper()}{n:02d}")
        clubs.append(club)
    return league, clubs


def enter(competition, club, name, number, division=None):
    squad = list(club.players.order_by("pk"))[4 * number : 4 * number + 4]
    return competitions.enter_team(
        competition, club, name=name, players=squad, captain=squad[0], division=division
    )


def line_ups(match):
    for side in (match.home, match.away):
        competitions.submit_line_up(match, side, list(side.squad.order_by("pk")))


@pytest.fixture
def championship(league):
    """Two divisions of four teams; on day 1, division 1's matches are played, one of
    division 2's is being played (line-ups in), the other still to play."""
    league, (a, b) = league
    competition = competitions.create_competition(
        league, name="Interclubs", kind="championship", deals=2
    )
    for level, name in ((1, "Excellence"), (2, "Honneur")):
        division = competitions.add_division(competition, name)
        for index in range(4):
            club = (a, b)[index % 2]
            number = 2 * (level - 1) + index // 2
            enter(competition, club, f"{name} {index + 1}", number, division)
        competitions.generate_fixtures(division)
    for match in competition.matches.filter(division__level=1, day=1):
        line_ups(match)
        competitions.record_results(match, DEALS)
    line_ups(competition.matches.filter(division__level=2, day=1).order_by("slot").first())
    return competition


def test_the_match_day_screen_at_1920_by_1080(new_context, live_server, championship):
    competition = championship
    page = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.clock.install()
    page.goto(
        f"{live_server.url}/leagues/comite/competitions/{competition.pk}/screen/?day=1&page=60"
    )
    expect(page.locator("[data-topbar]")).to_have_count(0)  # no site navigation
    expect(page.locator("nav")).to_have_count(0)
    width = page.evaluate("document.querySelector('[data-screen]').getBoundingClientRect().width")
    assert width == 1920  # full width
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080  # nothing to scroll
    screen = page.locator("[data-screen]")
    assert screen.get_attribute("data-pages") == "2"  # a division a page
    expect(page.locator("[data-screen-title]")).to_have_text("Interclubs")
    # the first refresh swaps the live part in once (the browser's serialisation of the
    # page differs from the fragment's text): let it pass before measuring
    page.clock.run_for(11_000)
    expect(screen).to_have_attribute("data-refreshed", re.compile(r"\d+"))

    def shown(part):
        """The division shown: its title, its matches and its table rows, each whole in
        the window, in large type."""
        section = page.locator("[data-screen-part]:not([hidden])")
        expect(section.locator("h2")).to_have_text(part)
        matches = section.locator("[data-match]")
        rows = section.locator("[data-table-team]")
        expect(matches).to_have_count(2)
        expect(rows).to_have_count(4)
        for item in matches.all() + rows.all():
            box = item.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= 1080
            assert box["x"] >= 0 and box["x"] + box["width"] <= 1920
        size = rows.first.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
        assert size >= 32  # 3 % of the height: readable across the room
        return section

    section = shown("Excellence")
    states = section.locator("[data-match]").evaluate_all("els => els.map(e => e.dataset.state)")
    assert states == ["provisional", "provisional"]
    expect(section.locator("[data-match]").first).to_contain_text("2–0")
    expect(section.locator("[data-league-points]").first).to_have_text("3")
    page.clock.run_for(60_000)  # the next page: division 2
    section = shown("Honneur")
    states = section.locator("[data-match]").evaluate_all("els => els.map(e => e.dataset.state)")
    assert sorted(states) == ["playing", "to_play"]
    expect(section.locator("[data-match][data-state='playing']")).to_contain_text("playing")

    # A result comes in: the screen shows it within ten seconds, still paged.
    playing = competition.matches.filter(division__level=2, day=1).order_by("slot").first()
    competitions.record_results(playing, DEALS)
    refreshed = screen.get_attribute("data-refreshed")
    page.clock.run_for(11_000)
    expect(screen).not_to_have_attribute("data-refreshed", refreshed)
    assert screen.get_attribute("data-pages") == "2"
    expect(page.locator("[data-screen-part]:visible")).to_have_count(1)
    honneur = page.locator("[data-screen-part]", has=page.locator("h2", has_text="Honneur"))
    expect(honneur.locator("[data-state='provisional']")).to_have_count(1)
    expect(honneur.locator("[data-table-team]").first).to_contain_text("Honneur")


def test_an_export_downloaded_from_the_competition_page(page, live_server, championship):
    competition = championship
    page.goto(f"{live_server.url}/leagues/comite/competitions/{competition.pk}/")
    with page.expect_download() as download:
        page.locator("[data-export='xlsx']").click()
    book = openpyxl.load_workbook(io.BytesIO(Path(download.value.path()).read_bytes()))
    assert book.sheetnames == ["Tables", "Fixtures", "Squads", "Line-ups"]
    table = list(book["Tables"].iter_rows(values_only=True))
    assert len(table) == 1 + 8  # two divisions of four
    assert table[1][:2] == ("Excellence", 1) and table[-1][0] == "Honneur"
    with page.expect_download() as download:
        page.locator("[data-export='csv-fixtures']").click()
    assert download.value.suggested_filename.endswith("-fixtures.csv")
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")
    assert len(text.strip().splitlines()) == 1 + 12  # two divisions, six matches each
    # the screen is a link away
    expect(page.locator("[data-screen-link]")).to_have_attribute(
        "href", f"/leagues/comite/competitions/{competition.pk}/screen/"
    )


def test_a_cup_bracket_prints_on_one_sheet(page, live_server, league):
    league, (a, b) = league
    cup = competitions.create_competition(league, name="Coupe", kind=Competition.Kind.CUP)
    for index in range(11):
        enter(cup, (a, b)[index % 2], f"Équipe {index + 1}", index // 2)
    competitions.draw_cup(cup, seed=11)
    page.goto(f"{live_server.url}/leagues/comite/competitions/{cup.pk}/")
    expect(page.locator("[data-tie]")).to_have_count(8 + 4 + 2 + 1)
    page.emulate_media(media="print")
    expect(page.locator("[data-competition-exports]")).to_be_hidden()
    pdf = page.pdf(prefer_css_page_size=True, print_background=False)
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1  # one sheet
    # every round side by side, inside the sheet's width
    boxes = [r.bounding_box() for r in page.locator("[data-cup-round]").all()]
    assert len(boxes) == 4
    assert all(boxes[i]["x"] < boxes[i + 1]["x"] for i in range(3))
    assert boxes[0]["y"] == boxes[3]["y"]
