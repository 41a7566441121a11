"""``core.db``'s bulk-load helpers: commits that do not wait for the disk, and
flushing every commit to disk before a load reports; ``plain_values``."""

import pytest
from django.db import connection, transaction
from django.db.models import Count, F, Q, Sum

from core.db import commit_without_waiting, flush_to_disk, plain_values


def synchronous_commit():
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        return cursor.fetchone()[0]


def wal(position):
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT pg_current_wal_{position}_lsn()")
        return cursor.fetchone()[0]


def flushed_up_to(lsn):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_flush_lsn() >= %s::pg_lsn", [lsn])
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
def test_commits_stop_waiting_and_a_flush_puts_them_all_on_disk_at_once(club):
    if connection.vendor != "postgresql":
        pytest.skip("synchronous_commit is PostgreSQL's")
    commit_without_waiting()
    try:
        assert synchronous_commit() == "off"
        for i in range(20):  # commits the WAL writer flushes only every 200 ms
            with transaction.atomic():
                club.players.create(name=f"Player {i}")
        written = wal("insert")
        flush_to_disk()
        assert flushed_up_to(written)  # at once: no wait for the WAL writer
        assert synchronous_commit() == "off"  # SET LOCAL: the flush's transaction only
    finally:
        connection.close()  # the next test's connection waits again


@pytest.mark.django_db
def test_a_flush_inside_a_transaction_is_refused():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's")
    with pytest.raises(RuntimeError, match="outside a transaction"):
        flush_to_disk()


def test_plain_values_reads_what_django_reads(make_sheet, scorer):
    """The same rows, keys, values and types as Django's own ``values()`` (dates,
    decimals, sums and counts, annotations, an empty ``IN``), the driver's types
    taken as they come on PostgreSQL."""
    from scoresheet import services
    from scoresheet.models import ScoreRow, SheetTotal
    from tests.data import SEED_HANDS

    sheet = make_sheet(4)
    for data in SEED_HANDS:
        services.record_hand(sheet, data, actor=scorer)

    querysets = [
        SheetTotal.objects.order_by("date", "sheet_id").values("date", "sheet_id", "score", "best"),
        ScoreRow.objects.values("date", "role")
        .annotate(n=Count("pk"), points=Sum("score"), takes=Count("pk", filter=Q(role="taker")))
        .order_by("date", "role"),
        ScoreRow.objects.annotate(table=F("sheet__table")).values("table", "number")[:3],
        SheetTotal.objects.filter(player_id__in=[]).values("date"),
    ]
    for queryset in querysets:
        expected = list(queryset.all())
        found = plain_values(queryset.all())
        assert found == expected
        assert [{k: type(v) for k, v in row.items()} for row in found] == [
            {k: type(v) for k, v in row.items()} for row in expected
        ]
    assert plain_values(querysets[0])[0]["score"] is not None
    with pytest.raises(TypeError):
        plain_values(SheetTotal.objects.all())
