"""A competition's exports read back (CSV, XLSX, JSON), the match day's screen and its
matches' states, and the members-only clubs' players hidden on every page and export
(``competitions.pages``, ``competitions.exports``, ``competitions.matchday``,
``competitions.privacy``)."""

import csv
import datetime
import io
import json

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Membership, Person, Player, Role
from competitions import links, matchday, services
from competitions.models import Match
from leagues.models import LeagueClub
from tests.competitions.conftest import line_ups, team
from tests.competitions.test_views import DEAL_1, DEAL_2, url

HIDDEN = "A player of a members-only club"


def play_day_one(division, boss):
    for match in division.matches.filter(day=1):
        line_ups(match, boss)
        services.record_results(match, [DEAL_1, DEAL_2], actor=boss)


def export(client, competition, **query):
    return client.get(url("export", competition), query, HTTP_ACCEPT_LANGUAGE="fr")


def read_csv(response):
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")  # the writer's byte-order mark
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";"))


def test_the_championship_exports_read_back(client, championship, boss):
    competition, division, _teams = championship()
    play_day_one(division, boss)
    lines = {line.team.name: line for line in division_lines(competition)}

    table = read_csv(export(client, competition, format="csv", part="table"))
    assert len(table) == 1 + 4  # the header, a line a team
    header = table[0]
    assert header[:3] == ["Division", "Rang", "Équipe"]
    by_team = {row[2]: row for row in table[1:]}
    for name, line in lines.items():
        row = by_team[name]
        assert row[0] == "Division 1" and int(row[1]) == line.rank
        assert [int(v) for v in row[4:]] == [
            line.played,
            line.won,
            line.drawn,
            line.lost,
            line.mp_for,
            line.mp_against,
            line.points_difference,
            line.league_points,
        ]
    # a negative number, as a number (not a neutralised formula)
    assert sorted(row[10] for row in table[1:]) == ["-320", "-320", "320", "320"]

    fixtures = read_csv(export(client, competition, format="csv", part="fixtures"))
    assert len(fixtures) == 1 + 6
    played = [row for row in fixtures[1:] if row[1] == "1"]
    assert len(played) == 2 and all(
        row[7:13] == ["-160", "160", "0", "2", "0", "3"] for row in played
    )
    assert {row[6] for row in played} == {"provisoire"}
    assert all(row[7] == "" for row in fixtures[1:] if row[1] != "1")

    book = openpyxl.load_workbook(io.BytesIO(export(client, competition, format="xlsx").content))
    assert book.sheetnames == ["Classements", "Rencontres", "Effectifs", "Compositions"]
    rows = list(book["Classements"].iter_rows(values_only=True))
    assert [r[2] for r in rows[1:]] == [r[2] for r in table[1:]]
    assert all(isinstance(v, int) for r in rows[1:] for v in r[4:])  # numbers stay numbers
    assert len(list(book["Compositions"].iter_rows())) == 1 + 2 * 8

    data = json.loads(export(client, competition, format="json").content)
    [exported] = data["divisions"]
    assert [line["team"] for line in exported["table"]] == [r[2] for r in table[1:]]
    first = [m for m in exported["fixtures"] if m["day"] == 1]
    assert all(m["match_points"] == [0, 2] and m["state"] == "provisional" for m in first)
    assert data["competition"]["tie_breaks"] == competition.tie_breaks


def division_lines(competition):
    from competitions import queries  # noqa: PLC0415

    [view] = queries.championship(competition)
    return view.lines


def test_the_cup_bracket_exports(client, league, clubs, boss):
    competition = services.create_competition(league, name="Coupe", kind="cup", actor=boss)
    for i in range(5):
        team(competition, clubs, "ab"[i % 2], f"T{i + 1}", 4 * (i // 2), actor=boss)
    services.draw_cup(competition, seed=3, actor=boss)
    rows = read_csv(export(client, competition, format="csv"))  # the bracket by default
    assert len(rows) == 1 + 4 + 2 + 1  # 8 places: 4 ties, 2, the final
    assert sum(1 for row in rows[1:] if row[4] == "exempt") == 3  # three byes
    data = json.loads(export(client, competition, format="json").content)
    assert [len(r["ties"]) for r in data["bracket"]] == [4, 2, 1]
    book = openpyxl.load_workbook(io.BytesIO(export(client, competition, format="xlsx").content))
    assert book.sheetnames[0] == "Tableau"
    # a CSV part a cup has not, an unknown format: 400
    assert export(client, competition, format="csv", part="table").status_code == 400
    assert export(client, competition, format="pdf").status_code == 400


def test_the_match_states():
    now = timezone.now()
    today = timezone.localdate(now)
    match = Match(day=1, date=today)
    assert matchday.match_state(match, seats=4, linked=False, now=now) == matchday.TO_PLAY
    assert matchday.match_state(match, seats=8, linked=False, now=now) == matchday.PLAYING
    match.date = today + datetime.timedelta(days=3)  # line-ups in, the day to come
    assert matchday.match_state(match, seats=8, linked=False, now=now) == matchday.TO_PLAY
    assert matchday.match_state(match, seats=0, linked=True, now=now) == matchday.PLAYING
    match.date = today
    match.started_at = now  # started by the league manager: its tables play
    assert matchday.match_state(match, seats=0, linked=False, now=now) == matchday.PLAYING
    # recorded: where its result stands (services.result_state)
    match.recorded_at = now - datetime.timedelta(hours=23)
    for result in (matchday.PROVISIONAL, matchday.CLAIMED, matchday.FINAL):
        assert matchday.match_state(match, seats=8, linked=False, result=result) == result


def test_the_screen_and_exports_read_the_results_state(championship, boss):
    """A claim holds a result at "claimed", both captains' confirmations make it final
    before its 24 hours: the screen's and the exports' states are the match page's."""
    competition, division, _teams = championship()
    first, second = division.matches.filter(day=1).order_by("slot")[:2]
    for match in (first, second):
        line_ups(match, boss)
        services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    services.file_claim(links.link_of(first, first.home), "Deal 2 was misscored")
    for side in (second.home, second.away):
        services.confirm_result(links.link_of(second, side))
    states = matchday.match_states([Match.objects.get(pk=m.pk) for m in (first, second)])
    assert states == {first.pk: matchday.CLAIMED, second.pk: matchday.FINAL}


def test_the_match_day_screen(client, championship, boss, django_assert_num_queries):
    competition, division, _teams = championship()
    play_day_one(division, boss)
    day_two = list(division.matches.filter(day=2))
    line_ups(day_two[0], boss)  # its line-ups in, no date: being played
    # the current day: the first with a match not recorded
    assert matchday.current_day(competition) == 2
    page = client.get(url("screen", competition))
    text = page.content.decode()
    assert page.status_code == 200 and "data-topbar" not in text and "<nav" not in text
    assert text.count("data-match=") == 2 and text.count("data-table-team=") == 4
    assert 'data-state="playing"' in text and 'data-state="to_play"' in text
    assert "screen/live/?day=2" in text
    # day 1 on demand: its matches recorded, provisional; the live part alone
    with django_assert_num_queries(11):
        live = client.get(url("screen_live", competition), {"day": 1})
    text = live.content.decode()
    assert live["Cache-Control"] == "no-store" and "<html" not in text
    assert text.count('data-state="provisional"') == 2 and "0–2" in text
    for day in ("9", "x", "٣", "1" * 30):
        assert client.get(url("screen", competition), {"day": day}).status_code == 400
    assert client.get(url("screen", competition), {"page": "9" * 40}).status_code == 200


def test_the_screen_of_a_cup_round(client, league, clubs, boss):
    competition = services.create_competition(league, name="Coupe", kind="cup", actor=boss)
    for i in range(4):
        team(competition, clubs, "ab"[i % 2], f"T{i + 1}", 4 * (i // 2), actor=boss)
    services.draw_cup(competition, seed=3, actor=boss)
    text = client.get(url("screen", competition)).content.decode()
    assert text.count("data-match=") == 2 and "data-table-team" not in text


def test_the_competition_page_links_the_screen_and_the_exports(client, championship):
    competition, _division, _teams = championship()
    text = client.get(url("detail", competition)).content.decode()
    assert url("screen", competition) in text
    for kind in ("csv-table", "csv-fixtures", "xlsx", "json"):
        assert f'data-export="{kind}"' in text


# ---------------------------------------------------------------- members-only clubs


@pytest.fixture
def played(championship, boss):
    """Day 1 played; the teams of club B (members-only) and its players' names."""
    competition, division, _teams = championship()
    play_day_one(division, boss)
    b_teams = list(competition.teams.filter(club__slug="club-b"))
    names = {p.name for t in b_teams for p in t.squad.all()}
    match = division.matches.filter(day=1, home__club__slug="club-b").first() or (
        division.matches.filter(day=1, away__club__slug="club-b").first()
    )
    return competition, b_teams, names, match


def shown_names(client, competition, b_teams, match):
    """Club B's players' names found on its team pages, its match sheet and the exports."""
    pages = [client.get(url("team", competition, team_id=t.pk)) for t in b_teams]
    pages.append(client.get(url("match", competition, match_id=match.pk)))
    for query in (
        {"format": "json"},
        {"format": "csv", "part": "squads"},
        {"format": "csv", "part": "line_ups"},
    ):
        pages.append(client.get(url("export", competition), query))
    book = openpyxl.load_workbook(
        io.BytesIO(client.get(url("export", competition), {"format": "xlsx"}).content)
    )
    texts = [p.content.decode() for p in pages]
    texts.append(
        " ".join(
            str(v) for ws in book.worksheets for r in ws.iter_rows(values_only=True) for v in r
        )
    )
    return texts


def test_a_members_only_clubs_players_are_hidden(client, played, clubs):
    competition, b_teams, names, match = played
    texts = shown_names(client, competition, b_teams, match)
    for text in texts:
        assert not any(name in text for name in names)
    # the team pages and the match sheet say who is hidden
    assert all(HIDDEN in text for text in texts[: len(b_teams) + 1])
    assert HIDDEN in texts[-1]
    data = json.loads(texts[len(b_teams) + 1])
    b_squads = [t["squad"] for t in data["teams"] if t["club"] == "Club B"]
    assert b_squads and all(name is None for squad in b_squads for name in squad)
    # club A (public): named
    assert "Anna A" in texts[-1]
    # the screen names nobody
    screen = client.get(url("screen", competition), {"day": 1}).content.decode()
    assert not any(name in screen for name in names | {"Anna A"})


def test_a_member_of_the_club_reads_its_players(client, played, clubs, django_user_model):
    competition, b_teams, names, match = played
    member = django_user_model.objects.create_user("member_b", password="pw-long-12345")
    Membership.objects.create(club=clubs["b"], user=member, role=Role.MEMBER)
    client.force_login(member)
    texts = shown_names(client, competition, b_teams, match)
    for text in texts[: len(b_teams)]:
        assert HIDDEN not in text
    assert all(any(name in text for name in names) for text in texts)


def test_a_club_that_lets_the_league_name_its_players(client, played, clubs, league):
    competition, b_teams, names, match = played
    LeagueClub.objects.filter(league=league, club=clubs["b"]).update(names_players=True)
    texts = shown_names(client, competition, b_teams, match)
    assert all(any(name in text for name in names) for text in texts)
    assert not any(HIDDEN in text for text in texts)


def test_a_player_named_through_a_public_club_of_theirs(client, played, clubs, boss):
    """A person with a player in a public member club too is named, as on the league
    pages; the reader themself is named to themself."""
    competition, b_teams, _names, _match = played
    squad = list(b_teams[0].squad.order_by("pk"))
    person = Person.objects.create(name="Anna", licence="123")
    Player.objects.filter(pk=squad[0].pk).update(person=person)
    Player.objects.create(club=clubs["a"], name="Anna elsewhere", person=person)
    page = client.get(url("team", competition, team_id=b_teams[0].pk)).content.decode()
    assert squad[0].name in page and squad[1].name not in page
    user = boss.__class__.objects.create_user("beth", password="pw-long-12345")
    Person.objects.create(name="Beth", licence="456", user=user)
    Player.objects.filter(pk=squad[1].pk).update(person=Person.objects.get(user=user))
    client.force_login(user)
    page = client.get(url("team", competition, team_id=b_teams[0].pk)).content.decode()
    assert squad[1].name in page and squad[2].name not in page


def test_the_export_url(championship):
    competition, _division, _teams = championship()
    assert url("export", competition) == reverse(
        "competitions:export", args=[competition.league.slug, competition.pk]
    )


def test_an_english_csv_and_hostile_queries(client, championship):
    competition, _division, _teams = championship()
    text = client.get(
        url("export", competition), {"format": "csv"}, HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert text.startswith("\ufeffDivision,Rank,Team,Club,Played,")  # the writer's English
    for query in (
        {"format": "csv\x00"},
        {"format": "csv", "part": "bracket"},
        {"format": "csv", "part": "A" * 5000},
        {"format": ["json", "pdf"]},
    ):
        assert client.get(url("export", competition), query).status_code in (200, 400)
    assert client.get(url("export", competition), {"format": "csv\x00"}).status_code == 400
    assert client.get(url("export", competition), {"part": "x"}).status_code == 400


def test_the_screen_before_the_fixtures(client, league, boss):
    competition = services.create_competition(league, name="Vide", kind="cup", actor=boss)
    page = client.get(url("screen", competition))
    assert page.status_code == 200 and "The fixtures are not made yet." in page.content.decode()
    assert client.get(url("screen_live", competition)).status_code == 200
    data = json.loads(client.get(url("export", competition)).content)
    assert data["bracket"] == [] and data["teams"] == []


def test_the_screen_and_the_links_in_french(client, championship, boss):
    competition, division, _teams = championship()
    line_ups(division.matches.get(day=1, slot=0), boss)
    text = client.get(url("screen", competition), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Journée 1" in text and "en cours" in text and "à jouer" in text
    assert "Écran" in text and ">PM<" in text
    text = client.get(url("detail", competition), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Écran de la journée" in text and "Classements (CSV)" in text


def test_an_export_reads_in_the_same_queries_whatever_the_size(client, championship, boss):
    from django.db import connection  # noqa: PLC0415
    from django.test.utils import CaptureQueriesContext  # noqa: PLC0415

    counts = []
    for teams in (4, 6):
        competition, division, _teams = championship(teams=teams)
        play_day_one(division, boss)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url("export", competition), {"format": "xlsx"}).status_code == 200
        counts.append(len(queries))
    # the results' states (claims, confirmations) read for the fixtures and for the tables
    assert counts[0] == counts[1] <= 16
