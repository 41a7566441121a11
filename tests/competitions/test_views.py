"""The competition pages: what they show, their forms, and pinned query counts."""

import pytest
from django.urls import reverse

from competitions import services
from competitions.models import Competition, LineUpSeat, Match
from tests.competitions.conftest import line_ups, marques, team

DEAL_1 = (marques(120, -40, -40, -40), marques(120, -40, -40, -40))
DEAL_2 = (marques(-50, 150, -50, -50), marques(-30, -30, 90, -30))


def url(name, competition, **kwargs):
    return reverse(
        f"competitions:{name}",
        kwargs={"league": competition.league.slug, "competition_id": competition.pk, **kwargs},
    )


def test_the_championship_page(client, championship, boss, django_assert_num_queries):
    competition, division, _teams = championship()
    for match in division.matches.filter(day=1):
        line_ups(match, boss)
        services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    # the league, the competition, its divisions, teams and matches, the open claims and
    # the captains' confirmations (the results' states; the session: none)
    with django_assert_num_queries(7):
        page = client.get(url("detail", competition))
    text = page.content.decode()
    assert page.status_code == 200
    assert text.count("data-team-line") == 4 and text.count("data-fixture") == 6
    assert "0–2" in text  # a played match's match points
    # a bigger division reads in the same queries
    bigger, _division, _teams = championship(teams=6)
    with django_assert_num_queries(5):
        client.get(url("detail", bigger))


def test_the_match_and_team_pages(client, championship, boss, django_assert_num_queries):
    competition, division, _teams = championship()
    match = division.matches.get(day=1, slot=0)
    line_ups(match, boss)
    services.record_results(match, [DEAL_1, DEAL_2], actor=boss)
    # league, competition, match, line-up, deals, the result's claims and confirmations;
    # the clubs naming their players (club B is members-only)
    with django_assert_num_queries(8):
        page = client.get(url("match", competition, match_id=match.pk))
    text = page.content.decode()
    assert "−160" in text or "-160" in text
    assert match.home.squad.order_by("pk").first().name in text
    with django_assert_num_queries(5):
        page = client.get(url("team", competition, team_id=match.home_id))
    assert page.status_code == 200 and "captain" in page.content.decode()


def bareme(*lines):
    """The barème editor's lines as posted (``competitions.bareme_forms``)."""
    data = {"line-TOTAL_FORMS": str(len(lines)), "line-INITIAL_FORMS": "0"}
    for i, (start, ahead, behind) in enumerate(lines):
        data.update(
            {f"line-{i}-start": start, f"line-{i}-ahead": ahead, f"line-{i}-behind": behind}
        )
    return data


def test_a_manager_sets_up_a_championship_through_the_forms(client, league, clubs, boss):
    client.force_login(boss)
    response = client.post(
        reverse("competitions:create", kwargs={"league": league.slug}),
        {
            "name": "Interclubs 2026",
            "kind": "championship",
            "mode": "duplicate",
            "deals": 2,
            **bareme([0, 1, 1], [1, 2, 0]),
            "win_points": 3,
            "draw_points": 1,
            "loss_points": 0,
            "tie_breaks": ["mp_difference", "points"],
            "promoted": 0,
            "relegated": 0,
        },
    )
    competition = Competition.objects.get()
    assert response.status_code == 302 and competition.tie_breaks == ["mp_difference", "points"]
    manage = url("manage", competition)
    client.post(manage, {"action": "division", "division-name": "Honneur"})
    division = competition.divisions.get()
    for index, key in enumerate("abab"):
        first = 4 * (index // 2)
        names = [p.name for p in clubs[f"{key}_players"][first : first + 4]]
        response = client.post(
            manage,
            {
                "action": "team",
                "team-club": f"club-{key}",
                "team-name": f"Team {index}",
                "team-players": "\n".join(names),
                "team-division": division.pk,
            },
        )
        assert response.status_code == 302, response.content.decode()
    # a squad naming another club's player is refused on the form
    response = client.post(
        manage,
        {
            "action": "team",
            "team-club": "club-a",
            "team-name": "Wrong",
            "team-players": "\n".join(p.name for p in clubs["b_players"][:4]),
        },
    )
    assert response.status_code == 200 and "plays for the team" in response.content.decode()
    client.post(manage, {"action": "fixtures", "division": division.pk})
    assert Match.objects.filter(division=division).count() == 6
    # a line-up, then the results of the match
    match = Match.objects.filter(day=1).select_related("home", "away").first()
    for side in (match.home, match.away):
        squad = list(side.squad.order_by("pk"))
        response = client.post(
            url("line_up", competition, match_id=match.pk, team_id=side.pk),
            {f"player_{i}": p.pk for i, p in enumerate(squad, start=1)},
        )
        assert response.status_code == 302
    assert LineUpSeat.objects.filter(match=match).count() == 8
    data = {}
    for number, deal in ((1, DEAL_1), (2, DEAL_2)):
        for table, seats in enumerate(deal, start=1):
            for seat, value in seats.items():
                data[f"d{number}_t{table}_{seat}"] = value
    response = client.post(url("results", competition, match_id=match.pk), data)
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.points_home, match.mp_away) == (-160, 2)
    # marques that do not add up: the form says so, nothing changes
    data["d2_t1_N"] = 0
    response = client.post(url("results", competition, match_id=match.pk), data)
    assert response.status_code == 200 and "do not sum to 0" in response.content.decode()
    match.refresh_from_db()
    assert match.points_home == -160


def test_a_line_up_of_the_same_player_twice_is_refused(client, championship, boss):
    competition, division, _teams = championship()
    match = division.matches.get(day=1, slot=0)
    client.force_login(boss)
    squad = list(match.home.squad.order_by("pk"))
    response = client.post(
        url("line_up", competition, match_id=match.pk, team_id=match.home_id),
        {
            "player_1": squad[0].pk,
            "player_2": squad[0].pk,
            "player_3": squad[2].pk,
            "player_4": squad[3].pk,
        },
    )
    assert response.status_code == 200 and not LineUpSeat.objects.exists()


@pytest.mark.parametrize("who", ["own", "other"])
def test_a_club_manager_hands_in_only_their_teams_line_up(client, championship, clubs, who):
    competition, division, _teams = championship()
    match = division.matches.select_related("home__club").get(day=1, slot=0)
    own = "a" if match.home.club == clubs["a"] else "b"
    manager = clubs[f"{own}_manager"] if who == "own" else clubs[f"{'ab'[own == 'a']}_manager"]
    client.force_login(manager)
    squad = list(match.home.squad.order_by("pk"))
    response = client.post(
        url("line_up", competition, match_id=match.pk, team_id=match.home_id),
        {f"player_{i}": p.pk for i, p in enumerate(squad, start=1)},
    )
    assert response.status_code == (302 if who == "own" else 403)
    assert LineUpSeat.objects.exists() == (who == "own")


def test_a_cup_page_after_the_draw(client, league, clubs, boss, django_assert_num_queries):
    competition = services.create_competition(league, name="Coupe", kind="cup", actor=boss)
    for i in range(5):
        team(competition, clubs, "ab"[i % 2], f"T{i + 1}", 4 * (i // 2), actor=boss)
    client.force_login(boss)
    response = client.post(url("manage", competition), {"action": "draw", "draw-seed": "3"})
    assert response.status_code == 302
    client.logout()
    with django_assert_num_queries(4):
        page = client.get(url("detail", competition))
    text = page.content.decode()
    assert text.count("data-tie=") == 7 and text.count("bye") >= 3


HOSTILE = [
    "-1",
    "99999999999999999999999999",
    "٣",
    "a\x00b",
    "A" * 5000,
    "",
    "1e400",
    "[[1e400, 1, 1]]",
]


def test_hostile_input_never_breaks_a_form(client, championship, clubs, boss):
    """Each field of each competition form, the others valid, as the league's manager: a
    refusal or a write, never a 500."""
    competition, division, _teams = championship()
    match = division.matches.get(day=1, slot=0)
    client.raise_request_exception = False
    client.force_login(boss)
    create = {
        "name": "C",
        "kind": "championship",
        "mode": "duplicate",
        "deals": "2",
        **bareme([0, 1, 1]),
        "win_points": "3",
        "draw_points": "1",
        "loss_points": "0",
        "tie_breaks": "points",
        "promoted": "0",
        "relegated": "0",
    }
    team = {
        "action": "team",
        "team-club": "club-a",
        "team-name": "X",
        "team-players": "\n".join(p.name for p in clubs["a_players"][8:12]),
        "team-division": str(division.pk),
    }
    results = {f"d{n}_t{t}_{seat}": "0" for n in (1, 2) for t in (1, 2) for seat in "NESW"}
    targets = [
        (reverse("competitions:create", kwargs={"league": competition.league.slug}), create),
        (url("manage", competition), team),
        (url("manage", competition), {"action": "division", "division-name": "D"}),
        (url("manage", competition), {"action": "fixtures", "division": str(division.pk)}),
        (url("manage", competition), {"action": "draw", "draw-seed": "1", "draw-seeded": "1"}),
        (url("results", competition, match_id=match.pk), results),
        (url("results", competition, match_id=match.pk), {"action": "schedule", "edit-date": ""}),
        (url("line_up", competition, match_id=match.pk, team_id=match.home_id), {"player_1": ""}),
    ]
    for target, valid in targets:
        # every field but the action, and of the marques the first two (all alike)
        for field in [f for f in valid if f != "action"][: 2 if valid is results else None]:
            for value in HOSTILE:
                response = client.post(target, {**valid, field: value})
                assert response.status_code < 500, (target, field, value)


def test_the_next_season_from_the_manage_page(client, championship, boss):
    competition, division, _teams = championship(teams=2, promoted=1, relegated=1)
    client.force_login(boss)
    manage = url("manage", competition)
    response = client.post(manage, {"action": "next", "next-name": "2027"})
    assert "Every match of the championship is played first." in response.content.decode()
    match = division.matches.get()
    line_ups(match)
    services.record_results(match, [DEAL_1, DEAL_2])
    response = client.post(manage, {"action": "next", "next-name": "2027"})
    following = Competition.objects.get(name="2027")
    assert response.status_code == 302 and response["Location"] == url("manage", following)
    assert following.teams.count() == 2 and following.divisions.count() == 1
