"""The manager makes the next season when teams equal on every tie-break stand across a
promotion or relegation line: the page names them and the rule (by seed), refuses until
the manager confirms, then makes the season."""

import pytest
from playwright.sync_api import expect

from clubs.models import Club, Player
from competitions import services as competitions
from competitions.models import Competition
from leagues import services as leagues
from tests.competitions.conftest import marques

pytestmark = pytest.mark.browser

DRAW = (marques(120, -40, -40, -40), marques(120, -40, -40, -40))


def tied_season(django_user_model):
    boss = django_user_model.objects.create_user("boss", password="pw-long-12345")
    league = leagues.create_league("Comité du Rhône", "comite", managers=[boss])
    players = {}
    for key in "ab":
        club = Club.objects.create(name=f"Club {key.upper()}", slug=f"club-{key}")
        leagues.accept_invitation(leagues.invite_club(league, club))
        players[key] = (
            club,
            [Player.objects.create(club=club, name=f"J{i} {key}") for i in range(8)],
        )
    competition = competitions.create_competition(
        league, name="2026", kind="championship", deals=2, promoted=1, relegated=1
    )
    divisions = [competitions.add_division(competition, f"D{n}") for n in (1, 2)]
    for index, (key, division) in enumerate(zip("abab", divisions + divisions[::-1], strict=True)):
        club, squad = players[key]
        chosen = squad[4 * (index // 2) : 4 * (index // 2) + 4]
        competitions.enter_team(
            competition,
            club,
            name=f"{key.upper()}{index // 2 + 1}",
            players=chosen,
            division=division,
        )
    for division in divisions:
        competitions.generate_fixtures(division)
    for match in competition.matches.all():
        for side in (match.home, match.away):
            competitions.submit_line_up(match, side, list(side.squad.order_by("pk")))
        competitions.record_results(match, [DRAW, DRAW])
    return boss, competition


def test_ties_at_a_line_are_named_and_confirmed(page, live_server, log_in, django_user_model):
    boss, competition = tied_season(django_user_model)
    log_in(page, boss)
    page.goto(f"{live_server.url}/leagues/comite/competitions/{competition.pk}/manage/")
    ties = page.locator("[data-line-ties]")
    expect(ties).to_contain_text("separated by seed")
    expect(ties.locator("li")).to_have_count(2)
    form = page.locator("[data-next-season-form]")
    form.get_by_label("Name of the next season").fill("2027")
    form.get_by_role("button").click()
    expect(page.locator("main")).to_contain_text("Confirm it to make the next season")
    assert not Competition.objects.filter(name="2027").exists()
    form = page.locator("[data-next-season-form]")
    form.get_by_label("Name of the next season").fill("2027")
    form.get_by_label("separated by seed: I confirm").check()
    form.get_by_role("button").click()
    expect(page.locator("h1")).to_contain_text("2027")
    assert Competition.objects.filter(name="2027").exists()
