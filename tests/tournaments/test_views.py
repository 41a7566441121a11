"""Tournament pages: set-up through the forms, the round page, the ranking and its
exports, the printed material; query counts pinned; club pages leave tournaments out."""

import datetime
import re

import pytest
from django.urls import reverse

from clubs.models import Player, Season
from scoresheet import services as sheets
from tests.data import RULES_POST
from tournaments import services
from tournaments.models import Tournament
from tournaments.queries import ranking

from .conftest import DATE
from .helpers import play_round


def url(name, tournament, *args):
    return reverse(f"tournaments:{name}", args=[tournament.club.slug, tournament.pk, *args])


@pytest.fixture
def played(make_tournament):
    """17 players, 3 rounds drawn in advance, round 1 played and closed, round 2 started."""
    t = make_tournament(players=17, rounds=3, deals=4)
    services.register(t, [("guest", ("Jean Dupont", "TC Lyon", ""))])
    services.draw_schedule(t)
    first, second = t.round_set.get(number=1), t.round_set.get(number=2)
    services.start_round(first)
    play_round(t, first)
    services.close_round(first)
    services.start_round(second)
    play_round(t, second, skip={1, 2})
    return t


def test_a_manager_creates_a_tournament_and_enters_players(client, club, manager, members):
    client.force_login(manager)
    data = {
        "name": "Open de la Rive",
        "date": "2026-06-13",
        "rounds": "4",
        "length": "time",
        "deals_per_round": "",
        "minutes_per_round": "45",
        "five_tables": "four_dealer_out",
        "draw_rule": "meetings",
        **RULES_POST,
    }
    response = client.post(reverse("tournaments:create", args=[club.slug]), data)
    t = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == url("players", t)
    assert (t.rounds, t.deals_per_round, t.minutes_per_round, t.five_tables, t.draw_rule) == (
        4,
        None,
        45,
        "four_dealer_out",
        "meetings",
    )
    players_url = url("players", t)
    client.post(players_url, {"action": "members", "players": [members[0].pk, members[1].pk]})
    client.post(players_url, {"action": "guest", "name": "Zoé", "club": "Nice", "licence": ""})
    client.post(players_url, {"action": "bulk", "names": "Member 03\nAnne; Paris; 1234"})
    assert list(t.entries.values_list("number", "name", "is_guest")) == [
        (1, "Member 01", False),
        (2, "Member 02", False),
        (3, "Zoé", True),
        (4, "Member 03", False),
        (5, "Anne", True),
    ]
    page = client.get(players_url).content.decode()
    assert "Anne" in page and "Paris" in page
    # a refusal lands on the form
    response = client.post(players_url, {"action": "bulk", "names": "Member 01"})
    assert response.status_code == 200 and "already entered" in response.content.decode()


def test_form_errors_store_nothing(client, club, manager):
    client.force_login(manager)
    data = {"name": "X", "date": "2026-06-13", "rounds": "3", "length": "deals", **RULES_POST}
    data["deals_per_round"] = ""
    response = client.post(reverse("tournaments:create", args=[club.slug]), data)
    assert response.status_code == 200 and "Give the deals of a round." in response.content.decode()
    assert not Tournament.objects.exists()


def test_round_page_lists_tables_with_their_state(client, played, django_assert_num_queries):
    with django_assert_num_queries(9):  # + the organiser's totals
        response = client.get(url("round", played, 2))
    page = response.content.decode()
    assert page.count('class="card round-table state-empty status-not_started"') == 2
    assert page.count('class="card round-table state-complete status-in_progress"') == 2
    assert "4 of 5 deals" in page or "5 of 5 deals" in page
    assert "Repeated meetings" in page


def test_the_round_page_shows_the_repeats_a_swap_makes(client, make_tournament, manager):
    t = make_tournament(players=16, rounds=2)
    services.draw_schedule(t)
    client.force_login(manager)
    page = client.get(url("round", t, 2)).content.decode()
    assert "Nobody meets anybody again at this round." in page
    summary = "Repeated meetings in the draw of rounds 1 to 2: 0."
    assert summary in page and 'data-draw-least="0"' in page
    # round 1 alone says no least: a bound of the first rounds says nothing of the draw
    first_page = client.get(url("round", t, 1)).content.decode()
    assert "rounds 1 to 1: 0." in first_page and "data-draw-least" not in first_page
    first = services.history(t, 2)[0][0]
    second = t.round_set.get(number=2)
    partner_of = next(s for s in second.tables.all() if first[0] in s.seats).seats
    target = next(x for x in partner_of if x != first[0])
    response = client.post(url("round_swap", t, 2), {"a": first[1], "b": target})
    assert response.status_code == 302
    page = client.get(url("round", t, 2)).content.decode()
    assert "met once before" in page
    assert "rounds 1 to 2: 0." not in page and 'data-draw-least="0"' in page


def test_ranking_page_export_and_filter(client, played, django_assert_num_queries):
    # the tournament, the ranking, the licences, the unconfirmed tables (provisional marks)
    with django_assert_num_queries(5):
        response = client.get(url("ranking", played))
    page = response.content.decode()
    rows = ranking(played)
    assert page.index(rows[0]["name"]) < page.index(rows[-1]["name"])
    assert "Round 3" in page and "Equal totals share a place" in page
    guests = client.get(url("ranking", played) + "?kind=guests").content.decode()
    assert "Jean Dupont" in guests and "Member 01" not in guests
    with django_assert_num_queries(4):  # an export needs no provisional marks
        csv = client.get(url("ranking", played) + "?_export=csv")
    assert csv.content.startswith("\ufeff".encode())  # Excel reads it as UTF-8
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "Place,Number,Name,Club,Licence,Round 1,Round 2,Round 3,Total,Deals"
    assert len(lines) == 19
    first = lines[1].split(",")
    assert first[0] == "1" and first[-2] == str(int(rows[0]["total"]))
    xlsx = client.get(url("ranking", played) + "?_export=xlsx")
    assert xlsx.content[:2] == b"PK"
    assert client.get(url("ranking", played) + "?_export=yaml").status_code == 400


def test_printed_material(client, played, django_assert_num_queries):
    with django_assert_num_queries(8):  # + the organiser's totals
        cards = client.get(url("table_cards", played, 2)).content.decode()
    assert cards.count('class="print-card table-card"') == 4
    assert "Bilan (sums to zero)" in cards and "Signatures" in cards
    with django_assert_num_queries(4):
        routes = client.get(url("route_cards", played)).content.decode()
    assert routes.count('class="route-card"') == 18
    entry = client.get(url("entry", played, 1)).content.decode()
    assert "R1" not in entry or "Round 1, table" in entry


def test_tournament_sheets_stay_out_of_the_club_pages(client, club, played, make_sheet_club):
    season, sheet = make_sheet_club
    standings = client.get(reverse("standings:club", args=[club.slug])).content.decode()
    assert "Member 01" not in standings  # the only hands are the tournament's
    assert "Club night" in standings or "Tournoi" not in standings
    assert (
        client.get(reverse("standings:season", args=[club.slug, played.season_id])).status_code
        == 404
    )
    sheets_page = client.get(reverse("scoresheet:sheets", args=[club.slug])).content.decode()
    assert f'<option value="{played.season_id}"' not in sheets_page  # not in the season filter
    assert played.season.name not in sheets_page  # its tables are left out...
    url = reverse("scoresheet:sheets", args=[club.slug]) + "?tournaments=on"
    assert played.season.name in client.get(url).content.decode()  # ...unless asked for
    detail = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert "Club night" in detail and f"season-{played.season_id}" not in detail
    assert list(club.seasons.regular()) == [season]


@pytest.fixture
def make_sheet_club(club, members):
    season = Season.objects.create(
        club=club, name="Club night", start_date=datetime.date(2026, 1, 1)
    )
    sheet = sheets.create_sheet(season=season, players=members[17:20], date=DATE)
    return season, sheet


def test_anonymous_reads_a_public_tournament_but_cannot_draw(client, played):
    assert client.get(url("ranking", played)).status_code == 200
    response = client.post(url("round_draw", played, 3))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_players_to_add_sort_like_the_rest_of_the_club(client, club, manager, make_tournament):
    """Accents and case do not count: Élodie among the E, anna before Bert."""
    t = make_tournament(players=20)  # every member entered: only the players below are left
    for name in ("Zoë", "Bert", "Élodie", "anna", "Émile", "eve"):
        Player.objects.create(club=club, name=name)
    client.force_login(manager)
    response = client.get(url("players", t))
    offered = [str(p) for p in response.context["members_form"].fields["players"].queryset]
    assert offered == ["anna", "Bert", "Élodie", "Émile", "eve", "Zoë"]
    boxes = re.findall(r'name="players" value="\d+"[^>]*>\s*([^<]+?)\s*</label>', response.text)
    assert boxes == offered  # the page lists them in that order


def test_the_round_buttons_start_and_close_a_round_in_the_organisers_name(
    client, manager, make_tournament
):
    t = make_tournament(players=8, rounds=2)
    rnd = t.round_set.get(number=1)
    services.draw_round(rnd)
    client.force_login(manager)
    for button, state in (("round_start", "started"), ("round_close", "closed")):
        response = client.post(url(button, t, 1))
        assert response.status_code == 302 and response["Location"] == url("round", t, 1)
        rnd.refresh_from_db()
        assert rnd.state == state
        if state == "started":
            assert {table.sheet.created_by for table in rnd.tables.all()} == {manager}
            play_round(t, rnd)


def test_a_refused_edit_shows_the_refusal_on_its_field(client, manager, members, make_tournament):
    t = make_tournament(players=0, team_size=2)
    services.register_team(t, "Team 1", [("member", members[0]), ("member", members[1])])
    client.force_login(manager)
    data = {"name": t.name, "date": "2026-05-09", "rounds": "3", "length": "deals"}
    data.update(deals_per_round="4", five_tables="five", team_size="", confirm_by="totals")
    response = client.post(url("edit", t), {**data, **RULES_POST})
    assert response.status_code == 200
    assert response.context["form"].errors["team_size"] == [
        "Teams are registered: their size can no longer change."
    ]
    t.refresh_from_db()
    assert t.team_size == 2


def test_the_organiser_sees_what_the_ratings_expect_of_each_table(
    client, played, manager, monkeypatch, django_assert_num_queries
):
    """Each table's players with their chance to finish first over the deals the table
    plays (the club's ratings through ``ratings.queries.expected_table``), likeliest
    first, in one query for the round; not on a closed round, nor for a reader. A player
    not rated yet has no chance, last."""
    from ratings import queries as ratings
    from ratings import scopes
    from tournaments import queries as tq

    monkeypatch.setattr(ratings, "MIN_HANDS", 1)
    client.force_login(manager)
    with django_assert_num_queries(12) as captured:
        response = client.get(url("round", played, 2))
    tables = response.context["tables"]
    assert len(tables) == 4
    chances = set()
    for view in tables:
        ids = [entry.player_id for _letter, entry in view.seats]
        expected = ratings.expected_table(scopes.club(played.club_id), ids, view.deals)
        chances.update(round(chance, 6) for chance in expected.values())
        by_chance = sorted(ids, key=lambda pk: -expected[pk])
        assert [entry.player_id for entry, _shown in view.forecast] == by_chance
        assert [shown for _entry, shown in view.forecast] == [
            f"{round(expected[pk] * 100)}%" for pk in by_chance
        ]
    # round 1 was played: the chances are not all alike (four deals move them little)
    assert len(chances) > 8
    page = response.content.decode()
    assert page.count("data-forecast") == 4 and "Expected (ratings):" in page
    # the forecast is the one query more
    monkeypatch.setattr(tq, "forecast_tables", lambda club_id, views: None)
    with django_assert_num_queries(len(captured.captured_queries) - 1):
        client.get(url("round", played, 2))
    monkeypatch.undo()
    # under the minimum of hands (four deals each): not rated yet, no chance shown
    response = client.get(url("round", played, 2))
    shown = [s for view in response.context["tables"] for _e, s in view.forecast]
    assert set(shown) == {"not rated yet"} and len(shown) == 18  # 17 players and a guest
    # a closed round: none; a reader: none
    assert "data-forecast" not in client.get(url("round", played, 1)).content.decode()
    client.logout()
    assert "data-forecast" not in client.get(url("round", played, 2)).content.decode()


def test_drawing_drawn_rounds_again_asks_first(client, make_tournament, manager):
    """Drawing again rounds already drawn (the schedule, or a round and those after it)
    shows which rounds change and draws nothing until confirmed."""
    t = make_tournament(players=16, rounds=3)
    services.draw_schedule(t)
    before = services.history(t, 4)
    client.force_login(manager)
    response = client.post(url("schedule", t))
    assert response.status_code == 200
    assert "Rounds 1, 2, 3 are already drawn" in response.text
    response = client.post(url("round_draw", t, 2))
    assert "Rounds 2, 3 are already drawn" in response.text
    assert services.history(t, 4) == before  # nothing drawn yet
    response = client.post(url("round_draw", t, 2), {"confirm": "1"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert [r.state for r in t.round_set.order_by("number")] == ["drawn", "drawn", "planned"]
    assert services.history(t, 2) == before[:1]


def test_the_tournament_page_leads_to_closing_and_penalties(client, make_tournament, manager):
    """The organiser finds on the tournament's page the way to close it once finished
    and to give a penalty (a player's page, from the players)."""
    t = make_tournament(players=16, rounds=2)
    client.force_login(manager)
    page = client.get(url("detail", t)).content.decode()
    assert "data-close-link" not in page and "data-penalty-link" not in page  # being set up
    Tournament.objects.filter(pk=t.pk).update(state=Tournament.State.FINISHED)
    page = client.get(url("detail", t)).content.decode()
    assert f'href="{url("ranking", t)}#close" data-close-link>Close the tournament' in page
    assert f'href="{url("players", t)}#entries" data-penalty-link>' in page
