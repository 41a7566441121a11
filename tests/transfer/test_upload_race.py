"""Import pressed twice at the same instant (PostgreSQL): the file is imported once."""

import datetime
import threading
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Membership, Role, Season
from scoresheet.models import Sheet
from tests.transfer.test_upload import GOOD, jsonl, post_file
from transfer import upload


@pytest.mark.django_db(transaction=True)
def test_two_presses_of_import_at_the_same_instant_import_once():
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite serialises them)")
    club = Club.objects.create(name="Club", slug="rive")
    season = Season.objects.create(club=club, name="S", start_date=datetime.date(2026, 1, 1))
    user = get_user_model().objects.create_user("boss", password="pw-boss-12345")
    Membership.objects.create(club=club, user=user, role=Role.MANAGER)
    first = Client()
    first.force_login(user)
    preview = post_file(first, club, jsonl(GOOD, GOOD | {"table": "2"}))
    key = preview.content.decode().split('name="idempotency_key" value="')[1].split('"')[0]
    form = {"step": "import", "digest": preview.context["digest"], "idempotency_key": key}
    form["season"] = str(season.pk)
    session_cookie = first.cookies[settings.SESSION_COOKIE_NAME].value
    url = reverse("transfer:import", args=[club.slug])
    entered = threading.Barrier(2)
    real_run = upload.run

    def slow_run(*args, **kwargs):
        outcomes = real_run(*args, **kwargs)
        threading.Event().wait(0.3)  # the other press reaches the key meanwhile
        return outcomes

    results, errors = [], []

    def press():
        try:
            client = Client()
            client.cookies[settings.SESSION_COOKIE_NAME] = session_cookie
            entered.wait(timeout=20)
            results.append(client.post(url, form))
        except Exception as error:
            errors.append(error)
        finally:
            connections.close_all()

    with mock.patch.object(upload, "run", side_effect=slow_run):
        threads = [threading.Thread(target=press) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not errors, errors
    assert sorted(r.status_code for r in results) == [200, 302]
    assert Sheet.objects.filter(club=club).count() == 2
