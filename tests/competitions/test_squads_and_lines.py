"""A player plays in one squad of a competition (refused by name, in French on the page,
never a database error); teams equal on every tie-break across a promotion or relegation
line are shown, and moved by seed only once the manager confirms; a cup's result is
recorded from the competition's row read under its lock; team-match marques that do not
sum to zero are refused."""

import pytest
from django.urls import reverse

from competitions import promotion, services
from competitions.models import Competition, Match
from competitions.services import CompetitionError
from leagues.models import LeagueAuditEntry
from tests.competitions.conftest import line_ups, marques, team

DRAW = (marques(120, -40, -40, -40), marques(120, -40, -40, -40))  # the same at both tables


def test_a_player_of_another_squad_is_refused_by_name(league, clubs, boss, client):
    competition = services.create_competition(league, name="Coupe", kind="cup", deals=2)
    players = clubs["a_players"]
    team(competition, clubs, "a", "A1", 0)
    with pytest.raises(CompetitionError) as refused:
        services.enter_team(competition, clubs["a"], name="A2", players=players[2:6])
    assert refused.value.code == "squad_taken"
    assert players[2].name in refused.value.message and players[3].name in refused.value.message
    assert competition.teams.count() == 1
    # another competition may have them
    other = services.create_competition(league, name="Coupe 2", kind="cup", deals=2)
    services.enter_team(other, clubs["a"], name="A2", players=players[2:6])
    # through the page: the form says why, in French
    client.force_login(boss)
    manage = reverse("competitions:manage", args=[league.slug, competition.pk])
    response = client.post(
        manage,
        {
            "action": "team",
            "team-club": "club-a",
            "team-name": "A2",
            "team-players": "\n".join(p.name for p in players[3:7]),
        },
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert "Un joueur ne joue que dans une seule équipe" in text and players[3].name in text


def test_ties_across_a_line_are_shown_and_moved_by_seed_once_confirmed(league, clubs, boss, client):
    competition = services.create_competition(
        league, name="2026", kind="championship", deals=2, promoted=1, relegated=1, actor=boss
    )
    one = services.add_division(competition, "D1", actor=boss)
    two = services.add_division(competition, "D2", actor=boss)
    for index, (key, name, division) in enumerate(
        [("a", "A1", one), ("b", "B1", one), ("a", "A2", two), ("b", "B2", two)]
    ):
        team(competition, clubs, key, name, 4 * (index // 2), division, boss)
    for division in (one, two):
        services.generate_fixtures(division, actor=boss)
    for match in competition.matches.all():  # every match drawn alike: tied on every key
        line_ups(match)
        services.record_results(match, [DRAW, DRAW], actor=boss)
    assert promotion.ties_at_lines(competition) == [
        {"division": "D1", "teams": ["A1", "B1"]},
        {"division": "D2", "teams": ["A2", "B2"]},
    ]
    with pytest.raises(CompetitionError) as refused:
        promotion.next_season(competition, name="2027", actor=boss)
    assert refused.value.code == "ties_at_line"
    assert "D1: A1, B1; D2: A2, B2" in refused.value.message
    client.force_login(boss)
    manage = reverse("competitions:manage", args=[league.slug, competition.pk])
    page = client.get(manage, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "data-line-ties" in page and "D1 : A1, B1" in page.replace("\xa0", " ")
    refused_page = client.post(manage, {"action": "next", "next-name": "2027"})
    assert refused_page.status_code == 200 and not Competition.objects.filter(name="2027")
    response = client.post(
        manage, {"action": "next", "next-name": "2027", "next-ties_confirmed": "on"}
    )
    assert response.status_code == 302
    following = Competition.objects.get(name="2027")
    divisions = {
        d.name: list(d.teams.values_list("name", flat=True)) for d in following.divisions.all()
    }
    # by seed: A1 (entered first) stays up, B1 goes down; A2 goes up, B2 stays
    assert sorted(divisions["D1"]) == ["A1", "A2"] and sorted(divisions["D2"]) == ["B1", "B2"]
    entry = LeagueAuditEntry.objects.filter(action="next_season").get()
    assert entry.after["ties_by_seed"][0] == {"division": "D1", "teams": ["A1", "B1"]}


def test_no_tie_at_a_line_needs_no_confirmation(league, clubs, boss):
    competition = services.create_competition(
        league, name="2026", kind="championship", deals=2, promoted=1, relegated=1, actor=boss
    )
    one = services.add_division(competition, "D1", actor=boss)
    for index, key in enumerate("abab"):
        team(competition, clubs, key, f"T{index}", 4 * (index // 2), one, boss)
    services.generate_fixtures(one, actor=boss)
    for match in competition.matches.all():  # all drawn: tied, but one division has no line
        line_ups(match)
        services.record_results(match, [DRAW, DRAW], actor=boss)
    assert promotion.ties_at_lines(competition) == []
    promotion.next_season(competition, name="2027", actor=boss)


def test_team_match_marques_summing_below_zero_are_refused(championship, boss):
    _competition, division, _teams = championship()
    match = division.matches.order_by("day", "slot").first()
    line_ups(match)
    negative = (marques(100, -40, -40, -40), DRAW[1])  # sums to −20
    with pytest.raises(CompetitionError) as refused:
        services.record_results(match, [DRAW, negative], actor=boss)
    assert refused.value.code == "zero_sum" and "Deal 2, table 1" in refused.value.message
    assert not Match.objects.get(pk=match.pk).played


def test_a_cup_result_reads_the_competition_under_its_lock(league, clubs, boss):
    """The caller's copy of the competition is stale (its bracket read before the draw):
    the result goes on from the row read under the lock, so the winner reaches the
    next tie."""
    competition = services.create_competition(league, name="Coupe", kind="cup", deals=2)
    for i in range(4):
        team(competition, clubs, "ab"[i % 2], f"T{i + 1}", 4 * (i // 2), actor=boss)
    stale = Competition.objects.get(pk=competition.pk)  # no bracket yet
    services.draw_cup(competition, seed=7, actor=boss)
    ties = list(Competition.objects.get(pk=competition.pk).matches.order_by("day", "slot"))
    for tie in ties:
        tie.competition = stale  # what a caller holding an old copy passes
        line_ups(tie)
        services.record_results(tie, [DRAW, DRAW], actor=boss)
    final = Competition.objects.get(pk=competition.pk).matches.filter(day=2)
    assert final.count() == 1
