"""Data integrity under concurrency: no deadlock reaches the scorer, no form creates twice.

The concurrent tests need PostgreSQL (SQLite serialises writers):
``DATABASE_URL=postgres://postgres@127.0.0.1:5432/test DJANGO_TEST_DB_NAME=test_x pytest …``.
"""

import datetime
import threading
from decimal import Decimal
from importlib import import_module
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.db import OperationalError, connection, connections, transaction
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Invitation, Membership, Player, Role, Season
from core import db as core_db
from core.idempotency import FIELD_NAME, new_key
from core.models import IdempotencyKey
from scoresheet import facts, services
from scoresheet.models import Hand, ScoreRow, SeasonTotal, Sheet, SheetTotal
from scoresheet.totals import rebuild_season_totals
from tests.data import NAMES

MARCH = datetime.date(2026, 3, 14)


def season_totals(season):
    return list(
        SeasonTotal.objects.filter(season=season)
        .order_by("player_id")
        .values_list("player_id", "seated", "sheets", "hands", "taken", "made", "score")
    )


def sheet_facts(season):
    """Every SheetTotal of the season with all its counters and facts."""
    return list(
        SheetTotal.objects.filter(season=season)
        .order_by("sheet_id", "player_id")
        .values_list("sheet_id", "player_id", *facts.NAMES)
    )


# ---------------------------------------------------------------- deadlocks


class _Deadlock(Exception):
    sqlstate = "40P01"


def _deadlock():
    error = OperationalError("deadlock detected")
    error.__cause__ = _Deadlock()
    return error


def test_a_deadlocked_transaction_runs_again():
    calls = []

    @core_db.retry_on_conflict
    def write():
        calls.append(1)
        if len(calls) < 3:
            raise _deadlock()
        return "done"

    with mock.patch.object(core_db.time, "sleep"):
        assert write() == "done"
    assert len(calls) == 3


def test_retries_are_bounded_and_other_errors_go_up_at_once():
    calls = []

    @core_db.retry_on_conflict(attempts=4)
    def always_deadlocked():
        calls.append(1)
        raise _deadlock()

    with mock.patch.object(core_db.time, "sleep"), pytest.raises(OperationalError):
        always_deadlocked()
    assert len(calls) == 4

    calls.clear()

    @core_db.retry_on_conflict
    def broken():
        calls.append(1)
        raise OperationalError("server closed the connection")

    with pytest.raises(OperationalError):
        broken()
    assert len(calls) == 1


@pytest.mark.django_db
def test_only_the_outermost_transaction_runs_again():
    """Inside someone else's atomic block a savepoint cannot be run again: the error goes up."""
    calls = []

    @core_db.retry_on_conflict
    def write():
        calls.append(1)
        raise _deadlock()

    with pytest.raises(OperationalError), transaction.atomic():
        write()
    assert len(calls) == 1


@pytest.mark.django_db(transaction=True)
def test_eight_scorers_on_sheets_sharing_players_never_deadlock():
    """Eight sheets of one season seat the same six players in different orders and are
    written at the same moment: every write succeeds (none killed by a deadlock) and the
    season totals equal a rebuild from the ledger.

    Before the fix the SeasonTotal upsert locked its rows in whatever order the
    aggregates came in, and PostgreSQL killed about one write in fifty with a
    deadlock (a 500 for the scorer).
    """
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite serialises them)")
    club = Club.objects.create(name="Club", slug="club")
    season = Season.objects.create(club=club, name="S", start_date=datetime.date(2026, 1, 1))
    players = [Player.objects.create(club=club, name=name) for name in NAMES]
    sheets = []
    for i in range(8):
        seated = players[i % 6 :] + players[: i % 6]  # the same six, another dealing order
        seated = seated[:5] if i % 2 else seated[:4]
        if i % 4 == 3:
            seated.reverse()
        sheets.append(services.create_sheet(season=season, players=seated, date=MARCH))
    hands_per_sheet = 25
    barrier = threading.Barrier(len(sheets))
    errors = []

    def write(sheet):
        try:
            with connection.cursor() as cursor:
                # The plan PostgreSQL picks on a large ledger: the totals' aggregates
                # come out in hash order, which differs from sheet to sheet.
                cursor.execute("SET enable_sort = off")
            names = services.Table.of(sheet).names
            for n in range(hands_per_sheet):
                barrier.wait(timeout=60)
                taker = names[n % len(names)]
                points = 36 + (n * 7) % 40  # made and failed contracts, every player moves
                hand = {"taker": taker, "contract": "garde", "bouts": n % 4, "points": points}
                if len(names) == 5:
                    hand["partner"] = names[(n + 2) % 5]
                services.record_hand(sheet, hand)
                if n % 5 == 4:  # corrections move every total of the sheet again
                    last = sheet.hands.order_by("-number").first()
                    services.correct_hand(last, dict(hand, points=points + 1))
        except Exception as error:  # reported below, in the test's thread
            errors.append(error)
            barrier.abort()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=write, args=(sheet,)) for sheet in sheets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert Hand.objects.count() == len(sheets) * hands_per_sheet
    kept = season_totals(season), sheet_facts(season)
    rebuild_season_totals(season)
    assert kept == (season_totals(season), sheet_facts(season))
    assert sum(row[-1] for row in kept[0]) == sum(
        ScoreRow.objects.filter(season=season).values_list("score", flat=True), Decimal(0)
    )


# ---------------------------------------------------------------- idempotency


@pytest.fixture
def scorer_client(client, scorer):
    client.force_login(scorer)
    return client


def _hand_post(key, **extra):
    return {
        "dealer": "3",  # seats, in dealing order: Dora deals, Anna takes
        "taker": "0",
        "contract": "garde",
        "bouts": "2",
        "points": "56",
        "action": "save",
        FIELD_NAME: key,
        **extra,
    }


def test_the_hand_form_carries_a_new_key_each_time(scorer_client, make_sheet):
    sheet = make_sheet(4)
    url = reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    first = scorer_client.get(url).content.decode()
    second = scorer_client.get(url).content.decode()
    assert f'name="{FIELD_NAME}"' in first
    key = first.split(f'name="{FIELD_NAME}" value="')[1].split('"')[0]
    assert len(key) >= 16 and key not in second


def test_the_same_hand_posted_twice_in_a_row_is_stored_once(scorer_client, make_sheet):
    sheet = make_sheet(4)
    url = reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    sheet_url = reverse("scoresheet:sheet", args=["rive", sheet.pk])
    key = new_key()
    first = scorer_client.post(url, _hand_post(key))
    second = scorer_client.post(url, _hand_post(key), follow=True)
    assert first.status_code == 302 and first["Location"].startswith(sheet_url)
    assert second.redirect_chain == [(first["Location"], 302)]  # the first post's answer
    assert "already sent" in second.content.decode()
    assert sheet.hands.count() == 1
    # a new form (a new key) enters the next hand
    assert scorer_client.post(url, _hand_post(new_key())).status_code == 302
    assert list(sheet.hands.values_list("number", flat=True).order_by("number")) == [1, 2]


def test_a_refused_post_keeps_its_key_free(scorer_client, make_sheet):
    """A post the service refuses (the sheet is closed) stores nothing, the key neither:
    the form shown again carries the same key, and the same post runs once the sheet is
    reopened."""
    sheet = make_sheet(4)
    url = reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    key = new_key()
    services.close_sheet(sheet)
    page = scorer_client.post(url, _hand_post(key))
    assert page.status_code == 200 and f'value="{key}"' in page.content.decode()
    assert "This sheet is closed" in page.content.decode()
    assert not IdempotencyKey.objects.filter(key=key).exists()
    sheet.refresh_from_db()
    assert (sheet.hand_count, sheet.last_number) == (0, 0)  # the count rolled back too
    services.reopen_sheet(sheet)
    assert scorer_client.post(url, _hand_post(key)).status_code == 302
    assert sheet.hands.count() == 1
    sheet.refresh_from_db()
    assert (sheet.hand_count, sheet.last_number) == (1, 1)


def test_a_key_is_not_anyone_elses(client, scorer, make_sheet, django_user_model, club):
    sheet = make_sheet(4)
    url = reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    other = django_user_model.objects.create_user("other", password="pw-other-12345")
    Membership.objects.create(club=club, user=other, role=Role.SCORER)
    key = new_key()
    client.force_login(scorer)
    client.post(url, _hand_post(key))
    client.force_login(other)
    assert client.post(url, _hand_post(key)).status_code == 403
    assert sheet.hands.count() == 1


def test_a_sheet_posted_twice_is_opened_once(scorer_client, season, players):
    url = reverse("scoresheet:sheet_create", args=["rive"])
    data = {
        "season": season.pk,
        "date": "2026-03-14",
        "table": "3",
        **{f"seat_{i + 1}": p.pk for i, p in enumerate(players[:4])},
        "new_players": "Zoé",
        FIELD_NAME: new_key(),
    }
    first = scorer_client.post(url, data)
    second = scorer_client.post(url, data)
    assert first.status_code == 302 and second["Location"] == first["Location"]
    assert Sheet.objects.count() == 1
    assert Player.objects.filter(name="Zoé").count() == 1


def test_a_member_invited_twice_is_invited_once(client, club, django_user_model, mailoutbox):
    manager = django_user_model.objects.create_user("boss", password="pw-boss-12345")
    Membership.objects.create(club=club, user=manager, role=Role.MANAGER)
    client.force_login(manager)
    url = reverse("manage:members", args=["rive"])
    data = {"email": "newbie@example.org", "role": Role.MEMBER, FIELD_NAME: new_key()}
    assert client.post(url, data).status_code == 302
    second = client.post(url, data, follow=True)
    assert second.redirect_chain == [(url, 302)]
    assert "already sent" in second.content.decode()
    assert Invitation.objects.filter(club=club, email="newbie@example.org").count() == 1
    assert len(mailoutbox) == 1


def _logged_in_session(user):
    """A session of ``user``, made without the login signal (its handlers write the
    client's address, which a request made outside a test client does not have)."""
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return store.session_key


@pytest.mark.django_db(transaction=True)
def test_two_posts_of_one_hand_at_the_same_instant_store_one_hand():
    """A double tap: two requests with the same key race; the loser of the unique key
    waits for the winner's transaction and answers with its result."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite serialises them)")
    from django.contrib.auth import get_user_model

    club = Club.objects.create(name="Club", slug="rive")
    season = Season.objects.create(club=club, name="S", start_date=datetime.date(2026, 1, 1))
    seated = [Player.objects.create(club=club, name=name) for name in NAMES[:4]]
    user = get_user_model().objects.create_user("scorer", password="pw-scorer-12345")
    Membership.objects.create(club=club, user=user, role=Role.SCORER)
    sheet = services.create_sheet(season=season, players=seated, date=MARCH)
    url = reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    sheet_url = reverse("scoresheet:sheet", args=["rive", sheet.pk])
    session_key = _logged_in_session(user)
    key = new_key()
    entered = threading.Barrier(2)
    real_record = services.record_hand

    def slow_record(*args, **kwargs):
        hand = real_record(*args, **kwargs)
        threading.Event().wait(0.3)  # the other request reaches the key meanwhile
        return hand

    results, errors = [], []

    def post():
        try:
            client = Client()
            client.cookies[settings.SESSION_COOKIE_NAME] = session_key
            entered.wait(timeout=20)
            results.append(client.post(url, _hand_post(key)))
        except Exception as error:
            errors.append(error)
        finally:
            connections.close_all()

    with mock.patch.object(services, "record_hand", side_effect=slow_record):
        threads = [threading.Thread(target=post) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not errors, errors
    assert [r.status_code for r in results] == [302, 302]
    assert len({r["Location"] for r in results}) == 1  # the loser answers with the winner's
    assert results[0]["Location"].startswith(sheet_url)
    assert Hand.objects.filter(sheet=sheet).count() == 1
    assert IdempotencyKey.objects.filter(key=key).count() == 1
