"""Every create form stores once: posted twice in a row (a double tap, a retry) or twice
at the same instant (two requests racing, PostgreSQL), "New tournament", "New
competition", "Create a league" and the API token form each make one object and never
answer a 5xx; two different "New tournament" forms of one name at once make two
tournaments with their own season names, no IntegrityError."""

import datetime
import threading
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from clubs import tokens
from clubs.models import ApiToken, Club, Membership, Role, Season
from competitions import services as competition_services
from competitions.models import Competition
from leagues import services as league_services
from leagues.models import League, LeagueManager
from tests.data import RULES_POST
from tournaments import services as tournament_services
from tournaments.models import Tournament

KEY = "create-once-key-0123456789"


@pytest.fixture
def world(db):
    club = Club.objects.create(name="Club", slug="rive")
    boss = get_user_model().objects.create_superuser("boss", password="pw-boss-12345")
    Membership.objects.create(club=club, user=boss, role=Role.MANAGER)
    league = League.objects.create(name="Ligue", slug="ligue")
    LeagueManager.objects.create(league=league, user=boss)
    return club, boss, league


def forms(club, league):
    """Each create form: its URL, a valid post, the model it creates, the service it
    calls (slowed in the race so that both posts are in flight together)."""
    tournament = {
        "name": "Open",
        "date": "2026-06-13",
        "rounds": "3",
        "length": "deals",
        "deals_per_round": "4",
        "five_tables": "four_dealer_out",
        "even_spread": "1",
        **RULES_POST,
    }
    competition = {
        "name": "Interclubs",
        "kind": "championship",
        "mode": "duplicate",
        "deals": "2",
        "win_points": "3",
        "draw_points": "1",
        "loss_points": "0",
        "tie_breaks": "points",
        "promoted": "0",
        "relegated": "0",
        "line-TOTAL_FORMS": "1",
        "line-INITIAL_FORMS": "0",
        "line-0-start": "0",
        "line-0-ahead": "1",
        "line-0-behind": "1",
        "action": "create",
    }
    return {
        "tournament": (
            reverse("tournaments:create", args=[club.slug]),
            tournament,
            Tournament.objects.filter(club=club),
            (tournament_services, "create_tournament"),
        ),
        "competition": (
            reverse("competitions:create", args=[league.slug]),
            competition,
            Competition.objects.filter(league=league),
            (competition_services, "create_competition"),
        ),
        "league": (
            reverse("leagues:create"),
            {"name": "Comité", "visibility": "public"},
            League.objects.filter(name="Comité"),
            (league_services, "create_league"),
        ),
        "token": (
            reverse("token_create"),
            {"club": str(club.pk), "name": "site", "scope": "read"},
            ApiToken.objects.filter(club=club),
            (tokens, "create_token"),
        ),
    }


@pytest.mark.parametrize("form", ["tournament", "competition", "league", "token"])
def test_each_create_form_posted_twice_in_a_row_stores_once(client, world, form):
    club, boss, league = world
    url, data, made, _service = forms(club, league)[form]
    client.force_login(boss)
    first = client.post(url, {**data, "idempotency_key": KEY})
    assert first.status_code in (200, 302) and made.count() == 1
    again = client.post(url, {**data, "idempotency_key": KEY}, follow=True)
    assert again.status_code == 200 and made.count() == 1
    said = [str(m) for m in again.context["messages"]]
    assert "This form was already sent: it was saved once." in said


def _race(url, posts, session_cookie, target):
    """``posts`` sent at the same instant from threads (each its own connection), the
    service slowed after its work so that the other post reaches the database meanwhile."""
    module, name = target
    real = getattr(module, name)

    def slow(*args, **kwargs):
        result = real(*args, **kwargs)
        threading.Event().wait(0.3)
        return result

    entered = threading.Barrier(len(posts))
    results, errors = [], []

    def post(data):
        try:
            client = Client()
            client.cookies[settings.SESSION_COOKIE_NAME] = session_cookie
            entered.wait(timeout=20)
            results.append(client.post(url, data))
        except Exception as error:  # noqa: BLE001 (a 500 raised in the test client)
            errors.append(error)
        finally:
            connections.close_all()

    with mock.patch.object(module, name, side_effect=slow):
        threads = [threading.Thread(target=post, args=(data,)) for data in posts]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return results, errors


def _postgresql():
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite serialises them)")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("form", ["tournament", "competition", "league", "token"])
def test_each_create_form_posted_twice_at_once_stores_once(form):
    _postgresql()
    club = Club.objects.create(name="Club", slug="rive")
    boss = get_user_model().objects.create_superuser("boss", password="pw-boss-12345")
    Membership.objects.create(club=club, user=boss, role=Role.MANAGER)
    league = League.objects.create(name="Ligue", slug="ligue")
    LeagueManager.objects.create(league=league, user=boss)
    url, data, made, service = forms(club, league)[form]
    first = Client()
    first.force_login(boss)
    cookie = first.cookies[settings.SESSION_COOKIE_NAME].value
    post = {**data, "idempotency_key": KEY}
    results, errors = _race(url, [post, post], cookie, service)
    assert not errors, errors
    assert all(r.status_code < 500 for r in results)
    assert made.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_new_tournaments_of_one_name_at_once_make_two_without_a_500():
    """Two forms (two keys) of the same name and date: both stored, the second season
    numbered, where the unique season name raised an IntegrityError (a 500)."""
    _postgresql()
    club = Club.objects.create(name="Club", slug="rive")
    boss = get_user_model().objects.create_superuser("boss", password="pw-boss-12345")
    Membership.objects.create(club=club, user=boss, role=Role.MANAGER)
    league = League.objects.create(name="Ligue", slug="ligue")
    url, data, made, service = forms(club, league)["tournament"]
    first = Client()
    first.force_login(boss)
    cookie = first.cookies[settings.SESSION_COOKIE_NAME].value
    posts = [{**data, "idempotency_key": f"{KEY}-{n}"} for n in (1, 2)]
    results, errors = _race(url, posts, cookie, service)
    assert not errors, errors
    assert sorted(r.status_code for r in results) == [302, 302]
    names = sorted(Season.objects.filter(club=club).values_list("name", flat=True))
    assert made.count() == 2 and names == ["Open (2026-06-13)", "Open (2026-06-13) 2"]
    assert datetime.date(2026, 6, 13) == made.first().date
