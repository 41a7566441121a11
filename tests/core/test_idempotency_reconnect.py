"""A hand post whose database connection dies before the commit is saved once, on a
fresh connection (``core.idempotency.once``): PostgreSQL, its backend killed."""

import datetime

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection
from django.test import RequestFactory

from clubs.models import Club, Player, Season
from core.idempotency import Repeated, new_key, once
from scoresheet import services
from scoresheet.models import Hand

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="kills a PostgreSQL backend"),
]
HAND = {"dealer": "P1", "taker": "P1", "contract": "garde", "bouts": 2, "points": 56}


def kill_my_backend():
    """Terminate this connection's server process from another connection."""
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.fixture
def sheet():
    club = Club.objects.create(name="Rive", slug="rive")
    season = Season.objects.create(club=club, name="S", start_date=datetime.date(2026, 1, 1))
    players = [Player.objects.create(club=club, name=f"P{i}") for i in range(1, 5)]
    return services.create_sheet(season=season, players=players, date=season.start_date)


def post(key):
    request = RequestFactory().post("/", {"idempotency_key": key})
    request.user = get_user_model().objects.create_user(f"u{Hand.objects.count()}-{key[:6]}")
    return request


def test_a_post_whose_connection_died_is_saved_once_on_a_fresh_connection(sheet):
    calls = []

    def create():
        calls.append(1)
        if len(calls) == 1:
            kill_my_backend()  # the connection dies in the middle of the transaction
        return services.record_hand(sheet, HAND)

    request = post(new_key())
    hand = once(request, create, url="/done")
    assert len(calls) == 2 and Hand.objects.filter(sheet=sheet).count() == 1
    assert hand.number == 1
    with pytest.raises(Repeated):  # the same form again: nothing more
        once(request, create, url="/done")
    assert Hand.objects.filter(sheet=sheet).count() == 1


def test_a_post_without_a_key_is_not_tried_again(sheet):
    def create():
        kill_my_backend()
        return services.record_hand(sheet, HAND)

    request = RequestFactory().post("/", {})
    request.user = get_user_model().objects.create_user("nokey")
    with pytest.raises(OperationalError):
        once(request, create, url="/done")
    connection.close()
    assert Hand.objects.filter(sheet=sheet).count() == 0
