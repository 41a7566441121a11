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
from django.db import IntegrityError, OperationalError, connection, connections, transaction
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Invitation, Membership, Player, Role, Season
from core import db as core_db
from core.idempotency import FIELD_NAME, new_key
from core.models import IdempotencyKey
from scoresheet import facts, services
from scoresheet.models import (
    MAX_BOUTS,
    MAX_POINTS,
    MAX_SEATS,
    MIN_PLAYING,
    Hand,
    ScoreRow,
    SeasonTotal,
    Seat,
    Sheet,
    SheetFacts,
    SheetTotal,
)
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
    hands_per_sheet = 12  # 96 writes at once, corrections among them (25: 117 s of CI)
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
    """A post refused (the sheet is closed: the page says why and how to reopen it)
    stores nothing, the key neither: the same post runs once the sheet is reopened."""
    sheet = make_sheet(4)
    url = reverse("scoresheet:hand_create", args=["rive", sheet.pk])
    key = new_key()
    services.close_sheet(sheet)
    page = scorer_client.post(url, _hand_post(key))
    assert page.status_code == 409
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


# ---------------------------------------------------------------- the database's checks


@pytest.fixture
def recorded(make_sheet):
    """A sheet of five with one hand (Anna takes a garde, calls Cleo, and makes it)."""
    sheet = make_sheet(5)
    names = services.Table.of(sheet).names
    hand = services.record_hand(
        sheet,
        {"taker": names[0], "contract": "garde", "partner": names[2], "bouts": 2, "points": 56},
    )
    return sheet, hand


def _nested(**changes):
    """A SheetTotal's counters that hold together, but for ``changes``."""
    return {
        "seated": 5, "hands": 5, "taken": 2, "made": 1,
        "run_first": 0, "run_last": 0, "run_best": 0, **changes,
    }  # fmt: skip


# (model, changes, the check that refuses them): each breaks one rule of a row alone
BROKEN = [
    (Hand, {"number": 0}, "hand_number_from_1"),
    (Hand, {"bouts": 4}, "hand_bouts_range"),
    (Hand, {"points": Decimal("91.5")}, "hand_points_range"),
    (Hand, {"petit_au_bout": "both"}, "hand_petit_au_bout_side"),
    (ScoreRow, {"role": "king"}, "score_row_role_known"),
    (ScoreRow, {"seats": 7, "playing": 7}, "score_row_seat_in_table"),
    (ScoreRow, {"seats": 1, "playing": 1, "position": 0}, "score_row_seat_in_table"),
    (ScoreRow, {"position": 5}, "score_row_seat_in_table"),
    (ScoreRow, {"playing": 6}, "score_row_seat_in_table"),
    (ScoreRow, {"playing": 1}, "score_row_seat_in_table"),
    (ScoreRow, {"number": 0}, "score_row_number_from_1"),
    (ScoreRow, {"bouts": 4}, "score_row_bouts_range"),
    (ScoreRow, {"margin": 92}, "score_row_margin_range"),
    (ScoreRow, {"margin": -92}, "score_row_margin_range"),
    (ScoreRow, {"poignee": "quadruple"}, "score_row_codes_known"),
    (ScoreRow, {"chelem": "grand"}, "score_row_codes_known"),
    (ScoreRow, {"petit_au_bout": "both"}, "score_row_codes_known"),
    (ScoreRow, {"factor": 3}, "score_row_factor_known"),
    (Seat, {"position": 6}, "seat_position_range"),
    (SheetTotal, _nested(made=3), "sheet_total_counts_nested"),
    (SheetTotal, _nested(hands=6), "sheet_total_counts_nested"),
    (SheetTotal, _nested(run_best=2), "sheet_total_counts_nested"),
    (SheetTotal, _nested(run_last=1), "sheet_total_counts_nested"),
    (SheetTotal, {"pab_attack_won": -1}, "sheet_total_counts"),
    (SheetTotal, {"taker_bouts": -1}, "sheet_total_counts"),
    (SheetFacts, {"passed": -1}, "sheet_facts_counts"),
    (SheetFacts, {"made": 2}, "sheet_facts_counts_nested"),
]


@pytest.mark.parametrize(
    ("model", "changes", "check"), BROKEN, ids=[f"{k}:{','.join(c)}" for _, c, k in BROKEN]
)
def test_a_row_that_breaks_a_rule_of_its_own_is_refused_by_the_database(
    recorded, model, changes, check
):
    """Whatever writes behind the services' back (a bulk load, a hand-made SQL repair,
    a bug) cannot store a row the rules forbid on its face: the database refuses it."""
    sheet, _ = recorded
    row = model.objects.filter(sheet=sheet).order_by("pk").first()
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        model.objects.filter(pk=row.pk).update(**changes)
    assert check in str(refused.value)


# (model, changes): the bounds themselves are allowed
AT_THE_BOUNDS = [
    (Hand, {"points": Decimal(91), "bouts": 3}),
    (Hand, {"points": Decimal(0), "bouts": 0}),
    (ScoreRow, {"margin": 91, "bouts": 3, "factor": 8}),
    (ScoreRow, {"margin": -91, "bouts": 0, "factor": 1}),
    (ScoreRow, {"seats": 6, "playing": 6, "position": 5}),
    (ScoreRow, {"seats": 2, "playing": 2, "position": 1}),
    (Seat, {"position": 5}),
    (SheetTotal, _nested(made=2, run_best=2, run_first=2, run_last=2)),
]


@pytest.mark.parametrize(("model", "changes"), AT_THE_BOUNDS)
def test_a_row_at_the_bounds_is_accepted(recorded, model, changes):
    sheet, _ = recorded
    row = model.objects.filter(sheet=sheet).order_by("-pk").first()
    with transaction.atomic():
        assert model.objects.filter(pk=row.pk).update(**changes) == 1


def test_the_bounds_are_the_registered_games(recorded):
    """The checks' bounds are asked of the engine (the migration froze today's)."""
    assert (MAX_POINTS, MAX_BOUTS, MIN_PLAYING, MAX_SEATS) == (91, 3, 2, 6)


# ---------------------------------------------------------------- the ledger's capacity


def _scoring_at(halves_of_taker):
    """``score_hand`` as the engine's, but the taker's score is ``halves_of_taker``
    (the defenders share the opposite, as the rules would): rules with huge bonuses
    reach the score column's capacity; this reaches it exactly."""
    real = services.score_hand

    def scored(*args, **kwargs):
        result = real(*args, **kwargs)
        defenders = len(result.halves) - 1
        result.halves = [halves_of_taker] + [-halves_of_taker // defenders] * defenders
        return result

    return mock.patch.object(services, "score_hand", scored)


def test_a_score_exactly_at_the_ledgers_capacity_is_kept_and_one_over_refused(make_sheet):
    """``SCORE_MAX_HALVES`` is the most ScoreRow.score holds (numeric(10, 1): 999,999,999.5
    points): a hand scoring exactly that is stored and read back; half a point more is
    refused (``amount_too_large``) before anything is written."""
    sheet = make_sheet(4)
    taker = services.Table.of(sheet).names[0]
    hand = {"taker": taker, "contract": "garde", "bouts": 2, "points": 56}
    capacity = services.SCORE_MAX_HALVES
    assert capacity == 1_999_999_999

    with _scoring_at(capacity):
        kept = services.record_hand(sheet, hand)
    assert kept.scores.get(position=0).score == Decimal("999999999.5")

    for over in (capacity + 1, -(capacity + 1)):
        with _scoring_at(over), pytest.raises(services.LedgerError) as refused:
            services.record_hand(sheet, hand)
        assert refused.value.code == "amount_too_large"
    assert Hand.objects.filter(sheet=sheet).count() == 1


# ---------------------------------------------------------------- foreign keys

#: The ledger's references the database checks (deferred to the commit on PostgreSQL)
REFERENCES = [
    (Hand, "dealer_id"),
    (Hand, "taker_id"),
    (Hand, "partner_id"),
    (Hand, "sits_out_id"),
    (ScoreRow, "sheet_id"),
    (ScoreRow, "season_id"),
    (ScoreRow, "player_id"),
]


@pytest.mark.parametrize(("model", "column"), REFERENCES)
def test_a_row_naming_nothing_is_refused_at_the_commit(recorded, model, column):
    """A hand or a score row that names a player, a sheet or a season that does not
    exist cannot be committed (``check_constraints`` runs the deferred checks now,
    as the commit would)."""
    sheet, _ = recorded
    row = model.objects.filter(sheet=sheet).order_by("pk").first()
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.filter(pk=row.pk).update(**{column: 10**9})
        connection.check_constraints(table_names=[model._meta.db_table])
