"""A team match is recorded once whatever the order of its tables' confirmations, even
when both are confirmed at the same instant (PostgreSQL: two connections, a barrier);
a refusal of the match reaches whoever confirmed, and the log."""

import datetime
import threading

import pytest
from django.db import connection, connections
from django.urls import reverse

from competitions import services
from competitions.models import Match
from leagues.models import LeagueAuditEntry
from tournaments import services as tournaments
from tournaments import tokens as table_tokens
from tournaments.models import RoundTable

from .conftest import line_ups
from .test_links import HANDS, enter

RACES = 50
DATE = datetime.date(2026, 3, 1)


def started_match(championship, boss, n):
    competition, _division, _teams = championship(deals=2, teams=2, name=f"Interclubs {n}")
    match = competition.matches.get()
    line_ups(match, actor=boss)
    services.start_match(match, actor=boss)
    one, two = [t.round_table for t in match.tables.order_by("number")]
    deals = (enter(one, HANDS), enter(two, [dict(h, taker=(h["taker"] + 1) % 4) for h in HANDS]))
    return match, ((one, deals[0]), (two, deals[1]))


def race(tables):
    barrier = threading.Barrier(len(tables))
    errors, notices = [], []

    def confirm(table, deals):
        try:
            barrier.wait(timeout=30)
            result = tournaments.check_table(
                RoundTable.objects.get(pk=table.pk), deals=deals, by_name="second"
            )
            notices.extend(result.notices)
        except Exception as error:  # reported in the test's thread
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=confirm, args=pair) for pair in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors, notices


@pytest.mark.django_db(transaction=True)
def test_both_tables_confirmed_at_once_record_the_match_once(championship, boss):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite serialises them)")
    recorded = 0
    for n in range(RACES):
        match, tables = started_match(championship, boss, n)
        entries = LeagueAuditEntry.objects.filter(action="match_recorded")
        before = entries.count()
        errors, notices = race(tables)
        assert not errors, errors
        assert not any(notice.refused for notice in notices), notices
        match = Match.objects.get(pk=match.pk)
        assert match.recorded_at is not None, f"race {n}: never recorded"
        times = entries.count() - before
        assert times == 1, f"race {n}: recorded {times} times"
        recorded += 1
    assert recorded == RACES


def test_a_refusal_of_the_match_reaches_the_organiser_and_the_log(
    championship, boss, caplog, monkeypatch
):
    """A table can no longer play another count of deals than its round's, so the
    match's refusal is made here, where the competitions record the tables' result."""
    match, ((one, first), (two, second)) = started_match(championship, boss, 0)

    def differ(*args, **kwargs):
        raise services.CompetitionError("tables_differ", one=2, two=3)

    monkeypatch.setattr(services, "_record_outcome", differ)
    tournaments.check_table(RoundTable.objects.get(pk=one.pk), deals=first, by_name="b")
    with caplog.at_level("WARNING", logger="tournaments.followups"):
        result = tournaments.check_table(
            RoundTable.objects.get(pk=two.pk), deals=second, by_name="b"
        )
    assert [(n.refused, n.message) for n in result.notices] == [
        (True, "The match's tables played 2 and 3 deals: the league manager enters the result.")
    ]
    assert "refused" in caplog.text and "tables_differ" in caplog.text
    assert not Match.objects.get(pk=match.pk).played
    assert RoundTable.objects.get(pk=two.pk).state == "confirmed"  # the confirmation stands


def test_the_last_table_is_told_the_result_is_provisional(championship, boss):
    match, ((one, first), (two, second)) = started_match(championship, boss, 0)
    result = tournaments.check_table(RoundTable.objects.get(pk=one.pk), deals=first, by_name="b")
    assert [n.message for n in result.notices] == [
        "Confirmed. The match is recorded once the other table confirms too."
    ]
    result = tournaments.check_table(RoundTable.objects.get(pk=two.pk), deals=second, by_name="b")
    assert [n.message for n in result.notices] == [str(services.PROVISIONAL)]
    assert Match.objects.get(pk=match.pk).played


def test_the_tables_links_say_provisional_and_the_club_lists_no_such_tournament(
    championship, boss, client
):
    match, ((one, first), (two, second)) = started_match(championship, boss, 0)
    own = tournaments.create_tournament(
        match.home.club, name="Tournoi du club", date=DATE, rules="fft", rounds=1, deals_per_round=4
    )
    url = reverse("table:check", args=[table_tokens.token(RoundTable.objects.get(pk=two.pk))])
    tournaments.check_table(RoundTable.objects.get(pk=one.pk), deals=first, by_name="b")
    data = {f"deal_{i}_{k}": v for i, row in enumerate(second) for k, v in enumerate(row)}
    page = client.post(url, {**data, "by_name": "b"}, follow=True, HTTP_ACCEPT_LANGUAGE="fr")
    text = page.content.decode()
    assert "provisoire" in text and "réclamation" in text
    assert "ses résultats sont définitifs" not in text
    assert Match.objects.get(pk=match.pk).played
    event = RoundTable.objects.get(pk=two.pk).round.tournament
    assert event.is_closed and event.team_match
    manager = match.home.club.memberships.first().user
    client.force_login(manager)
    listed = client.get(reverse("tournaments:list", args=[match.home.club.slug]))
    assert own.name in listed.content.decode()
    assert event.name not in listed.content.decode()
