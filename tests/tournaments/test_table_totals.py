"""A table's result entered by the organiser alone, totals only: when a table
cannot use its link. Zero-sum checked with the player named, audited, in the ranking like
a sheet's totals, correctable and cancellable with its history."""

from decimal import Decimal

import pytest
from django.urls import reverse

from clubs.models import AuditEntry
from tests.tournaments.helpers import play_round
from tournaments import queries, services
from tournaments.models import RoundTable, TableResult, TableTotal
from tournaments.services import TournamentError


@pytest.fixture
def started(make_tournament, manager):
    t = make_tournament(players=8, rounds=2)  # two tables of 4
    services.draw_schedule(t)
    first = t.round_set.get(number=1)
    services.start_round(first)
    play_round(t, first, skip=(2,))  # table 2 has no phone: nothing entered
    return t


def table_of(t, number=2, round_number=1):
    return RoundTable.objects.get(round__tournament=t, round__number=round_number, number=number)


def row_of(t, number):
    return next(r for r in queries.ranking(t) if r["number"] == number)


def test_totals_count_in_the_ranking_like_a_sheet(started, manager):
    t = started
    table = table_of(t)
    seats = table.seats
    before = {n: row_of(t, n)["total"] for n in seats}
    result = services.enter_table_totals(table, ["+120", "-40", "-40,5", "-39.5"], actor=manager)
    assert result.kind == TableResult.Kind.TOTALS and result.confirmed
    table.refresh_from_db()
    assert table.state == RoundTable.State.CONFIRMED
    table.sheet.refresh_from_db()
    assert table.sheet.closed_at is not None  # the link takes no deals now
    typed = dict(zip(seats, [Decimal(120), Decimal(-40), Decimal("-40.5"), Decimal("-39.5")]))
    for n in seats:
        row = row_of(t, n)
        assert row["total"] == before[n] + typed[n]
        assert row["rounds"][0] == typed[n]
    views = queries.round_tables(t, t.round_set.get(number=1))
    view = next(v for v in views if v.table.number == 2)
    assert view.totals_only and view.state == "complete" and view.bilan == 0
    assert [total for _l, _e, total in view.seat_totals] == [typed[n] for n in seats]
    entry = AuditEntry.objects.filter(action="table_confirmed").latest("pk")
    assert entry.after["totals"][str(seats[2])] == "-40.5"
    # The round closes: the table's result is its totals.
    services.close_round(t.round_set.get(number=1), actor=manager)


def test_a_correction_and_a_cancellation_keep_the_history(started, manager):
    t = started
    table = table_of(t)
    services.enter_table_totals(table, ["10", "-10", "0", "0"], actor=manager)
    services.enter_table_totals(table, ["20", "-10", "-10", "0"], actor=manager)
    assert row_of(t, table.seats[0])["rounds"][0] == 20
    assert TableTotal.objects.filter(round_table=table).count() == 4
    kinds = list(table.results.values_list("kind", "confirmed"))
    assert kinds == [("totals", False), ("totals", True)]
    services.cancel_table_totals(table, actor=manager)
    table.refresh_from_db()
    assert table.state == RoundTable.State.OPEN
    assert not TableTotal.objects.filter(round_table=table).exists()
    assert row_of(t, table.seats[0])["rounds"][0] is None
    assert [k for k, _c in table.results.values_list("kind", "confirmed")][-1] == "cancelled"
    table.sheet.refresh_from_db()
    assert table.sheet.closed_at is None  # the link works again
    assert AuditEntry.objects.filter(action="table_reopened").exists()
    with pytest.raises(TournamentError) as refused:
        services.cancel_table_totals(table, actor=manager)
    assert refused.value.code == "no_totals"


@pytest.mark.parametrize(
    ("values", "named"),
    [
        (["105", "-49", "-3", "-33"], "-49"),  # -49 typed for -69: one digit (-33 too)
        (["57", "-33", "-12", "12"], "12"),  # +12 for -12: the sign
    ],
)
def test_totals_not_adding_up_to_zero_are_refused_naming_the_player(
    started, manager, values, named
):
    t = started
    table = table_of(t)
    names = [t.entries.get(number=n).player.name for n in table.seats]
    with pytest.raises(TournamentError) as refused:
        services.enter_table_totals(table, values, actor=manager)
    assert refused.value.code == "check_not_zero"
    suspect = names[values.index(named)]
    assert suspect in refused.value.message
    assert names[0] not in refused.value.message  # 105 - 20 is no slip of one digit
    assert not TableTotal.objects.exists()
    assert not table.results.exists()


def test_a_table_with_deals_takes_no_totals(started, manager):
    with pytest.raises(TournamentError) as refused:
        services.enter_table_totals(table_of(started, 1), ["0"] * 4, actor=manager)
    assert refused.value.code == "table_has_deals"
    with pytest.raises(TournamentError) as refused:
        services.enter_table_totals(table_of(started, 2), ["1", "x", "0", "0"], actor=manager)
    assert refused.value.code == "bad_score"


def test_the_page_posts_and_refuses(client, started, manager):
    t = started
    table = table_of(t)
    client.force_login(manager)
    args = [t.club.slug, t.pk, 1, 2]
    page = client.get(reverse("tournaments:round", args=args[:3]))
    assert b"data-totals-form" in page.content
    url = reverse("tournaments:table_totals", args=args)
    response = client.post(url, {"total_0": "5", "total_1": "-5", "total_2": "1", "total_3": "0"})
    assert response.status_code == 302
    assert not TableTotal.objects.exists()
    response = client.post(
        url, {"total_0": "5", "total_1": "\u22125", "total_2": "0", "total_3": "0"}, follow=True
    )
    assert TableTotal.objects.filter(round_table=table).count() == 4
    assert b"data-totals-only" in response.content
    cancel = reverse("tournaments:table_totals_cancel", args=args)
    client.post(cancel)
    assert not TableTotal.objects.exists()
